package generator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/source"
)

// Against is what manifests are compared with (`udtc breaking --against`):
// the manifests of a directory, or those of the same paths at a git
// revision.
type Against struct {
	// Catalog is nil when the manifests have errors (Diags), or when none
	// of the paths existed at the revision.
	Catalog *model.Catalog
	Diags   diag.List
	Base    compat.Base
	// Source reads the old files, for excerpts in diagnostics: nil for
	// the files of other sides.
	Source diag.Source
}

// UnknownRevisionError is CompileAgainst's error for a revision that the
// repository at Root does not have.
type UnknownRevisionError struct{ Root string }

func (e *UnknownRevisionError) Error() string {
	return "unknown revision in the repository at " + e.Root
}

// CompileAgainst compiles the manifests at against: a directory when it
// names one, else the revision against of the git repository that contains
// paths[0], where each of paths that existed then is compiled (spans name
// the files "against:path"). It returns source.ErrNotRepository (wrapped)
// when paths[0] is in no repository, an *UnknownRevisionError when against
// names no commit, and an error for a path outside the repository or a
// file that cannot be read.
func CompileAgainst(ctx context.Context, against string, paths []string) (*Against, error) {
	return CompileAgainstSelected(ctx, against, paths, nil)
}

// CompileAgainstSelected is CompileAgainst for the files below paths that
// selects accepts (by their absolute path in the working tree, as
// project.Project.Selects takes it), at a git revision: the files a
// udtc.yaml selects then, deleted ones included. A nil selects, or an
// against that is a directory, compiles every file.
func CompileAgainstSelected(ctx context.Context, against string, paths []string, selects func(abs string) bool) (*Against, error) {
	if st, err := os.Stat(against); err == nil && st.IsDir() {
		cat, diags, err := Compile(ctx, []string{against}, Options{})
		if err != nil {
			return nil, err
		}
		return &Against{Catalog: cat, Diags: diags, Base: compat.Base{Against: against}, Source: diag.FileSource()}, nil
	}
	repo, err := source.Discover(paths[0])
	if err != nil {
		return nil, err
	}
	snap, err := repo.Resolve(against)
	if errors.Is(err, source.ErrUnknownRevision) {
		return nil, &UnknownRevisionError{Root: repo.Root}
	}
	if err != nil {
		return nil, err
	}
	fsys := snap.FS()
	var rels []string
	for _, p := range paths {
		rel, err := repo.Rel(p)
		if err != nil {
			return nil, err
		}
		// A path that did not exist at the revision contributes nothing.
		if _, err := fs.Stat(fsys, rel); err == nil {
			rels = append(rels, rel)
		}
	}
	prefix := against + ":"
	side := &Against{Base: compat.Base{Against: against, Commit: snap.Hash()}, Source: func(file string) []byte {
		if name, ok := strings.CutPrefix(file, prefix); ok {
			b, _ := fs.ReadFile(fsys, name)
			return b
		}
		return nil
	}}
	if len(rels) == 0 {
		return side, nil
	}
	opts := Options{FilePrefix: prefix}
	if selects != nil {
		opts.Only = func(path string) bool {
			return selects(filepath.Join(repo.Root, filepath.FromSlash(strings.TrimPrefix(path, prefix))))
		}
	}
	side.Catalog, side.Diags, err = CompileFS(ctx, fsys, rels, opts)
	if err != nil {
		return nil, err
	}
	return side, nil
}

// worktreeOnly returns diags for annotations on the files of the working
// tree (GitHub's, SARIF's): a diagnostic anchored in a file at the git
// revision (a type removed with its file) has no file there, so it gets no
// position, and says where it was in its message instead.
func (a *Against) worktreeOnly(diags diag.List) diag.List {
	if a.Base.Commit == "" {
		return diags // a directory: its files are files
	}
	out := slices.Clone(diags)
	for i, d := range out {
		if strings.HasPrefix(d.Span.File, a.Base.Against+":") {
			out[i].Message += fmt.Sprintf(" (was %s:%d:%d)", d.Span.File, d.Span.Line, d.Span.Column)
			out[i].Span = diag.Span{}
		}
	}
	return out
}

// WriteFindings prints findings, those of the manifests compared with a,
// in format: json (compat.WriteJSON), sarif, github (workflow commands),
// else text, with excerpts of the old and new files, ending with a line
// that names what they were compared with.
func (a *Against) WriteFindings(w io.Writer, format string, findings []compat.Finding, color bool) error {
	diags := compat.Diagnostics(findings)
	switch format {
	case "json":
		return compat.WriteJSON(w, a.Base, findings)
	case "sarif":
		return WriteSARIF(w, a.worktreeOnly(diags))
	case "github":
		return diag.WriteGitHub(w, a.worktreeOnly(diags))
	}
	disk := diag.FileSource()
	err := diag.WriteText(w, diags, diag.TextOptions{Color: color, Source: func(file string) []byte {
		if b := a.Source(file); b != nil {
			return b
		}
		return disk(file)
	}})
	if err != nil {
		return err
	}
	against := a.Base.Against
	if a.Base.Commit != "" {
		against += " (" + a.Base.Commit[:12] + ")"
	}
	if len(findings) == 0 {
		_, err = fmt.Fprintf(w, "no API changes against %s\n", against)
	} else {
		_, err = fmt.Fprintf(w, "compared with %s\n", against)
	}
	return err
}
