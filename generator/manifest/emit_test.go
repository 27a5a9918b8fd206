package manifest

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
)

// TestPrinterWarnsWhenBlockCannotBeCopied: a block scalar whose source
// text cannot be found is not silently restyled: the printer warns, naming
// the file and line, and writes a value that means the same.
func TestPrinterWarnsWhenBlockCannotBeCopied(t *testing.T) {
	data := "d: | # a comment\n  ends in spaces  \n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	p := printer{file: "m.yaml", src: []string{"d: not the source"}}
	out, err := p.print(&doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.diags) != 1 || p.diags[0].Severity != diag.Warning || p.diags[0].Rule != RuleFormat ||
		p.diags[0].Span.File != "m.yaml" || p.diags[0].Span.Line != 1 {
		t.Errorf("diagnostics = %v, want one %s warning at m.yaml:1", p.diags, RuleFormat)
	}
	if !sameValue([]byte(data), out) || !strings.HasPrefix(string(out), "d: \"") || !strings.Contains(string(out), "\" # a comment\n") {
		t.Errorf("output %q: want the same value, double-quoted, and the comment", out)
	}
	// A block yaml.v3 can write itself stays a block, the comment on its
	// header's line.
	data = "d: | # a comment\n  two\n  lines\n"
	doc = yaml.Node{}
	if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	p = printer{file: "m.yaml", src: []string{"d: not the source"}}
	out, err = p.print(&doc)
	if err != nil || !sameValue([]byte(data), out) || string(out) != "d: | # a comment\n  two\n  lines\n" {
		t.Errorf("output %q, %v: want the block with its comment", out, err)
	}
}

// TestSinkFeetSequenceRoot: in a file that is a list, the last item keeps
// its own foot and the feet below it are written under the innermost key,
// where yaml.v3 reads them back.
func TestSinkFeetSequenceRoot(t *testing.T) {
	data := "- c\n- x:\n    y:\n      z: 1\n      # fz\n    # fy\n  # fx\n"
	out, diags := Format("l.yaml", []byte(data))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := "- c\n- x:\n    y:\n      z: 1\n      # fz\n      # fy\n      # fx\n"
	if string(out) != want {
		t.Errorf("Format = %q, want %q", out, want)
	}
	if again, _ := Format("l.yaml", out); string(again) != string(out) {
		t.Errorf("not idempotent: %q", again)
	}
}
