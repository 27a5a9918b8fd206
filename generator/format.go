package generator

import (
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
)

// FormatInput formats one input as `udtc fmt` does (manifest.Format): a
// YAML manifest in the canonical layout. A file found in a directory (not
// Named) is formatted only when it is a manifest, as Compile decides;
// JSON manifests are only loaded, never rewritten. It returns data itself
// when there is nothing to rewrite, and the diagnostics of a file that
// does not load or parse (then data too), or Format's warnings with the
// formatted file.
func FormatInput(in Input, data []byte) ([]byte, diag.List) {
	isJSON := manifest.IsJSON(in.Path)
	if !in.Named || isJSON {
		doc, diags := manifest.Load(in.Path, data)
		if !in.Named && doc != nil && !manifest.IsManifest(doc) {
			return data, nil
		}
		if isJSON {
			if diags.HasErrors() {
				return data, diags
			}
			return data, nil
		}
	}
	out, diags := manifest.Format(in.Path, data)
	if diags.HasErrors() {
		return data, diags
	}
	return out, diags
}
