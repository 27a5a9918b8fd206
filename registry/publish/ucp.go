package publish

import "github.com/udtc/udtc/registry/api"

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
