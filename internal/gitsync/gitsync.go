// Package gitsync makes a registry follow a git repository (`udtc serve
// --sync`): on each new commit of a ref it compiles the manifests under a
// directory and, when they have no errors, publishes them like `udtc
// publish --prune`, namespace by namespace, each namespace in one
// transaction, and prunes the namespaces an earlier commit declared and
// this one does not. A commit with errors is refused: the last applied one
// stays in force. The last applied commit and the namespaces it manages
// survive a restart in a state file.
//
// It compiles with the generator and plans with registry/publish, so it
// lives outside registry/. What it needs of the registry is Registry; the
// server guards the namespaces it manages through server.Sync, which a
// Syncer implements.
package gitsync

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/registry/api"
)

// Config says what a Syncer follows.
type Config struct {
	// Remote is the repository; Repository names it as the user gave it
	// (in the status, in errors and in the state file).
	Remote     *source.Remote
	Repository string
	// Ref is the branch, tag or commit to follow; "" follows the
	// repository's HEAD branch.
	Ref string
	// Dir is the slash-separated directory of the manifests (fs.ValidPath).
	Dir      string
	Interval time.Duration
	// StatePath is the state file (StateFileName names the default one).
	StatePath string
	Log       *slog.Logger
	// Now is time.Now unless set (tests).
	Now func() time.Time
}

// Syncer follows a repository; it implements server.Sync. Its methods are
// safe for concurrent use.
type Syncer struct {
	cfg    Config
	secret string

	mu      sync.Mutex
	status  api.SyncStatus
	managed map[string]string // lower-cased namespace → namespace
	refused string            // the commit last refused
}

// New returns the Syncer of cfg, resuming from its state file when there
// is one. A damaged state file, or one of another repository or
// directory, is an error.
func New(cfg Config) (*Syncer, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	s := &Syncer{cfg: cfg, secret: hex.EncodeToString(secret),
		status: api.SyncStatus{Repository: cfg.Repository, Ref: cfg.Ref, Dir: cfg.Dir, State: "pending", Namespaces: []string{}}}
	if err := s.loadState(); err != nil {
		return nil, err
	}
	return s, nil
}

// StateFileName is the base name of the default state file of a sync of
// repository at ref and dir: one per repository, ref and directory.
func StateFileName(repository, ref, dir string) string {
	sum := sha256.Sum256([]byte(repository + "\x00" + ref + "\x00" + dir))
	return "sync-" + hex.EncodeToString(sum[:6]) + ".json"
}

// state is what survives a restart (the state file).
type state struct {
	Repository        string    `json:"repository"`
	Ref               string    `json:"ref"`
	Dir               string    `json:"dir"`
	LastAppliedCommit string    `json:"lastAppliedCommit"`
	LastAppliedAt     time.Time `json:"lastAppliedAt"`
	Namespaces        []string  `json:"namespaces"`
}

func (s *Syncer) loadState() error {
	s.managed = map[string]string{}
	b, err := os.ReadFile(s.cfg.StatePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the sync state: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("the sync state %s is damaged (%v): remove it to sync from scratch", s.cfg.StatePath, err)
	}
	if st.Repository != s.cfg.Repository || st.Dir != s.cfg.Dir {
		return fmt.Errorf("the sync state %s belongs to %s (dir %s): give another --sync-state", s.cfg.StatePath, st.Repository, st.Dir)
	}
	s.status.LastAppliedCommit, s.status.LastAppliedAt = st.LastAppliedCommit, st.LastAppliedAt
	for _, ns := range st.Namespaces {
		s.managed[strings.ToLower(ns)] = ns
	}
	s.status.Namespaces = s.namespaces()
	return nil
}

func (s *Syncer) saveState() error {
	st := state{Repository: s.cfg.Repository, Ref: s.cfg.Ref, Dir: s.cfg.Dir, LastAppliedCommit: s.status.LastAppliedCommit,
		LastAppliedAt: s.status.LastAppliedAt, Namespaces: s.namespaces()}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(s.cfg.StatePath, append(b, '\n'), 0o644)
}

func (s *Syncer) namespaces() []string {
	out := make([]string, 0, len(s.managed))
	for _, ns := range s.managed {
		out = append(out, ns)
	}
	slices.Sort(out)
	return out
}

// Repository implements server.Sync.
func (s *Syncer) Repository() string { return s.cfg.Repository }

// Manages implements server.Sync.
func (s *Syncer) Manages(namespace string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.managed[strings.ToLower(namespace)]
	return ok
}

// secretHeader carries the syncer's per-process secret on its own
// requests (Transport), so the guard lets them through (IsSyncWriter).
const secretHeader = "Udtc-Sync-Secret"

// IsSyncWriter implements server.Sync: r carries the syncer's secret.
func (s *Syncer) IsSyncWriter(r *http.Request) bool {
	got := r.Header.Get(secretHeader)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.secret)) == 1
}

