// Package templates owns the text/template files of udtc's prose artifacts
// (Markdown documentation), embedded so the binary needs nothing on disk.
// Generated code is never templated: the Go client is built with jennifer.
//
// Files:
//
//	bicep-types.md.tmpl  types.md of a Bicep extension (generator/emit/bicep)
//	docs.md.tmpl         the reference page of the docs target (generator/emit/docs)
package templates

import "embed"

// FS holds every template file at its base name.
//
//go:embed *.tmpl
var FS embed.FS
