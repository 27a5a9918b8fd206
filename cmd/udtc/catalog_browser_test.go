package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/registry/catalog"
)

// The catalog pages in a real browser: headless Chromium (Debian's chromium
// package) driven by chromedp against `udtc serve` holding the fixtures.
// Without Chromium the test skips, except in CI (CI=true), where it fails.
// TestCatalogScreenshots (UDTC_SCREENSHOTS=DIR) writes the screenshots
// docs/images holds.

// chromium finds the browser: $UDTC_CHROMIUM, else chromium on PATH.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("UDTC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium installed, and CI must run the browser tests: run .ci/install-chromium.sh")
	}
	t.Skip("no Chromium installed (apt-get install chromium, or set UDTC_CHROMIUM): skipping the browser tests")
	return ""
}

// browser starts a headless Chromium with a fresh profile; it stops with
// the test. listener gets the tab's events; extra are more flags.
func browser(t *testing.T, listener func(ev any), extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx, chromedp.WithListener(listener))
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// The first Do starts the browser, which lives as long as ctx: no
	// timeout on it, one per action instead (see browse).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// xssManifest is a type whose descriptions try to run script.
const xssManifest = `namespace: Contoso.Xss
types:
  widgets:
    description: '<script>alert(1)</script><img src=x onerror="alert(2)">'
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            name:
              type: string
              description: '<script>alert(3)</script>'
              default: '</code><script>alert(4)</script>'
`

// markdownManifest is a type whose Markdown descriptions hold a Bicep
// sample and, mixed with real Markdown, every way HTML could run script:
// raw script, iframe and svg elements, event handler attributes,
// javascript: links in Markdown and in HTML.
const markdownManifest = `namespace: Contoso.Markdown
types:
  notes:
    description: |
      Notes in **Markdown**. Read [the docs](javascript:alert(5)) or <a href="javascript:alert(6)">this</a>.
      <img src=x onerror="alert(7)">
      ` + "```bicep" + `
      resource n 'Contoso.Markdown/notes@2025-01-01' = {
        name: 'n'
        properties: {
          environment: environment
        }
      }
      ` + "```" + `

      <script>alert(8)</script>
      <iframe src="javascript:alert(9)"></iframe>

      - one ` + "`item`" + `
      - [two](  JaVaScRiPt:alert(10))
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            title:
              type: string
              description: 'A ` + "`title`" + `, **bold**. <svg onload="alert(11)">'
`

// markdownSample is the Bicep sample of markdownManifest as its author
// wrote it.
const markdownSample = `resource n 'Contoso.Markdown/notes@2025-01-01' = {
  name: 'n'
  properties: {
    environment: environment
  }
}
`

