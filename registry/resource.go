package registry

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// Resource is a stored registry resource.
type Resource struct {
	ID       ID
	Location string // the ARM "location" field; "" when absent
	Tags     map[string]string
	// Properties is the canonical JSON object of the kind's properties
	// (ProviderProperties, TypeProperties, ...), without provisioningState.
	Properties json.RawMessage
	// ETag changes on every write that changes the resource; stores set
	// it.
	ETag   string
	System SystemData
}

// SystemData records who wrote a resource and when.
type SystemData struct {
	CreatedAt      time.Time
	CreatedBy      string
	LastModifiedAt time.Time
	LastModifiedBy string
}

// TypeProperties are a resource type's stored properties. Icon is the SVG
// document as sent; IconHash its api.IconHash, computed when it is stored.
type TypeProperties struct {
	DefaultAPIVersion string   `json:"defaultApiVersion,omitempty"`
	Description       string   `json:"description,omitempty"`
	Capabilities      []string `json:"capabilities,omitempty"`
	Icon              string   `json:"icon,omitempty"`
	IconHash          string   `json:"iconHash,omitempty"`
}

// WireIconHash is the iconHash a type is answered with: its icon's, or, as
// UCP answers a type registered without an icon, api.DefaultIconHash (the
// registry serves api.DefaultIcon under it).
func (p TypeProperties) WireIconHash() string {
	if p.Icon == "" {
		return api.DefaultIconHash
	}
	return p.IconHash
}

// APIVersionProperties are an API version's stored properties. Schema is
// compacted JSON, returned exactly as stored.
type APIVersionProperties struct {
	Schema json.RawMessage `json:"schema"`
	// Lifecycle, when set, is stored before the schema: the properties
	// are then not in the form StoredSchema reads, and readers decode them.
	Lifecycle *api.Lifecycle `json:"lifecycle,omitempty"`
}

// LocationProperties are a location's stored properties.
type LocationProperties struct {
	Address       string                  `json:"address,omitempty"`
	ResourceTypes map[string]LocationType `json:"resourceTypes,omitempty"`
}

// LocationType is a resource type served in a location.
type LocationType struct {
	Address     string                     `json:"address,omitempty"`
	APIVersions map[string]json.RawMessage `json:"apiVersions,omitempty"`
}

// Validate checks the names a TypeProperties refers to and its
// capabilities, with the rules udtc check applies (registry/api).
func (p TypeProperties) Validate() error {
	if p.DefaultAPIVersion != "" {
		if err := ValidateAPIVersion(p.DefaultAPIVersion); err != nil {
			return fmt.Errorf("properties.defaultApiVersion: %w", err)
		}
	}
	if probs := api.CapabilitiesProblems(p.Capabilities); len(probs) > 0 {
		q := probs[0]
		return fmt.Errorf("%w: properties.capabilities[%d] %.80q %s (capabilities are PascalCase names, like SupportsRecipes, each listed once)",
			ErrInvalid, q.Index, p.Capabilities[q.Index], q.Problem)
	}
	if p.Icon != "" {
		if msg := api.IconProblem(p.Icon); msg != "" {
			return &Error{Code: CodeInvalid, Target: "properties.icon", Message: "invalid icon: " + msg}
		}
	}
	return nil
}

// Validate checks the names a LocationProperties refers to and its
// addresses (absolute http(s) URLs, the rule udtc check applies).
func (p LocationProperties) Validate() error {
	if p.Address != "" {
		if msg := api.AddressProblem(p.Address); msg != "" {
			return fmt.Errorf("%w: properties.address %.200q %s", ErrInvalid, api.RedactAddress(p.Address), msg)
		}
	}
	for t, lt := range p.ResourceTypes {
		if lt.Address != "" {
			if msg := api.AddressProblem(lt.Address); msg != "" {
				return fmt.Errorf("%w: properties.resourceTypes.%s.address %.200q %s", ErrInvalid, t, api.RedactAddress(lt.Address), msg)
			}
		}
		if err := ValidateTypeName(t); err != nil {
			return fmt.Errorf("properties.resourceTypes: %w", err)
		}
		for v := range lt.APIVersions {
			if err := ValidateAPIVersion(v); err != nil {
				return fmt.Errorf("properties.resourceTypes.%s.apiVersions: %w", t, err)
			}
		}
	}
	return nil
}

// ProviderSummary is the read-optimised view of a provider and everything
// under it.
type ProviderSummary struct {
	Name          string
	Locations     map[string]LocationSummary
	ResourceTypes map[string]TypeSummary // keyed by unescaped type name
}

