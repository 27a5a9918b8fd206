package publish

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Publishing to git: instead of a registry, the manifests and their Bicep
// extension go into a git repository as one commit on a branch, for teams
// that review registrations as pull requests (`udtc publish --git`). The
// files come made (the manifests as they are, the extension generated);
// this side lays them out, names the commit and reports it.

// GitFile is one file of a git publish: a slash-separated path below the
// publish's directory, and its contents.
type GitFile struct {
	Path string
	Data []byte
}

// GitCommit is the one commit of a git publish.
type GitCommit struct {
	// Branch the commit goes on; Dir is the slash-separated directory of
	// the repository it replaces with Files.
	Branch, Dir string
	Files       []GitFile
	// AuthorName and AuthorEmail are empty for git config's user.
	AuthorName, AuthorEmail string
	Message                 string
}

// GitRepository is the repository a git publish commits to. cmd/udtc adapts
// generator/source's, the one importer of go-git, to it.
type GitRepository interface {
	// Root is the repository's directory, for messages.
	Root() string
	// Commit makes c and returns its hash. When the branch already holds
	// these files it makes none: changed is false and hash is the branch's
	// commit ("" when it cannot be read).
	Commit(c GitCommit) (hash string, changed bool, err error)
}

// GitOptions tune PublishGit.
type GitOptions struct {
	Branch, Dir string
	// Message of the commit; "" names the namespaces.
	Message string
	// AuthorName and AuthorEmail are empty for git config's user.
	AuthorName, AuthorEmail string
	// DryRun commits nothing: the report lists what would be committed.
	DryRun bool
}

// GitReport is what a git publish did: the --output json document of
// `udtc publish --git`.
type GitReport struct {
	Repository string   `json:"repository"`
	Branch     string   `json:"branch"`
	Commit     string   `json:"commit"`
	Changed    bool     `json:"changed"`
	Files      []string `json:"files"`

	dir    string
	dryRun bool
}

// PublishGit commits files, those of the namespaces, below opts.Dir of
// repo as one commit on opts.Branch (with DryRun, it only reports them).
// The error is the repository's.
func PublishGit(repo GitRepository, namespaces []string, files []GitFile, opts GitOptions) (GitReport, error) {
	msg := opts.Message
	if msg == "" {
		msg = "udtc publish: " + strings.Join(namespaces, ", ") + "\n\nManifests and the generated Bicep extension, written by udtc publish --git.\n"
	}
	report := GitReport{Repository: repo.Root(), Branch: opts.Branch, Changed: !opts.DryRun, dir: opts.Dir, dryRun: opts.DryRun}
	for _, f := range files {
		report.Files = append(report.Files, path.Join(opts.Dir, f.Path))
	}
	slices.Sort(report.Files)
	if opts.DryRun {
		return report, nil
	}
	var err error
	report.Commit, report.Changed, err = repo.Commit(GitCommit{Branch: opts.Branch, Dir: opts.Dir, Files: files,
		AuthorName: opts.AuthorName, AuthorEmail: opts.AuthorEmail, Message: msg})
	return report, err
}

// WriteText writes the report as `udtc publish --git` prints it.
func (r GitReport) WriteText(w io.Writer) {
	switch {
	case r.dryRun:
		fmt.Fprintf(w, "Dry run: would commit on branch %s of %s:\n", r.Branch, r.Repository)
		for _, name := range r.Files {
			fmt.Fprintf(w, "  %s\n", name)
		}
	case !r.Changed:
		fmt.Fprintf(w, "Branch %s of %s already holds these %d files: nothing committed.\n", r.Branch, r.Repository, len(r.Files))
	default:
		fmt.Fprintf(w, "Committed %s on branch %s of %s: %d files under %s/.\n", r.Commit[:12], r.Branch, r.Repository, len(r.Files), r.dir)
	}
}

// ManifestFiles reads the manifest files at paths (those that declare the
// published namespaces), each named by its path relative to the working
// directory (its base name when it lies outside) under "manifests/". A
// path given twice is read once; two files that would get one name are an
// error.
func ManifestFiles(paths []string) ([]GitFile, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	var out []GitFile
	for _, file := range paths {
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, err
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
			return nil, fmt.Errorf("%s and %s would both be committed as %s", prev, abs, name)
		}
		seen[name] = abs
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, err
		}
		out = append(out, GitFile{Path: name, Data: data})
	}
	return out, nil
}
