package manifest

import (
	"encoding/json"

	"github.com/invopop/jsonschema"

	"github.com/udtc/udtc/generator/model"
)

// SchemaID is the $id of the manifest format's JSON Schema.
const SchemaID = "https://raw.githubusercontent.com/udtc/udtc/main/docs/manifest.schema.json"

// JSONSchema returns the JSON Schema of the manifest format, reflected from
// the wire structs, indented, with a trailing newline. Schema keywords that
// start with "x-" are allowed by patternProperties.
func JSONSchema() ([]byte, error) {
	r := &jsonschema.Reflector{
		DoNotReference:             false,
		ExpandedStruct:             true,
		RequiredFromJSONSchemaTags: true,
		AllowAdditionalProperties:  false,
	}
	s := r.Reflect(&File{})
	s.ID = SchemaID
	s.Title = "udtc resource type manifest"
	s.Description = "A resource provider namespace with its user-defined resource types. Give either namespace or name."
	if def, ok := s.Definitions["Schema"]; ok {
		def.PatternProperties = map[string]*jsonschema.Schema{"^x-": {}}
		if t, ok := def.Properties.Get("type"); ok {
			for _, name := range model.TypeNames() {
				t.Enum = append(t.Enum, name)
			}
		}
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
