package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/udtc/udtc/internal/bicepsyntax"
	"github.com/udtc/udtc/internal/naming"
)

// Snippets show how to use one API version of a type. Names come from
// internal/naming, the rules `udtc gen` uses, so they match the generated
// Bicep extension and Go client.
type Snippets struct {
	// BicepExtension is the extension name of the namespace (the
	// `extension` line; `udtc gen --extension-name` can override it).
	BicepExtension string `json:"bicepExtension"`
	// BicepReference is where the extension is published
	// (br:REGISTRY/REPOSITORY:TAG, for bicepconfig.json), when known.
	BicepReference string `json:"bicepReference,omitempty"`
	Bicep          string `json:"bicep"`
	// JSON is the body of a PUT of a resource; Request names the request.
	Request string `json:"request"`
	JSON    string `json:"json"`
	// GoPackage is the import path of the generated package and GoType the
	// type-level Go names of the type.
	GoPackage string        `json:"goPackage"`
	GoType    naming.GoType `json:"goNames"`
	Go        string        `json:"go"`
}

// DefaultGoImportPrefix stands for the --go-import-prefix of `udtc gen` in
// snippets when none is known.
const DefaultGoImportPrefix = "example.com/yourmodule/gen"

// sample is a value of a schema node for an example: the example, default or
// first enum value when the schema has one, else a placeholder; objects get
// their required writable properties.
type sample struct {
	literal json.RawMessage // a JSON literal, or nil for an object
	fields  []sampleField
	object  bool
	array   bool
}

type sampleField struct {
	name string
	val  sample
}

func sampleOf(n node) sample {
	for _, k := range []string{"example", "default"} {
		if raw, ok := n.get(k); ok && string(bytes.TrimSpace(raw)) != "null" {
			return sample{literal: raw}
		}
	}
	if raw, ok := n.get("enum"); ok {
		var enum []json.RawMessage
		if err := json.Unmarshal(raw, &enum); err == nil && len(enum) > 0 {
			return sample{literal: enum[0]}
		}
	}
	switch n.str("type") {
	case "string":
		return sample{literal: json.RawMessage(`"value"`)}
	case "integer":
		var lo json.Number
		if raw, ok := n.get("minimum"); ok && json.Unmarshal(raw, &lo) == nil {
			if v, err := lo.Int64(); err == nil {
				if n.flag("exclusiveMinimum") {
					v++
				}
				return sample{literal: json.RawMessage(fmt.Sprint(v))}
			}
		}
		return sample{literal: json.RawMessage(`0`)}
	case "number":
		return sample{literal: json.RawMessage(`0.0`)}
	case "boolean":
		return sample{literal: json.RawMessage(`false`)}
	case "array":
		return sample{array: true}
	}
	s := sample{object: true}
	if n.isMap() {
		return s
	}
	req := n.required()
	for _, m := range n.props {
		name := m.key
		p := n.property(name)
		if req[name] && !p.flag("readOnly") {
			s.fields = append(s.fields, sampleField{name, sampleOf(p)})
		}
	}
	return s
}

// sampleSyntax is what the Bicep and JSON renderings of a sample differ in.
type sampleSyntax struct {
	key     func(name string) string // a property name as written
	literal func(raw []byte) string  // a scalar value as written
	commas  bool                     // fields are separated by commas
}

var (
	bicepSample = sampleSyntax{key: bicepsyntax.Key, literal: bicepsyntax.JSON}
	jsonSample  = sampleSyntax{key: jsonKey, literal: func(raw []byte) string { return compactJSON(raw) }, commas: true}
)

func jsonKey(name string) string {
	k, _ := json.Marshal(name)
	return string(k)
}

// bicep renders s as a Bicep expression at the given indentation depth.
func (s sample) bicep(depth int) string { return s.render(bicepSample, depth) }

// json renders s as indented JSON at the given depth.
func (s sample) json(depth int) string { return s.render(jsonSample, depth) }

