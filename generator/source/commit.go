package source

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Init creates an empty repository with a working tree at dir whose HEAD
// names the branch "main".
func Init(dir string) (*Repo, error) {
	r, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: cannot create a git repository: %w", dir, err)
	}
	return wrap(r, dir)
}

// File is one file of a commit: a slash-separated path and its contents.
type File struct {
	Path string
	Data []byte
}

// Author is who a commit is by.
type Author struct {
	Name, Email string
}

// CommitOptions describe one commit made by Repo.Commit.
type CommitOptions struct {
	// Branch the commit goes on ("main", "udtc/registrations"). A new
	// branch starts at HEAD's commit (or has no parent in an empty
	// repository).
	Branch string
	// Dir is the slash-separated directory the files replace ("" or "."
	// for the whole tree): everything below it in the parent commit is
	// dropped, then Files are written below it.
	Dir   string
	Files []File
	// Author of the commit; zero means user.name and user.email of the
	// repository's or the user's git configuration.
	Author  Author
	Message string
	// When is the commit time; zero means now.
	When time.Time
}

// ErrNoAuthor is returned when a commit has no author and git's
// configuration names none.
var ErrNoAuthor = errors.New("no commit author: give one, or set user.name and user.email in git config")

// ErrCheckedOut is returned when Commit targets the branch of the working tree.
var ErrCheckedOut = errors.New("the branch is checked out in the working tree")

// ErrNoChange is returned when the commit would not change the branch's tree.
var ErrNoChange = errors.New("nothing to commit: the branch already holds these files")

// Commit writes opts.Files as one commit on opts.Branch directly into the
// object store, without touching the working tree or the index; it refuses
// (ErrCheckedOut) the branch the working tree has checked out, whose files
// would silently disagree with the commit. It returns the commit's hash.
func (r *Repo) Commit(opts CommitOptions) (string, error) {
	return r.commit(opts, false)
}

// CommitCheckedOut is Commit for the checked-out branch, for tests and
// tools that write the working tree themselves.
func (r *Repo) CommitCheckedOut(opts CommitOptions) (string, error) {
	return r.commit(opts, true)
}

func (r *Repo) commit(opts CommitOptions, allowHead bool) (string, error) {
	branch, err := r.commitBranch(opts.Branch, allowHead)
	if err != nil {
		return "", err
	}
	author, err := r.commitAuthor(opts.Author)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(opts.Message) == "" {
		return "", errors.New("empty commit message")
	}
	when := opts.When
	if when.IsZero() {
		when = time.Now()
	}
	parent, parentRef, files, err := r.parentOf(branch)
	if err != nil {
		return "", err
	}
	if err := r.replaceDir(files, opts.Dir, opts.Files); err != nil {
		return "", err
	}
	treeHash, err := r.writeTree(files, "")
	if err != nil {
		return "", err
	}
	var parents []plumbing.Hash
	if parent != nil {
		if parent.TreeHash == treeHash && parentRef.Name() == branch {
			return "", ErrNoChange
		}
		parents = []plumbing.Hash{parent.Hash}
	}
	sig := object.Signature{Name: author.Name, Email: author.Email, When: when}
	c := &object.Commit{Author: sig, Committer: sig, Message: opts.Message, TreeHash: treeHash, ParentHashes: parents}
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return "", err
	}
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return "", fmt.Errorf("cannot write the commit: %w", err)
	}
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(branch, h)); err != nil {
		return "", fmt.Errorf("cannot update branch %s: %w", opts.Branch, err)
	}
	return h.String(), nil
}

// commitBranch returns the reference of the branch name a commit goes on;
// unless allowHead, the branch checked out is refused (ErrCheckedOut).
func (r *Repo) commitBranch(name string, allowHead bool) (plumbing.ReferenceName, error) {
	if name == "" {
		return "", errors.New("no branch given")
	}
	branch := plumbing.NewBranchReferenceName(name)
	if err := branch.Validate(); err != nil || strings.ContainsAny(name, " ~^:?*[\\") {
		return "", fmt.Errorf("%q is not a valid branch name", name)
	}
	head, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", fmt.Errorf("cannot read HEAD: %w", err)
	}
	if !allowHead && head.Type() == plumbing.SymbolicReference && head.Target() == branch {
		return "", fmt.Errorf("%s: %w (commit to another branch and open a pull request)", name, ErrCheckedOut)
	}
	return branch, nil
}

