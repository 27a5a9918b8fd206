package bridge

import (
	"fmt"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/schema/example"
)

// GoProperties returns the catalog's Go literals of example properties
// for `udtc serve` (registry/catalog.GoPropertiesFunc): the registered
// schemas of the namespace's types at the version, checked as at PUT, named
// by the Go client's planner as `udtc gen --target go` names them
// (goclient.PropertiesLiteral). Compiled patterns are kept in patterns; it
// is safe for concurrent use.
func GoProperties(patterns *check.Patterns) catalog.GoPropertiesFunc {
	return func(ns *catalog.Namespace, t *catalog.Type, version, pkg string, props example.Value) (catalog.GoLiteral, error) {
		prov := &model.Provider{Namespace: ns.Name}
		for _, o := range ns.Types {
			rt := &model.ResourceType{Name: o.Name, Parent: o.Parent, Namespace: ns.Name}
			if raw := o.Schema(version); raw != nil {
				s, err := schemaModel("the schema of "+o.FullName+"@"+version, raw, patterns)
				if err != nil {
					return catalog.GoLiteral{}, err
				}
				rt.APIVersions = []*model.APIVersion{{Name: version, Schema: s}}
			}
			prov.Types = append(prov.Types, rt)
		}
		lit, err := goclient.PropertiesLiteral(&model.Catalog{Providers: []*model.Provider{prov}}, ns.Name, t.Name, version, pkg, props)
		return catalog.GoLiteral(lit), err
	}
}

// goPropertiesCompiled is GoProperties for the site of a compiled catalog:
// the literals of every type and version, written from the model up front
// (goclient.ExampleLiterals), so that the pages neither check a schema
// again nor keep the model live while they render (see compareCompiled);
// lits, when not nil, are those the Go client's run wrote already
// (goclient.Options.Literals). A literal it did not write is an error:
// the snippet decodes JSON.
func goPropertiesCompiled(cat *model.Catalog, lits map[string]goclient.Literal) (catalog.GoPropertiesFunc, error) {
	if lits == nil {
		var err error
		if lits, err = goclient.ExampleLiterals(cat); err != nil {
			return nil, err
		}
	}
	return func(ns *catalog.Namespace, t *catalog.Type, version, pkg string, props example.Value) (catalog.GoLiteral, error) {
		lit, ok := lits[t.FullName+"@"+version]
		if !ok || pkg != naming.GoVersionPackage(version) {
			return catalog.GoLiteral{}, fmt.Errorf("no Go literal of %s@%s", t.FullName, version)
		}
		return catalog.GoLiteral(lit), nil
	}, nil
}
