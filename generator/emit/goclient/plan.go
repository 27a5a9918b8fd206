package goclient

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/schema/pattern"
)

// Rule ids of the warnings this emitter reports.
const (
	// ruleNameCollision: two declarations map to the same Go identifier; the
	// later one (in model order) gets a numeric suffix.
	ruleNameCollision = "go-name-collision"
	// ruleFieldCollision: two properties of one object map to the same Go
	// field name (they differ only in case or separators).
	ruleFieldCollision = "go-field-collision"
	// rulePatternUnsupported: a pattern Go's regexp package cannot run;
	// Validate does not check it.
	rulePatternUnsupported = "go-pattern-unsupported"
	// ruleJSONTag: a property name encoding/json cannot use as a tag name.
	ruleJSONTag = "go-json-tag-invalid"
)

// Rules documents the warnings Emit reports (see generator.Rules).
var Rules = []diag.Rule{
	{ID: ruleNameCollision, Severity: diag.Warning, Doc: "Two declarations of a Go package (types, structs, enums, constants) want the same name, or two namespaces the same directory; the later one gets a numeric suffix (`udtc gen`, see go-client.md)."},
	{ID: ruleFieldCollision, Severity: diag.Warning, Doc: "Two properties of one object differ only in case or separators (`fooBar`, `foo_bar`), the Go field names get suffixes (`udtc gen`)."},
	{ID: rulePatternUnsupported, Severity: diag.Warning, Doc: "A `pattern` that needs a backtracking engine (lookaround, backreferences), which Go's regexp package does not have: the Go client's `Validate` does not check it (`udtc gen`)."},
	{ID: ruleJSONTag, Severity: diag.Warning, Doc: "A property name encoding/json cannot use as a tag name: encoding/json uses the Go field name instead (`udtc gen`)."},
}

// nsPlan holds the version-independent names of one provider namespace.
type nsPlan struct {
	prov *model.Provider
	dir  string // "mycompanyresources"
	ids  string // import path of the resourceids package
	// runtime is the import path of the shared runtime package.
	runtime string
	types   []*typeNames
	by      map[string]*typeNames // by type name ("contosoBuses/queues")
	// names are the type-level names, complete once the namespace is
	// planned: the parent of each version package's Namer.
	names *naming.Namer
	// known are the types of every namespace of the run, by lower-cased
	// full name: the targets of typed references.
	known map[string]*typeNames
	// re2 is the run's, shared by every namespace.
	re2 *re2Cache
	// format is Options.Format, or formatItself.
	format func(path string, src []byte, format func([]byte) ([]byte, error)) ([]byte, error)
}

// typeNames are the Go names of one resource type, the same in every
// package of its namespace.
type typeNames struct {
	rt        *model.ResourceType
	goName    string // envelope struct: "PostgresDatabase"
	idName    string // "PostgresDatabaseID"
	newID     string // "NewPostgresDatabaseID"
	parseID   string // "ParsePostgresDatabaseID"
	typeConst string // "PostgresDatabaseResourceType"
	apiConst  string // "PostgresDatabaseAPIVersion"
	ancestors []*typeNames
	nameField string // this type's name field in its children's IDs: "PostgresDatabaseName"
	nameParam string // the constructor parameter for nameField: "postgresDatabaseName"
	file      string // "postgresdatabase_gen.go"
	ns        *nsPlan
	client    string // "PostgresDatabaseClient"
	newClient string // "NewPostgresDatabaseClient"
	// options are the option types of the client's calls, by call:
	// "Get" → "PostgresDatabaseClientGetOptions".
	options map[string]string
}

// clientCalls are the methods of every client; each takes a pointer to an
// options struct of its own (ListSecrets is declared only for types with
// sensitive properties, its options name is claimed for every type).
var clientCalls = []string{"CreateOrUpdate", "Get", "Delete", "List", "ListSecrets"}

