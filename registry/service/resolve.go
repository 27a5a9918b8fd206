package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// TypeRef names the registered type and API version a resource request
// is made with (its path's namespace and type, its ?api-version).
type TypeRef struct {
	Plane, Namespace string
	Type             string // "contosoBuses/queues"
	APIVersion       string
}

// Type is a resolved registration: the API version row of the type (its
// schema compiled by the schema cache) and the locations that serve it,
// with their addresses.
type Type struct {
	ver  registry.Resource
	locs []servingLocation
	// lifecycle is the API version's, nil for none.
	lifecycle *api.Lifecycle
}

// Lifecycle returns the registered lifecycle of the API version, nil when
// it has none.
func (t *Type) Lifecycle() *api.Lifecycle { return t.lifecycle }

// Notice is the lifecycle's sentence for this type and API version
// (api.Lifecycle.Notice), "" without a lifecycle.
func (t *Type) Notice() string {
	if t.lifecycle == nil {
		return ""
	}
	return t.lifecycle.Notice(t.ver.ID.Provider+"/"+t.ver.ID.Type, t.ver.ID.Name)
}

// LifecycleHeaders are the headers announcing the lifecycle
// (api.Lifecycle.Headers), nil without one.
func (t *Type) LifecycleHeaders() map[string]string {
	if t.lifecycle == nil {
		return nil
	}
	return t.lifecycle.Headers(t.ver.ID.Provider+"/"+t.ver.ID.Type, t.ver.ID.Name)
}

type servingLocation struct{ name, address string }

// Address is where the requests without a body location (GET, DELETE,
// LIST, listSecrets) of the type go: the address of the location
// registry.DefaultLocation when it serves the type, else of the first
// location by name that does; "" when that location has no address (or
// none serves the type): the registry serves the request.
func (t *Type) Address() string {
	if len(t.locs) == 0 {
		return ""
	}
	for _, l := range t.locs {
		if strings.EqualFold(l.name, registry.DefaultLocation) {
			return l.address
		}
	}
	return t.locs[0].address
}

// Resolve returns the registration of ref, from the type cache when
// nothing was written since at (Generation, read before): a resource
// request at an unchanged generation reads no registration rows. The
// errors name what is missing and what is registered: CodeNamespaceNotFound,
// CodeTypeNotFound, CodeAPIVersionNotFound.
func (s *Service) Resolve(ctx context.Context, at At, ref TypeRef) (*Type, error) {
	key := strings.ToLower(ref.Plane + "\x00" + ref.Namespace + "\x00" + ref.Type + "\x00" + ref.APIVersion)
	if at.OK {
		if t, ok := s.types.lookup(at.Gen, key); ok {
			return t, nil
		}
	}
	ver, err := s.resolveType(ctx, ref)
	if err != nil {
		return nil, err
	}
	locs, err := s.servingLocations(ctx, ver.ID)
	if err != nil {
		return nil, err
	}
	t := &Type{ver: ver, locs: locs}
	if _, plain := registry.StoredSchema(ver.Properties); !plain {
		var p registry.APIVersionProperties
		if err := json.Unmarshal(ver.Properties, &p); err != nil {
			return nil, fmt.Errorf("stored properties of %s: %w", ver.ID, err)
		}
		t.lifecycle = p.Lifecycle
	}
	if at.OK {
		s.types.store(at.Gen, key, t)
	}
	return t, nil
}

// resolveType returns the registered API version of ref (one store
// lookup), or an error naming what is missing and what is registered.
func (s *Service) resolveType(ctx context.Context, ref TypeRef) (registry.Resource, error) {
	plane, ns, typ := ref.Plane, ref.Namespace, ref.Type
	row, err := s.store.Get(ctx, registry.APIVersionID(plane, ns, typ, ref.APIVersion))
	if err == nil || !errors.Is(err, registry.ErrNotFound) {
		return row, err
	}
	if _, err := s.store.Get(ctx, registry.PlaneID(plane)); err != nil {
		return row, err
	}
	missing := []struct {
		id     registry.ID
		code   registry.Code
		target string
		what   func(names string) string
	}{
		{registry.ProviderID(plane, ns), registry.CodeNamespaceNotFound, "namespace", func(names string) string {
			return fmt.Sprintf("resource provider namespace %q is not registered in plane %q; registered: %s", ns, plane, names)
		}},
		{registry.TypeID(plane, ns, typ), registry.CodeTypeNotFound, "type", func(names string) string {
			return fmt.Sprintf("resource type %q is not registered in namespace %s; registered: %s", typ, ns, names)
		}},
	}
	for _, m := range missing {
		_, err := s.store.Get(ctx, m.id)
		if err == nil {
			continue
		}
		if !errors.Is(err, registry.ErrNotFound) {
			return row, err
		}
		parent, _ := m.id.Parent()
		names, err := s.childNames(ctx, parent, m.id.Kind)
		if err != nil {
			return row, err
		}
		return row, &registry.Error{Code: m.code, Target: m.target, Message: m.what(names)}
	}
	names, err := s.childNames(ctx, registry.TypeID(plane, ns, typ), api.KindAPIVersion)
	if err != nil {
		return row, err
	}
	return row, registry.Errorf(registry.CodeAPIVersionNotFound, "api-version",
		"API version %q of %s/%s is not registered; registered: %s", ref.APIVersion, ns, typ, names)
}

