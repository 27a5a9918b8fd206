package pattern

import (
	"regexp"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

// FuzzTranslate: the two engines give a pattern one meaning. What
// translate spells for RE2 answers as regexp2 does with forRegexp2's
// spelling of the same pattern.
func FuzzTranslate(f *testing.F) {
	for _, seed := range [][2]string{
		{`^[a-z][a-z0-9-]*$`, "my-app"}, {`^\s*\S+\s*$`, " a "}, {`[^]x{2,3}`, "axx"}, {`\x41[\b\-a-c]`, "A-"},
		{`^(?:a|b)+?c{,2}$`, "abc{,2}"}, {`\\d.\u00e9`, "\\dxé"}, {`[\w.-]+@[\w-]+`, "a.b@c-d"},
		{`[0-[]]`, "0"}, {`\b`, "\u05ad"}, {`a.\B`, "a\u2028"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		expr, ok := translate(src)
		if !ok {
			return
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		spelled, _ := forRegexp2(src)
		ref, err := regexp2.Compile(spelled, regexp2.ECMAScript)
		if err != nil {
			return // Compile refuses it: regexp2 judges the syntax
		}
		ref.MatchTimeout = time.Second
		want, err := ref.MatchString(s)
		if err != nil {
			return
		}
		if got := re.MatchString(s); got != want {
			t.Fatalf("%q on %q: RE2 (%s) says %v, regexp2 (%s) %v", src, s, expr, got, spelled, want)
		}
	})
}
