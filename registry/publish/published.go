package publish

import (
	"slices"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// Published is what a plan changes of API versions the registry already
// serves, and of the capabilities of registered types: the input of the
// breaking-change check, which `udtc publish` runs before it applies a
// plan. Changing a published API version may break the clients that use
// it; creating one does not. Changing a type's capabilities changes what
// Radius does with its resources (ManualResourceProvisioning).
//
// The check itself compares schemas, so it needs the registered state and
// the wanted one. Today the generator does that (it compiles Registered as
// manifests and judges the difference with the rules of `udtc breaking`,
// generator.CompareRegistered); once the one schema diff lives in a package
// the registry may import, the check can move here and read Registered and
// the plan's registrations directly.
type Published struct {
	// Registered is what the registry held, when the plan was made, of each
	// namespace whose API versions or types' capabilities the plan
	// updates, in plan order.
	Registered []api.ProviderSummary
	// updated holds the lower-cased namespaces, "ns/type" names of the
	// types whose capabilities change, and "ns/type@version" names of the
	// updated versions.
	updated map[string]bool
	// versions holds the bodies the plan PUTs to the updated versions,
	// by lower-cased "ns/type@version".
	versions map[string]*api.APIVersion
}

// Candidate returns the body the plan PUTs to the API version
// namespace/typ@version (in any case), nil when it does not update it:
// what the registry judges its stored resources against before a write
// (registry/client.CheckResources).
func (p Published) Candidate(namespace, typ, version string) *api.APIVersion {
	return p.versions[strings.ToLower(namespace+"/"+typ+"@"+version)]
}

// Published returns what p updates of published API versions and
// registered types' capabilities; Registered is empty when it updates
// none.
func (p *Plan) Published() Published {
	out := Published{updated: map[string]bool{}, versions: map[string]*api.APIVersion{}}
	read := map[string]namespaceState{}
	for _, r := range p.read {
		read[r.Namespace] = r.namespaceState
	}
	for _, c := range p.Changes {
		switch {
		case c.Action != Update:
			continue
		case c.Kind == KindAPIVersion:
		case c.Kind == KindType && slices.ContainsFunc(c.Diff, func(d FieldDiff) bool { return d.Field == "capabilities" }):
		default:
			continue
		}
		if ns := strings.ToLower(c.Namespace); !out.updated[ns] {
			out.updated[ns] = true
			out.Registered = append(out.Registered, read[c.Namespace].Summary)
		}
		out.updated[strings.ToLower(c.Name())] = true
		if c.Kind == KindAPIVersion {
			out.versions[strings.ToLower(c.Name())] = c.version
		}
	}
	return out
}

// Updates reports whether the plan updates API version version of the
// type namespace/typ (in any case), or, for version "", the capabilities
// of the type.
func (p Published) Updates(namespace, typ, version string) bool {
	name := namespace + "/" + typ
	if version != "" {
		name += "@" + version
	}
	return p.updated[strings.ToLower(name)]
}
