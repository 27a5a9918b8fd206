package main

import (
	"encoding/json"

	"github.com/udtc/udtc/registry/api"
)

// checkSchema checks an API version schema PUT to the registry with the same
// checker udtc check uses. Placeholder until the real checker is wired in:
// accepts an empty object or one with "type": "object".
func checkSchema(schema json.RawMessage) []api.Diagnostic {
	var s map[string]json.RawMessage
	if err := json.Unmarshal(schema, &s); err != nil {
		return []api.Diagnostic{{Severity: "error", Rule: "schema-json", Message: "the schema is not a JSON object: " + err.Error()}}
	}
	if len(s) == 0 {
		return nil
	}
	var typ string
	if raw, ok := s["type"]; ok {
		json.Unmarshal(raw, &typ)
	}
	if typ != "object" {
		return []api.Diagnostic{{Severity: "error", Rule: "schema-type-object", Path: "/type", Message: `the top-level schema must have "type": "object"`}}
	}
	return nil
}
