package main

import (
	"embed"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/serve"
)

// helpFiles hold each command's long description, help/NAME.txt, so the
// command files carry flags and a call, not paragraphs of prose.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpValues are the {{name}} placeholders a help file may use: values the
// text states but the code owns.
func helpValues() *strings.Replacer {
	return strings.NewReplacer(
		"{{default-store}}", serve.DefaultStoreName(),
		"{{manifest-schema-id}}", manifest.SchemaID,
		"{{oci-placeholder}}", oci.Placeholder,
	)
}

// description is the long description of command name: help/NAME.txt
// without its final newline, placeholders replaced; "" when there is none.
func description(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return ""
	}
	return helpValues().Replace(strings.TrimSuffix(string(b), "\n"))
}

// examples are the examples every command's --help ends with, by command
// path. A test fails when a command has none.
var examples = map[string][]string{
	"bicep":           {"udtc bicep sync --server https://registry.internal"},
	"bicep sync":      {"udtc bicep sync --server https://registry.internal", "udtc bicep sync --server http://127.0.0.1:7443 Contoso.Data", "udtc bicep sync --server https://registry.internal --check"},
	"breaking":        {"udtc breaking manifests --against main", "udtc breaking manifests --against ../old-manifests --format github", "udtc breaking manifests --against main --allow-breaking=Contoso.Data/postgresDatabases@2025-06-01"},
	"check":           {"udtc check manifests", "udtc check --format sarif . > udtc.sarif"},
	"completion":      {"source <(udtc completion bash)", "udtc completion zsh > \"${fpath[1]}/_udtc\"", "udtc completion fish > ~/.config/fish/completions/udtc.fish"},
	"fmt":             {"udtc fmt manifests", "udtc fmt --check .", "udtc fmt --diff manifests/db.yaml"},
	"explain":         {"udtc explain Contoso.Data/postgresDatabases --manifests examples", "udtc explain Contoso.Data/postgresDatabases@2025-06-01.size --manifests examples", "udtc explain Contoso.Data/postgresDatabases --server http://127.0.0.1:7443"},
	"gen":             {"udtc gen manifests --out out", "udtc gen manifests --out out --target bicep,go --extension-name acme_platform", "udtc gen manifests --out out --check"},
	"init":            {"udtc init platform-types --namespace Contoso.Data --type postgresDatabases"},
	"publish":         {"udtc publish manifests --server http://127.0.0.1:7443 --dry-run", "udtc publish manifests --server https://registry.internal --token-file token --prune --yes"},
	"registry":        {"udtc registry list --server http://127.0.0.1:7443", "udtc registry show Contoso.Data/postgresDatabases"},
	"registry list":   {"udtc registry list --server http://127.0.0.1:7443", "udtc registry list --output json"},
	"registry show":   {"udtc registry show Contoso.Data", "udtc registry show Contoso.Data/postgresDatabases --output json"},
	"registry delete": {"udtc registry delete Contoso.Data --server http://127.0.0.1:7443 --dry-run", "udtc registry delete Contoso.Data --delete-resources --yes"},
	"schema":          {"udtc schema > manifest.schema.json"},
	"serve":           {"udtc serve --addr 127.0.0.1:7443", "udtc serve --store sqlite:/var/lib/udtc/registry.db --token-file /etc/udtc/token --addr :7443 --forward-allow provider.internal,10.0.0.0/8"},
	"validate":        {"udtc validate Contoso.Data/postgresDatabases@2025-06-01 db.yaml --manifests examples", "udtc validate Contoso.Data/postgresDatabases@2025-06-01 *.json --server http://127.0.0.1:7443"},
	"version":         {"udtc version", "udtc version --output json"},
	"completion bash": {"source <(udtc completion bash)"},
	"completion zsh":  {"udtc completion zsh > \"${fpath[1]}/_udtc\""},
	"completion fish": {"udtc completion fish > ~/.config/fish/completions/udtc.fish"},

	"publish-extension": {"udtc publish-extension manifests --target 'br:myregistry.azurecr.io/bicep/{namespace}' --dry-run", "udtc publish-extension out/bicep/contosodata.tgz --target br:localhost:5000/bicep/contosodata:1.0.0", "printf '%s\\n' \"$PASSWORD\" | udtc publish-extension manifests --target 'br:myregistry.azurecr.io/bicep/{namespace}' --username ci --password-stdin"},
}

// decorate walks the command tree: it appends each command's examples to its
// description and gives every command group an action that refuses an
// unknown subcommand with a did-you-mean.
func decorate(cmds []*cli.Command, parent string) {
	for _, c := range cmds {
		path := strings.TrimSpace(parent + " " + c.Name)
		if ex := examples[path]; len(ex) > 0 {
			if c.Description != "" {
				c.Description += "\n\n"
			}
			c.Description += "Examples:\n  " + strings.Join(ex, "\n  ")
		}
		if c.OnUsageError == nil {
			c.OnUsageError = flagError(path, c)
		}
		if len(c.Subcommands) > 0 {
			if c.Action == nil {
				subs := c.Subcommands
				c.Action = func(ctx *cli.Context) error {
					if ctx.Args().Present() {
						return unknownCommand("udtc "+path, ctx.Args().First(), subs)
					}
					return cli.ShowSubcommandHelp(ctx)
				}
			}
			decorate(c.Subcommands, path)
		}
	}
}

// unknownCommand is the usage error for a command name that is not one,
// with the closest command name when there is one.
func unknownCommand(prefix, name string, cmds []*cli.Command) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	if s := check.Suggest(name, names); s != "" {
		return usageErrorf("%q is not a udtc command: did you mean `%s %s`? (see %s --help)", name, prefix, s, prefix)
	}
	return usageErrorf("%q is not a udtc command (see %s --help)", name, prefix)
}

// flagError is a command's usage error for a bad flag: one line naming the
// command, with the closest flag when the flag is unknown, instead of the
// whole help text.
func flagError(path string, c *cli.Command) cli.OnUsageErrorFunc {
	return func(_ *cli.Context, err error, _ bool) error {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			name = strings.TrimLeft(name, "-")
			var names []string
			for _, f := range c.Flags {
				names = append(names, f.Names()...)
			}
			msg = "unknown flag --" + name
			if s := check.Suggest(name, names); s != "" {
				msg += ": did you mean --" + s + "?"
			}
		}
		return usageErrorf("%s: %s (see udtc %s --help)", path, msg, path)
	}
}
