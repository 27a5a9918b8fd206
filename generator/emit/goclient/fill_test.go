package goclient

import (
	"strings"
	"testing"
)

// fill breaks at word boundaries (any Unicode space, runs of them
// collapsed) into lines of at most commentWidth bytes; a longer word
// gets a line of its own.
func TestFill(t *testing.T) {
	long := strings.Repeat("x", commentWidth+3)
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  \t\n ", nil},
		{"one  two\tthree\u00a0four\u2003five", []string{"one two three four five"}},
		{strings.Repeat("abcd ", 16), []string{strings.TrimSpace(strings.Repeat("abcd ", 15)), "abcd"}},
		{"a " + long + " b", []string{"a", long, "b"}},
		{strings.Repeat("y", commentWidth-2) + " zz", []string{strings.Repeat("y", commentWidth-2), "zz"}},
		{strings.Repeat("y", commentWidth-2) + " z", []string{strings.Repeat("y", commentWidth-2) + " z"}},
	} {
		var ct commentText
		n := ct.fill([]string{c.in})
		var want []string
		for _, l := range c.want {
			want = append(want, "// "+l)
		}
		if got := ct.b.String(); got != strings.Join(want, "\n") || n != len(want) {
			t.Errorf("fill(%q) = %q (%d lines), want %q", c.in, got, n, want)
		}
	}
}
