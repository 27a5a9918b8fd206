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
	if !sameServed(have.ResourceTypes, want.ResourceTypes) {
		d = append(d, FieldDiff{"resourceTypes", served(have.ResourceTypes), served(want.ResourceTypes)})
	}
	return d
}

func sameServed(a, b map[string]api.LocationResourceType) bool {
	norm := func(m map[string]api.LocationResourceType) map[string][]string {
		out := map[string][]string{}
		for t, v := range m {
			out[strings.ToLower(t)] = slices.Sorted(maps.Keys(v.APIVersions))
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// served summarises a location's types as "n types, m versions".
func served(m map[string]api.LocationResourceType) string {
	versions := 0
	for _, t := range m {
		versions += len(t.APIVersions)
	}
	return fmt.Sprintf("%d types, %d versions", len(m), versions)
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
		p := path + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
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
