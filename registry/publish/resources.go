package publish

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry/api"
)

// Deletes that meet resources. The registry refuses to delete a provider,
// type or API version that still has resources (udtc serve: 409, unless
// ?force=true), or deletes it and leaves them behind (Radius's UCP). A plan
// asks the registry before its first write how many resources each of its
// deletes meets (Reader.ResourceCounts), so that it predicts what applying
// it will do: without Options.DeleteResources, such a delete is planned
// Refused, and the plan is not to be applied; with it, the delete deletes
// them (client.Client.ForceDeleteResourceType).

// countResources marks each delete of a provider, type or API version of
// p with the resources it meets (or ResourcesUnknown when the registry
// could not count them), and, when it meets any, as forced
// (Options.DeleteResources) or Refused. The namespaces are asked
// readConcurrency at a time.
func (p *Plan) countResources(ctx context.Context, reg Reader) error {
	byNamespace := map[string][]int{}
	var order []string
	for i, c := range p.Changes {
		if c.Action != Delete || c.Kind == KindLocation {
			continue
		}
		if _, ok := byNamespace[c.Namespace]; !ok {
			order = append(order, c.Namespace)
		}
		byNamespace[c.Namespace] = append(byNamespace[c.Namespace], i)
	}
	counts := make([][]api.ResourceCount, len(order))
	errs := make([]error, len(order))
	par.EachOn(readConcurrency, len(order), func(k int) {
		counts[k], errs[k] = reg.ResourceCounts(ctx, order[k], p.deletedTypes(order[k], byNamespace[order[k]]))
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	for k, ns := range order {
		for _, i := range byNamespace[ns] {
			c := &p.Changes[i]
			if errs[k] != nil {
				c.ResourcesUnknown = true
			} else {
				c.Resources = meets(*c, counts[k])
			}
			switch {
			case c.Resources == 0 && !c.ResourcesUnknown:
			case p.opts.DeleteResources:
				c.force = true
			case c.ResourcesUnknown:
				c.Refused = fmt.Sprintf("the registry could not tell whether it still has resources (%v)", errs[k])
			default:
				c.Refused = "it still has " + naming.Count(c.Resources, "resource")
			}
		}
	}
	return nil
}

// deletedTypes returns the types whose resources the deletes (indexes
// into p.Changes) of namespace ns meet, for a registry that counts only
// the types it is asked for: those deleted, every type of the namespace
// for a provider's delete.
func (p *Plan) deletedTypes(ns string, deletes []int) []string {
	var types []string
	for _, i := range deletes {
		switch c := p.Changes[i]; c.Kind {
		case KindType:
			types = append(types, c.Type)
		case KindProvider:
			for _, r := range p.read {
				if strings.EqualFold(r.Namespace, ns) {
					types = append(types, slices.Sorted(maps.Keys(r.Summary.ResourceTypes))...)
				}
			}
		}
	}
	return types
}

// meets returns how many of counts the delete c meets: a provider's all
// of them, a type's those of it and its child types, an API version's
// those last written with it.
func meets(c Change, counts []api.ResourceCount) int {
	n := 0
	for _, rc := range counts {
		switch c.Kind {
		case KindProvider:
			n += rc.Count
		case KindType:
			if typeOrChild(rc.ResourceType, c.Type) {
				n += rc.Count
			}
		case KindAPIVersion:
			if strings.EqualFold(rc.ResourceType, c.Type) && strings.EqualFold(rc.APIVersion, c.Version) {
				n += rc.Count
			}
		}
	}
	return n
}

// Refused returns the changes the registry will refuse (Change.Refused),
// in plan order. A plan with any must not be applied: nothing of it
// should be written.
func (p *Plan) Refused() []Change {
	var out []Change
	for _, c := range p.Changes {
		if c.Refused != "" {
			out = append(out, c)
		}
	}
	return out
}

// ResourcesDeleted returns how many resources applying p deletes with the
// registrations (each counted once: a type's delete counts those of its
// child types, whose own deletes then count none), and whether the
// registry could not count some.
func (p *Plan) ResourcesDeleted() (n int, unknown bool) {
	for _, c := range p.Changes {
		if !c.force || p.covered(c) {
			continue
		}
		n += c.Resources
		unknown = unknown || c.ResourcesUnknown
	}
	return n, unknown
}

// covered reports whether another delete of p deletes what c deletes: the
// provider's, or a delete of c's type's ancestor (of the type itself, for
// an API version).
func (p *Plan) covered(c Change) bool {
	for _, d := range p.Changes {
		if d.Action != Delete || !strings.EqualFold(d.Namespace, c.Namespace) || d.key() == c.key() {
			continue
		}
		switch d.Kind {
		case KindProvider:
			return true
		case KindType:
			if childType(c.Type, d.Type) ||
				(c.Kind == KindAPIVersion && strings.EqualFold(c.Type, d.Type)) {
				return true
			}
		}
	}
	return false
}

// PlanProviderDelete plans the delete of provider namespace with everything
// under it (its types, their API versions, its locations): one change, its
// diff naming what goes with it, marked with the resources it meets as a
// prune's deletes are (opts.DeleteResources; Prune is not used). A
// namespace the registry does not have plans no change.
func PlanProviderDelete(ctx context.Context, reg Reader, namespace string, opts Options) (*Plan, error) {
	have, err := readNamespace(ctx, reg, namespace)
	if err != nil {
		return nil, fmt.Errorf("reading %s from the registry: %w", namespace, err)
	}
	p := &Plan{read: []readState{{namespaceState: have}}, opts: opts}
	if !have.Exists {
		return p, nil
	}
	name := cmp.Or(have.Summary.Name, namespace)
	var locs []string
	for _, l := range have.Locations {
		locs = append(locs, l.Name)
	}
	slices.Sort(locs)
	c := Change{Action: Delete, Kind: KindProvider, Namespace: name}
	if types := slices.Sorted(maps.Keys(have.Summary.ResourceTypes)); len(types) > 0 {
		c.Diff = append(c.Diff, FieldDiff{"resourceTypes", list(types), ""})
	}
	if len(locs) > 0 {
		c.Diff = append(c.Diff, FieldDiff{"locations", list(locs), ""})
	}
	p.read[0].Namespace = name
	p.Changes = []Change{c}
	if err := p.countResources(ctx, reg); err != nil {
		return nil, err
	}
	return p, nil
}

// childType reports whether type t is a child type (at any depth) of
// parent, ignoring case as the registry does.
func childType(t, parent string) bool {
	return strings.HasPrefix(strings.ToLower(t), strings.ToLower(parent)+"/")
}

// typeOrChild reports whether t is parent or one of its child types: what
// deleting parent deletes.
func typeOrChild(t, parent string) bool { return strings.EqualFold(t, parent) || childType(t, parent) }
