// Package publish makes a registry hold a desired set of registrations: it
// reads what the registry has, plans the creates, updates and (with Prune)
// deletes that close the gap, and applies them in dependency order. Nothing
// unchanged is written, so publishing the same registrations twice performs
// zero writes, and an interrupted publish converges when run again.
package publish

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"maps"
	"slices"
	"strings"

	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

// Reader is what planning reads of a registry: each namespace's provider
// summary and locations; a namespace or location list that does not exist
// is an error client.IsNotFound reports; and, for a plan that deletes, the
// resources the deletes meet (client.Client.ResourceCounts: types names
// those a UCP must count). *client.Client has it.
type Reader interface {
	ProviderSummary(ctx context.Context, namespace string) (api.ProviderSummary, error)
	ListLocations(ctx context.Context, namespace string) ([]api.Location, error)
	ResourceCounts(ctx context.Context, namespace string, types []string) ([]api.ResourceCount, error)
}

// Registry is what publish needs of a registry to apply a plan too;
// *client.Client has it.
type Registry interface {
	Reader
	PutProvider(ctx context.Context, namespace string, body api.ResourceProvider, conds ...client.Condition) (api.ResourceProvider, error)
	PutResourceType(ctx context.Context, namespace, typ string, body api.ResourceType, conds ...client.Condition) (api.ResourceType, error)
	PutAPIVersion(ctx context.Context, namespace, typ, version string, body api.APIVersion, conds ...client.Condition) (api.APIVersion, error)
	PutLocation(ctx context.Context, namespace, location string, body api.Location, conds ...client.Condition) (api.Location, error)
	DeleteResourceType(ctx context.Context, namespace, typ string, conds ...client.Condition) (bool, error)
	DeleteAPIVersion(ctx context.Context, namespace, typ, version string, conds ...client.Condition) (bool, error)
	DeleteLocation(ctx context.Context, namespace, location string, conds ...client.Condition) (bool, error)
	DeleteProvider(ctx context.Context, namespace string, conds ...client.Condition) (bool, error)
	// The deletes of Options.DeleteResources: with the resources they meet.
	ForceDeleteProvider(ctx context.Context, namespace string) (bool, error)
	ForceDeleteResourceType(ctx context.Context, namespace, typ string) (bool, error)
	ForceDeleteAPIVersion(ctx context.Context, namespace, typ, version string) (bool, error)
}

// Action is what a plan does to one resource.
type Action string

// Actions, in the order a plan lists them.
const (
	Create    Action = "create"
	Update    Action = "update"
	Unchanged Action = "unchanged"
	Delete    Action = "delete"
)

// Kind names the registry resource a change is about (api.Kind; in JSON
// and text output its Ident: "resourceProvider", "resourceType", ...).
type Kind = api.Kind

// Kinds, in dependency order.
const (
	KindProvider   = api.KindProvider
	KindType       = api.KindResourceType
	KindAPIVersion = api.KindAPIVersion
	KindLocation   = api.KindLocation
)

// FieldDiff is one changed field of an update, with both values: Field is
// a field name ("description"), a property path into the schema
// ("size.enum", "databases[].name", "required"; see SchemaPath) or
// "resourceTypes.<type>" for the API versions a location serves; Old and
// New are the values as Value renders them, "" where the field is absent.
type FieldDiff struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// Change is one planned operation.
type Change struct {
	Action    Action      `json:"action"`
	Kind      Kind        `json:"kind"`
	Namespace string      `json:"namespace"`
	Type      string      `json:"type,omitempty"`
	Version   string      `json:"apiVersion,omitempty"`
	Location  string      `json:"location,omitempty"`
	Diff      []FieldDiff `json:"diff,omitempty"`
	// Resources is how many resources a delete of a provider, type or API
	// version meets (see countResources); ResourcesUnknown is set instead
	// when the registry could not tell.
	Resources        int  `json:"resources,omitempty"`
	ResourcesUnknown bool `json:"resourcesUnknown,omitempty"`
	// Refused says why the registry will refuse the change, "" when it
	// will not: a delete that meets resources, or may, without
	// Options.DeleteResources. A plan with a refusal must not be applied.
	Refused string `json:"refused,omitempty"`

	// force: the delete deletes the resources it meets too.
	force    bool
	provider *api.ResourceProvider
	rtype    *api.ResourceType
	version  *api.APIVersion
	location *api.Location
	// had is the location a location's update or delete changes, as read.
	had *api.Location
}

// Name identifies the resource: "Ns", "Ns/type", "Ns/type@version" or
// "Ns (location name)".
func (c Change) Name() string {
	switch c.Kind {
	case KindType:
		return c.Namespace + "/" + c.Type
	case KindAPIVersion:
		return c.Namespace + "/" + c.Type + "@" + c.Version
	case KindLocation:
		return c.Namespace + " location " + c.Location
	}
	return c.Namespace
}

