package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/udtc/udtc/internal/bufpool"
	"github.com/udtc/udtc/internal/jsonindent"
	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry/api"
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
	// propertyTable writes a property table (rows.go).
	"propertyTable": propertyTable,
	// propertyTree shows a resource's properties, breakable a type name
	// (tree.go).
	"propertyTree": propertyTree,
	"breakable":    breakable,
	// markdown and markdownSummary render a description (markdown.go).
	"markdown":        markdown,
	"markdownSummary": markdownSummary,
	// changesBlock and changesAnchor place a comparison on a page.
	"changesBlock":  newChangesBlock,
	"changesAnchor": ChangesAnchor,
}).ParseFS(templates.FS, "catalog.html.tmpl"))

// Linker turns canonical page paths ("/types/...") into the links of one
// page: as they are for the server, or relative with ".html" for a static
// copy, so the site works under any prefix (GitHub Pages) and from disk.
type Linker struct {
	static bool
	dir    string // the static page's directory, "types/ns/"; "" at the root
}

// ServerLinks links as the server serves the pages.
func ServerLinks() Linker { return Linker{} }

// staticLinks links from the static page at canonical path from.
func staticLinks(from string) Linker {
	file := pagePath(from, ".html")
	return Linker{static: true, dir: file[:strings.LastIndexByte(file, '/')+1]}
}

// Static reports whether the links are those of a static copy.
func (l Linker) Static() bool { return l.static }

// Href is the link to the page at canonical path p.
func (l Linker) Href(p string) string {
	if !l.static {
		return p
	}
	return l.relative(pagePath(p, ".html"))
}

// relative is the link from the static page to the file at target (a
// path from the site root): up to the directory both are in, then down.
func (l Linker) relative(target string) string {
	dir, up := l.dir, 0
	for dir != "" && !strings.HasPrefix(target, dir) {
		dir = dir[:strings.LastIndexByte(dir[:len(dir)-1], '/')+1]
		up++
	}
	return strings.Repeat("../", up) + strings.TrimPrefix(target, dir)
}

// Asset is the link to an asset.
func (l Linker) Asset(name string) string {
	if !l.static {
		return AssetsDir + name
	}
	return l.relative("assets/" + name)
}

// JSON is the link to the JSON twin of the page at p: the same URL for the
// server (ask with Accept: application/json); for a static copy the home
// page's index.json, and "" for other pages, whose HTML is all a static
// copy writes (Site).
func (l Linker) JSON(p string) string {
	if !l.static {
		return p
	}
	if p != HomePath {
		return ""
	}
	return l.relative(pagePath(p, ".json"))
}

// Compare links to the comparison of versions a and b of t: the server's
// changes page, or on a static copy, which has no pages of changes, the
// section of the newer version's page that compares it with the older
// (ChangesAnchor).
func (l Linker) Compare(t *Type, a, b string) string {
	if !l.static {
		return ComparePath(t, a, b)
	}
	if api.CompareVersions(a, b) > 0 {
		a, b = b, a
	}
	return l.Href(TypePath(t.Namespace, t.Name, b)) + "#" + ChangesAnchor(a)
}

// ChangesAnchor is the id of the section of a static type page that
// compares its version with the older version from.
func ChangesAnchor(from string) string { return "changes-" + from }

// changesBlock is what the changesBody template receives: a comparison,
// the level of its headings and the prefix of their ids.
type changesBlock struct {
	C     Changes
	level int
	id    string
}

func newChangesBlock(c Changes, level int, idPrefix string) changesBlock {
	return changesBlock{C: c, level: level, id: idPrefix}
}

// Heading writes a heading of the block: <h2 id="added">Added</h2> on a
// changes page, <h4 id="changes-2025-01-01-added">Added</h4> in a section
// of a type page.
func (b changesBlock) Heading(id, text string) template.HTML {
	if b.id != "" {
		id = b.id + "-" + id
	}
	var s strings.Builder
	h := "h" + strconv.Itoa(b.level)
	s.WriteString("<" + h + ` id="`)
	escapeHTML(&s, id)
	s.WriteString(`">`)
	escapeHTML(&s, text)
	s.WriteString("</" + h + ">")
	return template.HTML(s.String())
}

// view is what the templates receive.
type view struct {
	Title, Path string
	// JSON links to the page's JSON twin; "" when there is none.
	JSON    string
	Policy  string
	L       Linker
	Home    *Home
	Type    *TypePage
	Changes *Changes
	Missing string // not found: what was asked for
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
	if v.Path != "" {
		v.JSON = v.L.JSON(v.Path)
	}
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

// Site renders the whole catalog as static files: index.html with its JSON
// twin index.json, a page per type and API version, and the assets. Paths
// are relative to the site root, sorted.
//
// A static copy is read in a browser, so it writes what a reader of a page
// needs and nothing twice: the pages of a type's versions carry their
// comparisons (TypePage.Changes: each version's page compares it with every
// older version) instead of a page per pair of versions, and only the home
// page has a JSON twin, the index of the site (and what an incremental run
// merges into, Options.PreviousHome); the registered schemas are the
// registration documents' (`udtc gen --target registration`), and the
// server answers each page as JSON.
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
// they are rendered (the home page and the assets, then the pages of each
// type), so a caller that writes them need not hold the whole site. put is
// called from several goroutines at once, batches and files in no set
// order (Site and gen sort what they collect); its first error stops the
// rendering and is returned.
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
	j, err := JSON(home)
	if err != nil {
		return err
	}
	files := []File{{Path: pagePath(HomePath, ".html"), Data: h}, {Path: pagePath(HomePath, ".json"), Data: j}}
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

// typeFiles renders the pages of t for Site: a page per API version, with
// the changes since each older version.
func (c *Catalog) typeFiles(t *Type, opts Options) ([]File, error) {
	files := make([]File, 0, len(t.APIVersions))
	known := parsed{}
	for i, v := range t.APIVersions {
		p, _ := c.typePage(t, v.Name, opts, known)
		for _, older := range t.APIVersions[i+1:] {
			ch, _ := c.changes(t, older.Name, v.Name, opts, known)
			p.Changes = append(p.Changes, ch)
		}
		b, err := RenderType(staticLinks(v.Page), p)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: pagePath(v.Page, ".html"), Data: b})
	}
	return files, nil
}

// PageFile is the file of the static site (Site) that holds the page at
// canonical path p, relative to the site root (pagePath).
func PageFile(p string) string { return pagePath(p, ".html") }

// pagePath is the file of the static site that holds the page at
// canonical path p, relative to the site root: index.html for the home
// page, and for the page of a type version (TypePath
// /types/NS/T/V) types/NS/T@V.html, the version joined to its type by "@"
// as in Bicep's Type@version. A directory per type would cost a mkdir,
// and an inode, per type on every cold gen, for one or two files each;
// this way the site has a directory per namespace. The server's URLs keep
// the canonical paths: only the static copy's files are named here.
func pagePath(p, ext string) string {
	if p == HomePath {
		return "index" + ext
	}
	p = path.Clean(strings.TrimPrefix(p, "/"))
	if rest, ok := strings.CutPrefix(p, "types/"); ok && strings.Count(rest, "/") == 2 {
		i := strings.LastIndexByte(p, '/')
		p = p[:i] + "@" + p[i+1:]
	}
	return p + ext
}

func sortFiles(files []File) {
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}
