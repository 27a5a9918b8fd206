package goclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/schema/example"
)

// Literal is Go code that builds an example value with the types the
// generated package declares: its structs, Ptr and enum constants.
type Literal struct {
	// Imports are the standard library packages the code needs besides the
	// generated package ("time").
	Imports []string
	// Setup are statements that declare what Expr uses (IDs parsed from
	// their text), each returning err when it fails; "" when none.
	Setup string
	// Expr is the value, a Go expression.
	Expr string
}

// PropertiesLiteral writes the example properties v (package
// schema/example) of type typ ("contosoBuses/queues") of namespace at
// version of cat as a Go expression of the generated package imported as
// pkg: the value of the envelope's Properties field, named exactly as Emit
// names the declarations. It returns an error when a value cannot be
// written from the package alone (a reference to one type of another
// namespace, or to a type whose ID the package does not alias); callers
// then decode the example's JSON instead.
func PropertiesLiteral(cat *model.Catalog, namespace, typ, version, pkg string, v example.Value) (Literal, error) {
	var diags diag.List // the renames are Emit's warnings, not needed here
	const prefix = "example.com/literal"
	nss, err := planNamespaces(cat, prefix, &diags)
	if err != nil {
		return Literal{}, err
	}
	for _, ns := range nss {
		if ns.prov.Namespace != namespace {
			continue
		}
		p := newPkgPlan(ns, version, prefix, &diags)
		for _, vt := range p.types {
			if vt.rt.Name == typ {
				return p.literal(vt, pkg, v)
			}
		}
	}
	return Literal{}, fmt.Errorf("goclient: no type %s/%s at API version %s", namespace, typ, version)
}

// ExampleLiterals writes the literal of the example properties (example.Of)
// of every type and API version of cat, each for its version package
// imported by its name ("v20250101"), keyed by
// "Namespace/type@version"; those PropertiesLiteral cannot write are left
// out. It plans every package once, the packages concurrently as Emit
// does (it runs before the site's pages, on every core).
func ExampleLiterals(cat *model.Catalog) (map[string]Literal, error) {
	var diags diag.List
	const prefix = "example.com/literal"
	nss, err := planNamespaces(cat, prefix, &diags)
	if err != nil {
		return nil, err
	}
	type job struct {
		ns      *nsPlan
		version string
		diags   diag.List
		lits    map[string]Literal
	}
	var jobs []*job
	for _, ns := range nss {
		for _, version := range versions(ns.prov) {
			jobs = append(jobs, &job{ns: ns, version: version})
		}
	}
	par.Each(len(jobs), func(i int) {
		j := jobs[i]
		j.lits = map[string]Literal{}
		newPkgPlan(j.ns, j.version, prefix, &j.diags).exampleLiterals(func(key string, lit Literal) { j.lits[key] = lit })
	})
	out := map[string]Literal{}
	for _, j := range jobs {
		maps.Copy(out, j.lits)
	}
	return out, nil
}

// exampleLiterals hands put the literal of the example properties of each
// type of p, keyed "Namespace/type@version", for p imported by its name;
// those PropertiesLiteral cannot write are left out (ExampleLiterals,
// Options.Literals).
func (p *pkgPlan) exampleLiterals(put func(key string, lit Literal)) {
	for _, vt := range p.types {
		if lit, err := p.literal(vt, p.name, example.Of(vt.av.Schema).Properties); err == nil {
			put(vt.rt.FullName()+"@"+vt.av.Name, lit)
		}
	}
}

// literal writes v, the properties of vt, for package p imported as pkg.
func (p *pkgPlan) literal(vt *verType, pkg string, v example.Value) (Literal, error) {
	w := &litWriter{p: p, pkg: pkg}
	root := vt.av.Schema
	expr := w.value(root, v, root.Kind == model.Object)
	if w.err != nil {
		return Literal{}, w.err
	}
	return w.result(expr)
}

// litWriter writes one literal; err is its first failure.
type litWriter struct {
	p       *pkgPlan
	pkg     string
	setup   []string
	imports []string
	vars    int
	err     error
}

// q is a declaration of the generated package, qualified.
func (w *litWriter) q(name string) string { return w.pkg + "." + name }

// ptr is a pointer to expr: &T{...} for a composite literal, else Ptr(expr).
func (w *litWriter) ptr(expr string) string {
	if strings.HasSuffix(expr, "}") && !strings.HasPrefix(expr, "map[") && !strings.HasPrefix(expr, "[]") {
		return "&" + expr
	}
	return w.q("Ptr") + "(" + expr + ")"
}

