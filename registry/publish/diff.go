package publish

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

func typeDiff(have api.ResourceTypeSummary, want api.ResourceTypeProperties) []FieldDiff {
	var d []FieldDiff
	if have.DefaultAPIVersion != want.DefaultAPIVersion {
		d = append(d, FieldDiff{"defaultApiVersion", have.DefaultAPIVersion, want.DefaultAPIVersion})
	}
	if have.Description != want.Description {
		d = append(d, FieldDiff{"description", Value(have.Description), Value(want.Description)})
	}
	if !slices.Equal(have.Capabilities, want.Capabilities) {
		d = append(d, FieldDiff{"capabilities", list(have.Capabilities), list(want.Capabilities)})
	}
	// An icon is compared by its hash, and only when the manifests' project
	// declares one: otherwise the type keeps the one it has.
	if want.Icon != "" && !strings.EqualFold(have.IconHash, api.IconHash(want.Icon)) {
		d = append(d, FieldDiff{"icon", iconName(have.IconHash), iconName(api.IconHash(want.Icon))})
	}
	return d
}

// iconName shows an icon in a plan: its hash, shortened.
func iconName(hash string) string {
	if len(hash) > 12 {
		hash = hash[:12]
	}
	return "sha256:" + hash
}

// lifecycleDiff lists the fields of an API version's lifecycle that
// differ, as lifecycle.deprecated and so on; "" is absent.
func lifecycleDiff(have, want *api.Lifecycle) []FieldDiff {
	var h, w api.Lifecycle
	if have != nil {
		h = *have
	}
	if want != nil {
		w = *want
	}
	var d []FieldDiff
	for _, f := range []struct{ name, old, new string }{
		{"deprecated", h.Deprecated, w.Deprecated}, {"sunset", h.Sunset, w.Sunset},
		{"replacement", h.Replacement, w.Replacement}, {"message", h.Message, w.Message},
	} {
		if f.old != f.new {
			d = append(d, FieldDiff{"lifecycle." + f.name, valueOrAbsent(f.old), valueOrAbsent(f.new)})
		}
	}
	return d
}

// valueOrAbsent renders s as Value does, "" (absent) for "".
func valueOrAbsent(s string) string {
	if s == "" {
		return ""
	}
	return Value(s)
}

// list renders a list of names as Value does, "" for none.
func list(names []string) string {
	if len(names) == 0 {
		return ""
	}
	vs := make([]any, len(names))
	for i, n := range names {
		vs[i] = n
	}
	return Value(vs)
}

func locationDiff(have, want api.LocationProperties) []FieldDiff {
	var d []FieldDiff
	if have.Address != want.Address {
		d = append(d, FieldDiff{"address", have.Address, want.Address})
	}
	return append(d, servedDiff(have.ResourceTypes, want.ResourceTypes)...)
}

// servedDiff lists, for every type a location gains, loses or serves other
// API versions of, the versions before and after: resourceTypes.redisCaches:
// [2025-06-01] → [2025-06-01, 2025-09-01]; "" is not served. Names compare
// case-insensitively, as the registry looks them up.
func servedDiff(have, want map[string]api.LocationResourceType) []FieldDiff {
	type served struct {
		name     string
		versions map[string]string // lower-cased → as spelled
	}
	norm := func(m map[string]api.LocationResourceType) map[string]served {
		out := map[string]served{}
		for name, lt := range m {
			s := served{name: name, versions: map[string]string{}}
			for v := range lt.APIVersions {
				s.versions[strings.ToLower(v)] = v
			}
			out[strings.ToLower(name)] = s
		}
		return out
	}
	listed := func(s served) string { return list(slices.Sorted(maps.Values(s.versions))) }
	h, w := norm(have), norm(want)
	keys := slices.Sorted(maps.Keys(h))
	for k := range w {
		if _, ok := h[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var d []FieldDiff
	for _, k := range keys {
		ht, inHave := h[k]
		wt, inWant := w[k]
		switch {
		case !inHave:
			d = append(d, FieldDiff{"resourceTypes." + wt.name, "", listed(wt)})
		case !inWant:
			d = append(d, FieldDiff{"resourceTypes." + ht.name, listed(ht), ""})
		case !maps.Equal(ht.versions, wt.versions):
			d = append(d, FieldDiff{"resourceTypes." + wt.name, listed(ht), listed(wt)})
		}
	}
	return d
}

// schemaDiff lists every difference between two schemas as written
// (schema.Diff: key order and spacing do not matter) with both values, at a
// property path: size.enum: [S, M, L] → [S, M]; "" is absent. Text that is
// not JSON differs as a whole.
func schemaDiff(have, want json.RawMessage) []FieldDiff {
	if sameJSONText(have, want) {
		return nil // the usual case of a publish: decoding both would find nothing
	}
	changes, err := schema.Diff(have, want)
	if err != nil {
		if bytes.Equal(have, want) {
			return nil
		}
		return []FieldDiff{{"schema", string(have), string(want)}}
	}
	d := make([]FieldDiff, len(changes))
	for i, c := range changes {
		d[i] = FieldDiff{SchemaPath(c.JSONKeys()), valueOf(c.Old), valueOf(c.New)}
	}
	return d
}

// sameJSONText reports whether a and b are the same bytes once compacted
// (then they are the same JSON value).
func sameJSONText(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	ca.Grow(len(a))
	cb.Grow(len(b))
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// valueOf renders a value of a schema difference as Value does; "" where it
// is absent.
func valueOf(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	return Value(v)
}

// SchemaPath names a place in a schema by its properties: the keys under
// `properties` are property names joined by dots, `items` is [], and
// `additionalProperties` is {} (a map's values); other keys are keywords:
// ["properties","size","enum"] → "size.enum", ["required"] → "required",
// [] → "schema".
func SchemaPath(keys []string) string {
	var b strings.Builder
	for i := 0; i < len(keys); i++ {
		k := keys[i]
		switch {
		case k == "properties" && i+1 < len(keys):
			i++
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(keys[i])
		case k == "items":
			b.WriteString("[]")
		case k == "additionalProperties":
			b.WriteString("{}")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		}
	}
	if b.Len() == 0 {
		return "schema"
	}
	return b.String()
}

// Value renders a JSON value compactly for a plan, in YAML's flow style:
// [S, M, L], {type: string, maxLength: 10}; strings are quoted only when
// they would read as something else (empty, spaces, punctuation, a number).
func Value(v any) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, k)
			b.WriteString(": ")
			writeValue(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, x)
		}
		b.WriteByte(']')
	case string:
		if plainString(v) {
			b.WriteString(v)
		} else {
			q, _ := json.Marshal(v)
			b.Write(q)
		}
	case nil:
		b.WriteString("null")
	default:
		q, err := json.Marshal(v)
		if err != nil {
			fmt.Fprint(b, v)
			return
		}
		b.Write(q)
	}
}

// plainString reports whether s reads as itself unquoted in a plan.
func plainString(s string) bool {
	if s == "" || s == "null" || s == "true" || s == "false" {
		return false
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./@#:$^*+?()|\\", r)) {
			return false
		}
	}
	return true
}