func (s sample) render(syn sampleSyntax, depth int) string {
	switch {
	case s.array:
		return "[]"
	case s.object:
		if len(s.fields) == 0 {
			return "{}"
		}
		var b strings.Builder
		b.WriteString("{\n")
		for i, f := range s.fields {
			b.WriteString(strings.Repeat("  ", depth+1) + syn.key(f.name) + ": " + f.val.render(syn, depth+1))
			if syn.commas && i < len(s.fields)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		return b.String() + strings.Repeat("  ", depth) + "}"
	}
	return syn.literal(s.literal)
}

// snippets builds the snippets of version v of t, whose schema is root;
// goNames are t's Go names.
func snippets(t *Type, v string, root node, goNames naming.GoType, opts Options) Snippets {
	body := sampleOf(root)
	segs := strings.Split(t.Name, "/")
	ext := opts.BicepExtension
	if ext == "" {
		ext = naming.BicepExtension(t.Namespace)
	}
	s := Snippets{BicepExtension: ext, GoType: goNames}
	if opts.BicepReference != nil {
		s.BicepReference = opts.BicepReference(ext)
	}

	name := strings.TrimSuffix(strings.Repeat("example/", len(segs)), "/")
	var b strings.Builder
	b.WriteString("extension " + ext + "\n\n")
	b.WriteString("resource example '" + t.FullName + "@" + v + "' = {\n")
	b.WriteString("  name: '" + name + "'\n")
	if len(body.fields) > 0 {
		b.WriteString("  properties: " + body.bicep(1) + "\n")
	}
	b.WriteString("}\n")
	s.Bicep = b.String()

	// The resource ID of a child type names its parents.
	var id strings.Builder
	id.WriteString("/planes/radius/local/resourceGroups/default/providers/" + t.Namespace)
	for _, seg := range segs {
		id.WriteString("/" + seg + "/example")
	}
	s.Request = "PUT " + id.String() + "?api-version=" + v
	s.JSON = "{\n  \"properties\": " + body.json(1) + "\n}\n"

	pkg := naming.GoVersionPackage(v)
	importPrefix := opts.GoImportPrefix
	if importPrefix == "" {
		importPrefix = DefaultGoImportPrefix
	}
	s.GoPackage = importPrefix + "/go/" + naming.GoPackageDir(t.Namespace) + "/" + pkg
	args := strings.TrimSuffix(strings.Repeat(`"example", `, len(segs)), ", ")
	// As the Go client: an object schema has a properties struct, an
	// undeclared one ({}) a map[string]any.
	props := "map[string]any{}"
	switch {
	case root.isMap():
		props = "nil /* a map: see the property table */"
	case root.str("type") == "object" && root.str("$ref") == "":
		props = "&" + pkg + "." + goNames.Properties() + "{ /* " + requiredComment(root) + " */ }"
	}
	var g strings.Builder
	fmt.Fprintf(&g, "import %s %q\n\n", pkg, s.GoPackage)
	fmt.Fprintf(&g, "id := %s.%s(\"/planes/radius/local/resourceGroups/default\", %s)\n", pkg, goNames.NewID, args)
	fmt.Fprintf(&g, "resourceID, resourceType := id.String(), %s.%s\n", pkg, goNames.TypeConst)
	fmt.Fprintf(&g, "res := %s.%s{\n", pkg, goNames.Name)
	g.WriteString("\tID:         &resourceID,\n")
	g.WriteString("\tType:       &resourceType,\n")
	fmt.Fprintf(&g, "\tProperties: %s,\n}\n", props)
	g.WriteString("if err := res.Validate(); err != nil {\n\treturn err // every violation, each with its JSON path\n}\n")
	fmt.Fprintf(&g, "body, err := json.Marshal(res) // PUT body to id.String() with api-version %s.%s\n", pkg, goNames.APIConst)
	s.Go = g.String()
	return s
}

// requiredComment lists the required writable properties of an object.
func requiredComment(root node) string {
	req := root.required()
	var names []string
	for _, m := range root.props {
		n := m.key
		if req[n] && !root.property(n).flag("readOnly") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "no required properties"
	}
	return "required: " + strings.Join(names, ", ")
}
