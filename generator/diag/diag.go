// Package diag owns compiler diagnostics: source spans, severities, rule ids,
// the sorted and de-duplicated List every stage appends to, and the printers
// (text, JSON, SARIF) that show them. A user's mistake is a Diagnostic; a plain
// error means I/O failure or a bug.
package diag

import (
	"cmp"
	"slices"
)

// Span is a 1-based source range. Line and Column point at the first
// character of the offending key or value; EndLine/EndColumn point just past
// its last character on a single line, or equal Line/Column when unknown.
type Span struct {
	File      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
}

// IsZero reports whether the span carries no position.
func (s Span) IsZero() bool { return s.File == "" && s.Line == 0 }

// Severity of a diagnostic.
type Severity int

const (
	// Error diagnostics make a run fail and stop emission.
	Error Severity = iota
	// Warning diagnostics are reported but do not fail a run unless strict.
	Warning
	// Note diagnostics say what the compiler did (skipped a file that is
	// not a manifest); they never fail a run, not even a strict one.
	Note
)

// String returns "error", "warning" or "note": also the SARIF level names.
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// Rule is one rule a diagnostic can name: its stable id, its severity and
// the sentence that documents it. Each package that reports diagnostics
// declares its rules in one table; generator.Rules joins them into the
// table docs/rules.md, SARIF and the printers use.
type Rule struct {
	ID       string
	Severity Severity
	Doc      string
}

// Diagnostic is one problem found in the input.
type Diagnostic struct {
	Span     Span
	Severity Severity
	// Rule is the stable rule id, e.g. "schema-type-missing".
	Rule string
	// Path is a JSON pointer into the manifest, e.g. "/types/buckets/apiVersions/2025-01-01/schema".
	Path    string
	Message string
	Hint    string
}

// List collects diagnostics. The zero value is ready to use.
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Errorf-style helpers are deliberately absent: every diagnostic names its rule.

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of errors, warnings and notes.
func (l List) Count() (errors, warnings, notes int) {
	for _, d := range l {
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		default:
			notes++
		}
	}
	return errors, warnings, notes
}

// Promote returns a copy in which every warning is an error (--strict).
// Notes stay notes.
func (l List) Promote() List {
	out := slices.Clone(l)
	for i := range out {
		if out[i].Severity == Warning {
			out[i].Severity = Error
		}
	}
	return out
}

// Compare orders diagnostics by file, line, column, severity, rule, path and message.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Span.File, b.Span.File),
		cmp.Compare(a.Span.Line, b.Span.Line),
		cmp.Compare(a.Span.Column, b.Span.Column),
		cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Hint, b.Hint),
	)
}

// Sorted returns the diagnostics sorted with Compare and exact duplicates removed.
func (l List) Sorted() List {
	out := slices.Clone(l)
	slices.SortFunc(out, Compare)
	return slices.CompactFunc(out, func(a, b Diagnostic) bool { return a == b })
}
