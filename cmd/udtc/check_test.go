package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// runCLI runs udtc in-process from the repository root.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"udtc"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestCheckNeedsInputs: with no PATH and no udtc.yaml, check says what it
// needs (exit 2). (This repository's own udtc.yaml names inputs, so the test
// runs where there is none.)
func TestCheckNeedsInputs(t *testing.T) {
	t.Chdir(t.TempDir())
	if code, _, stderr := runCLI(t, "check"); code != 2 || !strings.Contains(stderr, "give at least one manifest") {
		t.Errorf("check without inputs: exit %d\n%s", code, stderr)
	}
}

func TestCheckExitCodes(t *testing.T) {
	t.Chdir("../..")
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"check", "fixtures/valid_basic"}, 0, ""},
		{[]string{"check", "fixtures/warn_unknown_keyword"}, 0, "warning[unknown-keyword]"},
		{[]string{"check", "--strict", "fixtures/warn_unknown_keyword"}, 1, "error[unknown-keyword]"},
		{[]string{"check", "fixtures/error_seed_typo"}, 1, "fixtures/error_seed_typo/manifest.yaml:7:17: error[type-invalid]: unknown type \"objcet\""},
		{[]string{"check", "fixtures/does-not-exist"}, 2, "cannot read fixtures/does-not-exist"},
		{[]string{"check", "--format", "xml", "fixtures/valid_basic"}, 2, "--format must be"},
		{[]string{"check", "--no-such-flag", "fixtures/valid_basic"}, 2, "no-such-flag"},
		{[]string{"no-such-command"}, 2, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
		})
	}
}

func TestCheckTextHasExcerptAndNoColour(t *testing.T) {
	t.Chdir("../..")
	t.Setenv("NO_COLOR", "1")
	_, _, stderr := runCLI(t, "check", "fixtures/error_unknown_key")
	for _, want := range []string{"    4 |     descripton: A typo.\n", "      |     ^^^^^^^^^^\n", "hint: did you mean `description`?", "3 errors, 0 warnings"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\x1b[") {
		t.Error("colour codes in non-terminal output")
	}
}

func TestCheckJSON(t *testing.T) {
	t.Chdir("../..")
	code, stdout, _ := runCLI(t, "check", "--format", "json", "fixtures/error_duplicate_key", "fixtures/valid_basic")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatal("more than one JSON value on stdout")
	}
	d := got.Diagnostics[0]
	want := map[string]any{"file": "fixtures/error_duplicate_key/manifest.yaml", "line": 11.0, "column": 13.0, "endLine": 11.0, "endColumn": 17.0,
		"severity": "error", "rule": "duplicate-key", "path": "/types/things/apiVersions/2025-01-01/schema/properties/size",
		"message": "duplicate key \"size\": first defined at 9:13"}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %v, want %v", k, d[k], v)
		}
	}
	// A clean run still prints one object, with an empty list.
	code, stdout, _ = runCLI(t, "check", "--format", "json", "fixtures/valid_basic")
	if code != 0 || strings.TrimSpace(stdout) != "{\n  \"diagnostics\": []\n}" {
		t.Errorf("clean run: exit %d, stdout %q", code, stdout)
	}
}

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					Region           struct{ StartLine, StartColumn int }
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// TestGenSARIFRuleIndex: the emitters' rules are in SARIF's rule list and
// their results point at them (they used to get index 0, file-too-large).
func TestGenSARIFRuleIndex(t *testing.T) {
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "gen", "--format", "sarif", "--target", "go", "--out", t.TempDir(), "fixtures/go_names")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	run := log.Runs[0]
	seen := map[string]bool{}
	for _, r := range run.Results {
		if r.RuleIndex < 0 || r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result for %s has ruleIndex %d", r.RuleID, r.RuleIndex)
		}
		seen[r.RuleID] = true
	}
	if !seen["go-name-collision"] {
		t.Errorf("no go-name-collision result: %v", seen)
	}
}

func TestCheckSARIF(t *testing.T) {
	t.Chdir("../..")
	code, stdout, _ := runCLI(t, "check", "--format", "sarif", "fixtures/error_range")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || run.Tool.Driver.Name != "udtc" || len(run.Results) != 5 {
		t.Fatalf("sarif: %+v", log)
	}
	r := run.Results[0]
	if r.RuleID != "range" || run.Tool.Driver.Rules[r.RuleIndex].ID != "range" || r.Level != "error" ||
		r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "fixtures/error_range/manifest.yaml" ||
		r.Locations[0].PhysicalLocation.Region.StartLine != 12 {
		t.Errorf("first result: %+v", r)
	}
}

func TestSchemaCommand(t *testing.T) {
	code, stdout, _ := runCLI(t, "schema")
	if code != 0 || !strings.Contains(stdout, `"$id": "https://raw.githubusercontent.com/udtc/udtc/main/docs/manifest.schema.json"`) {
		t.Errorf("exit %d:\n%.300s", code, stdout)
	}
}
