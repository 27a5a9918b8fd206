package synth

import (
	"math/rand/v2"
	"strconv"
)

// scalar is a template for a leaf (or small container) property: a name
// and a builder that picks its constraints.
type scalar struct {
	name  string
	build func(g *gen, name string) *node
	// input reports whether the property can be required (not read-only).
	input bool
}

func str(desc string) *node { return newNode("string", desc) }

func enumOf(vals ...string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = quote(v)
	}
	return out
}

func intRange(g *gen, name string, lo, hi int, def bool) *node {
	n := newNode("integer", g.desc(name))
	n.minimum, n.maximum = strconv.Itoa(lo), strconv.Itoa(hi)
	if def {
		n.def = strconv.Itoa(lo + g.r.IntN(hi-lo+1))
	}
	return n
}

// scalars are the leaf property templates. Every builder returns a valid
// node for the supported subset: defaults sit inside enums and bounds, and
// patterns use only syntax shared by ECMAScript and Go (RE2).
var scalars = []scalar{
	{"size", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("S", "M", "L", "XL")
		if g.r.IntN(2) == 0 {
			n.def = quote("S")
		}
		return n
	}, true},
	{"tier", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("basic", "standard", "premium")
		return n
	}, true},
	{"sku", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("Free", "Developer", "Standard", "Enterprise", "Isolated")
		return n
	}, true},
	{"engineVersion", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^[0-9]+\.[0-9]+(\.[0-9]+)?$`
		n.maxLength = 16
		return n
	}, true},
	{"region", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^[a-z]+-[a-z]+-[0-9]$`
		return n
	}, true},
	{"username", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^[a-z_][a-z0-9_]*$`
		n.minLength, n.maxLength = 1, 63
		return n
	}, true},
	{"password", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.sensitive = true
		n.minLength, n.maxLength = 12, 128
		return n
	}, true},
	{"connectionString", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.sensitive, n.readOnly = true, true
		return n
	}, false},
	{"host", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.readOnly = true
		return n
	}, false},
	{"port", func(g *gen, name string) *node {
		n := intRange(g, name, 1, 65535, false)
		n.readOnly = true
		return n
	}, false},
	{"endpointUrl", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.readOnly = true
		n.pattern = `^https?://[^\s]+$`
		return n
	}, false},
	{"databaseName", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^[A-Za-z][A-Za-z0-9_]{0,62}$`
		return n
	}, true},
	{"image", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^[a-z0-9./_-]+(:[A-Za-z0-9._-]+)?$`
		n.maxLength = 512
		return n
	}, true},
	{"storageClass", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("standard", "premium-ssd", "ultra-ssd", "archive")
		n.def = quote("standard")
		return n
	}, true},
	{"protocol", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("TCP", "UDP")
		return n
	}, true},
	{"logLevel", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("debug", "info", "warn", "error")
		n.def = quote("info")
		return n
	}, true},
	{"displayName", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.maxLength = 256
		return n
	}, true},
	{"ownerEmail", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^[^@\s]+@[^@\s]+$`
		return n
	}, true},
	{"cronSchedule", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.pattern = `^(\S+\s+){4}\S+$`
		return n
	}, true},
	{"timezone", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.def = quote("UTC")
		return n
	}, true},
	{"kmsKeyId", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.sensitive = true
		return n
	}, true},
	{"apiKey", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.sensitive, n.readOnly = true, true
		return n
	}, false},
	{"accessMode", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.enum = enumOf("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany")
		return n
	}, true},
	{"ipAddress", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.readOnly = true
		n.pattern = `^[0-9]{1,3}(\.[0-9]{1,3}){3}$`
		return n
	}, false},
	{"secretName", func(g *gen, name string) *node {
		n := str(g.desc(name))
		n.minLength, n.maxLength = 1, 253
		return n
	}, true},
	{"replicas", func(g *gen, name string) *node { return intRange(g, name, 1, 100, true) }, true},
	{"timeoutSeconds", func(g *gen, name string) *node { return intRange(g, name, 1, 3600, true) }, true},
	{"retentionDays", func(g *gen, name string) *node { return intRange(g, name, 1, 365, false) }, true},
	{"maxConnections", func(g *gen, name string) *node { return intRange(g, name, 1, 10000, false) }, true},
	{"storageSizeGb", func(g *gen, name string) *node { return intRange(g, name, 1, 16384, false) }, true},
	{"memoryInMib", func(g *gen, name string) *node { return intRange(g, name, 128, 262144, false) }, true},
	{"partitionCount", func(g *gen, name string) *node { return intRange(g, name, 1, 1024, true) }, true},
	{"priority", func(g *gen, name string) *node { return intRange(g, name, 0, 10, false) }, true},
	{"cpu", func(g *gen, name string) *node {
		n := newNode("number", g.desc(name))
		n.minimum, n.maximum = "0.1", "64"
		return n
	}, true},
	{"samplingRatio", func(g *gen, name string) *node {
		n := newNode("number", g.desc(name))
		n.minimum, n.maximum = "0", "1"
		n.def = "0.5"
		return n
	}, true},
	{"monthlyBudget", func(g *gen, name string) *node {
		n := newNode("number", g.desc(name))
		n.minimum = "0"
		return n
	}, true},
	{"enabled", boolean, true},
	{"highAvailability", boolean, true},
	{"publicAccess", boolean, true},
	{"encryptionAtRest", boolean, true},
	{"deletionProtection", boolean, true},
	{"zoneRedundant", boolean, true},
	{"tags", func(g *gen, name string) *node {
		n := newNode("array", g.desc(name))
		n.items = str("")
		n.items.maxLength = 128
		n.maxItems = 50
		return n
	}, true},
	{"allowedCidrs", func(g *gen, name string) *node {
		n := newNode("array", g.desc(name))
		n.items = str("An IPv4 CIDR block.")
		n.items.pattern = `^[0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}$`
		return n
	}, true},
	{"labels", func(g *gen, name string) *node {
		n := newNode("object", g.desc(name))
		n.addl = str("")
		n.addl.maxLength = 63
		return n
	}, true},
	{"annotations", func(g *gen, name string) *node {
		n := newNode("object", g.desc(name))
		n.addl = str("")
		return n
	}, true},
}

func boolean(g *gen, name string) *node {
	n := newNode("boolean", g.desc(name))
	if g.r.IntN(3) == 0 {
		n.def = strconv.FormatBool(g.r.IntN(2) == 0)
	}
	return n
}

// pickScalars returns k distinct scalar template indexes.
func pickScalars(r *rand.Rand, k int) []int {
	return r.Perm(len(scalars))[:k]
}

// scalar builds a property from template s; in the deep profile with more
// constraints than the template gives.
func (g *gen) scalar(s scalar) *node {
	n := s.build(g, s.name)
	if g.deep {
		g.constrain(n)
	}
	return n
}

// constrain adds the deep profile's constraints to a freshly built node,
// keeping it valid: every default still satisfies them.
func (g *gen) constrain(n *node) {
	switch n.typ {
	case "string":
		if n.maxLength < 0 && len(n.enum) == 0 {
			n.maxLength = 64 + 64*g.r.IntN(8)
		}
		if n.pattern == "" && len(n.enum) == 0 && n.def == "" && g.r.IntN(3) == 0 {
			n.format = formats[g.r.IntN(len(formats))]
		}
	case "integer":
		if n.def == "" && n.minimum == "1" {
			n.multipleOf = "1"
		}
	case "number":
		if n.def == "" {
			n.multipleOf = "0.01"
		}
	case "array":
		n.minItems = 0
		if n.maxItems < 0 {
			n.maxItems = 100
		}
		n.uniqueItems = n.items != nil && n.items.typ == "string"
	}
}

// formats are the string formats the deep profile uses.
var formats = []string{"uri", "uuid", "date-time", "email"}
