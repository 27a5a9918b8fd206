package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// ErrCannotCheck is CheckResources's error when the registry cannot judge
// a schema against its stored resources: Radius's UCP, or a udtc serve
// older than the checkResources route.
var ErrCannotCheck = errors.New("the registry cannot check its stored resources against a schema")

// StoredCheck is the whole answer of CheckResources: how many resources
// of the API version the registry stores, and which of them the candidate
// schema refuses, in the registry's order (by resource ID).
type StoredCheck struct {
	Checked int                   `json:"checked"`
	Refused []api.RefusedResource `json:"refused"`
}

// CheckResources asks udtc serve which stored resources of the API
// version (those last written with it) the candidate body, an API
// version's PUT body, would refuse at their next write: a dry run, page
// by page (POST .../apiVersions/{version}/checkResources). It returns
// ErrCannotCheck, wrapped, when the registry has no such route.
func (c *Client) CheckResources(ctx context.Context, namespace, typ, version string, body api.APIVersion) (StoredCheck, error) {
	out := StoredCheck{Refused: []api.RefusedResource{}}
	if c.target.Flavor == FlavorUCP {
		return out, fmt.Errorf("%w: Radius's UCP has no dry-run admission", ErrCannotCheck)
	}
	t := c.versionTarget(namespace, typ, version).join("/checkResources")
	if t.err != nil {
		return out, t.err
	}
	data, err := json.Marshal(body)
	if err != nil {
		return out, err
	}
	pages := 0
	err = c.pages(ctx, http.MethodPost, t.path, data, "checking the resources of "+namespace+"/"+typ+"@"+version, func(resp *http.Response, answer []byte) (string, error) {
		pages++
		page, err := decode[api.ResourceCheck](resp, answer)
		out.Checked += page.Checked
		out.Refused = append(out.Refused, page.Refused...)
		return page.NextLink, err
	})
	var e *Error
	if pages == 0 && errors.As(err, &e) && (e.StatusCode == http.StatusMethodNotAllowed || e.StatusCode == http.StatusNotFound && strings.HasPrefix(e.Message, "no route for")) {
		return out, fmt.Errorf("%w (%v)", ErrCannotCheck, err)
	}
	return out, err
}
