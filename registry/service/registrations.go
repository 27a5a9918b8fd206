package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// The registrations: planes, providers, resource types, API versions and
// locations.

// Get returns the registration id; ErrNotFound when it does not exist.
func (s *Service) Get(ctx context.Context, id registry.ID) (registry.Resource, error) {
	return s.store.Get(ctx, id)
}

// List returns a page of the registrations of kind under parent (see
// registry.Store.List).
func (s *Service) List(ctx context.Context, parent registry.ID, kind registry.Kind, opts registry.ListOptions) (registry.Page, error) {
	return s.store.List(ctx, parent, kind, opts)
}

// Summaries returns the summaries of the providers of plane, or of the one
// provider namespace when it is not "" (see registry.Store.Summaries).
func (s *Service) Summaries(ctx context.Context, plane, namespace string) ([]registry.ProviderSummary, error) {
	return s.store.Summaries(ctx, plane, namespace)
}

// RegistrationWrite is a PUT of a registration.
type RegistrationWrite struct {
	// ID is the registration written; the caller has validated it.
	ID   registry.ID
	Body Envelope
	If   registry.Precondition
	// Actor is the caller's identity, "" when unknown.
	Actor string
}

// PutRegistration checks the body of w for its kind (an API version's
// schema with CheckSchema) and stores it. It returns the stored resource
// and whether it was created.
func (s *Service) PutRegistration(ctx context.Context, w RegistrationWrite) (registry.Resource, bool, error) {
	res, err := s.registration(ctx, w.ID, w.Body)
	if err != nil {
		return registry.Resource{}, false, err
	}
	return s.store.Put(ctx, registry.Write{Resource: res, If: w.If, Now: s.stamp(), Actor: w.Actor})
}

// DeleteRegistration deletes the registration id and everything under it
// in one transaction. Without force, a registration whose types still have
// resources is not deleted (*registry.InUseError); with it, they are
// deleted with it.
func (s *Service) DeleteRegistration(ctx context.Context, id registry.ID, cond registry.Precondition, force bool) (bool, error) {
	deleted, _, err := s.store.DeleteRegistration(ctx, id, cond, force)
	return deleted, err
}

// ResourceCounts returns how many resources of each type of the provider
// namespace of plane were last written with each API version: what an
// unforced DeleteRegistration counts before it refuses. It returns an
// error wrapping registry.ErrNotFound when the provider does not exist.
func (s *Service) ResourceCounts(ctx context.Context, plane, namespace string) ([]api.ResourceCount, error) {
	if _, err := s.store.Get(ctx, registry.ProviderID(plane, namespace)); err != nil {
		return nil, err
	}
	counts, err := s.store.CountInstances(ctx, plane, namespace)
	if err != nil {
		return nil, err
	}
	out := make([]api.ResourceCount, len(counts))
	for i, c := range counts {
		out[i] = api.ResourceCount{ResourceType: c.Type, APIVersion: c.APIVersion, Count: c.Count}
	}
	return out, nil
}

// SyncWrite is one write of ApplyRegistrations: a PUT of Body (the wire
// body a client would send: api.ResourceProvider, api.ResourceType,
// api.APIVersion or api.Location) to ID, or a DELETE of ID when Body is
// nil.
type SyncWrite struct {
	ID   registry.ID
	Body any
}

// ApplyRegistrations performs writes of registrations (providers, types,
// API versions, locations) in order, in one transaction of the store: all
// or none. Each body is checked as the body of a PUT is (schemas
// included); a DELETE does not force (resources still using a type make
// the whole batch fail, as the 409 of a DELETE would). The writes carry
// actor as their author. It returns an error wrapping errors.ErrUnsupported
// when the store does not implement registry.Batcher. It is how the git
// sync writes a namespace.
func (s *Service) ApplyRegistrations(ctx context.Context, actor string, writes []SyncWrite) error {
	b, ok := s.store.(registry.Batcher)
	if !ok {
		return fmt.Errorf("the store cannot apply writes in one transaction: %w", errors.ErrUnsupported)
	}
	ops, err := s.syncOps(ctx, actor, writes)
	if err != nil {
		return err
	}
	return b.ApplyBatch(ctx, ops)
}