// IsWrite reports whether applying the change writes to the registry.
func (c Change) IsWrite() bool { return c.Action != Unchanged }

// Plan is the list of changes, in the order they are applied.
type Plan struct {
	Changes []Change `json:"changes"`
	// State identifies what MakePlan read of the registry (ReadState):
	// the plan is a function of the registrations and of it.
	State string `json:"-"`

	// read is what MakePlan read, one per registration of want, planned
	// with opts (Expected).
	read []readState
	want []api.Registration
	opts Options
}

// Count returns how many changes have the action.
func (p *Plan) Count(a Action) int {
	n := 0
	for _, c := range p.Changes {
		if c.Action == a {
			n++
		}
	}
	return n
}

// Writes returns the number of changes that write.
func (p *Plan) Writes() int { return len(p.Changes) - p.Count(Unchanged) }

// Options tune planning.
type Options struct {
	// Prune deletes the types, API versions and locations of the published
	// namespaces that the registrations no longer declare. Namespaces that
	// are not published are never touched.
	Prune bool
	// DeleteResources lets a delete meet resources: they are deleted with
	// the type (provider, API version). Without it, such a delete is
	// planned Refused.
	DeleteResources bool
}

// MakePlan reads the registry's state of every namespace in want and plans
// the changes that make it match.
func MakePlan(ctx context.Context, reg Reader, want []api.Registration, opts Options) (*Plan, error) {
	states, err := readNamespaces(ctx, Namespaces(want), func(_ int, ns string) (namespaceState, error) {
		return readNamespace(ctx, reg, ns)
	})
	if err != nil {
		return nil, err
	}
	p := planStates(want, states, opts)
	if err := p.countResources(ctx, reg); err != nil {
		return nil, err
	}
	return p, nil
}

// planStates plans want against states, the state of each of its
// namespaces.
func planStates(want []api.Registration, states []readState, opts Options) *Plan {
	p := &Plan{read: states, want: want, opts: opts}
	st := newStateHash()
	for i, w := range want {
		st.add(states[i])
		planNamespace(states[i].namespaceState, w, opts, p)
	}
	slices.SortStableFunc(p.Changes, func(a, b Change) int { return cmp.Compare(phase(a), phase(b)) })
	p.State = st.sum()
	return p
}

// Namespaces returns the namespaces of want, in order: what ReadState
// needs to read the state a plan of want read.
func Namespaces(want []api.Registration) []string {
	out := make([]string, len(want))
	for i, w := range want {
		out[i] = w.Namespace
	}
	return out
}

// ReadState reads what MakePlan reads of the registry for the namespaces
// (the provider summary and the locations of each) and returns the same
// identification as Plan.State, without planning: equal values mean a
// plan of the same registrations would be the same plan.
func ReadState(ctx context.Context, reg Reader, namespaces []string) (string, error) {
	st := newStateHash()
	states, err := readNamespaces(ctx, namespaces, func(_ int, ns string) (namespaceState, error) {
		return readNamespace(ctx, reg, ns)
	})
	if err != nil {
		return "", err
	}
	for _, have := range states {
		st.add(have)
	}
	return st.sum(), nil
}

// readConcurrency bounds the namespaces read at a time.
const readConcurrency = 4

// readState is a namespace's state and its encoding for the state hash.
type readState struct {
	namespaceState
	encoded []byte
}

