package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/secrets"
)

// admitted is a PUT's properties after admission, split for storage.
type admitted struct {
	doc    json.RawMessage // whole, secrets included: what a forwarded PUT sends
	public json.RawMessage // stored, and returned by GET and LIST
	sealed []byte          // the secret part as stored; nil when none
}

// admit checks props against the schema of the API version row verRow
// (registry/admission: defaults applied, read-only properties dropped),
// then the references to resources of types this plane serves, and splits
// the admitted document into its public and secret parts. Every problem
// is a detail of one CodeInvalid error.
func (s *Service) admit(ctx context.Context, id api.ResourceID, verRow registry.Resource, props json.RawMessage) (admitted, error) {
	schema, err := s.schemas.get(verRow)
	if err != nil {
		return admitted{}, err
	}
	adm, violations := schema.AdmitSplit(props)
	if len(violations) > 0 {
		details := make([]api.ErrorDetail, 0, len(violations))
		for _, v := range violations {
			details = append(details, api.ErrorDetail{Code: v.Code, Target: v.Target, Message: v.Message})
		}
		return admitted{}, invalidContent(id, verRow.ID, details)
	}
	if details, err := s.checkReferences(ctx, id, adm.References); err != nil {
		return admitted{}, err
	} else if len(details) > 0 {
		return admitted{}, missingReferences(id, verRow.ID, details)
	}
	return admitted{doc: adm.Doc, public: adm.Public, sealed: s.sealSecrets(id, adm.Secrets)}, nil
}

func invalidContent(id api.ResourceID, ver registry.ID, details []api.ErrorDetail) error {
	return &registry.Error{Code: registry.CodeInvalid, Target: "properties",
		Message: fmt.Sprintf("the properties of %s do not match the schema of %s/%s API version %s: %s",
			id.Name(), ver.Provider, ver.Type, ver.Name, naming.Count(len(details), "problem")),
		Details: api.CapDetails(details)}
}

// missingReferences is the error of properties that match the schema but
// refer to resources that do not exist (details of code
// api.CodeReferenceNotFound): the same 400 as invalidContent, worded apart,
// since the schema matched.
func missingReferences(id api.ResourceID, ver registry.ID, details []api.ErrorDetail) error {
	return &registry.Error{Code: registry.CodeInvalid, Target: "properties",
		Message: fmt.Sprintf("the properties of %s match the schema of %s/%s API version %s, but refer to resources that do not exist: %s",
			id.Name(), ver.Provider, ver.Type, ver.Name, naming.Count(len(details), "reference")),
		Details: api.CapDetails(details)}
}

// sealSecrets encrypts the secret part of a document (nil when none) for
// the secrets column, bound to the resource's ID (its Key, whatever the
// request's casing): a sealed value copied to another resource's row does
// not open.
func (s *Service) sealSecrets(id api.ResourceID, secret json.RawMessage) []byte {
	if len(secret) == 0 {
		return nil
	}
	return s.sealer.Seal(secret, []byte(id.Key()))
}

// openSecrets returns the secret part of a stored resource ({} when it has
// none). A value the service's key cannot open is an error that says why
// (another key, or tampered with) and names no content.
func (s *Service) openSecrets(in registry.Instance) (json.RawMessage, error) {
	if len(in.Secrets) == 0 {
		return json.RawMessage(`{}`), nil
	}
	plain, err := s.sealer.Open(in.Secrets, []byte(in.ID.Key()))
	if errors.Is(err, secrets.ErrWrongKey) {
		return nil, registry.Errorf(registry.CodeInternal, "",
			"the secrets of %s were sealed with another key than this server's (%v); restart the server with the key they were sealed with (udtc serve --secret-key-file)", in.ID, err)
	}
	if err != nil {
		return nil, registry.Errorf(registry.CodeInternal, "", "the stored secrets of %s cannot be opened: %v", in.ID, err)
	}
	return plain, nil
}

// checkSecretKey opens one stored secret, if any, with sealer: a service
// started with another key than the one the store's secrets were sealed
// with refuses to start instead of failing every listSecrets later.
func checkSecretKey(ctx context.Context, store registry.Store, sealer *secrets.Sealer) error {
	id, sealed, found, err := store.AnySecrets(ctx)
	if err != nil {
		return fmt.Errorf("checking the secret key: %w", err)
	}
	if !found {
		return nil
	}
	if _, err := sealer.Open(sealed, []byte(id.Key())); err != nil {
		if errors.Is(err, secrets.ErrWrongKey) {
			return fmt.Errorf("the stored secrets (of %s, among others) were sealed with another key than the one given: %w; start with the key they were sealed with", id, err)
		}
		return fmt.Errorf("the stored secrets of %s do not open with the key given: %w", id, err)
	}
	return nil
}

