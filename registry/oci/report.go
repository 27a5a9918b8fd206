package oci

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// WriteDryRun prints, for each extension, the reference it would be
// pushed to (refs[i]) with the digests and sizes of its artifact's
// manifest, config and layer (arts[i]).
func WriteDryRun(w io.Writer, exts []Extension, refs []Reference, arts []*Artifact) {
	for i, a := range arts {
		fmt.Fprintf(w, "would push %s (%s)\n", refs[i], strings.Join(exts[i].Namespaces, ", "))
		for _, b := range []struct {
			name string
			blob Blob
		}{{"manifest", a.Manifest}, {"config", a.Config}, {"layer", a.Layer}} {
			d := b.blob.Descriptor
			fmt.Fprintf(w, "  %-8s %s %7d bytes  %s\n", b.name, d.Digest, d.Size, d.MediaType)
		}
	}
}

// BicepConfig is the "extensions" member of bicepconfig.json naming each
// extension pushed to refs[i].
func BicepConfig(exts []Extension, refs []Reference) string {
	var b strings.Builder
	b.WriteString("  \"extensions\": {\n")
	for i, x := range exts {
		sep := ","
		if i == len(exts)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    %q: %q%s\n", x.Name, refs[i].String(), sep)
	}
	b.WriteString("  }\n")
	return b.String()
}

// DockerConfigPath is the docker config file: $DOCKER_CONFIG/config.json,
// else ~/.docker/config.json.
func DockerConfigPath() string {
	if d := os.Getenv("DOCKER_CONFIG"); d != "" {
		return filepath.Join(d, "config.json")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".docker", "config.json")
	}
	return filepath.Join(home, ".docker", "config.json")
}
