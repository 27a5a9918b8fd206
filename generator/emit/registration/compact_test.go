package registration

import (
	"bytes"
	"encoding/json"
	"testing"
)

// compact returns what json.Compact does: the schema itself when it is
// compact already (space inside strings and escaped quotes included).
func TestCompactMatchesJSONCompact(t *testing.T) {
	for _, src := range []string{
		`{}`, `{"a":1}`, `{"description":"a b\tc","enum":["x y"]}`, `{"q":"say \"hi there\"","b":[1,2]}`,
		`{"e":"\\","f":" "}`, "{ \"a\": 1 }", "{\"a\":\n[1, 2]}", `{"a":"\" ","b": 2}`,
	} {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(src)); err != nil {
			t.Fatal(err)
		}
		if got := compact(json.RawMessage(src)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("compact(%s) = %s, want %s", src, got, want.Bytes())
		}
		if isCompact([]byte(src)) != (src == want.String()) {
			t.Errorf("isCompact(%s) = %v, want %v", src, isCompact([]byte(src)), src == want.String())
		}
	}
}
