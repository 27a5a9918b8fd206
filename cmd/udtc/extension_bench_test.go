package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/extension"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// benchExt is the server of BenchmarkServeBicepArchive, registered once
// per process: go test -count runs the benchmark again, and registering
// the catalog takes longer than a build.
var benchExt struct {
	once sync.Once
	srv  *server.Server
}

// benchExtensionServer returns udtc serve's handler, the Bicep extension
// wired in, over the reference catalog (1,000 types x 2 versions x 10
// namespaces) registered in a new SQLite file (in TestMain's temporary
// cache directory, removed when the tests end).
func benchExtensionServer(b *testing.B) *server.Server {
	b.Helper()
	benchExt.once.Do(func() { benchExt.srv = newBenchExtensionServer(b) })
	if benchExt.srv == nil {
		b.Fatal("the benchmark's server did not start")
	}
	return benchExt.srv
}

func newBenchExtensionServer(b *testing.B) *server.Server {
	cat := goldentest.Synthetic(b, synth.Reference)
	dir, err := os.MkdirTemp(os.Getenv("XDG_CACHE_HOME"), "bench-extension-")
	if err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "r.db"))
	if err != nil {
		b.Fatal(err)
	}
	sealer, err := secrets.New(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		b.Fatal(err)
	}
	srv, err := server.New(context.Background(), server.Options{Store: st, Secrets: sealer, BicepExtension: bridge.BicepExtension})
	if err != nil {
		b.Fatal(err)
	}
	put := func(path string, v any) {
		body, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		benchSend(b, srv, path, body)
	}
	for _, reg := range registration.Registrations(cat, registration.Options{}) {
		rp := "/planes/radius/local/providers/System.Resources/resourceProviders/" + reg.Namespace
		put(rp, reg.Provider)
		for _, t := range reg.Types {
			tp := rp + "/resourceTypes/" + api.EscapeTypeName(t.Type.Name)
			put(tp, t.Type)
			for _, v := range t.APIVersions {
				put(tp+"/apiVersions/"+v.Name, v)
			}
		}
	}
	return srv
}

// BenchmarkServeBicepArchive: archives per second of the whole reference
// catalog as one extension (GET /bicep/all.tgz?namespace=*), cold (each
// archive built from the stored registrations: compile, emit, tar) and
// warm (served from the cache at the same store generation).
func BenchmarkServeBicepArchive(b *testing.B) {
	srv := benchExtensionServer(b)
	get := func(b *testing.B) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/bicep/all.tgz?namespace=*", nil))
		if rec.Code != 200 || rec.Body.Len() == 0 {
			b.Fatalf("GET = %d %s", rec.Code, rec.Body.String())
		}
	}
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			c := extension.NewCache(srv.Service(), server.DefaultPlane, bridge.BicepExtension)
			if _, err := c.Get(context.Background(), extension.Request{Namespaces: []string{extension.All}, Name: "all"}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "archives/s")
	})
	b.Run("warm", func(b *testing.B) {
		get(b)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			get(b)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "archives/s")
	})
}
