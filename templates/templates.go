// Package templates owns the template files of udtc's prose artifacts
// (Markdown documentation, the catalog's HTML with its stylesheet and
// script, the starter files of a project), embedded so the binary needs nothing on disk.
// Generated code is never templated: the Go client is built with jennifer.
//
// Files:
//
//	docs.md.tmpl         the reference page of the docs target (generator/emit/docs)
//	catalog.html.tmpl    the registry's catalog pages (registry/catalog)
//	catalog.css          their stylesheet, served as is
//	catalog.js           their script (the filter, copy buttons), served as is
//	init/                the files `udtc init` starts a project with (generator/project.Starter)
package templates

import "embed"

// FS holds every template file at its base name.
//
//go:embed *.tmpl catalog.css catalog.js init
var FS embed.FS
