package generator

import (
	"io"
	"slices"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/goclient"
)

// Rules returns every rule a diagnostic of udtc can name: the loader's and
// the checker's (check.Rules), then the emitters' (bicep.Rules,
// goclient.Rules), then those of `udtc breaking` (compat.Rules), in the order docs/rules.md lists them. It is the one
// table behind docs/rules.md, SARIF's tool.driver.rules and the printers;
// a test keeps every reported diagnostic's rule in it.
func Rules() []diag.Rule {
	return slices.Concat(check.Rules, bicep.Rules, goclient.Rules, compat.Rules)
}

// RulesURL is where SARIF reports send readers for a rule's description.
const RulesURL = "https://github.com/udtc/udtc/blob/main/docs/rules.md"

// WriteSARIF prints diags as a SARIF log naming every rule (Rules).
func WriteSARIF(w io.Writer, diags diag.List) error {
	return diag.WriteSARIF(w, diags, Rules(), RulesURL)
}
