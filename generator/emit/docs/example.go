package docs

import (
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/schema/example"
)

// exampleOf is a Bicep declaration of one API version of t with the
// example of package schema/example: every required writable property with
// a value the registry admits (the catalog's snippets show the same).
func exampleOf(t *model.ResourceType, v *model.APIVersion) string {
	return example.Declaration(t.Namespace, t.Name, v.Name, example.Of(v.Schema).Properties)
}
