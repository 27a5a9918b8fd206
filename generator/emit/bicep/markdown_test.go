package bicep

import (
	"slices"
	"testing"
)

// sortByLowerName orders as the reference library does: lower-cased names
// by UTF-16 code units (JavaScript's <), ties in their first order. Names
// that are all ASCII take a faster comparison, which must agree.
func TestSortByLowerName(t *testing.T) {
	type named struct{ name, tag string }
	name := func(n named) string { return n.name }
	for _, tc := range []struct {
		in   []named
		want []string // tags, in order
	}{
		{[]named{{"beta", "b"}, {"Alpha", "A"}, {"alpha", "a"}, {"ALPHA", "AA"}, {"a-z", "dash"}, {"a_z", "under"}},
			[]string{"dash", "under", "A", "a", "AA", "b"}},
		// U+FF5E sorts after U+1F600 in UTF-8 byte order, before it in
		// UTF-16 (a surrogate pair starts at 0xD83D).
		{[]named{{"\uff5e", "fullwidth"}, {"\U0001F600", "emoji"}, {"z", "z"}},
			[]string{"z", "emoji", "fullwidth"}},
		{nil, []string{}},
	} {
		got := []string{}
		for _, n := range sortByLowerName(tc.in, name) {
			got = append(got, n.tag)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("sortByLowerName(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
