package main

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/serve"
)

// TestHelpFiles checks help/*.txt against the commands: each file is the
// description of one command, and no placeholder is left unreplaced.
func TestHelpFiles(t *testing.T) {
	byName := map[string]string{}
	for _, c := range commands(&env{}) {
		byName[c.Name] = c.Description
	}
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("help files: %v %v", files, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		d, ok := byName[name]
		switch {
		case !ok:
			t.Errorf("%s: no command %q", f, name)
		case d == "" || d != description(name):
			t.Errorf("%s: command %s's description is %q, not the file's", f, name, d)
		case strings.Contains(d, "{{") || strings.Contains(d, "}}"):
			t.Errorf("%s: a placeholder is left unreplaced: %q", f, d)
		case strings.HasSuffix(d, "\n"):
			t.Errorf("%s: the description ends with a blank line", f)
		}
	}
	for name, want := range map[string]string{
		"serve":             "(default: " + serve.DefaultStoreName() + ")",
		"schema":            "$schema=" + manifest.SchemaID + "\n",
		"publish-extension": "br:myregistry.azurecr.io/bicep/" + oci.Placeholder + ")",
	} {
		if !strings.Contains(byName[name], want) {
			t.Errorf("%s's description lacks %q:\n%s", name, want, byName[name])
		}
	}
	if d := description("no-such-command"); d != "" {
		t.Errorf("description of a command without a file: %q", d)
	}
}
