// Package synth generates synthetic, realistic resource type catalogs for
// benchmarks: manifests in the shape of resources-types-contrib (one file per
// top-level type, its child types alongside), with about 25 top-level
// properties per type mixing constrained strings, bounded numbers, booleans,
// arrays of objects, maps, objects nested three levels, required lists,
// readOnly, x-radius-sensitive and the built-in RecipeStatus $ref.
//
// Output is a pure function of Options: the same options give the same bytes
// on every run and platform. Nested objects are drawn from a catalog-wide pool
// of shared fragments and later API versions extend earlier ones, as real
// catalogs do, so an emitter that de-duplicates types has something to find.
//
// At 1,000 types × 2 versions × 10 namespaces the catalog is about 22 MB.
package synth

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Reference is the catalog the performance targets are stated for, which
// make bench measures by default and the Go benchmarks generate: 1,000
// types of 2 API versions each in 10 namespaces, seed 1.
var Reference = Options{Types: 1000, Versions: 2, Namespaces: 10, Seed: 1}

// Options sizes a catalog.
type Options struct {
	// Types is the total number of resource types across all namespaces,
	// child types included.
	Types int
	// Versions is the number of API versions of every type (1..MaxVersions).
	Versions int
	// Namespaces is the number of resource provider namespaces; types are
	// spread evenly across them.
	Namespaces int
	// Seed selects the catalog; equal seeds give byte-identical output.
	Seed uint64
	// Profile is the shape of the schemas: ProfileFlat (the default, "")
	// or ProfileDeep.
	Profile string
}

// The profiles. Flat is the catalog the targets were first stated for;
// deep nests objects five levels instead of three, puts more constraints
// on every property (multipleOf, formats, item counts, unique items) and
// declares required properties with defaults, which the checker warns
// about (rule required-default): a catalog that exercises the diagnostics
// printer and the deeper walks.
const (
	ProfileFlat = "flat"
	ProfileDeep = "deep"
)

// Profiles lists the profiles, the default first.
var Profiles = []string{ProfileFlat, ProfileDeep}

// MaxVersions bounds Options.Versions: later versions each add properties,
// and the templates run out beyond it.
const MaxVersions = 8

// File is one generated manifest.
type File struct {
	// Path is slash-separated and relative: "Contoso.Data/redisCaches/redisCaches.yaml".
	Path string
	Data []byte
}

// Validate reports options the generator cannot honour.
func (o Options) Validate() error {
	var errs []error
	if o.Types < 1 {
		errs = append(errs, fmt.Errorf("types must be at least 1, got %d", o.Types))
	}
	if o.Versions < 1 || o.Versions > MaxVersions {
		errs = append(errs, fmt.Errorf("versions must be between 1 and %d, got %d", MaxVersions, o.Versions))
	}
	if o.Namespaces < 1 {
		errs = append(errs, fmt.Errorf("namespaces must be at least 1, got %d", o.Namespaces))
	} else if o.Types >= 1 && o.Namespaces > o.Types {
		errs = append(errs, fmt.Errorf("namespaces (%d) must not exceed types (%d)", o.Namespaces, o.Types))
	}
	if o.Profile != "" && !slices.Contains(Profiles, o.Profile) {
		errs = append(errs, fmt.Errorf("profile must be one of %s, got %q", strings.Join(Profiles, ", "), o.Profile))
	}
	return errors.Join(errs...)
}

// Generate returns the catalog's files sorted by path. It returns an error
// only for invalid options.
func Generate(o Options) ([]File, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	deep := o.Profile == ProfileDeep
	pool := newPool(rand.New(rand.NewPCG(o.Seed, 0)), deep)
	names := namespaceNames(rand.New(rand.NewPCG(o.Seed, 1)), o.Namespaces)
	var files []File
	for i, ns := range names {
		count := o.Types / o.Namespaces
		if i < o.Types%o.Namespaces {
			count++
		}
		g := &gen{r: rand.New(rand.NewPCG(o.Seed, uint64(i)+2)), pool: pool, versions: o.Versions, deep: deep}
		files = append(files, g.namespace(ns, count)...)
	}
	sortFiles(files)
	return files, nil
}

