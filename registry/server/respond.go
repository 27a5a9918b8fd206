package server

import (
	"fmt"
	"net/http"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// Encoding the answers.

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := service.Marshal(v)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `{"error":{"code":%q,"message":"encoding the response failed"}}`, api.CodeInternal)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// writeEncoded writes an encoded response with its ETag.
func writeEncoded(w http.ResponseWriter, status int, e cachedResponse) {
	h := w.Header()
	if e.etag != "" {
		h.Set("ETag", `"`+e.etag+`"`)
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(e.body)
}

// writeTagged writes v with status and the ETag etag.
func writeTagged(w http.ResponseWriter, status int, etag string, v any) {
	w.Header().Set("ETag", `"`+etag+`"`)
	writeJSON(w, status, v)
}

// writeCacheable writes v as a 200 response with etag ("" for none) and,
// when at allows, keeps the encoded response in the response cache under
// key (respcache.go).
func (s *Server) writeCacheable(w http.ResponseWriter, key string, at service.At, etag string, v any) {
	b, err := service.Marshal(v)
	if err != nil {
		if etag != "" {
			w.Header().Set("ETag", `"`+etag+`"`)
		}
		writeJSON(w, http.StatusOK, v) // writes the encoding error's 500
		return
	}
	s.writeCached(w, key, at, cachedResponse{etag: etag, body: append(b, '\n')})
}

// writeCached writes the encoded 200 response e and, when at allows, keeps
// it in the response cache under key.
func (s *Server) writeCached(w http.ResponseWriter, key string, at service.At, e cachedResponse) {
	s.cache.store(at, key, e)
	writeEncoded(w, http.StatusOK, e)
}

func createdStatus(created bool) int {
	if created {
		return http.StatusCreated
	}
	return http.StatusOK
}

// writeDeleted answers a DELETE with the service's result: its error as it
// is, else 200 when something was deleted and 204 when nothing was there.
func writeDeleted(w http.ResponseWriter, deleted bool, err error) error {
	switch {
	case err != nil:
		return err
	case deleted:
		w.WriteHeader(http.StatusOK)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
	return nil
}

// listPage reads r's list options ($top, $skipToken), lists one page
// with them and writes it (writeList).
func listPage[T, W any](w http.ResponseWriter, r *http.Request, list func(registry.ListOptions) (items []T, next string, err error), conv func(T) (W, error)) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	items, next, err := list(opts)
	if err != nil {
		return err
	}
	return writeList(w, r, opts.Top, items, next, conv)
}

// writeList writes one page of a list, conv giving each item's wire form,
// and when more follow (next is not empty) the nextLink that resumes after
// the page.
func writeList[T, W any](w http.ResponseWriter, r *http.Request, top int, items []T, next string, conv func(T) (W, error)) error {
	out := api.List[W]{Value: make([]W, 0, len(items))}
	for _, it := range items {
		v, err := conv(it)
		if err != nil {
			return err
		}
		out.Value = append(out.Value, v)
	}
	if next != "" {
		out.NextLink = nextLink(r, top, next)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// writeResource writes the stored registration res as the answer to its
// PUT. The schema of an API version, which the service compacted and
// checked, is written as it was stored, not decoded and encoded again
// (encodeAPIVersion); the other kinds' small properties go through Wire.
func writeResource(w http.ResponseWriter, status int, res registry.Resource) error {
	if res.ID.Kind == api.KindAPIVersion {
		body, err := encodeAPIVersion(res)
		if err != nil {
			return err
		}
		w.Header().Set("ETag", `"`+res.ETag+`"`)
		writeEncoded(w, status, cachedResponse{body: append(body, '\n')})
		return nil
	}
	body, err := res.Wire()
	if err != nil {
		return err
	}
	writeTagged(w, status, res.ETag, body)
	return nil
}

// encodeAPIVersion returns the body that Wire and Marshal give for the
// stored API version res (its properties in the stored form,
// registry.StoredSchemaHead), splicing the compacted schema into the
// envelope instead of decoding and encoding it again.
func encodeAPIVersion(res registry.Resource) ([]byte, error) {
	schema, ok := registry.StoredSchema(res.Properties)
	if !ok { // with a lifecycle (registry.APIVersionProperties)
		out, err := res.Wire()
		if err != nil {
			return nil, err
		}
		return service.Marshal(out)
	}
	out, err := registry.Resource{ID: res.ID, Location: res.Location, Tags: res.Tags, System: res.System}.Wire()
	if err != nil {
		return nil, err
	}
	// api.Resource's fields before and after properties, in its order.
	head, err := service.Marshal(struct {
		ID       string            `json:"id,omitempty"`
		Name     string            `json:"name,omitempty"`
		Type     string            `json:"type,omitempty"`
		Location string            `json:"location,omitempty"`
		Tags     map[string]string `json:"tags,omitempty"`
	}{out.ID, out.Name, out.Type, out.Location, out.Tags})
	if err != nil {
		return nil, err
	}
	sys, err := service.Marshal(out.SystemData)
	if err != nil {
		return nil, err
	}
	const state = `,"provisioningState":"` + api.ProvisioningSucceeded + `"}`
	b := make([]byte, 0, len(head)+len(schema)+len(sys)+80)
	b = append(b, head[:len(head)-1]...) // without its '}'
	if len(head) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"properties":{"schema":`...) // api.APIVersionProperties, in its order
	b = append(b, schema...)
	b = append(b, state...)
	b = append(b, `,"systemData":`...)
	b = append(b, sys...)
	return append(b, '}'), nil
}
