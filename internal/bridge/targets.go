package bridge

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/mod/module"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/buildinfo"
	"github.com/udtc/udtc/registry/catalog"
)

// TargetNames are gen's targets, in the order they run.
var TargetNames = []string{"bicep", "go", "docs", "registration", "site"}

// NeedSource reports whether any of the named targets is made from each API
// version's schema as registered (model.APIVersion.Source): the
// registration documents, and the site, which renders them. The others
// are made from the model alone, and gen compiles for them without Source
// (generator.Options.NoSource).
func NeedSource(names []string) bool {
	return slices.Contains(names, "registration") || slices.Contains(names, "site")
}

// GenOptions are what gen's targets are made with.
type GenOptions struct {
	// ExtensionName and ExtensionVersion name the Bicep extension, for
	// the bicep and docs targets and the site's Bicep snippets.
	ExtensionName, ExtensionVersion string
	// Go are the Go client's options; the site's Go snippets import
	// Go.ImportPrefix.
	Go goclient.Options
	// PreviousHome is the site's home page (site/index.json) as the last
	// run wrote it, for a run that redoes some namespaces only.
	PreviousHome []byte
}

// SelectTargets reads gen's --target values (names, comma-separated or
// repeated, or "all"; none means all) and returns the names in
// TargetNames order.
func SelectTargets(values []string) ([]string, error) {
	want := map[string]bool{}
	for _, v := range values {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				want[n] = true
			}
		}
	}
	if len(want) == 0 || want["all"] {
		return slices.Clone(TargetNames), nil
	}
	for n := range want {
		if !slices.Contains(TargetNames, n) {
			return nil, fmt.Errorf("unknown --target %q: choose from %s", n, strings.Join(TargetNames, ", "))
		}
	}
	return slices.DeleteFunc(slices.Clone(TargetNames), func(n string) bool { return !want[n] }), nil
}

// Targets returns the named targets (SelectTargets) made with o. With a
// module runtime, the Go client's go.mod requires udtc's module at the
// version of this binary, when it has one.
func Targets(names []string, o GenOptions) []generator.Target {
	if v := buildinfo.Read().Version; o.Go.RuntimeVersion == "" && module.Check(goclient.RuntimeModulePath, v) == nil {
		o.Go.RuntimeVersion = v
	}
	// A gen of the Go client and the site has the Go client hand the site
	// the example literals of its plans (goclient.Options.Literals): the
	// site would plan every package again to write them.
	var lits *literals
	if g := slices.Index(names, "go"); g >= 0 && g < slices.Index(names, "site") {
		lits = &literals{m: map[string]goclient.Literal{}}
		o.Go.Literals = lits.put
	}
	all := map[string]func(*model.Catalog, emit.Put) (diag.List, error){
		"bicep": func(cat *model.Catalog, put emit.Put) (diag.List, error) {
			return bicep.EmitFunc(cat, bicep.Options{ExtensionName: o.ExtensionName, ExtensionVersion: o.ExtensionVersion}, put)
		},
		"go": func(cat *model.Catalog, put emit.Put) (diag.List, error) {
			diags, err := goclient.EmitFunc(cat, o.Go, put)
			lits.finish(err)
			return diags, err
		},
		"docs": func(cat *model.Catalog, put emit.Put) (diag.List, error) {
			return docs.EmitFunc(cat, docs.Options{ExtensionName: o.ExtensionName, ExtensionVersion: o.ExtensionVersion}, put)
		},
		"registration": func(cat *model.Catalog, put emit.Put) (diag.List, error) {
			return nil, registration.EmitFunc(cat, registration.Options{}, put)
		},
		"site": func(cat *model.Catalog, put emit.Put) (diag.List, error) { return nil, site(cat, o, lits.all(), put) },
	}
	targets := make([]generator.Target, len(names))
	for i, n := range names {
		targets[i] = generator.Target{Name: n, Emit: all[n]}
	}
	return targets
}

// literals collects the Go client's example literals for the site
// (goclient.Options.Literals). A nil *literals collects nothing.
type literals struct {
	mu   sync.Mutex
	m    map[string]goclient.Literal
	done bool
}

func (l *literals) put(key string, lit goclient.Literal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[key] = lit
}

// finish records how the Go client's run ended: only a whole run has
// every literal.
func (l *literals) finish(err error) {
	if l != nil {
		l.done = err == nil
	}
}

// all returns the literals of a whole run of the Go client, nil without
// one.
func (l *literals) all() map[string]goclient.Literal {
	if l == nil || !l.done {
		return nil
	}
	return l.m
}

// site is the site target: the registry's catalog pages as static files
// under site/, for hosting anywhere (GitHub Pages). The compiled manifests
// become the registration documents `udtc publish` sends, and those the
// catalog's view model, so the pages are the ones `udtc serve` renders for
// the same manifests once published. Go snippets use the Go import prefix
// and the generated types (goPropertiesCompiled);
// Bicep snippets use the extension name when it is given. The comparisons
// on each version's page judge versions with the rules of `udtc
// breaking`, as the server's changes pages do. The pages are handed to put as they are rendered (catalog.SiteFunc),
// from several goroutines at once.
//
// The catalog reads each schema back from its registration JSON
// (schema.Decode) rather than being handed the model's: it shows keywords
// as written, which only decoded nodes keep (schema.Schema.Written), so
// with the model's nodes every property table would be empty; and the
// model is let go while the site, gen's last target, renders
// (generator.EmitTargets).
func site(cat *model.Catalog, o GenOptions, lits map[string]goclient.Literal, put emit.Put) error {
	regs := registration.Registrations(cat, registration.Options{})
	c := catalog.New(catalog.FromRegistrations(regs))
	goProps, err := goPropertiesCompiled(cat, lits)
	if err != nil {
		return err
	}
	opts := catalog.Options{GoImportPrefix: o.Go.ImportPrefix, BicepExtension: o.ExtensionName, GoProperties: goProps,
		Compare: compareCompiled(cat, regs, CompareSchemas(NewPatterns())), PreviousHome: o.PreviousHome}
	return c.SiteFunc(opts, func(pages []catalog.File) error {
		files := make([]emit.File, len(pages))
		for i, p := range pages {
			files[i] = emit.File{Path: "site/" + p.Path, Data: p.Data}
		}
		return put(files)
	})
}
