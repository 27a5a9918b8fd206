package publish_test

import (
	"context"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/publish"
)

// A lifecycle is published to udtc serve: added, then changed, each an
// update of the API version with the fields that differ; a second publish
// writes nothing, and Expected agrees with the registry.
func TestPublishSendsLifecycle(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	want := func(l *api.Lifecycle) []api.Registration {
		old := version("2025-01-01-preview", obj)
		old.Properties.Lifecycle = l
		return []api.Registration{registration("Contoso.Data", map[string][]api.APIVersion{
			"postgresDatabases": {old, version("2025-09-01", obj)},
		}, "postgresDatabases")}
	}
	apply(t, reg, planFor(t, reg, want(nil), false))
	for _, step := range []struct {
		l    *api.Lifecycle
		diff string
	}{
		{&api.Lifecycle{Deprecated: "2026-06-01", Replacement: "2025-09-01"}, "lifecycle.deprecated lifecycle.replacement"},
		{&api.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: "2025-09-01"}, "lifecycle.sunset"},
		{nil, "lifecycle.deprecated lifecycle.sunset lifecycle.replacement"},
	} {
		p := planFor(t, reg, want(step.l), false)
		var fields []string
		for _, c := range p.Changes {
			if c.Action == publish.Update {
				for _, d := range c.Diff {
					fields = append(fields, d.Field)
				}
			}
		}
		if got := strings.Join(fields, " "); got != step.diff {
			t.Errorf("lifecycle %+v: updates %q, want %q (%v)", step.l, got, step.diff, lines(p))
		}
		apply(t, reg, p)
		if again := planFor(t, reg, want(step.l), false); again.Writes() != 0 {
			t.Errorf("lifecycle %+v: a second publish writes %v", step.l, lines(again))
		}
		after, err := publish.Expected(ctx, reg, p)
		if err != nil {
			t.Fatal(err)
		}
		if after.Writes() != 0 {
			t.Errorf("lifecycle %+v: Expected writes %v", step.l, lines(after))
		}
		v, err := reg.GetAPIVersion(ctx, "Contoso.Data", "postgresDatabases", "2025-01-01-preview")
		if err != nil {
			t.Fatal(err)
		}
		if (v.Properties.Lifecycle == nil) != (step.l == nil) || step.l != nil && *v.Properties.Lifecycle != *step.l {
			t.Errorf("registered lifecycle %+v, want %+v", v.Properties.Lifecycle, step.l)
		}
	}
}

// UCP does not take a lifecycle: WithoutLifecycle drops it, with a note
// naming the version, and leaves the caller's registrations alone.
func TestWithoutLifecycle(t *testing.T) {
	old := version("2025-01-01-preview", obj)
	old.Properties.Lifecycle = &api.Lifecycle{Deprecated: "2026-06-01", Replacement: "2025-09-01"}
	want := []api.Registration{registration("Contoso.Data", map[string][]api.APIVersion{
		"postgresDatabases": {old, version("2025-09-01", obj)},
	}, "postgresDatabases")}
	out, notes := publish.WithoutLifecycle(want)
	if out[0].Types[0].APIVersions[0].Properties.Lifecycle != nil {
		t.Error("the lifecycle is still sent")
	}
	if want[0].Types[0].APIVersions[0].Properties.Lifecycle == nil {
		t.Error("the caller's registration lost its lifecycle")
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "Contoso.Data: the lifecycle of postgresDatabases@2025-01-01-preview is not sent: it is a udtc extension UCP does not take") {
		t.Errorf("notes %q", notes)
	}
}
