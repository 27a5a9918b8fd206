package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
)

// RegisterDir is `udtc serve --bootstrap DIR`: it compiles every manifest
// in dir and publishes them (without pruning) to the starting server at
// baseURL, like UCP's registration of built-in providers. It is
// idempotent: a restart with the same manifests writes nothing. Manifests
// with errors stop the start; the error carries their diagnostics. It
// does nothing when dir is "".
func RegisterDir(ctx context.Context, baseURL, token, dir string) error {
	if dir == "" {
		return nil
	}
	cat, diags, err := generator.Compile(ctx, []string{dir}, generator.Options{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		var b bytes.Buffer
		_ = diag.WriteText(&b, diags, diag.TextOptions{Source: diag.FileSource()})
		return fmt.Errorf("the manifests have errors:\n%s", b.String())
	}
	opts := []client.Option{}
	if token != "" {
		opts = append(opts, client.WithToken(token))
	}
	reg, err := client.New(baseURL, opts...)
	if err != nil {
		return err
	}
	plan, err := publish.MakePlan(ctx, reg, registration.Registrations(cat, registration.Options{}), publish.Options{})
	if err != nil {
		return err
	}
	res := publish.Apply(ctx, reg, plan, publish.ApplyOptions{Batch: true})
	var errs []error
	for _, f := range res.Failed {
		errs = append(errs, fmt.Errorf("%s %s: %w", f.Change.Action, f.Change.Name(), f.Err))
	}
	return errors.Join(errs...)
}
