package source

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// LastChange returns the committer time of the newest commit, in the
// history of HEAD, that changed a file at or under one of paths (files or
// directories, relative to the working directory or absolute). Paths in
// several repositories give the newest of their times; paths outside any
// repository are left out. ok is false when no commit changed any of them
// (they are untracked, or outside every repository) or HEAD has no commit.
//
// It is a time that does not change from run to run while the inputs do
// not, for reproducible artifacts (`udtc publish-extension`).
func LastChange(paths ...string) (t time.Time, ok bool, err error) {
	byRepo := map[string][]string{}
	repos := map[string]*Repo{}
	var order []string
	for _, p := range paths {
		r, err := Discover(p)
		if errors.Is(err, ErrNotRepository) {
			continue
		}
		if err != nil {
			return time.Time{}, false, err
		}
		rel, err := r.Rel(p)
		if err != nil {
			return time.Time{}, false, err
		}
		if _, seen := repos[r.Root]; !seen {
			repos[r.Root] = r
			order = append(order, r.Root)
		}
		byRepo[r.Root] = append(byRepo[r.Root], rel)
	}
	for _, root := range order {
		rt, rok, err := repos[root].lastChange(byRepo[root])
		if err != nil {
			return time.Time{}, false, err
		}
		if rok && (!ok || rt.After(t)) {
			t, ok = rt, true
		}
	}
	return t, ok, nil
}

// lastChange is LastChange within one repository; rels are slash-separated
// paths relative to its root ("." for all of it). It walks the first-parent
// history from HEAD and compares the hashes of the paths' tree entries
// with the parent's (as `git log -1 --first-parent -- PATHS`): a change
// merged from a branch counts at its merge commit. Comparing a few entry
// hashes per commit, not whole tree diffs, keeps it fast on long histories.
func (r *Repo) lastChange(rels []string) (time.Time, bool, error) {
	head, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return time.Time{}, false, nil // no commit yet
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("%s: HEAD: %w", r.Root, err)
	}
	c, err := r.repo.CommitObject(head.Hash())
	if err != nil {
		return time.Time{}, false, fmt.Errorf("%s: HEAD: %w", r.Root, err)
	}
	cur, err := entryHashes(c, rels)
	if err != nil {
		return time.Time{}, false, err
	}
	for {
		if len(c.ParentHashes) == 0 {
			// The root commit changed the paths if it holds any of them.
			for _, h := range cur {
				if !h.IsZero() {
					return committed(c), true, nil
				}
			}
			return time.Time{}, false, nil
		}
		parent, err := r.repo.CommitObject(c.ParentHashes[0])
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return committed(c), true, nil // a shallow clone's oldest commit
		}
		if err != nil {
			return time.Time{}, false, fmt.Errorf("%s: history: %w", r.Root, err)
		}
		prev, err := entryHashes(parent, rels)
		if err != nil {
			return time.Time{}, false, err
		}
		if !slices.Equal(cur, prev) {
			return committed(c), true, nil
		}
		c, cur = parent, prev
	}
}

// entryHashes are the hashes of the tree entries at rels in c's tree, the
// zero hash for a path c does not hold.
func entryHashes(c *object.Commit, rels []string) ([]plumbing.Hash, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", c.Hash, err)
	}
	out := make([]plumbing.Hash, len(rels))
	for i, rel := range rels {
		if rel == "." {
			out[i] = tree.Hash
			continue
		}
		e, err := tree.FindEntry(rel)
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("commit %s: %s: %w", c.Hash, rel, err)
		}
		out[i] = e.Hash
	}
	return out, nil
}

// committed is when c was committed, in UTC.
func committed(c *object.Commit) time.Time { return c.Committer.When.UTC() }

// SourceDate is the creation time of artifacts made from paths, for
// reproducible builds: epoch (the value of $SOURCE_DATE_EPOCH, seconds
// since 1970) when it is not "", else LastChange of paths. When there is
// none, t is zero and note says why. The error is a bad epoch.
func SourceDate(epoch string, paths ...string) (t time.Time, note string, err error) {
	if epoch != "" {
		sec, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil || sec < 0 {
			return time.Time{}, "", fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a count of seconds since 1970", epoch)
		}
		return time.Unix(sec, 0).UTC(), "", nil
	}
	t, ok, err := LastChange(paths...)
	switch {
	case err != nil:
		return time.Time{}, err.Error(), nil
	case !ok:
		return t, "the inputs are not committed to git (set SOURCE_DATE_EPOCH for one)", nil
	}
	return t, "", nil
}
