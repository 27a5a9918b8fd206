package gitsync

import (
	"context"
	"errors"
	"slices"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/publish"
)

// Drift: every interval the holder plans the applied commit against the
// registry, as it plans a new commit. A plan that writes anything means
// the registry no longer holds the commit (a write that slipped past the
// guard, a restore from a backup, a manual change in the database): the
// differences are recorded (api.SyncDrift) and, with Config.Heal, the plan
// is applied, in one transaction a namespace, as a new commit would be.

// compare compares the registry with the applied commit, heals it with
// Config.Heal, and returns the status.
func (s *Syncer) compare(ctx context.Context, reg Registry, rec registry.SyncRecord, st api.SyncStatus) (api.SyncStatus, error) {
	st.State = "synced"
	if st.Refused != nil {
		st.State = "refused"
	}
	if st.LastAppliedCommit == "" {
		if st.Refused == nil {
			st.State = "pending"
		}
		return st, nil // nothing applied: nothing to compare with
	}
	regs, err := s.appliedRegs(ctx, st.LastAppliedCommit)
	if err != nil {
		// The applied commit is gone from the repository (a force push):
		// the next commit applied replaces it.
		s.cfg.Log.Warn("sync cannot compare the registry with the applied commit", "repository", s.repo, "commit", st.LastAppliedCommit, "err", err)
		return st, nil
	}
	res, err := s.reconcile(ctx, reg, regs, rec.Status.Namespaces, s.cfg.Heal)
	if errors.Is(err, registry.ErrNotHolder) {
		return st, err
	}
	changes := driftChanges(res.changes)
	prev := rec.Status.Drift
	switch {
	case len(changes) == 0 && err == nil:
		if prev == nil || !prev.Healed {
			st.Drift = nil // what drifted came back by itself
		}
		return st, nil
	case len(changes) == 0:
		st.State, st.Error = "failed", err.Error()
		return st, nil
	}
	st.Drift = &api.SyncDrift{Commit: st.LastAppliedCommit, DetectedAt: s.cfg.Now().UTC(), Healed: s.cfg.Heal && err == nil, Changes: changes}
	if prev != nil && !prev.Healed && prev.Commit == st.Drift.Commit && slices.EqualFunc(prev.Changes, changes, sameChange) {
		st.Drift.DetectedAt = prev.DetectedAt // the same drift as before: found then
	} else {
		s.cfg.Log.Warn("sync found drift from the applied commit", "repository", s.repo, "commit", st.LastAppliedCommit, "changes", len(changes), "heal", s.cfg.Heal)
	}
	switch {
	case err != nil:
		st.Error = "healing the drift failed: " + err.Error()
		s.cfg.Log.Error("sync could not heal drift", "repository", s.repo, "err", err)
	case s.cfg.Heal:
		s.cfg.Log.Info("sync healed drift", "repository", s.repo, "commit", st.LastAppliedCommit, "writes", res.writes)
		return st, nil
	}
	if st.Refused == nil {
		st.State = "drifted"
	}
	return st, nil
}

// appliedRegs returns the registrations of the applied commit, compiling
// it when this process has not (after a restart or a takeover).
func (s *Syncer) appliedRegs(ctx context.Context, commit string) ([]api.Registration, error) {
	if s.applied != nil && s.applied.commit == commit {
		return s.applied.regs, nil
	}
	snap, err := s.cfg.Remote.Resolve(commit)
	if err != nil {
		return nil, err
	}
	regs, refusal := s.compile(ctx, snap)
	if refusal != nil {
		return nil, refusalError(refusal)
	}
	s.applied = &compiled{commit: commit, regs: regs}
	return regs, nil
}

// driftChanges are the writes of plans as drift: what the registry lacks,
// holds differently or holds besides the commit.
func driftChanges(plan []publish.Change) []api.SyncDriftChange {
	out := make([]api.SyncDriftChange, 0, len(plan))
	for _, c := range plan {
		d := api.SyncDriftChange{Kind: c.Kind, Namespace: c.Namespace, Type: c.Type, APIVersion: c.Version, Location: c.Location}
		switch c.Action {
		case publish.Create:
			d.Drift = "missing"
		case publish.Update:
			d.Drift = "modified"
			for _, f := range c.Diff {
				d.Fields = append(d.Fields, f.Field)
			}
		default:
			d.Drift = "unexpected"
		}
		out = append(out, d)
	}
	return out
}

func sameChange(a, b api.SyncDriftChange) bool {
	return a.Drift == b.Drift && a.Kind == b.Kind && a.Namespace == b.Namespace && a.Type == b.Type &&
		a.APIVersion == b.APIVersion && a.Location == b.Location && slices.Equal(a.Fields, b.Fields)
}
