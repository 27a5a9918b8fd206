#!/usr/bin/env bash
# The main job, end to end, on the embedded store: compile the example
# manifests, generate every output, start a local registry, publish to it,
# show the registry's view, stop the registry. Run it with `make run`.
set -euo pipefail
cd "$(dirname "$0")/.."
udtc=./bin/udtc
examples=${EXAMPLES:-examples}
out=${OUT:-out}

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "udtc check $examples"
$udtc check "$examples"

step "udtc gen $examples --out $out"
$udtc gen "$examples" --out "$out"
find "$out" -name '*.tgz' -o -name 'index.json' | sort | sed 's/^/    /'
