// Package explain renders resource types for people: what `udtc explain`
// prints about a type's API version or one of its properties, and `udtc
// registry show`'s summary of a namespace, with each API version's schema
// as an aligned table. It reads registry/api summaries and describes
// schemas with registry/admission (Schema.Explain), so the words are the
// ones admission's errors use. It writes only to the io.Writer it is given.
package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// Result is what `udtc explain` shows, and prints with --output json.
type Result struct {
	Type        string   `json:"type"` // NAMESPACE/TYPE@VERSION
	Path        string   `json:"path,omitempty"`
	APIVersions []string `json:"apiVersions"`
	Default     string   `json:"defaultApiVersion,omitempty"`
	// Deprecated is the API version's lifecycle notice
	// (api.Lifecycle.Notice), "" when it is not deprecated; Lifecycle the
	// lifecycle itself.
	Deprecated string            `json:"deprecated,omitempty"`
	Lifecycle  *api.Lifecycle    `json:"lifecycle,omitempty"`
	Field      admission.Field   `json:"field"`
	Children   []admission.Field `json:"children,omitempty"`
}

// Describe explains ref (resolved: with the registered names and its API
// version) of the type sum: the API version itself, or the place ref.Path
// names (admission.Schema.Explain). It fails when the version's schema does
// not compile or the path names a property the schema does not have (the
// error wraps an *admission.PathError).
func Describe(ref api.TypeRef, sum api.ResourceTypeSummary) (Result, error) {
	schema, err := admission.Compile(sum.APIVersions[ref.Version].Schema)
	if err != nil {
		return Result{}, fmt.Errorf("%s: the schema cannot be compiled: %w", ref, err)
	}
	field, children, err := schema.Explain(ref.Path)
	if err != nil {
		return Result{}, fmt.Errorf("%s has %w", ref, err)
	}
	out := Result{Type: ref.String(), APIVersions: sum.Versions(), Default: sum.Default(),
		Path: strings.Join(ref.Path, "."), Field: field, Children: children}
	if l := sum.APIVersions[ref.Version].Lifecycle; l != nil {
		out.Lifecycle, out.Deprecated = l, l.Notice(ref.Namespace+"/"+ref.Type, ref.Version)
	}
	if len(ref.Path) == 0 {
		out.Field.Description = sum.Description
		if len(sum.Capabilities) > 0 {
			out.Field.Constraints = append(out.Field.Constraints, "capabilities: "+strings.Join(sum.Capabilities, ", "))
		}
	}
	return out, nil
}

// WriteText writes r as kubectl explain does: TYPE, VERSIONS, FIELD, then
// DESCRIPTION, CONSTRAINTS and FIELDS (the children) when there are any.
func (r Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "TYPE:     %s\n", r.Type)
	fmt.Fprintf(&b, "VERSIONS: %s (default %s)\n", strings.Join(r.APIVersions, ", "), r.Default)
	if r.Deprecated != "" {
		fmt.Fprintf(&b, "DEPRECATED: %s\n", r.Deprecated)
	}
	if r.Path != "" {
		fmt.Fprintf(&b, "FIELD:    %s <%s>%s\n", r.Path, r.Field.Kind, mark(r.Field.Required, " -required-"))
	}
	if r.Field.Description != "" {
		fmt.Fprintf(&b, "\nDESCRIPTION:\n%s\n", indent(r.Field.Description, "  "))
	}
	if len(r.Field.Constraints) > 0 {
		fmt.Fprintf(&b, "\nCONSTRAINTS:\n  %s\n", strings.Join(r.Field.Constraints, "\n  "))
	}
	if len(r.Children) > 0 {
		b.WriteString("\nFIELDS:\n")
		for _, c := range r.Children {
			fmt.Fprintf(&b, "  %s <%s>%s\n", c.Name, c.Kind, mark(c.Required, "  -required-"))
			if len(c.Constraints) > 0 {
				fmt.Fprintf(&b, "    (%s)\n", strings.Join(c.Constraints, "; "))
			}
			if c.Description != "" {
				fmt.Fprintf(&b, "%s\n", indent(c.Description, "    "))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mark is s when set, else "".
func mark(set bool, s string) string {
	if set {
		return s
	}
	return ""
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