func planNamespace(prov *model.Provider, dir, importPrefix string, diags *diag.List) (*nsPlan, error) {
	p := &nsPlan{
		prov:    prov,
		dir:     dir,
		ids:     importPrefix + "/go/" + dir + "/resourceids",
		runtime: runtimePath(importPrefix),
		by:      map[string]*typeNames{},
	}
	typeNamesIn := make([]string, len(prov.Types))
	for i, rt := range prov.Types {
		typeNamesIn[i] = rt.Name
	}
	goTypes, names := naming.GoTypes(typeNamesIn)
	p.names = names
	files := naming.NewNamer(reservedFiles...)
	for i, rt := range prov.Types {
		g := goTypes[i]
		options := map[string]string{}
		for _, call := range clientCalls {
			want := g.Client + call + "Options"
			got, renamed := names.Claim(want)
			if renamed {
				g.Renames = append(g.Renames, naming.Rename{What: "options type name", Want: want, Got: got})
			}
			options[call] = got
		}
		for _, r := range g.Renames {
			diags.Add(diag.Diagnostic{
				Span: rt.Span, Severity: diag.Warning, Rule: ruleNameCollision,
				Path:    "/types/" + rt.Name,
				Message: fmt.Sprintf("the Go %s %s of type %s is already taken; using %s", r.What, r.Want, rt.FullName(), r.Got),
				Hint:    "rename the type or check the generated names in docs/go-client.md",
			})
		}
		t := &typeNames{ns: p, rt: rt, goName: g.Name, idName: g.ID, newID: g.NewID, parseID: g.ParseID,
			typeConst: g.TypeConst, apiConst: g.APIConst, client: g.Client, newClient: g.NewClient, options: options}
		t.nameField = t.goName + "Name"
		t.nameParam = lowerFirst(t.goName) + "Name"
		base, _ := files.Claim(strings.ToLower(t.goName))
		t.file = base + "_gen.go"
		if rt.Parent != "" {
			parent := p.by[rt.Parent]
			if parent == nil {
				// The model guarantees parents sort first; a missing one is a bug.
				return nil, fmt.Errorf("goclient: parent %q of type %q is not declared before it", rt.Parent, rt.FullName())
			}
			t.ancestors = append(slices.Clone(parent.ancestors), parent)
		}
		p.types = append(p.types, t)
		p.by[rt.Name] = t
	}
	return p, nil
}

// reservedFiles are the base names of the files every version package has
// besides one per type ("common" is common_gen.go).
var reservedFiles = []string{"common", "ids"}

