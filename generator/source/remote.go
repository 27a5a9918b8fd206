package source

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Remote is a repository followed by `udtc serve --sync`: a local
// repository opened in place (its refs are read afresh on every Fetch), or a
// URL cloned into memory and fetched again on every Fetch.
type Remote struct {
	spec  string
	local bool
	auth  transport.AuthMethod
	repo  *git.Repository
}

// OpenRemote opens spec: a local path (or file:// URL) of a repository, or
// a URL go-git can clone (https://, ssh://, git://). token, when not empty,
// authenticates HTTPS as a bearer-style password (GitHub, GitLab and Azure
// DevOps accept a token this way). Nothing is fetched until Fetch.
func OpenRemote(spec, token string) (*Remote, error) {
	r := &Remote{spec: spec}
	path := spec
	if u, err := url.Parse(spec); err == nil && u.Scheme == "file" {
		path = u.Path
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		r.local, r.spec = true, path
		return r, nil
	}
	if _, err := transport.NewEndpoint(spec); err != nil || !strings.Contains(spec, "://") && !strings.Contains(spec, "@") {
		return nil, fmt.Errorf("%s is neither a local directory nor a git URL", spec)
	}
	if token != "" {
		r.auth = &githttp.BasicAuth{Username: "udtc", Password: token}
	}
	return r, nil
}

// Fetch brings the remote's refs up to date: it re-opens a local repository,
// and clones (the first time) or fetches a URL.
func (r *Remote) Fetch(ctx context.Context) error {
	if r.local {
		repo, err := git.PlainOpenWithOptions(r.spec, &git.PlainOpenOptions{DetectDotGit: false})
		if err != nil {
			return fmt.Errorf("%s: %w", r.spec, err)
		}
		r.repo = repo
		return nil
	}
	if r.repo == nil {
		repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{
			URL: r.spec, Auth: r.auth, Tags: git.AllTags,
		})
		if err != nil {
			return fmt.Errorf("cloning %s: %w", r.spec, err)
		}
		r.repo = repo
		return nil
	}
	err := r.repo.FetchContext(ctx, &git.FetchOptions{
		Auth: r.auth, Tags: git.AllTags, Force: true,
		RefSpecs: []config.RefSpec{"+refs/heads/*:refs/remotes/origin/*"},
	})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("fetching %s: %w", r.spec, err)
	}
	return nil
}

// DefaultBranch is the branch the repository's HEAD names ("main").
func (r *Remote) DefaultBranch() (string, error) {
	if r.repo == nil {
		return "", errors.New("not fetched yet")
	}
	head, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", fmt.Errorf("%s: cannot read HEAD: %w", r.spec, err)
	}
	if head.Type() != plumbing.SymbolicReference {
		return "", fmt.Errorf("%s: HEAD is detached; give the branch to follow", r.spec)
	}
	return head.Target().Short(), nil
}

// Resolve returns the commit ref names after the last Fetch: for a cloned
// URL a branch is looked up among the fetched remote branches first.
func (r *Remote) Resolve(ref string) (*Snapshot, error) {
	if r.repo == nil {
		return nil, errors.New("not fetched yet")
	}
	if !r.local {
		if s, err := resolve(r.repo, "refs/remotes/origin/"+ref); err == nil {
			s.Rev = ref
			return s, nil
		}
	}
	return resolve(r.repo, ref)
}
