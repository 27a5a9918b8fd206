package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/store/postgres/pgtest"
)

// pipelineRecorder is a Dialect.Pipeline through database/sql: it runs the
// statements in one transaction, records each batch's size, and fails the
// statement at failAt (when not negative) to test what a failed batch
// leaves.
type pipelineRecorder struct {
	mu     sync.Mutex
	sizes  []int
	failAt int
}

func (p *pipelineRecorder) run(ctx context.Context, db *sql.DB, query string, args [][]any, scan func(int, Scanner) error) error {
	p.mu.Lock()
	p.sizes = append(p.sizes, len(args))
	p.mu.Unlock()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, a := range args {
		if i == p.failAt {
			return errors.New("injected failure")
		}
		if err := scan(i, tx.QueryRowContext(ctx, query, a...)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

var pg *pgtest.Env

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, &pg))
}

// openHotRow opens a store on a new PostgreSQL database, with one write
// token, which a test holds to keep a batch from starting, and the
// recorder as its pipeline. It seeds one API version.
func openHotRow(t *testing.T, rec *pipelineRecorder) (*Store, registry.ID, registry.Resource) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("pgx", pg.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, db, Dialect{
		Name: "postgres",
		Migrations: []string{
			Schema("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT", `COLLATE "C"`), ProviderIndex,
			ResourceTables("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT", `COLLATE "C"`, "BYTEA"), SyncTables(`COLLATE "C"`),
		},
		DollarParams: true,
		LockRows:     " FOR UPDATE",
		MaxWriters:   1,
		Pipeline:     rec.run,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	version := registry.APIVersionID("local", "Aa.Bb", "widgets", "2024-01-01")
	var first registry.Resource
	for _, id := range []registry.ID{registry.PlaneID("local"), registry.ProviderID("local", "Aa.Bb"), registry.TypeID("local", "Aa.Bb", "widgets"), version} {
		if first, _, err = s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(`{}`)}, Now: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	return s, version, first
}

// queued is how many updates of key wait behind the one running, or -1
// when none runs.
func (s *Store) queued(key registry.ID) int {
	s.hot.mu.Lock()
	defer s.hot.mu.Unlock()
	q, busy := s.hot.rows[key]
	if !busy {
		return -1
	}
	return len(q)
}

type putResult struct {
	res registry.Resource
	err error
}

// putQueued starts the writes in order, each once the one before is
// running or queued, while the test holds the only write token, then
// lets them run and returns their results.
func putQueued(t *testing.T, s *Store, id registry.ID, writes []registry.Write) []putResult {
	t.Helper()
	s.writers <- struct{}{}
	out := make([]putResult, len(writes))
	var wg sync.WaitGroup
	for i, w := range writes {
		wg.Go(func() {
			out[i].res, _, out[i].err = s.Put(context.Background(), w)
		})
		for deadline := time.Now().Add(10 * time.Second); s.queued(id.Key()) != i; {
			if time.Now().After(deadline) {
				t.Fatalf("write %d did not queue: %d queued", i, s.queued(id.Key()))
			}
			time.Sleep(time.Millisecond)
		}
	}
	<-s.writers
	wg.Wait()
	return out
}

func propsWrite(id registry.ID, n int, cond registry.Precondition) registry.Write {
	return registry.Write{
		Resource: registry.Resource{ID: id, Properties: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))},
		If:       cond, Now: time.Now(), Actor: "tester",
	}
}

// TestHotRowUpdatesCoalesce: updates of one row that queue behind a
// running one are answered in arrival order, each with its own outcome
// (its own ETag, or 412 for an If-Match that the updates before it in the
// batch made stale), and only the last is written, with one statement.
func TestHotRowUpdatesCoalesce(t *testing.T) {
	rec := &pipelineRecorder{failAt: -1}
	s, version, first := openHotRow(t, rec)
	writes := []registry.Write{
		propsWrite(version, 0, registry.Precondition{}), // runs alone, the others queue behind it
		propsWrite(version, 1, registry.Precondition{}),
		propsWrite(version, 2, registry.Precondition{IfMatch: []string{first.ETag}}), // stale: write 0 changed the row
		propsWrite(version, 3, registry.Precondition{IfMatch: []string{"*"}}),
		propsWrite(version, 4, registry.Precondition{}),
	}
	out := putQueued(t, s, version, writes)
	if len(rec.sizes) != 0 || s.hot.coalesced != 1 {
		t.Errorf("pipeline batch sizes %v and %d coalesced batches, want none and 1", rec.sizes, s.hot.coalesced)
	}
	checkSequential(t, s, version, out, 2, -1)
}

