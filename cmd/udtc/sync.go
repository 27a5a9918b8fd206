package main

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
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
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
func (f *syncFlags) newSyncer(logger *slog.Logger) (*syncer, error) {
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
		p, err := defaultStorePath()
		if err != nil {
			return nil, usageErrorf("--sync: give --sync-state, since %v", err)
		}
		sum := sha256.Sum256([]byte(f.repo + "\x00" + f.ref + "\x00" + dir))
		state = filepath.Join(filepath.Dir(p), "sync-"+hex.EncodeToString(sum[:6])+".json")
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fail(exitFail, err)
	}
	s := &syncer{
		remote: remote, repoName: f.repo, ref: f.ref, dir: dir, interval: f.interval,
		statePath: state, secret: hex.EncodeToString(secret), log: logger, now: time.Now,
		status: api.SyncStatus{Repository: f.repo, Ref: f.ref, Dir: dir, State: "pending", Namespaces: []string{}},
	}
	if err := s.loadState(); err != nil {
		return nil, fail(exitFail, err)
	}
	return s, nil
}

// syncHeader carries the syncer's per-process secret on its own writes, so
// the guard lets them through (server.Sync.IsSyncWriter).
const syncHeader = "Udtc-Sync-Secret"

// syncer makes the registry follow a git repository: on each new commit of
// ref it compiles the manifests under dir and, when they have no errors,
// publishes them like `publish --prune` namespace by namespace, reusing the
// publish planner, and prunes the namespaces an earlier commit declared and
// this one does not; each namespace is one transaction of the server's
// store (server.Server.ApplyRegistrations), so a failed write leaves it as
// it was. A commit with errors is refused: the last applied one
// stays in force. It implements server.Sync.
type syncer struct {
	remote    *source.Remote
	repoName  string
	ref, dir  string
	interval  time.Duration
	statePath string
	secret    string
	log       *slog.Logger
	now       func() time.Time
	reg       *client.Client
	// transport sends the syncer's requests; nil means http.DefaultTransport.
	transport http.RoundTripper
	// applyWrites applies one namespace's writes in one transaction
	// (server.Server.ApplyRegistrations).
	applyWrites func(ctx context.Context, actor string, writes []server.RegistrationWrite) error

	mu      sync.Mutex
	status  api.SyncStatus
	managed map[string]string // lower-cased namespace → namespace
	refused string            // the commit last refused
}

// syncState is what survives a restart (the --sync-state file).
type syncState struct {
	Repository        string    `json:"repository"`
	Ref               string    `json:"ref"`
	Dir               string    `json:"dir"`
	LastAppliedCommit string    `json:"lastAppliedCommit"`
	LastAppliedAt     time.Time `json:"lastAppliedAt"`
	Namespaces        []string  `json:"namespaces"`
}

func (s *syncer) loadState() error {
	s.managed = map[string]string{}
	b, err := os.ReadFile(s.statePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the sync state: %w", err)
	}
	var st syncState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("the sync state %s is damaged (%v): remove it to sync from scratch", s.statePath, err)
	}
	if st.Repository != s.repoName || st.Dir != s.dir {
		return fmt.Errorf("the sync state %s belongs to %s (dir %s): give another --sync-state", s.statePath, st.Repository, st.Dir)
	}
	s.status.LastAppliedCommit, s.status.LastAppliedAt = st.LastAppliedCommit, st.LastAppliedAt
	for _, ns := range st.Namespaces {
		s.managed[strings.ToLower(ns)] = ns
	}
	s.status.Namespaces = s.namespaces()
	return nil
}

func (s *syncer) saveState() error {
	st := syncState{Repository: s.repoName, Ref: s.ref, Dir: s.dir, LastAppliedCommit: s.status.LastAppliedCommit,
		LastAppliedAt: s.status.LastAppliedAt, Namespaces: s.namespaces()}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(s.statePath, append(b, '\n'), 0o644)
}

func (s *syncer) namespaces() []string {
	out := make([]string, 0, len(s.managed))
	for _, ns := range s.managed {
		out = append(out, ns)
	}
	slices.Sort(out)
	return out
}

// Repository implements server.Sync.
func (s *syncer) Repository() string { return s.repoName }

// Manages implements server.Sync.
func (s *syncer) Manages(namespace string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.managed[strings.ToLower(namespace)]
	return ok
}

// IsSyncWriter implements server.Sync.
func (s *syncer) IsSyncWriter(r *http.Request) bool {
	got := r.Header.Get(syncHeader)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.secret)) == 1
}

// Status implements server.Sync.
func (s *syncer) Status() api.SyncStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.status
	st.Namespaces = slices.Clone(st.Namespaces)
	return st
}

