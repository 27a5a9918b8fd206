package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/registry/api"
)

// allowBreaking is the value of --allow-breaking, a flag with an optional
// value: alone it allows every breaking change (as the boolean flag it was
// did); --allow-breaking=NAMESPACE/TYPE@VERSION, repeatable, allows those
// of one API version. The value needs the "=": like a boolean flag, the
// flag alone takes no argument.
type allowBreaking struct {
	all      bool
	versions []string // NAMESPACE/TYPE@VERSION as given
}

// IsBoolFlag lets the flag package accept the flag without a value (then
// Set("true")).
func (a *allowBreaking) IsBoolFlag() bool { return true }

func (a *allowBreaking) Set(s string) error {
	if b, err := strconv.ParseBool(s); err == nil {
		a.all = b
		return nil
	}
	ref, err := api.ParseTypeRef(s)
	switch {
	case err != nil:
		return fmt.Errorf("%v (give --allow-breaking alone, or --allow-breaking=NAMESPACE/TYPE@VERSION)", err)
	case ref.Version == "" || len(ref.Path) > 0:
		return fmt.Errorf("%q is not NAMESPACE/TYPE@VERSION, e.g. Contoso.Data/postgresDatabases@2025-08-01-preview", s)
	}
	a.versions = append(a.versions, ref.String())
	return nil
}

// String is "" when nothing is allowed, else what is (also part of
// publish's replay key).
func (a *allowBreaking) String() string {
	if a == nil || (!a.all && len(a.versions) == 0) {
		return ""
	}
	if a.all {
		return "true"
	}
	return strings.Join(a.versions, ",")
}

// policy adds the allowances to the project's policy.
func (a *allowBreaking) policy(p compat.Policy) compat.Policy {
	p.AllowAll = a.all
	p.Allow = append(p.Allow, a.versions...)
	return p
}

// flag is the --allow-breaking flag; usage says what it allows.
func (a *allowBreaking) flag(usage string) cli.Flag {
	return &optionalValueFlag{GenericFlag: cli.GenericFlag{Name: "allow-breaking", Usage: usage, Value: a}, placeholder: "NAMESPACE/TYPE@VERSION"}
}

// optionalValueFlag is a flag whose value is optional: --name or
// --name=VALUE (never --name VALUE). Its Value implements IsBoolFlag.
// interspersed (args.go) knows from TakesValue that it takes no separate
// argument.
type optionalValueFlag struct {
	cli.GenericFlag
	placeholder string
}

// TakesValue is false: a separate argument after the flag is positional.
func (f *optionalValueFlag) TakesValue() bool { return false }

// String is the flag's line in --help.
func (f *optionalValueFlag) String() string {
	return fmt.Sprintf("--%s[=%s]\t%s", f.Name, f.placeholder, f.Usage)
}

// misplacedAllowBreaking is the usage error for a positional argument that
// is an API version and no file: the value of --allow-breaking given
// without "=".
func misplacedAllowBreaking(args []string) error {
	for _, a := range args {
		if ref, err := api.ParseTypeRef(a); err == nil && ref.Version != "" {
			if _, err := os.Stat(a); err != nil {
				return usageErrorf("%s is not a file or directory; to allow its breaking changes write --allow-breaking=%s (with \"=\")", a, a)
			}
		}
	}
	return nil
}