func (w *litWriter) fail(format string, args ...any) string {
	if w.err == nil {
		w.err = fmt.Errorf(format, args...)
	}
	return "nil"
}

// value is the Go expression of v, a value of s; pointer asks for a
// pointer (a struct field of a scalar or object).
func (w *litWriter) value(s *model.Schema, v example.Value, pointer bool) string {
	if s == nil {
		return w.fail("goclient: no schema for a value")
	}
	if s.Kind == model.String && s.Reference != nil {
		return w.reference(s, v, pointer)
	}
	var expr string
	switch s.Kind {
	case model.Object:
		expr = w.object(s, v)
	case model.Map:
		return w.typeOf(s) + "{" + w.entries(v, func(f example.Field) string {
			return strconv.Quote(f.Name) + ": " + w.element(s.AdditionalProperties, f.Value)
		}) + "}" // maps are never pointers
	case model.Array:
		items := make([]string, len(v.Items))
		for i, it := range v.Items {
			items[i] = w.element(s.Items, it) + "," + noteComment(it.Note)
		}
		return w.typeOf(s) + "{" + block(items) + "}"
	case model.Any:
		return anyLiteral(v.Literal)
	default:
		expr = w.scalar(s, v)
	}
	if pointer {
		return w.ptr(expr)
	}
	return expr
}

// element is the value of a map entry or an array item: a composite
// literal without its type, which the map's or slice's type says.
func (w *litWriter) element(s *model.Schema, v example.Value) string {
	expr := w.value(s, v, false)
	if s.Kind == model.Object || s.Kind == model.Map || s.Kind == model.Array {
		return strings.TrimPrefix(expr, w.typeOf(s))
	}
	return expr
}

// object is the struct literal of v; the fields in v's order.
func (w *litWriter) object(s *model.Schema, v example.Value) string {
	st := w.p.structOf[s]
	if st == nil {
		return w.fail("goclient: no struct for %s", s.Path)
	}
	return w.q(st.name) + "{" + w.entries(v, func(f example.Field) string {
		i := slices.IndexFunc(st.fields, func(fp *fieldPlan) bool { return fp.prop.Name == f.Name })
		if i < 0 {
			return w.fail("goclient: no field %q in %s", f.Name, st.name)
		}
		fp := st.fields[i]
		k := fp.prop.Schema.Kind
		return fp.name + ": " + w.value(fp.prop.Schema, f.Value, k != model.Map && k != model.Array && k != model.Any)
	}) + "}"
}

// entries writes the fields of v, one a line, each with its note.
func (w *litWriter) entries(v example.Value, entry func(example.Field) string) string {
	lines := make([]string, len(v.Fields))
	for i, f := range v.Fields {
		lines[i] = entry(f) + "," + noteComment(f.Value.Note)
	}
	return block(lines)
}

func block(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "\n" + strings.Join(lines, "\n") + "\n"
}

func noteComment(note string) string {
	if note == "" {
		return ""
	}
	return " // " + strings.ReplaceAll(note, "\n", " ")
}

