#!/usr/bin/env bash
# Installs the PostgreSQL server when it is missing, so the registry's storage
# suite runs against a real PostgreSQL (the tests start a throwaway cluster
# with initdb under /usr/lib/postgresql/*/bin). Idempotent and quiet.
set -euo pipefail
if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	echo "postgresql: $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | head -1 || command -v initdb)"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "postgresql is missing and this is not root: install the postgresql package" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends postgresql >/dev/null
echo "postgresql: installed $(ls -d /usr/lib/postgresql/*/bin | head -1)"
