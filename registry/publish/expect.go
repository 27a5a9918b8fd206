package publish

import (
	"context"
	"maps"
	"strings"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

// Expected returns the plan of p's registrations and options against the
// registry as applying p in full leaves it, without reading every schema
// back: every write of p, a plan of MakePlan, succeeded. The provider summaries are those MakePlan read, with p's
// writes applied as the registry stores them (a name keeps its stored
// casing; an API version's schema is the one sent, which the state's
// encoding compacts as the registry does); the locations, which the
// registry stamps with who wrote them when, are read again where p wrote
// one, and taken as MakePlan read them elsewhere.
//
// Nothing is taken on trust: the plan is planned against that expected
// state, and its State identifies the state as ReadState reads it. When
// ReadState later returns the same State, the registry holds exactly that
// state, whoever wrote it, and a plan of want would be this plan. When
// another writer changed the registry, or it stored a write otherwise than
// expected, ReadState returns another State.
func Expected(ctx context.Context, reg Registry, p *Plan) (*Plan, error) {
	want, opts := p.want, p.opts
	sums := make([]api.ProviderSummary, len(want))
	exists := make([]bool, len(want))
	locWritten := make([]bool, len(want))
	byNamespace := map[string]int{}
	for i, have := range p.read {
		sums[i], exists[i] = copySummary(have.Summary), have.Exists
		byNamespace[have.Namespace] = i
	}
	for _, c := range p.Changes {
		if !c.IsWrite() {
			continue
		}
		i, ok := byNamespace[c.Namespace]
		if !ok || !expectWrite(&sums[i], &exists[i], c) {
			return MakePlan(ctx, reg, want, opts) // cannot tell: read it
		}
		locWritten[i] = locWritten[i] || c.Kind == KindLocation
	}
	states, err := readNamespaces(ctx, Namespaces(want), func(i int, ns string) (namespaceState, error) {
		have := namespaceState{Namespace: ns, Exists: exists[i], Summary: sums[i]}
		if !have.Exists {
			have.Summary = api.ProviderSummary{}
			return have, nil
		}
		if !locWritten[i] {
			have.Locations = p.read[i].Locations // the summary's are copied
			return have, nil
		}
		// As readNamespace reads them; the summary lists their addresses.
		locs, err := reg.ListLocations(ctx, ns)
		if err != nil && !client.IsNotFound(err) {
			return have, err
		}
		have.Locations = locs
		have.Summary.Locations = make(map[string]api.LocationSummary, len(locs))
		for _, l := range locs {
			have.Summary.Locations[l.Name] = api.LocationSummary{Address: l.Properties.Address}
		}
		return have, nil
	})
	if err != nil {
		return nil, err
	}
	return planStates(want, states, opts), nil
}

// expectWrite applies the write c to the summary of its namespace as the
// registry stores it; false when the summary does not tell what the
// registry would store (an API version of a type it does not list).
// Locations are not in it: Expected reads them.
func expectWrite(sum *api.ProviderSummary, exists *bool, c Change) bool {
	switch {
	case c.Kind == KindProvider:
		if !*exists {
			*exists = true
			*sum = api.ProviderSummary{Name: c.Namespace, Locations: map[string]api.LocationSummary{}, ResourceTypes: map[string]api.ResourceTypeSummary{}}
		}
	case !*exists:
		return false
	case c.Kind == KindLocation:
	case c.Kind == KindType && c.Action == Delete:
		name, ok := storedName(sum.ResourceTypes, c.Type)
		if !ok {
			return false
		}
		// The registry deletes the type's children with it.
		for t := range sum.ResourceTypes {
			if typeOrChild(t, name) {
				delete(sum.ResourceTypes, t)
			}
		}
	case c.Kind == KindType:
		props := c.rtype.Properties
		name, ok := storedName(sum.ResourceTypes, c.Type)
		t := sum.ResourceTypes[name]
		if !ok {
			// A new child type keeps its parent's stored casing.
			name = c.Type
			if slash := strings.LastIndex(name, "/"); slash > 0 {
				if parent, ok := storedName(sum.ResourceTypes, name[:slash]); ok {
					name = parent + name[slash:]
				}
			}
			// Registered without an icon: answered with the default's hash,
			// as udtc serve does (registry.TypeProperties.WireIconHash).
			t = api.ResourceTypeSummary{APIVersions: map[string]api.APIVersionSummary{}, IconHash: api.DefaultIconHash}
		}
		t.DefaultAPIVersion, t.Description, t.Capabilities = props.DefaultAPIVersion, props.Description, props.Capabilities
		if props.Icon != "" {
			t.IconHash = api.IconHash(props.Icon)
		}
		sum.ResourceTypes[name] = t
	case c.Kind == KindAPIVersion:
		typ, ok := storedName(sum.ResourceTypes, c.Type)
		if !ok {
			return false
		}
		versions := sum.ResourceTypes[typ].APIVersions
		name, ok := storedName(versions, c.Version)
		if c.Action == Delete {
			if !ok {
				return false
			}
			delete(versions, name)
			break
		}
		if !ok {
			name = c.Version
		}
		versions[name] = api.APIVersionSummary{Schema: api.SchemaOrEmpty(c.version.Properties.Schema), Lifecycle: c.version.Properties.Lifecycle}
	default:
		return false
	}
	return true
}

// storedName returns the key of m equal to name but for case.
func storedName[V any](m map[string]V, name string) (string, bool) {
	if _, ok := m[name]; ok {
		return name, true
	}
	for k := range m {
		if strings.EqualFold(k, name) {
			return k, true
		}
	}
	return "", false
}

// copySummary returns a copy of s that shares no map with it.
func copySummary(s api.ProviderSummary) api.ProviderSummary {
	out := s
	out.Locations = maps.Clone(s.Locations)
	out.ResourceTypes = make(map[string]api.ResourceTypeSummary, len(s.ResourceTypes))
	for name, t := range s.ResourceTypes {
		t.APIVersions = maps.Clone(t.APIVersions)
		if t.APIVersions == nil {
			t.APIVersions = map[string]api.APIVersionSummary{}
		}
		out.ResourceTypes[name] = t
	}
	return out
}

// AfterApply returns the plan of p's registrations and options against the
// registry as applying p in full left it: Expected when that plans no
// writes, else a new MakePlan, which reads every schema (the registry
// stored a write otherwise than expected, or another writer changed it).
func AfterApply(ctx context.Context, reg Registry, p *Plan) (*Plan, error) {
	after, err := Expected(ctx, reg, p)
	if err == nil && after.Writes() != 0 {
		after, err = MakePlan(ctx, reg, p.want, p.opts)
	}
	return after, err
}
