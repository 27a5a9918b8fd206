package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/udtc/udtc/internal/bufpool"
	"github.com/udtc/udtc/internal/jsonindent"
	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/templates"
)

// ContentSecurityPolicy is the policy of every page: only the catalog's own
// stylesheet and script, no inline script or style, no other origin. The
// server sends it as a header; pages also carry it in a <meta> element so a
// static copy is protected wherever it is hosted (frame-ancestors only works
// as a header).
const ContentSecurityPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// metaPolicy is ContentSecurityPolicy without what <meta> cannot carry.
var metaPolicy = strings.TrimSuffix(ContentSecurityPolicy, "; frame-ancestors 'none'")

// Assets are the files the pages load from AssetsDir, by base name.
var Assets = []string{"catalog.css", "catalog.js"}

// Asset returns an asset's contents and MIME type; false when name is not
// an asset.
func Asset(name string) ([]byte, string, bool) {
	var mime string
	switch name {
	case "catalog.css":
		mime = "text/css; charset=utf-8"
	case "catalog.js":
		mime = "text/javascript; charset=utf-8"
	default:
		return nil, "", false
	}
	b, err := fs.ReadFile(templates.FS, name)
	if err != nil {
		return nil, "", false
	}
	return b, mime, true
}

var pages = template.Must(template.New("catalog.html.tmpl").Funcs(template.FuncMap{
	"plus":  func(a, b int) int { return a + b },
	"join":  strings.Join,
	"lower": strings.ToLower,
	// propertyRows writes the rows of a property table (rows.go).
	"propertyRows": propertyRows,
	// propertyTree shows a resource's properties, breakable a type name
	// (tree.go).
	"propertyTree": propertyTree,
	"breakable":    breakable,
	// markdown and markdownSummary render a description (markdown.go).
	"markdown":        markdown,
	"markdownSummary": markdownSummary,
}).ParseFS(templates.FS, "catalog.html.tmpl"))

// Linker turns canonical page paths ("/types/...") into the links of one
// page: as they are for the server, or relative with ".html" for a static
// copy, so the site works under any prefix (GitHub Pages) and from disk.
type Linker struct {
	static bool
	root   string // "../../" back to the site root, static only
}

// ServerLinks links as the server serves the pages.
func ServerLinks() Linker { return Linker{} }

// staticLinks links from the static page at canonical path from.
func staticLinks(from string) Linker {
	depth := strings.Count(strings.TrimPrefix(from, "/"), "/")
	return Linker{static: true, root: strings.Repeat("../", depth)}
}

// Static reports whether the links are those of a static copy.
func (l Linker) Static() bool { return l.static }

// Href is the link to the page at canonical path p.
func (l Linker) Href(p string) string { return l.file(p, ".html") }

// file is the link to the page at p: p itself for the server, the file with
// extension ext for a static copy.
func (l Linker) file(p, ext string) string {
	if !l.static {
		return p
	}
	return l.root + pagePath(p, ext)
}

// Asset is the link to an asset.
func (l Linker) Asset(name string) string {
	if !l.static {
		return AssetsDir + name
	}
	return l.root + "assets/" + name
}

// JSON is the link to the JSON twin of the page at p: the same URL for the
// server (ask with Accept: application/json), the .json file for a static
// copy.
func (l Linker) JSON(p string) string { return l.file(p, ".json") }

// Compare links to the changes page between a and b.
func (l Linker) Compare(t *Type, a, b string) string { return l.Href(ComparePath(t, a, b)) }

// view is what the templates receive.
type view struct {
	Title, Path string
	Policy      string
	L           Linker
	Home        *Home
	Type        *TypePage
	Changes     *Changes
	Missing     string // not found: what was asked for
}

// RenderHome writes the home page as HTML.
func RenderHome(l Linker, h Home) ([]byte, error) {
	return render("home", view{Title: "Resource types", Path: HomePath, L: l, Home: &h})
}

// RenderType writes a type page as HTML.
func RenderType(l Linker, p TypePage) ([]byte, error) {
	return render("type", view{Title: p.Type.FullName + "@" + p.APIVersion.Name, Path: p.APIVersion.Page, L: l, Type: &p})
}

// RenderChanges writes a changes page as HTML.
func RenderChanges(l Linker, c Changes) ([]byte, error) {
	return render("changes", view{Title: c.Type.FullName + ": " + c.From.Name + " → " + c.To.Name,
		Path: ComparePath(c.Type, c.From.Name, c.To.Name), L: l, Changes: &c})
}

// RenderNotFound writes the page for a missing type or version.
func RenderNotFound(l Linker, what string) ([]byte, error) {
	return render("notfound", view{Title: "Not found", L: l, Missing: what})
}

