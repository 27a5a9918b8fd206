package pattern

import (
	"testing"
	"unicode/utf8"
)

// FuzzCost: the bound Steps relies on holds. A pattern whose Cost says it
// is anchored at the start with matches of at most Longest characters
// matches, where it matches, at the start and within Longest characters;
// and every value costs at least one character's steps.
func FuzzCost(f *testing.F) {
	for _, seed := range [][2]string{
		{`^[a-z0-9-]{1,63}$`, "my-app"}, {`^(?:ab|c)\d{2}`, "ab12x"}, {`^a{0,999}b`, "aaab"}, {`^\bx`, "x"},
		{`^(a|bb)?c*`, "bbccc"}, {`^.{2}$`, "é😀"}, {`^[]`, ""}, {`a{0,9}b`, "aab"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		p, err := Compile(src)
		if err != nil {
			return
		}
		c := p.Cost()
		if steps := p.Steps(s); steps < c.PerChar || c.PerChar <= 0 {
			t.Fatalf("%q on %q: %d steps, %d per character", src, s, steps, c.PerChar)
		}
		if p.re2 == nil || c.Longest < 0 {
			return
		}
		loc := p.re2.FindStringIndex(s)
		if loc == nil {
			return
		}
		if n := int64(utf8.RuneCountInString(s[:loc[1]])); loc[0] != 0 || n > c.Longest {
			t.Fatalf("%q (Longest %d) on %q: a match at %v, %d characters long", src, c.Longest, s, loc, n)
		}
	})
}
