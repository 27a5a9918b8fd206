// Package sqlite is the registry store on a SQLite file (modernc.org/sqlite,
// pure Go): WAL journal, synchronous commits, foreign keys on, writers
// serialised with BEGIN IMMEDIATE.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/store/internal/sqlstore"
)

// Store is a registry.Store on a SQLite file.
type Store struct {
	*sqlstore.Store
}

var _ registry.Store = (*Store)(nil)

var dialect = sqlstore.Dialect{
	Name: "sqlite",
	Migrations: []string{
		sqlstore.Schema("INTEGER PRIMARY KEY", "INTEGER", ""),
		sqlstore.ProviderIndex,
		sqlstore.ResourceTables("INTEGER PRIMARY KEY", "INTEGER", "", "BLOB"),
		sqlstore.SyncTables(""),
	},
	SerializeWrites: true,
	// data_version changes on a connection when another connection, of
	// this process or another, commits a write.
	GenerationQuery:         `PRAGMA data_version`,
	GenerationPerConnection: true,
	IsForeignKeyViolation:   func(err error) bool { return code(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY },
	IsUniqueViolation: func(err error) bool {
		c := code(err)
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	},
	// "database is locked" (SQLITE_BUSY and its extended codes), after
	// busyTimeout: another connection, of this process or another, holds
	// the write lock.
	IsBusy: func(err error) bool { return code(err)&0xff == sqlite3.SQLITE_BUSY },
}

// busyTimeout is how long a connection waits for a lock another holds
// (PRAGMA busy_timeout) before the write fails with registry.ErrBusy.
const busyTimeout = "10000" // milliseconds

func code(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

// Open opens (creating when absent, with its directory) the database file at
// path and applies pending migrations.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: empty database path")
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("sqlite: database path %q must not contain '?' or '#'", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
	}
	dsn := path + "?_pragma=busy_timeout(" + busyTimeout + ")&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	// Keep them all: a new connection costs its pragmas and a new
	// preparation of every cached statement (database/sql keeps 2 idle
	// by default).
	db.SetMaxIdleConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	s, err := sqlstore.Open(ctx, db, dialect)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{s}, nil
}

// IntegrityCheck runs PRAGMA integrity_check and PRAGMA foreign_key_check
// and returns an error describing any problem.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.DB().QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("sqlite: integrity_check: %w", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: integrity_check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	fk, err := s.DB().QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("sqlite: foreign_key_check: %w", err)
	}
	defer fk.Close()
	for fk.Next() {
		problems = append(problems, "foreign key violation")
	}
	if len(problems) > 0 {
		return fmt.Errorf("sqlite: integrity check failed: %s", strings.Join(problems, "; "))
	}
	return nil
}