func sortFiles(files []File) {
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}

// namespaceNames returns n distinct "Company.Area" names.
func namespaceNames(r *rand.Rand, n int) []string {
	combos := len(companies) * len(areas)
	perm := r.Perm(combos)
	out := make([]string, n)
	for i := range n {
		c := perm[i%combos]
		name := companies[c%len(companies)] + "." + areas[c/len(companies)]
		if round := i / combos; round > 0 {
			name += strconv.Itoa(round + 1)
		}
		out[i] = name
	}
	return out
}

// gen generates one namespace. It owns its random source.
type gen struct {
	r        *rand.Rand
	pool     *pool
	versions int
	deep     bool // ProfileDeep
}

// typeSpec is one resource type before rendering.
type typeSpec struct {
	name         string // "redisCaches" or "redisCaches/replicas"
	capabilities []string
	versions     []string
	defaultVer   string
	// props[k] is added in version k (k = 0 holds the base properties).
	props    [][]prop
	required []string
	desc     string
}

func (g *gen) namespace(ns string, count int) []File {
	combos := len(typePrefixes) * len(typeNouns)
	perm := g.r.Perm(combos)
	var files []File
	made := 0
	for i := 0; made < count; i++ {
		c := perm[i%combos]
		name := typePrefixes[c%len(typePrefixes)] + typeNouns[c/len(typePrefixes)]
		if round := i / combos; round > 0 {
			name += strconv.Itoa(round + 1)
		}
		types := []*typeSpec{g.resourceType(ns, name, "")}
		made++
		// About one top-level type in eight has a child type.
		if made < count && g.r.IntN(8) == 0 {
			child := name + "/" + childNouns[g.r.IntN(len(childNouns))]
			types = append(types, g.resourceType(ns, child, name))
			made++
		}
		files = append(files, File{Path: ns + "/" + name + "/" + name + ".yaml", Data: render(ns, types)})
	}
	sortFiles(files)
	return files
}

func (g *gen) resourceType(ns, name, parent string) *typeSpec {
	t := &typeSpec{name: name}
	nScalars, nFrags := 17, 4
	if parent == "" {
		if g.r.IntN(7) == 0 {
			t.capabilities = []string{"ManualResourceProvisioning"}
		} else {
			t.capabilities = []string{"SupportsRecipes"}
		}
	} else {
		nScalars, nFrags = 10, 3
	}
	t.versions = g.versionNames()
	if g.r.IntN(3) == 0 {
		t.defaultVer = t.versions[len(t.versions)-1]
	}

	extra := g.versions - 1
	scalarIdx := pickScalars(g.r, nScalars+extra)
	fragIdx := g.r.Perm(len(fragmentNames))[:nFrags+extra]

	base := []prop{
		{"environment", str("(Required) The Radius Environment ID. Typically set by the rad CLI.")},
		{"application", str("(Optional) The Radius Application ID. `myApplication.id` for example.")},
	}
	t.required = []string{"environment"}
	for _, si := range scalarIdx[:nScalars] {
		s := scalars[si]
		pn := g.scalar(s)
		base = append(base, prop{s.name, pn})
		if s.input && len(t.required) < 3 && g.r.IntN(5) == 0 && (pn.def == "" || g.deep) {
			t.required = append(t.required, s.name)
		}
	}
	for _, fi := range fragIdx[:nFrags] {
		base = append(base, prop{fragmentNames[fi], g.pool.pick(g.r, fi)})
	}
	if g.r.IntN(10) < 7 {
		base = append(base, prop{"status", g.pool.status[g.r.IntN(len(g.pool.status))]})
	}
	t.props = [][]prop{base}
	for k := range extra {
		s := scalars[scalarIdx[nScalars+k]]
		fi := fragIdx[nFrags+k]
		t.props = append(t.props, []prop{
			{s.name, g.scalar(s)},
			{fragmentNames[fi], g.pool.pick(g.r, fi)},
		})
	}
	t.desc = g.typeDescription(ns, name, base)
	return t
}

