package server

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/extension"
	"github.com/udtc/udtc/registry/oci"
)

// The Bicep extensions of the registrations (registry/extension), as an
// archive (GET /bicep/NAME.tgz) and over the OCI distribution API,
// read-only (/v2/...). Both are served only when Options.BicepExtension is
// set; reads obey AuthReads like every other read.

// BicepPath is where the archives are served: BicepPath+NAME+".tgz", and
// the index of the namespaces at BicepPath.
const BicepPath = "/bicep/"

// The OCI repositories of the extensions: ociRepoPrefix+NAME for one
// namespace's extension (NAME its default extension name), and
// ociAllPrefix+NAME for every namespace as one extension NAME.
const (
	ociRepoPrefix = "bicep/"
	ociAllPrefix  = "bicep/all/"
)

// ArchiveMediaType is the Content-Type of an extension archive.
const ArchiveMediaType = "application/gzip"

// extensionRoutes registers the extension routes.
func (s *Server) extensionRoutes() {
	s.mux.HandleFunc("GET "+BicepPath+"{$}", s.handle(s.bicepIndex))
	s.mux.HandleFunc("GET "+BicepPath+"{file}", s.handle(s.bicepArchive))
	s.mux.HandleFunc("GET /v2/{$}", s.handleOCI(s.ociBase))
	s.mux.HandleFunc("GET /v2/{rest...}", s.handleOCI(s.ociGet))
	s.mux.HandleFunc("/v2/", s.handleOCI(func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Allow", "GET, HEAD")
		return &ociError{code: "UNSUPPORTED", err: registry.Errorf(registry.CodeMethodNotAllowed, "", "the registry's OCI API is read-only: %s is not served (publish registrations with udtc publish)", r.Method)}
	}))
}

// extensions returns the extension cache, or an error when the server
// serves none.
func (s *Server) extensions() (*extension.Cache, error) {
	if s.ext == nil {
		return nil, registry.Errorf(registry.CodeNotFound, "", "this server does not serve Bicep extensions")
	}
	return s.ext, nil
}

// bicepIndex lists the namespaces with resource types and where each
// one's extension is.
func (s *Server) bicepIndex(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.extensions(); err != nil {
		return err
	}
	sums, err := s.svc.Summaries(r.Context(), DefaultPlane, "")
	if err != nil {
		return err
	}
	out := struct {
		Value []api.BicepExtension `json:"value"`
	}{Value: []api.BicepExtension{}}
	for _, sum := range sums {
		if len(sum.ResourceTypes) == 0 {
			continue
		}
		name := naming.BicepExtension(sum.Name)
		out.Value = append(out.Value, api.BicepExtension{Namespace: sum.Name, Extension: name,
			Archive: BicepPath + name + ".tgz", Repository: ociRepoPrefix + name})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// bicepArchive serves the archive of GET /bicep/NAME.tgz: with no
// namespace parameter, the extension of the namespace NAME names (its
// extension name or the namespace itself); with ?namespace=A&namespace=B,
// those namespaces as the one extension NAME (namespace=* for every one).
// The ETag is the archive's digest; conditional and range requests are
// answered from the cache (http.ServeContent).
func (s *Server) bicepArchive(w http.ResponseWriter, r *http.Request) error {
	c, err := s.extensions()
	if err != nil {
		return err
	}
	name, ok := strings.CutSuffix(r.PathValue("file"), ".tgz")
	if !ok || name == "" {
		return registry.Errorf(registry.CodeNotFound, "", "no extension archive %s: ask for %sNAME.tgz", r.URL.Path, BicepPath)
	}
	req := extension.Request{Namespaces: r.URL.Query()["namespace"], Name: name}
	if len(req.Namespaces) == 0 {
		req = extension.Request{Of: name}
	}
	b, err := c.Get(r.Context(), req)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("ETag", `"`+b.ArchiveDigest.String()+`"`)
	h.Set("Content-Type", ArchiveMediaType)
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Disposition", `attachment; filename="`+b.Name+`.tgz"`)
	h.Set("Udtc-Extension-Name", b.Name)
	h.Set("Udtc-Extension-Namespaces", strings.Join(b.Namespaces, ","))
	h.Set("Udtc-Extension-Tag", b.Tag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b.Archive))
	return nil
}

// requestOrigin is the scheme and host the request reached the server at:
// what a client of the catalog's sync command names as --server.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// The OCI distribution API (read-only).

// ociError is an error of the OCI API with its code
// (distribution-spec's error codes: MANIFEST_UNKNOWN, BLOB_UNKNOWN, ...).
type ociError struct {
	code string
	err  error
}

func (e *ociError) Error() string { return e.err.Error() }
func (e *ociError) Unwrap() error { return e.err }

// handleOCI adapts an OCI handler: its error is answered with the status of
// the one table (errorResponse) in the OCI error envelope.
func (s *Server) handleOCI(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Docker-Distribution-API-Version", "registry/2.0")
		err := h(w, r)
		if err == nil {
			return
		}
		status, detail := s.failure(r.Context(), r.Method, r.URL.Path, err)
		code := "NAME_UNKNOWN"
		var oe *ociError
		switch {
		case errors.As(err, &oe):
			code = oe.code
		case status == http.StatusUnauthorized:
			code = "UNAUTHORIZED"
		case status == http.StatusBadRequest:
			code = "NAME_INVALID"
		case status >= 500:
			code = "UNKNOWN"
		}
		noteErrorCode(w, code)
		writeJSON(w, status, map[string]any{"errors": []map[string]string{{"code": code, "message": detail.Message}}})
	}
}

