// Package postgres is the registry store on PostgreSQL (github.com/jackc/pgx/v5).
// Several registry processes may share one database: the nested lifecycle
// is enforced by foreign keys with cascading deletes, so a provider deleted
// by one process while another adds a type under it can never leave an
// orphan; the losing write gets registry.ErrParentNotFound.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // also the "pgx" database/sql driver

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/store/internal/sqlstore"
)

// Store is a registry.Store on PostgreSQL.
type Store struct {
	*sqlstore.Store
}

var _ registry.Store = (*Store)(nil)

func pgCode(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Migrations returns the number of schema migrations this version applies.
func Migrations() int { return len(dialect.Migrations) }

var dialect = sqlstore.Dialect{
	Name: "postgres",
	Migrations: []string{
		sqlstore.Schema("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT", `COLLATE "C"`),
		sqlstore.ProviderIndex,
		sqlstore.ResourceTables("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT", `COLLATE "C"`, "BYTEA"),
		sqlstore.SyncTables(`COLLATE "C"`),
	},
	DollarParams: true,
	// The current snapshot (xmin:xmax:in-progress xids) decides which
	// transactions a read sees: equal snapshots see the same commits, and
	// a commit by any session changes it. It also changes for writes to
	// other databases of the cluster, which only costs cache misses.
	GenerationQuery: `SELECT pg_current_snapshot()::text`,
	LockRows:        " FOR UPDATE",
	MaxWriters:      MaxWriters,
	LockMigrations:  `SELECT pg_advisory_xact_lock(74430001)`,
	Pipeline:        pipeline,
	IsForeignKeyViolation: func(err error) bool {
		return pgCode(err) == "23503"
	},
	// 55P03 lock_not_available: lock_timeout; 57014 query_canceled:
	// statement_timeout.
	IsBusy: func(err error) bool {
		c := pgCode(err)
		return c == "55P03" || c == "57014"
	},
	// Transaction-local (SET LOCAL) bounds of the sync's transactions.
	SyncTimeouts: `SELECT set_config('lock_timeout', ?, true), set_config('statement_timeout', ?, true), set_config('idle_in_transaction_session_timeout', ?, true)`,
	IsUniqueViolation: func(err error) bool {
		// 40001 serialization failure and 40P01 deadlock: retryable, like a
		// concurrent create.
		c := pgCode(err)
		return c == "23505" || c == "40001" || c == "40P01"
	},
}

// The connections of one process: at most MaxWriters hold a write
// transaction, the rest serve reads. Three replicas stay under
// PostgreSQL's default max_connections (100).
const (
	maxConns   = 24
	MaxWriters = 8
)

// Open connects to the database at dsn (a libpq keyword string or a
// postgres:// URL) and applies pending migrations. Concurrent Opens on one
// database apply them once.
func Open(ctx context.Context, dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	// Every connection is a PostgreSQL backend process: keep them open
	// (database/sql keeps 2 idle by default, and opening a backend per
	// request was the tail of every load), and leave room for reads
	// beside the bounded writers.
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	s, err := sqlstore.Open(ctx, db, dialect)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{s}, nil
}

// pipeline is the dialect's Pipeline: one pgx batch, which PostgreSQL runs
// as one implicit transaction (a statement that fails rolls back all of
// them) and answers in one round trip.
func pipeline(ctx context.Context, db *sql.DB, query string, args [][]any, scan func(int, sqlstore.Scanner) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres: a %T is not a pgx connection", dc)
		}
		var b pgx.Batch
		for _, a := range args {
			b.Queue(query, a...)
		}
		br := c.Conn().SendBatch(ctx, &b)
		for i := range args {
			if err := scan(i, br.QueryRow()); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
}
