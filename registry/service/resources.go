package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Resource groups and the resources of user-defined types: the control
// plane of the registered types. Every resource request resolves its
// type's registration first (Resolve); a PUT then checks the location,
// admits the properties against the registered schema, checks references,
// seals the secrets, and only then stores, or forwards to the address the
// type is served at.

// GetGroup returns the resource group; ErrNotFound when it does not exist.
func (s *Service) GetGroup(ctx context.Context, id registry.GroupID) (registry.Group, error) {
	return s.store.GetGroup(ctx, id)
}

// GroupWrite is a PUT of a resource group.
type GroupWrite struct {
	// ID is the group written; the caller has validated it.
	ID    registry.GroupID
	Body  Envelope
	If    registry.Precondition
	Actor string
}

// PutGroup checks the body of w and stores the group: its location is
// DefaultLocation when the body names none.
func (s *Service) PutGroup(ctx context.Context, w GroupWrite) (registry.Group, bool, error) {
	if !absent(w.Body.Properties) {
		var p api.ResourceGroupProperties
		if err := decodeProperties(w.Body.Properties, &p); err != nil {
			return registry.Group{}, false, err
		}
	}
	location := w.Body.Location
	if location == "" {
		location = registry.DefaultLocation
	}
	return s.store.PutGroup(ctx, registry.GroupWrite{
		Group: registry.Group{ID: w.ID, Location: location, Tags: w.Body.Tags},
		If:    w.If, Now: s.stamp(), Actor: w.Actor,
	})
}

// DeleteGroup deletes the group and every resource in it.
func (s *Service) DeleteGroup(ctx context.Context, id registry.GroupID, cond registry.Precondition) (bool, error) {
	return s.store.DeleteGroup(ctx, id, cond)
}

// ListGroups returns a page of the groups of plane.
func (s *Service) ListGroups(ctx context.Context, plane string, opts registry.ListOptions) (registry.GroupPage, error) {
	return s.store.ListGroups(ctx, plane, opts)
}

// GetResource returns the stored resource id (without its secrets'
// values: see ListSecrets).
func (s *Service) GetResource(ctx context.Context, id api.ResourceID) (registry.Instance, error) {
	return s.store.GetInstance(ctx, id)
}

// DeleteResource deletes the resource and its children.
func (s *Service) DeleteResource(ctx context.Context, id api.ResourceID, cond registry.Precondition) (bool, error) {
	return s.store.DeleteInstance(ctx, id, cond)
}

// ListResources returns a page of the resources q selects.
func (s *Service) ListResources(ctx context.Context, q registry.InstanceQuery, opts registry.ListOptions) (registry.InstancePage, error) {
	return s.store.ListInstances(ctx, q, opts)
}

