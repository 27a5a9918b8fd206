// Package buildinfo reads what the udtc binary knows of its build: the
// module version, the VCS commit, the Go version, and the version of the
// registration API it serves and publishes to.
package buildinfo

import (
	"runtime"
	"runtime/debug"

	"github.com/udtc/udtc/registry/api"
)

// Info is what `udtc version` prints.
type Info struct {
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

// Read reads the binary's build information.
func Read() Info {
	v := Info{Version: "(devel)", Go: runtime.Version(), APIVersion: api.Version}
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

// Text is the version as `udtc version` prints it.
func (v Info) Text() string {
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

// Pin is the version query `go install github.com/udtc/udtc/cmd/udtc@...`
// takes to install this very udtc: the module version of a released
// build, else the commit of a build from a clean clone. It is "" when the
// build records neither, or was built from a modified work tree.
func (v Info) Pin() string {
	switch {
	case v.Version != "" && v.Version != "(devel)":
		return v.Version
	case v.Commit != "" && !v.Modified:
		return v.Commit
	}
	return ""
}
