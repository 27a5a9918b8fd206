package depcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// schemaTables are the tables of the supported schema subset that package
// schema spells out, each with the string literals that spell it and how
// many of them a file must hold to spell it again.
var schemaTables = []struct {
	name    string
	members []string
	most    int // the most members a file outside schema may hold
}{
	{"type names (schema.TypeNames)", []string{"string", "integer", "number", "boolean", "object", "array", "any"}, 6},
	{"formats (schema.Formats)", []string{"hostname", "ipv4", "ipv6", "uuid", "email", "byte", "binary", "password", "date", "date-time", "int32", "int64", "float", "double"}, 3},
	{"built-in schemas (schema.Builtin)", []string{"https://radapp.io/schemas/v1#", "RecipeStatus", "templateKind", "templatePath", "templateVersion"}, 1},
	{"polymorphic keywords (schema.Polymorphic)", []string{"allOf", "anyOf", "oneOf", "not", "discriminator"}, 2},
}

// TestSchemaTablesSpelledOnce: no non-test Go file outside schema/ (and
// bench/, whose synthetic catalogs write schemas) spells one of the
// subset's tables again; each reads package schema instead.
func TestSchemaTablesSpelledOnce(t *testing.T) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	dir := strings.TrimSpace(string(root))
	seen := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch rel {
			case "schema", "bench", "golden", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		seen++
		lits := stringLiterals(t, p)
		for _, tab := range schemaTables {
			var found []string
			for _, m := range tab.members {
				if lits[m] {
					found = append(found, m)
				}
			}
			if len(found) > tab.most {
				t.Errorf("%s spells the %s again (%s): read package schema", rel, tab.name, strings.Join(found, ", "))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("only %d Go files read", seen)
	}
}

// stringLiterals returns the string literals of a Go file.
func stringLiterals(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lits := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				lits[s] = true
			}
		}
		return true
	})
	return lits
}