// TestHotRowCoalesceSeesOtherWriters: a row written by another process
// since this one last wrote it is not coalesced over: the guard on the
// remembered ETag fails, and the update runs in the database.
func TestHotRowCoalesceSeesOtherWriters(t *testing.T) {
	rec := &pipelineRecorder{failAt: -1}
	s, version, _ := openHotRow(t, rec)
	ctx := context.Background()
	if _, _, err := s.Put(ctx, propsWrite(version, 100, registry.Precondition{})); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE resources SET properties = '{"n":"other"}', etag = 'other' WHERE name_key = '2024-01-01'`); err != nil {
		t.Fatal(err)
	}
	stale := propsWrite(version, 0, registry.Precondition{IfMatch: []string{"other"}})
	out, _, err := s.Put(ctx, stale)
	if err != nil {
		t.Fatalf("If-Match the other writer's ETag: %v", err)
	}
	if s.hot.coalesced != 0 || string(out.Properties) != `{"n":0}` {
		t.Errorf("%d coalesced batches, answered %s; want none and the write", s.hot.coalesced, out.Properties)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE resources SET etag = 'other2' WHERE name_key = '2024-01-01'`); err != nil {
		t.Fatal(err)
	}
	out, _, err = s.Put(ctx, propsWrite(version, 1, registry.Precondition{}))
	if err != nil || string(out.Properties) != `{"n":1}` {
		t.Fatalf("a write after another writer's: %s, %v", out.Properties, err)
	}
	got, err := s.Get(ctx, version)
	if err != nil || got.ETag != out.ETag || string(got.Properties) != `{"n":1}` {
		t.Errorf("stored %s %s (%v), want the last write's %s", got.ETag, got.Properties, err, out.ETag)
	}
}

// TestHotRowUpdatesRunAsOneBatch: a batch whose first update changes
// nothing is not coalesced (its answer is the stored row, which this
// process does not keep): it runs in the database as one batch.
func TestHotRowUpdatesRunAsOneBatch(t *testing.T) {
	rec := &pipelineRecorder{failAt: -1}
	s, version, _ := openHotRow(t, rec)
	writes := []registry.Write{
		propsWrite(version, 0, registry.Precondition{}),
		propsWrite(version, 0, registry.Precondition{}), // unchanged
		propsWrite(version, 2, registry.Precondition{}),
		propsWrite(version, 3, registry.Precondition{}),
		propsWrite(version, 4, registry.Precondition{}),
	}
	out := putQueued(t, s, version, writes)
	if want := []int{4}; !slices.Equal(rec.sizes, want) || s.hot.coalesced != 0 {
		t.Errorf("pipeline batch sizes %v, %d coalesced; want %v: one batch of the four queued updates", rec.sizes, s.hot.coalesced, want)
	}
	checkSequential(t, s, version, out, -1, 1)
}

// TestHotRowFailedBatchRunsEachAlone: when a batch fails as a whole,
// nothing of it is written and every update runs again on its own.
func TestHotRowFailedBatchRunsEachAlone(t *testing.T) {
	rec := &pipelineRecorder{failAt: 2}
	s, version, _ := openHotRow(t, rec)
	writes := []registry.Write{
		propsWrite(version, 0, registry.Precondition{}),
		propsWrite(version, 0, registry.Precondition{}), // unchanged: not coalesced
		propsWrite(version, 2, registry.Precondition{}),
		propsWrite(version, 3, registry.Precondition{}),
	}
	out := putQueued(t, s, version, writes)
	if want := []int{3}; !slices.Equal(rec.sizes, want) {
		t.Errorf("pipeline batch sizes %v, want %v", rec.sizes, want)
	}
	checkSequential(t, s, version, out, -1, 1)
}

// checkSequential checks that out are the outcomes of the writes run one
// after another: every write but stale (-1: none) succeeded with its
// properties and an ETag of its own, but for same (-1: none), which
// changed nothing and answered the ETag of the write before it; stale
// failed its precondition; the stored row is the last write's.
func checkSequential(t *testing.T, s *Store, id registry.ID, out []putResult, stale, same int) {
	t.Helper()
	etags := map[string]bool{}
	for i, r := range out {
		if i == stale {
			if !errors.Is(r.err, registry.ErrPrecondition) {
				t.Errorf("write %d: err %v, want ErrPrecondition", i, r.err)
			}
			continue
		}
		if r.err != nil {
			t.Fatalf("write %d: %v", i, r.err)
		}
		if i == same {
			if r.res.ETag != out[i-1].res.ETag || string(r.res.Properties) != string(out[i-1].res.Properties) {
				t.Errorf("write %d, unchanged, answered %s %s, want the row before it %s %s", i, r.res.ETag, r.res.Properties, out[i-1].res.ETag, out[i-1].res.Properties)
			}
			continue
		}
		if want := fmt.Sprintf(`{"n":%d}`, i); string(r.res.Properties) != want {
			t.Errorf("write %d answered properties %s, want %s", i, r.res.Properties, want)
		}
		if etags[r.res.ETag] {
			t.Errorf("write %d: ETag %s answered twice", i, r.res.ETag)
		}
		etags[r.res.ETag] = true
	}
	got, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	last := out[len(out)-1].res
	if got.ETag != last.ETag || string(got.Properties) != string(last.Properties) {
		t.Errorf("stored %s %s, want the last write's %s %s", got.ETag, got.Properties, last.ETag, last.Properties)
	}
}
