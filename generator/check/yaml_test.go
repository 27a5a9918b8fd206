package check

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Strings round-trip through toJSON, and are written as they are but for
// the escapes JSON requires (no HTML or JavaScript escapes): a manifest's
// `<b>` or U+2028 reaches the registered schema unchanged.
func TestToJSONStringsRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f", "<a href=\"x\">&amp;</a>", "héllo wörld ✓ \u2028 𝄞"} {
		b, err := toJSON(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
		var got string
		if err != nil || json.Unmarshal(b, &got) != nil || got != s {
			t.Errorf("toJSON(%q) = %s, %v: decodes to %q", s, b, err, got)
		}
		for _, escape := range []string{`\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u00e9`} {
			if strings.Contains(string(b), escape) {
				t.Errorf("toJSON(%q) = %s: %s is more than JSON requires", s, b, escape)
			}
		}
	}
}

// The decoder-free readings of plain numbers and booleans agree with the
// YAML decoder's.
func TestPlainScalarsAgreeWithTheDecoder(t *testing.T) {
	for _, v := range []string{"0", "-0", "7", "-17", "1024", "012", "0x1F", "0o17", "1_000", "+5",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"1.5", "-2e3", "1E-2", "0.0", "-0.0", "1.", ".5", "1e400", "00.5", "-", "", "1e", "true", "false", "True", "TRUE"} {
		for _, tag := range []string{"!!int", "!!float", "!!bool"} {
			n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}
			switch tag {
			case "!!int":
				var want int64
				werr := n.Decode(&want)
				got, gerr := decodeInt(n)
				if (werr == nil) != (gerr == nil) || got != want {
					t.Errorf("decodeInt(%q) = %d, %v; the decoder gives %d, %v", v, got, gerr, want, werr)
				}
			case "!!float":
				var want float64
				werr := n.Decode(&want)
				got, gerr := decodeFloat(n)
				if (werr == nil) != (gerr == nil) || math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("decodeFloat(%q) = %v, %v; the decoder gives %v, %v", v, got, gerr, want, werr)
				}
			case "!!bool":
				var want bool
				werr := n.Decode(&want)
				if got, ok := plainBool(v); ok && (werr != nil || got != want) {
					t.Errorf("plainBool(%q) = %t; the decoder gives %t, %v", v, got, want, werr)
				}
			}
		}
	}
}

// Merge keys read as YAML defines them (yaml.org/type/merge.html), the
// same as yaml.v3 decoding into a map: own keys win, then earlier
// mappings of a list, then what merged mappings merge in turn.
func TestMergedPairsAsYAMLReadsThem(t *testing.T) {
	const doc = `
base: &base {a: 1, b: 1, c: 1}
more: &more {b: 2, d: 2, <<: {e: 3, a: 3}}
one: {<<: *base, a: own}
list: {<<: [*more, *base], c: own}
nested: {<<: *more}
`
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := yaml.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		name := m.Content[i].Value
		b, err := toJSON(m.Content[i+1])
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := yaml.Unmarshal(b, &got); err != nil { // JSON is YAML
			t.Fatal(err)
		}
		if g, w := fmtMap(got), fmtMap(want[name].(map[string]any)); g != w {
			t.Errorf("%s: merged to %s, yaml.v3 reads %s", name, g, w)
		}
	}
	var bad yaml.Node
	if err := yaml.Unmarshal([]byte("x: {<<: 3, a: 1}\n"), &bad); err != nil {
		t.Fatal(err)
	}
	if _, b := mergedPairs(bad.Content[0].Content[1]); b == nil || b.Value != "3" {
		t.Errorf("a merge of a scalar: bad = %v", b)
	}
}

func fmtMap(m map[string]any) string {
	b, _ := json.Marshal(m) // sorted keys
	return string(b)
}

// checkJSON, the outline's walk that writes nothing, fails exactly where
// toJSON does: the same error at the same node and pointer, or none.
func TestCheckJSONFailsAsToJSON(t *testing.T) {
	docs := []string{
		"a: 1\nb: [x, 2.5, true, null]\n",
		"a: {b: [1, .inf]}\n",
		"- .nan\n",
		"x: 100000000000000000000000000000.00000000000000000001\n",
		"x: -1e-400\n",
		"x: 18446744073709551615\n",
		"x: 99999999999999999999999999\n",
		"x: !!bool maybe\n",
		"? [a, b]\n: 1\n",
		"base: &b {k: 1}\nm: {<<: *b, j: 2}\n",
		"m: {<<: [1]}\n",
		"s: \"\\xff and \\u2028\"\n",
		"k: !!float nope\n",
		strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\n",
	}
	failed := 0
	for _, doc := range docs {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		_, want := toJSON(n.Content[0])
		got := checkJSON(n.Content[0])
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Errorf("%q: checkJSON = %v, toJSON = %v", doc, got, want)
			continue
		}
		if want == nil {
			continue
		}
		failed++
		w, g := want.(*jsonError), got.(*jsonError)
		if w.At != g.At || w.Pointer("/s") != g.Pointer("/s") {
			t.Errorf("%q: checkJSON fails at line %d %s, toJSON at line %d %s", doc, g.At.Line, g.Pointer("/s"), w.At.Line, w.Pointer("/s"))
		}
	}
	if failed < 6 || failed == len(docs) {
		t.Errorf("%d of %d documents failed to convert; the table is meant to hold both kinds", failed, len(docs))
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: {b: [1, .inf]}\n"), &n); err != nil {
		t.Fatal(err)
	}
	if err, ok := checkJSON(n.Content[0]).(*jsonError); !ok || err.Pointer("/s") != "/s/a/b/1" || err.At.Column != 12 {
		t.Errorf("checkJSON = %#v, want the error at /s/a/b/1, column 12", err)
	}
}
