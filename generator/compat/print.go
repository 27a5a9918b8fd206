package compat

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/udtc/udtc/generator/diag"
)

// Base says what the findings compare with, for WriteJSON.
type Base struct {
	// Against is the revision or directory as given.
	Against string `json:"against"`
	// Commit is the full hash when Against is a git revision.
	Commit string `json:"commit,omitempty"`
}

type jsonPosition struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
}

type jsonFinding struct {
	Rule       string        `json:"rule"`
	Severity   string        `json:"severity"`
	Category   Category      `json:"category"`
	Namespace  string        `json:"namespace"`
	Type       string        `json:"type"`
	APIVersion string        `json:"apiVersion,omitempty"`
	Path       string        `json:"path,omitempty"`
	Message    string        `json:"message"`
	Allowed    string        `json:"allowed,omitempty"`
	New        *jsonPosition `json:"new,omitempty"`
	Old        *jsonPosition `json:"old,omitempty"`
	// Stored lists every stored resource the change refuses.
	Stored *StoredImpact `json:"stored,omitempty"`
}

// MarshalJSON writes a finding as WriteJSON does.
func (f Finding) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as WriteJSON: messages quote "<" and "&" as they are
	err := enc.Encode(jsonFinding{
		Rule: f.Rule, Severity: SeverityName(f.Severity), Category: f.Category,
		Namespace: f.Namespace, Type: f.Type, APIVersion: f.Version, Path: f.Path, Message: f.Message,
		Allowed: f.Allowed, New: position(f.New), Old: position(f.Old), Stored: f.Stored,
	})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

func position(s diag.Span) *jsonPosition {
	if s.IsZero() {
		return nil
	}
	return &jsonPosition{File: s.File, Line: s.Line, Column: s.Column, EndLine: s.EndLine, EndColumn: s.EndColumn}
}

// WriteJSON prints exactly one JSON document:
// {"base":{...},"findings":[...],"summary":{"errors":n,"warnings":n,"info":n}}.
func WriteJSON(w io.Writer, base Base, fs []Finding) error {
	out := struct {
		Base     Base      `json:"base"`
		Findings []Finding `json:"findings"`
		Summary  struct {
			Errors   int `json:"errors"`
			Warnings int `json:"warnings"`
			Info     int `json:"info"`
		} `json:"summary"`
	}{Base: base, Findings: append([]Finding{}, fs...)}
	for _, f := range fs {
		switch f.Severity {
		case diag.Error:
			out.Summary.Errors++
		case diag.Warning:
			out.Summary.Warnings++
		default:
			out.Summary.Info++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