// scalar is the Go constant of a scalar value: an enum's constant, a
// string, a number of the field's type, a boolean, a time.
func (w *litWriter) scalar(s *model.Schema, v example.Value) string {
	if e := w.p.enumOf[s]; e != nil {
		var str string
		if json.Unmarshal(v.Literal, &str) == nil {
			for i, ev := range s.Enum {
				if ev.Str == str {
					return w.q(e.consts[i])
				}
			}
		}
		return w.q(e.name) + "(" + string(v.Literal) + ")" // not a member: the example says what it needs
	}
	switch s.Kind {
	case model.String:
		var str string
		if err := json.Unmarshal(v.Literal, &str); err != nil {
			return w.fail("goclient: %s: %s is not a string", s.Path, v.Literal)
		}
		if isTime(s) {
			t, err := time.Parse(time.RFC3339Nano, str)
			if err != nil {
				return w.fail("goclient: %s: %q is not a date-time", s.Path, str)
			}
			w.imports = append(w.imports, "time")
			return fmt.Sprintf("time.Date(%d, %d, %d, %d, %d, %d, %d, time.UTC)", t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
		}
		return strconv.Quote(str)
	case model.Integer:
		return w.goTypeName(s) + "(" + string(v.Literal) + ")"
	case model.Number:
		return "float64(" + string(v.Literal) + ")"
	case model.Boolean:
		return string(v.Literal)
	}
	return w.fail("goclient: %s: no Go constant for a %v", s.Path, s.Kind)
}

// reference parses the example ID into a variable of the reference's ID
// type (Setup) and returns it, or a pointer to it.
func (w *litWriter) reference(s *model.Schema, v example.Value, pointer bool) string {
	var id string
	if err := json.Unmarshal(v.Literal, &id); err != nil {
		return w.fail("goclient: %s: %s is not a resource ID", s.Path, v.Literal)
	}
	parse := "ParseResourceID"
	if len(s.Reference.Types) == 1 {
		t := w.p.refTarget(s)
		if t == nil || t.ns != w.p.ns || !slices.Contains(w.p.idTypes(), t) {
			return w.fail("goclient: %s refers to %s, whose ID package %s does not declare", s.Path, s.Reference.Types[0], w.p.name)
		}
		parse = t.parseID
	}
	w.vars++
	name := "ref" + strconv.Itoa(w.vars)
	w.setup = append(w.setup, fmt.Sprintf("%s, err := %s(%q)\nif err != nil {\n\treturn err\n}", name, w.q(parse), id))
	if pointer {
		return "&" + name
	}
	return name
}

// typeOf is the Go type of a map or slice of s.
func (w *litWriter) typeOf(s *model.Schema) string {
	switch {
	case s.Kind == model.String && s.Reference != nil:
		if t := w.p.refTarget(s); t != nil {
			return w.q(t.idName)
		}
		return w.q("ResourceID")
	case w.p.enumOf[s] != nil:
		return w.q(w.p.enumOf[s].name)
	}
	switch s.Kind {
	case model.Object:
		if st := w.p.structOf[s]; st != nil {
			return w.q(st.name)
		}
	case model.Map:
		return "map[string]" + w.typeOf(s.AdditionalProperties)
	case model.Array:
		return "[]" + w.typeOf(s.Items)
	case model.Any:
		return "any"
	case model.String:
		if isTime(s) {
			w.imports = append(w.imports, "time")
			return "time.Time"
		}
		return "string"
	case model.Integer, model.Number, model.Boolean:
		return w.goTypeName(s)
	}
	return w.fail("goclient: %s: no Go type", s.Path)
}

// goTypeName is the Go type of a number or boolean of s.
func (w *litWriter) goTypeName(s *model.Schema) string {
	switch {
	case s.Kind == model.Integer && s.Format == "int32":
		return "int32"
	case s.Kind == model.Integer:
		return "int64"
	case s.Kind == model.Number:
		return "float64"
	}
	return "bool"
}

// anyLiteral is the Go value encoding/json decodes raw to in an any.
func anyLiteral(raw json.RawMessage) string {
	var x any
	d := json.NewDecoder(bytes.NewReader(raw))
	if d.Decode(&x) != nil {
		return "nil"
	}
	var lit func(any) string
	lit = func(x any) string {
		switch x := x.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			lines := make([]string, len(keys))
			for i, k := range keys {
				lines[i] = strconv.Quote(k) + ": " + lit(x[k]) + ","
			}
			return "map[string]any{" + block(lines) + "}"
		case []any:
			lines := make([]string, len(x))
			for i, e := range x {
				lines[i] = lit(e) + ","
			}
			return "[]any{" + block(lines) + "}"
		case string:
			return strconv.Quote(x)
		case float64:
			return "float64(" + strconv.FormatFloat(x, 'g', -1, 64) + ")"
		case bool:
			return strconv.FormatBool(x)
		}
		return "nil"
	}
	return lit(x)
}

// result formats the setup and the expression with gofmt.
func (w *litWriter) result(expr string) (Literal, error) {
	src := "package p\n\nfunc f() error {\n" + strings.Join(w.setup, "\n") + "\n_ = " + expr + "\nreturn nil\n}\n"
	b, err := format.Source([]byte(src))
	if err != nil {
		return Literal{}, fmt.Errorf("goclient: the literal does not parse: %v\n%s", err, src)
	}
	body := string(b)
	body = body[strings.Index(body, "{\n")+2 : strings.LastIndex(body, "\treturn nil\n}")]
	var lines []string
	for _, l := range strings.SplitAfter(body, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	body = strings.Join(lines, "")
	i := strings.LastIndex(body, "_ = ")
	slices.Sort(w.imports)
	setup := strings.TrimSpace(body[:i])
	if setup != "" {
		setup += "\n"
	}
	return Literal{Imports: slices.Compact(w.imports), Setup: setup, Expr: strings.TrimSuffix(body[i+len("_ = "):], "\n")}, nil
}