// commitAuthor completes author from user.name and user.email of git's
// configuration; ErrNoAuthor when it stays incomplete.
func (r *Repo) commitAuthor(author Author) (Author, error) {
	if author.Name != "" && author.Email != "" {
		return author, nil
	}
	if cfg, err := r.repo.ConfigScoped(config.SystemScope); err == nil {
		if author.Name == "" {
			author.Name = cfg.User.Name
		}
		if author.Email == "" {
			author.Email = cfg.User.Email
		}
	}
	if author.Name == "" || author.Email == "" {
		return author, ErrNoAuthor
	}
	return author, nil
}

// parentOf returns the parent of a commit on branch: the branch's commit,
// else HEAD's, else none (an empty repository: parent is nil), with the
// reference it came from and its files by path.
func (r *Repo) parentOf(branch plumbing.ReferenceName) (*object.Commit, *plumbing.Reference, map[string]entry, error) {
	files := map[string]entry{}
	parentRef, err := r.repo.Reference(branch, true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		parentRef, err = r.repo.Reference(plumbing.HEAD, true)
	}
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return nil, nil, files, nil // the first commit
	case err != nil:
		return nil, nil, nil, fmt.Errorf("cannot read branch %s: %w", branch.Short(), err)
	}
	parent, err := r.repo.CommitObject(parentRef.Hash())
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cannot read commit %s: %w", parentRef.Hash(), err)
	}
	tree, err := parent.Tree()
	if err != nil {
		return nil, nil, nil, err
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		files[f.Name] = entry{mode: f.Mode, hash: f.Hash}
		return nil
	})
	return parent, parentRef, files, err
}

// replaceDir drops from files everything below dir (the whole tree for ""
// or ".") and writes add below it.
func (r *Repo) replaceDir(files map[string]entry, given string, add []File) error {
	dir := path.Clean(strings.TrimPrefix(given, "/"))
	if dir == "." {
		dir = ""
	}
	if dir != "" && !validRel(dir) {
		return fmt.Errorf("%q is not a relative directory inside the repository", given)
	}
	for name := range files {
		if dir == "" || name == dir || strings.HasPrefix(name, dir+"/") {
			delete(files, name)
		}
	}
	for _, f := range add {
		if !validRel(f.Path) {
			return fmt.Errorf("%q is not a relative file path", f.Path)
		}
		h, err := r.writeBlob(f.Data)
		if err != nil {
			return err
		}
		files[path.Join(dir, f.Path)] = entry{mode: filemode.Regular, hash: h}
	}
	return nil
}

// Tag creates a lightweight tag at a commit.
func (r *Repo) Tag(name, commit string) error {
	_, err := r.repo.CreateTag(name, plumbing.NewHash(commit), nil)
	return err
}

// Branch creates (or moves) a branch to a commit.
func (r *Repo) Branch(name, commit string) error {
	return r.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), plumbing.NewHash(commit)))
}

func validRel(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.EqualFold(seg, ".git") {
			return false
		}
	}
	return true
}

type entry struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

func (r *Repo) writeBlob(data []byte) (plumbing.Hash, error) {
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}

// writeTree writes the tree of the files below prefix ("" or "dir/") and
// returns its hash.
func (r *Repo) writeTree(files map[string]entry, prefix string) (plumbing.Hash, error) {
	children := map[string]bool{}
	var entries []object.TreeEntry
	for name, e := range files {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if sub, _, isDir := strings.Cut(rest, "/"); isDir {
			children[sub] = true
			continue
		}
		entries = append(entries, object.TreeEntry{Name: rest, Mode: e.mode, Hash: e.hash})
	}
	for sub := range children {
		h, err := r.writeTree(files, prefix+sub+"/")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: sub, Mode: filemode.Dir, Hash: h})
	}
	// Git orders tree entries by name, directories as if they ended in "/".
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	slices.SortFunc(entries, func(a, b object.TreeEntry) int { return strings.Compare(key(a), key(b)) })
	t := &object.Tree{Entries: entries}
	obj := r.repo.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}
