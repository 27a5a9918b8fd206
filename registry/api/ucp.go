package api

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
