#!/usr/bin/env bash
# run.sh UNIT_TEST... | --only NAME: make check's runner.  Runs the unit tests, the build-flags test,
# the rtmcat tests and the mount tests, showing their output as it comes and
# keeping it in $BUILD/check.log, then ends with one summary line (see
# tests/lib/check.sh for the lines it counts).  Exits 1 when anything failed.
# TEST_CASE=PATTERN (with --only test_NAME alone) runs only that unit test's
# cases whose names PATTERN matches ('*' and '?'; tests/unit/testutil.h).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
log=$BUILD/check.log
# run.sh --only NAME: one unit test (test_tree) or one shell suite
# (tests/mount/pbo.sh) alone, with the same summary.
units=("$@") scripts=(tests/build/*.sh tests/cli/*.sh tests/mount/*.sh)
if [ "${1:-}" = --only ]; then
    case ${2:-} in
    *.sh) [ -f "$2" ] || { echo "run.sh: no test script $2" >&2; exit 2; }
          units=() scripts=("$2") ;;
    test_*) [ -x "$BUILD/tests/$2" ] || { echo "run.sh: no unit test $BUILD/tests/$2" >&2; exit 2; }
          units=("$BUILD/tests/$2") scripts=() ;;
    *) echo "run.sh: TEST=$2 is neither test_NAME nor a tests/.../NAME.sh script" >&2; exit 2 ;;
    esac
fi
# TEST_CASE picks cases of one unit test; the programs read it themselves.
export TEST_CASE=${TEST_CASE:-}
if [ -n "$TEST_CASE" ] && { [ "${1:-}" != --only ] || [ ${#scripts[@]} -ne 0 ]; }; then
    echo "run.sh: TEST_CASE=$TEST_CASE needs one unit test: TEST=test_NAME" >&2
    exit 2
fi
{
    [ ${#units[@]} -eq 0 ] || bash tests/lib/unit.sh "${units[@]}"
    # every script but the long ones that make valgrind and make stress run
    # (unless asked for by name)
    for t in "${scripts[@]}"; do
        case $t in tests/cli/valgrind.sh|tests/mount/stress.sh) [ ${#scripts[@]} -eq 1 ] || continue ;; esac
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
