package catalog

import (
	"bytes"
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	for _, c := range []struct {
		in        string
		want, not []string
	}{
		{"Deploys a `cache`. Use **S**.", []string{"<p>Deploys a <code>cache</code>. Use <strong>S</strong>.</p>"}, nil},
		{"A sample:\n```bicep\nresource r 'T@1' = {\n  name: 'r'\n    deep: 1\n}\n```\n",
			[]string{"<pre><code class=\"language-bicep\">resource r &#39;T@1&#39; = {\n  name: &#39;r&#39;\n    deep: 1\n}\n</code></pre>"}, nil},
		{"- one\n- two", []string{"<ul>\n<li>one</li>\n<li>two</li>\n</ul>"}, nil},
		// Raw HTML is text, inline or as a block.
		{`<script>alert(1)</script>`, []string{`&lt;script&gt;alert(1)&lt;/script&gt;`}, []string{"<script"}},
		{`Text <img src=x onerror="alert(2)"> more`, []string{`&lt;img src=x onerror=&#34;alert(2)&#34;&gt;`}, []string{"<img"}},
		{"<div onclick=\"x()\">hi</div>", []string{`<p class="raw-html">&lt;div onclick=`}, []string{"<div"}},
		// Dangerous links lose their address; safe ones stay.
		{"[a](javascript:alert(1)) [b](  JaVaScRiPt:alert(1)) [c](data:text/html,x) [d](vbscript:x)", nil, []string{"href", "javascript", "JaVaScRiPt"}},
		{"[docs](https://docs.radapp.io)", []string{`<a href="https://docs.radapp.io" rel="nofollow">docs</a>`}, nil},
		{"![x](https://e.example/i.png \"t\" )", []string{`<img src="https://e.example/i.png"`}, []string{"onerror"}},
		{"   ", []string{""}, nil},
	} {
		got := string(markdown(c.in))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("markdown(%q) = %q, lacks %q", c.in, got, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("markdown(%q) = %q, has %q", c.in, got, n)
			}
		}
	}
}

func TestMarkdownSummary(t *testing.T) {
	in := "Deploys a *cache*.\n```bicep\nresource r 'T@1' = {}\n```\n\nMore."
	if got, want := string(markdownSummary(in)), "<p>Deploys a <em>cache</em>.</p>\n"; got != want {
		t.Errorf("markdownSummary = %q, want %q", got, want)
	}
	// A description that does not start with a paragraph shows whole.
	if got := string(markdownSummary("- a\n- b")); !strings.Contains(got, "<li>b</li>") {
		t.Errorf("markdownSummary of a list = %q", got)
	}
}

// TestMarkdownPlainText holds the fast path for plain sentences to what
// goldmark and bluemonday make of them.
func TestMarkdownPlainText(t *testing.T) {
	for _, s := range []string{
		"A short name.", "Deploys the blue cache used for web, fast.", `Say "hi" and 'bye' (twice); 1 + 2 = 3 %s $x {y} ^z ?`,
		"Caché 漢字 😀 é.", "a.", "Trailing dot. And more.  Two spaces.", "x-y/z=1,2;3",
	} {
		if !plainText(s) {
			t.Errorf("plainText(%q) = false", s)
			continue
		}
		src := []byte(s)
		var slow bytes.Buffer
		if err := md.Convert(src, &slow); err != nil {
			t.Fatal(err)
		}
		if want, got := sanitizer.Sanitize(slow.String()), string(markdown(s)); got != want {
			t.Errorf("markdown(%q) = %q, goldmark and bluemonday make %q", s, got, want)
		}
	}
	for _, s := range []string{"1. First", "- item", "# h", "    code", "a *b*", "see www.x.org", "a@b.c", "http://x", "a &amp; b", "a\nb", "a ", "Über"} {
		if plainText(s) {
			t.Errorf("plainText(%q) = true", s)
		}
	}
}

// Every printable ASCII byte plainText lets through renders as goldmark
// and bluemonday render it, inside a sentence and at its end.
func TestMarkdownPlainTextBytes(t *testing.T) {
	for c := byte(0x20); c < 0x7f; c++ {
		for _, s := range []string{"Ab" + string(c) + "cd.", "Ab " + string(c)} {
			if !plainText(s) {
				continue
			}
			var slow bytes.Buffer
			if err := md.Convert([]byte(s), &slow); err != nil {
				t.Fatal(err)
			}
			if want, got := sanitizer.Sanitize(slow.String()), string(markdown(s)); got != want {
				t.Errorf("markdown(%q) = %q, goldmark and bluemonday make %q", s, got, want)
			}
		}
	}
}

// A description's summary and its whole rendering are kept apart: the
// rendering is remembered by text and by which of the two it is.
func TestMarkdownRemembered(t *testing.T) {
	in := "Deploys a *cache*.\n\nMore *text*."
	for range 2 {
		if got, want := string(markdownSummary(in)), "<p>Deploys a <em>cache</em>.</p>\n"; got != want {
			t.Errorf("markdownSummary = %q, want %q", got, want)
		}
		if got, want := string(markdown(in)), "<p>Deploys a <em>cache</em>.</p>\n<p>More <em>text</em>.</p>\n"; got != want {
			t.Errorf("markdown = %q, want %q", got, want)
		}
	}
	if _, ok := rendered.Get(rendering{in, true}); !ok {
		t.Error("the summary was not remembered")
	}
}