// syncOps checks the writes of ApplyRegistrations and returns them as the
// store's batch.
func (s *Service) syncOps(ctx context.Context, actor string, writes []SyncWrite) ([]registry.BatchOp, error) {
	now := s.stamp()
	ops := make([]registry.BatchOp, len(writes))
	for i, w := range writes {
		if err := w.ID.Validate(); err != nil {
			return nil, err
		}
		if w.Body == nil {
			ops[i] = registry.BatchOp{Delete: w.ID}
			continue
		}
		res, err := s.syncRegistration(ctx, w)
		if err != nil {
			return nil, fmt.Errorf("PUT %s: %w", w.ID, withDetails(err))
		}
		ops[i] = registry.BatchOp{Put: &registry.Write{Resource: res, Now: now, Actor: actor}}
	}
	return ops, nil
}

// syncRegistration checks the body of a PUT of ApplyRegistrations.
func (s *Service) syncRegistration(ctx context.Context, w SyncWrite) (registry.Resource, error) {
	body, err := json.Marshal(w.Body)
	if err != nil {
		return registry.Resource{}, err
	}
	env, err := DecodeEnvelope(body)
	if err != nil {
		return registry.Resource{}, err
	}
	return s.registration(ctx, w.ID, env)
}

// withDetails adds the details of a *registry.Error (the violations of a
// schema) to its message.
func withDetails(err error) error {
	var e *registry.Error
	if !errors.As(err, &e) || len(e.Details) == 0 {
		return err
	}
	msgs := make([]string, len(e.Details))
	for i, d := range e.Details {
		msgs[i] = d.Message
		if d.Target != "" {
			msgs[i] = d.Target + ": " + d.Message
		}
	}
	return fmt.Errorf("%w: %s", err, strings.Join(msgs, "; "))
}

// ProviderSummary returns the wire summary of one provider of plane:
// what GET /planes/radius/{plane}/providers/{namespace} answers. It returns
// an error wrapping registry.ErrNotFound when the provider does not exist.
func (s *Service) ProviderSummary(ctx context.Context, plane, namespace string) (api.ProviderSummary, error) {
	sums, err := s.store.Summaries(ctx, plane, namespace)
	if err != nil {
		return api.ProviderSummary{}, err
	}
	return sums[0].Wire(), nil
}

// Icon returns the icon of the resource type id and its hash: the default
// icon for a type registered without one (api.DefaultIcon). It returns an
// error of registry.CodeNotFound when the type does not exist, and a failure of the registry when the stored icon is not the one
// its hash names.
func (s *Service) Icon(ctx context.Context, id registry.ID) (icon, hash string, err error) {
	res, err := s.store.Get(ctx, id)
	if err != nil {
		return "", "", err
	}
	var p registry.TypeProperties
	if err := json.Unmarshal(res.Properties, &p); err != nil {
		return "", "", fmt.Errorf("stored properties of %s: %w", id, err)
	}
	switch {
	case p.Icon == "":
		return api.DefaultIcon, api.DefaultIconHash, nil
	case api.IconHash(p.Icon) != p.IconHash:
		return "", "", fmt.Errorf("the stored icon of %s does not match its hash %s", id, p.IconHash)
	}
	return p.Icon, p.IconHash, nil
}

