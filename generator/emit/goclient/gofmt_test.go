package goclient

import (
	"bytes"
	"go/format"
	"testing"
)

// gofmt formats a file to the same bytes as go/format.Source: imports
// sorted, doc comments reformatted, number literals normalised, fields
// aligned.
func TestGofmtIsFormatSource(t *testing.T) {
	for _, src := range []string{
		"package p\n",
		"// Package p is here.\npackage p\nimport (\n\"strings\"\n\"bytes\"\n\n\"fmt\"\n)\nvar _ = strings.ToLower\nvar _ = bytes.Equal\nvar _ = fmt.Sprint\n",
		"package p\nimport \"os\"\nimport \"io\"\nvar _, _ = os.Stdin, io.EOF\n",
		"package p\nconst (\na = 0X1F\nb = 1E+06\nc = 0B101\nd = 0O17\ne = 0x1P-2\nf = 1_000i\ng = 012\n)\n",
		"package p\n// T is a thing.\n//A heading-like line\n//   indented code\n// - a list item\ntype T struct {\n// A is short.\nA int `json:\"a\"`\nLongerName   string `json:\"longerName,omitempty\"`\n}\nfunc (t *T) M() error {\nif t==nil {return nil}\nreturn nil}\n",
	} {
		want, err := format.Source([]byte(src))
		if err != nil {
			t.Fatalf("format.Source(%q): %v", src, err)
		}
		var got bytes.Buffer
		if err := gofmt(&got, []byte(src)); err != nil {
			t.Fatalf("gofmt(%q): %v", src, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("gofmt(%q) =\n%s\nformat.Source:\n%s", src, got.Bytes(), want)
		}
	}
	if err := gofmt(new(bytes.Buffer), []byte("package p\nfunc {")); err == nil {
		t.Error("gofmt of broken Go: no error")
	}
}
