package goclient

import (
	"slices"
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
		if got := fill(c.in); !slices.Equal(got, c.want) {
			t.Errorf("fill(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