// Locations returns the wire bodies of the locations of provider
// namespace of plane, every page of them.
func (s *Service) Locations(ctx context.Context, plane, namespace string) ([]api.Location, error) {
	var out []api.Location
	opts := registry.ListOptions{Top: registry.MaxPageSize}
	for {
		page, err := s.store.List(ctx, registry.ProviderID(plane, namespace), api.KindLocation, opts)
		if err != nil {
			return nil, err
		}
		for _, res := range page.Items {
			l, err := res.WireLocation()
			if err != nil {
				return nil, err
			}
			out = append(out, l)
		}
		if opts.After = page.Next; page.Next == "" {
			return out, nil
		}
	}
}

// registration checks the body of a PUT of id and returns the resource to
// store, with the canonical JSON of the kind's properties.
func (s *Service) registration(ctx context.Context, id registry.ID, env Envelope) (registry.Resource, error) {
	props := env.Properties
	if absent(props) {
		props = json.RawMessage(`{}`)
	}
	if !isObject(props) {
		return registry.Resource{}, invalid("properties must be a JSON object")
	}
	res := registry.Resource{ID: id, Location: env.Location, Tags: env.Tags}
	if id.Kind == api.KindAPIVersion {
		var p api.APIVersionProperties
		if err := decodeProperties(props, &p); err != nil {
			return res, err
		}
		stored, err := s.validSchema(ctx, p.Schema)
		if err != nil {
			return res, err
		}
		res.Properties, err = withLifecycle(id, stored, p.Lifecycle)
		return res, err
	}
	canon, err := canonicalProperties(id.Kind, props)
	if err != nil {
		return res, err
	}
	if lp, ok := canon.(registry.LocationProperties); ok {
		if err := s.checkAddresses(lp); err != nil {
			return res, err
		}
	}
	if id.Kind == api.KindPlane || id.Kind == api.KindProvider {
		if res.Location == "" {
			res.Location = registry.DefaultLocation
		}
	}
	res.Properties, err = Marshal(canon)
	return res, err
}

// canonicalProperties decodes and checks the properties of a PUT of a
// registration of kind (not an API version) and returns what is stored.
func canonicalProperties(kind registry.Kind, props json.RawMessage) (any, error) {
	switch kind {
	case api.KindProvider:
		var p api.ResourceProviderProperties
		return struct{}{}, decodeProperties(props, &p)
	case api.KindResourceType:
		var p api.ResourceTypeProperties
		if err := decodeProperties(props, &p); err != nil {
			return nil, err
		}
		// iconHash is read-only: the registry names the icon it stores.
		tp := registry.TypeProperties{DefaultAPIVersion: p.DefaultAPIVersion, Description: p.Description, Capabilities: p.Capabilities, Icon: p.Icon}
		if tp.Icon != "" {
			tp.IconHash = api.IconHash(tp.Icon)
		}
		return tp, tp.Validate()
	case api.KindLocation:
		var p api.LocationProperties
		if err := decodeProperties(props, &p); err != nil {
			return nil, err
		}
		lp := registry.LocationProperties{Address: p.Address}
		if len(p.ResourceTypes) > 0 {
			lp.ResourceTypes = map[string]registry.LocationType{}
			for t, lt := range p.ResourceTypes {
				vs := map[string]json.RawMessage{}
				for v := range lt.APIVersions {
					vs[v] = json.RawMessage(`{}`)
				}
				lp.ResourceTypes[t] = registry.LocationType{Address: lt.Address, APIVersions: vs}
			}
		}
		return lp, lp.Validate()
	}
	// A plane: UCP clients may send plane properties this registry does
	// not use (e.g. resourceProviders); they are accepted and not stored.
	return struct{}{}, nil
}

