package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/udtc/udtc/schema"
)

// Radius's UCP, the control plane whose registration API the registry
// speaks: where its clients send requests, and how a client tells udtc
// serve from UCP itself.

// BasePath is the prefix under which UCP serves its API, and under which
// Radius's clients (rad, whose workspace names the server's root in
// overrides.ucp) send every request. udtc serve answers with and without
// it.
const BasePath = "/apis/api.ucp.dev/v1alpha3"

// VersionHeader is the response header by which udtc serve names itself
// and its version on every response. A server that does not send it is
// taken for Radius's UCP.
const VersionHeader = "X-Udtc-Version"

// DiscoveryDocument is what GET BasePath answers: UCP's Kubernetes API
// discovery document, which rad reads to know that Radius is installed.
type DiscoveryDocument struct {
	APIVersion   string     `json:"apiVersion"`
	GroupVersion string     `json:"groupVersion"`
	Kind         string     `json:"kind"`
	Resources    []struct{} `json:"resources"`
}

// Discovery returns the discovery document of BasePath.
func Discovery() DiscoveryDocument {
	return DiscoveryDocument{APIVersion: "v1alpha3", GroupVersion: "api.ucp.dev/v1alpha3", Kind: "APIResourceList", Resources: []struct{}{}}
}

// UCP's name patterns, from Radius's description of its API (the path
// parameters of the registrations), which UCP enforces on every request:
// narrower than the registry's own rules (names.go).
var (
	UCPNamespacePattern = regexp.MustCompile(`^([A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9]))\.([A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9]))?$`)
	UCPTypePattern      = regexp.MustCompile(`^([A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9]))$`)
	UCPLocationPattern  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)
)

// rad's name rules (pkg/cli/manifest): two PascalCase segments of at least
// two characters, and camelCase type names of at least two. rad refuses a
// manifest that breaks them; UCP's own patterns above are laxer.
var (
	radNamespacePattern = regexp.MustCompile(`^[A-Z][A-Za-z0-9]+\.[A-Z][A-Za-z0-9]+$`)
	radTypePattern      = regexp.MustCompile(`^[a-z][A-Za-z0-9]+$`)
)

// RadNamespaceOK reports whether rad accepts the namespace.
func RadNamespaceOK(ns string) bool { return radNamespacePattern.MatchString(ns) }

// RadTypeNameOK reports whether rad accepts the type name (a child type's
// segments each, for the checker's warning under target: udtc).
func RadTypeNameOK(name string) bool { return radTypePattern.MatchString(name) }

// CapabilityManualResourceProvisioning is the capability of a resource
// type whose resources Radius does not provision: a PUT only stores the
// resource and a DELETE only removes it, no recipe runs.
const CapabilityManualResourceProvisioning = "ManualResourceProvisioning"

// UCPCapabilities are the resource type capabilities UCP accepts; it
// refuses a type with any other.
var UCPCapabilities = []string{CapabilityManualResourceProvisioning}

// UCPProblems lists, one line each, what of reg Radius's UCP cannot hold:
// child types, capabilities it does not know, names its patterns refuse,
// schemas Radius cannot deploy (RadiusSchemaProblems), and per-type
// addresses of a location (which UCP drops). Publishing any
// part of such a namespace to UCP would leave it half written.
func UCPProblems(reg Registration) []string {
	var out []string
	switch {
	case !UCPNamespacePattern.MatchString(reg.Namespace):
		out = append(out, fmt.Sprintf("namespace %s: UCP needs each of its two segments to be at least two characters", reg.Namespace))
	case !RadNamespaceOK(reg.Namespace):
		out = append(out, fmt.Sprintf("namespace %s: rad refuses it (two PascalCase segments, like Contoso.Data)", reg.Namespace))
	}
	for _, rt := range reg.Types {
		name := rt.Type.Name
		switch {
		case strings.Contains(name, "/"):
			out = append(out, fmt.Sprintf("child resource type %s (UCP has no child types)", name))
		case !UCPTypePattern.MatchString(name):
			out = append(out, fmt.Sprintf("resource type %s (UCP needs a type name of at least two characters)", name))
		case !RadTypeNameOK(name):
			out = append(out, fmt.Sprintf("resource type %s (rad refuses it: camelCase, like postgresDatabases)", name))
		}
		for _, c := range rt.Type.Properties.Capabilities {
			if !slices.Contains(UCPCapabilities, c) {
				out = append(out, fmt.Sprintf("capability %s of %s (UCP knows only %s)", c, name, strings.Join(UCPCapabilities, ", ")))
			}
		}
	}
	for _, rt := range reg.Types {
		for _, v := range rt.APIVersions {
			for _, p := range RadiusSchemaProblems(v.Properties.Schema) {
				out = append(out, fmt.Sprintf("%s@%s at %s", rt.Type.Name, v.Name, p))
			}
		}
	}
	for _, l := range reg.Locations {
		if !UCPLocationPattern.MatchString(l.Name) {
			out = append(out, fmt.Sprintf("location %s (UCP location names are letters and digits)", l.Name))
		}
		for _, t := range slices.Sorted(maps.Keys(l.Properties.ResourceTypes)) {
			if l.Properties.ResourceTypes[t].Address != "" {
				out = append(out, fmt.Sprintf("address of %s in location %s (UCP keeps one address per location and would drop it)", t, l.Name))
			}
		}
	}
	return out
}

