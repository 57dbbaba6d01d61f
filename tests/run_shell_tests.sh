#!/usr/bin/env bash
# Runs every tests/sh_*.sh with BUILD set; each prints its own result.
set -euo pipefail
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
fail=0
for t in tests/sh_*.sh; do
    [ -e "$t" ] || continue
    echo "-- $t"
    bash "$t" || { echo "FAILED: $t"; fail=1; }
done
exit $fail