// versionNames returns g.versions API version names, oldest first; the
// first is a preview when there are several.
func (g *gen) versionNames() []string {
	month := g.r.IntN(18) // months after 2023-01
	out := make([]string, g.versions)
	for k := range out {
		m := month + 3*k
		v := fmt.Sprintf("%04d-%02d-01", 2023+m/12, m%12+1)
		if k == 0 && g.versions > 1 {
			v += "-preview"
		}
		out[k] = v
	}
	return out
}

// desc returns a one-line property description.
func (g *gen) desc(name string) string {
	d := fmt.Sprintf("%s the %s %s used for %s.",
		verbs[g.r.IntN(len(verbs))], adjectives[g.r.IntN(len(adjectives))],
		objects[g.r.IntN(len(objects))], words(name))
	if g.r.IntN(8) == 0 {
		d += " " + clauses[g.r.IntN(len(clauses))]
	}
	return d
}

func (g *gen) typeDescription(ns, name string, props []prop) string {
	leaf := name[strings.LastIndexByte(name, '/')+1:]
	var b strings.Builder
	fmt.Fprintf(&b, "The %s/%s Resource Type deploys %s %s. It is part of a Radius Application\n", ns, name,
		adjectives[g.r.IntN(len(adjectives))], words(leaf))
	fmt.Fprintf(&b, "and is provisioned by a recipe registered in the environment. %s\n\n", clauses[g.r.IntN(len(clauses))])
	b.WriteString("```bicep\n")
	fmt.Fprintf(&b, "resource example '%s/%s@%s' = {\n  name: 'example'\n  properties: {\n    environment: environment\n    application: myApplication.id\n", ns, name, "2025-01-01")
	for _, p := range props[2:5] {
		fmt.Fprintf(&b, "    %s: %s\n", p.name, exampleValue(p.n))
	}
	b.WriteString("  }\n}\n```\n\n")
	fmt.Fprintf(&b, "To connect a container to it, add a connection named after the resource; Radius injects\n")
	fmt.Fprintf(&b, "`CONNECTION_<NAME>_<PROPERTY>` environment variables for its read-only properties.\n")
	return b.String()
}

func exampleValue(n *node) string {
	switch {
	case len(n.enum) > 0:
		return n.enum[0]
	case n.def != "":
		return n.def
	case n.typ == "string":
		return "'value'"
	case n.typ == "integer", n.typ == "number":
		if n.minimum != "" {
			return n.minimum
		}
		return "1"
	case n.typ == "boolean":
		return "true"
	case n.typ == "array":
		return "[]"
	default:
		return "{}"
	}
}

// words turns "maintenanceWindow" into "maintenance window".
func words(name string) string {
	var b strings.Builder
	for i, c := range name {
		if unicode.IsUpper(c) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// render writes one manifest file declaring types.
func render(ns string, types []*typeSpec) []byte {
	var b bytes.Buffer
	b.Grow(32 << 10)
	line(&b, 0, "namespace: "+ns)
	line(&b, 0, "types:")
	for _, t := range types {
		line(&b, 2, t.name+":")
		line(&b, 4, "description: |")
		for l := range strings.Lines(t.desc) {
			l = strings.TrimSuffix(l, "\n")
			if l == "" {
				b.WriteByte('\n')
				continue
			}
			line(&b, 6, l)
		}
		if len(t.capabilities) > 0 {
			line(&b, 4, "capabilities: ["+strings.Join(t.capabilities, ", ")+"]")
		}
		if t.defaultVer != "" {
			line(&b, 4, "defaultApiVersion: "+quote(t.defaultVer))
		}
		line(&b, 4, "apiVersions:")
		for k, v := range t.versions {
			line(&b, 6, quote(v)+":")
			line(&b, 8, "schema:")
			line(&b, 10, "type: object")
			line(&b, 10, "properties:")
			for _, ps := range t.props[:k+1] {
				for _, p := range ps {
					line(&b, 12, p.name+":")
					p.n.write(&b, 14)
				}
			}
			line(&b, 10, "required: ["+strings.Join(t.required, ", ")+"]")
		}
	}
	return b.Bytes()
}
