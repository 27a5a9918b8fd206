package jsonindent

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Append writes what json.Indent writes for any valid JSON.
func FuzzAppend(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":null}]}`, " \n{ \"a\" : [ true , false ] }\n\n",
		`"x"`, `12 `, `[[[]],[{}]]`, `{"s":"a\"b\\","t":"{[,:]}"}`, `{"k\u00e9":-1.5e+3}`,
	} {
		f.Add([]byte(seed), "  ")
	}
	f.Add([]byte(`{"a":[1]}`), "\t")
	f.Fuzz(func(t *testing.T, src []byte, indent string) {
		if !json.Valid(src) {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, src, "", indent); err != nil {
			t.Fatalf("json.Indent(%q): %v", src, err)
		}
		if got := Append([]byte("x"), src, indent); !bytes.Equal(got, append([]byte("x"), want.Bytes()...)) {
			t.Errorf("Append(%q, %q) = %q, want %q", src, indent, got[1:], want.Bytes())
		}
	})
}