// checkAddresses refuses a location whose addresses the egress policy
// refuses by name (--forward-allow; the server's own address): a request
// of its types could never be forwarded. Names that only their resolved
// addresses can decide are checked again when forwarding.
func (s *Service) checkAddresses(lp registry.LocationProperties) error {
	check := func(field, addr string) error {
		if addr == "" {
			return nil
		}
		u, err := url.Parse(addr)
		if err != nil { // Validate checked the form
			return invalid("%s is not a URL", field)
		}
		if err := s.egress.CheckURL(u); err != nil {
			return registry.Errorf(registry.CodeInvalid, field, "%s is refused: %v", field, err)
		}
		return nil
	}
	if err := check("properties.address", lp.Address); err != nil {
		return err
	}
	for _, t := range slices.Sorted(maps.Keys(lp.ResourceTypes)) {
		if err := check("properties.resourceTypes."+t+".address", lp.ResourceTypes[t].Address); err != nil {
			return err
		}
	}
	return nil
}

// withLifecycle checks an API version's lifecycle (api.Lifecycle.Problems;
// the replacement newer than the version) and adds it to the stored
// properties before the schema; stored as they are without one.
func withLifecycle(id registry.ID, stored json.RawMessage, l *api.Lifecycle) (json.RawMessage, error) {
	if l == nil {
		return stored, nil
	}
	problems := l.Problems()
	if l.Replacement != "" && api.APIVersionProblem(l.Replacement) == "" && api.CompareVersions(l.Replacement, id.Name) <= 0 {
		problems = append(problems, fmt.Sprintf("replacement: %s is not newer than %s", l.Replacement, id.Name))
	}
	if len(problems) > 0 {
		return nil, registry.Errorf(registry.CodeInvalid, "properties.lifecycle", "properties.lifecycle: %s", strings.Join(problems, "; "))
	}
	b, err := Marshal(l)
	if err != nil {
		return nil, err
	}
	// {"lifecycle":...,"schema":...}: not the stored form of a plain
	// schema (registry.StoredSchema), so readers decode it.
	out := make([]byte, 0, len(stored)+len(b)+16)
	out = append(out, `{"lifecycle":`...)
	out = append(out, b...)
	out = append(out, ',')
	return append(out, stored[1:]...), nil
}

// validSchema compacts and checks an API version schema and returns the
// stored properties that hold it (registry.StoredSchemaHead). A schema
// accepted before (the same compacted bytes, by hash) is not checked
// again: the check is a function of those bytes, and re-applying the same
// schemas (git sync, CI, rad) is the common PUT. At most
// checkSlots schemas are checked at a time: a check costs memory in
// proportion to the schema, so this bounds the server's memory under many
// large requests; the others wait for a slot as long as their context
// allows.
func (s *Service) validSchema(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	raw = api.SchemaOrEmpty(raw)
	if !isObject(raw) {
		return nil, invalid("properties.schema must be a JSON object")
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(registry.StoredSchemaHead)+len(raw)+len(registry.StoredSchemaTail)))
	buf.WriteString(registry.StoredSchemaHead)
	if err := json.Compact(buf, raw); err != nil {
		return nil, invalid("properties.schema: %v", err)
	}
	buf.WriteString(registry.StoredSchemaTail)
	stored := json.RawMessage(buf.Bytes())
	if s.checkSchema == nil {
		return stored, nil
	}
	sum := sha256.Sum256(stored)
	if s.accepted.Contains(sum) {
		return stored, nil
	}
	compact, _ := registry.StoredSchema(stored)
	select {
	case s.checkSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	diags := s.checkSchema(schema.ImplyObjectTypes(compact)) // stored as sent
	<-s.checkSlots
	var details []api.ErrorDetail
	for _, d := range diags {
		if !d.IsError() {
			continue
		}
		msg := d.Message
		if d.Hint != "" {
			msg += " (" + d.Hint + ")"
		}
		details = append(details, api.ErrorDetail{Code: d.Rule, Message: msg, Target: d.Path})
	}
	if len(details) > 0 {
		return nil, &registry.Error{Code: registry.CodeInvalid, Target: "properties.schema",
			Message: fmt.Sprintf("properties.schema is not valid: %d error(s)", len(details)),
			Details: api.CapDetails(details)}
	}
	s.accepted.Add(sum, struct{}{})
	return stored, nil
}
