package outdir

import (
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// GoImportPath derives the Go import path of dir from the nearest go.mod
// above it (its module path and dir's path below the module's root);
// found is false when there is none.
func GoImportPath(dir string) (path string, found bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for d := abs; ; d = filepath.Dir(d) {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, err := filepath.Rel(d, abs)
			if err != nil || rel == "." {
				return mod, true
			}
			return mod + "/" + filepath.ToSlash(rel), true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// modulePath is the module path gomod declares, "" when it cannot be read
// or declares none.
func modulePath(gomod string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(b)
}
