#!/usr/bin/env bash
# Installs Debian's chromium when it is missing, so the catalog's browser
# tests (cmd/udtc/catalog_browser_test.go, chromedp) run; with CI=true they
# fail rather than skip without it. Idempotent and quiet.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
	echo "chromium: $(command -v chromium)"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "chromium is missing and this is not root: install the chromium package" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "chromium: installed $(command -v chromium)"
