package diag

import (
	"encoding/json"
	"io"
	"path/filepath"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	HelpURI string `json:"helpUri,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex *int            `json:"ruleIndex,omitempty"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
			EndLine     int `json:"endLine,omitempty"`
			EndColumn   int `json:"endColumn,omitempty"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

// WriteSARIF prints a SARIF 2.1.0 log for GitHub code scanning. rules lists
// every rule of the tool (generator.Rules); results refer to them by index,
// and a result whose rule is not in the list has no index rather than a
// wrong one. A diagnostic without a file has no location.
func WriteSARIF(w io.Writer, l List, rules []Rule, helpURI string) error {
	driver := sarifDriver{Name: "udtc", InformationURI: "https://github.com/udtc/udtc", Rules: []sarifRule{}}
	index := map[string]int{}
	for i, r := range rules {
		sr := sarifRule{ID: r.ID, ShortDescription: sarifMessage{Text: r.Doc}, HelpURI: helpURI}
		sr.DefaultConfiguration.Level = r.Severity.String()
		driver.Rules = append(driver.Rules, sr)
		index[r.ID] = i
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}
	for _, d := range l {
		msg := d.Message
		if d.Hint != "" {
			msg += " (hint: " + d.Hint + ")"
		}
		res := sarifResult{RuleID: d.Rule, Level: d.Severity.String(), Message: sarifMessage{Text: msg}}
		if i, ok := index[d.Rule]; ok {
			res.RuleIndex = &i
		}
		if d.Span.File == "" { // a result of no file
			run.Results = append(run.Results, res)
			continue
		}
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation.URI = filepath.ToSlash(d.Span.File)
		loc.PhysicalLocation.Region.StartLine = max(1, d.Span.Line)
		loc.PhysicalLocation.Region.StartColumn = max(1, d.Span.Column)
		if d.Span.EndLine >= d.Span.Line && d.Span.EndColumn > d.Span.Column {
			loc.PhysicalLocation.Region.EndLine = d.Span.EndLine
			loc.PhysicalLocation.Region.EndColumn = d.Span.EndColumn
		}
		res.Locations = []sarifLocation{loc}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}
