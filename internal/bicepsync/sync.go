// Package bicepsync is `udtc bicep sync`: it fetches the Bicep extensions a
// project uses from a `udtc serve` (GET /bicep/NAME.tgz), writes each
// under the project in a file named by its digest, and names that file in
// bicepconfig.json, so the entry pins the extension by digest. The
// bicepconfig.json is edited in place with hujson: comments, other keys
// and the layout stay. Nothing is written until every archive has arrived
// and checked (its digest, its content); the archives go first, then the
// bicepconfig.json (renamed into place), then the archives it no longer
// names are removed, so a failure at any point leaves a working project.
package bicepsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

// DefaultDir is where the archives go, relative to bicepconfig.json.
const DefaultDir = ".udtc/bicep"

// Options are a sync.
type Options struct {
	// Client reaches the server.
	Client *client.Client
	// Namespaces are the namespaces (or extension names) to sync; none:
	// every extension the server serves.
	Namespaces []string
	// Config is the bicepconfig.json path; it is created when missing.
	Config string
	// Dir is where the archives go, relative to Config's directory
	// (DefaultDir when "").
	Dir string
	// Check only compares: nothing is written.
	Check bool
}

// State is what a sync found of an extension.
type State string

const (
	Current State = "current" // the local copy is the server's
	Updated State = "updated" // written (Check: stale)
	Added   State = "added"   // written for the first time (Check: missing)
)

// Extension is one extension of a sync.
type Extension struct {
	Namespace string `json:"namespace"`
	Name      string `json:"extension"` // the bicepconfig.json key
	// Digest is the server's (sha256:HEX); Entry the bicepconfig.json
	// value that pins it.
	Digest string `json:"digest"`
	Entry  string `json:"entry"`
	State  State  `json:"state"`
	// Was is the entry before, "" when there was none.
	Was string `json:"was,omitempty"`
}

// Result is a sync's outcome.
type Result struct {
	Extensions []Extension `json:"extensions"`
	// Wrote is set when a file was written.
	Wrote bool `json:"wrote"`
}

// Stale reports whether some extension is not current.
func (r Result) Stale() bool {
	return slices.ContainsFunc(r.Extensions, func(e Extension) bool { return e.State != Current })
}

// Sync fetches the extensions of opts and pins them in bicepconfig.json.
func Sync(ctx context.Context, opts Options) (Result, error) {
	dir := opts.Dir
	if dir == "" {
		dir = DefaultDir
	}
	if filepath.IsAbs(dir) || strings.HasPrefix(filepath.Clean(dir), "..") {
		return Result{}, fmt.Errorf("--dir %s: give a directory inside the project, relative to %s", dir, opts.Config)
	}
	raw, err := os.ReadFile(opts.Config)
	mode := fs.FileMode(0o644)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		raw = nil
	case err != nil:
		return Result{}, err
	default:
		if fi, err := os.Stat(opts.Config); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	cfg, err := parseConfig(raw)
	if err != nil {
		return Result{}, fmt.Errorf("%s %w", opts.Config, err)
	}
	exts, err := selectExtensions(ctx, opts.Client, opts.Namespaces)
	if err != nil {
		return Result{}, err
	}
	root := filepath.Dir(opts.Config)
	var res Result
	var fetched [][]byte
	for _, e := range exts {
		x := Extension{Namespace: e.Namespace, Name: e.Extension, Was: cfg.extension(e.Extension)}
		local := localDigest(root, dir, x.Name, x.Was)
		a, err := opts.Client.BicepArchive(ctx, e.Archive, local, opts.Check)
		if err != nil {
			return Result{}, fmt.Errorf("extension %s (%s): %w", x.Name, x.Namespace, err)
		}
		x.Digest = a.ETag
		x.Entry = entryFor(dir, x.Name, a.ETag)
		switch {
		case a.NotModified:
			x.State = Current
		case x.Was == "":
			x.State = Added
		default:
			x.State = Updated
		}
		if !opts.Check && !a.NotModified {
			if err := verify(a, x.Name); err != nil {
				return Result{}, fmt.Errorf("extension %s (%s) from %s: %w; nothing was written", x.Name, x.Namespace, e.Archive, err)
			}
		}
		res.Extensions = append(res.Extensions, x)
		fetched = append(fetched, a.Data)
	}
	if opts.Check {
		return res, nil
	}
	return res, write(cfg, opts.Config, mode, root, &res, fetched)
}

