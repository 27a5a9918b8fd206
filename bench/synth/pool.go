package synth

import (
	"math/rand/v2"
	"strconv"
)

// recipeStatusRef is the built-in schema every recipe-backed type reports.
const recipeStatusRef = "https://radapp.io/schemas/v1#RecipeStatus"

// fragmentVariants is how many shapes each fragment name has.
const fragmentVariants = 2

// pool holds the catalog-wide shared nodes: fragments (nested objects,
// arrays of objects and maps, by fragment name) and read-only status blocks.
type pool struct {
	fragments [][]*node // [fragment name index][variant]
	status    []*node
}

func newPool(r *rand.Rand, deep bool) *pool {
	g := &gen{r: r, deep: deep}
	p := &pool{fragments: make([][]*node, len(fragmentNames))}
	for fi, name := range fragmentNames {
		for v := range fragmentVariants {
			p.fragments[fi] = append(p.fragments[fi], g.fragment(name, (fi+v)%4))
		}
	}
	for range 4 {
		p.status = append(p.status, g.status())
	}
	return p
}

// pick returns a variant of fragment fi.
func (p *pool) pick(r *rand.Rand, fi int) *node {
	v := p.fragments[fi]
	return v[r.IntN(len(v))]
}

// object returns an object node with k distinct scalar properties (plus
// extra, appended) and one required input property when any exists.
func (g *gen) object(desc string, k int, extra ...prop) *node {
	n := newNode("object", desc)
	for _, si := range pickScalars(g.r, k) {
		s := scalars[si]
		pn := g.scalar(s)
		n.props = append(n.props, prop{s.name, pn})
		// A default never applies to a required property (rule
		// required-default): only the deep profile asks for the warning.
		if s.input && (pn.def == "" || g.deep && g.r.IntN(3) == 0) && len(n.required) == 0 {
			n.required = []string{s.name}
		}
	}
	n.props = append(n.props, extra...)
	return n
}

func (g *gen) nestedName(not ...string) string {
	for {
		name := nestedNames[g.r.IntN(len(nestedNames))]
		ok := true
		for _, x := range not {
			ok = ok && x != name
		}
		if ok {
			return name
		}
	}
}

// fragment builds one shape of a named fragment:
// 0 an object nested three levels, 1 an array of objects, 2 a map of
// objects, 3 an object holding an array of objects and a map.
func (g *gen) fragment(name string, kind int) *node {
	desc := g.desc(name)
	switch kind {
	case 0:
		n2, n3 := g.nestedName(), ""
		n3 = g.nestedName(n2)
		level3 := g.object(g.desc(n3), 2)
		if g.deep {
			// Two more levels below the third.
			for range 2 {
				name := g.nestedName(n3)
				level3 = g.object(g.desc(name), 1+g.r.IntN(2), prop{name, level3})
			}
		}
		level2 := g.object(g.desc(n2), 1+g.r.IntN(2), prop{n3, level3})
		return g.object(desc, 1+g.r.IntN(2), prop{n2, level2})
	case 1:
		inner := g.nestedName()
		item := g.object("", 2, prop{inner, g.object(g.desc(inner), 2)})
		n := newNode("array", desc)
		n.items = item
		if g.r.IntN(2) == 0 {
			n.maxItems = 16 + g.r.IntN(48)
		}
		return n
	case 2:
		inner := g.nestedName()
		n := newNode("object", desc)
		n.addl = g.object("", 2+g.r.IntN(2), prop{inner, g.object(g.desc(inner), 1)})
		return n
	default:
		list, dict := g.nestedName(), g.nestedName()
		arr := newNode("array", g.desc(list))
		arr.items = g.object("", 2)
		m := newNode("object", g.desc(dict+"Map"))
		m.addl = str("")
		return g.object(desc, 1+g.r.IntN(2), prop{list + "List", arr}, prop{dict + "Map", m})
	}
}

// status is a read-only block with connection values and the recipe status.
func (g *gen) status() *node {
	binding := newNode("object", "(Read Only) Values a connected container receives as environment variables.")
	binding.props = []prop{
		{"host", str("The host name used to connect to the resource.")},
		{"port", intNode("The port used to connect to the resource.", 1, 65535)},
	}
	if g.r.IntN(2) == 0 {
		binding.props = append(binding.props, prop{"username", str("The user name for the connection.")})
	}
	secret := str("The connection string, including credentials.")
	secret.sensitive = true
	binding.props = append(binding.props, prop{"connectionString", secret})
	if g.r.IntN(2) == 0 {
		url := str("The URL of the resource's endpoint.")
		url.pattern = `^https?://[^\s]+$`
		binding.props = append(binding.props, prop{"url", url})
	}
	n := newNode("object", "(Read Only) Status reported by the recipe that provisioned the resource.")
	n.readOnly = true
	n.props = []prop{{"binding", binding}, {"recipe", &node{ref: recipeStatusRef}}}
	return n
}

func intNode(desc string, lo, hi int) *node {
	n := newNode("integer", desc)
	n.minimum, n.maximum = strconv.Itoa(lo), strconv.Itoa(hi)
	return n
}
