package catalog

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/example"
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
	// Group is the request that creates the examples' resource group.
	Group string `json:"group"`
	// Requires are the IDs of the examples this one refers to: they must
	// exist before the registry admits it.
	Requires []string `json:"requires,omitempty"`
	// Needs say what the example still needs where no value derived from
	// the schema satisfies it ("properties.code: a value matching ...").
	Needs []string `json:"needs,omitempty"`
}

// GoPropertiesFunc writes props, the example properties of type t of
// namespace ns at API version version, as Go code of the generated package
// imported as pkg: the properties struct, Ptr and enum constants, named as
// `udtc gen --target go` names them (cmd wires the Go client's planner; the
// registry does not import the generator).
type GoPropertiesFunc func(ns *Namespace, t *Type, version, pkg string, props example.Value) (GoLiteral, error)

// GoLiteral is Go code that builds a value: Setup declares what Expr uses
// (IDs parsed from their text, each returning err when it fails), Imports
// are the standard library packages both need.
type GoLiteral struct {
	Imports []string
	Setup   string
	Expr    string
}

// DefaultGoImportPrefix stands for the --go-import-prefix of `udtc gen` in
// snippets when none is known.
const DefaultGoImportPrefix = "example.com/yourmodule/gen"

// snippets builds the snippets of version v of t, whose schema is root;
// goNames are t's Go names. Every snippet writes the example of package
// schema/example, which the registry admits once the examples it refers
// to exist.
func snippets(t *Type, v string, root *schema.Schema, goNames naming.GoType, opts Options, ns *Namespace) Snippets {
	ex := example.Of(root)
	body := ex.Properties
	ext := opts.BicepExtension
	if ext == "" {
		ext = naming.BicepExtension(t.Namespace)
	}
	s := Snippets{BicepExtension: ext, GoType: goNames, Needs: ex.Needs}
	for _, r := range ex.References {
		s.Requires = append(s.Requires, example.IDOfType(r))
	}
	if opts.BicepReference != nil {
		s.BicepReference = opts.BicepReference(ext)
	}

	s.Bicep = "extension " + ext + "\n\n" + example.Declaration(t.Namespace, t.Name, v, body) + "\n"

	s.Request = "PUT " + example.ID(t.Namespace, t.Name) + "?api-version=" + v
	s.Group = "PUT " + example.Group + "?api-version=" + api.Version + ` {"location": "global"}`
	props := body.JSON(1)
	s.JSON = "{\n  \"properties\": " + props + "\n}\n"

	pkg := naming.GoVersionPackage(v)
	importPrefix := opts.GoImportPrefix
	if importPrefix == "" {
		importPrefix = DefaultGoImportPrefix
	}
	s.GoPackage = importPrefix + "/go/" + naming.GoPackageDir(t.Namespace) + "/" + pkg
	lit, err := GoLiteral{}, errors.New("no Go names")
	if opts.GoProperties != nil && ns != nil {
		lit, err = opts.GoProperties(ns, t, v, pkg, body)
	}
	if err != nil {
		// The example's JSON, decoded into the generated properties type.
		lit = GoLiteral{Imports: []string{"encoding/json"}, Setup: fmt.Sprintf("var props %s\nif err := json.Unmarshal([]byte(%s), &props); err != nil {\n\treturn err\n}\n",
			goPropertiesType(pkg, goNames, root), goString(body.JSON(0))), Expr: "props"}
	}
	s.Go = goSnippet(pkg, s.GoPackage, goNames, strings.Count(t.Name, "/")+1, lit)
	return s
}

// goPropertiesType is the Go type of the envelope's Properties field.
func goPropertiesType(pkg string, goNames naming.GoType, root *schema.Schema) string {
	if root != nil && root.Kind == schema.Object {
		return "*" + pkg + "." + goNames.Properties()
	}
	return "map[string]any"
}

// goSnippet writes the Go snippet: the resource group the example lives
// in created first (resources need their group), then the example built
// with the generated types (lit) and written with the generated client's
// CreateOrUpdate.
func goSnippet(pkg, importPath string, goNames naming.GoType, segments int, lit GoLiteral) string {
	args := strings.TrimSuffix(strings.Repeat(`"`+example.Name+`", `, segments), ", ")
	var g strings.Builder
	g.WriteString("import (\n")
	for _, imp := range lit.Imports {
		fmt.Fprintf(&g, "\t%q\n", imp)
	}
	if len(lit.Imports) > 0 {
		g.WriteString("\n")
	}
	fmt.Fprintf(&g, "\t%s %q\n)\n\n", pkg, importPath)
	check := "if err != nil {\n\treturn err\n}\n"
	fmt.Fprintf(&g, "opts := %s.ClientOptions{Endpoint: \"http://127.0.0.1:7443\"}\n", pkg)
	fmt.Fprintf(&g, "groups, err := %s.NewResourceGroupsClient(opts)\n%s", pkg, check)
	fmt.Fprintf(&g, "rg, err := groups.CreateOrUpdate(ctx, %q, nil, nil) // the resource group it lives in\n%s", path.Base(example.Group), check)
	fmt.Fprintf(&g, "client, err := %s.New%sClient(opts)\n%s", pkg, goNames.Name, check)
	fmt.Fprintf(&g, "id := %s.%s(*rg.ID, %s)\n", pkg, goNames.NewID, args)
	g.WriteString(lit.Setup)
	fmt.Fprintf(&g, "res := &%s.%s{Properties: %s}\n", pkg, goNames.Name, lit.Expr)
	g.WriteString("if err := res.Validate(); err != nil {\n\treturn err // every violation, each with its JSON path\n}\n")
	g.WriteString("stored, err := client.CreateOrUpdate(ctx, id, res, nil) // options: IfMatch, IfNoneMatch\n")
	return g.String()
}

// goString is s as a Go string literal: raw when it can be.
func goString(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