func render(name string, v view) ([]byte, error) {
	v.Policy = metaPolicy
	b := bufpool.Get()
	defer bufpool.Put(b)
	if err := pages.ExecuteTemplate(b, name, v); err != nil {
		return nil, fmt.Errorf("catalog: rendering %s: %w", name, err)
	}
	return bytes.Clone(b.Bytes()), nil
}

// JSON encodes a page's data, its JSON twin, indented and without HTML
// escaping (it is served as application/json).
func JSON(v any) ([]byte, error) {
	b := bufpool.Get()
	defer bufpool.Put(b)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Indented into a reused buffer: what an Encoder with SetIndent
	// writes, without a fresh buffer per page, and without json.Indent's
	// scanner (the Encoder's output is valid JSON).
	out := bufpool.Get()
	data := jsonindent.Append(out.AvailableBuffer(), b.Bytes(), "  ")
	page := bytes.Clone(data)              // before the buffer goes back to the pool
	bufpool.Put(bytes.NewBuffer(data[:0])) // out, or what it grew into
	return page, nil
}

// File is one file of the static site.
type File struct {
	Path string // slash-separated, relative to the site root
	Data []byte
}

// Site renders the whole catalog as static files: index.html, a page per
// type and API version, a changes page per pair of versions (older →
// newer), the JSON twin of each (.json beside .html) and the assets. Paths
// are relative to the site root, sorted.
func (c *Catalog) Site(opts Options) ([]File, error) {
	var mu sync.Mutex
	var files []File
	err := c.SiteFunc(opts, func(batch []File) error {
		mu.Lock()
		defer mu.Unlock()
		files = append(files, batch...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortFiles(files)
	return files, nil
}

// SiteFunc renders the files of Site and hands them to put in batches as
// they are rendered (the home page, the pages of each type, the assets), so
// a caller that writes them need not hold the whole site. put is called
// from several goroutines at once, batches and files in no set order (Site
// and gen sort what they collect); its first error stops the rendering and
// is returned.
func (c *Catalog) SiteFunc(opts Options, put func([]File) error) error {
	home := c.Home("")
	if len(opts.PreviousHome) > 0 {
		var err error
		if home, err = homeOver(opts.PreviousHome, home); err != nil {
			return err
		}
	}
	h, err := RenderHome(staticLinks(HomePath), home)
	if err != nil {
		return err
	}
	files, err := addPage(nil, HomePath, h, home)
	if err != nil {
		return err
	}
	for _, a := range Assets {
		b, _, _ := Asset(a)
		files = append(files, File{Path: "assets/" + a, Data: b})
	}
	if err := put(files); err != nil {
		return err
	}
	// The pages of each type are rendered on their own goroutine, at most
	// one per core; they only read the catalog.
	var types []*Type
	for _, ns := range c.Namespaces {
		types = append(types, ns.Types...)
	}
	return par.EachErr(len(types), func(i int) error {
		files, err := c.typeFiles(types[i], opts)
		if err != nil {
			return err
		}
		return put(files)
	})
}

// typeFiles renders the pages of t for Site: a page per API version and a
// changes page per pair of versions (older → newer), each with its JSON twin.
func (c *Catalog) typeFiles(t *Type, opts Options) ([]File, error) {
	var files []File
	known := parsed{}
	for i, v := range t.APIVersions {
		p, _ := c.typePage(t, v.Name, opts, known)
		b, err := RenderType(staticLinks(v.Page), p)
		if err != nil {
			return nil, err
		}
		if files, err = addPage(files, v.Page, b, p); err != nil {
			return nil, err
		}
		for _, older := range t.APIVersions[i+1:] {
			ch, _ := c.changes(t, older.Name, v.Name, opts, known)
			cp := ComparePath(t, older.Name, v.Name)
			b, err := RenderChanges(staticLinks(cp), ch)
			if err != nil {
				return nil, err
			}
			if files, err = addPage(files, cp, b, ch); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}

// addPage appends the page at canonical path p: its HTML and the JSON twin
// of its data.
func addPage(files []File, p string, html []byte, data any) ([]File, error) {
	j, err := JSON(data)
	if err != nil {
		return files, err
	}
	return append(files, File{Path: pagePath(p, ".html"), Data: html}, File{Path: pagePath(p, ".json"), Data: j}), nil
}

func pagePath(p, ext string) string {
	if p == HomePath {
		return "index" + ext
	}
	return path.Clean(strings.TrimPrefix(p, "/")) + ext
}

func sortFiles(files []File) {
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}
