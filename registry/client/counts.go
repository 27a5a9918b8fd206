package client

import (
	"context"
	"fmt"
	"net/url"

	"github.com/udtc/udtc/registry/api"
)

// Resources that deletes of registrations meet. udtc serve refuses to
// delete a provider, type or API version that still has resources unless
// asked to delete them too (?force=true), and tells how many there are
// (GET .../resourceCounts). Radius's UCP deletes a registration whatever
// resources its types have, and leaves those behind, unusable; it has no
// count route: the resources of a type are listed plane-wide
// (/planes/radius/{plane}/providers/{namespace}/{type}, served by Radius's
// dynamic resource provider) and deleted one by one.

// ResourceCounts returns how many resources the types of namespace have.
// From udtc serve: for every type, by the API version each resource was
// last written with, the counts an unforced delete refuses on. From
// Radius's UCP: for each of types only, as a whole (APIVersion ""),
// counted by listing the type's resources. Types without resources are
// absent. An error means the counts are unknown.
func (c *Client) ResourceCounts(ctx context.Context, namespace string, types []string) ([]api.ResourceCount, error) {
	if c.target.Flavor != FlavorUCP {
		return listAll[api.ResourceCount](ctx, c, c.providerTarget(namespace).join("/resourceCounts"))
	}
	out := []api.ResourceCount{}
	for _, typ := range types {
		ins, _, err := c.planeInstances(ctx, namespace, typ)
		if err != nil {
			return nil, err
		}
		if len(ins) > 0 {
			out = append(out, api.ResourceCount{ResourceType: typ, Count: len(ins)})
		}
	}
	return out, nil
}

// planeInstances lists the resources of the type in the client's whole
// plane, asked with one of its registered API versions (which it returns);
// none when the type has no API version, under which no resource can have
// been written.
func (c *Client) planeInstances(ctx context.Context, namespace, typ string) ([]api.Instance, string, error) {
	versions, err := c.ListAPIVersions(ctx, namespace, typ)
	if IsNotFound(err) {
		return nil, "", nil // no type, no resources
	}
	if err != nil {
		return nil, "", err
	}
	if len(versions) == 0 {
		return nil, "", nil
	}
	version := versions[0].Name
	t := checked("/planes/radius/"+seg(c.plane)+"/providers/"+seg(namespace)+"/"+seg(typ),
		nameProblem("plane name", c.plane, api.SegmentProblem(c.plane)),
		nameProblem("resource provider namespace", namespace, api.NamespaceProblem(namespace)),
		nameProblem("resource type name", typ, api.TypeNameProblem(typ)))
	ins, err := listAll[api.Instance](ctx, c, t.join("?api-version="+url.QueryEscape(version)))
	if err != nil {
		return nil, "", fmt.Errorf("listing the resources of %s/%s: %w", namespace, typ, err)
	}
	return ins, version, nil
}

// deleteInstancesOf deletes, one by one, the resources of the type in the
// client's plane (UCP: before the type's own delete, which would leave
// them behind).
func (c *Client) deleteInstancesOf(ctx context.Context, namespace, typ string) error {
	ins, version, err := c.planeInstances(ctx, namespace, typ)
	if err != nil {
		return err
	}
	for _, in := range ins {
		id, err := api.ParseResourceID(in.ID)
		if err != nil {
			return fmt.Errorf("registry: listing %s/%s: %w", namespace, typ, err)
		}
		if _, err := c.DeleteInstance(ctx, id, version); err != nil {
			return fmt.Errorf("deleting resource %s: %w", in.ID, err)
		}
	}
	return nil
}

// forced is t with ?force=true: udtc serve deletes the resources with the
// registration.
func forced(t target) target {
	return t.join("?api-version=" + api.Version + "&force=true")
}

// ForceDeleteProvider deletes a resource provider and everything under it,
// as DeleteProvider, together with the resources of its types: udtc serve
// in the same transaction; against UCP, each type's resources first.
func (c *Client) ForceDeleteProvider(ctx context.Context, namespace string) (bool, error) {
	if c.target.Flavor != FlavorUCP {
		return c.deleteResource(ctx, forced(c.providerTarget(namespace)), nil)
	}
	types, err := c.ListResourceTypes(ctx, namespace)
	if err != nil && !IsNotFound(err) {
		return false, err
	}
	for _, t := range types {
		if err := c.deleteInstancesOf(ctx, namespace, t.Name); err != nil {
			return false, err
		}
	}
	return c.DeleteProvider(ctx, namespace)
}

// ForceDeleteResourceType deletes a resource type, as DeleteResourceType,
// together with the resources of it and its child types: udtc serve in the
// same transaction; against UCP, the type's resources first.
func (c *Client) ForceDeleteResourceType(ctx context.Context, namespace, typ string) (bool, error) {
	if c.target.Flavor != FlavorUCP {
		return c.deleteResource(ctx, forced(c.typeTarget(namespace, typ)), nil)
	}
	if err := c.deleteInstancesOf(ctx, namespace, typ); err != nil {
		return false, err
	}
	return c.DeleteResourceType(ctx, namespace, typ)
}

// ForceDeleteAPIVersion deletes an API version, as DeleteAPIVersion,
// together with the resources last written with it (udtc serve). UCP
// deletes a version without looking at resources, and does not delete
// them: there it is a plain delete.
func (c *Client) ForceDeleteAPIVersion(ctx context.Context, namespace, typ, version string) (bool, error) {
	if c.target.Flavor != FlavorUCP {
		return c.deleteResource(ctx, forced(c.versionTarget(namespace, typ, version)), nil)
	}
	return c.DeleteAPIVersion(ctx, namespace, typ, version)
}