// RadiusReservedProperties are the properties Radius reserves at the root
// of every schema (pkg/schema, checkReservedProperties): rad refuses a
// schema that declares them.
var RadiusReservedProperties = []string{"status", "recipe"}

// SchemaProblem is one thing of a schema Radius cannot take: where it is
// (a JSON pointer into the schema) and why.
type SchemaProblem struct {
	Path    string
	Message string
}

// String is the problem as one line: where, then why.
func (p SchemaProblem) String() string {
	at := p.Path
	if at == "" {
		at = "the root"
	}
	return at + ": " + p.Message
}

// The rules of what Radius cannot deploy in a schema, one home for the
// checker (which applies them to the manifest's nodes as it reads them, at
// their lines: its radius-unsupported rule) and for RadiusSchemaProblems
// (which applies them to a registered schema before publish sends it to
// UCP). Radius's dynamic resource provider validates every resource PUT
// against the stored schema with kin-openapi's document validation first
// (pkg/schema, ValidateResourceAgainstSchema), so a schema that fails it
// fails every deploy of its type; rad refuses the reserved root properties
// at registration.
const (
	// RadiusRefProblem: Radius resolves no $ref.
	RadiusRefProblem = "Radius resolves no $ref: write the schema out"
	// RadiusAnyProblem: `type: any` outside RadiusAnyAllowed.
	RadiusAnyProblem = "Radius allows type any only as the additionalProperties of platformOptions"
)

// RadiusAnyAllowed reports whether a node at path (a JSON pointer) may be
// `type: any` for Radius: only platformOptions' additionalProperties.
func RadiusAnyAllowed(path string) bool {
	return strings.HasSuffix(path, "/properties/platformOptions/additionalProperties")
}

// RadiusPatternProblem says why Radius cannot run pattern p, or "": it
// validates with Go's regexp, which must compile p as written.
func RadiusPatternProblem(p string) string {
	if _, err := regexp.Compile(p); err != nil {
		return fmt.Sprintf("Radius validates patterns with Go's regexp, which does not compile %q as written", p)
	}
	return ""
}

// RadiusReservedProblem says that root property name is reserved by
// Radius, or "".
func RadiusReservedProblem(name string) string {
	if slices.Contains(RadiusReservedProperties, name) {
		return fmt.Sprintf("property %s is reserved by Radius", name)
	}
	return ""
}

// RadiusSchemaProblems lists what of an API version's schema, as
// registered, Radius cannot deploy (the rules above), in document order.
// A schema that is not JSON is left to the registry's own check.
func RadiusSchemaProblems(raw json.RawMessage) []SchemaProblem {
	root, err := schema.Decode(raw)
	if err != nil {
		return nil
	}
	var out []SchemaProblem
	for _, p := range root.Properties {
		if msg := RadiusReservedProblem(p.Name); msg != "" {
			out = append(out, SchemaProblem{p.Schema.Path, msg})
		}
	}
	schema.Walk(root, func(s *schema.Schema) bool {
		if _, ok := s.Written("$ref"); ok {
			out = append(out, SchemaProblem{s.Path, RadiusRefProblem})
			return false
		}
		if t, ok := s.Written("type"); ok && string(t) == `"any"` && !RadiusAnyAllowed(s.Path) {
			out = append(out, SchemaProblem{s.Path, RadiusAnyProblem})
		}
		if s.Pattern != "" {
			if msg := RadiusPatternProblem(s.Pattern); msg != "" {
				out = append(out, SchemaProblem{s.Path, msg})
			}
		}
		return true
	})
	return out
}
