package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// The wire forms (registry/api) of the stored resources: the bodies the
// registry answers with, written once for the server and for the readers
// that call the service directly (the git sync).

// DefaultLocation is the location of a resource, resource group, plane or
// provider whose body names none.
const DefaultLocation = "global"

// Wire returns the response body of the stored resource r.
func (r Resource) Wire() (api.Resource[any], error) {
	out := r.wireEnvelope()
	switch r.ID.Kind {
	case api.KindPlane:
		out.Properties = api.PlaneProperties{ProvisioningState: api.ProvisioningSucceeded}
	case api.KindProvider:
		out.Properties = api.ResourceProviderProperties{ProvisioningState: api.ProvisioningSucceeded}
	case api.KindResourceType:
		var p TypeProperties
		if err := decodeProps(r, &p); err != nil {
			return out, err
		}
		out.Properties = api.ResourceTypeProperties{DefaultAPIVersion: p.DefaultAPIVersion, Description: p.Description,
			Capabilities: p.Capabilities, Icon: p.Icon, IconHash: p.WireIconHash(), ProvisioningState: api.ProvisioningSucceeded}
	case api.KindAPIVersion:
		var p APIVersionProperties
		if err := decodeProps(r, &p); err != nil {
			return out, err
		}
		out.Properties = api.APIVersionProperties{Schema: api.SchemaOrEmpty(p.Schema), Lifecycle: p.Lifecycle, ProvisioningState: api.ProvisioningSucceeded}
	case api.KindLocation:
		lp, err := r.wireLocation()
		if err != nil {
			return out, err
		}
		out.Properties = lp
	}
	return out, nil
}

// WireLocation returns the body of the stored location r.
func (r Resource) WireLocation() (api.Location, error) {
	env := r.wireEnvelope()
	lp, err := r.wireLocation()
	return api.Location{ID: env.ID, Name: env.Name, Type: env.Type, Location: env.Location, Tags: env.Tags,
		Properties: lp, SystemData: env.SystemData, ETag: r.ETag}, err
}

// wireEnvelope is r's body without its properties.
func (r Resource) wireEnvelope() api.Resource[any] {
	out := api.Resource[any]{
		ID:         r.ID.String(),
		Name:       api.EscapeTypeName(r.ID.Leaf()),
		Type:       r.ID.Kind.WireType(),
		Location:   r.Location,
		Tags:       r.Tags,
		SystemData: r.System.Wire(),
	}
	if r.ID.Kind == api.KindResourceType {
		out.Name = r.ID.Type // the name is the type as registered: "contosoBuses/queues"
	}
	return out
}

func (r Resource) wireLocation() (api.LocationProperties, error) {
	var p LocationProperties
	if err := decodeProps(r, &p); err != nil {
		return api.LocationProperties{}, err
	}
	// Addresses stored before credentials were refused never show them.
	lp := api.LocationProperties{Address: api.RedactAddress(p.Address), ResourceTypes: map[string]api.LocationResourceType{},
		ProvisioningState: api.ProvisioningSucceeded}
	for t, lt := range p.ResourceTypes {
		vs := map[string]api.LocationAPIVersion{}
		for v := range lt.APIVersions {
			vs[v] = api.LocationAPIVersion{}
		}
		lp.ResourceTypes[t] = api.LocationResourceType{Address: api.RedactAddress(lt.Address), APIVersions: vs}
	}
	return lp, nil
}

// Wire returns the systemData of a response body.
func (sd SystemData) Wire() *api.SystemData {
	out := &api.SystemData{
		CreatedBy:      sd.CreatedBy,
		CreatedAt:      formatTime(sd.CreatedAt),
		LastModifiedBy: sd.LastModifiedBy,
		LastModifiedAt: formatTime(sd.LastModifiedAt),
	}
	if sd.CreatedBy != "" {
		out.CreatedByType = "User"
	}
	if sd.LastModifiedBy != "" {
		out.LastModifiedByType = "User"
	}
	return out
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// Wire returns the body of GET /planes/radius/{plane}/providers/{namespace}.
func (sum ProviderSummary) Wire() api.ProviderSummary {
	out := api.ProviderSummary{
		Name:          sum.Name,
		Locations:     make(map[string]api.LocationSummary, len(sum.Locations)),
		ResourceTypes: make(map[string]api.ResourceTypeSummary, len(sum.ResourceTypes)),
	}
	for name, l := range sum.Locations {
		out.Locations[name] = api.LocationSummary{Address: api.RedactAddress(l.Address)}
	}
	for name, t := range sum.ResourceTypes {
		ts := api.ResourceTypeSummary{
			APIVersions:       make(map[string]api.APIVersionSummary, len(t.APIVersions)),
			DefaultAPIVersion: t.DefaultAPIVersion,
			Description:       t.Description,
			Capabilities:      t.Capabilities,
			Icon:              t.Icon,
			IconHash:          TypeProperties{Icon: t.Icon, IconHash: t.IconHash}.WireIconHash(),
		}
		for v, schema := range t.APIVersions {
			ts.APIVersions[v] = api.APIVersionSummary{Schema: schema, Lifecycle: t.Lifecycles[v]}
		}
		out.ResourceTypes[name] = ts
	}
	return out
}

// WireSummaries returns the wire form of each summary.
func WireSummaries(sums []ProviderSummary) []api.ProviderSummary {
	wire := make([]api.ProviderSummary, len(sums))
	for i, sum := range sums {
		wire[i] = sum.Wire()
	}
	return wire
}

// Wire returns the body of the stored resource group g.
func (g Group) Wire() api.ResourceGroup {
	return api.ResourceGroup{
		ID: g.ID.String(), Name: g.ID.Name, Type: api.TypeResourceGroup,
		Location: g.Location, Tags: g.Tags,
		Properties: api.ResourceGroupProperties{ProvisioningState: api.ProvisioningSucceeded},
		SystemData: g.System.Wire(),
	}
}

// Wire returns the body of the stored resource in: its public properties
// with provisioningState, never its secrets.
func (in Instance) Wire() api.Instance {
	return api.Instance{
		ID: in.ID.String(), Name: in.ID.Name(), Type: in.ID.Type(),
		Location: in.Location, Tags: in.Tags,
		Properties: withProvisioningState(in.Properties),
		SystemData: in.System.Wire(),
	}
}

// withProvisioningState adds provisioningState to a stored properties
// object (compact JSON, as stores return it).
func withProvisioningState(props json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(props)
	if len(t) < 2 || t[0] != '{' {
		t = []byte(`{}`)
	}
	out := make([]byte, 0, len(t)+40)
	out = append(out, t[:len(t)-1]...)
	if len(bytes.TrimSpace(t[1:len(t)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"provisioningState":"`+api.ProvisioningSucceeded+`"}`...)
	return out
}

// decodeProps decodes the stored properties of r into v.
func decodeProps(r Resource, v any) error {
	if len(r.Properties) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Properties, v); err != nil {
		return fmt.Errorf("stored properties of %s: %w", r.ID, err)
	}
	return nil
}
