package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/udtc/udtc/bench/harness"
)

// The resources section measures the control plane for the registered
// types: admission of a PUT against a 25-property schema plus its durable
// write, GET of one resource, and LIST of a group's resources, on the
// embedded store, over loopback.

const (
	resNamespace  = "Bench.Resources"
	resType       = "widgets"
	resVersion    = "2025-01-01"
	resSeeded     = 1000 // resources created before the GET and LIST runs
	resListPage   = 100  // $top of a LIST
	resGroupPath  = "/planes/radius/local/resourceGroups/bench"
	resTypePath   = resGroupPath + "/providers/" + resNamespace + "/" + resType
	resVersionArg = "?api-version=" + resVersion
)

// resourceSchema is a 25-property schema using every kind of constraint
// admission checks: lengths, patterns, enums, formats, bounds, multipleOf,
// item counts, a map, a nested object, defaults and a sensitive value.
func resourceSchema() map[string]any {
	props := map[string]any{
		"name":        map[string]any{"type": "string", "minLength": 3, "maxLength": 63, "pattern": "^[a-z][a-z0-9-]*$"},
		"description": map[string]any{"type": "string", "maxLength": 1024},
		"tier":        map[string]any{"type": "string", "enum": []string{"free", "basic", "standard", "premium"}},
		"region":      map[string]any{"type": "string", "enum": []string{"east", "west", "north", "south"}, "default": "east"},
		"owner":       map[string]any{"type": "string", "format": "email"},
		"hostname":    map[string]any{"type": "string", "format": "hostname"},
		"instanceId":  map[string]any{"type": "string", "format": "uuid"},
		"createdOn":   map[string]any{"type": "string", "format": "date"},
		"endpoint":    map[string]any{"type": "string", "format": "uri"},
		"image":       map[string]any{"type": "string", "pattern": "^[a-z0-9./-]+:[a-z0-9.-]+$"},
		"password":    map[string]any{"type": "string", "minLength": 12, "x-radius-sensitive": true},
		"replicas":    map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "default": 2},
		"port":        map[string]any{"type": "integer", "minimum": 1, "maximum": 65535},
		"cpuMillis":   map[string]any{"type": "integer", "minimum": 100, "maximum": 64000, "multipleOf": 100},
		"memoryMiB":   map[string]any{"type": "integer", "minimum": 128, "maximum": 262144},
		"retries":     map[string]any{"type": "integer", "minimum": 0, "maximum": 10, "default": 3},
		"timeoutSecs": map[string]any{"type": "integer", "minimum": 1, "exclusiveMaximum": true, "maximum": 3600},
		"ratio":       map[string]any{"type": "number", "minimum": 0, "maximum": 1},
		"weight":      map[string]any{"type": "number", "multipleOf": 0.5},
		"enabled":     map[string]any{"type": "boolean", "default": true},
		"public":      map[string]any{"type": "boolean"},
		"zones":       map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"1", "2", "3"}}, "maxItems": 3, "uniqueItems": true},
		"ports":       map[string]any{"type": "array", "items": map[string]any{"type": "integer", "minimum": 1, "maximum": 65535}, "maxItems": 16},
		"labels":      map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "maxLength": 63}},
		"network": map[string]any{"type": "object", "properties": map[string]any{
			"subnet":   map[string]any{"type": "string", "pattern": "^[0-9./]+$"},
			"ipv4":     map[string]any{"type": "string", "format": "ipv4"},
			"internal": map[string]any{"type": "boolean", "default": false},
		}},
	}
	return map[string]any{"type": "object", "properties": props, "required": []string{"name", "tier", "image", "password"}}
}