// connect makes the client the syncer writes through: the registry at
// baseURL, with its token and the syncer's secret header.
func (s *syncer) connect(baseURL, token string) error {
	next := s.transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc := &http.Client{Transport: secretTransport{header: s.secret, next: next}}
	opts := []client.Option{client.WithHTTPClient(hc)}
	if token != "" {
		opts = append(opts, client.WithToken(token))
	}
	reg, err := client.New(baseURL, opts...)
	if err != nil {
		return err
	}
	s.reg = reg
	return nil
}

type secretTransport struct {
	header string
	next   http.RoundTripper
}

func (t secretTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(syncHeader, t.header)
	return t.next.RoundTrip(r)
}

// run syncs every interval until ctx is done.
func (s *syncer) run(ctx context.Context) {
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.once(ctx)
		}
	}
}

// once looks at the newest commit of ref and applies it when it is new and
// has no errors. It never returns an error: the outcome is in Status.
func (s *syncer) once(ctx context.Context) {
	commit, err := s.step(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status.CheckedAt = s.now().UTC()
	if err != nil {
		s.status.State, s.status.Error = "failed", err.Error()
		s.log.Error("sync failed", "repository", s.repoName, "commit", commit, "err", err)
		return
	}
	s.status.Error = ""
}

func (s *syncer) step(ctx context.Context) (string, error) {
	if err := s.remote.Fetch(ctx); err != nil {
		return "", err
	}
	ref := s.ref
	if ref == "" {
		b, err := s.remote.DefaultBranch()
		if err != nil {
			return "", err
		}
		ref = b
	}
	snap, err := s.remote.Resolve(ref)
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
		s.setState("synced", nil)
		return commit, nil
	}
	if refused {
		return commit, nil // still refused: its diagnostics stay in Status
	}

	cat, diags, err := generator.CompileFS(ctx, snap.FS(), []string{s.dir}, generator.Options{})
	if err != nil || diags.HasErrors() {
		var out []api.Diagnostic
		if err != nil {
			// The directory is missing at this commit, or unreadable: a
			// refusal, not a failure to retry.
			out = append(out, api.Diagnostic{File: s.dir, Severity: "error", Rule: "sync-dir", Message: err.Error()})
		}
		for _, d := range diags {
			if d.Severity == diag.Error {
				out = append(out, apiDiagnostic(d))
			}
		}
		s.mu.Lock()
		s.refused = commit
		s.status.State = "refused"
		s.status.Refused = &api.SyncRefusal{Commit: commit, Diagnostics: out}
		s.mu.Unlock()
		s.log.Warn("sync refused a commit with errors", "repository", s.repoName, "commit", commit, "errors", len(out))
		return commit, nil
	}

	regs := registration.Registrations(cat, registration.Options{})
	declared := map[string]string{}
	for _, w := range regs {
		declared[strings.ToLower(w.Namespace)] = w.Namespace
	}
	// Managed from now on: the namespaces of this commit and the earlier
	// ones, until the pruned ones are gone.
	s.mu.Lock()
	for k, ns := range declared {
		s.managed[k] = ns
	}
	var gone []string
	for k, ns := range s.managed {
		if _, ok := declared[k]; !ok {
			gone = append(gone, ns)
		}
	}
	s.status.Namespaces = s.namespaces()
	s.mu.Unlock()
	slices.Sort(gone)

	var errs []error
	writes := 0
	for _, w := range regs {
		n, err := s.apply(ctx, w)
		writes += n
		errs = append(errs, err)
	}
	for _, ns := range gone {
		n, err := s.prune(ctx, ns)
		writes += n
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return commit, err // retried at the next interval: LastAppliedCommit is unchanged
	}
	s.mu.Lock()
	for _, ns := range gone {
		delete(s.managed, strings.ToLower(ns))
	}
	s.status.LastAppliedCommit, s.status.LastAppliedAt = commit, s.now().UTC()
	s.status.Namespaces = s.namespaces()
	s.status.State, s.status.Refused, s.refused = "synced", nil, ""
	err = s.saveState()
	s.mu.Unlock()
	s.log.Info("sync applied a commit", "repository", s.repoName, "commit", commit, "writes", writes, "pruned", gone)
	if err != nil {
		return commit, fmt.Errorf("applied, but saving the sync state failed: %w", err)
	}
	return commit, nil
}

func (s *syncer) setState(state string, refused *api.SyncRefusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status.State, s.status.Refused = state, refused
}

// apply publishes one namespace like `publish --prune`, in one
// transaction: the plan is made with the publish planner over HTTP, and
// its writes are applied by the server's store all at once, so a write
// that fails leaves the namespace as it was.
func (s *syncer) apply(ctx context.Context, w api.Registration) (int, error) {
	plan, err := publish.MakePlan(ctx, s.reg, []api.Registration{w}, publish.Options{Prune: true})
	if err != nil {
		return 0, err
	}
	return s.applyPlan(ctx, w.Namespace, plan, false)
}

