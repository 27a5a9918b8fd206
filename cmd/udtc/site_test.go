package main

import (
	"encoding/json"
	"html"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/catalog"
)

// The static site is the server's catalog: for the same manifests, the
// home page's JSON twin on disk equals what `udtc serve` answers once they
// are published, each type page shows what the server's page of that
// version shows, and each comparison on a static page is the server's
// changes page of that pair. The HTML links stay inside the site.
func TestGenSiteIsTheServersCatalog(t *testing.T) {
	t.Chdir("../..")
	out := t.TempDir()
	const prefix = "example.com/acme/gen"
	code, _, stderr := runCLI(t, "gen", "examples", "fixtures/valid_child_types", "--target", "site", "--out", out, "--go-import-prefix", prefix)
	if code != 0 {
		t.Fatalf("gen --target site: exit %d\n%s", code, stderr)
	}
	site := filepath.Join(out, "site")
	for _, p := range []string{"index.html", "index.json", "assets/catalog.css", "assets/catalog.js",
		"types/Contoso.Data/postgresDatabases@2025-06-01.html",
		"types/Contoso.Messaging/contosoBuses_queues@2025-01-01.html"} {
		if _, err := os.Stat(filepath.Join(site, p)); err != nil {
			t.Errorf("site lacks %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "bicep")); err == nil {
		t.Error("--target site wrote other targets")
	}

	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	if code, _, stderr := runCLI(t, "publish", "--server", url, "examples", "fixtures/valid_child_types"); code != 0 {
		t.Fatalf("publish = %d: %s", code, stderr)
	}

	// The home page's twin, the one JSON file of the site. The server
	// names how to sync each namespace's Bicep extension from it, which a
	// static copy cannot know.
	var onDisk, served any
	b, err := os.ReadFile(filepath.Join(site, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &onDisk); err != nil {
		t.Fatal(err)
	}
	_, body := httpGet(t, url+"/", "Accept: application/json")
	if err := json.Unmarshal([]byte(body), &served); err != nil {
		t.Fatal(err)
	}
	if m, ok := served.(map[string]any); ok {
		for _, ns := range m["namespaces"].([]any) {
			delete(ns.(map[string]any), "sync")
		}
	}
	if d := cmp.Diff(onDisk, served); d != "" {
		t.Errorf("index.json differs from the server's home page (-site +server):\n%s", d)
	}

	// Each type version's page, found from the home page's index.
	var home catalog.Home
	if err := json.Unmarshal(b, &home); err != nil {
		t.Fatal(err)
	}
	pageOf := map[string]string{} // file, relative to the site, to the page's canonical path
	for _, ns := range home.Namespaces {
		for _, typ := range ns.Types {
			for _, v := range typ.APIVersions {
				pageOf[catalog.PageFile(v.Page)] = v.Page
			}
		}
	}
	var pages, comparisons int
	err = filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, site+string(filepath.Separator)))
		if d.IsDir() {
			// A directory per namespace, none per type (docs/catalog.md).
			if p != site && rel != "assets" && rel != "types" && !namespaceDir.MatchString(rel) {
				t.Errorf("the site has the directory %s: only assets/, types/ and one per namespace", rel)
			}
			return nil
		}
		if strings.HasSuffix(rel, ".json") && rel != "index.json" {
			t.Errorf("the site writes %s: only the home page has a JSON twin", rel)
		}
		if strings.HasSuffix(rel, ".html") {
			checkLinksOnDisk(t, site, rel)
		}
		if !strings.HasPrefix(rel, "types/") {
			return nil
		}
		page, ok := pageOf[rel]
		if !ok {
			t.Errorf("the site writes %s, which is not a page of a type version", rel)
			return nil
		}
		static, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, html := httpGet(t, url+page)
		html = strings.ReplaceAll(html, catalog.DefaultGoImportPrefix, prefix)
		// The static page compares its version with each older one where
		// the server links its changes pages, and has no resources.
		sections := staticChanges.FindAllStringSubmatch(string(static), -1)
		for _, s := range sections {
			from, to := s[1], page[strings.LastIndexByte(page, '/')+1:]
			_, changes := httpGet(t, url+strings.TrimSuffix(page, to)+"changes/"+from+"/"+to)
			if d := cmp.Diff(comparable(mainOf(t, changes, "</h1>")), comparable(s[2])); d != "" {
				t.Errorf("%s: the comparison with %s differs from the server's changes page (-server +site):\n%s", rel, from, d)
			}
			comparisons++
		}
		got := mainOf(t, staticChanges.ReplaceAllString(strings.Replace(string(static), "\n<h2 id=\"changes\">Changes</h2>", "", 1), ""), "")
		want := mainOf(t, servedResources.ReplaceAllString(html, "$1"), "")
		if d := cmp.Diff(comparable(want), comparable(got)); d != "" {
			t.Errorf("%s differs from the server's page (-server +site):\n%s", rel, d)
		}
		pages++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages != len(pageOf) || pages < 8 || comparisons < 2 {
		t.Errorf("compared only %d pages and %d comparisons", pages, comparisons)
	}

	// The comparisons judge the versions with the rules of `udtc
	// breaking`, on disk and served alike (compared above): 2025-06-01 no
	// longer accepts version "15", a breaking change, and errors come first.
	b, _ = os.ReadFile(filepath.Join(site, "types/Contoso.Data/postgresDatabases@2025-06-01.html"))
	const row = `<tr data-rule="enum-value-removed" data-path="version"><td><span class="tag tag-error">error</span></td>`
	if !strings.Contains(string(b), row) || !strings.Contains(string(b), "property version no longer accepts &#34;15&#34;") {
		t.Errorf("the static page of 2025-06-01 lacks the enum-value-removed finding")
	}
	if _, first, _ := strings.Cut(string(b), "<tr data-rule="); !strings.Contains(first[:strings.Index(first, "</tr>")], "tag-error") {
		t.Errorf("the static page of 2025-06-01 does not list a breaking finding first")
	}
	for _, want := range []string{`<h3 id="changes-2025-01-01-preview">`, `<a href="postgresDatabases@2025-06-01.html#changes-2025-01-01-preview">with 2025-01-01-preview</a>`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the static page of 2025-06-01 lacks %s", want)
		}
	}

	// The HTML of a static page links within the site, relatively.
	b, _ = os.ReadFile(filepath.Join(site, "types/Contoso.Messaging/contosoBuses_queues@2025-01-01.html"))
	for _, want := range []string{`href="../../assets/catalog.css"`, `href="contosoBuses@2025-01-01.html"`, "generated by udtc"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("static child type page lacks %s", want)
		}
	}
}