// checkReferences returns a detail for each reference to a resource that
// does not exist, among the references to types registered in the plane
// of id. References to other planes and to types this registry does not
// serve were checked for form and type only (by Admit).
func (s *Service) checkReferences(ctx context.Context, id api.ResourceID, refs []admission.Reference) ([]api.ErrorDetail, error) {
	var details []api.ErrorDetail
	served := map[string]bool{}
	for _, ref := range refs {
		if !strings.EqualFold(ref.ID.Plane, id.Plane) {
			continue
		}
		key := strings.ToLower(ref.ID.Type())
		ok, known := served[key]
		if !known {
			var err error
			if ok, err = s.storesResourcesOf(ctx, id.Plane, ref.ID.Namespace, ref.ID.TypeName()); err != nil {
				return nil, err
			}
			served[key] = ok
		}
		if !ok {
			continue
		}
		_, err := s.store.GetInstance(ctx, ref.ID)
		if errors.Is(err, registry.ErrNotFound) {
			msg := fmt.Sprintf("refers to %s, which does not exist", ref.ID)
			if ref.Sensitive { // GET shows it as null: never repeat it
				msg = "refers to a resource that does not exist"
			}
			details = append(details, api.ErrorDetail{Code: api.CodeReferenceNotFound, Target: ref.Target, Message: msg})
			continue
		}
		if err != nil {
			return nil, err
		}
	}
	return details, nil
}

// storesResourcesOf reports whether the registry stores the resources of
// type typ of namespace ns: the type is registered, and no location serves
// it at an address (the registry does not store the resources of a type
// served at an address, so it cannot tell whether one exists).
func (s *Service) storesResourcesOf(ctx context.Context, plane, ns, typ string) (bool, error) {
	_, err := s.store.Get(ctx, registry.TypeID(plane, ns, typ))
	if errors.Is(err, registry.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	forwarded := false
	err = s.eachLocation(ctx, plane, ns, typ, func(_ string, lp registry.LocationProperties, lt registry.LocationType) {
		forwarded = forwarded || lt.Address != "" || lp.Address != ""
	})
	return !forwarded, err
}

// schemaCache holds the compiled schema of each API version, keyed by the
// version's ID and recompiled when its ETag (new on every write, also by
// another process sharing the store) changes: a schema is compiled once
// per registration change, not per request.
type schemaCache struct {
	compile func(json.RawMessage) (*admission.Schema, error)
	mu      sync.Mutex
	m       map[registry.ID]compiledSchema
}

type compiledSchema struct {
	etag   string
	schema *admission.Schema
	err    error
}

// maxCachedSchemas bounds the cache; past it, it starts over.
const maxCachedSchemas = 4096

func newSchemaCache() *schemaCache {
	return &schemaCache{compile: admission.Compile, m: map[registry.ID]compiledSchema{}}
}

// get returns the compiled schema of the API version row ver. A schema
// that does not compile (registered without the checker) refuses every
// PUT of that version with a CodeInvalid error saying so.
func (c *schemaCache) get(ver registry.Resource) (*admission.Schema, error) {
	key := ver.ID.Key()
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if !ok || e.etag != ver.ETag {
		raw, err := versionSchema(ver)
		if err != nil {
			return nil, err
		}
		e = compiledSchema{etag: ver.ETag}
		e.schema, e.err = c.compile(raw)
		c.mu.Lock()
		if len(c.m) >= maxCachedSchemas {
			clear(c.m)
		}
		c.m[key] = e
		c.mu.Unlock()
	}
	if e.err != nil {
		return nil, invalid("the registered schema of %s/%s API version %s cannot be used to check resources (%v); register a corrected schema",
			ver.ID.Provider, ver.ID.Type, ver.ID.Name, e.err)
	}
	return e.schema, nil
}

// versionSchema returns the schema of an API version row (its stored
// properties may hold its lifecycle too).
func versionSchema(ver registry.Resource) (json.RawMessage, error) {
	var props registry.APIVersionProperties
	if err := json.Unmarshal(ver.Properties, &props); err != nil {
		return nil, fmt.Errorf("stored properties of %s: %w", ver.ID, err)
	}
	return props.Schema, nil
}
