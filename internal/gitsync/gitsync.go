// Package gitsync makes a registry follow a git repository (`udtc serve
// --sync`): on each new commit of a ref it compiles the manifests under a
// directory and, when they have no errors and stay within the sync's
// limits, publishes them like `udtc publish --prune`, namespace by
// namespace, each namespace in one transaction, and prunes the namespaces
// an earlier commit declared and this one does not. A commit with errors
// is refused: the last applied one stays in force. Every interval it also
// compares the registry with the applied commit, reports what drifted and,
// unless told not to, writes the commit back.
//
// Its state is kept in the registry's store (registry.SyncStore): the
// managed namespaces, the last applied commit, the status, and the lease
// that makes one process at a time sync when several servers share the
// store (lease.go). Every server sharing the store refuses writes to the
// managed namespaces and answers /sync/status from it (registry/service),
// whether it syncs or not.
//
// It compiles with the generator and plans with registry/publish, so it
// lives outside registry/. What it needs of the registry is Registry,
// which ServiceRegistry implements with the registry's service, in
// process.
package gitsync

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Config says what a Syncer follows.
type Config struct {
	// Remote is the repository; its String (a URL without credentials)
	// names it in the status, in messages and as the author of the sync's
	// writes.
	Remote *source.Remote
	// Ref is the branch, tag or commit to follow; "" follows the
	// repository's HEAD branch.
	Ref string
	// Dir is the slash-separated directory of the manifests (fs.ValidPath).
	Dir      string
	Interval time.Duration
	// Heal writes the applied commit back when the registry drifted from
	// it; without Heal drift is only reported.
	Heal bool
	// Limits bound the manifests of a commit; a zero field is its default.
	Limits Limits
	// Holder identifies this process in the sync lease; "" is HolderID().
	Holder string
	Log    *slog.Logger
	// Now is time.Now unless set (tests). The lease compares its readings
	// with each other only, never with another process's clock.
	Now func() time.Time
}

// LeaseIntervals is how many intervals the sync lease lasts: another
// server takes the sync over once the holder has not renewed it for that
// long (the holder renews it every interval).
const LeaseIntervals = 3

// Syncer follows a repository. Once and Start's loop are not safe for
// concurrent use: one goroutine syncs.
type Syncer struct {
	cfg   Config
	repo  string // cfg.Remote.String(): never with credentials
	lease leaser
	// applied is the last applied commit as this process compiled it, so
	// comparing the registry with it every interval compiles it once.
	applied *compiled
	// stopped is closed when Start's loop ended.
	stopped chan struct{}
}

// compiled is a commit's registrations.
type compiled struct {
	commit string
	regs   []api.Registration
}

// New returns the Syncer of cfg. Nothing is read or written until Once.
func New(cfg Config) (*Syncer, error) {
	if cfg.Remote == nil {
		return nil, errors.New("gitsync: no repository")
	}
	if cfg.Interval <= 0 {
		return nil, errors.New("gitsync: the interval must be positive")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Holder == "" {
		cfg.Holder = HolderID()
	}
	cfg.Limits = cfg.Limits.orDefaults()
	return &Syncer{cfg: cfg, repo: cfg.Remote.String(), stopped: make(chan struct{}),
		lease: leaser{holder: cfg.Holder, ttl: LeaseIntervals * cfg.Interval, now: cfg.Now, log: cfg.Log, repo: cfg.Remote.String()}}, nil
}

// Holder identifies this process in the sync lease.
func (s *Syncer) Holder() string { return s.cfg.Holder }

// Start syncs once, so a started server that holds the lease already
// holds the repository's state, then every interval until ctx is done,
// into reg; then it releases the lease, so another server takes the sync
// over at its next interval.
func (s *Syncer) Start(ctx context.Context, reg Registry) {
	s.Once(ctx, reg)
	go s.run(ctx, reg)
}

// Wait waits until the loop Start started ended (its context ended and
// the lease was released).
func (s *Syncer) Wait() { <-s.stopped }

// run syncs every interval until ctx is done.
func (s *Syncer) run(ctx context.Context, reg Registry) {
	defer close(s.stopped)
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			s.Release(rctx, reg)
			cancel()
			return
		case <-t.C:
			s.Once(ctx, reg)
		}
	}
}

// Once takes or renews the sync lease and, holding it, looks at the newest
// commit of the ref: it applies a new commit without errors, and compares
// the registry with the applied one. It never returns an error: the
// outcome is in the stored status (and the log). Without the lease it
// does nothing but watch the holder's.
func (s *Syncer) Once(ctx context.Context, reg Registry) {
	rec, held, err := s.lease.acquire(ctx, reg, s.pending())
	if errors.Is(err, errDamaged) {
		s.cfg.Log.Error("sync refused", "repository", s.repo, "err", err)
		return
	}
	if err != nil {
		s.cfg.Log.Error("sync lease", "repository", s.repo, "err", err)
		return
	}
	if !held {
		return
	}
	st, err := s.check(ctx, reg, rec)
	if err == nil {
		err = reg.CommitSync(ctx, syncCommit(s.lease.held, "", nil, nil, nil, &st))
	}
	switch {
	case errors.Is(err, registry.ErrNotHolder):
		s.lease.lost("")
	case err != nil:
		s.cfg.Log.Error("sync could not record its status", "repository", s.repo, "err", err)
	}
}