func TestCatalogInBrowser(t *testing.T) {
	// Dialogs (alert) must never open: record any and dismiss them.
	var mu sync.Mutex
	var dialogs []string
	var ctx context.Context
	ctx = browser(t, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			mu.Lock()
			dialogs = append(dialogs, d.Message)
			mu.Unlock()
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	})
	t.Chdir("../..")
	xssDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(xssDir, "xss.yaml"), []byte(xssManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xssDir, "markdown.yaml"), []byte(markdownManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs, _ := filepath.Glob("fixtures/valid_*")
	inputs = append(inputs, xssDir)
	cat, diags, err := generator.Compile(context.Background(), inputs, generator.Options{})
	if err != nil || diags.HasErrors() {
		t.Fatalf("compile: %v %v", err, diags)
	}
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	if code, _, stderr := runCLI(t, append([]string{"publish", "--server", url}, inputs...)...); code != 0 {
		t.Fatalf("publish = %d: %s", code, stderr)
	}

	const changesPage = "/types/Contoso.Messaging/contosoBuses/changes/2024-06-01-preview/2025-01-01"
	var all []string
	for _, p := range cat.Providers {
		for _, rt := range p.Types {
			all = append(all, rt.FullName())
		}
	}
	slices.Sort(all)

	t.Run("home lists every type", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.CSS("#filter")))
		got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("li.type .type-name")).map(e => e.textContent)`)
		slices.Sort(got)
		if !slices.Equal(got, all) {
			t.Errorf("home lists %v\nwant %v", got, all)
		}
		var twin catalog.Home
		getJSON(t, url+"/", &twin)
		if twin.Types != len(all) {
			t.Errorf("JSON twin lists %d types, the page %d", twin.Types, len(got))
		}
	})

	t.Run("the filter narrows the list as you type", func(t *testing.T) {
		var want []string
		for _, p := range cat.Providers {
			for _, rt := range p.Types {
				text := strings.ToLower(rt.FullName() + " " + rt.Description + " " + strings.Join(rt.Capabilities, " "))
				if strings.Contains(text, "queue") {
					want = append(want, rt.FullName())
				}
			}
		}
		if len(want) == 0 || len(want) == len(all) {
			t.Fatalf("the fixtures do not make a useful filter: %v", want)
		}
		browse(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.CSS("#filter")),
			chromedp.SendKeys(chromedp.CSS("#filter"), "QUEUE"))
		visible := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("li.type")).filter(e => e.offsetParent !== null).map(e => e.querySelector(".type-name").textContent)`)
		count := eval[string](t, ctx, `document.getElementById("filter-count").textContent`)
		slices.Sort(visible)
		slices.Sort(want)
		if !slices.Equal(visible, want) {
			t.Errorf("after typing QUEUE the page shows %v, want %v", visible, want)
		}
		if wantCount := fmt.Sprintf("%d types", len(want)); len(want) > 1 && count != wantCount {
			t.Errorf("count says %q, want %q", count, wantCount)
		}
	})

	t.Run("keyboard: the first Tab reaches the skip link", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.CSS("#filter")), chromedp.KeyEvent("\t"))
		if cls := eval[string](t, ctx, `document.activeElement.className`); cls != "skip" {
			t.Errorf("the first Tab focuses %q, want the skip link", cls)
		}
	})

	t.Run("a type page shows each constraint of a property", func(t *testing.T) {
		p := url + "/types/Contoso.Scalars/widgets/2025-03-01"
		browse(t, ctx, chromedp.Navigate(p), chromedp.WaitVisible(chromedp.CSS(`table.properties`)))
		for path, wants := range map[string][]string{
			"name":     {"name", "string", "required", "minLength: 3", "maxLength: 24", "pattern: ^[a-z][a-z0-9-]*$", "A short name."},
			"replicas": {"integer", "2", "format: int32", "minimum: 1", "maximum: 10"},
			"port":     {"integer", "minimum: 1024", "exclusiveMinimum: true", "maximum: 65536", "exclusiveMaximum: true"},
			"ratio":    {"number", "0.5", "format: double", "minimum: 0", "maximum: 1", "multipleOf: 0.05"},
			"tier":     {"required", `"free", "standard", "premium"`},
		} {
			text := eval[string](t, ctx, rowOf(path)+`.innerText`)
			for _, w := range wants {
				if !strings.Contains(text, w) {
					t.Errorf("row %q lacks %q", text, w)
				}
			}
		}
		// The stylesheet finds the cells without classes: a constraint
		// stays on one line.
		if ws := eval[string](t, ctx, `getComputedStyle(`+rowOf("name")+`.querySelector("td > span:not([class])")).whiteSpace`); ws != "nowrap" {
			t.Errorf("a constraint's white-space is %q, want nowrap", ws)
		}
		paths := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.properties tbody th code")).map(e => e.textContent)`)
		var twin catalog.TypePage
		getJSON(t, p, &twin)
		var twinPaths []string
		for _, pr := range twin.Properties {
			twinPaths = append(twinPaths, pr.Path)
		}
		if !slices.Equal(paths, twinPaths) {
			t.Errorf("the page shows %v, its JSON twin %v", paths, twinPaths)
		}
		scheme := func(v string) {
			t.Helper()
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}}); err != nil {
				t.Fatal(err)
			}
		}
		scheme("dark")
		if bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(13, 17, 23)" {
			t.Errorf("dark scheme background = %s", bg)
		}
		scheme("light")
		if bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(255, 255, 255)" {
			t.Errorf("light scheme background = %s", bg)
		}
	})

	t.Run("the changes page lists the breaking-change findings", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(url+changesPage), chromedp.WaitVisible(chromedp.CSS("table.findings")))
		got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.findings tbody tr")).map(r => r.innerText.replace(/\s+/g, " ").trim())`)
		if want := `error enum-added sku property sku now only accepts "basic", "standard"`; !slices.Contains(got, want) {
			t.Errorf("changes rows %q lack %q", got, want)
		}
	})

	t.Run("on a phone the pages do not scroll sideways", func(t *testing.T) {
		browse(t, ctx, chromedp.EmulateViewport(375, 800, chromedp.EmulateMobile))
		defer browse(t, ctx, chromedp.ResetViewport())
		for _, p := range []string{"/", "/types/Contoso.Scalars/widgets/2025-03-01", changesPage} {
			browse(t, ctx, chromedp.Navigate(url+p), chromedp.WaitVisible(chromedp.CSS("h1")))
			// A mobile browser widens the layout viewport to fit wide
			// content, so compare with the device's width.
			if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 375 {
				t.Errorf("%s is %d px wide on a 375 px wide phone", p, w)
			}
		}
	})

	t.Run("long type names break between their parts", func(t *testing.T) {
		browse(t, ctx, chromedp.EmulateViewport(375, 800, chromedp.EmulateMobile))
		defer browse(t, ctx, chromedp.ResetViewport())
		browse(t, ctx, chromedp.Navigate(url+catalog.TypePath("Contoso.Messaging", "contosoBuses/queues", "2025-01-01")), chromedp.WaitVisible(chromedp.CSS("h1")))
		// The characters after which the heading's name wraps to a new line.
		breaks := eval[[]string](t, ctx, `(() => {
			const name = document.querySelector("h1 .type-name"), out = [];
			let prev = null, top = null;
			const walk = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
			for (let n = walk.nextNode(); n; n = walk.nextNode()) {
				for (let i = 0; i < n.length; i++) {
					const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
					const y = r.getBoundingClientRect().top;
					if (top !== null && y > top + 2) out.push(prev);
					top = y; prev = n.data[i];
				}
			}
			return out;
		})()`)
		if len(breaks) == 0 {
			t.Fatalf("the heading does not wrap on a phone: the test shows nothing")
		}
		for _, c := range breaks {
			if c != "." && c != "/" {
				t.Errorf("the type name wraps after %q, inside a word (breaks after %q)", c, breaks)
			}
		}
	})

	t.Run("the example is admitted and its properties show as a tree", func(t *testing.T) {
		p := url + catalog.TypePath("Contoso.Scalars", "widgets", "2025-03-01")
		var twin catalog.TypePage
		getJSON(t, p, &twin)
		for _, req := range []string{twin.Snippets.Group, twin.Snippets.Request + " " + twin.Snippets.JSON} {
			method, rest, _ := strings.Cut(req, " ")
			target, body, _ := strings.Cut(rest, " ")
			if status, _, b := radExchange(t, nil, method, url+target, body); status != 200 && status != 201 {
				t.Fatalf("%s %s = %d %s", method, target, status, b)
			}
		}
		browse(t, ctx, chromedp.Navigate(p), chromedp.WaitVisible(chromedp.CSS("table.resources")))
		if n := eval[int](t, ctx, `document.querySelectorAll("table.resources dl.tree dt").length`); n == 0 {
			t.Errorf("the resource's properties are not shown as a tree")
		}
		// The API version it was written with stays on one line.
		if h := eval[int](t, ctx, `(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector("table.resources td.nowrap")); return r.getClientRects().length; })()`); h > 1 {
			t.Errorf("the Written with cell takes %d lines", h)
		}
	})

	t.Run("snippets use the generated Bicep and Go names", func(t *testing.T) {
		gofiles, _, err := goclient.Emit(cat, goclient.Options{ImportPrefix: catalog.DefaultGoImportPrefix})
		if err != nil {
			t.Fatal(err)
		}
		bicepFiles, _, err := bicep.Emit(cat, bicep.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ ns, typ, version string }{
			{"Contoso.Messaging", "contosoBuses/queues", "2025-01-01"},
			{"MyCompany.Resources", "postgresDatabases", "2025-01-01-preview"},
			{"Contoso.Scalars", "widgets", "2025-03-01"},
		} {
			browse(t, ctx, chromedp.Navigate(url+catalog.TypePath(c.ns, c.typ, c.version)), chromedp.WaitVisible(chromedp.CSS("#code-go")))
			checkBicepSnippet(t, eval[string](t, ctx, `document.getElementById("code-bicep").innerText`), bicepFiles, c.ns+"/"+c.typ+"@"+c.version)
			checkGoSnippet(t, eval[string](t, ctx, `document.getElementById("code-go").innerText`), gofiles, c.ns)
		}
	})

	t.Run("the static site works from disk", func(t *testing.T) {
		out := t.TempDir()
		if code, _, stderr := runCLI(t, append([]string{"gen", "--target", "site", "--out", out}, inputs...)...); code != 0 {
			t.Fatalf("gen --target site = %d: %s", code, stderr)
		}
		browse(t, ctx, chromedp.Navigate("file://"+filepath.Join(out, "site", "index.html")), chromedp.WaitVisible(chromedp.CSS("#filter")))
		// The stylesheet applies (the header has its panel colour) and the
		// script runs: typing narrows the list.
		if bg := eval[string](t, ctx, `getComputedStyle(document.querySelector("header.top")).backgroundColor`); bg != "rgb(246, 248, 250)" {
			t.Errorf("the static page's stylesheet did not apply: header background %s", bg)
		}
		browse(t, ctx, chromedp.SendKeys(chromedp.CSS("#filter"), "scalars"))
		visible := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("li.type")).filter(e => e.offsetParent !== null).map(e => e.querySelector(".type-name").textContent)`)
		if !slices.Equal(visible, []string{"Contoso.Scalars/widgets"}) {
			t.Errorf("the static filter shows %v", visible)
		}
		// Following a link reaches the type page.
		browse(t, ctx, chromedp.Click(chromedp.CSS(`a[href="types/Contoso.Scalars/widgets@2025-03-01.html"]`)), chromedp.WaitVisible(chromedp.CSS(`table.properties`)))
		if port := eval[string](t, ctx, rowOf("port")+`.innerText`); !strings.Contains(port, "minimum: 1024") {
			t.Errorf("the static page's port row reads %q", port)
		}
		// The older version's page links the comparison, a section of the
		// newer version's page, which lists the findings.
		older := filepath.Join(out, "site", filepath.FromSlash(catalog.PageFile(catalog.TypePath("Contoso.Messaging", "contosoBuses", "2024-06-01-preview"))))
		browse(t, ctx, chromedp.Navigate("file://"+older), chromedp.WaitVisible(chromedp.CSS("h1")),
			chromedp.Click(chromedp.CSS(`a[href="contosoBuses@2025-01-01.html#changes-2024-06-01-preview"]`)),
			chromedp.WaitVisible(chromedp.CSS(`#changes-2024-06-01-preview`)))
		if loc := eval[string](t, ctx, `location.pathname.split("/").pop() + location.hash`); loc != "contosoBuses@2025-01-01.html#changes-2024-06-01-preview" {
			t.Errorf("the comparison link leads to %s", loc)
		}
		got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#changes-2024-06-01-preview ~ .table-wrap table.findings tbody tr")).map(r => r.innerText.replace(/\s+/g, " ").trim())`)
		if want := `error enum-added sku property sku now only accepts "basic", "standard"`; !slices.Contains(got, want) {
			t.Errorf("the static comparison's rows %q lack %q", got, want)
		}
		// On a phone the page with its comparison does not scroll sideways.
		browse(t, ctx, chromedp.EmulateViewport(375, 800, chromedp.EmulateMobile))
		defer browse(t, ctx, chromedp.ResetViewport())
		browse(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("h1")))
		if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 375 {
			t.Errorf("the static page with its comparison is %d px wide on a 375 px wide phone", w)
		}
	})

	t.Run("descriptions render as Markdown, safely", func(t *testing.T) {
		p := url + catalog.TypePath("Contoso.Markdown", "notes", "2025-01-01")
		browse(t, ctx, chromedp.Navigate(p), chromedp.WaitVisible(chromedp.CSS(`table.properties`)))
		desc := `document.querySelector("main .desc")`
		if got := eval[string](t, ctx, desc+`.querySelector("strong").textContent`); got != "Markdown" {
			t.Errorf("**Markdown** renders as %q", got)
		}
		if got := eval[[]string](t, ctx, `Array.from(`+desc+`.querySelectorAll("li")).map(e => e.textContent)`); !slices.Equal(got, []string{"one item", "two"}) {
			t.Errorf("the list renders as %q", got)
		}
		if got := eval[string](t, ctx, desc+`.querySelector("pre code.language-bicep").textContent`); got != markdownSample {
			t.Errorf("the Bicep sample renders as\n%s\nwant\n%s", got, markdownSample)
		}
		if ws := eval[string](t, ctx, `getComputedStyle(`+desc+`.querySelector("pre")).whiteSpace`); ws != "pre" {
			t.Errorf("the sample's white-space is %q: its indentation is lost", ws)
		}
		// The second line of the sample starts two spaces to the right of
		// the first.
		if dx := eval[float64](t, ctx, `(() => {
			const code = `+desc+`.querySelector("pre code").firstChild, r = document.createRange();
			const x = i => { r.setStart(code, i); r.setEnd(code, i + 1); return r.getBoundingClientRect().left; };
			const first = 0, second = code.data.indexOf("name");
			r.setStart(code, 0); r.setEnd(code, 1); const w = r.getBoundingClientRect().width;
			return (x(second) - x(first)) / w;
		})()`); dx < 1.9 || dx > 2.1 {
			t.Errorf("the sample's second line is indented %.2f characters, want 2", dx)
		}
		text := eval[string](t, ctx, `document.querySelector("main").innerText`)
		for _, w := range []string{`<img src=x onerror="alert(7)">`, "<script>alert(8)</script>", `<a href="javascript:alert(6)">`, `<svg onload="alert(11)">`} {
			if !strings.Contains(text, w) {
				t.Errorf("the page does not show %s as text", w)
			}
		}
		if strings.Contains(text, "```") || strings.Contains(text, "**") {
			t.Errorf("the page shows Markdown syntax:\n%s", text)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("main script, main iframe, main img, main svg, main [onerror], main [onload], main [style]").length`); n != 0 {
			t.Errorf("the descriptions made %d elements that can run script", n)
		}
		if hrefs := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("main a[href]")).map(a => a.getAttribute("href")).filter(h => /^\s*javascript:/i.test(h))`); len(hrefs) > 0 {
			t.Errorf("javascript: links: %q", hrefs)
		}
		row := rowOf("title") + `.lastElementChild` // the description
		if got := eval[string](t, ctx, row+`.querySelector("code").textContent + "|" + `+row+`.querySelector("strong").textContent`); got != "title|bold" {
			t.Errorf("the property description renders as %q", got)
		}
		time.Sleep(200 * time.Millisecond) // let a dialog event arrive, if any
		mu.Lock()
		defer mu.Unlock()
		if len(dialogs) > 0 {
			t.Errorf("script ran: dialogs %q", dialogs)
		}
	})

	t.Run("the corpus types show their Bicep samples", func(t *testing.T) {
		corpus, _ := filepath.Abs("../shared/corpus/resource-types-contrib")
		if _, err := os.Stat(corpus); err != nil {
			t.Skipf("the Radius corpus is not at %s", corpus)
		}
		ccat, diags, err := generator.Compile(context.Background(), []string{corpus}, generator.Options{})
		if err != nil || diags.HasErrors() {
			t.Fatalf("compile the corpus: %v %v", err, diags)
		}
		out := t.TempDir()
		if code, _, stderr := runCLI(t, "gen", "--target", "site", "--out", out, corpus); code != 0 {
			t.Fatalf("gen --target site = %d: %s", code, stderr)
		}
		samples := 0
		for _, pr := range ccat.Providers {
			for _, rt := range pr.Types {
				want := fencedBlocks(rt.Description)
				if len(want) == 0 {
					continue
				}
				samples += len(want)
				page := filepath.Join(out, "site", filepath.FromSlash(catalog.PageFile(catalog.TypePath(rt.Namespace, rt.Name, rt.DefaultAPIVersion))))
				browse(t, ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("h1")))
				got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("main .desc pre code")).map(e => e.textContent)`)
				if !slices.Equal(got, want) {
					t.Errorf("%s shows the samples\n%q\nwant\n%q", rt.FullName(), got, want)
				}
				if text := eval[string](t, ctx, `document.querySelector("main .desc").innerText`); strings.Contains(text, "```") {
					t.Errorf("%s shows Markdown fences as text", rt.FullName())
				}
			}
		}
		if samples == 0 {
			t.Fatal("no corpus type has a Bicep sample: the test shows nothing")
		}
	})

	t.Run("script in descriptions is text and never runs", func(t *testing.T) {
		for _, p := range []string{"/", "/types/Contoso.Xss/widgets/2025-01-01"} {
			browse(t, ctx, chromedp.Navigate(url+p), chromedp.WaitReady(chromedp.CSS("main")))
			text := eval[string](t, ctx, `document.querySelector("main").innerText`)
			if !strings.Contains(text, `<script>alert(1)</script><img src=x onerror="alert(2)">`) {
				t.Errorf("%s does not show the description as text:\n%s", p, text)
			}
			if n := eval[int](t, ctx, `document.querySelectorAll("script").length + document.querySelectorAll("img").length`); n != 1 {
				t.Errorf("%s has %d script or img elements, want only catalog.js", p, n)
			}
		}
		row := eval[string](t, ctx, rowOf("name")+`.innerText`)
		if !strings.Contains(row, "<script>alert(3)</script>") || !strings.Contains(row, `"</code><script>alert(4)</script>"`) {
			t.Errorf("the property row does not show its description and default as text: %q", row)
		}
		time.Sleep(200 * time.Millisecond) // let a dialog event arrive, if any
		mu.Lock()
		defer mu.Unlock()
		if len(dialogs) > 0 {
			t.Errorf("script ran: dialogs %q", dialogs)
		}
	})
}

