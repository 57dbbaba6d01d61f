# check.sh - the result protocol every test of make check speaks, sourced by
# the shell tests (tests/lib/unit.sh turns cmocka's TAP into the same lines):
#
#   ok: WHAT                 one test passed
#   FAIL: WHAT               one test failed
#   skip (REASON): WHAT      one test did not run; REASON is short and shared
#                            ("no ../shared", "no /dev/fuse", "not installed: X")
#
# Anything else a test prints is detail for the reader.  tests/lib/summary.sh
# counts these lines into make check's last line.  A script that sources this
# file ends with "finish", which exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
RTMFS=$BUILD/rtmfs RTMCAT=$BUILD/rtmcat RTMGEN=$BUILD/rtmgen
SHARED=${RTMFS_SHARED:-../shared}
FAILS=0

ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
skip() { local why=$1; shift; echo "skip ($why): $*"; }

# Under CI=true nothing that CI is meant to run may skip: a missing
# prerequisite fails the run instead.
skip_or_fail() {
    if [ "${CI:-}" = true ]; then fail "$2 (CI=true: CI may not skip for \"$1\")"; else skip "$@"; fi
}

have_corpus() { [ -f "$SHARED/corpus/MANIFEST.tsv" ]; }

# finish NAME: the script's last word.
finish() {
    [ "$FAILS" = 0 ] && echo "$1: all passed" || echo "$1: $FAILS failure(s)"
    exit $((FAILS > 0))
}

for p in "$RTMCAT" "$RTMGEN"; do
    [ -x "$p" ] || { fail "$p not built"; exit 1; }
done
