package bridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/extension"
)

// BicepExtension is the registry's builder of the Bicep extension `udtc
// serve` hands out (registry/extension.Builder): the registrations as
// stored are compiled like manifests (generator.CompileRegistered) and
// packaged by the emitter `udtc gen` runs, at its default version, so the
// archive is byte for byte bicep/<name>.tgz of gen for the same
// registrations. A name that is not a Bicep identifier, or registrations
// that do not compile, are a registry.CodeInvalid error saying why.
func BicepExtension(ctx context.Context, sums []api.ProviderSummary, name string) (extension.Package, error) {
	cat, err := generator.CompileRegistered(ctx, sums)
	if err != nil {
		return extension.Package{}, registry.Errorf(registry.CodeInvalid, "", "%v", err)
	}
	pkgs, diags, err := bicep.Packages(cat, bicep.Options{ExtensionName: name})
	if err != nil {
		return extension.Package{}, err
	}
	for _, d := range diags {
		if d.Severity == diag.Error {
			return extension.Package{}, registry.Errorf(registry.CodeInvalid, "", "%s (%s)", d.Message, d.Rule)
		}
	}
	if len(pkgs) != 1 {
		return extension.Package{}, errors.New("no extension built")
	}
	p := pkgs[0]
	archive, err := p.Archive()
	if err != nil {
		return extension.Package{}, fmt.Errorf("extension %s: %w", p.Name, err)
	}
	return extension.Package{Name: p.Name, Version: p.Version, Namespaces: p.Namespaces, Archive: archive, Types: p.Types}, nil
}
