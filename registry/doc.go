// Package registry owns the resource type registry's domain: resource IDs and
// their name rules, stored resources and their properties, provider
// summaries, the Store interface every storage backend implements, and the
// typed errors stores and the server share. It has no HTTP and no SQL; see
// registry/server, registry/store/... and registry/api.
//
// The hierarchy is plane → resource provider → {resource type → API version,
// location}. A child type ("contosoBuses/queues") is a resource type of the
// provider whose lifecycle is also nested in its parent type: deleting
// contosoBuses deletes contosoBuses/queues.
package registry
