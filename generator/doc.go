// Package generator is the compiler: Compile parses and checks manifests into
// a model.Catalog plus diagnostics; emitters under generator/emit turn a
// Catalog into files.
//
//	manifest files ──parse──▶ manifest ──check──▶ model.Catalog (+ diag.List)
//	               ──emit───▶ emit.File batches ──write / publish──▶ disk, registry
package generator
