package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/udtc/udtc/registry/api"
)

// attackPage is a web page of another origin that tries to write to the
// registry at the URL it is given: the requests fetch() sends without
// asking first (no-cors POSTs to the batch endpoint, whose writes include
// a DELETE: a Blob body has no Content-Type, a string one is text/plain),
// and those it must ask for (DELETE, a JSON PUT). It
// answers what each fetch did.
const attackPage = `<!doctype html><title>elsewhere</title><script>
window.attack = async (registry, batch) => {
  const rp = registry + "/planes/radius/local/providers/System.Resources/resourceProviders";
  const v = "?api-version=` + api.Version + `";
  const tries = [
    [registry + "/planes/radius/local/providers/System.Resources/batch" + v, {method: "POST", mode: "no-cors", body: new Blob([batch])}],
    [registry + "/planes/radius/local/providers/System.Resources/batch" + v, {method: "POST", mode: "no-cors", body: batch}],
    [registry + "/planes/radius/local/providers/System.Resources/batch" + v, {method: "POST", mode: "no-cors", headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: batch}],
    [rp + "/Contoso.Keep" + v + "&force=true", {method: "DELETE"}],
    [rp + "/Evil.Put" + v, {method: "PUT", headers: {"Content-Type": "application/json"}, body: "{}"}],
  ];
  const out = [];
  for (const [url, init] of tries) {
    try { const r = await fetch(url, init); out.push(init.method + " " + r.type + " " + r.status); }
    catch (e) { out.push(init.method + " failed: " + e.message); }
  }
  return out;
};
</script>`

// A web page can write nothing to a registry without a token: neither one
// of another origin (another port of 127.0.0.1) nor one whose name its DNS
// points at 127.0.0.1 (DNS rebinding, played by Chromium's host resolver
// rules). The registry is unchanged afterwards.
func TestBrowserPagesCannotWriteTheRegistry(t *testing.T) {
	ctx := browser(t, func(any) {}, chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"))
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	rp := url + "/planes/radius/local/providers/System.Resources/resourceProviders"
	v := "?api-version=" + api.Version
	if code, body := put(t, url, "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Keep", `{"location":"global","properties":{}}`); code != 201 {
		t.Fatalf("PUT Contoso.Keep = %d %s", code, body)
	}
	batch := `{"requests":[{"method":"PUT","path":"/planes/radius/local/providers/System.Resources/resourceProviders/Evil.Batch","body":{}},` +
		`{"method":"DELETE","path":"/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Keep?force=true"}]}`

	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, attackPage)
	}))
	defer elsewhere.Close()
	browse(t, ctx, chromedp.Navigate(elsewhere.URL+"/"))
	got := eval[[]string](t, ctx, fmt.Sprintf("attack(%q, %q)", url, batch), chromedp.EvalAwaitPromise)
	t.Logf("another origin: %q", got)
	if len(got) != 5 {
		t.Fatalf("the page answered %q", got)
	}
	unchanged := func(after string) {
		t.Helper()
		for name, want := range map[string]int{"Contoso.Keep": 200, "Evil.Batch": 404, "Evil.Put": 404} {
			if code, body := httpGet(t, rp+"/"+name+v); code != want {
				t.Errorf("after %s: GET %s = %d %s, want %d", after, name, code, body, want)
			}
		}
	}
	unchanged("a page of another origin")

	// DNS rebinding: the page's own origin is the registry's address
	// under another name, so the browser lets it read the answers.
	port := url[strings.LastIndex(url, ":")+1:]
	rebound := "http://rebind.test:" + port
	browse(t, ctx, chromedp.Navigate(rebound+"/healthz")) // JSON, without the catalog pages' CSP
	status := eval[[]int](t, ctx, fmt.Sprintf(`Promise.all([
		fetch("/planes/radius/local/providers/System.Resources/batch%[1]s", {method: "POST", headers: {"Content-Type": "application/json"}, body: %[2]q}),
		fetch("/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Keep%[1]s&force=true", {method: "DELETE"}),
		fetch("/planes/radius/local/providers/System.Resources/resourceProviders%[1]s"),
	]).then(rs => rs.map(r => r.status))`, v, batch), chromedp.EvalAwaitPromise)
	if len(status) != 3 || status[0] != 403 || status[1] != 403 || status[2] != 403 {
		t.Errorf("a page at %s got %v for its batch, DELETE and GET, want 403 each", rebound, status)
	}

	unchanged("a page at " + rebound)
}
