package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/api"
)

// versionInfo is what `udtc version` prints.
type versionInfo struct {
	// Version is the module version ("(devel)" for a build from a checkout).
	Version string `json:"version"`
	// Commit is the VCS revision the binary was built from, when known.
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commitTime,omitempty"`
	// Modified reports uncommitted changes in the build's work tree.
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	// APIVersion is the version of the registration API udtc serves and
	// publishes to.
	APIVersion string `json:"apiVersion"`
}

// buildVersion reads the binary's build information.
func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version(), APIVersion: api.Version}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func (v versionInfo) text() string {
	s := "udtc " + v.Version
	if v.Commit != "" {
		s += " (commit " + v.Commit
		if v.CommitTime != "" {
			s += ", " + v.CommitTime
		}
		if v.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s + "\n" + "go: " + v.Go + "\n" + "registration API: " + v.APIVersion + "\n"
}

// versionFlags are the flags of `udtc version`.
type versionFlags struct{ output string }

func versionCommand(e *env) *cli.Command {
	f := &versionFlags{}
	return &cli.Command{
		Name:        "version",
		Usage:       "print udtc's version, commit, Go version and registration API version",
		Description: "Prints the module version and VCS commit udtc was built from, the Go version and the version\nof the registration API it serves and publishes to. `udtc --version` prints the same.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Value: "text", Usage: "text or json", Destination: &f.output},
		},
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

func (f *versionFlags) run(c *cli.Context, e *env) error {
	if c.Args().Present() {
		return usageErrorf("version takes no arguments")
	}
	return printVersion(e, f.output)
}

func printVersion(e *env, output string) error {
	if err := checkOutput(output); err != nil {
		return err
	}
	v := buildVersion()
	if output == "json" {
		return writeJSON(e.stdout, v)
	}
	_, err := fmt.Fprint(e.stdout, v.text())
	return err
}
