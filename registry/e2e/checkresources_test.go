package e2e_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// TestCheckResources is the dry-run admission of stored resources against
// a candidate schema (POST .../apiVersions/{v}/checkResources), on both
// stores: for each kind of breaking change (enum, required, pattern,
// maximum, minimum, type) exactly the resources that violate it are
// refused, with admission's reasons; secrets count as their writer holds
// them; resources of another API version are not judged; pages chain by
// nextLink; nothing is written.
func TestCheckResources(t *testing.T) {
	onEachStore(t, func(t *testing.T, _ integrityStore, h httpc) {
		const (
			ns    = rpPath + "Contoso.Data"
			typ   = ns + "/resourceTypes/postgresDatabases"
			ver   = typ + "/apiVersions/2025-01-01"
			check = ver + "/checkResources" + regVersion
			rg    = "/planes/radius/local/resourceGroups/rg"
			dbs   = rg + "/providers/Contoso.Data/postgresDatabases/"
		)
		props := map[string]string{
			"size":     `{"type":"string","enum":["S","M","L","XL"]}`,
			"name":     `{"type":"string","pattern":"^[a-z0-9-]+$"}`,
			"replicas": `{"type":"integer","minimum":1,"maximum":10}`,
			"tier":     `{"type":"string"}`,
			"owner":    `{"type":"string"}`,
			"password": `{"type":"string","x-radius-sensitive":true}`,
		}
		schema := func(change map[string]string, required ...string) string {
			var parts []string
			for _, k := range []string{"size", "name", "replicas", "tier", "owner", "password"} {
				v := props[k]
				if c, ok := change[k]; ok {
					v = c
				}
				parts = append(parts, `"`+k+`":`+v)
			}
			req, _ := json.Marshal(append([]string{"password"}, required...))
			return `{"properties":{"schema":{"type":"object","properties":{` + strings.Join(parts, ",") + `},"required":` + string(req) + `}}}`
		}
		h.must(201, "PUT", ns+regVersion, `{}`)
		h.must(201, "PUT", typ+regVersion, `{}`)
		h.must(201, "PUT", ver+regVersion, schema(nil))
		h.must(201, "PUT", typ+"/apiVersions/2025-09-01"+regVersion, schema(nil))
		h.must(201, "PUT", ns+"/locations/global"+regVersion, `{"properties":{"resourceTypes":{"postgresDatabases":{"apiVersions":{"2025-01-01":{},"2025-09-01":{}}}}}}`)
		h.must(201, "PUT", rg+regVersion, `{"location":"global"}`)
		resources := map[string]string{
			"a": `{"size":"XL","name":"abc","replicas":2,"password":"p"}`,
			"b": `{"size":"S","name":"db-1","replicas":8,"owner":"ann","password":"p"}`,
			"c": `{"size":"M","replicas":1,"tier":"gold","owner":"bob","password":"p"}`,
			"d": `{"size":"L","password":"p"}`,
		}
		for name, p := range resources {
			h.must(201, "PUT", dbs+name+"?api-version=2025-01-01", `{"properties":`+p+`}`)
		}
		// Of another API version: never judged by a check of 2025-01-01.
		h.must(201, "PUT", dbs+"z?api-version=2025-09-01", `{"properties":{"size":"XL","password":"p"}}`)
		before := h.must(200, "GET", dbs+"b?api-version=2025-01-01", "")

		refused := func(t *testing.T, body string) (ids []string, reasons []string, checked int, raw string) {
			t.Helper()
			var c api.ResourceCheck
			r := h.must(200, "POST", check, body)
			if err := json.Unmarshal(r.body, &c); err != nil {
				t.Fatal(err)
			}
			for _, r := range c.Refused {
				ids = append(ids, r.ID[strings.LastIndex(r.ID, "/")+1:])
				for _, d := range r.Details {
					reasons = append(reasons, d.Target+" "+d.Code)
				}
			}
			slices.Sort(ids)
			return ids, reasons, c.Checked, string(r.body)
		}
		for _, tc := range []struct {
			name     string
			body     string
			want     []string
			reason   string
			notValue string // a stored value no reason may echo
		}{
			{"unchanged", schema(nil), nil, "", ""},
			{"enum value removed", schema(map[string]string{"size": `{"type":"string","enum":["S","M","L"]}`}), []string{"a"}, "properties.size InvalidEnum", ""},
			{"required property added", schema(nil, "owner"), []string{"a", "d"}, "properties.owner MissingProperty", ""},
			{"pattern tightened", schema(map[string]string{"name": `{"type":"string","pattern":"^[a-z]+$"}`}), []string{"b"}, "properties.name PatternMismatch", "db-1"},
			{"maximum decreased", schema(map[string]string{"replicas": `{"type":"integer","minimum":1,"maximum":5}`}), []string{"b"}, "properties.replicas OutOfRange", ""},
			{"minimum increased", schema(map[string]string{"replicas": `{"type":"integer","minimum":2,"maximum":10}`}), []string{"c"}, "properties.replicas OutOfRange", ""},
			{"type changed", schema(map[string]string{"tier": `{"type":"integer"}`}), []string{"c"}, "properties.tier InvalidType", "gold"},
			{"sensitive value constrained", schema(map[string]string{"password": `{"type":"string","x-radius-sensitive":true,"minLength":2}`}), []string{"a", "b", "c", "d"}, "properties.password InvalidLength", "p"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ids, reasons, checked, raw := refused(t, tc.body)
				if tc.notValue != "" && strings.Contains(raw, `"`+tc.notValue+`"`) {
					t.Errorf("the answer echoes the stored value %q: %s", tc.notValue, raw)
				}
				if checked != 4 {
					t.Errorf("checked %d resources, want the 4 of 2025-01-01", checked)
				}
				if !slices.Equal(ids, tc.want) {
					t.Errorf("refused %v, want %v", ids, tc.want)
				}
				if tc.reason != "" && !slices.Contains(reasons, tc.reason) {
					t.Errorf("reasons %v lack %q", reasons, tc.reason)
				}
			})
		}

		// Pages: one resource a page, chained by nextLink, POSTed the same
		// body.
		body := schema(map[string]string{"size": `{"type":"string","enum":["S"]}`})
		var ids []string
		checked, pages := 0, 0
		for next := check + "&$top=1"; next != ""; pages++ {
			var c api.ResourceCheck
			if err := json.Unmarshal(h.must(200, "POST", strings.TrimPrefix(next, h.base), body).body, &c); err != nil {
				t.Fatal(err)
			}
			checked += c.Checked
			for _, r := range c.Refused {
				ids = append(ids, r.ID[strings.LastIndex(r.ID, "/")+1:])
			}
			next = c.NextLink
			if pages > 10 {
				t.Fatal("no end of pages")
			}
		}
		if checked != 4 || !slices.Equal(ids, []string{"a", "c", "d"}) || pages < 4 {
			t.Errorf("paged: checked %d in %d pages, refused %v; want 4 checked in 5 pages, refused [a c d]", checked, pages, ids)
		}

		// A candidate the PUT would refuse is refused alike; an API version
		// that is not registered is not found; nothing was written.
		r := h.must(400, "POST", check, `{"properties":{"schema":{"type":"object","properties":{"x":{"type":"strin"}}}}}`)
		if !strings.Contains(string(r.body), `\"strin\"`) {
			t.Errorf("invalid candidate answered %s", r.body)
		}
		h.must(404, "POST", typ+"/apiVersions/2030-01-01/checkResources"+regVersion, schema(nil))
		h.must(400, "POST", check+"&$top=x", schema(nil))
		after := h.must(200, "GET", dbs+"b?api-version=2025-01-01", "")
		if after.header.Get("ETag") != before.header.Get("ETag") || string(after.body) != string(before.body) {
			t.Errorf("a check changed the resource: %s, was %s", after.body, before.body)
		}
		if r := h.must(200, "GET", ver+regVersion, ""); !strings.Contains(string(r.body), `"enum":["S","M","L","XL"]`) {
			t.Errorf("a check changed the API version: %s", r.body)
		}
	})
}
