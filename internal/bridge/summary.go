package bridge

import (
	"strings"

	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
)

// ProviderSummary is the summary of namespace (matched case-insensitively)
// as the registry would hold it once cat is published, for commands that
// read a type from local manifests as from a registry (`udtc validate`,
// `udtc explain`). Without it, ok is false and declared names the
// namespaces cat declares.
func ProviderSummary(cat *model.Catalog, namespace string) (sum api.ProviderSummary, declared []string, ok bool) {
	sums := catalog.FromRegistrations(registration.Registrations(cat, registration.Options{}))
	for _, s := range sums {
		if strings.EqualFold(s.Name, namespace) {
			return s, nil, true
		}
		declared = append(declared, s.Name)
	}
	return api.ProviderSummary{}, declared, false
}
