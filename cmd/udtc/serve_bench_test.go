package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// benchRegistry returns `udtc serve`'s handler (the schema checker wired in)
// over a new SQLite file, with one provider and one type registered, and
// the body of a realistic API version PUT: the first schema of the
// synthetic catalog (about 7 KB), as publish sends it.
func benchRegistry(b *testing.B) (http.Handler, string, []byte) {
	b.Helper()
	cat := goldentest.Synthetic(b, synth.Options{Types: 10, Versions: 1, Namespaces: 1, Seed: 1})
	regs := registration.Registrations(cat, registration.Options{Location: registration.DefaultLocation})
	body, err := json.Marshal(regs[0].Types[0].APIVersions[0])
	if err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "r.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	sealer, err := secrets.New(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		b.Fatal(err)
	}
	patterns := bridge.NewPatterns()
	srv, err := server.New(context.Background(), server.Options{Store: st, Secrets: sealer, CheckSchema: bridge.CheckSchema(patterns), CompareSchemas: bridge.CompareSchemas(patterns)})
	if err != nil {
		b.Fatal(err)
	}
	rp := "/planes/radius/local/providers/System.Resources/resourceProviders/Bench.Provider"
	benchSend(b, srv, rp, []byte(`{"location":"global","properties":{}}`))
	benchSend(b, srv, rp+"/resourceTypes/widgets", []byte(`{"properties":{"description":"Benchmark widgets."}}`))
	return srv, rp + "/resourceTypes/widgets/apiVersions/", body
}

// processCPU returns the CPU time (user and system) this process has used,
// a steadier measure than wall time on a shared machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchSend(b *testing.B, h http.Handler, path string, body []byte) {
	req := httptest.NewRequest("PUT", path+"?api-version="+api.Version, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code/100 != 2 {
		b.Errorf("PUT %s = %d %s", path, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
}

// BenchmarkServePutAPIVersion creates API versions with a realistic
// schema from 8 goroutines (the harness's "PUT API version with schema"
// without the network): schema check, decoding, SQLite with group commit,
// the response.
func BenchmarkServePutAPIVersion(b *testing.B) {
	h, base, body := benchRegistry(b)
	var n atomic.Int64
	day := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	b.SetParallelism(4) // 8 goroutines on 2 CPUs
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	defer func() { b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op") }()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			benchSend(b, h, base+day.AddDate(0, 0, int(i)).Format(time.DateOnly), body)
		}
	})
}

// BenchmarkServeCheckSchema is the schema check alone, on the body of
// BenchmarkServePutAPIVersion: the part of a PUT that must run every time.
func BenchmarkServeCheckSchema(b *testing.B) {
	_, _, body := benchRegistry(b)
	var v api.APIVersion
	if err := json.Unmarshal(body, &v); err != nil {
		b.Fatal(err)
	}
	checkSchema := bridge.CheckSchema(bridge.NewPatterns())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		checkSchema(v.Properties.Schema)
	}
}
