package bridge

import (
	"errors"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/publish"
)

// GitRepo is generator/source's repository as publish.GitRepository.
func GitRepo(repo *source.Repo) publish.GitRepository { return gitRepo{repo} }

type gitRepo struct{ repo *source.Repo }

func (r gitRepo) Root() string { return r.repo.Root }

func (r gitRepo) Commit(c publish.GitCommit) (string, bool, error) {
	files := make([]source.File, len(c.Files))
	for i, f := range c.Files {
		files[i] = source.File{Path: f.Path, Data: f.Data}
	}
	h, err := r.repo.Commit(source.CommitOptions{Branch: c.Branch, Dir: c.Dir, Files: files,
		Author: source.Author{Name: c.AuthorName, Email: c.AuthorEmail}, Message: c.Message})
	if errors.Is(err, source.ErrNoChange) {
		if snap, err := r.repo.Resolve(c.Branch); err == nil {
			return snap.Hash(), false, nil
		}
		return "", false, nil
	}
	return h, err == nil, err
}

// GitContents is what a git publish of a catalog commits.
type GitContents struct {
	// Namespaces the catalog declares, and the manifest files that
	// declare them.
	Namespaces, Manifests []string
	// Extension is the catalog's Bicep extension (bicep.Emit).
	Extension []publish.GitFile
}

// GitFiles returns what a git publish of cat commits. Diagnostics with
// errors mean the extension could not be made.
func GitFiles(cat *model.Catalog) (GitContents, diag.List, error) {
	var c GitContents
	for _, p := range cat.Providers {
		c.Namespaces = append(c.Namespaces, p.Namespace)
		c.Manifests = append(c.Manifests, p.Files...)
	}
	ext, diags, err := bicep.Emit(cat, bicep.Options{})
	if err != nil || diags.HasErrors() {
		return c, diags, err
	}
	for _, x := range ext {
		c.Extension = append(c.Extension, publish.GitFile{Path: x.Path, Data: x.Data})
	}
	return c, diags, nil
}