// readNamespaces reads with read (and encodes for the state hash) the
// state of each namespace, readConcurrency at a time; the error is the
// first, in order, of the namespaces that failed.
func readNamespaces(ctx context.Context, namespaces []string, read func(i int, ns string) (namespaceState, error)) ([]readState, error) {
	states := make([]readState, len(namespaces))
	errs := make([]error, len(namespaces))
	par.EachOn(readConcurrency, len(namespaces), func(i int) {
		ns := namespaces[i]
		have, err := read(i, ns)
		if err != nil {
			errs[i] = fmt.Errorf("reading %s from the registry: %w", ns, err)
			return
		}
		b, err := json.Marshal(have)
		if err != nil {
			errs[i] = fmt.Errorf("encoding the registry's state of %s: %w", ns, err)
			return
		}
		states[i] = readState{have, b}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return states, nil
}

// namespaceState is what the registry holds of one namespace.
type namespaceState struct {
	Namespace string              `json:"namespace"`
	Exists    bool                `json:"exists"`
	Summary   api.ProviderSummary `json:"summary"`
	Locations []api.Location      `json:"locations"`
}

func readNamespace(ctx context.Context, reg Reader, ns string) (namespaceState, error) {
	have := namespaceState{Namespace: ns}
	var err error
	have.Summary, err = reg.ProviderSummary(ctx, ns)
	have.Exists = err == nil
	if err != nil && !client.IsNotFound(err) {
		return have, err
	}
	if have.Exists {
		if have.Locations, err = reg.ListLocations(ctx, ns); err != nil && !client.IsNotFound(err) {
			return have, err
		}
	}
	return have, nil
}

// stateHash is a SHA-256 over the JSON of namespaceStates (encoding/json
// sorts map keys: the same state always gives the same bytes).
type stateHash struct{ h hash.Hash }

func newStateHash() stateHash { return stateHash{sha256.New()} }

func (s stateHash) add(ns readState) {
	s.h.Write(ns.encoded)
	s.h.Write([]byte{'\n'})
}

func (s stateHash) sum() string { return hex.EncodeToString(s.h.Sum(nil)) }

// phase orders changes: provider, types (parents first), API versions,
// then the deletes of API versions and types (deepest first), the
// locations, the deletes of locations, and last a provider's delete.
// Locations are written after the deletes, so that no failure leaves a
// registered type unusable: a location stops serving a type or version
// only once its delete succeeded (Apply keeps in the location's write
// what a failed delete left registered), and is deleted only when the
// deletes of what it served did.
func phase(c Change) int {
	depth := strings.Count(c.Type, "/")
	if c.Action == Delete {
		switch c.Kind {
		case KindAPIVersion:
			return 100
		case KindType:
			return 200 - depth
		case KindLocation:
			return 300
		default:
			return 400
		}
	}
	switch c.Kind {
	case KindProvider:
		return 0
	case KindType:
		return 10 + depth
	case KindAPIVersion:
		return 50
	}
	return 250
}

// planNamespace adds to p the changes that make the namespace's state
// match w: its provider, types, API versions and locations.
func planNamespace(state namespaceState, w api.Registration, opts Options, p *Plan) {
	ns := w.Namespace
	add := func(c Change) { c.Namespace = ns; p.Changes = append(p.Changes, c) }
	prov := w.Provider
	if state.Exists {
		add(Change{Action: Unchanged, Kind: KindProvider, provider: &prov})
	} else {
		add(Change{Action: Create, Kind: KindProvider, provider: &prov})
	}
	planTypes(state.Summary, w.Types, opts, add)
	planLocations(state.Summary, state.Locations, w.Locations, opts, add)
	// Deterministic order within each namespace before the phase sort.
	sortChanges(p.Changes)
}

// byFold indexes m by lower-cased key: the value and the key as m spells it.
func byFold[V any](m map[string]V) (values map[string]V, names map[string]string) {
	values, names = make(map[string]V, len(m)), make(map[string]string, len(m))
	for name, v := range m {
		values[strings.ToLower(name)] = v
		names[strings.ToLower(name)] = name
	}
	return values, names
}

// planTypes plans the resource types of a namespace (have) to match want,
// and their API versions; with Prune it deletes those want lacks.
func planTypes(have api.ProviderSummary, want []api.RegisteredType, opts Options, add func(Change)) {
	haveTypes, haveTypeNames := byFold(have.ResourceTypes)
	wantTypes := map[string]bool{}
	for _, rt := range want {
		t := rt.Type
		name := t.Name
		key := strings.ToLower(name)
		wantTypes[key] = true
		ht, ok := haveTypes[key]
		if !ok {
			add(Change{Action: Create, Kind: KindType, Type: name, rtype: &t})
		} else {
			diff := typeDiff(ht, t.Properties)
			if t.Properties.Icon == "" {
				// Manifests declare no icons: an update keeps the one the
				// type has (rad resource-type create --icon).
				t.Properties.Icon = ht.Icon
			}
			add(Change{Action: updateIf(diff), Kind: KindType, Type: name, Diff: diff, rtype: &t})
		}
		wantVersions := planVersions(ht, name, rt.APIVersions, add)
		if opts.Prune && ok {
			_, haveVersionNames := byFold(ht.APIVersions)
			for vkey, v := range haveVersionNames {
				if !wantVersions[vkey] {
					add(Change{Action: Delete, Kind: KindAPIVersion, Type: haveTypeNames[key], Version: v})
				}
			}
		}
	}
	if opts.Prune {
		for key, name := range haveTypeNames {
			if !wantTypes[key] {
				add(Change{Action: Delete, Kind: KindType, Type: name})
			}
		}
	}
}

// planVersions plans the API versions of the type name (have) to match
// want; it returns the lower-cased names of want.
func planVersions(have api.ResourceTypeSummary, name string, want []api.APIVersion, add func(Change)) (wanted map[string]bool) {
	haveVersions, _ := byFold(have.APIVersions)
	wanted = map[string]bool{}
	for _, v := range want {
		wanted[strings.ToLower(v.Name)] = true
		hv, ok := haveVersions[strings.ToLower(v.Name)]
		if !ok {
			add(Change{Action: Create, Kind: KindAPIVersion, Type: name, Version: v.Name, version: &v})
			continue
		}
		// As the registry stores it: a null schema is {}.
		diff := schemaDiff(hv.Schema, api.SchemaOrEmpty(v.Properties.Schema))
		diff = append(diff, lifecycleDiff(hv.Lifecycle, v.Properties.Lifecycle)...)
		add(Change{Action: updateIf(diff), Kind: KindAPIVersion, Type: name, Version: v.Name, Diff: diff, version: &v})
	}
	return wanted
}

// planLocations plans the locations of a namespace (haveLocs; have lists
// its types) to match want; with Prune it deletes those want lacks.
func planLocations(have api.ProviderSummary, haveLocs []api.Location, want []api.Location, opts Options, add func(Change)) {
	haveLoc := map[string]api.Location{}
	for _, l := range haveLocs {
		haveLoc[strings.ToLower(l.Name)] = l
	}
	wantLoc := map[string]bool{}
	for _, l := range want {
		key := strings.ToLower(l.Name)
		wantLoc[key] = true
		hl, ok := haveLoc[key]
		if !ok {
			add(Change{Action: Create, Kind: KindLocation, Location: l.Name, location: &l})
			continue
		}
		if !opts.Prune {
			l.Properties.ResourceTypes = keepServed(l.Properties.ResourceTypes, hl.Properties.ResourceTypes, have.ResourceTypes)
		}
		diff := locationDiff(hl.Properties, l.Properties)
		add(Change{Action: updateIf(diff), Kind: KindLocation, Location: l.Name, Diff: diff, location: &l, had: &hl})
	}
	if opts.Prune {
		for key, l := range haveLoc {
			if !wantLoc[key] {
				add(Change{Action: Delete, Kind: KindLocation, Location: l.Name, had: &l})
			}
		}
	}
}

// updateIf is the action of a change with diff: Update when it has one.
func updateIf(diff []FieldDiff) Action {
	if len(diff) > 0 {
		return Update
	}
	return Unchanged
}

// keepServed returns what a location serves after a publish without prune:
// the published types and versions (want) plus those the location already
// serves (have) that are still registered in the namespace (registered), so
// publishing part of a namespace never unregisters the rest. Only prune
// makes a location lose a type or version.
func keepServed(want, have map[string]api.LocationResourceType, registered map[string]api.ResourceTypeSummary) map[string]api.LocationResourceType {
	out := make(map[string]api.LocationResourceType, len(want)+len(have))
	byKey := map[string]string{} // lower-cased name → name in out
	for name, lt := range want {
		vs := make(map[string]api.LocationAPIVersion, len(lt.APIVersions))
		maps.Copy(vs, lt.APIVersions)
		lt.APIVersions = vs
		out[name] = lt
		byKey[strings.ToLower(name)] = name
	}
	regVersions := map[string]map[string]bool{}
	for name, t := range registered {
		vs := map[string]bool{}
		for v := range t.APIVersions {
			vs[strings.ToLower(v)] = true
		}
		regVersions[strings.ToLower(name)] = vs
	}
	for _, name := range slices.Sorted(maps.Keys(have)) {
		hlt := have[name]
		key := strings.ToLower(name)
		for _, v := range slices.Sorted(maps.Keys(hlt.APIVersions)) {
			if !regVersions[key][strings.ToLower(v)] {
				continue // no longer registered: nothing to keep
			}
			target, ok := byKey[key]
			if !ok {
				target = name
				byKey[key] = name
				out[name] = api.LocationResourceType{Address: hlt.Address, APIVersions: map[string]api.LocationAPIVersion{}}
			}
			lt := out[target]
			if lt.APIVersions == nil {
				lt.APIVersions = map[string]api.LocationAPIVersion{}
				out[target] = lt
			}
			if !hasFold(lt.APIVersions, v) {
				lt.APIVersions[v] = hlt.APIVersions[v]
			}
		}
	}
	return out
}

// hasFold reports whether m has key k, ignoring case.
func hasFold[V any](m map[string]V, k string) bool {
	for key := range m {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

func sortChanges(cs []Change) {
	slices.SortStableFunc(cs, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Type, b.Type),
			cmp.Compare(a.Version, b.Version), cmp.Compare(a.Location, b.Location))
	})
}
