package e2e_test

import (
	"encoding/json"
	"testing"
)

// TestUnchangedPutKeepsETag: a PUT of a registration that stores what is
// stored already (same body, same caller) is not a write: it answers 200
// with the stored ETag and system data. A changed body, another caller or
// a stale If-Match still write, or fail, as before. On each store.
func TestUnchangedPutKeepsETag(t *testing.T) {
	onEachStore(t, func(t *testing.T, _ integrityStore, h httpc) {
		const body = `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"string"}}}}}`
		version := rpPath + "Contoso.Same/resourceTypes/widgets/apiVersions/2025-01-01" + regVersion
		h.must(201, "PUT", rpPath+"Contoso.Same"+regVersion, `{}`)
		h.must(201, "PUT", rpPath+"Contoso.Same/resourceTypes/widgets"+regVersion, `{}`)
		first := h.must(201, "PUT", version, body)
		etag := first.header.Get("ETag")

		// The same body again, in another spacing: nothing changes.
		again := h.must(200, "PUT", version, `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"string"}}}}}`, "If-Match: "+etag)
		if got := again.header.Get("ETag"); got != etag {
			t.Errorf("ETag after an unchanged PUT = %s, want the stored %s", got, etag)
		}
		if a, b := systemData(t, first.body), systemData(t, again.body); a != b {
			t.Errorf("systemData after an unchanged PUT = %v, want the stored %v", b, a)
		}
		// A stale ETag fails even when nothing would change.
		h.must(412, "PUT", version, body, `If-Match: "stale"`)
		h.must(412, "PUT", version, body, "If-None-Match: *")

		// A changed body is a write: a new ETag, and the old one is stale.
		changed := h.must(200, "PUT", version, `{"properties":{"schema":{"type":"object"}}}`, "If-Match: "+etag)
		if changed.header.Get("ETag") == etag {
			t.Errorf("a changed PUT kept the ETag %s", etag)
		}
		h.must(412, "PUT", version, body, "If-Match: "+etag)
	})
}

// systemData is the systemData of a resource body, as text.
func systemData(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		SystemData json.RawMessage `json:"systemData"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.SystemData) == 0 {
		t.Fatalf("no systemData in %s (%v)", body, err)
	}
	return string(r.SystemData)
}
