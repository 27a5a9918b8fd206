package main

import (
	"context"
	"io/fs"
	"log/slog"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry/server"
)

// syncFlags are serve's --sync flags.
type syncFlags struct {
	repo      string
	ref       string
	dir       string
	interval  time.Duration
	tokenFile string
	heal      bool
	maxFiles  int
	maxBytes  int64
	// maxBody is serve's --max-body-bytes: synced writes obey it too.
	maxBody int64
	// isSet reports whether a flag was given (the command's context).
	isSet func(name string) bool
}

func (f *syncFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "sync", EnvVars: []string{"UDTC_SYNC"}, Usage: "follow the git repository at `REPO` (a local path or a URL; give HTTPS credentials with --sync-token-file): its manifests are the source of truth of the namespaces they declare", Destination: &f.repo},
		&cli.StringFlag{Name: "sync-ref", Usage: "branch, tag or commit to follow (default: the repository's HEAD branch)", Destination: &f.ref},
		&cli.StringFlag{Name: "sync-dir", Value: ".", Usage: "directory of the manifests in the repository", Destination: &f.dir},
		&cli.DurationFlag{Name: "sync-interval", Value: 30 * time.Second, Usage: "how often to look for a new commit and compare the registry with the applied one", Destination: &f.interval},
		&cli.StringFlag{Name: "sync-token-file", Usage: "`FILE` holding a token for HTTPS access to the repository", Destination: &f.tokenFile},
		&cli.BoolFlag{Name: "sync-heal", Value: true, Usage: "write the applied commit back when the registry drifted from it (--sync-heal=false only reports drift)", Destination: &f.heal},
		&cli.IntFlag{Name: "sync-max-files", Value: gitsync.DefaultMaxFiles, Usage: "refuse a commit with more manifest files than `N` under --sync-dir", Destination: &f.maxFiles},
		&cli.Int64Flag{Name: "sync-max-bytes", Value: gitsync.DefaultMaxBytes, Usage: "refuse a commit whose manifest files under --sync-dir hold more than `N` bytes in all", Destination: &f.maxBytes},
	}
}

// newSyncer validates the flags and returns the syncer, or nil without --sync.
func (f *syncFlags) newSyncer(logger *slog.Logger) (*gitsync.Syncer, error) {
	if f.repo == "" {
		for _, name := range []string{"sync-ref", "sync-dir", "sync-interval", "sync-token-file", "sync-heal", "sync-max-files", "sync-max-bytes"} {
			if f.isSet != nil && f.isSet(name) {
				return nil, usageErrorf("--%s needs --sync", name)
			}
		}
		return nil, nil
	}
	if err := atLeast("sync-interval", f.interval, time.Second); err != nil {
		return nil, err
	}
	if f.maxFiles < 1 || f.maxBytes < 1 {
		return nil, usageErrorf("--sync-max-files and --sync-max-bytes must be positive")
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
	if strings.Contains(f.repo, "://") {
		if _, err := url.Parse(f.repo); err != nil {
			// url's error repeats the URL, credentials and all.
			return nil, usageErrorf("--sync: the URL does not parse: percent-encode '/', '@' and ':' in its user name or password (%%2F, %%40, %%3A), or leave them out and give the token with --sync-token-file")
		}
	}
	remote, err := source.OpenRemote(f.repo, token)
	if err != nil {
		return nil, usageErrorf("--sync: %v", err)
	}
	s, err := gitsync.New(gitsync.Config{Remote: remote, Ref: f.ref, Dir: dir, Interval: f.interval, Heal: f.heal,
		Limits: gitsync.Limits{MaxFiles: f.maxFiles, MaxBytes: f.maxBytes, MaxBodyBytes: f.maxBody}, Log: logger})
	if err != nil {
		return nil, fail(exitFail, err)
	}
	return s, nil
}

// startSync makes syncer keep srv's store in step with its repository,
// through srv's service; it does nothing for a nil syncer.
func startSync(ctx context.Context, syncer *gitsync.Syncer, srv *server.Server) {
	if syncer != nil {
		syncer.Start(ctx, gitsync.ServiceRegistry{Service: srv.Service()})
	}
}

// stopSync waits for syncer, once its context ended, to release its lease
// (serve.Config.Stopped); it does nothing for a nil syncer.
func stopSync(syncer *gitsync.Syncer) {
	if syncer != nil {
		syncer.Wait()
	}
}
