// Package oci puts Bicep extensions into OCI registries (`udtc
// publish-extension`). It owns the artifact Bicep's registry client reads
// (BicepMediaTypes, OciExtensionArtifactResult and
// OciArtifactRegistry.PublishExtension in Azure/bicep), the br: references
// of bicepconfig.json and where each extension goes (Target, Assign), and
// the push itself, through oras-go with the credentials container tools use.
//
// It takes an extension's types archive as bytes: it imports nothing of the
// generator (registry never does). cmd/udtc builds the archive with
// generator/emit/bicep, the writer `udtc gen` uses, and hands it here.
package oci

import (
	"encoding/json"
	"time"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// The media types of a Bicep extension artifact and the annotations Bicep
// writes (Azure/bicep src/Bicep.Core/Registry/Oci/BicepMediaTypes.cs and
// OciArtifactRegistry.PublishExtension). Bicep reads an artifact as an
// extension when the manifest's artifactType is ArtifactType, its config's
// media type is ConfigMediaType and exactly one layer is a LayerMediaType:
// that layer is the types archive (restored as types.tgz).
const (
	ArtifactType    = "application/vnd.ms.bicep.provider.artifact"
	ConfigMediaType = "application/vnd.ms.bicep.provider.config.v1+json"
	LayerMediaType  = "application/vnd.ms.bicep.provider.layer.v1.tar+gzip"
	// LayerTitle is the org.opencontainers.image.title of the layer.
	LayerTitle = "types.tgz"
	// AnnotationSerializationFormat is the manifest annotation Bicep sets
	// to SerializationFormatV1.
	AnnotationSerializationFormat = "bicep.serialization.format"
	SerializationFormatV1         = "v1"
)

// extensionConfig is the config blob: Bicep's OciExtensionV1Config for an
// extension without local-deploy binaries, whose null properties Bicep
// leaves out. It is the empty JSON object.
var extensionConfig = []byte("{}")

// Blob is a descriptor and the content it describes.
type Blob struct {
	Descriptor ocispec.Descriptor
	Data       []byte
}

func blob(mediaType string, data []byte, annotations map[string]string) Blob {
	return Blob{
		Descriptor: ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(data), Size: int64(len(data)), Annotations: annotations},
		Data:       data,
	}
}

// Artifact is a Bicep extension artifact ready to push: the image manifest
// and the two blobs it names.
type Artifact struct {
	Manifest Blob // media type ocispec.MediaTypeImageManifest
	Config   Blob
	Layer    Blob
}

// NewExtension returns the artifact of an extension whose types archive
// (index.json, types.json, ...: the types.tgz of the extension package) is
// types. The manifest holds nothing that changes from run to run: created
// is its org.opencontainers.image.created annotation (Bicep writes the
// time of the push there), left out when zero, so the same types archive
// and time give the same manifest digest.
func NewExtension(types []byte, created time.Time) (*Artifact, error) {
	a := &Artifact{
		Config: blob(ConfigMediaType, extensionConfig, nil),
		Layer:  blob(LayerMediaType, types, map[string]string{ocispec.AnnotationTitle: LayerTitle}),
	}
	annotations := map[string]string{AnnotationSerializationFormat: SerializationFormatV1}
	if !created.IsZero() {
		annotations[ocispec.AnnotationCreated] = created.UTC().Format(time.RFC3339)
	}
	m := ocispec.Manifest{
		Versioned:    specs.Versioned{SchemaVersion: 2},
		MediaType:    ocispec.MediaTypeImageManifest,
		ArtifactType: ArtifactType,
		Config:       a.Config.Descriptor,
		Layers:       []ocispec.Descriptor{a.Layer.Descriptor},
		Annotations:  annotations,
	}
	// encoding/json writes struct fields in order and map keys sorted: the
	// bytes depend on the content alone.
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	a.Manifest = blob(ocispec.MediaTypeImageManifest, data, nil)
	return a, nil
}

// sameContent reports whether the manifest m names the same extension as
// a: the same artifact type, config and layers. Annotations (a creation
// time, or whatever another tool added) do not count.
func (a *Artifact) sameContent(m ocispec.Manifest) bool {
	if m.ArtifactType != ArtifactType || m.Config.Digest != a.Config.Descriptor.Digest || m.Config.MediaType != ConfigMediaType || len(m.Layers) != 1 {
		return false
	}
	l := m.Layers[0]
	return l.Digest == a.Layer.Descriptor.Digest && l.MediaType == LayerMediaType
}
