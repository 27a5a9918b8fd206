// Package naming owns the names the generated artifacts give to resource
// types: the Bicep extension name of a namespace and the Go identifiers and
// package paths of the Go client. The emitters (generator/emit/bicep,
// generator/emit/goclient) and the registry's catalog pages
// (registry/catalog) call the same functions, so a snippet on a catalog page
// names exactly what `udtc gen` writes, without the registry importing the
// generator. Standard library only; nothing here performs I/O.
package naming

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BicepExtension is the default Bicep extension name of a namespace:
// lower-cased, dots removed ("Contoso.Platform" → "contosoplatform"). To stay
// a Bicep identifier it also drops every other character that is not an
// ASCII letter, digit or underscore ("Contoso.Data-Plane" →
// "contosodataplane") and puts an underscore before a leading digit.
func BicepExtension(namespace string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(namespace) {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if b.Len() == 0 && r >= '0' && r <= '9' {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

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

// Words splits an identifier-ish string into words: at separators (anything
// that is not a letter or digit), at lower→upper transitions ("fooBar") and
// before the last capital of a run of capitals followed by a lower-case
// letter ("HTTPServer" → "HTTP", "Server"). Digits stay with the word before.
func Words(s string) iter.Seq[string] {
	// Words are ASCII letters and digits, so s is read byte by byte: the
	// bytes of other runes are separators.
	return func(yield func(string) bool) {
		start := -1 // where the current word starts
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case !isAlnum(rune(c)):
				if start >= 0 && !yield(s[start:i]) {
					return
				}
				start = -1
			case start < 0:
				start = i
			case isUpper(c):
				// s[i-1] is a letter or digit of the current word.
				prev := s[i-1]
				if isLower(prev) || isDigit(prev) || (isUpper(prev) && startsLower(s[i+1:])) {
					if !yield(s[start:i]) {
						return
					}
					start = i
				}
			}
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

func isAlnum(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// startsLower reports whether s starts with a lower-case letter (of any
// script: "ABé" is "A", "Bé").
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

func toUpper(c byte) byte {
	if isLower(c) {
		return c - 'a' + 'A'
	}
	return c
}

// Pascal converts s to an exported Go identifier: words from [Words], each
// capitalised, initialisms upper-cased ("dnsName" → "DNSName", "mySqlDb" →
// "MySQLDb"). A result that would start with a digit gets an "X" prefix; an
// empty result is "X".
func Pascal(s string) string {
	out := JoinWords(s)
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "X" + out
	}
	return out
}

// JoinWords is [Pascal] without the guard against a leading digit.
func JoinWords(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for w := range Words(s) {
		var buf [8]byte // longer than any initialism
		if len(w) <= len(buf) {
			up := buf[:len(w)]
			for i := range len(w) {
				up[i] = toUpper(w[i])
			}
			if initialisms[string(up)] {
				b.Write(up)
				continue
			}
		}
		b.WriteByte(toUpper(w[0]))
		b.WriteString(w[1:])
	}
	return b.String()
}

// Singular turns the last word of a plural type name into its singular with
// a small suffix rule (documented in docs/go-client.md):
//
//	-ies → -y        (policies → policy)
//	-sses → -ss      (addresses → address)
//	-xes, -zes → -x, -z (boxes → box)
//	-uses → -us      (buses → bus, statuses → status)
//	-[consonant]ches, -shes → -ch, -sh (batches → batch, meshes → mesh)
//	-s → ""          unless the word ends in -ss, -us or -is (caches → cache)
func Singular(s string) string {
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

// Article returns "an" before a word that starts with a vowel letter
// ("an Acme.Storage/buckets resource"), else "a". It goes by the letter,
// not the sound, which is right for the names udtc writes it before.
func Article(word string) string {
	if word != "" && isVowel(strings.ToLower(word[:1])[0]) {
		return "an"
	}
	return "a"
}

// Count returns n and noun, plural unless n is 1: "1 document", "3
// problems". The noun takes a plain s.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// matchCase returns repl upper-cased when like is all upper case.
func matchCase(like, repl string) string {
	if like == strings.ToUpper(like) {
		return strings.ToUpper(repl)
	}
	return repl
}

// GoTypeName is the Go name a resource type wants: every segment of the type
// name made singular and converted with [Pascal] ("contosoBuses/queues" →
// "ContosoBusQueue"). [GoTypes] hands out the names actually used.
func GoTypeName(segments []string) string {
	var b strings.Builder
	for _, seg := range segments {
		b.WriteString(Pascal(Singular(seg)))
	}
	return b.String()
}

// GoPackageDir is the directory of a namespace's Go packages: lower-cased
// without dots or other separators ("MyCompany.Resources" →
// "mycompanyresources").
func GoPackageDir(namespace string) string {
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

// GoVersionPackage is the package name of an API version
// ("2025-01-01-preview" → "v20250101preview").
func GoVersionPackage(version string) string {
	var b strings.Builder
	b.WriteByte('v')
	for _, r := range strings.ToLower(version) {
		if isAlnum(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Namer hands out unique names. The first claimant of a name keeps it; later
// ones get the smallest free numeric suffix starting at 2, so a name only
// changes when something sorting before it claims the same name.
type Namer struct {
	used map[string]bool
	// parent's names are taken too (Child); parent no longer changes.
	parent *Namer
}

// NewNamer returns a Namer with the reserved names taken.
func NewNamer(reserved ...string) *Namer {
	n := &Namer{used: map[string]bool{}}
	for _, r := range reserved {
		n.used[r] = true
	}
	return n
}

// Child returns a Namer with the names of n taken, whose claims n does not
// see. n must claim nothing from then on; its children, which only read
// it, may be used on several goroutines at once.
func (n *Namer) Child() *Namer {
	return &Namer{used: map[string]bool{}, parent: n}
}

// taken reports whether n or an ancestor has name.
func (n *Namer) taken(name string) bool {
	for ; n != nil; n = n.parent {
		if n.used[name] {
			return true
		}
	}
	return false
}

// Claim returns want, or want with a suffix when want is taken, and reports
// whether it had to rename.
func (n *Namer) Claim(want string) (string, bool) {
	if !n.taken(want) {
		n.used[want] = true
		return want, false
	}
	for i := 2; ; i++ {
		c := want + strconv.Itoa(i)
		if !n.taken(c) {
			n.used[c] = true
			return c, true
		}
	}
}

// GoRuntimeTypes are the runtime's types every generated version package
// exports as aliases.
var GoRuntimeTypes = []string{"SystemData", "ValidationError", "ClientOptions", "ResponseError", "ErrorDetail",
	"ResourceID", "ResourceGroup", "ResourceGroupProperties", "ResourceGroupsClient",
	"ResourceGroupsClientCreateOrUpdateOptions", "ResourceGroupsClientGetOptions",
	"ResourceGroupsClientDeleteOptions", "ResourceGroupsClientListOptions", "Deprecation"}

// GoReserved are the exported names every generated version package
// declares itself: the aliases of GoRuntimeTypes and wrappers of the
// runtime's functions.
var GoReserved = append(slices.Clone(GoRuntimeTypes), "ParseResourceID", "NewResourceGroupsClient", "Ptr")

// GoType holds the version-independent Go names of one resource type, the
// same in every version package of its namespace.
type GoType struct {
	Name      string // envelope struct: "PostgresDatabase"
	ID        string // "PostgresDatabaseID"
	NewID     string // "NewPostgresDatabaseID"
	ParseID   string // "ParsePostgresDatabaseID"
	TypeConst string // "PostgresDatabaseResourceType"
	APIConst  string // "PostgresDatabaseAPIVersion"
	Client    string // "PostgresDatabaseClient"
	NewClient string // "NewPostgresDatabaseClient"
	// Renames lists the names that were taken and got a suffix.
	Renames []Rename
}

// Properties is the name of the type's properties struct in a version
// package where its schema is an object ("PostgresDatabaseProperties").
func (t GoType) Properties() string { return t.Name + "Properties" }

// Rename is a name that was taken: What ("type name", "constant name", ...)
// wanted Want and got Got.
type Rename struct{ What, Want, Got string }

// GoTypes hands out the type-level Go names of every type of one namespace.
// types are the type names ("contosoBuses/queues") in model order (sorted
// by name, byte-wise); the result is in the same order. The Namer holds
// every name taken, for the version packages to start from.
func GoTypes(types []string) ([]GoType, *Namer) {
	n := NewNamer(GoReserved...)
	out := make([]GoType, len(types))
	for i, name := range types {
		t := &out[i]
		claim := func(want, what string) string {
			got, renamed := n.Claim(want)
			if renamed {
				t.Renames = append(t.Renames, Rename{What: what, Want: want, Got: got})
			}
			return got
		}
		t.Name = claim(GoTypeName(strings.Split(name, "/")), "type name")
		t.ID = claim(t.Name+"ID", "ID type name")
		t.NewID = claim("New"+t.ID, "function name")
		t.ParseID = claim("Parse"+t.ID, "function name")
		t.TypeConst = claim(t.Name+"ResourceType", "constant name")
		t.APIConst = claim(t.Name+"APIVersion", "constant name")
		t.Client = claim(t.Name+"Client", "client type name")
		t.NewClient = claim("New"+t.Client, "function name")
	}
	return out, n
}
