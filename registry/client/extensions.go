package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// BicepExtensions lists the Bicep extensions the registry serves (`udtc
// serve`: GET /bicep/), one a namespace.
func (c *Client) BicepExtensions(ctx context.Context) ([]api.BicepExtension, error) {
	resp, data, err := c.do(ctx, http.MethodGet, "/bicep/?", nil, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, responseError(resp, data)
	}
	var out struct {
		Value []api.BicepExtension `json:"value"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("registry: GET %s: %w", c.url("/bicep/?"), err)
	}
	return out.Value, nil
}

// Archive is a Bicep extension archive as a registry serves it.
type Archive struct {
	Data []byte
	// ETag is the response's strong ETag, unquoted: the archive's digest
	// (sha256:HEX).
	ETag string
	// NotModified is set when the archive is still the one etag names
	// (304): Data is then empty.
	NotModified bool
}

// BicepArchive fetches the archive at path (api.BicepExtension.Archive,
// with its query) unless it is still the one etag names (If-None-Match);
// with head, only its ETag is asked for. The body is read whole: a
// connection that ends before Content-Length is an error.
func (c *Client) BicepArchive(ctx context.Context, path, etag string, head bool) (Archive, error) {
	var conds []Condition
	if etag != "" {
		conds = append(conds, func(h http.Header) { h.Set("If-None-Match", `"`+etag+`"`) })
	}
	method := http.MethodGet
	if head {
		method = http.MethodHead
	}
	if _, err := url.Parse(path); err != nil {
		return Archive{}, fmt.Errorf("registry: archive path %q: %w", path, err)
	}
	target := path
	if !strings.Contains(target, "?") {
		target += "?"
	}
	resp, data, err := c.do(ctx, method, target, nil, conds)
	if err != nil {
		return Archive{}, err
	}
	a := Archive{ETag: unquote(resp.Header.Get("ETag"))}
	switch resp.StatusCode {
	case http.StatusNotModified:
		a.NotModified = true
		if a.ETag == "" {
			a.ETag = etag
		}
		return a, nil
	case http.StatusOK:
		if !head {
			a.Data = data
		}
		return a, nil
	}
	if head {
		return Archive{}, &Error{StatusCode: resp.StatusCode, Message: fmt.Sprintf("HEAD %s: %s", c.url(target), resp.Status)}
	}
	return Archive{}, responseError(resp, data)
}

func unquote(etag string) string {
	if len(etag) >= 2 && etag[0] == '"' && etag[len(etag)-1] == '"' {
		return etag[1 : len(etag)-1]
	}
	return etag
}
