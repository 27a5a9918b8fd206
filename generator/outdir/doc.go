// Package outdir owns an output directory of `udtc gen`: it writes a run's
// files into it as one step that either happens whole or not at all, and
// remembers what it wrote.
//
//   - Stager stages each target's changed files below DIR/.udtc-stage-*/ as
//     its emitter makes them, and Commit renames them into place, removes
//     what the run no longer produces and writes DIR/.udtc-generated (the
//     marker: target, path, size and SHA-256 of each file). A Commit that
//     fails part way puts DIR back as it was (a journal keeps each file it
//     replaces or removes); RemoveLeftovers removes what a killed run left.
//   - UpToDate, SaveCache and InputKey are the input cache: a run whose
//     inputs and options have the key of the last run, into a directory
//     whose listed files are as that run left them, would write nothing.
//     The cache is machine-local and lives in the user cache directory,
//     never in DIR, so DIR is byte-identical wherever it is generated.
//   - GoImportPath is the Go import path of DIR, from the go.mod above it.
//
// The README's "How gen writes" section is the contract this package keeps.
package outdir
