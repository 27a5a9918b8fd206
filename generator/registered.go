package generator

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing/fstest"

	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// CompareRegistered is the generator's half of publish's breaking-change
// check (registry/publish.Published): what a registry holds of some
// namespaces (registered) is compiled like manifests and compared with cat
// by the rules of `udtc breaking` (compat.Compare). It returns the errors
// of the wire category of the API versions updated reports, the changes a
// publish refuses unless a compat.Policy allows them, and the
// manual-provisioning-changed warnings of the types updated reports (with
// version ""), which it shows; their Old span, a position in the synthetic
// manifest of the registry's state, is cleared.
func CompareRegistered(ctx context.Context, registered []api.ProviderSummary, cat *model.Catalog, updated func(namespace, typ, version string) bool) ([]compat.Finding, error) {
	if len(registered) == 0 {
		return nil, nil
	}
	old, err := CompileRegistered(ctx, registered)
	if err != nil {
		return nil, fmt.Errorf("%w, so it cannot be compared (--allow-breaking skips the check)", err)
	}
	findings, err := compat.Compare(old, cat)
	if err != nil {
		return nil, err
	}
	var out []compat.Finding
	for _, fd := range findings {
		breaking := fd.Severity == diag.Error && fd.Category == compat.Wire && fd.Version != ""
		if (breaking || fd.Rule == compat.RuleManualProvisioning) && updated(fd.Namespace, fd.Type, fd.Version) {
			fd.Old = diag.Span{}
			out = append(out, fd)
		}
	}
	return out, nil
}

// CompileRegistered compiles what a registry holds of some namespaces
// (registered) like manifests: the registrations as stored, so base
// properties merged by whoever registered them are there and those
// registered without them stay without (Options.NoBaseProperties). It is
// the model of a registry's state for publish's comparison and for the
// Bicep extension `udtc serve` hands out (internal/bridge). Registrations
// that do not compile are an error naming the type and API version of the
// first diagnostic, and the diagnostic.
func CompileRegistered(ctx context.Context, registered []api.ProviderSummary) (*model.Catalog, error) {
	fsys := fstest.MapFS{}
	for _, sum := range registered {
		b, err := registeredManifest(sum)
		if err != nil {
			return nil, err
		}
		fsys[sum.Name+".json"] = &fstest.MapFile{Data: b}
	}
	cat, diags, err := CompileFS(ctx, fsys, []string{"."}, Options{FilePrefix: "registry:", NoBaseProperties: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("the registered schema of %s does not compile: %s", registeredAt(diags), firstError(diags))
	}
	return cat, nil
}

// registeredAt names the type and API version of the first error of l, a
// position in the synthetic manifest of a registry's namespace
// ("registry:Contoso.Data.json", /types/caches/apiVersions/2025-01-01/...),
// or the namespace alone.
func registeredAt(l diag.List) string {
	for _, d := range l {
		if d.Severity != diag.Error {
			continue
		}
		ns := strings.TrimSuffix(strings.TrimPrefix(d.Span.File, "registry:"), ".json")
		parts := strings.Split(d.Path, "/") // "", "types", type, "apiVersions", version, ...
		switch {
		case len(parts) >= 5 && parts[1] == "types" && parts[3] == "apiVersions":
			return ns + "/" + schema.UnescapePointerToken(parts[2]) + "@" + parts[4]
		case len(parts) >= 3 && parts[1] == "types":
			return ns + "/" + schema.UnescapePointerToken(parts[2])
		}
		return ns
	}
	return ""
}

func firstError(l diag.List) string {
	for _, d := range l {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return ""
}

// registeredManifest writes a provider summary as a JSON manifest.
func registeredManifest(sum api.ProviderSummary) ([]byte, error) {
	type version struct {
		Schema json.RawMessage `json:"schema"`
	}
	type typ struct {
		Description       string             `json:"description,omitempty"`
		Capabilities      []string           `json:"capabilities,omitempty"`
		DefaultAPIVersion string             `json:"defaultApiVersion,omitempty"`
		APIVersions       map[string]version `json:"apiVersions"`
	}
	m := struct {
		Namespace string         `json:"namespace"`
		Types     map[string]typ `json:"types"`
	}{Namespace: sum.Name, Types: map[string]typ{}}
	for name, t := range sum.ResourceTypes {
		vs := map[string]version{}
		for v, s := range t.APIVersions {
			// rad registers schemas without a root type (schema.ImplyObjectTypes
			// reads them as the registry does).
			vs[v] = version{Schema: schema.ImplyObjectTypes(api.SchemaOrEmpty(s.Schema))}
		}
		m.Types[name] = typ{t.Description, t.Capabilities, t.DefaultAPIVersion, vs}
	}
	return json.Marshal(m)
}