// Transport sends requests through next (http.DefaultTransport when nil)
// with the syncer's secret, for a client of the server it syncs.
func (s *Syncer) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return secretTransport{header: s.secret, next: next}
}

type secretTransport struct {
	header string
	next   http.RoundTripper
}

func (t secretTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(secretHeader, t.header)
	return t.next.RoundTrip(r)
}

// Status implements server.Sync.
func (s *Syncer) Status() api.SyncStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.status
	st.Namespaces = slices.Clone(st.Namespaces)
	return st
}

// Start syncs once, so a started server already holds the repository's
// state, then every interval until ctx is done, into reg.
func (s *Syncer) Start(ctx context.Context, reg Registry) {
	s.Once(ctx, reg)
	go s.run(ctx, reg)
}

// run syncs every interval until ctx is done.
func (s *Syncer) run(ctx context.Context, reg Registry) {
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Once(ctx, reg)
		}
	}
}

// Once looks at the newest commit of the ref and applies it to reg when it
// is new and has no errors. It never returns an error: the outcome is in
// Status.
func (s *Syncer) Once(ctx context.Context, reg Registry) {
	commit, err := s.step(ctx, reg)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status.CheckedAt = s.cfg.Now().UTC()
	if err != nil {
		s.status.State, s.status.Error = "failed", err.Error()
		s.cfg.Log.Error("sync failed", "repository", s.cfg.Repository, "commit", commit, "err", err)
		return
	}
	s.status.Error = ""
}

func (s *Syncer) step(ctx context.Context, reg Registry) (string, error) {
	snap, ref, err := s.resolve(ctx)
	if err != nil {
		return "", err
	}
	commit := snap.Hash()
	s.mu.Lock()
	s.status.Ref, s.status.LastSeenCommit = ref, commit
	same := commit == s.status.LastAppliedCommit
	refused := commit == s.refused
	s.mu.Unlock()
	if same {
		s.setState("synced")
		return commit, nil
	}
	if refused {
		return commit, nil // still refused: its diagnostics stay in Status
	}
	cat, diags, err := generator.CompileFS(ctx, snap.FS(), []string{s.cfg.Dir}, generator.Options{})
	if err != nil || diags.HasErrors() {
		s.refuse(commit, err, diags)
		return commit, nil
	}
	regs := registration.Registrations(cat, registration.Options{})
	gone := s.manage(regs)
	writes, err := s.applyAll(ctx, reg, regs, gone)
	if err != nil {
		return commit, err // retried at the next interval: LastAppliedCommit is unchanged
	}
	return commit, s.applied(commit, gone, writes)
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

// refuse records commit as refused, with the error diagnostics of its
// compile (err: the directory is missing at this commit, or unreadable; a
// refusal, not a failure to retry).
func (s *Syncer) refuse(commit string, err error, diags diag.List) {
	var out []api.Diagnostic
	if err != nil {
		out = append(out, api.Diagnostic{File: s.cfg.Dir, Severity: "error", Rule: "sync-dir", Message: err.Error()})
	}
	for _, d := range diags {
		if d.Severity == diag.Error {
			out = append(out, registration.Diagnostic(d))
		}
	}
	s.mu.Lock()
	s.refused = commit
	s.status.State = "refused"
	s.status.Refused = &api.SyncRefusal{Commit: commit, Diagnostics: out}
	s.mu.Unlock()
	s.cfg.Log.Warn("sync refused a commit with errors", "repository", s.cfg.Repository, "commit", commit, "errors", len(out))
}

// manage adds the namespaces of regs to the managed ones: managed from now
// on are the namespaces of this commit and the earlier ones, until the
// pruned ones are gone. It returns those no longer declared, sorted.
func (s *Syncer) manage(regs []api.Registration) (gone []string) {
	declared := map[string]string{}
	for _, w := range regs {
		declared[strings.ToLower(w.Namespace)] = w.Namespace
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, ns := range declared {
		s.managed[k] = ns
	}
	for k, ns := range s.managed {
		if _, ok := declared[k]; !ok {
			gone = append(gone, ns)
		}
	}
	s.status.Namespaces = s.namespaces()
	slices.Sort(gone)
	return gone
}

// applied records commit as applied, with gone pruned, in Status and in
// the state file.
func (s *Syncer) applied(commit string, gone []string, writes int) error {
	s.mu.Lock()
	for _, ns := range gone {
		delete(s.managed, strings.ToLower(ns))
	}
	s.status.LastAppliedCommit, s.status.LastAppliedAt = commit, s.cfg.Now().UTC()
	s.status.Namespaces = s.namespaces()
	s.status.State, s.status.Refused, s.refused = "synced", nil, ""
	err := s.saveState()
	s.mu.Unlock()
	s.cfg.Log.Info("sync applied a commit", "repository", s.cfg.Repository, "commit", commit, "writes", writes, "pruned", gone)
	if err != nil {
		return fmt.Errorf("applied, but saving the sync state failed: %w", err)
	}
	return nil
}

func (s *Syncer) setState(state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status.State, s.status.Refused = state, nil
}