// LocationSummary is a location in a summary.
type LocationSummary struct{ Address string }

// TypeSummary is a resource type in a summary.
type TypeSummary struct {
	APIVersions map[string]json.RawMessage // version → schema
	// Lifecycles are the versions' lifecycles, for those that have one.
	Lifecycles        map[string]*api.Lifecycle
	DefaultAPIVersion string
	Description       string
	Capabilities      []string
	Icon, IconHash    string
}

// BuildSummaries assembles provider summaries from the providers, types, API
// versions and locations of one plane, in any order. Rows whose parent is not
// among the rows are ignored. The result is sorted by namespace
// (case-insensitively). Stores call it so that every store summarises alike.
func BuildSummaries(rows []Resource) ([]ProviderSummary, error) {
	byKey := map[string]*ProviderSummary{}
	typeNames := map[string]string{} // provider key + "\x00" + type key → stored name
	var order []string
	for _, r := range rows {
		if r.ID.Kind == api.KindProvider {
			k := strings.ToLower(r.ID.Provider)
			byKey[k] = &ProviderSummary{Name: r.ID.Provider, Locations: map[string]LocationSummary{}, ResourceTypes: map[string]TypeSummary{}}
			order = append(order, k)
		}
	}
	for _, r := range rows {
		if r.ID.Kind != api.KindResourceType {
			continue
		}
		p := byKey[strings.ToLower(r.ID.Provider)]
		if p == nil {
			continue
		}
		var props TypeProperties
		if err := decodeProps(r, &props); err != nil {
			return nil, err
		}
		p.ResourceTypes[r.ID.Type] = TypeSummary{
			APIVersions:       map[string]json.RawMessage{},
			DefaultAPIVersion: props.DefaultAPIVersion,
			Description:       props.Description,
			Capabilities:      props.Capabilities,
			Icon:              props.Icon,
			IconHash:          props.IconHash,
		}
		typeNames[strings.ToLower(r.ID.Provider)+"\x00"+strings.ToLower(r.ID.Type)] = r.ID.Type
	}
	for _, r := range rows {
		pk := strings.ToLower(r.ID.Provider)
		p := byKey[pk]
		if p == nil {
			continue
		}
		switch r.ID.Kind {
		case api.KindAPIVersion:
			name, ok := typeNames[pk+"\x00"+strings.ToLower(r.ID.Type)]
			if !ok {
				continue
			}
			props, err := apiVersionProps(r)
			if err != nil {
				return nil, err
			}
			ts := p.ResourceTypes[name]
			ts.APIVersions[r.ID.Name] = api.SchemaOrEmpty(props.Schema)
			if props.Lifecycle != nil {
				if ts.Lifecycles == nil {
					ts.Lifecycles = map[string]*api.Lifecycle{}
				}
				ts.Lifecycles[r.ID.Name] = props.Lifecycle
				p.ResourceTypes[name] = ts
			}
		case api.KindLocation:
			var props LocationProperties
			if err := decodeProps(r, &props); err != nil {
				return nil, err
			}
			p.Locations[r.ID.Name] = LocationSummary{Address: props.Address}
		}
	}
	slices.Sort(order)
	out := make([]ProviderSummary, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	return out, nil
}

// The stored properties of an API version are StoredSchemaHead, the
// schema compacted, StoredSchemaTail: what json.Marshal gives for
// APIVersionProperties. The server writes them around the compacted schema
// and reads the schema out of them without encoding or decoding it again.
const (
	StoredSchemaHead = `{"schema":`
	StoredSchemaTail = `}`
)

// StoredSchema returns the schema within stored API version properties;
// false when props are not in the stored form.
func StoredSchema(props json.RawMessage) (json.RawMessage, bool) {
	head, tail := len(StoredSchemaHead), len(StoredSchemaTail)
	if len(props) < head+tail || string(props[:head]) != StoredSchemaHead || string(props[len(props)-tail:]) != StoredSchemaTail {
		return nil, false
	}
	end := len(props) - tail
	return props[head:end:end], true
}

// apiVersionProps decodes the stored properties of the API version r.
// Properties in the stored form are taken apart without decoding the
// schema (a summary holds every schema of a provider): it is checked to be
// one JSON value and used as it is, as decoding would.
func apiVersionProps(r Resource) (APIVersionProperties, error) {
	if schema, ok := StoredSchema(r.Properties); ok && json.Valid(schema) {
		return APIVersionProperties{Schema: schema}, nil
	}
	var props APIVersionProperties
	err := decodeProps(r, &props)
	return props, err
}
