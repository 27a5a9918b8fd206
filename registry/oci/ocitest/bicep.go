package ocitest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// Restored is what Bicep's restore of an extension reads from a registry.
type Restored struct {
	// Digest is the manifest's digest, Manifest the manifest.
	Digest   string
	Manifest Manifest
	// Types is the extension layer: what Bicep writes to its cache as
	// types.tgz and loads the types from.
	Types []byte
}

// Manifest is an image manifest as read back.
type Manifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	ArtifactType  string            `json:"artifactType"`
	Config        Descriptor        `json:"config"`
	Layers        []Descriptor      `json:"layers"`
	Annotations   map[string]string `json:"annotations"`
}

// Descriptor is a content descriptor as read back.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations"`
}

const manifestType = "application/vnd.oci.image.manifest.v1+json"

// BicepRestore pulls repository:tag over the distribution API with plain
// HTTP GETs (Get), as Bicep's registry client does
// (OrasOciRegistryTransport.PullArtifactAsync in Azure/bicep), and fails t
// unless the artifact is what Bicep requires of an extension
// (OciExtensionArtifactResult, OciArtifactRegistry.TryWriteArtifactContent):
// an OCI image manifest (mediaType written out) with artifactType
// application/vnd.ms.bicep.provider.artifact, a config of media type
// application/vnd.ms.bicep.provider.config.v1+json holding an
// OciExtensionV1Config object, exactly one layer of media type
// application/vnd.ms.bicep.provider.layer.v1.tar+gzip (titled types.tgz,
// as Bicep titles it), the annotation bicep.serialization.format=v1, and
// blobs matching their digests and sizes. Media types compare
// case-insensitively, as in Bicep.
func (r *Registry) BicepRestore(t testing.TB, repository, tag, user, password string) Restored {
	t.Helper()
	resp, err := r.Get(context.Background(), "/v2/"+repository+"/manifests/"+tag, manifestType, user, password)
	if err != nil || resp.Status != 200 {
		t.Fatalf("GET the manifest of %s:%s: %v %d %s", repository, tag, err, resp.Status, resp.Body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != manifestType {
		t.Errorf("manifest Content-Type %q, want %q", ct, manifestType)
	}
	out := Restored{Digest: resp.Header.Get("Docker-Content-Digest")}
	if got := digestOf(resp.Body); got != out.Digest {
		t.Errorf("the manifest's digest is %s, the registry says %s", got, out.Digest)
	}
	m := &out.Manifest
	if err := json.Unmarshal(resp.Body, m); err != nil {
		t.Fatalf("manifest: %v\n%s", err, resp.Body)
	}
	if m.SchemaVersion != 2 || m.MediaType != manifestType {
		t.Errorf("schemaVersion %d, mediaType %q: want 2 and %q written out", m.SchemaVersion, m.MediaType, manifestType)
	}
	if !strings.EqualFold(m.ArtifactType, "application/vnd.ms.bicep.provider.artifact") {
		t.Errorf("artifactType %q: Bicep reads only application/vnd.ms.bicep.provider.artifact as an extension", m.ArtifactType)
	}
	if !strings.EqualFold(m.Config.MediaType, "application/vnd.ms.bicep.provider.config.v1+json") {
		t.Errorf("config mediaType %q", m.Config.MediaType)
	}
	if m.Annotations["bicep.serialization.format"] != "v1" {
		t.Errorf("manifest annotations %v: Bicep writes bicep.serialization.format=v1", m.Annotations)
	}
	var main []Descriptor
	for _, l := range m.Layers {
		if strings.EqualFold(l.MediaType, "application/vnd.ms.bicep.provider.layer.v1.tar+gzip") {
			main = append(main, l)
		}
	}
	if len(main) != 1 {
		t.Fatalf("%d layers of the Bicep extension media type, Bicep takes exactly one: %+v", len(main), m.Layers)
	}
	if main[0].Annotations["org.opencontainers.image.title"] != "types.tgz" {
		t.Errorf("layer annotations %v, want the title types.tgz", main[0].Annotations)
	}
	var config map[string]json.RawMessage
	if err := json.Unmarshal(r.blob(t, repository, m.Config, user, password), &config); err != nil {
		t.Errorf("config is not a JSON object (OciExtensionV1Config): %v", err)
	}
	for k := range config {
		if k != "localDeployEnabled" && k != "supportedArchitectures" {
			t.Errorf("config has %q, not a member of OciExtensionV1Config", k)
		}
	}
	out.Types = r.blob(t, repository, main[0], user, password)
	return out
}

func (r *Registry) blob(t testing.TB, repository string, d Descriptor, user, password string) []byte {
	t.Helper()
	resp, err := r.Get(context.Background(), "/v2/"+repository+"/blobs/"+d.Digest, "", user, password)
	if err != nil || resp.Status != 200 {
		t.Fatalf("GET blob %s: %v %d %s", d.Digest, err, resp.Status, resp.Body)
	}
	if digestOf(resp.Body) != d.Digest || int64(len(resp.Body)) != d.Size {
		t.Fatalf("blob %s: %d bytes with digest %s, the manifest says %d", d.Digest, len(resp.Body), digestOf(resp.Body), d.Size)
	}
	return resp.Body
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