// childNames lists the names of the first page of children of kind under
// parent, for messages.
func (s *Service) childNames(ctx context.Context, parent registry.ID, kind registry.Kind) (string, error) {
	page, err := s.store.List(ctx, parent, kind, registry.ListOptions{})
	if err != nil {
		return "", err
	}
	var names []string
	for _, res := range page.Items {
		names = append(names, res.ID.Leaf())
	}
	return nameList(names, page.Next != ""), nil
}

func nameList(names []string, more bool) string {
	if len(names) == 0 {
		return "none"
	}
	s := strings.Join(names, ", ")
	if more {
		s += ", ..."
	}
	return s
}

// checkLocation returns the registered spelling of the resource's location
// (registry.DefaultLocation when requested is "") and the address requests
// for the type go to there ("" when the registry stores them itself),
// among locs, the locations serving verID (servingLocations). The location
// must register the type and API version of verID, else
// CodeLocationNotRegistered naming the locations that do.
func checkLocation(verID registry.ID, locs []servingLocation, requested string) (name, address string, err error) {
	if requested == "" {
		requested = registry.DefaultLocation
	}
	var serving []string
	for _, l := range locs {
		if strings.EqualFold(l.name, requested) {
			return l.name, l.address, nil
		}
		serving = append(serving, l.name)
	}
	return "", "", registry.Errorf(registry.CodeLocationNotRegistered, "location",
		"location %q is not registered for %s/%s API version %s; registered: %s",
		requested, verID.Provider, verID.Type, verID.Name, nameList(serving, false))
}

// servingLocations returns the locations of verID's provider that
// register its type and API version, ordered by name, each with the
// address the type's requests go to there (the type's own address, else
// the location's; "" for none).
func (s *Service) servingLocations(ctx context.Context, verID registry.ID) ([]servingLocation, error) {
	var out []servingLocation
	err := s.eachLocation(ctx, verID.Plane, verID.Provider, verID.Type, func(name string, lp registry.LocationProperties, lt registry.LocationType) {
		if _, ok := lookupFold(lt.APIVersions, verID.Name); !ok {
			return
		}
		address := lp.Address
		if lt.Address != "" {
			address = lt.Address
		}
		out = append(out, servingLocation{name, address})
	})
	slices.SortFunc(out, func(a, b servingLocation) int {
		return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	})
	return out, err
}

// eachLocation calls f for each location of namespace ns (the first
// registry.MaxPageSize) that registers type typ, with its properties and
// the type's entry.
func (s *Service) eachLocation(ctx context.Context, plane, ns, typ string, f func(name string, lp registry.LocationProperties, lt registry.LocationType)) error {
	page, err := s.store.List(ctx, registry.ProviderID(plane, ns), api.KindLocation, registry.ListOptions{Top: registry.MaxPageSize})
	if err != nil {
		return err
	}
	for _, res := range page.Items {
		var lp registry.LocationProperties
		if err := json.Unmarshal(res.Properties, &lp); err != nil {
			return fmt.Errorf("stored properties of %s: %w", res.ID, err)
		}
		if lt, ok := lookupFold(lp.ResourceTypes, typ); ok {
			f(res.ID.Name, lp, lt)
		}
	}
	return nil
}

func lookupFold[V any](m map[string]V, key string) (V, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	var zero V
	return zero, false
}

// maxCachedTypes bounds the type cache; past it, entries are not cached.
const maxCachedTypes = 4096

// typeCache holds the resolved Type of each requested type and API
// version for one store generation (with the soundness of At: the
// generation is read before the registration rows, so a registration
// written in between, by this process or another sharing the database,
// changes the generation and the entry is never used).
type typeCache struct {
	mu      sync.RWMutex
	at      string
	entries map[string]*Type
}

func (c *typeCache) lookup(gen, key string) (*Type, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.at != gen {
		return nil, false
	}
	t, ok := c.entries[key]
	return t, ok
}

func (c *typeCache) store(gen, key string, t *Type) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != gen || c.entries == nil {
		c.at, c.entries = gen, map[string]*Type{}
	}
	if len(c.entries) < maxCachedTypes {
		c.entries[key] = t
	}
}
