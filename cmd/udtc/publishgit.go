package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/mail"
	"path"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/registry/publish"
)

// gitPublishFlags are publish's --git flags: instead of a registry, the
// manifests and their Bicep extension go into a git repository as one
// commit on a branch, for teams that review registrations as pull requests.
type gitPublishFlags struct {
	repo, branch, dir, message, author string // --git, --git-branch, --git-dir, --git-message, --git-author
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

// publishGit is `udtc publish --git REPO` (registry/publish.PublishGit).
func (f *publishFlags) publishGit(c *cli.Context, e *env) error {
	g := &f.git
	opts := publish.GitOptions{Branch: g.branch, Message: g.message, DryRun: f.dryRun}
	if g.author != "" {
		a, err := mail.ParseAddress(g.author)
		if err != nil || a.Name == "" {
			return usageErrorf("--git-author must be \"Name <email>\", not %q", g.author)
		}
		opts.AuthorName, opts.AuthorEmail = a.Name, a.Address
	}
	opts.Dir = path.Clean(filepath.ToSlash(g.dir))
	if opts.Dir == "." || !fs.ValidPath(opts.Dir) { // as serve's --sync-dir, but not the repository root
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
	namespaces, files, err := f.gitFiles(e, cat)
	if err != nil {
		return err
	}
	report, err := publish.PublishGit(bridge.GitRepo(repo), namespaces, files, opts)
	switch {
	case errors.Is(err, source.ErrCheckedOut), errors.Is(err, source.ErrNoAuthor):
		return usageErrorf("--git %s: %v", g.repo, err)
	case err != nil:
		return fail(exitFail, fmt.Errorf("--git %s: %w", g.repo, err))
	}
	if f.output == "json" {
		return writeJSON(e.stdout, report)
	}
	report.WriteText(e.stdout)
	return nil
}

// gitFiles returns the namespaces of cat and the files a git publish
// commits: the manifests that declare them and their Bicep extension.
func (f *publishFlags) gitFiles(e *env, cat *model.Catalog) ([]string, []publish.GitFile, error) {
	c, diags, err := bridge.GitFiles(cat)
	files, ferr := publish.ManifestFiles(c.Manifests)
	switch {
	case ferr != nil:
		return nil, nil, fail(exitUsage, ferr)
	case err != nil:
		return nil, nil, fail(exitFail, err)
	case diags.HasErrors():
		if err := printDiagnostics(e, f.format, diags); err != nil {
			return nil, nil, fail(exitUsage, err)
		}
		return nil, nil, fail(exitFail, nil)
	}
	return c.Namespaces, append(files, c.Extension...), nil
}