// checkLinksOnDisk checks that every link and script of the static page
// rel (relative to site) reaches a file of the site, and a link's
// fragment an id on its page.
func checkLinksOnDisk(t *testing.T, site, rel string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range localLinks.FindAllStringSubmatch(string(b), -1) {
		ref := html.UnescapeString(m[1])
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "//") {
			continue // another site's (https:), not the static copy's
		}
		file, frag, _ := strings.Cut(ref, "#")
		target := rel
		if file != "" {
			target = path.Join(path.Dir(rel), file)
		}
		if strings.HasPrefix(target, "../") || path.IsAbs(target) {
			t.Errorf("%s links %s, outside the site", rel, ref)
			continue
		}
		page, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(target)))
		if err != nil {
			t.Errorf("%s links %s, which is not on disk: %v", rel, ref, err)
			continue
		}
		if frag != "" && !strings.Contains(string(page), `id="`+frag+`"`) {
			t.Errorf("%s links %s: %s has no id %q", rel, ref, target, frag)
		}
	}
}

var (
	// localLinks are the targets of a page's links, stylesheets and
	// scripts.
	localLinks = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	// namespaceDir is the directory of a namespace's pages.
	namespaceDir = regexp.MustCompile(`^types/[^/]+$`)
	// staticChanges is a section of a static type page comparing its
	// version with an older one: the older version and the comparison.
	staticChanges = regexp.MustCompile(`(?s)\n<section class="changes-since" aria-labelledby="changes-([^"]+)">\n<h3 [^\n]*</h3>(.*?)\n</section>`)
	// servedResources is the resources section of a served type page.
	servedResources = regexp.MustCompile(`(?s)\n<h2 id="resources">.*?(\n\n<h2 id="use">)`)
	// links and headings differ between a static copy and the server in
	// their targets and levels only.
	hrefs    = regexp.MustCompile(`href="[^"]*"`)
	headings = regexp.MustCompile(`<(/?)h\d( id="[^"]*")?>`)
)

// mainOf returns the part of a page's main element after the first after.
func mainOf(t *testing.T, html, after string) string {
	t.Helper()
	start, end := strings.Index(html, "<main"), strings.Index(html, "</main>")
	if start < 0 || end < start {
		t.Fatalf("no main element:\n%s", html)
	}
	m := html[start:end]
	if after != "" {
		_, m, _ = strings.Cut(m, after)
	}
	return m
}

// comparable is a part of a page with its links' targets and its
// headings' levels and ids left out, by line.
func comparable(s string) []string {
	return strings.Split(strings.TrimSpace(headings.ReplaceAllString(hrefs.ReplaceAllString(s, "href"), "<${1}h>")), "\n")
}