func (s *Server) ociBase(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.extensions(); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct{}{})
	return nil
}

// ociGet serves /v2/REPO/manifests/REF, /v2/REPO/blobs/DIGEST and
// /v2/REPO/tags/list (GET and HEAD).
func (s *Server) ociGet(w http.ResponseWriter, r *http.Request) error {
	c, err := s.extensions()
	if err != nil {
		return err
	}
	rest := r.PathValue("rest")
	var repo, kind, ref string
	switch {
	case strings.HasSuffix(rest, "/tags/list"):
		repo, kind = strings.TrimSuffix(rest, "/tags/list"), "tags"
	default:
		for _, k := range []string{"/manifests/", "/blobs/"} {
			if i := strings.LastIndex(rest, k); i > 0 {
				repo, kind, ref = rest[:i], strings.Trim(k, "/"), rest[i+len(k):]
				break
			}
		}
	}
	if repo == "" {
		return &ociError{code: "UNSUPPORTED", err: registry.Errorf(registry.CodeNotFound, "", "no OCI route for %s", r.URL.Path)}
	}
	req, err := ociRequest(repo)
	if err != nil {
		return err
	}
	b, err := c.Get(r.Context(), req)
	if err != nil {
		if registry.CodeOf(err) == registry.CodeNamespaceNotFound {
			return &ociError{code: "NAME_UNKNOWN", err: err}
		}
		return err
	}
	// A digest or content tag of content built before (the registrations
	// moved on since) is still served while the cache keeps it; every
	// build of the repository has the same request, hence its name.
	older := func(match func(*extension.Built) bool) *extension.Built {
		if match(b) {
			return b
		}
		return c.Find(func(o *extension.Built) bool { return o.Name == b.Name && match(o) })
	}
	switch kind {
	case "tags":
		writeJSON(w, http.StatusOK, struct {
			Name string   `json:"name"`
			Tags []string `json:"tags"`
		}{repo, b.Tags()})
		return nil
	case "manifests":
		var m *extension.Built
		if d, err := digest.Parse(ref); err == nil {
			m = older(func(o *extension.Built) bool { return o.Artifact.Manifest.Descriptor.Digest == d })
		} else if ref == extension.Latest {
			m = b
		} else {
			m = older(func(o *extension.Built) bool { return o.Tag == ref })
		}
		if m == nil {
			return &ociError{code: "MANIFEST_UNKNOWN", err: registry.Errorf(registry.CodeNotFound, ref, "%s has no manifest %s (tags: %s)", repo, ref, strings.Join(b.Tags(), ", "))}
		}
		serveBlob(w, r, m.Artifact.Manifest)
		return nil
	default:
		d, err := digest.Parse(ref)
		if err != nil {
			return &ociError{code: "DIGEST_INVALID", err: registry.Errorf(registry.CodeInvalid, ref, "%q is not a digest", ref)}
		}
		var found *oci.Blob
		older(func(o *extension.Built) bool {
			for _, bl := range []*oci.Blob{&o.Artifact.Config, &o.Artifact.Layer, &o.Artifact.Manifest} {
				if bl.Descriptor.Digest == d {
					found = bl
					return true
				}
			}
			return false
		})
		if found == nil {
			return &ociError{code: "BLOB_UNKNOWN", err: registry.Errorf(registry.CodeNotFound, ref, "%s has no blob %s", repo, ref)}
		}
		serveBlob(w, r, *found)
		return nil
	}
}

// ociRequest is the extension an OCI repository names.
func ociRequest(repo string) (extension.Request, error) {
	if name, ok := strings.CutPrefix(repo, ociAllPrefix); ok && name != "" && !strings.Contains(name, "/") {
		return extension.Request{Namespaces: []string{extension.All}, Name: name}, nil
	}
	if name, ok := strings.CutPrefix(repo, ociRepoPrefix); ok && name != "" && !strings.Contains(name, "/") {
		return extension.Request{Of: name}, nil
	}
	return extension.Request{}, &ociError{code: "NAME_UNKNOWN", err: registry.Errorf(registry.CodeNotFound, repo,
		"no repository %s: the registry serves %sNAME (one namespace's extension) and %sNAME (every namespace as one extension)", repo, ociRepoPrefix, ociAllPrefix)}
}

// serveBlob answers with a blob or manifest: its media type, digest and
// length; HEAD without the body; conditional and range requests as
// http.ServeContent does.
func serveBlob(w http.ResponseWriter, r *http.Request, b oci.Blob) {
	h := w.Header()
	ct := b.Descriptor.MediaType
	if ct != ocispec.MediaTypeImageManifest {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Docker-Content-Digest", b.Descriptor.Digest.String())
	h.Set("ETag", `"`+b.Descriptor.Digest.String()+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b.Data))
}
