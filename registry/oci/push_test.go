package oci_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/oci/ocitest"
)

// typesArchive is a small types archive of the shape Bicep reads: a
// gzipped tar of index.json and types.json.
func typesArchive(t *testing.T, version string) []byte {
	t.Helper()
	index := `{"resources":{"Contoso.Test/things@2025-01-01":{"$ref":"types.json#/1"}},"resourceFunctions":{},"namespaceFunctions":[],"settings":{"name":"contosotest","version":"` + version + `","isSingleton":false}}`
	types := `[{"$type":"StringType"},{"$type":"ResourceType","name":"Contoso.Test/things@2025-01-01","body":{"$ref":"#/0"},"flags":0}]`
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range []struct{ name, data string }{{"index.json", index}, {"types.json", types}} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: e.name, Size: int64(len(e.data)), Mode: 0o644}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.data))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func newClient(t *testing.T, opts oci.Options) *oci.Client {
	t.Helper()
	if opts.DockerConfig == "" {
		opts.DockerConfig = filepath.Join(t.TempDir(), "config.json") // none
	}
	c, err := oci.NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func artifact(t *testing.T, types []byte, created time.Time) *oci.Artifact {
	t.Helper()
	a, err := oci.NewExtension(types, created)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestPush: a push is restored by Bicep's rules with the layer intact;
// pushing the same extension again changes nothing, whatever its creation
// time; other content at the tag is refused unless forced.
func TestPush(t *testing.T) {
	reg := ocitest.Start(t, ocitest.Options{})
	ctx := context.Background()
	ref := oci.Reference{Registry: reg.Host, Repository: "bicep/contosotest", Tag: "0.0.1"}
	types := typesArchive(t, "0.0.1")
	a := artifact(t, types, time.Unix(1700000000, 0))
	c := newClient(t, oci.Options{})

	res, err := c.Push(ctx, ref, a)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != oci.Pushed || res.Digest != a.Manifest.Descriptor.Digest.String() {
		t.Fatalf("first push: %+v", res)
	}
	got := reg.BicepRestore(t, ref.Repository, ref.Tag, "", "")
	if got.Digest != res.Digest || !bytes.Equal(got.Types, types) {
		t.Fatalf("restored %s with a %d-byte layer, pushed %s with %d bytes", got.Digest, len(got.Types), res.Digest, len(types))
	}
	if created := got.Manifest.Annotations["org.opencontainers.image.created"]; created != "2023-11-14T22:13:20Z" {
		t.Errorf("created %v", created)
	}

	for _, again := range []*oci.Artifact{a, artifact(t, types, time.Time{}), artifact(t, types, time.Now())} {
		res, err := c.Push(ctx, ref, again)
		if err != nil || res.Status != oci.Unchanged || res.Digest != got.Digest {
			t.Errorf("the same extension again: %+v %v, want unchanged %s", res, err, got.Digest)
		}
	}
	if again := reg.BicepRestore(t, ref.Repository, ref.Tag, "", ""); again.Digest != got.Digest {
		t.Errorf("the tag moved to %s", again.Digest)
	}

	other := artifact(t, typesArchive(t, "0.0.2"), time.Time{})
	_, err = c.Push(ctx, ref, other)
	if !errors.Is(err, oci.ErrTagExists) || !strings.Contains(err.Error(), got.Digest) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("other content at the tag: %v", err)
	}
	res, err = newClient(t, oci.Options{Force: true}).Push(ctx, ref, other)
	if err != nil || res.Status != oci.Replaced || res.Previous != got.Digest || res.Digest != other.Manifest.Descriptor.Digest.String() {
		t.Fatalf("forced: %+v %v", res, err)
	}
	if now := reg.BicepRestore(t, ref.Repository, ref.Tag, "", ""); now.Digest != res.Digest || !bytes.Equal(now.Types, other.Layer.Data) {
		t.Errorf("after --force the tag names %s", now.Digest)
	}
}

// TestPushAuth: basic and bearer challenges, with credentials given, from
// the docker config's auths and from a credential helper; wrong or missing
// credentials give the registry's reason and a hint.
func TestPushAuth(t *testing.T) {
	users := map[string]string{"ci": "s3cret"}
	for _, mode := range []struct {
		name string
		auth ocitest.Auth
		why  string // the registry's reason for a wrong password
	}{
		{"basic", ocitest.Basic, "UNAUTHORIZED"},
		{"bearer", ocitest.Bearer, "UNAUTHORIZED: invalid username or password"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			reg := ocitest.Start(t, ocitest.Options{Auth: mode.auth, Users: users})
			ctx := context.Background()
			types := typesArchive(t, "1.0.0")
			a := artifact(t, types, time.Time{})
			ref := func(repo string) oci.Reference {
				return oci.Reference{Registry: reg.Host, Repository: "bicep/" + repo, Tag: "1.0.0"}
			}

			_, err := newClient(t, oci.Options{}).Push(ctx, ref("anonymous"), a)
			var perr *oci.Error
			if !errors.As(err, &perr) || perr.Status != 401 || !strings.Contains(err.Error(), "no credentials for "+reg.Host) {
				t.Errorf("without credentials: %v", err)
			}
			_, err = newClient(t, oci.Options{Username: "ci", Password: "wrong"}).Push(ctx, ref("wrong"), a)
			if !errors.As(err, &perr) || perr.Status != 401 || !strings.Contains(perr.Reason, mode.why) || !strings.Contains(err.Error(), "--username were refused") {
				t.Errorf("a wrong password: %v", err)
			}

			if res, err := newClient(t, oci.Options{Username: "ci", Password: "s3cret"}).Push(ctx, ref("flags"), a); err != nil || res.Status != oci.Pushed {
				t.Fatalf("with --username: %+v %v", res, err)
			}
			if got := reg.BicepRestore(t, "bicep/flags", "1.0.0", "ci", "s3cret"); !bytes.Equal(got.Types, types) {
				t.Error("the restored layer differs")
			}

			auths := dockerConfig(t, fmt.Sprintf(`{"auths":{%q:{"auth":%q}}}`, reg.Host, base64.StdEncoding.EncodeToString([]byte("ci:s3cret"))))
			if res, err := newClient(t, oci.Options{DockerConfig: auths}).Push(ctx, ref("auths"), a); err != nil || res.Status != oci.Pushed {
				t.Errorf("with the docker config's auths: %+v %v", res, err)
			}

			helperDir := t.TempDir()
			script := "#!/bin/sh\nread server\n[ \"$1\" = get ] && [ \"$server\" = " + reg.Host + " ] && printf '{\"ServerURL\":\"%s\",\"Username\":\"ci\",\"Secret\":\"s3cret\"}' \"$server\"\n"
			if err := os.WriteFile(filepath.Join(helperDir, "docker-credential-udtctest"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", helperDir+string(os.PathListSeparator)+os.Getenv("PATH"))
			helper := dockerConfig(t, fmt.Sprintf(`{"credHelpers":{%q:"udtctest"}}`, reg.Host))
			if res, err := newClient(t, oci.Options{DockerConfig: helper}).Push(ctx, ref("helper"), a); err != nil || res.Status != oci.Pushed {
				t.Errorf("with a credential helper: %+v %v", res, err)
			}
		})
	}
}

func dockerConfig(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPushUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := l.Addr().String()
	l.Close() // nothing listens there now
	ref := oci.Reference{Registry: host, Repository: "bicep/x", Tag: "1"}
	_, err = newClient(t, oci.Options{}).Push(context.Background(), ref, artifact(t, typesArchive(t, "1"), time.Time{}))
	var perr *oci.Error
	if !errors.As(err, &perr) || !strings.Contains(err.Error(), "cannot reach "+host) {
		t.Errorf("%v", err)
	}
}

func TestNewClientBadDockerConfig(t *testing.T) {
	p := dockerConfig(t, "{not json")
	if _, err := oci.NewClient(oci.Options{DockerConfig: p}); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("a broken docker config: %v", err)
	}
}

// TestNewExtension: the manifest is the same bytes for the same archive and
// time, and has the members Bicep writes.
func TestNewExtension(t *testing.T) {
	types := typesArchive(t, "1")
	a := artifact(t, types, time.Unix(1700000000, 0))
	b := artifact(t, types, time.Unix(1700000000, 0).In(time.FixedZone("x", 3600)))
	if !bytes.Equal(a.Manifest.Data, b.Manifest.Data) {
		t.Errorf("the same input gave two manifests:\n%s\n%s", a.Manifest.Data, b.Manifest.Data)
	}
	want := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.ms.bicep.provider.artifact",` +
		`"config":{"mediaType":"application/vnd.ms.bicep.provider.config.v1+json","digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","size":2},` +
		`"layers":[{"mediaType":"application/vnd.ms.bicep.provider.layer.v1.tar+gzip","digest":"` + digestOf(types) + `","size":` + fmt.Sprint(len(types)) + `,"annotations":{"org.opencontainers.image.title":"types.tgz"}}],` +
		`"annotations":{"bicep.serialization.format":"v1","org.opencontainers.image.created":"2023-11-14T22:13:20Z"}}`
	if string(a.Manifest.Data) != want {
		t.Errorf("manifest\n%s\nwant\n%s", a.Manifest.Data, want)
	}
	if a.Manifest.Descriptor.Digest.String() != digestOf(a.Manifest.Data) || a.Manifest.Descriptor.MediaType != "application/vnd.oci.image.manifest.v1+json" {
		t.Errorf("manifest descriptor %+v", a.Manifest.Descriptor)
	}
	if string(a.Config.Data) != "{}" {
		t.Errorf("config %s", a.Config.Data)
	}
	if noTime := artifact(t, types, time.Time{}); strings.Contains(string(noTime.Manifest.Data), "created") {
		t.Errorf("a zero time is written: %s", noTime.Manifest.Data)
	}
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
