package api

// BicepExtension is one namespace in the index of the Bicep extensions a
// registry serves (GET /bicep/ of `udtc serve`).
type BicepExtension struct {
	Namespace string `json:"namespace"`
	// Extension is its extension name, as `udtc gen` names it.
	Extension string `json:"extension"`
	// Archive is the path of its archive (/bicep/NAME.tgz); Repository its
	// OCI repository under /v2/.
	Archive    string `json:"archive"`
	Repository string `json:"repository"`
}