// Release gives the sync lease up, if this process holds it, so another
// server takes the sync over at its next interval instead of after the
// lease's TTL. Start's loop releases it when its context ends.
func (s *Syncer) Release(ctx context.Context, reg Registry) { s.lease.release(ctx, reg) }

// pending is the status of a sync that checked nothing yet.
func (s *Syncer) pending() api.SyncStatus {
	return api.SyncStatus{Repository: s.repo, Ref: s.cfg.Ref, Dir: s.cfg.Dir, State: "pending", Heal: s.cfg.Heal}
}

// check syncs under the lease and returns the status to record. Its
// error is the lease lost (registry.ErrNotHolder): nothing more may be
// written.
func (s *Syncer) check(ctx context.Context, reg Registry, rec registry.SyncRecord) (api.SyncStatus, error) {
	st := rec.Status
	if st.Repository != s.repo || st.Dir != s.cfg.Dir {
		// Another repository or directory than the store followed: its
		// namespaces no longer declared are pruned as those of a commit.
		s.cfg.Log.Warn("sync follows another repository than the store did", "was", st.Repository, "dir", st.Dir, "now", s.repo, "nowDir", s.cfg.Dir)
		st.LastAppliedCommit, st.LastAppliedAt, st.Refused, st.Drift = "", time.Time{}, nil, nil
		s.applied = nil
	}
	st.Repository, st.Dir, st.Heal, st.Error, st.CheckedAt = s.repo, s.cfg.Dir, s.cfg.Heal, "", s.cfg.Now().UTC()
	snap, ref, err := s.resolve(ctx)
	if err != nil {
		st.State, st.Error = "failed", err.Error()
		s.cfg.Log.Error("sync failed", "repository", s.repo, "err", err)
		return st, nil
	}
	commit := snap.Hash()
	st.Ref, st.LastSeenCommit = ref, commit
	if st.Refused != nil && st.Refused.Commit != commit {
		st.Refused = nil // a newer commit replaces the refused one
	}
	if commit != st.LastAppliedCommit && st.Refused == nil {
		regs, refusal := s.compile(ctx, snap)
		if refusal == nil {
			return s.applyCommit(ctx, reg, rec, st, commit, regs)
		}
		st.Refused = refusal
		s.cfg.Log.Warn("sync refused a commit", "repository", s.repo, "commit", commit, "errors", len(refusal.Diagnostics))
	}
	return s.compare(ctx, reg, rec, st)
}

// applyCommit applies commit's registrations and returns the status.
func (s *Syncer) applyCommit(ctx context.Context, reg Registry, rec registry.SyncRecord, st api.SyncStatus, commit string, regs []api.Registration) (api.SyncStatus, error) {
	res, err := s.reconcile(ctx, reg, regs, rec.Status.Namespaces, true)
	if errors.Is(err, registry.ErrNotHolder) {
		return st, err
	}
	if err != nil {
		// Retried at the next interval: LastAppliedCommit is unchanged.
		st.State, st.Error = "failed", err.Error()
		s.cfg.Log.Error("sync failed", "repository", s.repo, "commit", commit, "err", err)
		return st, nil
	}
	s.applied = &compiled{commit: commit, regs: regs}
	st.LastAppliedCommit, st.LastAppliedAt = commit, s.cfg.Now().UTC()
	st.State, st.Refused, st.Drift = "synced", nil, nil
	s.cfg.Log.Info("sync applied a commit", "repository", s.repo, "commit", commit, "writes", res.writes, "pruned", res.pruned)
	return st, nil
}

// resolve fetches the repository and returns the ref's commit and the ref
// (the HEAD branch when Config.Ref is "").
func (s *Syncer) resolve(ctx context.Context) (*source.Snapshot, string, error) {
	if err := s.cfg.Remote.Fetch(ctx); err != nil {
		return nil, "", err
	}
	ref := s.cfg.Ref
	if ref == "" {
		b, err := s.cfg.Remote.DefaultBranch()
		if err != nil {
			return nil, "", err
		}
		ref = b
	}
	snap, err := s.cfg.Remote.Resolve(ref)
	return snap, ref, err
}

// Actor is the author (systemData.lastModifiedBy) of the writes of a sync
// of repository, as the sync names it (without credentials).
func Actor(repository string) string { return "git-sync " + repository }

// lowerSet returns the lower-cased members of names.
func lowerSet(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[strings.ToLower(n)] = true
	}
	return out
}
