package client

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// Resource groups and the resources of the registered types. Resource
// calls take the type's API version; their paths are resource IDs
// (api.ResourceID) in the client's plane or the ID's own.

func (c *Client) groupPath(name string) string { return c.planePath() + "/resourceGroups/" + seg(name) }

// PutResourceGroup creates or updates a resource group.
func (c *Client) PutResourceGroup(ctx context.Context, name string, body api.ResourceGroup, conds ...Condition) (api.ResourceGroup, error) {
	return putResource(ctx, c, c.groupPath(name), body, conds)
}

// GetResourceGroup returns a resource group.
func (c *Client) GetResourceGroup(ctx context.Context, name string) (api.ResourceGroup, error) {
	return getResource[api.ResourceGroupProperties](ctx, c, c.groupPath(name))
}

// DeleteResourceGroup deletes a resource group and every resource in it.
func (c *Client) DeleteResourceGroup(ctx context.Context, name string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, c.groupPath(name), conds)
}

// ListResourceGroups lists the resource groups of the plane.
func (c *Client) ListResourceGroups(ctx context.Context) ([]api.ResourceGroup, error) {
	return listAll[api.ResourceGroup](ctx, c, c.planePath()+"/resourceGroups")
}

// instancePath is the escaped path of id with ?api-version=version.
func instancePath(id api.ResourceID, version string) string {
	var b strings.Builder
	for _, s := range strings.Split(strings.TrimPrefix(id.String(), "/"), "/") {
		b.WriteString("/")
		b.WriteString(seg(s))
	}
	return b.String() + "?api-version=" + url.QueryEscape(version)
}

// PutInstance creates or replaces the resource id with API version version
// of its type. The server admits body.Properties against that version's
// schema; a refusal is an *Error whose Details name each violation.
func (c *Client) PutInstance(ctx context.Context, id api.ResourceID, version string, body api.Instance, conds ...Condition) (api.Instance, error) {
	return putResource(ctx, c, instancePath(id, version), body, conds)
}

// GetInstance returns the resource id.
func (c *Client) GetInstance(ctx context.Context, id api.ResourceID, version string) (api.Instance, error) {
	return getResource[json.RawMessage](ctx, c, instancePath(id, version))
}

// DeleteInstance deletes the resource id and its children.
func (c *Client) DeleteInstance(ctx context.Context, id api.ResourceID, version string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, instancePath(id, version), conds)
}

// ListInstances lists the resources of list (in a group, or under a parent
// resource), following nextLink.
func (c *Client) ListInstances(ctx context.Context, list api.ResourceListID, version string) ([]api.Instance, error) {
	var path string
	if list.Parent != nil {
		path = instancePath(*list.Parent, version)
		path, _, _ = strings.Cut(path, "?")
		path += "/" + seg(list.Type[strings.LastIndexByte(list.Type, '/')+1:])
	} else {
		path = "/planes/radius/" + seg(list.Plane) + "/resourceGroups/" + seg(list.Group) + "/providers/" + seg(list.Namespace) + "/" + seg(list.Type)
	}
	return listAll[api.Instance](ctx, c, path+"?api-version="+url.QueryEscape(version))
}