// prune removes a namespace no longer declared, in one transaction: its
// types, API versions and locations (the planner's prune of an empty
// registration), then the provider itself.
func (s *syncer) prune(ctx context.Context, ns string) (int, error) {
	if _, err := s.reg.ProviderSummary(ctx, ns); client.IsNotFound(err) {
		return 0, nil
	}
	plan, err := publish.MakePlan(ctx, s.reg, []api.Registration{{Namespace: ns}}, publish.Options{Prune: true})
	if err != nil {
		return 0, err
	}
	return s.applyPlan(ctx, ns, plan, true)
}

// applyPlan applies the plan's writes (and, with dropProvider, the delete
// of the provider ns) through the server in one transaction.
func (s *syncer) applyPlan(ctx context.Context, ns string, plan *publish.Plan, dropProvider bool) (int, error) {
	rec := &recorder{Client: s.reg, plane: api.DefaultPlane}
	// One write at a time, in plan order (parents before children).
	res := publish.Apply(ctx, rec, plan, publish.ApplyOptions{Concurrency: 1})
	var errs []error
	for _, f := range res.Failed {
		errs = append(errs, fmt.Errorf("%s %s: %w", f.Change.Action, f.Change.Name(), f.Err))
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	if dropProvider {
		rec.writes = append(rec.writes, server.RegistrationWrite{ID: registry.ProviderID(rec.plane, ns)})
	}
	if len(rec.writes) == 0 {
		return 0, nil
	}
	if err := s.applyWrites(ctx, "git-sync "+s.repoName, rec.writes); err != nil {
		return 0, fmt.Errorf("namespace %s (nothing of it applied): %w", ns, err)
	}
	return len(rec.writes), nil
}

// recorder is the publish.Registry that publish.Apply writes to: it
// records the writes, for one transaction, instead of sending them. Reads
// go to the embedded client.
type recorder struct {
	*client.Client
	plane  string
	mu     sync.Mutex
	writes []server.RegistrationWrite
}

func (r *recorder) add(id registry.ID, body any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, server.RegistrationWrite{ID: id, Body: body})
}

func (r *recorder) PutProvider(_ context.Context, ns string, body api.ResourceProvider, _ ...client.Condition) (api.ResourceProvider, error) {
	r.add(registry.ProviderID(r.plane, ns), body)
	return body, nil
}

func (r *recorder) PutResourceType(_ context.Context, ns, typ string, body api.ResourceType, _ ...client.Condition) (api.ResourceType, error) {
	r.add(registry.TypeID(r.plane, ns, typ), body)
	return body, nil
}

func (r *recorder) PutAPIVersion(_ context.Context, ns, typ, version string, body api.APIVersion, _ ...client.Condition) (api.APIVersion, error) {
	r.add(registry.APIVersionID(r.plane, ns, typ, version), body)
	return body, nil
}

func (r *recorder) PutLocation(_ context.Context, ns, location string, body api.Location, _ ...client.Condition) (api.Location, error) {
	r.add(registry.LocationID(r.plane, ns, location), body)
	return body, nil
}

func (r *recorder) DeleteResourceType(_ context.Context, ns, typ string, _ ...client.Condition) (bool, error) {
	r.add(registry.TypeID(r.plane, ns, typ), nil)
	return true, nil
}

func (r *recorder) DeleteAPIVersion(_ context.Context, ns, typ, version string, _ ...client.Condition) (bool, error) {
	r.add(registry.APIVersionID(r.plane, ns, typ, version), nil)
	return true, nil
}

func (r *recorder) DeleteLocation(_ context.Context, ns, location string, _ ...client.Condition) (bool, error) {
	r.add(registry.LocationID(r.plane, ns, location), nil)
	return true, nil
}

// start connects to the registry at baseURL (for reads) and to srv (for
// the transactional writes), syncs once (so a started server already holds
// the repository's state) and then every interval until ctx is done. It
// does nothing for a nil syncer.
func (s *syncer) start(ctx context.Context, srv *server.Server, baseURL, token string) error {
	if s == nil {
		return nil
	}
	s.applyWrites = srv.ApplyRegistrations
	if err := s.connect(baseURL, token); err != nil {
		return err
	}
	s.once(ctx)
	go s.run(ctx)
	return nil
}

// asServerSync is s as the server's Sync, or nil (not a nil *syncer).
func (s *syncer) asServerSync() server.Sync {
	if s == nil {
		return nil
	}
	return s
}