// ListSecrets returns the sensitive values of a resource at their paths
// in its properties ({} when it has none), opened with the service's key.
func (s *Service) ListSecrets(ctx context.Context, id api.ResourceID) (json.RawMessage, error) {
	in, err := s.store.GetInstance(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.openSecrets(in)
}

// ResourceWrite is a PUT of a resource of a user-defined type.
type ResourceWrite struct {
	// ID is the resource written, as parsed from its request.
	ID    api.ResourceID
	Body  Envelope
	If    registry.Precondition
	Actor string
}

// ResourcePut is what PutResource did: stored the resource, or left it to
// the resource provider at the address its type is served at.
type ResourcePut struct {
	Stored  registry.Instance
	Created bool
	// Forward, when not nil, is the request to send to the provider
	// instead: the registry stored nothing.
	Forward *Forward
}

// Forward is a PUT the registry sends on to a resource provider: Body is
// the admitted document (defaults applied, read-only values dropped,
// sensitive values included: the provider keeps them) with the location's
// registered spelling.
type Forward struct {
	Address string
	Body    []byte
}

// PutResource writes the resource w of the type t resolved (Resolve):
// the location must serve the type and API version, the properties must
// be admitted by the registered schema and name existing resources; then
// the secrets are sealed and the resource stored, or, when its location
// serves the type at an address, the resource group checked and the
// admitted document handed back to forward.
func (s *Service) PutResource(ctx context.Context, t *Type, w ResourceWrite) (ResourcePut, error) {
	location, address, err := checkLocation(t.ver.ID, t.locs, w.Body.Location)
	if err != nil {
		return ResourcePut{}, err
	}
	props, err := clientProperties(w.Body.Properties)
	if err != nil {
		return ResourcePut{}, err
	}
	if address == "" && t.lifecycle != nil && t.lifecycle.SunsetAt(s.now()) {
		if w.If, err = s.afterSunset(ctx, t, w); err != nil {
			return ResourcePut{}, err
		}
	}
	adm, err := s.admit(ctx, w.ID, t.ver, props)
	if err != nil {
		return ResourcePut{}, err
	}
	if address != "" {
		return s.forwardPut(ctx, w, address, location, adm.doc)
	}
	stored, created, err := s.store.PutInstance(ctx, registry.InstanceWrite{
		Instance: registry.Instance{
			ID: w.ID, APIVersion: t.ver.ID.Name, Location: location, Tags: w.Body.Tags,
			Properties: adm.public, Secrets: adm.sealed,
		},
		If: w.If, Now: s.stamp(), Actor: w.Actor,
	})
	return ResourcePut{Stored: stored, Created: created}, err
}

// afterSunset refuses a PUT that would create a resource of an API
// version past its sunset, naming the replacement; an update of an
// existing resource goes on, under If-Match: * when the request gave no
// condition, so that a delete in between cannot turn it into a create.
// Reads and deletes are never refused: nothing stored is lost.
func (s *Service) afterSunset(ctx context.Context, t *Type, w ResourceWrite) (registry.Precondition, error) {
	_, err := s.store.GetInstance(ctx, w.ID)
	switch {
	case errors.Is(err, registry.ErrNotFound):
		l := t.lifecycle
		next := "no replacement is declared"
		if l.Replacement != "" {
			next = "create it with api-version=" + l.Replacement
		}
		return w.If, registry.Errorf(registry.CodeInvalidAPIVersion, "api-version",
			"%s/%s API version %s was sunset on %s: it takes no new resources (%s); existing ones can still be read, updated and deleted",
			t.ver.ID.Provider, t.ver.ID.Type, t.ver.ID.Name, l.Sunset, next)
	case err != nil:
		return w.If, err
	}
	if w.If.IsZero() {
		return registry.Precondition{IfMatch: []string{"*"}}, nil
	}
	return w.If, nil
}

// forwardPut checks that the resource group of w exists (the provider
// stores the resource, the registry its groups) and returns the PUT to
// send to address.
func (s *Service) forwardPut(ctx context.Context, w ResourceWrite, address, location string, doc json.RawMessage) (ResourcePut, error) {
	if _, err := s.store.GetGroup(ctx, registry.GroupID{Plane: w.ID.Plane, Name: w.ID.Group}); errors.Is(err, registry.ErrNotFound) {
		return ResourcePut{}, fmt.Errorf("resource group %s of %s: %w", w.ID.Scope(), w.ID, registry.ErrGroupNotFound)
	} else if err != nil {
		return ResourcePut{}, err
	}
	body, err := Marshal(struct {
		Location   string            `json:"location"`
		Tags       map[string]string `json:"tags,omitempty"`
		Properties json.RawMessage   `json:"properties"`
	}{location, w.Body.Tags, doc})
	if err != nil {
		return ResourcePut{}, err
	}
	return ResourcePut{Forward: &Forward{Address: address, Body: body}}, nil
}

// clientProperties checks the body's properties: a JSON object (absent or
// null means {}). provisioningState is read-only and dropped, so that a GET
// body can be PUT back.
func clientProperties(raw json.RawMessage) (json.RawMessage, error) {
	if absent(raw) {
		return json.RawMessage(`{}`), nil
	}
	if !isObject(raw) {
		return nil, registry.Errorf(registry.CodeInvalid, "properties", "properties must be a JSON object")
	}
	if !bytes.Contains(raw, []byte(`"provisioningState"`)) {
		return bytes.TrimSpace(raw), nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, invalid("invalid properties: %v", err)
	}
	delete(m, "provisioningState")
	return Marshal(m)
}
