#!/usr/bin/env bash
# Installs Debian's docker-registry (the CNCF distribution registry) when it
# is missing, so the tests of `udtc publish-extension` push to a real OCI
# registry (they start their own on 127.0.0.1 with a generated config), and
# Debian's skopeo, the independent OCI client that pulls the extensions
# `udtc serve` hands out (cmd/udtc TestSkopeoPullsServedExtension).
# The package's own service is never started: the tests need the binary only.
# Idempotent and quiet.
set -euo pipefail
missing=
for tool in docker-registry skopeo; do
	if command -v "$tool" >/dev/null 2>&1; then
		echo "$tool: $(command -v "$tool")"
	else
		missing="$missing $tool"
	fi
done
if [ -z "$missing" ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "missing:$missing, and this is not root: install the packages" >&2
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
# shellcheck disable=SC2086 # the package names are words
apt-get install -y -qq --no-install-recommends $missing >/dev/null
for tool in $missing; do
	echo "$tool: installed $(command -v "$tool")"
done
