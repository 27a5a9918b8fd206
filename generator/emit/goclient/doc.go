// Package goclient is the Go client emitter: it turns a checked
// model.Catalog into Go source files (emit.File), one package per namespace
// and API version plus a version-independent resourceids package per
// namespace. Code is built with github.com/dave/jennifer and rendered to
// gofmt'd bytes; nothing is written to disk here. The generated code imports
// only the standard library.
//
// The emitter owns Go naming (types, structs by schema path, enums, fields,
// initialisms, the singular rule and collision suffixes, reported as
// go-name-collision and go-field-collision warnings), the schema → Go type
// mapping, the generated Validate methods and the resource ID types.
// docs/go-client.md documents the output for users.
//
// Files:
//
//	emit.go      Emit and Options
//	plan.go      naming: namespace-wide type names, per-package structs and enums
//	names.go     words, PascalCase, initialisms, singular, the namer
//	files.go     rendering: envelope, structs, enums, common file, ID aliases
//	gen.go       Go types and Validate code of schema nodes
//	ids.go       the resourceids package
//	comments.go  doc comments: wrapping, constraints in words
package goclient
