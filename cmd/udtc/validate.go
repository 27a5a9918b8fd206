package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// validateFlags are the flags of `udtc validate`.
type validateFlags struct{ typeSourceFlags }

func validateCommand(e *env) *cli.Command {
	f := &validateFlags{}
	return &cli.Command{
		Name:      "validate",
		Usage:     "check resource documents against a type's schema, as the registry would admit them",
		ArgsUsage: "NAMESPACE/TYPE@VERSION FILE...",
		Description: "Checks resource documents (YAML or JSON; several YAML documents per file are allowed) the way\n" +
			"the registry admits a PUT: with the same implementation (registry/admission), against the schema\n" +
			"of the API version read from local manifests (--manifests) or from a registry (--server). A\n" +
			"document is a resource body {location, tags, properties}; every violation is reported with its\n" +
			"path and file:line:col. Exit code 0: every document is admitted; 1: a violation; 2: usage error.",
		Flags:  f.flags(),
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

func (f *validateFlags) run(c *cli.Context, e *env) error {
	if err := checkOutput(f.server.output); err != nil {
		return err
	}
	if c.Args().Len() < 2 {
		return usageErrorf("validate takes NAMESPACE/TYPE@VERSION and at least one FILE")
	}
	ref, err := api.ParseTypeRef(c.Args().First())
	if err != nil {
		return usageErrorf("%v", err)
	}
	if ref.Version == "" || len(ref.Path) > 0 {
		return usageErrorf("validate takes NAMESPACE/TYPE@VERSION (an API version, no property path), not %q", c.Args().First())
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

// resourceKeys are the top-level keys of a resource body (docs/resources.md);
// the read-only ones are accepted so that a GET body validates.
var resourceKeys = []string{"id", "name", "type", "location", "tags", "properties", "systemData", "etag"}

// validateFile admits every document of a YAML or JSON file and returns
// how many there were and their violations as diagnostics with positions.
func validateFile(schema *admission.Schema, ref api.TypeRef, file string, data []byte) (int, diag.List) {
	var diags diag.List
	report := func(n *yaml.Node, code, target, msg string) {
		sp := diag.Span{File: file}
		if n != nil {
			sp.Line, sp.Column, sp.EndLine, sp.EndColumn = n.Line, n.Column, n.Line, n.Column
			if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") && n.Style == 0 {
				sp.EndColumn = n.Column + len(n.Value)
			}
		}
		diags.Add(diag.Diagnostic{Span: sp, Severity: diag.Error, Rule: code, Path: target, Message: target + ": " + msg})
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	count := 0
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			diags.Add(diag.Diagnostic{Span: diag.Span{File: file, Line: yamlErrorLine(err)}, Severity: diag.Error, Rule: admission.CodeInvalidJSON,
				Message: "not valid YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")})
			return count, diags
		}
		count++
		root := &doc
		if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
			root = root.Content[0]
		}
		if root.Kind != yaml.MappingNode {
			report(root, admission.CodeInvalidType, "resource", "must be an object {location, tags, properties}")
			continue
		}
		var props *yaml.Node
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			switch {
			case k.Value == "properties":
				props = v
			case k.Value == "type" && v.Kind == yaml.ScalarNode && !strings.EqualFold(v.Value, ref.Namespace+"/"+ref.Type):
				report(v, admission.CodeInvalidType, "type", fmt.Sprintf("is %q, but the document is checked as %s/%s", v.Value, ref.Namespace, ref.Type))
			case !slices.ContainsFunc(resourceKeys, func(key string) bool { return strings.EqualFold(key, k.Value) }):
				report(k, admission.CodeUnknownProperty, k.Value, "is not a key of a resource: "+strings.Join(resourceKeys, ", ")+" (the schema applies to properties)")
			}
		}
		raw := []byte("{}")
		if props != nil {
			var v any
			if err := props.Decode(&v); err != nil {
				report(props, admission.CodeInvalidJSON, admission.Root, err.Error())
				continue
			}
			if raw, err = json.Marshal(v); err != nil {
				report(props, admission.CodeInvalidJSON, admission.Root, "cannot be read as JSON (keys must be strings): "+err.Error())
				continue
			}
		}
		_, violations := schema.Admit(raw)
		for _, v := range violations {
			n := root
			if props != nil {
				key, val := locate(props, v.Target)
				n = val
				if v.Code == admission.CodeUnknownProperty && key != nil {
					n = key
				}
			}
			report(n, v.Code, v.Target, v.Message)
		}
	}
	return count, diags
}

// locate returns the node a violation's target names (and, when its last
// segment is a mapping key, that key's node), or the deepest node that
// exists: a missing property's parent object.
func locate(props *yaml.Node, target string) (key, value *yaml.Node) {
	segs, err := admission.ParseTarget(target)
	if err != nil {
		return nil, props
	}
	n := props
	for _, s := range segs {
		key = nil
		switch s := s.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return nil, n
			}
			found := false
			for j := 0; j+1 < len(n.Content); j += 2 {
				if n.Content[j].Value == s {
					key, n, found = n.Content[j], n.Content[j+1], true
					break
				}
			}
			if !found {
				return nil, n
			}
		case int:
			if n.Kind != yaml.SequenceNode || s >= len(n.Content) {
				return nil, n
			}
			n = n.Content[s]
		}
	}
	return key, n
}

// yamlErrorLine extracts "line N" from a YAML parser error, or 0.
func yamlErrorLine(err error) int {
	var line int
	if _, e := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &line); e == nil {
		return line
	}
	return 0
}

// plural returns "1 document" or "n documents".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
