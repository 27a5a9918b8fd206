package main

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/serve"
	"github.com/udtc/udtc/registry/server"
)

// syncFlags are serve's --sync flags.
type syncFlags struct {
	repo      string
	ref       string
	dir       string
	interval  time.Duration
	tokenFile string
	stateFile string
}

func (f *syncFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "sync", Usage: "follow the git repository at `REPO` (a local path or a URL): its manifests are the source of truth of the namespaces they declare", Destination: &f.repo},
		&cli.StringFlag{Name: "sync-ref", Usage: "branch, tag or commit to follow (default: the repository's HEAD branch)", Destination: &f.ref},
		&cli.StringFlag{Name: "sync-dir", Value: ".", Usage: "directory of the manifests in the repository", Destination: &f.dir},
		&cli.DurationFlag{Name: "sync-interval", Value: 30 * time.Second, Usage: "how often to look for a new commit", Destination: &f.interval},
		&cli.StringFlag{Name: "sync-token-file", Usage: "`FILE` holding a token for HTTPS access to the repository", Destination: &f.tokenFile},
		&cli.StringFlag{Name: "sync-state", Usage: "`FILE` remembering the last applied commit across restarts (default: next to the default SQLite store)", Destination: &f.stateFile},
	}
}

// newSyncer validates the flags and returns the syncer, or nil without --sync.
func (f *syncFlags) newSyncer(logger *slog.Logger) (*gitsync.Syncer, error) {
	if f.repo == "" {
		for name, set := range map[string]bool{"--sync-ref": f.ref != "", "--sync-token-file": f.tokenFile != "", "--sync-state": f.stateFile != ""} {
			if set {
				return nil, usageErrorf("%s needs --sync", name)
			}
		}
		return nil, nil
	}
	if f.interval < time.Second {
		return nil, usageErrorf("--sync-interval must be at least 1s, not %s", f.interval)
	}
	dir := path.Clean(filepath.ToSlash(f.dir))
	if !fs.ValidPath(dir) {
		return nil, usageErrorf("--sync-dir %q must be a relative directory inside the repository", f.dir)
	}
	token := ""
	if f.tokenFile != "" {
		var err error
		if token, err = readTokenFile("--sync-token-file", f.tokenFile); err != nil {
			return nil, err
		}
	}
	remote, err := source.OpenRemote(f.repo, token)
	if err != nil {
		return nil, usageErrorf("--sync: %v", err)
	}
	state := f.stateFile
	if state == "" {
		p, err := serve.DefaultStorePath()
		if err != nil {
			return nil, usageErrorf("--sync: give --sync-state, since %v", err)
		}
		state = filepath.Join(filepath.Dir(p), gitsync.StateFileName(f.repo, f.ref, dir))
	}
	s, err := gitsync.New(gitsync.Config{Remote: remote, Repository: f.repo, Ref: f.ref, Dir: dir, Interval: f.interval, StatePath: state, Log: logger})
	if err != nil {
		return nil, fail(exitFail, err)
	}
	return s, nil
}

// startSync makes syncer keep srv in step with its repository, reading
// through srv's HTTP API at baseURL (with token) and writing through
// srv.ApplyRegistrations; it does nothing for a nil syncer.
func startSync(ctx context.Context, syncer *gitsync.Syncer, srv *server.Server, baseURL, token string) error {
	if syncer == nil {
		return nil
	}
	reg, err := syncClient(syncer, baseURL, token, nil)
	if err != nil {
		return err
	}
	syncer.Start(ctx, gitsync.Loopback{Client: reg, ApplyRegistrations: srv.ApplyRegistrations})
	return nil
}

// syncClient is the client syncer reads through: the registry at baseURL,
// with its token and the syncer's transport over next.
func syncClient(syncer *gitsync.Syncer, baseURL, token string, next http.RoundTripper) (*client.Client, error) {
	opts := []client.Option{client.WithHTTPClient(&http.Client{Transport: syncer.Transport(next)})}
	if token != "" {
		opts = append(opts, client.WithToken(token))
	}
	return client.New(baseURL, opts...)
}

// asServerSync is s as the server's Sync, or nil (not a nil *gitsync.Syncer).
func asServerSync(s *gitsync.Syncer) server.Sync {
	if s == nil {
		return nil
	}
	return s
}