// resourceBody is a valid body for resourceSchema: 22 of the 25 properties
// set (region, retries and enabled get their defaults).
func resourceBody(i int) []byte {
	b, _ := json.Marshal(map[string]any{"tags": map[string]string{"bench": "resources"}, "properties": map[string]any{
		"name": fmt.Sprintf("widget-%d", i), "description": "A widget of the resource benchmark.", "tier": "standard",
		"owner": "team@example.com", "hostname": "widget.example.com", "instanceId": "123e4567-e89b-12d3-a456-426614174000",
		"createdOn": "2026-01-02", "endpoint": "https://widget.example.com/api", "image": "registry.example/widget:1.2.3",
		"password": "correct-horse-battery-staple", "port": 8080, "cpuMillis": 500, "memoryMiB": 1024,
		"timeoutSecs": 30, "ratio": 0.25, "weight": 1.5, "public": false, "zones": []string{"1", "2"}, "ports": []int{80, 443},
		"labels":  map[string]string{"app": "widget", "team": "platform"},
		"network": map[string]any{"subnet": "10.0.0.0/24", "ipv4": "10.0.0.4"},
	}})
	return b
}

func resourceName(prefix string, i int) string { return fmt.Sprintf("%s%07d", prefix, i) }

func (b *bench) resources(ctx context.Context) {
	clients := b.cfg.resourceClients
	putT := b.target(fmt.Sprintf("Resources (SQLite): admission + durable PUT, 25-property schema, %d clients", clients), 2000, "req/s", true)
	p99T := b.target(fmt.Sprintf("Resources (SQLite): PUT p99 at %d clients", clients), 50, "ms", false)
	getT := b.target("Resources (SQLite): GET of a resource", 20000, "req/s", true)
	t := b.table("Resources", fmt.Sprintf("`udtc serve --store sqlite:…` on loopback, %d concurrent keep-alive clients in the harness process (sharing the machine's CPUs with the server). "+
		"One type with a 25-property schema (every kind of constraint, defaults, one `x-radius-sensitive` value, so a PUT also encrypts); %s resources in the group before GET and LIST. "+
		"PUT creates a new resource each time (admission, references, sealing, one SQLite transaction with synchronous=FULL); LIST pages by %d. Medians of %d runs, each bounded by its request count and %s.",
		clients, num(resSeeded), resListPage, b.cfg.runs, b.cfg.loadTime),
		"Scenario", "Requests", "Errors", "Throughput", "p50", "p99", "Max")
	missing := loadMissing(t, putT, p99T, getT)
	if why := b.available("serve"); why != "" {
		missing(why)
		return
	}
	b.logf("resources: starting server")
	srv, err := b.startServer(ctx, filepath.Join(b.work, "resources-load"))
	if err != nil {
		missing(err.Error())
		return
	}
	defer srv.stop()
	client := loadClient(clients)

	// Registration, the group, and the seeded resources.
	rp := srv.rpURL(resNamespace)
	schema, _ := json.Marshal(map[string]any{"properties": map[string]any{"schema": resourceSchema()}})
	for _, step := range []struct {
		url  string
		body []byte
	}{
		{q(rp), []byte(`{"location":"global","properties":{}}`)},
		{q(rp + "/resourceTypes/" + resType), []byte(`{"properties":{}}`)},
		{q(rp + "/resourceTypes/" + resType + "/apiVersions/" + resVersion), schema},
		{q(rp + "/locations/global"), []byte(`{"properties":{"resourceTypes":{"` + resType + `":{"apiVersions":{"` + resVersion + `":{}}}}}}`)},
		{q(srv.url + resGroupPath), []byte(`{"location":"global"}`)},
	} {
		if err := harness.Call(ctx, client, http.MethodPut, step.url, step.body); err != nil {
			missing("registration failed: " + firstLine(err.Error()))
			return
		}
	}
	seed := harness.RunLoad(ctx, harness.Load{Clients: clients, Requests: resSeeded, Duration: 5 * time.Minute, Do: func(ctx context.Context, i int) error {
		return harness.Call(ctx, client, http.MethodPut, srv.url+resTypePath+"/"+resourceName("seed", i)+resVersionArg, resourceBody(i))
	}})
	if seed.Errors > 0 {
		missing(fmt.Sprintf("seeding failed (%d of %d): %s", seed.Errors, seed.Requests, firstLine(seed.FirstError)))
		return
	}

	type scenario struct {
		name string
		reqs int
		do   func(run int) func(ctx context.Context, i int) error
	}
	scenarios := []scenario{
		{"PUT resource (admission + durable write)", b.cfg.putReqs, func(run int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				k := run*b.cfg.putReqs + i
				return harness.Call(ctx, client, http.MethodPut, srv.url+resTypePath+"/"+resourceName("put", k)+resVersionArg, resourceBody(k), http.StatusCreated)
			}
		}},
		{"GET resource", b.cfg.getReqs, func(int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				return harness.Call(ctx, client, http.MethodGet, srv.url+resTypePath+"/"+resourceName("seed", i%resSeeded)+resVersionArg, nil)
			}
		}},
		{fmt.Sprintf("LIST resources in the group ($top=%d)", resListPage), b.cfg.getReqs / 10, func(int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				return harness.Call(ctx, client, http.MethodGet, srv.url+resTypePath+resVersionArg+fmt.Sprintf("&$top=%d", resListPage), nil)
			}
		}},
	}
	for _, sc := range scenarios {
		harness.RunLoad(ctx, harness.Load{Clients: clients, Requests: 200, Duration: 5 * time.Second, Do: func(ctx context.Context, i int) error {
			return harness.Call(ctx, client, http.MethodGet, srv.url+"/healthz", nil)
		}})
		var reqs, errs []int
		var tput []float64
		var p50, p99, mx []time.Duration
		first := ""
		for run := range b.cfg.runs {
			b.logf("resources: %s, run %d", sc.name, run+1)
			r := harness.RunLoad(ctx, harness.Load{Clients: clients, Requests: sc.reqs, Duration: b.cfg.loadTime, Do: sc.do(run)})
			reqs, errs, tput = append(reqs, r.Requests), append(errs, r.Errors), append(tput, r.PerSecond())
			p50, p99, mx = append(p50, r.P50), append(p99, r.P99), append(mx, r.Max)
			if first == "" {
				first = r.FirstError
			}
		}
		row := []string{sc.name, num(harness.Median(reqs)), num(harness.Median(errs)), harness.Num(harness.Median(tput)) + " req/s",
			harness.Millis(harness.Median(p50)), harness.Millis(harness.Median(p99)), harness.Millis(harness.Median(mx))}
		if first != "" {
			row[2] += " (" + firstLine(first) + ")"
		}
		t.Rows = append(t.Rows, row)
		var tputT *harness.Target
		switch sc.name {
		case scenarios[0].name:
			tputT = putT
			if harness.Median(errs) == 0 {
				p99T.Value, p99T.Have = float64(harness.Median(p99))/float64(time.Millisecond), true
			} else {
				p99T.Why = "requests failed: " + firstLine(first)
			}
		case scenarios[1].name:
			tputT = getT
		}
		switch {
		case tputT == nil:
		case harness.Median(errs) > 0:
			tputT.Why = "requests failed: " + firstLine(first)
		default:
			tputT.Value, tputT.Have = harness.Median(tput), true
		}
	}
	rss := srv.stop()
	load := harness.LoadAverage()
	t.Note += fmt.Sprintf(" Server peak RSS: %s; load average after: %s.", harness.MB(rss), load)
	b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("### Resources\n\n"+
		"The resource load ended with a load average of %s (1, 5, 15 min) on %d CPUs: other processes competed with the server and its %d clients, "+
		"so these figures are what the machine gave then, not the server's capacity. Admission + durable PUT: %s, p99 %s (targets %s req/s, %s ms); "+
		"every PUT is one SQLite transaction with synchronous=FULL, so it waits for its commit to reach the disk. GET of a resource: %s (target %s req/s); "+
		"compare it with the loopback ceiling (GET /healthz) of the registry load, which bounds any GET over HTTP on this machine.",
		load, b.rep.Machine.CPUs, clients, targetText(putT, "req/s"), targetText(p99T, "ms"), harness.Num(putT.Goal), harness.Num(p99T.Goal),
		targetText(getT, "req/s"), harness.Num(getT.Goal)))
}

// targetText is a target's measurement for a note, or why there is none.
func targetText(t *harness.Target, unit string) string {
	if !t.Have {
		return "not measured (" + t.Why + ")"
	}
	return harness.Num(t.Value) + " " + unit
}
