#!/usr/bin/env bash
# Installs Debian's docker-registry (the CNCF distribution registry) when it
# is missing, so the tests of `udtc publish-extension` push to a real OCI
# registry (they start their own on 127.0.0.1 with a generated config).
# The package's own service is never started: the tests need the binary only.
# Idempotent and quiet.
set -euo pipefail
if command -v docker-registry >/dev/null 2>&1; then
	echo "docker-registry: $(command -v docker-registry)"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "docker-registry is missing and this is not root: install the docker-registry package" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A policy-rc.d that answers 101 keeps the package's init script from
# starting a registry on :5000; one that is already there is left alone.
policy=/usr/sbin/policy-rc.d
made_policy=
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	made_policy=1
fi
cleanup() { if [ -n "$made_policy" ]; then rm -f "$policy"; fi; }
trap cleanup EXIT
apt-get update -qq
apt-get install -y -qq --no-install-recommends docker-registry >/dev/null
echo "docker-registry: installed $(command -v docker-registry)"
