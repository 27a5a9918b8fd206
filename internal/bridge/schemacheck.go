package bridge

import (
	"encoding/json"
	"fmt"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/registry/service"
)

// maxCachedPatterns bounds the compiled patterns a server keeps.
const maxCachedPatterns = 4096

// NewPatterns returns a cache of compiled patterns for CheckSchema and
// CompareSchemas: PUTs and a catalog's versions repeat the same few
// patterns. It keeps at most maxCachedPatterns, so a stream of distinct
// patterns costs bounded memory, and is safe for concurrent use; a server
// shares one between its checks and its changes pages.
func NewPatterns() *check.Patterns { return &check.Patterns{Max: maxCachedPatterns} }

// CheckSchema returns serve's check of an API version schema PUT to the
// registry: the checker `udtc check` uses, so the registry accepts what a
// manifest may declare (the service first reads an object schema without
// a type as Radius does: service.ImplyObjectTypes). Paths are JSON
// pointers into the schema; lines and columns point into the request's
// schema text. Compiled patterns are kept in patterns.
func CheckSchema(patterns *check.Patterns) func(json.RawMessage) []api.Diagnostic {
	return func(schema json.RawMessage) []api.Diagnostic {
		_, diags := check.Schema("schema", schema, patterns)
		out := make([]api.Diagnostic, 0, len(diags))
		for _, d := range diags {
			out = append(out, registration.Diagnostic(d))
		}
		return out
	}
}

// CompareSchemas returns the catalog's comparison of two API versions of a
// type (registry/catalog.CompareFunc): the schemas are checked as at PUT
// and judged by the rules of `udtc breaking` as if the newer replaced the
// older. A schema that does not check is an error naming its first
// diagnostic; the catalog then falls back to a structural comparison.
// Compiled patterns are kept in patterns; it is safe for concurrent use.
func CompareSchemas(patterns *check.Patterns) catalog.CompareFunc {
	return func(oldSchema, newSchema json.RawMessage) ([]catalog.Change, error) {
		old, err := schemaModel("the older version's schema", oldSchema, patterns)
		if err != nil {
			return nil, err
		}
		new, err := schemaModel("the newer version's schema", newSchema, patterns)
		if err != nil {
			return nil, err
		}
		return changes(compat.CompareSchemas(old, new)), nil
	}
}

// compareCompiled is CompareSchemas for the site of a compiled catalog:
// the schemas compared are the registrations' (regs, made from cat), and
// the model of each is in cat already, as the registry's check would make
// it, so it is not checked again; a schema not in cat is left to compare.
func compareCompiled(cat *model.Catalog, regs []api.Registration, compare catalog.CompareFunc) catalog.CompareFunc {
	compiled := map[string]*model.Schema{} // by the schema's registered JSON
	for i, p := range cat.Providers {
		for j, t := range p.Types {
			for k, v := range t.APIVersions {
				if v.Schema != nil {
					compiled[string(regs[i].Types[j].APIVersions[k].Properties.Schema)] = v.Schema
				}
			}
		}
	}
	return func(oldSchema, newSchema json.RawMessage) ([]catalog.Change, error) {
		old, oldOK := compiled[string(oldSchema)]
		new, newOK := compiled[string(newSchema)]
		if !oldOK || !newOK {
			return compare(oldSchema, newSchema)
		}
		return changes(compat.CompareSchemas(old, new)), nil
	}
}

// changes are compat's findings as the catalog lists them.
func changes(fs []compat.Finding) []catalog.Change {
	out := make([]catalog.Change, len(fs))
	for i, f := range fs {
		out[i] = catalog.Change{Rule: f.Rule, Severity: compat.SeverityName(f.Severity), Path: f.Path, Message: f.Message}
	}
	return out
}

// schemaModel checks a stored schema as the registry read it at PUT
// (service.ImplyObjectTypes) and returns its model.
func schemaModel(what string, schema json.RawMessage, patterns *check.Patterns) (*model.Schema, error) {
	s, diags := check.Schema("schema", service.ImplyObjectTypes(schema), patterns)
	if s != nil {
		return s, nil
	}
	for _, d := range diags {
		if d.Severity == diag.Error {
			return nil, fmt.Errorf("%s: %s: %s", what, d.Rule, d.Message)
		}
	}
	return nil, fmt.Errorf("%s does not check", what)
}
