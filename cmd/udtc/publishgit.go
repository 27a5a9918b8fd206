package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/mail"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/source"
)

// gitPublishFlags are publish's --git flags: instead of a registry, the
// manifests and their Bicep extension go into a git repository as one
// commit on a branch, for teams that review registrations as pull requests.
type gitPublishFlags struct {
	repo    string
	branch  string
	dir     string
	message string
	author  string
}

func (f *gitPublishFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "git", Usage: "commit the manifests and the Bicep extension into the local git repository at `REPO` instead of a registry", Destination: &f.repo},
		&cli.StringFlag{Name: "git-branch", Value: "udtc/publish", Usage: "branch of the commit (created from HEAD when new; not the checked-out branch)", Destination: &f.branch},
		&cli.StringFlag{Name: "git-dir", Value: "udtc", Usage: "directory of the repository the commit replaces", Destination: &f.dir},
		&cli.StringFlag{Name: "git-message", Usage: "commit message (default: names the namespaces)", Destination: &f.message},
		&cli.StringFlag{Name: "git-author", Usage: "commit author as `\"Name <email>\"` (default: user.name and user.email of git config)", Destination: &f.author},
	}
}

// gitPublishReport is the --output json document of publish --git.
type gitPublishReport struct {
	Repository string   `json:"repository"`
	Branch     string   `json:"branch"`
	Commit     string   `json:"commit"`
	Changed    bool     `json:"changed"`
	Files      []string `json:"files"`
}

// publishGit is `udtc publish --git REPO`.
func (f *publishFlags) publishGit(c *cli.Context, e *env) error {
	g := &f.git
	var author source.Author
	if g.author != "" {
		a, err := mail.ParseAddress(g.author)
		if err != nil || a.Name == "" {
			return usageErrorf("--git-author must be \"Name <email>\", not %q", g.author)
		}
		author = source.Author{Name: a.Name, Email: a.Address}
	}
	dir := path.Clean(filepath.ToSlash(g.dir))
	if dir == "." || !fs.ValidPath(dir) { // as serve's --sync-dir, but not the repository root
		return usageErrorf("--git-dir must be a directory inside the repository, not %q", g.dir)
	}
	repo, err := source.Open(g.repo)
	if err != nil {
		return usageErrorf("--git %s: %v", g.repo, err)
	}
	cat, err := f.compile(c, e, c.Args().Slice(), false)
	if err != nil {
		return err
	}
	files, err := manifestFiles(cat)
	if err != nil {
		return err
	}
	ext, diags, err := bicep.Emit(cat, bicep.Options{})
	if err != nil {
		return fail(exitFail, err)
	}
	if diags.HasErrors() {
		if err := printDiagnostics(e, f.format, diags); err != nil {
			return fail(exitUsage, err)
		}
		return fail(exitFail, nil)
	}
	for _, x := range ext {
		files = append(files, source.File{Path: x.Path, Data: x.Data})
	}
	msg := g.message
	if msg == "" {
		var names []string
		for _, p := range cat.Providers {
			names = append(names, p.Namespace)
		}
		msg = "udtc publish: " + strings.Join(names, ", ") + "\n\nManifests and the generated Bicep extension, written by udtc publish --git.\n"
	}
	report := gitPublishReport{Repository: repo.Root, Branch: g.branch, Changed: true}
	for _, fl := range files {
		report.Files = append(report.Files, path.Join(dir, fl.Path))
	}
	slices.Sort(report.Files)
	if f.dryRun {
		if f.output == "json" {
			report.Changed = false
			return writeJSON(e.stdout, report)
		}
		fmt.Fprintf(e.stdout, "Dry run: would commit on branch %s of %s:\n", g.branch, repo.Root)
		for _, name := range report.Files {
			fmt.Fprintf(e.stdout, "  %s\n", name)
		}
		return nil
	}
	report.Commit, err = repo.Commit(source.CommitOptions{Branch: g.branch, Dir: dir, Files: files, Author: author, Message: msg})
	switch {
	case errors.Is(err, source.ErrNoChange):
		report.Changed = false
		if snap, err := repo.Resolve(g.branch); err == nil {
			report.Commit = snap.Hash()
		}
	case errors.Is(err, source.ErrCheckedOut), errors.Is(err, source.ErrNoAuthor):
		return usageErrorf("--git %s: %v", g.repo, err)
	case err != nil:
		return fail(exitFail, fmt.Errorf("--git %s: %w", g.repo, err))
	}
	if f.output == "json" {
		return writeJSON(e.stdout, report)
	}
	if !report.Changed {
		fmt.Fprintf(e.stdout, "Branch %s of %s already holds these %d files: nothing committed.\n", g.branch, repo.Root, len(files))
		return nil
	}
	fmt.Fprintf(e.stdout, "Committed %s on branch %s of %s: %d files under %s/.\n", report.Commit[:12], g.branch, repo.Root, len(files), dir)
	return nil
}

// manifestFiles returns the manifest files that declare cat's namespaces,
// each at its path relative to the working directory (or its base name when
// it lies outside), under "manifests/".
func manifestFiles(cat *model.Catalog) ([]source.File, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	seen := map[string]string{}
	var out []source.File
	for _, p := range cat.Providers {
		for _, file := range p.Files {
			abs, err := filepath.Abs(file)
			if err != nil {
				return nil, fail(exitUsage, err)
			}
			rel, err := filepath.Rel(wd, abs)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				rel = filepath.Base(abs)
			}
			name := "manifests/" + filepath.ToSlash(rel)
			if prev, ok := seen[name]; ok {
				if prev == abs {
					continue // a file declaring several namespaces
				}
				return nil, usageErrorf("%s and %s would both be committed as %s", prev, abs, name)
			}
			seen[name] = abs
			data, err := os.ReadFile(abs)
			if err != nil {
				return nil, fail(exitUsage, err)
			}
			out = append(out, source.File{Path: name, Data: data})
		}
	}
	return out, nil
}
