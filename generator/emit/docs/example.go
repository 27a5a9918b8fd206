package docs

import (
	"strings"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/schema/example"
)

// exampleOf is a Bicep declaration of one API version of t with the example
// of package schema/example: every required writable property with a
// value the registry admits (the catalog's snippets show the same).
func exampleOf(t *model.ResourceType, v *model.APIVersion) string {
	var b strings.Builder
	b.WriteString("resource example '" + t.FullName() + "@" + v.Name + "' = {\n")
	// A child type declared at the top level names its parent too.
	b.WriteString("  name: '" + example.ResourceName(t.Name) + "'\n")
	if props := example.Of(v.Schema).Properties; len(props.Fields) > 0 {
		b.WriteString("  properties: " + props.Bicep(1) + "\n")
	}
	b.WriteString("}")
	return b.String()
}
