// Package e2e holds the registry's end-to-end tests: two servers racing on
// one PostgreSQL database (no orphans may survive), and a server process
// killed with SIGKILL during a write load (every acknowledged write must
// survive and the SQLite file must pass its integrity check); for the
// resources of user-defined types, the fixtures' types registered through
// the registration API and driven through the real handler on SQLite and
// PostgreSQL, parent and group deletes racing child creates on both stores,
// integers stored and returned in plain integer form on both stores, and
// the same crash test under resource writes. It has no non-test code.
package e2e
