#!/usr/bin/env bash
# run.sh UNIT_TEST...: make check's runner.  Runs the unit tests, the build-flags test,
# the rtmcat tests and the mount tests, showing their output as it comes and
# keeping it in $BUILD/check.log, then ends with one summary line (see
# tests/lib/check.sh for the lines it counts).  Exits 1 when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
log=$BUILD/check.log
{
    bash tests/lib/unit.sh "$@"
    # every script but the long ones that make valgrind and make stress run
    for t in tests/build/*.sh tests/cli/*.sh tests/mount/*.sh; do
        case $t in tests/cli/valgrind.sh|tests/mount/stress.sh) continue ;; esac
        echo "== $t"
        BUILD=$BUILD bash "$t" 2>&1 | tee "$log.one"
        rc=${PIPESTATUS[0]}
        # a script that fails says what failed; one that dies may not have
        if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$log.one"; then
            echo "FAIL: $t exited with status $rc"
        fi
    done
} 2>&1 | tee "$log"
rm -f "$log.one"
echo
bash tests/lib/summary.sh "$log"
