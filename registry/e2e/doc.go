// Package e2e holds the registry's end-to-end tests: two servers racing on
// one PostgreSQL database (no orphans may survive), and a server process
// killed with SIGKILL during a write load (every acknowledged write must
// survive and the SQLite file must pass its integrity check). It has no
// non-test code.
package e2e
