#!/bin/sh
# Compatibility test of udtc's Bicep extensions against the reference
# library @azure/bicep-types (version pinned in package-lock.json).
#
# usage: .ci/bicep-compat/run.sh [DIR...]
# DIR is a `bicep` output directory; default: every golden/*/bicep.
# Prints "bicep-compat: N passed, M failed"; exits non-zero on any failure.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ "${BICEP_COMPAT_SKIP_INSTALL:-}" != 1 ]; then
	(cd "$here" && npm ci --silent --no-audit --no-fund >/dev/null)
fi
if [ $# -eq 0 ]; then
	set -- "$root"/golden/*/bicep
fi
exec node "$here/check.js" "$@"
