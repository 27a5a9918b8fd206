package main

import (
	"encoding/json"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/registry/api"
)

// checkSchema checks an API version schema PUT to the registry with the same
// checker `udtc check` uses, so the registry accepts exactly what a manifest
// may declare. Paths are JSON pointers into the schema; lines and columns
// point into the request's schema text.
func checkSchema(schema json.RawMessage) []api.Diagnostic {
	_, diags := check.Schema("schema", schema)
	out := make([]api.Diagnostic, 0, len(diags))
	for _, d := range diags {
		out = append(out, api.Diagnostic{
			File: d.Span.File, Line: d.Span.Line, Column: d.Span.Column,
			Severity: d.Severity.String(), Rule: d.Rule, Path: d.Path, Message: d.Message, Hint: d.Hint,
		})
	}
	return out
}
