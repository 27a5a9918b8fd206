package publish

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

func typeDiff(have api.ResourceTypeSummary, want api.ResourceTypeProperties) []FieldDiff {
	var d []FieldDiff
	if have.DefaultAPIVersion != want.DefaultAPIVersion {
		d = append(d, FieldDiff{"defaultApiVersion", have.DefaultAPIVersion, want.DefaultAPIVersion})
	}
	if have.Description != want.Description {
		d = append(d, FieldDiff{"description", short(have.Description), short(want.Description)})
	}
	if !slices.Equal(have.Capabilities, want.Capabilities) {
		d = append(d, FieldDiff{"capabilities", strings.Join(have.Capabilities, ","), strings.Join(want.Capabilities, ",")})
	}
	return d
}

func locationDiff(have, want api.LocationProperties) []FieldDiff {
	var d []FieldDiff
	if have.Address != want.Address {
		d = append(d, FieldDiff{"address", have.Address, want.Address})
	}
	return append(d, servedDiff(have.ResourceTypes, want.ResourceTypes)...)
}

// servedDiff names every type a location gains or loses ("adds
// redisCaches (2025-06-01)", "drops postgresDatabases (2025-01-01)") and
// every version of a type it keeps ("adds redisCaches@2025-09-01").
// Names compare case-insensitively, as the registry looks them up.
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
	listed := func(s served) string {
		vs := slices.Sorted(maps.Values(s.versions))
		return fmt.Sprintf("%s (%s)", s.name, strings.Join(vs, ", "))
	}
	h, w := norm(have), norm(want)
	keys := slices.Sorted(maps.Keys(h))
	for k := range w {
		if _, ok := h[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var d []FieldDiff
	change := func(s string) { d = append(d, FieldDiff{Field: "resourceTypes", New: s}) }
	for _, k := range keys {
		ht, inHave := h[k]
		wt, inWant := w[k]
		switch {
		case !inHave:
			change("adds " + listed(wt))
		case !inWant:
			change("drops " + listed(ht))
		default:
			for _, v := range slices.Sorted(maps.Keys(wt.versions)) {
				if _, ok := ht.versions[v]; !ok {
					change("adds " + wt.name + "@" + wt.versions[v])
				}
			}
			for _, v := range slices.Sorted(maps.Keys(ht.versions)) {
				if _, ok := wt.versions[v]; !ok {
					change("drops " + ht.name + "@" + ht.versions[v])
				}
			}
		}
	}
	return d
}

// short cuts long text for a one-line diff.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// schemaDiff compares two schemas as JSON values (key order and spacing do
// not matter) and names up to three JSON pointers where they differ.
func schemaDiff(have, want json.RawMessage) []FieldDiff {
	var a, b any
	errA := decode(have, &a)
	errB := decode(want, &b)
	if errA != nil || errB != nil {
		if bytes.Equal(have, want) {
			return nil
		}
		return []FieldDiff{{"schema", fmt.Sprintf("%d bytes", len(have)), fmt.Sprintf("%d bytes", len(want))}}
	}
	var paths []string
	jsonDiff("", a, b, &paths)
	if len(paths) == 0 {
		return nil
	}
	var d []FieldDiff
	for i, p := range paths {
		if i == 3 {
			d = append(d, FieldDiff{"schema", "", fmt.Sprintf("... and %d more changes", len(paths)-3)})
			break
		}
		d = append(d, FieldDiff{"schema" + p, "", "changed"})
	}
	return d
}

func decode(raw json.RawMessage, v *any) error {
	if len(raw) == 0 {
		*v = map[string]any{}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// jsonDiff appends the pointers where a and b differ: added, removed or
// changed members, or a changed scalar or array.
func jsonDiff(path string, a, b any, out *[]string) {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if !okA || !okB {
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, path)
		}
		return
	}
	keys := slices.Sorted(maps.Keys(ma))
	for k := range mb {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := api.AppendPointer(path, k)
		va, inA := ma[k]
		vb, inB := mb[k]
		switch {
		case !inA:
			*out = append(*out, p+" (added)")
		case !inB:
			*out = append(*out, p+" (removed)")
		default:
			jsonDiff(p, va, vb, out)
		}
	}
}
