package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// validateFlags are the flags of `udtc validate`.
type validateFlags struct{ typeSourceFlags }

func (f *validateFlags) run(c *cli.Context, e *env) error {
	ref, err := f.typeArg(c, c.Args().Len() >= 2, "validate takes NAMESPACE/TYPE[@VERSION] and at least one FILE")
	if err != nil {
		return err
	}
	if len(ref.Path) > 0 {
		return usageErrorf("validate takes NAMESPACE/TYPE[@VERSION] (a type, no property path), not %q", c.Args().First())
	}
	res, err := f.lookup(c, e, ref)
	if err != nil {
		return err
	}
	schema, err := admission.Compile(res.schema)
	if err != nil {
		return fail(exitFail, fmt.Errorf("%s: the registered schema cannot be compiled: %w", res.ref, err))
	}
	var diags diag.List
	docs := 0
	for _, file := range c.Args().Tail() {
		data, err := readInput(e, file)
		if err != nil {
			return fail(exitUsage, err)
		}
		n, ds := validateFile(schema, res.ref, file, data)
		docs += n
		diags = append(diags, ds...)
	}
	if f.server.output == "json" {
		if err := diag.WriteJSON(e.stdout, diags); err != nil {
			return err
		}
	} else if len(diags) > 0 {
		if err := printDiagnostics(e, "text", diags); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stderr, "ok: %s admitted as %s\n", plural(docs, "document"), res.ref)
	}
	if diags.HasErrors() {
		return fail(exitFail, nil)
	}
	return nil
}

// readInput reads a file, or stdin for "-".
func readInput(e *env, file string) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(e.stdin)
	}
	return os.ReadFile(file)
}

// validateFile admits every document of a YAML or JSON file
// (admission.AdmitFile) and returns how many there were and their
// violations as diagnostics with positions.
func validateFile(schema *admission.Schema, ref api.TypeRef, file string, data []byte) (int, diag.List) {
	docs, found := schema.AdmitFile(ref.Namespace+"/"+ref.Type, data)
	var diags diag.List
	for _, v := range found {
		d := diag.Diagnostic{Span: diag.Span{File: file, Line: v.Line, Column: v.Column, EndLine: v.EndLine, EndColumn: v.EndColumn},
			Severity: diag.Error, Rule: v.Code, Path: v.Target, Message: v.Message}
		if v.Target != "" {
			d.Message = v.Target + ": " + v.Message
		}
		diags.Add(d)
	}
	return docs, diags
}

// plural returns "1 document" or "n documents" (naming.Count).
func plural(n int, noun string) string { return naming.Count(n, noun) }