// lowerFirst lower-cases the leading initialism or letter: "DNSName" →
// "dnsName", "Foo" → "foo".
func lowerFirst(s string) string {
	rs := []rune(s)
	n := 0 // length of the leading run of capitals
	for n < len(rs) && rs[n] >= 'A' && rs[n] <= 'Z' {
		n++
	}
	if n > 1 && n < len(rs) && rs[n] >= 'a' && rs[n] <= 'z' {
		n-- // "DNSName": the N starts the next word
	}
	if n == 0 && len(rs) > 0 {
		n = 1
	}
	for i := 0; i < n; i++ {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}

// pkgPlan is one generated package: a namespace at one API version.
type pkgPlan struct {
	ns       *nsPlan
	version  string
	name     string // package name and directory: "v20250101preview"
	dir      string // "go/mycompanyresources/v20250101preview"
	path     string // import path
	runtime  string // import path of the shared runtime package
	names    *naming.Namer
	types    []*verType
	structs  []*structPlan // shared ($ref) structs, emitted in the common file
	structOf map[*model.Schema]*structPlan
	enumOf   map[*model.Schema]*enumPlan
	refs     map[string]*model.Schema // canonical node per $ref name
	patterns map[string]string        // by source: its RE2 spelling, or "" when it backtracks
	// sharedEnums are enums inside shared ($ref) schemas.
	sharedEnums []*enumPlan
	diags       *diag.List
}

// verType is a resource type present at this package's API version.
type verType struct {
	*typeNames
	av      *model.APIVersion
	structs []*structPlan // in walk order, root first
	enums   []*enumPlan
}

type structPlan struct {
	name   string
	schema *model.Schema
	fields []*fieldPlan
	// where says what the struct is, for its doc comment.
	where string
	root  *verType // set for a type's Properties struct
	ref   string   // set for a shared $ref struct
	// own: the schema is not directly a property's (whose field already
	// carries its description), so the declaration documents it.
	own bool
}

type fieldPlan struct {
	name string
	// renamed: name is not the property's own (naming.Pascal), which
	// another property of the object took first.
	renamed bool
	prop    *model.Property
}

type enumPlan struct {
	name   string
	schema *model.Schema
	consts []string // parallel to schema.Enum
	// possible is the name of the function listing the values.
	possible string
	where    string
	own      bool // as structPlan.own
}

func newPkgPlan(ns *nsPlan, version, importPrefix string, diags *diag.List) *pkgPlan {
	name := naming.GoVersionPackage(version)
	p := &pkgPlan{
		ns:       ns,
		version:  version,
		name:     name,
		dir:      "go/" + ns.dir + "/" + name,
		names:    ns.names.Child(),
		structOf: map[*model.Schema]*structPlan{},
		enumOf:   map[*model.Schema]*enumPlan{},
		refs:     map[string]*model.Schema{},
		patterns: map[string]string{},
		runtime:  ns.runtime,
		diags:    diags,
	}
	p.path = importPrefix + "/" + p.dir
	for _, t := range ns.types {
		av := t.rt.Version(version)
		if av == nil {
			continue
		}
		vt := &verType{typeNames: t, av: av}
		p.types = append(p.types, vt)
		p.assignRoot(vt)
	}
	return p
}

func (p *pkgPlan) claim(want string, s *model.Schema, what string) string {
	got, renamed := p.names.Claim(want)
	// A node the author did not write (Radius's base properties,
	// schema.MergeBase) yields its name without a warning: nothing in the
	// manifest could be renamed for it.
	if renamed && s.Span.File != "" {
		p.diags.Add(diag.Diagnostic{
			Span: diag.Span(s.Span), Severity: diag.Warning, Rule: ruleNameCollision, Path: s.Path,
			Message: fmt.Sprintf("the Go %s %s is already taken in package %s/%s; using %s", what, want, p.ns.prov.Namespace, p.version, got),
			Hint:    "rename the property or check the generated names in docs/go-client.md",
		})
	}
	return got
}

// assignRoot names the structs and enums of one type's schema.
func (p *pkgPlan) assignRoot(vt *verType) {
	s := vt.av.Schema
	if s.Ref != "" {
		p.assignRef(s)
		return
	}
	if s.Kind == model.Object {
		st := p.newStruct(s, vt.goName+"Properties", "the properties of ["+vt.goName+"]")
		st.root = vt
		vt.structs = append(vt.structs, st)
		p.assignFields(st, vt, vt.goName, nil, "properties")
		return
	}
	p.assignNode(s, vt, vt.goName, []string{"Properties"}, "properties")
}

// assignNode names s (a node that is not a type's root) and below. owner is
// nil inside shared $ref schemas. Structs and enums alike are named base
// plus the path of property names; an array item or map value takes the
// singular of its property's name ("containers" → Container), or adds Item
// or Value when the name has no singular form.
func (p *pkgPlan) assignNode(s *model.Schema, owner *verType, base string, path []string, where string) {
	if s.Ref != "" {
		p.assignRef(s)
		return
	}
	switch s.Kind {
	case model.String:
		if len(s.Enum) > 0 {
			p.newEnum(s, owner, base+strings.Join(path, ""), where)
		}
	case model.Object:
		name := base + strings.Join(path, "")
		st := p.newStruct(s, name, where)
		if owner != nil {
			owner.structs = append(owner.structs, st)
			st.where = where + " of [" + owner.goName + "]"
		} else {
			p.structs = append(p.structs, st)
		}
		p.assignFields(st, owner, base, path, where)
	case model.Map:
		p.assignNode(s.AdditionalProperties, owner, base, element(path, "Value"), where+"[*]")
	case model.Array:
		p.assignNode(s.Items, owner, base, element(path, "Item"), where+"[*]")
	}
}

// element is the path of an array item or map value below path: the last
// word made singular ("Containers" → "Container"), or with suffix added
// when it has no singular form and does not already end with it.
func element(path []string, suffix string) []string {
	out := slices.Clone(path)
	if n := len(out); n > 0 {
		last := out[n-1]
		if one := naming.Singular(last); one != last {
			out[n-1] = one
			return out
		}
		if strings.HasSuffix(last, suffix) {
			return out
		}
	}
	return append(out, suffix)
}

func (p *pkgPlan) assignFields(st *structPlan, owner *verType, base string, path []string, where string) {
	fields := naming.NewNamer()
	st.fields = make([]*fieldPlan, 0, len(st.schema.Properties))
	for _, prop := range st.schema.Properties {
		want := naming.Pascal(prop.Name)
		name, renamed := fields.Claim(want)
		if renamed && prop.Span.File != "" {
			d := diag.Diagnostic{
				Span: diag.Span(prop.Span), Severity: diag.Warning, Rule: ruleFieldCollision, Path: prop.Schema.Path,
				Message: fmt.Sprintf("property %q of %s maps to Go field %s, which is already taken; using %s", prop.Name, where, want, name),
				Hint:    "property names that differ only in case or separators are hard to use from most languages",
			}
			p.diags.Add(d)
		}
		if !validTag(prop.Name) {
			p.diags.Add(diag.Diagnostic{
				Span: diag.Span(prop.Span), Severity: diag.Warning, Rule: ruleJSONTag, Path: prop.Schema.Path,
				Message: fmt.Sprintf("property %q of %s cannot be a Go JSON tag name; encoding/json will use the field name %s", prop.Name, where, name),
			})
		}
		st.fields = append(st.fields, &fieldPlan{name: name, renamed: renamed, prop: prop})
		p.assignNode(prop.Schema, owner, base, append(slices.Clone(path), want), where+"."+prop.Name)
	}
}

// assignRef names a shared built-in schema once per package; later nodes
// with the same Ref reuse the names of the first.
func (p *pkgPlan) assignRef(s *model.Schema) {
	if canon, ok := p.refs[s.Ref]; ok {
		p.alias(canon, s)
		return
	}
	p.refs[s.Ref] = s
	ref := s.Ref
	if i := strings.LastIndexAny(ref, "#/"); i >= 0 {
		ref = ref[i+1:]
	}
	base := naming.Pascal(ref)
	switch s.Kind {
	case model.Object:
		st := p.newStruct(s, base, "the built-in "+ref+" schema")
		st.ref = s.Ref
		p.structs = append(p.structs, st)
		p.assignFields(st, nil, base, nil, ref)
	case model.String:
		if len(s.Enum) > 0 {
			p.newEnum(s, nil, base, "the built-in "+ref+" schema")
		}
	default:
		c := *s
		c.Ref = ""
		p.assignNode(&c, nil, base, nil, ref)
		p.alias(&c, s)
	}
}

// alias maps every node of b to the names of the identical node a.
func (p *pkgPlan) alias(a, b *model.Schema) {
	if a == nil || b == nil {
		return
	}
	if st, ok := p.structOf[a]; ok {
		p.structOf[b] = st
	}
	if e, ok := p.enumOf[a]; ok {
		p.enumOf[b] = e
	}
	for i := range min(len(a.Properties), len(b.Properties)) {
		p.alias(a.Properties[i].Schema, b.Properties[i].Schema)
	}
	p.alias(a.AdditionalProperties, b.AdditionalProperties)
	p.alias(a.Items, b.Items)
}

func (p *pkgPlan) newStruct(s *model.Schema, want, where string) *structPlan {
	st := &structPlan{name: p.claim(want, s, "struct name"), schema: s, where: where, own: ownDoc(where)}
	p.structOf[s] = st
	return st
}

func (p *pkgPlan) newEnum(s *model.Schema, owner *verType, want, where string) {
	e := &enumPlan{name: p.claim(want, s, "enum type name"), schema: s, where: where, own: ownDoc(where)}
	for _, v := range s.Enum {
		e.consts = append(e.consts, p.claim(e.name+constPart(v.Str), s, "enum constant name"))
	}
	e.possible = p.claim("Possible"+e.name+"Values", s, "enum values function name")
	p.enumOf[s] = e
	if owner != nil {
		e.where = where + " of [" + owner.goName + "]"
		owner.enums = append(owner.enums, e)
	} else {
		p.sharedEnums = append(p.sharedEnums, e)
	}
}

// ownDoc reports whether a declaration at where documents its schema: all
// but those of a property's schema ("properties.a.b"), whose field does.
func ownDoc(where string) bool {
	return strings.HasSuffix(where, "]") || !strings.HasPrefix(where, "properties.")
}

// constPart turns an enum value into the tail of its constant name: words
// capitalised, initialisms upper-cased, "Empty" for a value without letters
// or digits.
func constPart(v string) string {
	if s := naming.JoinWords(v); s != "" {
		return s
	}
	return "Empty"
}

// pattern returns s's pattern in Go's regexp syntax with its ECMA-262
// meaning, the spelling the registry runs (pattern.Pattern.RE2), or "" when
// it needs the backtracking engine, warning once per package
// (go-pattern-unsupported).
func (p *pkgPlan) pattern(s *model.Schema) string {
	if re, seen := p.patterns[s.Pattern]; seen {
		return re
	}
	re := p.ns.re2.of(s.Pattern)
	if re == "" {
		p.diags.Add(diag.Diagnostic{
			Span: diag.Span(s.Span), Severity: diag.Warning, Rule: rulePatternUnsupported, Path: s.Path,
			Message: fmt.Sprintf("pattern %q needs a backtracking engine (lookaround, backreferences), which Go's regexp package does not have; the Go client does not check it", s.Pattern),
		})
	}
	p.patterns[s.Pattern] = re
	return re
}

// re2Cache holds the RE2 spelling of each pattern of a run (pattern.Pattern.RE2,
// "" when it backtracks): compiling patterns was a good part of a field's
// cost, and the packages of a run, planned on several goroutines, share
// most of them.
type re2Cache struct {
	m sync.Map // pattern source → RE2 spelling
}

// of returns the RE2 spelling of the pattern src, or "" when it needs the
// backtracking engine.
func (c *re2Cache) of(src string) string {
	if re, ok := c.m.Load(src); ok {
		return re.(string)
	}
	var re string
	if c, err := pattern.Compile(src); err == nil {
		re = c.RE2()
	}
	c.m.Store(src, re)
	return re
}

// validTag reports whether encoding/json accepts name as a tag name.
func validTag(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case unicode.IsLetter(c), unicode.IsDigit(c):
		default:
			return false
		}
	}
	return true
}
