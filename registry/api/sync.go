package api

import "time"

// SyncStatus is the body of GET /sync/status on a registry whose store is
// kept in step with a git repository (`udtc serve --sync`): every server
// sharing the store answers it, from the store.
type SyncStatus struct {
	// Repository is the followed repository, never with credentials (a
	// URL's user information is removed).
	Repository string `json:"repository"`
	Ref        string `json:"ref"`
	Dir        string `json:"dir"`
	// State is "pending" (no commit checked yet), "synced" (the registry
	// holds the last seen commit), "refused" (the last seen commit has
	// errors or is past the sync's limits; the last applied one stays in
	// force), "drifted" (the registry differs from the applied commit:
	// see Drift), "failed" (fetching or applying failed; retried at the
	// next interval) or "damaged" (the stored status cannot be read, see
	// Error: the sync is stopped until someone repairs it).
	State string `json:"state"`
	// LastSeenCommit is the newest commit of Ref checked.
	LastSeenCommit string `json:"lastSeenCommit,omitempty"`
	// LastAppliedCommit is the commit the registry holds.
	LastAppliedCommit string    `json:"lastAppliedCommit,omitempty"`
	LastAppliedAt     time.Time `json:"lastAppliedAt,omitzero"`
	CheckedAt         time.Time `json:"checkedAt,omitzero"`
	// Namespaces the sync manages: other writers get 409 for them.
	Namespaces []string `json:"namespaces"`
	// Holder is the server that syncs (the holder of the sync lease:
	// host, process id and a random suffix), "" when none does;
	// LeaseRenewedAt is when it last renewed the lease, on its clock.
	Holder         string    `json:"holder,omitempty"`
	LeaseRenewedAt time.Time `json:"leaseRenewedAt,omitzero"`
	// Heal is whether the holder heals drift (--sync-heal).
	Heal bool `json:"heal"`
	// Drift is the last difference found between the registry and the
	// applied commit; with Heal it was healed (State is then "synced").
	Drift *SyncDrift `json:"drift,omitempty"`
	// Refused is set while the last seen commit is refused.
	Refused *SyncRefusal `json:"refused,omitempty"`
	// Error says why the last attempt failed (State "failed", or a heal
	// that failed with State "drifted").
	Error string `json:"error,omitempty"`
}

// SyncRefusal is a commit the sync did not apply, with its diagnostics.
type SyncRefusal struct {
	Commit      string       `json:"commit"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// SyncDrift is what differed between the registry and the applied commit
// when the sync last compared them.
type SyncDrift struct {
	// Commit is the applied commit the registry was compared with.
	Commit     string    `json:"commit"`
	DetectedAt time.Time `json:"detectedAt"`
	// Healed says the sync wrote the commit's registrations back.
	Healed  bool              `json:"healed"`
	Changes []SyncDriftChange `json:"changes"`
}

// SyncDriftChange is one registration that differs from the commit.
type SyncDriftChange struct {
	// Drift is "missing" (in the commit, not in the registry), "modified"
	// (Fields differ) or "unexpected" (in the registry, not in the
	// commit).
	Drift      string   `json:"drift"`
	Kind       Kind     `json:"kind"`
	Namespace  string   `json:"namespace"`
	Type       string   `json:"type,omitempty"`
	APIVersion string   `json:"apiVersion,omitempty"`
	Location   string   `json:"location,omitempty"`
	Fields     []string `json:"fields,omitempty"`
}
