package server

import (
	"net/http"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The URL prefix of the registration resources; route segments match in any
// case because normalizePath folds them before the mux sees the path.
const rpPrefix = "/planes/radius/{plane}/providers/System.Resources/resourceProviders"

// The patterns of the resources of user-defined types: one resource, or a
// list in a group or under a parent ({path...} tells which), and the
// plane-wide list of a type.
const (
	groupResourcePattern = "/planes/radius/{plane}/resourceGroups/{group}/providers/{namespace}/{path...}"
	planeResourcePattern = "/planes/radius/{plane}/providers/{namespace}/{type...}"
)

// routes is the route table: every route the registry serves. Handlers
// return their errors to handle's adapter (errors.go).
func (s *Server) routes() {
	versioned := func(h handlerFunc) http.HandlerFunc { return s.handle(requireAPIVersion(true, h)) }
	optional := func(h handlerFunc) http.HandlerFunc { return s.handle(requireAPIVersion(false, h)) }

	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.HandleFunc("GET /sync/status", s.handle(s.syncStatus)) // sync.go

	s.mux.HandleFunc("GET /planes/radius", versioned(s.list(api.KindPlane)))
	s.mux.HandleFunc("GET /planes/radius/{plane}", versioned(s.get(api.KindPlane)))
	s.mux.HandleFunc("PUT /planes/radius/{plane}", versioned(s.put(api.KindPlane)))

	for _, r := range []struct {
		collection, item string
		kind             registry.Kind
	}{
		{rpPrefix, rpPrefix + "/{namespace}", api.KindProvider},
		{rpPrefix + "/{namespace}/resourceTypes", rpPrefix + "/{namespace}/resourceTypes/{type}", api.KindResourceType},
		{rpPrefix + "/{namespace}/resourceTypes/{type}/apiVersions", rpPrefix + "/{namespace}/resourceTypes/{type}/apiVersions/{name}", api.KindAPIVersion},
		{rpPrefix + "/{namespace}/locations", rpPrefix + "/{namespace}/locations/{name}", api.KindLocation},
	} {
		s.mux.HandleFunc("GET "+r.collection, versioned(s.list(r.kind)))
		s.mux.HandleFunc("GET "+r.item, versioned(s.get(r.kind)))
		s.mux.HandleFunc("PUT "+r.item, versioned(s.syncGuard(s.put(r.kind))))
		s.mux.HandleFunc("DELETE "+r.item, versioned(s.syncGuard(s.delete(r.kind))))
		s.writeKinds["PUT "+r.item] = r.kind
		s.writeKinds["DELETE "+r.item] = r.kind
	}

	// How many resources of each type and API version a delete would
	// meet (handlers.go): a udtc extension.
	s.mux.HandleFunc("GET "+rpPrefix+"/{namespace}/resourceCounts", versioned(s.resourceCounts))

	// The dry-run admission of an API version's stored resources against a
	// candidate schema (handlers.go): a udtc extension, a read that takes
	// a body. It writes nothing, so sync does not guard it.
	s.mux.HandleFunc("POST "+rpPrefix+"/{namespace}/resourceTypes/{type}/apiVersions/{name}/checkResources", versioned(s.checkResources))

	// Resource type icons (ucp.go): any api-version, or none, as UCP.
	s.mux.HandleFunc("GET "+rpPrefix+"/{namespace}/resourceTypes/{type}/icons/{hash}", s.handle(s.icon))

	// Registration writes sent together (batch.go): each is served as by
	// the routes above.
	s.mux.HandleFunc("POST /planes/radius/{plane}/providers/System.Resources/batch", versioned(s.batch))

	// Resource groups and the resources of the registered types
	// (resources.go). The resource routes take the type's API version.
	s.mux.HandleFunc("GET /planes/radius/{plane}/resourceGroups", versioned(s.listGroups))
	s.mux.HandleFunc("GET /planes/radius/{plane}/resourceGroups/{group}", versioned(s.getGroup))
	s.mux.HandleFunc("PUT /planes/radius/{plane}/resourceGroups/{group}", versioned(s.putGroup))
	s.mux.HandleFunc("DELETE /planes/radius/{plane}/resourceGroups/{group}", versioned(s.deleteGroup))
	for _, m := range []string{"GET ", "PUT ", "DELETE ", "POST "} { // POST: {resource ID}/listSecrets
		s.mux.HandleFunc(m+groupResourcePattern, s.handle(s.resource))
	}
	// The plane-wide list has one segment more than a provider summary;
	// System.Resources paths no registration route matched end up here and
	// get noRoute's answer.
	s.mux.HandleFunc("GET "+planeResourcePattern, s.handle(s.planeResources))

	s.mux.HandleFunc("GET /planes/radius/{plane}/providers", optional(s.summaries))
	s.mux.HandleFunc("GET /planes/radius/{plane}/providers/{$}", optional(s.summaries))
	s.mux.HandleFunc("GET /planes/radius/{plane}/providers/{namespace}", optional(s.summary))

	s.catalogRoutes()   // catalog.go: the HTML catalog at "/" and "/types/..."
	s.extensionRoutes() // extensions.go: the Bicep extensions at "/bicep/" and "/v2/"

	s.mux.HandleFunc("/", s.handle(s.noRoute))
}

// canonicalSegments are the fixed route segments, by position in the path
// (index 1 is the first segment), that normalizePath folds to their
// canonical spelling: those every path shares, then those of registration
// paths (.../providers/System.Resources/...) and of resource group paths.
var (
	canonicalSegments = map[int][]string{
		1: {"planes"},
		2: {"radius"},
		4: {"providers", "resourceGroups"},
	}
	registrationNamespace = map[int][]string{5: {"System.Resources"}}
	registrationSegments  = map[int][]string{
		6:  {"resourceProviders"},
		8:  {"resourceTypes", "locations", "resourceCounts"},
		10: {"apiVersions", "icons"},
		12: {"checkResources"},
	}
	groupSegments = map[int][]string{
		6: {"providers"},
	}
)
