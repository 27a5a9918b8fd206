package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// Resource groups and the resources of the registered types. Resource
// calls take the type's API version; their paths are resource IDs
// (api.ResourceID) in the client's plane or the ID's own.

func (c *Client) groupTarget(name string) target {
	t := planeTarget(c.plane)
	if t.err != nil {
		return t
	}
	return checked(t.path+"/resourceGroups/"+seg(name), nameProblem("resource group name", name, api.ResourceNameProblem(name)))
}

// PutResourceGroup creates or updates a resource group.
func (c *Client) PutResourceGroup(ctx context.Context, name string, body api.ResourceGroup, conds ...Condition) (api.ResourceGroup, error) {
	return putResource(ctx, c, c.groupTarget(name), body, conds)
}

// GetResourceGroup returns a resource group.
func (c *Client) GetResourceGroup(ctx context.Context, name string) (api.ResourceGroup, error) {
	return getResource[api.ResourceGroupProperties](ctx, c, c.groupTarget(name))
}

// DeleteResourceGroup deletes a resource group and every resource in it.
func (c *Client) DeleteResourceGroup(ctx context.Context, name string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, c.groupTarget(name), conds)
}

// ListResourceGroups lists the resource groups of the plane.
func (c *Client) ListResourceGroups(ctx context.Context) ([]api.ResourceGroup, error) {
	return listAll[api.ResourceGroup](ctx, c, planeTarget(c.plane).join("/resourceGroups"))
}

// instanceTarget is the escaped path of id with ?api-version=version; id's
// names are checked first (an ID built by hand may hold "..").
func instanceTarget(id api.ResourceID, version string) target {
	if _, err := api.ParseResourceID(id.String()); err != nil {
		return target{err: fmt.Errorf("registry: %w: %v", ErrInvalidName, err)}
	}
	return target{path: instancePath(id, version)}
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
	return putResource(ctx, c, instanceTarget(id, version), body, conds)
}

// GetInstance returns the resource id.
func (c *Client) GetInstance(ctx context.Context, id api.ResourceID, version string) (api.Instance, error) {
	return getResource[json.RawMessage](ctx, c, instanceTarget(id, version))
}

// DeleteInstance deletes the resource id and its children.
func (c *Client) DeleteInstance(ctx context.Context, id api.ResourceID, version string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, instanceTarget(id, version), conds)
}

// ListInstances lists the resources of list (in a group, or under a parent
// resource), following nextLink.
func (c *Client) ListInstances(ctx context.Context, list api.ResourceListID, version string) ([]api.Instance, error) {
	var t target
	if list.Parent != nil {
		t = instanceTarget(*list.Parent, version)
	} else {
		t = checked("", nameProblem("plane name", list.Plane, api.SegmentProblem(list.Plane)),
			nameProblem("resource group name", list.Group, api.ResourceNameProblem(list.Group)),
			nameProblem("resource provider namespace", list.Namespace, api.NamespaceProblem(list.Namespace)))
	}
	if t.err == nil {
		t = checked("", nameProblem("resource type name", list.Type, api.TypeNameProblem(list.Type)))
	}
	if t.err != nil {
		return nil, t.err
	}
	var path string
	if list.Parent != nil {
		path = instancePath(*list.Parent, version)
		path, _, _ = strings.Cut(path, "?")
		path += "/" + seg(list.Type[strings.LastIndexByte(list.Type, '/')+1:])
	} else {
		path = "/planes/radius/" + seg(list.Plane) + "/resourceGroups/" + seg(list.Group) + "/providers/" + seg(list.Namespace) + "/" + seg(list.Type)
	}
	return listAll[api.Instance](ctx, c, target{path: path + "?api-version=" + url.QueryEscape(version)})
}
