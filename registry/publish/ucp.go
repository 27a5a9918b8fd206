package publish

import (
	"fmt"

	"github.com/udtc/udtc/registry/api"
)

// ForUCP returns the registrations of want that Radius's UCP can hold,
// and for each of the others one line per problem (api.UCPProblems),
// prefixed with its namespace: nothing of such a namespace is to be read
// or written, so that UCP is never left with half of it (a type's API
// versions without the type).
func ForUCP(want []api.Registration) (kept []api.Registration, refused []string) {
	for _, w := range want {
		probs := api.UCPProblems(w)
		if len(probs) == 0 {
			kept = append(kept, w)
			continue
		}
		for _, p := range probs {
			refused = append(refused, w.Namespace+": not published to Radius: "+p)
		}
	}
	return kept, refused
}

// WithoutLifecycle returns want without the API versions' lifecycles, a
// udtc extension UCP does not take, and one note per version that had
// one, prefixed with its namespace: Radius's clients will not hear of the
// deprecation. want is not modified.
func WithoutLifecycle(want []api.Registration) (out []api.Registration, notes []string) {
	out = make([]api.Registration, len(want))
	for i, w := range want {
		types := make([]api.RegisteredType, len(w.Types))
		for j, rt := range w.Types {
			versions := make([]api.APIVersion, len(rt.APIVersions))
			for k, v := range rt.APIVersions {
				if v.Properties.Lifecycle != nil {
					notes = append(notes, fmt.Sprintf("%s: the lifecycle of %s@%s is not sent: it is a udtc extension UCP does not take, so Radius's clients are not told of the deprecation (%s)",
						w.Namespace, rt.Type.Name, v.Name, v.Properties.Lifecycle.Notice(w.Namespace+"/"+rt.Type.Name, v.Name)))
					v.Properties.Lifecycle = nil
				}
				versions[k] = v
			}
			rt.APIVersions = versions
			types[j] = rt
		}
		w.Types = types
		out[i] = w
	}
	return out, notes
}
