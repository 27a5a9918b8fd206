package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/udtc/udtc/bench/harness"
)

// hugeSchemas measures the server's memory when refusing huge schemas:
// eight concurrent PUTs of a ~3 MB schema with 300,000 undeclared required
// names each. Before the errors of one answer were bounded, each answer
// was 36 MB and the server needed about 2 GB; the test of the bounded
// answer (cmd/udtc TestServeHugeSchemaErrorsAreBounded) asserts what the
// client gets, this the memory it costs.
func (b *bench) hugeSchemas(ctx context.Context) {
	const requests, names = 8, 300_000
	rssT := b.target(fmt.Sprintf("`udtc serve`: peak memory refusing %d concurrent ~3 MB schemas with %s errors each", requests, num(names)), 600, "MB", false)
	if why := b.available("serve"); why != "" {
		rssT.Why = why
		return
	}
	srv, err := b.startServer(ctx, filepath.Join(b.work, "huge-schemas"))
	if err != nil {
		rssT.Why = err.Error()
		return
	}
	defer srv.stop()
	client := &http.Client{Timeout: 5 * time.Minute}
	rp := srv.rpURL("Contoso.Schemas")
	for _, u := range []string{q(srv.url + "/planes/radius/local"), q(rp), q(rp + "/resourceTypes/things")} {
		_ = harness.Call(ctx, client, http.MethodPut, u, []byte(`{}`))
	}
	var body strings.Builder
	body.WriteString(`{"properties":{"schema":{"type":"object","properties":{"a":{"type":"string"}},"required":[`)
	for i := range names {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `"req%d"`, i)
	}
	body.WriteString("]}}}")
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for i := range requests {
		wg.Go(func() {
			u := q(fmt.Sprintf("%s/resourceTypes/things/apiVersions/2025-01-%02d", rp, i+1))
			if err := harness.Call(ctx, client, http.MethodPut, u, []byte(body.String()), http.StatusBadRequest); err != nil {
				mu.Lock()
				first = err
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if first != nil {
		rssT.Why = firstLine(first.Error())
		return
	}
	rssT.Value, rssT.Have = float64(srv.stop())/1e6, true
}
