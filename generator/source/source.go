// Package source owns where manifests come from besides the working tree:
// git repositories read and written through go-git (no git binary). It is
// the one importer of go-git. It finds the repository containing a path,
// resolves revisions (branch, tag, commit, HEAD~N) and exposes the tree of
// a commit as an fs.FS that generator.CompileFS reads.
package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

var (
	// ErrNotRepository is returned when a path is not inside a git repository.
	ErrNotRepository = errors.New("not inside a git repository")
	// ErrUnknownRevision is returned when a revision names no commit.
	ErrUnknownRevision = errors.New("unknown revision")
)

// Repo is a git repository with a working tree.
type Repo struct {
	repo *git.Repository
	// Root is the absolute path of the working tree, symlinks resolved.
	Root string
}

// Discover opens the repository whose working tree contains path, looking
// in path and then in each parent directory. It returns an error wrapping
// ErrNotRepository when there is none.
func Discover(path string) (*Repo, error) {
	abs, err := realPath(path)
	if err != nil {
		return nil, err
	}
	start := abs
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		start = filepath.Dir(abs)
	}
	// EnableDotGitCommonDir: a linked worktree (git worktree add) keeps its
	// refs and objects in the main repository's .git.
	r, err := git.PlainOpenWithOptions(start, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open the git repository: %w", path, err)
	}
	return wrap(r, path)
}

// Open opens the repository whose working tree is dir.
func Open(dir string) (*Repo, error) {
	r, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open the git repository: %w", dir, err)
	}
	return wrap(r, dir)
}

func wrap(r *git.Repository, path string) (*Repo, error) {
	wt, err := r.Worktree()
	if err != nil {
		return nil, fmt.Errorf("%s: the repository has no working tree: %w", path, err)
	}
	root, err := realPath(wt.Filesystem.Root())
	if err != nil {
		return nil, err
	}
	return &Repo{repo: r, Root: root}, nil
}

// realPath is the absolute path with symlinks resolved (as far as it exists).
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	}
	return abs, nil
}

// Rel returns path relative to the root of the working tree, slash-separated
// ("." for the root itself). It returns an error wrapping ErrNotRepository
// when path lies outside the working tree.
func (r *Repo) Rel(path string) (string, error) {
	abs, err := realPath(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(r.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository at %s: %w", path, r.Root, ErrNotRepository)
	}
	return filepath.ToSlash(rel), nil
}

// Resolve returns the commit a revision names: a branch, a tag, a commit
// hash (full or abbreviated), HEAD, HEAD~N, rev^. An unknown revision is an
// error wrapping ErrUnknownRevision that names it.
func (r *Repo) Resolve(rev string) (*Snapshot, error) {
	return resolve(r.repo, rev)
}

func resolve(repo *git.Repository, rev string) (*Snapshot, error) {
	if rev == "" {
		return nil, fmt.Errorf("empty revision: %w", ErrUnknownRevision)
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("%q: %w (%v)", rev, ErrUnknownRevision, err)
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("%q: %w (%v)", rev, ErrUnknownRevision, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("%q: cannot read the commit's tree: %w", rev, err)
	}
	return &Snapshot{Rev: rev, Commit: c, tree: tree}, nil
}

// Snapshot is the tree of one commit.
type Snapshot struct {
	// Rev is the revision as given.
	Rev    string
	Commit *object.Commit
	tree   *object.Tree
}

// Hash is the full commit hash.
func (s *Snapshot) Hash() string { return s.Commit.Hash.String() }

// FS returns the commit's tree as a read-only file system: regular files and
// directories; symbolic links and submodules are absent.
func (s *Snapshot) FS() *TreeFS { return newTreeFS(s.tree) }