// rowOf is a JavaScript expression for the row of the property at path in
// a type page's property table, whose header cell shows the path.
func rowOf(path string) string {
	return `Array.from(document.querySelectorAll("table.properties tbody tr")).find(r => r.querySelector("th code").textContent === ` + strconv.Quote(path) + `)`
}

// fencedBlocks returns the contents of the fenced code blocks of Markdown
// text whose fences start their lines (as the corpus writes them).
func fencedBlocks(text string) []string {
	var blocks []string
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "```") {
			if in {
				blocks = append(blocks, b.String())
				b.Reset()
			}
			in = !in
			continue
		}
		if in {
			b.WriteString(line)
		}
	}
	return blocks
}

// browse runs steps in the tab, with a time limit.
func browse(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the tab (with
// chromedp.EvalAwaitPromise: the value a promise resolves to).
func eval[T any](t *testing.T, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("browser: %s: %v", expr, err)
	}
	return v
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	code, body := httpGet(t, url, "Accept: application/json")
	if code != 200 {
		t.Fatalf("GET %s (JSON) = %d %s", url, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s (JSON): %v", url, err)
	}
}

// TestCatalogScreenshots takes the README's screenshots of the examples'
// catalog when UDTC_SCREENSHOTS names a directory:
//
//	UDTC_SCREENSHOTS=$PWD/docs/images go test ./cmd/udtc -run TestCatalogScreenshots
func TestCatalogScreenshots(t *testing.T) {
	dir := os.Getenv("UDTC_SCREENSHOTS")
	if dir == "" {
		t.Skip("set UDTC_SCREENSHOTS=DIR to write the catalog screenshots")
	}
	ctx := browser(t, func(any) {})
	t.Chdir("../..")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"), "--bootstrap", "examples")
	defer stop()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, _ := httpGet(t, url+"/readyz"); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bootstrap did not finish")
		}
	}
	dark := func(on bool) {
		v := "light"
		if on {
			v = "dark"
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}}); err != nil {
			t.Fatal(err)
		}
	}
	browse(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.CSS("#filter")))
	screenshot(t, ctx, filepath.Join(dir, "catalog-home.png"))
	browse(t, ctx, chromedp.Navigate(url+"/types/Contoso.Data/postgresDatabases/2025-06-01"), chromedp.WaitVisible(chromedp.CSS("table")))
	screenshot(t, ctx, filepath.Join(dir, "catalog-type.png"))
	dark(true)
	screenshot(t, ctx, filepath.Join(dir, "catalog-type-dark.png"))
	dark(false)
	browse(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("table")))
	screenshot(t, ctx, filepath.Join(dir, "catalog-type-phone.png"))
}

