package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/project"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// Limits bound what the sync compiles of one commit: the manifest files
// under the directory (the *.yaml, *.yml and *.json files a compile
// reads) and their total size, counted per path, so a commit whose paths
// all name one large blob is as large as it reads. A commit past a limit
// is refused (rule sync-limits) before a file of it is read.
//
// MaxBodyBytes is the API's limit on the body of one write (udtc serve
// --max-body-bytes; 0 is server.DefaultMaxBodyBytes): a registration of
// the commit whose body would be larger fails, as its PUT would with 413,
// and its namespace is left as it was.
type Limits struct {
	MaxFiles     int
	MaxBytes     int64
	MaxBodyBytes int64
}

// The default limits: far more than a repository of manifests holds
// (one manifest file may hold 10 MiB).
const (
	DefaultMaxFiles = 1000
	DefaultMaxBytes = 16 << 20
)

func (l Limits) orDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = server.DefaultMaxBodyBytes
	}
	return l
}

// check returns the refusal of inputs, files of fsys under dir, when they
// are past the limits; nil when they are within them.
func (l Limits) check(fsys fs.FS, dir string, inputs []generator.Input) *api.Diagnostic {
	var total int64
	over := len(inputs) > l.MaxFiles
	for _, in := range inputs {
		if over {
			break
		}
		if st, err := fs.Stat(fsys, in.Path); err == nil {
			total += st.Size()
		}
		over = total > l.MaxBytes
	}
	if !over {
		return nil
	}
	what := fmt.Sprintf("%s holds %d manifest files", dir, len(inputs))
	if len(inputs) <= l.MaxFiles {
		what = fmt.Sprintf("the manifest files under %s hold more than %d bytes", dir, l.MaxBytes)
	}
	return &api.Diagnostic{File: dir, Severity: "error", Rule: "sync-limits",
		Message: fmt.Sprintf("%s: the sync compiles at most %d files and %d bytes of one commit (--sync-max-files, --sync-max-bytes)", what, l.MaxFiles, l.MaxBytes)}
}

// compile compiles the manifests of snap under Config.Dir and returns
// their registrations, or the refusal of the commit: its error
// diagnostics, a directory that is missing or unreadable at this commit
// (rule sync-dir), or manifests past the limits (rule sync-limits).
func (s *Syncer) compile(ctx context.Context, snap *source.Snapshot) ([]api.Registration, *api.SyncRefusal) {
	refuse := func(d ...api.Diagnostic) *api.SyncRefusal {
		return &api.SyncRefusal{Commit: snap.Hash(), Diagnostics: d}
	}
	fsys := snap.FS()
	inputs, err := generator.ExpandFS(fsys, []string{s.cfg.Dir})
	if err != nil {
		return nil, refuse(api.Diagnostic{File: s.cfg.Dir, Severity: "error", Rule: "sync-dir", Message: err.Error()})
	}
	if d := s.cfg.Limits.check(fsys, s.cfg.Dir, inputs); d != nil {
		return nil, refuse(*d)
	}
	proj, err := projectOf(fsys, s.cfg.Dir)
	if err != nil {
		return nil, refuse(api.Diagnostic{File: s.cfg.Dir, Severity: "error", Rule: "sync-project", Message: err.Error()})
	}
	opts := proj.CompileOptions()
	if proj != nil {
		opts.Only = func(p string) bool { // p is below proj.Dir: the project is at dir or above
			if proj.Dir != "." {
				p = strings.TrimPrefix(p, proj.Dir+"/")
			}
			return proj.SelectsRel(p)
		}
	}
	cat, diags, err := generator.CompileFS(ctx, fsys, []string{s.cfg.Dir}, opts)
	if err != nil {
		return nil, refuse(api.Diagnostic{File: s.cfg.Dir, Severity: "error", Rule: "sync-dir", Message: err.Error()})
	}
	diags = proj.Apply(diags)
	if diags.HasErrors() {
		var out []api.Diagnostic
		for _, d := range diags {
			if d.Severity == diag.Error {
				out = append(out, registration.Diagnostic(d))
			}
		}
		return nil, refuse(out...)
	}
	return registration.Registrations(cat, registration.Options{}), nil
}

// projectOf loads the project file (udtc.yaml) of the commit that governs
// dir, the nearest at dir or above it, as `udtc check` run in the
// repository would: its target, baseProperties, lifecycle, icons, inputs
// and rule settings apply to what the sync compiles. nil when there is
// none.
func projectOf(fsys fs.FS, dir string) (*project.Project, error) {
	name, err := project.FindFS(fsys, dir)
	if err != nil || name == "" {
		return nil, err
	}
	return project.LoadFS(fsys, name)
}

// refusalError is a refusal as an error (a commit that cannot be compiled
// where it must be).
func refusalError(r *api.SyncRefusal) error {
	msgs := make([]error, 0, len(r.Diagnostics))
	for _, d := range r.Diagnostics {
		msgs = append(msgs, fmt.Errorf("%s: %s (%s)", d.File, d.Message, d.Rule))
	}
	return fmt.Errorf("commit %s: %w", r.Commit, errors.Join(msgs...))
}
