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
	spec    string // what go-git opens: never with an HTTP(S) URL's user information
	display string // spec as shown (String): never with user information
	secret  string // a password taken out of the URL, hidden in errors
	local   bool
	auth    transport.AuthMethod
	repo    *git.Repository
}

// OpenRemote opens spec: a local path (or file:// URL) of a repository, or
// a URL go-git can clone (https://, ssh://, git://). token, when not empty,
// authenticates HTTPS as a bearer-style password (GitHub, GitLab and Azure
// DevOps accept a token this way). Credentials in an HTTP(S) URL
// (https://user:token@host/...) are taken out of it and sent the same way:
// they never appear in String, in errors or in what go-git logs; giving
// both is an error. Nothing is fetched until Fetch.
func OpenRemote(spec, token string) (*Remote, error) {
	r := &Remote{spec: spec, display: RedactURL(spec)}
	path := spec
	if u, err := url.Parse(spec); err == nil && u.Scheme == "file" {
		path = u.Path
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		r.local, r.spec = true, path
		return r, nil
	}
	if _, err := transport.NewEndpoint(spec); err != nil || !strings.Contains(spec, "://") && !strings.Contains(spec, "@") {
		return nil, fmt.Errorf("%s is neither a local directory nor a git URL", r.display)
	}
	if token != "" {
		r.auth = &githttp.BasicAuth{Username: "udtc", Password: token}
	}
	if u, err := url.Parse(spec); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.User != nil {
		if token != "" {
			return nil, fmt.Errorf("%s: give the credentials in the URL or in a token file, not both", r.display)
		}
		pass, _ := u.User.Password()
		r.auth = &githttp.BasicAuth{Username: u.User.Username(), Password: pass}
		r.secret = pass
		if pass == "" {
			r.secret = u.User.Username() // https://TOKEN@host/...
		}
		u.User = nil
		r.spec = u.String()
	}
	return r, nil
}

// String is the repository as given, without the user information of a
// URL (RedactURL): the name to show in statuses, messages and logs.
func (r *Remote) String() string { return r.display }

// RedactURL returns a repository spec without user information:
// "https://user:token@host/repo.git" is "https://host/repo.git", and
// "git@host:repo.git" (scp-like) is "host:repo.git". Other specs (local
// paths) are returned as they are.
func RedactURL(spec string) string {
	if strings.Contains(spec, "://") {
		if u, err := url.Parse(spec); err == nil {
			u.User = nil
			return u.String()
		}
		scheme, rest, _ := strings.Cut(spec, "://")
		host, path, _ := strings.Cut(rest, "/")
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
		return scheme + "://" + host + "/" + path
	}
	if at := strings.LastIndex(spec, "@"); at >= 0 && !strings.Contains(spec[:at], "/") && strings.Contains(spec[at:], ":") {
		return spec[at+1:]
	}
	return spec
}

// redact hides the remote's credentials in err, which go-git may have
// written with the URL it was given.
func (r *Remote) redact(err error) error {
	if err == nil || r.secret == "" || !strings.Contains(err.Error(), r.secret) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), r.secret, "***"))
}

// Fetch brings the remote's refs up to date: it re-opens a local repository,
// and clones (the first time) or fetches a URL.
func (r *Remote) Fetch(ctx context.Context) error {
	if r.local {
		repo, err := git.PlainOpenWithOptions(r.spec, &git.PlainOpenOptions{DetectDotGit: false})
		if err != nil {
			return fmt.Errorf("%s: %w", r.display, err)
		}
		r.repo = repo
		return nil
	}
	if r.repo == nil {
		repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{
			URL: r.spec, Auth: r.auth, Tags: git.AllTags,
		})
		if err != nil {
			return fmt.Errorf("cloning %s: %w", r.display, r.redact(err))
		}
		r.repo = repo
		return nil
	}
	err := r.repo.FetchContext(ctx, &git.FetchOptions{
		Auth: r.auth, Tags: git.AllTags, Force: true,
		RefSpecs: []config.RefSpec{"+refs/heads/*:refs/remotes/origin/*"},
	})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("fetching %s: %w", r.display, r.redact(err))
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
		return "", fmt.Errorf("%s: cannot read HEAD: %w", r.display, err)
	}
	if head.Type() != plumbing.SymbolicReference {
		return "", fmt.Errorf("%s: HEAD is detached; give the branch to follow", r.display)
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
