package main

import (
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/catalog"
)

// siteStream is the site target: the registry's catalog pages as static files
// under site/, for hosting anywhere (GitHub Pages). The compiled manifests
// become the registration documents `udtc publish` sends, and those the
// catalog's view model, so the pages are the ones `udtc serve` renders for
// the same manifests once published. Go snippets use --go-import-prefix
// (gen's run derives it from the go.mod above --out when unset); Bicep
// snippets use --extension-name when it is given. The changes pages judge
// versions with the rules of `udtc breaking`, as the server's do. The pages
// are handed to put as they are rendered (catalog.SiteFunc), from several
// goroutines at once.
func siteStream(cat *model.Catalog, f *genFlags, put emit.Put) (diag.List, error) {
	c := catalog.New(catalog.FromRegistrations(registration.Registrations(cat, registration.Options{})))
	opts := catalog.Options{GoImportPrefix: f.goImportPrefix, BicepExtension: f.extensionName, Compare: newCompareSchemas(newPatterns()),
		PreviousHome: f.state.Previous("site/index.json")}
	err := c.SiteFunc(opts, func(pages []catalog.File) error {
		files := make([]emit.File, len(pages))
		for i, p := range pages {
			files[i] = emit.File{Path: "site/" + p.Path, Data: p.Data}
		}
		return put(files)
	})
	return nil, err
}
