package api

import "time"

// SyncStatus is the body of GET /sync/status on a registry that follows a
// git repository (`udtc serve --sync`).
type SyncStatus struct {
	Repository string `json:"repository"`
	Ref        string `json:"ref"`
	Dir        string `json:"dir"`
	// State is "pending" (no commit checked yet), "synced" (the last seen
	// commit is applied), "refused" (the last seen commit has errors; the
	// last applied one stays in force) or "failed" (fetching or applying
	// failed; retried at the next interval).
	State string `json:"state"`
	// LastSeenCommit is the newest commit of Ref checked.
	LastSeenCommit string `json:"lastSeenCommit,omitempty"`
	// LastAppliedCommit is the commit the registry holds.
	LastAppliedCommit string    `json:"lastAppliedCommit,omitempty"`
	LastAppliedAt     time.Time `json:"lastAppliedAt,omitzero"`
	CheckedAt         time.Time `json:"checkedAt,omitzero"`
	// Namespaces the sync manages: other writers get 409 for them.
	Namespaces []string `json:"namespaces"`
	// Refused is set while the last seen commit is refused.
	Refused *SyncRefusal `json:"refused,omitempty"`
	// Error says why the last attempt failed (State "failed").
	Error string `json:"error,omitempty"`
}

// SyncRefusal is a commit the sync did not apply, with its diagnostics.
type SyncRefusal struct {
	Commit      string       `json:"commit"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}
