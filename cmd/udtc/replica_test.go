package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

const replicaManifest = `namespace: Contoso.Git
types:
  widgets:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string}
`

// replicaInterval is the --sync-interval of the replica test: the lease
// lasts three of them.
const replicaInterval = time.Second

// Three `udtc serve` processes on one PostgreSQL database, two of them
// with --sync of one repository, one without: exactly one syncs; every
// one refuses writes to the synced namespace and serves /sync/status;
// writes spread over the three survive a kill -9 of the syncing one, and
// the other --sync process takes the sync over and applies the next
// commit.
func TestReplicasShareSyncAndFailOver(t *testing.T) {
	dsn := pg.NewDatabase(t) // skips (fails under CI) without PostgreSQL
	store, key := postgresURL(t, dsn), newKeyFile(t)
	repoDir := t.TempDir()
	repo, err := source.Init(repoDir)
	if err != nil {
		t.Fatal(err)
	}
	commitManifest := func(n int, body string) string {
		h, err := repo.CommitCheckedOut(source.CommitOptions{Branch: "main", Dir: "manifests", Files: []source.File{{Path: "git.yaml", Data: []byte(body)}},
			Author: source.Author{Name: "T", Email: "t@example.com"}, Message: fmt.Sprint("change ", n), When: time.Unix(1700000000+int64(n), 0)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	first := commitManifest(1, replicaManifest)
	syncArgs := []string{"--secret-key-file", key, "--sync", repoDir, "--sync-dir", "manifests", "--sync-interval", replicaInterval.String()}
	procs := []*serveProcess{
		startServeProcess(t, store, syncArgs...),
		startServeProcess(t, store, syncArgs...),
		startServeProcess(t, store, "--secret-key-file", key),
	}
	clients := make([]*client.Client, len(procs))
	for i, p := range procs {
		if clients[i], err = client.New(p.url, client.WithRetry(1, 0, 0)); err != nil {
			t.Fatal(err)
		}
	}

	// One of the --sync processes syncs: every process says so.
	st := waitSyncStatus(t, procs[2].url, func(st api.SyncStatus) bool { return st.State == "synced" && st.LastAppliedCommit == first })
	holder := holderIndex(t, procs, st.Holder)
	if holder == 2 {
		t.Fatalf("the process without --sync holds the sync lease: %+v", st)
	}
	standby := 1 - holder
	for i, p := range procs {
		if got := getSyncStatus(t, p.url); got.Holder != st.Holder || got.LastAppliedCommit != first {
			t.Errorf("process %d: /sync/status %+v", i, got)
		}
		_, err := clients[i].PutResourceType(context.Background(), "Contoso.Git", "extra", api.ResourceType{})
		if client.StatusCode(err) != http.StatusConflict || !strings.Contains(err.Error(), repoDir) {
			t.Errorf("process %d: PUT into the synced namespace: %v, want 409 naming the repository", i, err)
		}
	}

	// Writes spread over the three; the holder is killed meanwhile.
	stop := writeSpread(t, clients)
	time.Sleep(3 * replicaInterval / 2)
	procs[holder].kill(t)
	second := commitManifest(2, replicaManifest+"  gadgets:\n    apiVersions:\n      '2025-01-01':\n        schema: {type: object}\n")
	st = waitSyncStatus(t, procs[2].url, func(st api.SyncStatus) bool { return st.LastAppliedCommit == second })
	if holderIndex(t, procs, st.Holder) != standby || st.State != "synced" {
		t.Errorf("after the kill: %+v, want process %d holding the lease", st, standby)
	}
	names := stop()
	if len(names) == 0 {
		t.Fatal("no write was acknowledged")
	}
	survivor := clients[2]
	for _, name := range names {
		if _, err := survivor.GetResourceType(context.Background(), "Replica.Writes", name); err != nil {
			t.Errorf("acknowledged type %s lost: %v", name, err)
		}
	}
	sum, err := survivor.ProviderSummary(context.Background(), "Contoso.Git")
	if err != nil || len(sum.ResourceTypes) != 2 {
		t.Errorf("Contoso.Git after the second commit: %+v, %v", sum.ResourceTypes, err)
	}

	// Each commit was applied by one process: the first by the first
	// holder, the second by the one that took over.
	for _, i := range []int{standby, 2} {
		if err := procs[i].cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		procs[i].cmd.Wait()
	}
	for i, p := range procs {
		log := p.log.String()
		if got, want := applied(log, first), i == holder; got != want {
			t.Errorf("process %d applied the first commit: %v, want %v; log:\n%s", i, got, want, log)
		}
		if got, want := applied(log, second), i == standby; got != want {
			t.Errorf("process %d applied the second commit: %v, want %v; log:\n%s", i, got, want, log)
		}
	}
	t.Logf("%d acknowledged writes over 3 processes, holder %d killed, process %d took over", len(names), holder, standby)
}

// writeSpread PUTs types into Replica.Writes through each client in turn
// until stop is called, which returns the types whose PUT was
// acknowledged. A process that stops answering is left alone.
func writeSpread(t *testing.T, clients []*client.Client) (stop func() []string) {
	t.Helper()
	ctx := context.Background()
	if _, err := clients[0].PutProvider(ctx, "Replica.Writes", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		names []string
		wg    sync.WaitGroup
		done  = make(chan struct{})
	)
	for w, c := range clients {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				name := fmt.Sprintf("w%dt%d", w, i)
				if _, err := c.PutResourceType(ctx, "Replica.Writes", name, api.ResourceType{}); err != nil {
					if client.StatusCode(err) == 0 {
						return // the process is gone
					}
					t.Errorf("PUT %s: %v", name, err)
					return
				}
				mu.Lock()
				names = append(names, name)
				mu.Unlock()
			}
		})
	}
	return func() []string {
		close(done)
		wg.Wait()
		return names
	}
}

// applied reports whether a server's log says it applied commit.
func applied(log, commit string) bool {
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "sync applied a commit") && strings.Contains(line, "commit="+commit) {
			return true
		}
	}
	return false
}

// holderIndex returns the index of the process the lease holder names
// (host/pid/suffix).
func holderIndex(t *testing.T, procs []*serveProcess, holder string) int {
	t.Helper()
	parts := strings.Split(holder, "/")
	if len(parts) != 3 {
		t.Fatalf("holder %q is not host/pid/suffix", holder)
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil {
		t.Fatalf("holder %q: %v", holder, err)
	}
	for i, p := range procs {
		if p.cmd.Process.Pid == pid {
			return i
		}
	}
	t.Fatalf("holder %q is none of the processes", holder)
	return -1
}

func getSyncStatus(t *testing.T, base string) api.SyncStatus {
	t.Helper()
	resp, err := http.Get(base + "/sync/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st api.SyncStatus
	if resp.StatusCode != http.StatusOK {
		return st
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitSyncStatus polls /sync/status at base until ok holds, for at most
// 30 intervals of the sync (the lease lasts 3).
func waitSyncStatus(t *testing.T, base string, ok func(api.SyncStatus) bool) api.SyncStatus {
	t.Helper()
	deadline := time.Now().Add(30 * replicaInterval)
	for {
		st := getSyncStatus(t, base)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("/sync/status did not get there within 30 sync intervals: %+v", st)
		}
		time.Sleep(replicaInterval / 10)
	}
}
