package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// explainFlags are the flags of `udtc explain`.
type explainFlags struct{ typeSourceFlags }

func explainCommand(e *env) *cli.Command {
	f := &explainFlags{}
	return &cli.Command{
		Name:      "explain",
		Usage:     "describe a resource type or one of its properties (like kubectl explain)",
		ArgsUsage: "NAMESPACE/TYPE[@VERSION][.path]",
		Description: "Describes a type's API version (the default one unless @VERSION is given) or a property below\n" +
			"it (.size, .status.recipe; array items and map values are stepped into): its type, constraints,\n" +
			"default, description and children, read from local manifests (--manifests) or a registry (--server).",
		Flags:  f.flags(),
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

// explained is `udtc explain --output json`.
type explained struct {
	Type        string            `json:"type"` // NAMESPACE/TYPE@VERSION
	Path        string            `json:"path,omitempty"`
	APIVersions []string          `json:"apiVersions"`
	Default     string            `json:"defaultApiVersion,omitempty"`
	Field       admission.Field   `json:"field"`
	Children    []admission.Field `json:"children,omitempty"`
}

func (f *explainFlags) run(c *cli.Context, e *env) error {
	if err := checkOutput(f.server.output); err != nil {
		return err
	}
	if c.Args().Len() != 1 {
		return usageErrorf("explain takes one argument: NAMESPACE/TYPE[@VERSION][.path]")
	}
	ref, err := api.ParseTypeRef(c.Args().First())
	if err != nil {
		return usageErrorf("%v", err)
	}
	res, err := f.lookup(c, e, ref)
	if err != nil {
		return err
	}
	schema, err := admission.Compile(res.schema)
	if err != nil {
		return fail(exitFail, fmt.Errorf("%s: the schema cannot be compiled: %w", res.ref, err))
	}
	field, children, err := schema.Explain(ref.Path)
	if err != nil {
		return fail(exitFail, fmt.Errorf("%s has %w", res.ref, err))
	}
	out := explained{Type: res.ref.String(), APIVersions: res.summary.Versions(), Default: res.summary.DefaultAPIVersion,
		Path: strings.Join(ref.Path, "."), Field: field, Children: children}
	if len(ref.Path) == 0 {
		out.Field.Description = res.summary.Description
		if len(res.summary.Capabilities) > 0 {
			out.Field.Constraints = append(out.Field.Constraints, "capabilities: "+strings.Join(res.summary.Capabilities, ", "))
		}
	}
	if f.server.output == "json" {
		return writeJSON(e.stdout, out)
	}
	printExplained(e.stdout, out)
	return nil
}

func printExplained(w io.Writer, x explained) {
	fmt.Fprintf(w, "TYPE:     %s\n", x.Type)
	fmt.Fprintf(w, "VERSIONS: %s (default %s)\n", strings.Join(x.APIVersions, ", "), x.Default)
	if x.Path != "" {
		req := ""
		if x.Field.Required {
			req = " -required-"
		}
		fmt.Fprintf(w, "FIELD:    %s <%s>%s\n", x.Path, x.Field.Kind, req)
	}
	if x.Field.Description != "" {
		fmt.Fprintf(w, "\nDESCRIPTION:\n%s\n", indent(x.Field.Description, "  "))
	}
	if len(x.Field.Constraints) > 0 {
		fmt.Fprintf(w, "\nCONSTRAINTS:\n  %s\n", strings.Join(x.Field.Constraints, "\n  "))
	}
	if len(x.Children) > 0 {
		fmt.Fprintf(w, "\nFIELDS:\n")
		for _, c := range x.Children {
			req := ""
			if c.Required {
				req = "  -required-"
			}
			fmt.Fprintf(w, "  %s <%s>%s\n", c.Name, c.Kind, req)
			if len(c.Constraints) > 0 {
				fmt.Fprintf(w, "    (%s)\n", strings.Join(c.Constraints, "; "))
			}
			if c.Description != "" {
				fmt.Fprintf(w, "%s\n", indent(c.Description, "    "))
			}
		}
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
