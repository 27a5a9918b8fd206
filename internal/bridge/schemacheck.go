package bridge

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/schema"
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
// a type as Radius does: schema.ImplyObjectTypes). Paths are JSON
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

// compareCompiled is CompareSchemas for the site of a compiled catalog,
// whose schemas are the registrations' (regs, made from cat): the model
// of each is in cat already, as the registry's check would make it. It
// compares every ordered pair of a type's versions up front, from the
// models, so that the site's pages neither check a schema again nor keep
// the model live while they render (the site is gen's last target, and
// the model is a third of gen's heap at the memory limit); a pair it did
// not compare is left to compare.
func compareCompiled(cat *model.Catalog, regs []api.Registration, compare catalog.CompareFunc) catalog.CompareFunc {
	type pair struct{ old, new [sha256.Size]byte }
	type typ struct { // a type's model and its registration
		t   *model.ResourceType
		reg *api.RegisteredType
	}
	var types []typ
	for i, p := range cat.Providers {
		for j, t := range p.Types {
			types = append(types, typ{t, &regs[i].Types[j]})
		}
	}
	// Each type on its own: its versions' digests (20 MB of schemas for
	// 1,000 types), then every ordered pair compared.
	found := make([]map[pair][]catalog.Change, len(types))
	par.Each(len(types), func(i int) {
		t, reg := types[i].t, types[i].reg
		sums := make([][sha256.Size]byte, len(t.APIVersions))
		for k := range t.APIVersions {
			sums[k] = sha256.Sum256(reg.APIVersions[k].Properties.Schema)
		}
		for a, old := range t.APIVersions {
			for b, new := range t.APIVersions {
				if a != b && old.Schema != nil && new.Schema != nil {
					if found[i] == nil {
						found[i] = map[pair][]catalog.Change{}
					}
					found[i][pair{sums[a], sums[b]}] = changes(compat.CompareSchemas(old.Schema, new.Schema))
				}
			}
		}
	})
	all := map[pair][]catalog.Change{}
	for _, m := range found {
		maps.Copy(all, m)
	}
	return func(oldSchema, newSchema json.RawMessage) ([]catalog.Change, error) {
		if cs, ok := all[pair{sha256.Sum256(oldSchema), sha256.Sum256(newSchema)}]; ok {
			return slices.Clone(cs), nil
		}
		return compare(oldSchema, newSchema)
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
// (schema.ImplyObjectTypes) and returns its model.
func schemaModel(what string, raw json.RawMessage, patterns *check.Patterns) (*model.Schema, error) {
	s, diags := check.Schema("schema", schema.ImplyObjectTypes(raw), patterns)
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