// selectExtensions returns the server's extensions of the namespaces (a
// namespace or an extension name each, case-insensitive); every one when
// there are none.
func selectExtensions(ctx context.Context, c *client.Client, namespaces []string) ([]api.BicepExtension, error) {
	all, err := c.BicepExtensions(ctx)
	if client.StatusCode(err) == http.StatusNotFound {
		return nil, fmt.Errorf("the server hands out no Bicep extensions (GET /bicep/ answered 404): sync from a udtc serve: %w", err)
	}
	if err != nil {
		return nil, err
	}
	if len(namespaces) == 0 {
		if len(all) == 0 {
			return nil, errors.New("the server holds no namespace with resource types: there is no extension to sync")
		}
		return all, nil
	}
	var out []api.BicepExtension
	for _, ns := range namespaces {
		i := slices.IndexFunc(all, func(e api.BicepExtension) bool {
			return strings.EqualFold(e.Namespace, ns) || strings.EqualFold(e.Extension, ns)
		})
		if i < 0 {
			// The server says why: not registered, or without types.
			if _, err := c.BicepArchive(ctx, "/bicep/"+url.PathEscape(ns)+".tgz", "", false); err != nil {
				return nil, fmt.Errorf("namespace %s: %w", ns, err)
			}
			var names []string
			for _, e := range all {
				names = append(names, e.Namespace)
			}
			known := strings.Join(names, ", ")
			if known == "" {
				known = "none"
			}
			return nil, fmt.Errorf("namespace %s has no extension on the server: it is not registered, or has no resource types (namespaces with types: %s)", ns, known)
		}
		if !slices.ContainsFunc(out, func(e api.BicepExtension) bool { return e.Namespace == all[i].Namespace }) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// fileName is the archive of extension name at digest (sha256:HEX).
func fileName(name, digest string) string {
	return name + "-" + strings.ReplaceAll(digest, ":", "-") + ".tgz"
}

// entryFor is the bicepconfig.json value of the archive: a path relative
// to bicepconfig.json, as Bicep reads it.
func entryFor(dir, name, digest string) string {
	return "./" + filepath.ToSlash(filepath.Join(dir, fileName(name, digest)))
}

// localDigest returns the digest the entry pins when it names an archive
// of this sync (in dir) whose file is there and holds that digest; ""
// otherwise, and the archive is then fetched whole.
func localDigest(root, dir, name, entry string) string {
	rest, ok := strings.CutPrefix(entry, "./"+filepath.ToSlash(dir)+"/"+name+"-sha256-")
	if !ok {
		return ""
	}
	hexDigest, ok := strings.CutSuffix(rest, ".tgz")
	if !ok || len(hexDigest) != sha256.Size*2 {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(entry)))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != hexDigest {
		return "" // changed by hand: fetched again
	}
	return "sha256:" + hexDigest
}

// verify checks a fetched archive: its digest is the ETag's and it is a
// Bicep extension package of extension name.
func verify(a client.Archive, name string) error {
	hexDigest, ok := strings.CutPrefix(a.ETag, "sha256:")
	if !ok || len(hexDigest) != sha256.Size*2 {
		return fmt.Errorf("the server gave no sha256 digest (ETag %q)", a.ETag)
	}
	sum := sha256.Sum256(a.Data)
	if got := hex.EncodeToString(sum[:]); got != hexDigest {
		return fmt.Errorf("digest mismatch: the server named sha256:%s, the %d bytes received are sha256:%s", hexDigest, len(a.Data), got)
	}
	p, err := bicep.ReadArchive(a.Data)
	if err != nil {
		return err
	}
	if p.Name != name {
		return fmt.Errorf("the archive is of extension %s, not %s", p.Name, name)
	}
	return nil
}

// write writes the fetched archives, then bicepconfig.json, then removes
// the archives the entries named before.
func write(cfg *config, path string, mode fs.FileMode, root string, res *Result, fetched [][]byte) error {
	var written []string
	undo := func() {
		for _, f := range written {
			os.Remove(f)
		}
	}
	changed := false
	for i, x := range res.Extensions {
		if x.Was != x.Entry {
			if err := cfg.setExtension(x.Name, x.Entry); err != nil {
				undo()
				return fmt.Errorf("%s: %w", path, err)
			}
			changed = true
		}
		if x.State == Current {
			continue
		}
		file := filepath.Join(root, filepath.FromSlash(x.Entry))
		if err := atomicfile.WriteFile(file, fetched[i], 0o644); err != nil {
			undo()
			return err
		}
		written = append(written, file)
	}
	if changed {
		if err := atomicfile.WriteFile(path, cfg.bytes(), mode); err != nil {
			undo()
			return err
		}
	}
	res.Wrote = changed || len(written) > 0
	for _, x := range res.Extensions {
		if x.Was != x.Entry && isOurs(x.Was, x.Name) {
			os.Remove(filepath.Join(root, filepath.FromSlash(x.Was)))
		}
	}
	return nil
}

// isOurs reports whether entry names an archive a sync wrote (a path
// ending in NAME-sha256-HEX.tgz), which the sync may remove once no entry
// names it.
func isOurs(entry, name string) bool {
	base := filepath.Base(filepath.FromSlash(entry))
	rest, ok := strings.CutPrefix(base, name+"-sha256-")
	return ok && strings.HasSuffix(rest, ".tgz") && len(rest) == sha256.Size*2+len(".tgz") && !strings.HasPrefix(entry, "br:")
}
