package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// startServerProcess runs this test binary as a registry server on db and
// returns its client and process.
func startServerProcess(t *testing.T, db string) (*client.Client, *exec.Cmd) {
	t.Helper()
	base, cmd := startServerProcessURL(t, db)
	c, err := client.New(base, client.WithRetry(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return c, cmd
}

// startServerProcessURL runs this test binary as a registry server on db
// and returns its base URL and process.
func startServerProcessURL(t *testing.T, db string) (string, *exec.Cmd) {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServeDB+"="+db, envServeAddr+"="+addrFile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(addrFile); err == nil {
			return "http://" + string(b), cmd
		}
		select {
		case <-exited:
			t.Fatal("server process exited before listening")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("server process did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestKillDuringWritesLosesNoAcknowledgedWrite kills the server with
// SIGKILL under a write load, restarts it on the same SQLite file, and
// checks every acknowledged write and the database's integrity.
func TestKillDuringWritesLosesNoAcknowledgedWrite(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "registry.db")
	c, cmd := startServerProcess(t, db)
	if _, err := c.PutProvider(ctx, "Crash.Test", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}

	type ack struct{ typ, description string }
	var (
		mu    sync.Mutex
		acked []ack
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	const writers = 4
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				typ := fmt.Sprintf("w%dt%d", w, i)
				desc := fmt.Sprintf("writer %d write %d", w, i)
				_, err := c.PutResourceType(ctx, "Crash.Test", typ, api.ResourceType{Properties: api.ResourceTypeProperties{Description: desc}})
				if err != nil {
					return // the server is gone
				}
				if _, err := c.PutAPIVersion(ctx, "Crash.Test", typ, "2024-01-01", api.APIVersion{}); err != nil {
					mu.Lock()
					acked = append(acked, ack{typ, desc})
					mu.Unlock()
					return
				}
				mu.Lock()
				acked = append(acked, ack{typ, desc}, ack{typ + "@2024-01-01", ""})
				mu.Unlock()
			}
		}()
	}
	// Kill once a fair number of writes is acknowledged (or after 3s).
	deadline := time.Now().Add(3 * time.Second)
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 100 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("no write was acknowledged before the kill")
	}

	c2, cmd2 := startServerProcess(t, db)
	for _, a := range acked {
		if typ, ver, ok := cutVersion(a.typ); ok {
			if _, err := c2.GetAPIVersion(ctx, "Crash.Test", typ, ver); err != nil {
				t.Errorf("acknowledged API version %s of %s lost: %v", ver, typ, err)
			}
			continue
		}
		got, err := c2.GetResourceType(ctx, "Crash.Test", a.typ)
		if err != nil {
			t.Errorf("acknowledged type %s lost: %v", a.typ, err)
			continue
		}
		if got.Properties.Description != a.description {
			t.Errorf("type %s description = %q, want %q", a.typ, got.Properties.Description, a.description)
		}
	}
	t.Logf("%d acknowledged writes survived the kill", len(acked))
	cmd2.Process.Kill()

	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	if n, err := st.OrphanCount(ctx); err != nil || n != 0 {
		t.Errorf("OrphanCount = %d, %v", n, err)
	}
}

func cutVersion(s string) (typ, version string, ok bool) { return strings.Cut(s, "@") }

// TestKillDuringResourceWritesLosesNoAcknowledgedWrite is the crash test
// for resources of user-defined types: writers create parents and children
// (admitted against a schema) until SIGKILL; after a restart on the same
// SQLite file every acknowledged write is there with its properties, and
// the database has no orphan.
func TestKillDuringResourceWritesLosesNoAcknowledgedWrite(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "registry.db")
	base, cmd := startServerProcessURL(t, db)
	h := httpc{t, base}
	h.must(201, "PUT", rpPath+"Crash.Test"+regVersion, `{}`)
	for _, typ := range []string{"parents", "parents_children"} {
		h.must(201, "PUT", rpPath+"Crash.Test/resourceTypes/"+typ+regVersion, `{}`)
		h.must(201, "PUT", rpPath+"Crash.Test/resourceTypes/"+typ+"/apiVersions/2025-01-01"+regVersion,
			`{"properties":{"schema":{"type":"object","properties":{"n":{"type":"integer"},"writer":{"type":"string","default":"w"},"secret":{"type":"string","x-radius-sensitive":true}},"required":["n"]}}}`)
	}
	h.must(201, "PUT", rpPath+"Crash.Test/locations/global"+regVersion,
		`{"properties":{"resourceTypes":{"parents":{"apiVersions":{"2025-01-01":{}}},"parents/children":{"apiVersions":{"2025-01-01":{}}}}}}`)
	h.must(201, "PUT", "/planes/radius/local/resourceGroups/rg"+regVersion, `{}`)

	const v = "?api-version=2025-01-01"
	parents := "/planes/radius/local/resourceGroups/rg/providers/Crash.Test/parents/"
	var (
		mu    sync.Mutex
		acked = map[string]int{} // path → n
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	const writers = 4
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path := fmt.Sprintf("%sw%dp%d", parents, w, i)
				if i%2 == 1 { // every other write is a child of the previous parent
					path = fmt.Sprintf("%sw%dp%d/children/c", parents, w, i-1)
				}
				if tryPut(base+path+v, fmt.Sprintf(`{"properties":{"n":%d,"secret":"s%d"}}`, i, i)) != 201 {
					return // the server is gone
				}
				mu.Lock()
				acked[path] = i
				mu.Unlock()
			}
		}()
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 100 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("no write was acknowledged before the kill")
	}

	base2, cmd2 := startServerProcessURL(t, db)
	h2 := httpc{t, base2}
	for path, n := range acked {
		r := h2.do("GET", path+v, "")
		if r.status != 200 {
			t.Errorf("acknowledged resource %s lost: %d %s", path, r.status, r.body)
			continue
		}
		if p := properties(t, r.body); p["n"] != float64(n) || p["writer"] != "w" || p["secret"] != nil {
			t.Errorf("resource %s properties = %v, want n %d with its default and secret null", path, p, n)
		}
		// The sealed secret survived too, and the restarted server (same
		// key) opens it.
		if r := h2.do("POST", path+"/listSecrets"+v, ""); r.status != 200 || string(bytes.TrimSpace(r.body)) != fmt.Sprintf(`{"secret":"s%d"}`, n) {
			t.Errorf("listSecrets of %s = %d %s, want s%d", path, r.status, r.body, n)
		}
	}
	t.Logf("%d acknowledged resource writes survived the kill", len(acked))
	cmd2.Process.Kill()

	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	if n, err := st.InstanceOrphanCount(ctx); err != nil || n != 0 {
		t.Errorf("InstanceOrphanCount = %d, %v", n, err)
	}
}

// tryPut sends a PUT and returns its status, 0 when the server is gone.
func tryPut(url, body string) int {
	req, err := http.NewRequest("PUT", url, strings.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
