package catalog

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encoderIndent is what JSON wrote before indentJSON: an Encoder with
// SetIndent, the reference indentJSON must match byte for byte.
func encoderIndent(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestJSONIndentsAsEncoder(t *testing.T) {
	c := testCatalog()
	bus := c.Lookup("Contoso.Bus", "contosoBuses")
	page, _ := c.TypePage(bus, "2025-01-01", Options{})
	changes, _ := c.Changes(bus, "2025-01-01", "2025-03-01-preview", Options{})
	values := []any{
		c.Home(""), page, changes,
		map[string]any{},
		[]any{},
		[]any{map[string]any{}, []any{}, nil, true, 1.5, "x"},
		map[string]any{"a{b": "[c,d]:e", `q"\`: "\\\"{}", "s": "<&>'+\u2028\u2029\x01é", "n": []int{1, 2}, "o": map[string]any{"p": []any{}}},
		json.RawMessage(" { \"a\" : [ 1 , { } , [ ] , \"x y\" ] ,\n\t\"b\":{\"c\":null} } "),
		"top", 42, nil,
	}
	for _, v := range values {
		want := encoderIndent(t, v)
		got, err := JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("JSON(%#v):\n%s\nwant:\n%s", v, got, want)
		}
	}
}

func TestPropertyTree(t *testing.T) {
	got := string(propertyTree(json.RawMessage(`{"b": [1, {"<k>": "<v>"}], "a": true, "e": {}, "n": null}`)))
	want := `<dl class="tree"><dt>a</dt><dd><code>true</code></dd>` +
		`<dt>b</dt><dd><ol class="tree" start="0"><li><code>1</code></li><li><dl class="tree"><dt>&lt;k&gt;</dt><dd><code>&#34;&lt;v&gt;&#34;</code></dd></dl></li></ol></dd>` +
		`<dt>e</dt><dd><code>{}</code></dd><dt>n</dt><dd><code>null</code></dd></dl>`
	if got != want {
		t.Errorf("propertyTree =\n%s\nwant\n%s", got, want)
	}
	if got := string(propertyTree(json.RawMessage(`<not json>`))); got != `<code>&lt;not json&gt;</code>` {
		t.Errorf("propertyTree of text = %s", got)
	}
}

func TestBreakable(t *testing.T) {
	if got := string(breakable("Contoso.Data/a<b>/c")); got != "Contoso.<wbr>Data/<wbr>a&lt;b&gt;/<wbr>c" {
		t.Errorf("breakable = %s", got)
	}
}

// A type version's static page is named Type@version in its namespace's
// directory: no directory per type. Links between pages follow the files.
func TestPageFile(t *testing.T) {
	for p, want := range map[string]string{
		HomePath: "index.html",
		TypePath("Contoso.Data", "dbs", "2025-01-01"):                        "types/Contoso.Data/dbs@2025-01-01.html",
		TypePath("Contoso.Bus", "contosoBuses/queues", "2025-01-01-preview"): "types/Contoso.Bus/contosoBuses_queues@2025-01-01-preview.html",
	} {
		if got := PageFile(p); got != want {
			t.Errorf("PageFile(%q) = %q, want %q", p, got, want)
		}
	}
	l := staticLinks(TypePath("Contoso.Bus", "contosoBuses/queues", "2025-01-01"))
	for _, c := range []struct{ got, want string }{
		{l.Href(TypePath("Contoso.Bus", "contosoBuses", "2025-01-01")), "contosoBuses@2025-01-01.html"},
		{l.Href(TypePath("Contoso.Data", "dbs", "2025-01-01")), "../Contoso.Data/dbs@2025-01-01.html"},
		{l.Href(HomePath), "../../index.html"},
		{l.Asset("catalog.css"), "../../assets/catalog.css"},
	} {
		if c.got != c.want {
			t.Errorf("link %q, want %q", c.got, c.want)
		}
	}
}
