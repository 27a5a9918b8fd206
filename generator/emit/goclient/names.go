package goclient

import (
	"strconv"
	"strings"
	"unicode"
)

// initialisms are the words written in upper case in Go names, after the
// list golint and staticcheck use.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true,
	"XSRF": true, "XSS": true,
}

// words splits an identifier-ish string into words: at separators (anything
// that is not a letter or digit), at lower→upper transitions ("fooBar") and
// before the last capital of a run of capitals followed by a lower-case
// letter ("HTTPServer" → "HTTP", "Server"). Digits stay with the word before.
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !isAlnum(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		if unicode.IsUpper(r) {
			next := rune(0)
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			if unicode.IsLower(prev) || unicode.IsDigit(prev) ||
				(unicode.IsUpper(prev) && unicode.IsLower(next)) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(rs))
	return out
}

func isAlnum(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// pascal converts s to an exported Go identifier: words from [words], each
// capitalised, initialisms upper-cased ("dnsName" → "DNSName", "mySqlDb" →
// "MySQLDb"). A result that would start with a digit gets an "X" prefix; an
// empty result is "X".
func pascal(s string) string {
	out := joinWords(s)
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "X" + out
	}
	return out
}

// joinWords is [pascal] without the guard against a leading digit.
func joinWords(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if u := strings.ToUpper(w); initialisms[u] {
			b.WriteString(u)
			continue
		}
		rs := []rune(w)
		rs[0] = unicode.ToUpper(rs[0])
		b.WriteString(string(rs))
	}
	return b.String()
}

// singular turns the last word of a plural type name into its singular with
// a small suffix rule (documented in docs/go-client.md):
//
//	-ies → -y        (policies → policy)
//	-sses → -ss      (addresses → address)
//	-xes, -zes → -x, -z (boxes → box)
//	-uses → -us      (buses → bus, statuses → status)
//	-[consonant]ches, -shes → -ch, -sh (batches → batch, meshes → mesh)
//	-s → ""          unless the word ends in -ss, -us or -is (caches → cache)
func singular(s string) string {
	lower := strings.ToLower(s)
	has := func(suffix string) bool {
		return strings.HasSuffix(lower, suffix) && len(lower) > len(suffix)
	}
	switch {
	case has("ies"):
		return s[:len(s)-3] + matchCase(s[len(s)-3:], "y")
	case has("sses"), has("xes"), has("zes"), has("uses"), has("shes"):
		return s[:len(s)-2]
	case has("ches") && !isVowel(lower[len(lower)-5]):
		return s[:len(s)-2]
	case has("s") && !has("ss") && !has("us") && !has("is"):
		return s[:len(s)-1]
	}
	return s
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// matchCase returns repl upper-cased when like is all upper case.
func matchCase(like, repl string) string {
	if like == strings.ToUpper(like) {
		return strings.ToUpper(repl)
	}
	return repl
}

// typeName is the Go name of a resource type: every segment of the type name
// singularised and converted with [pascal] ("contosoBuses/queues" →
// "ContosoBusQueue").
func typeName(segments []string) string {
	var b strings.Builder
	for _, seg := range segments {
		b.WriteString(pascal(singular(seg)))
	}
	return b.String()
}

// namer hands out unique names. The first claimant of a name keeps it; later
// ones get the smallest free numeric suffix starting at 2, so a name only
// changes when something sorting before it claims the same name.
type namer struct {
	used map[string]bool
}

func newNamer(reserved ...string) *namer {
	n := &namer{used: map[string]bool{}}
	for _, r := range reserved {
		n.used[r] = true
	}
	return n
}

// claim returns want, or want with a suffix when want is taken, and reports
// whether it had to rename.
func (n *namer) claim(want string) (string, bool) {
	if !n.used[want] {
		n.used[want] = true
		return want, false
	}
	for i := 2; ; i++ {
		c := want + strconv.Itoa(i)
		if !n.used[c] {
			n.used[c] = true
			return c, true
		}
	}
}

// pkgDir is the directory name of a namespace: lower-cased without dots or
// other separators ("MyCompany.Resources" → "mycompanyresources").
func pkgDir(namespace string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(namespace) {
		if isAlnum(r) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || unicode.IsDigit(rune(b.String()[0])) {
		return "ns" + b.String()
	}
	return b.String()
}

// versionDir is the package name of an API version ("2025-01-01-preview" →
// "v20250101preview").
func versionDir(version string) string {
	var b strings.Builder
	b.WriteByte('v')
	for _, r := range strings.ToLower(version) {
		if isAlnum(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
