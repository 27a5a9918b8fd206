#!/usr/bin/env bash
# The main job, end to end, on the embedded store: compile the example
# manifests, generate every output, start a local registry, publish to it,
# show the registry's view, create resources of the published types (one
# refused by admission, a child deleted with its parent), stop the
# registry. A Go program (scripts/democlient) uses the generated client.
# Run it with `make run`; any unexpected answer fails it. UDTC, EXAMPLES and
# OUT override the binary, the manifests and the output directory.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
udtc=${UDTC:-./bin/udtc}
examples=${EXAMPLES:-examples}
out=${OUT:-out}

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else
	step() { printf '\n==> %s\n' "$*"; }
fi

step "udtc check $examples"
$udtc check "$examples"

step "udtc gen $examples --out $out --go-module example.com/udtc-demo"
# --go-module makes the output a Go module of its own (go.mod: go 1.24, as
# the client needs), so the generated client builds on its own and stays out
# of this repository's ./... patterns.
$udtc gen "$examples" --out "$out" --go-module example.com/udtc-demo
find "$out" -name '*.tgz' -o -name 'index.json' | sort | sed 's/^/    /'

step "go vet ./... in $out: the generated Go client compiles"
(cd "$out" && go vet ./... && echo "    ok: $(find go -name '*.go' | wc -l | tr -d ' ') Go files")

step "udtc serve (embedded SQLite in a temporary directory)"
tmp=$(mktemp -d)
$udtc serve --addr 127.0.0.1:0 --store "sqlite:$tmp/registry.db" --log-format text >"$tmp/serve.out" 2>"$tmp/serve.log" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 100); do
	grep -q 'listening on' "$tmp/serve.out" 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
	sleep 0.1
done
server=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$tmp/serve.out")
[ -n "$server" ] || { echo "udtc serve did not start" >&2; cat "$tmp/serve.log" >&2; exit 1; }
cat "$tmp/serve.out"

step "udtc publish $examples --server $server"
$udtc publish "$examples" --server "$server"

step "udtc publish again: nothing to do"
$udtc publish "$examples" --server "$server" | tail -2

step "udtc registry list"
$udtc registry list --server "$server"

step "udtc registry show Contoso.Messaging/buses/queues"
$udtc registry show Contoso.Messaging/buses/queues --server "$server"

# req METHOD PATH WANT [BODY]: one request to the registry, shown as the
# command and its answer; a status other than WANT stops the demo.
req() {
	local method=$1 path=$2 want=$3 body=${4:-} status
	printf '$ curl -X %s "$S%s"' "$method" "$path"
	[ -n "$body" ] && printf " -H 'Content-Type: application/json' -d '%s'" "$body"
	printf '\n'
	local args=(-sS -o "$tmp/body" -w '%{http_code}' -X "$method" "$server$path")
	[ -n "$body" ] && args+=(-H 'Content-Type: application/json' -d "$body")
	status=$(curl "${args[@]}")
	printf '%s ' "$status"
	if [ -s "$tmp/body" ]; then pretty <"$tmp/body"; else echo; fi
	[ "$status" = "$want" ] || { echo "unexpected status $status (want $want)" >&2; exit 1; }
}
# With jq: a resource as its name and properties, an error as its code,
# message and details, one a line; without: the JSON as it came.
if command -v jq >/dev/null; then
	pretty() {
		jq -r 'if .error then "\(.error.code): \(.error.message)", (.error.details // [] | .[] | "    \(.target)  \(.code)  \(.message)")
			else {name, properties} | tojson end'
	}
else
	pretty() { cat; }
fi
rg=/planes/radius/local/resourceGroups/demo
bus=$rg/providers/Contoso.Messaging/buses
v=api-version=2025-06-01

step "resources of the published types: a resource group, then a bus admitted against its schema"
echo "S=$server"
req PUT "$rg?api-version=2023-10-01-preview" 201 '{"location":"global"}'
req PUT "$bus/bus1?$v" 201 '{"properties":{"environment":"dev","tier":"standard"}}'

step "refused: one detail per violation, nothing stored"
req PUT "$bus/bus2?$v" 400 '{"properties":{"tier":"gold","extra":1}}'
req GET "$bus/bus2?$v" 404

step "a child resource (default maxDeliveryCount applied), then delete its parent: the child goes too"
req PUT "$bus/bus1/queues/orders?$v" 201 '{"properties":{"environment":"dev","deadLettering":true}}'
req DELETE "$bus/bus1?$v" 200
req GET "$bus/bus1/queues/orders?$v" 404

step "the generated Go client: scripts/democlient/main.go, built in $out"
(cd "$out" && go run "$root/scripts/democlient/main.go" "$server")

step "stop the registry"
kill -TERM "$pid"
wait "$pid" || true
echo "stopped; generated files are in $out/"
