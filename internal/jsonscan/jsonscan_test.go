package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestSkipValueEndsWhereTheValueEnds(t *testing.T) {
	for _, v := range []string{
		`"a"`, `"a\"b\\"`, `"\u00e9 \/ }]"`, `123`, `-1.5e+10`, `true`, `false`, `null`,
		`{}`, `[]`, `{"a":[1,{"b":"}"}],"c":null}`, `[ "]" , { "x" : [ ] } ]`, `{"\"":"\\"}`,
	} {
		for _, tail := range []string{"", ",", " ]", "}"} {
			b := []byte(v + tail)
			if got := SkipValue(b, 0); got != len(v) {
				t.Errorf("SkipValue(%q) = %d, want %d", b, got, len(v))
			}
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
}

// On valid JSON, SkipValue from the first byte reaches the end; on any
// input it stays in bounds.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"",{}]}`, `"\\"`, `[`, `"`, `tru`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end := SkipValue(b, SkipSpace(b, 0))
		if end < 0 || end > len(b) {
			t.Fatalf("SkipValue(%q) = %d, out of bounds", b, end)
		}
		if json.Valid(b) {
			if got := SkipSpace(b, end); got != len(b) {
				t.Fatalf("SkipValue(%q) stopped at %d, before the end of the value", b, end)
			}
		}
	})
}
