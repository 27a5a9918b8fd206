package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/api"
)

// radManifest is a manifest as rad's parser reads it (pkg/cli/manifest).
type radManifest struct {
	Namespace string            `yaml:"namespace"`
	Location  map[string]string `yaml:"location"` // name → address; rad takes the first
	Types     map[string]struct {
		Description       string   `yaml:"description"`
		Capabilities      []string `yaml:"capabilities"`
		DefaultAPIVersion string   `yaml:"defaultApiVersion"`
		APIVersions       map[string]struct {
			Schema map[string]any `yaml:"schema"`
		} `yaml:"apiVersions"`
	} `yaml:"types"`
}

// TestPublishTakesOverWhatRadRegistered registers every type of the
// Radius corpus into udtc serve as `rad resource-type create TYPE -f FILE`
// does (pkg/cli/manifest/registermanifest.go: the provider and its global
// location when missing, the type with rad's properties, each API version
// with the base properties merged as rad merges them, the location read
// back and the type added), then publishes the same manifests with udtc:
// the plan changes nothing, and so does publishing them again.
func TestPublishTakesOverWhatRadRegistered(t *testing.T) {
	corpus := goldentest.Corpus(t)
	root, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	rp := root + "/planes/radius/local/providers/System.Resources/resourceProviders/"
	q := "?api-version=" + api.Version
	send := func(method, url string, body any) (int, []byte) {
		t.Helper()
		text := ""
		if body != nil {
			b, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			text = string(b)
		}
		code, answer := httpDo(t, method, url, text)
		if method == "PUT" && code/100 != 2 {
			t.Fatalf("PUT %s = %d %s", url, code, answer)
		}
		return code, []byte(answer)
	}
	types := 0
	err := filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var m radManifest
		if yaml.Unmarshal(data, &m) != nil || m.Namespace == "" {
			return nil
		}
		ns := rp + m.Namespace
		location := map[string]any{"resourceTypes": map[string]any{}}
		for _, address := range m.Location { // the corpus has one location, global
			location["address"] = address
		}
		for name, rt := range m.Types {
			if code, _ := send("GET", ns+q, nil); code == http.StatusNotFound {
				send("PUT", ns+q, map[string]any{"location": "global", "properties": map[string]any{}})
				send("PUT", ns+"/locations/global"+q, map[string]any{"properties": location})
			}
			props := map[string]any{"capabilities": append([]string{}, rt.Capabilities...), "description": rt.Description}
			if rt.DefaultAPIVersion != "" {
				props["defaultApiVersion"] = rt.DefaultAPIVersion
			}
			send("PUT", ns+"/resourceTypes/"+name+q, map[string]any{"properties": props})
			versions := map[string]any{}
			for v, av := range rt.APIVersions {
				send("PUT", ns+"/resourceTypes/"+name+"/apiVersions/"+v+q, map[string]any{"properties": map[string]any{"schema": goldentest.RadMerge(t, av.Schema)}})
				versions[v] = map[string]any{}
			}
			_, b := send("GET", ns+"/locations/global"+q, nil)
			var loc map[string]any
			if err := json.Unmarshal(b, &loc); err != nil {
				t.Fatalf("location %s: %v", b, err)
			}
			lp := loc["properties"].(map[string]any)
			lp["resourceTypes"].(map[string]any)[name] = map[string]any{"apiVersions": versions}
			if a, ok := location["address"]; ok {
				lp["address"] = a
			}
			send("PUT", ns+"/locations/global"+q, loc)
			types++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if types < 10 {
		t.Fatalf("rad registered %d types; the corpus has more", types)
	}
	for _, run := range []string{"taking over", "again"} {
		code, out, stderr := runCLI(t, "publish", "--server", root, filepath.Join(corpus, "resource-types-contrib"), filepath.Join(corpus, "radius-built-in"))
		if code != 0 || !strings.Contains(out, "Plan: 0 to create, 0 to update, 0 to delete") || !strings.Contains(out, "The registry already matches the manifests: 0 writes.") {
			t.Errorf("publish %s = %d\n%s\n%s", run, code, out, stderr)
		}
	}
}

// TestRadAcceptedManifestPublishedAndRun publishes what rad accepts and
// Radius runs (fixtures/radius_rad_accepts: a property without `type`, a
// YAML merge key) to udtc serve under the radius profile; resources are
// then admitted as Radius admits them: any value where there is no type,
// the merged keyword where the merge put it.
func TestRadAcceptedManifestPublishedAndRun(t *testing.T) {
	root, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	fixture := filepath.Join("..", "..", "fixtures", "radius_rad_accepts")
	if code, out, stderr := runCLI(t, "publish", "--profile", "radius", "--server", root, fixture); code != 0 {
		t.Fatalf("publish = %d\n%s\n%s", code, out, stderr)
	}
	put := func(path, body string) (int, string) { return httpDo(t, "PUT", root+path, body) }
	put("/planes/radius/local/resourceGroups/rg?api-version=2023-10-01-preview", `{"location":"global"}`)
	const env = `"environment":"/planes/radius/local/resourceGroups/rg/providers/Radius.Core/environments/dev"`
	cache := "/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/caches/c1?api-version=2025-01-01"
	if code, b := put(cache, `{"properties":{`+env+`,"settings":{"a":[1,"x"]},"tags":[1,"a",null],"limits":{"memory":64,"cpu":8}}}`); code != 201 {
		t.Errorf("a resource Radius admits = %d %s", code, b)
	}
	if code, b := put(cache, `{"properties":{`+env+`,"settings":"any","limits":{"cpu":9}}}`); code != 400 || !strings.Contains(b, "properties.limits.cpu") {
		t.Errorf("cpu above the merged maximum = %d %s", code, b)
	}
}