// screenshot saves the viewport as a PNG file.
func screenshot(t *testing.T, ctx context.Context, file string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkBicepSnippet checks the extension line names an extension the Bicep
// emitter wrote and the resource type is one of its types.
func checkBicepSnippet(t *testing.T, snippet string, files []emit.File, resourceType string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^extension (\w+)$`).FindStringSubmatch(snippet)
	if m == nil {
		t.Fatalf("Bicep snippet has no extension line:\n%s", snippet)
	}
	var types string
	for _, f := range files {
		if f.Path == "bicep/"+m[1]+"/types.json" {
			types = string(f.Data)
		}
	}
	if types == "" {
		t.Errorf("the snippet's extension %s is not one the Bicep emitter writes", m[1])
	}
	if !strings.Contains(snippet, "'"+resourceType+"'") || !strings.Contains(types, `"`+resourceType+`"`) {
		t.Errorf("resource type %s is not in the snippet or in bicep/%s/types.json:\n%s", resourceType, m[1], snippet)
	}
}

// checkGoSnippet checks the snippet imports a package the Go emitter wrote
// and every identifier it takes from it is declared there.
func checkGoSnippet(t *testing.T, snippet string, files []emit.File, ns string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s+(\w+) "([^"]+)"$`).FindStringSubmatch(snippet) // in the import block
	if m == nil {
		t.Fatalf("Go snippet has no import:\n%s", snippet)
	}
	pkg, dir := m[1], strings.TrimPrefix(m[2], catalog.DefaultGoImportPrefix+"/")
	var src strings.Builder
	for _, f := range files {
		if strings.HasPrefix(f.Path, dir+"/") {
			src.Write(f.Data)
		}
	}
	if src.Len() == 0 {
		t.Fatalf("the Go emitter wrote no package %s for %s", dir, ns)
	}
	used := regexp.MustCompile(`\b`+pkg+`\.(\w+)`).FindAllStringSubmatch(snippet, -1)
	if len(used) < 4 {
		t.Errorf("the Go snippet uses only %d names of %s:\n%s", len(used), pkg, snippet)
	}
	for _, u := range used {
		decl := regexp.MustCompile(`(?m)^(func|type|const|var) ` + u[1] + `\b|^\t` + u[1] + `\s`)
		if !decl.MatchString(src.String()) {
			t.Errorf("the Go snippet names %s.%s, which %s does not declare", pkg, u[1], dir)
		}
	}
}
