#!/usr/bin/env bash
# The main job, end to end, on the embedded store: compile the example
# manifests, generate every output, start a local registry, publish to it,
# show the registry's view, stop the registry. Run it with `make run`.
set -euo pipefail
cd "$(dirname "$0")/.."
udtc=./bin/udtc
examples=${EXAMPLES:-examples}
out=${OUT:-out}

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else
	step() { printf '\n==> %s\n' "$*"; }
fi

step "udtc check $examples"
$udtc check "$examples"

step "udtc gen $examples --out $out"
# The output is its own Go module, so the generated client builds on its own
# (and stays out of this repository's ./... patterns).
mkdir -p "$out"
[ -f "$out/go.mod" ] || printf 'module example.com/udtc-demo\n\ngo 1.22\n' >"$out/go.mod"
$udtc gen "$examples" --out "$out"
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

step "stop the registry"
kill -TERM "$pid"
wait "$pid" || true
echo "stopped; generated files are in $out/"
