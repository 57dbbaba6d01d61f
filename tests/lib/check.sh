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
#
# An ok says that something passed, so it is never printed for a block of
# checks in which one failed.  A block whose sub-checks fail one by one
# keeps FAILS as it began and ends with block_ok, which prints the block's
# ok only when nothing failed since:
#
#   local before=$FAILS                  (a plain before=$FAILS outside a function)
#   cmd1 || fail "what cmd1 got wrong"
#   cmd2 && fail "what cmd2 should not have done"
#   block_ok "$before" "what the block checks"
#
# block_ok 0 WHAT: nothing in the whole script failed.  The count is the
# caller's own variable, so blocks may nest and a block left early
# (|| return) leaves nothing behind.  (A fail in a subshell, as in
# "cmd | while ...; do fail ...; done", counts in the subshell alone.)
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
# block_ok BEFORE WHAT: ok WHAT when FAILS is still BEFORE (nothing failed
# since the block began); else nothing, its FAIL lines said what.  Its
# status: whether the block passed.
block_ok() { local before=$1; shift; [ "$FAILS" = "$before" ] && ok "$@"; }

# Under CI=true nothing that CI is meant to run may skip: a missing
# prerequisite fails the run instead.
skip_or_fail() {
    if [ "${CI:-}" = true ]; then fail "$2 (CI=true: CI may not skip for \"$1\")"; else skip "$@"; fi
}

have_corpus() { [ -f "$SHARED/corpus/MANIFEST.tsv" ]; }

# plain_build_only WHAT: in a sanitizer build (make check SANITIZE=1, BUILD
# build-san) a test of what an outside program (Blender, a browser, the
# glTF validator, dpkg) makes of the views' bytes skips, saying so (status
# 0: the caller finishes): the bytes are the plain build's, which the plain
# make check has shown to that program, and the program's time is most of
# the test's.  Status 1 in a plain build.
plain_build_only() {
    case $BUILD in
    *-san) skip "sanitizer build" "$1: the plain make check runs it"; return 0 ;;
    esac
    return 1
}

# finish NAME: the script's last word.
finish() {
    [ "$FAILS" = 0 ] && echo "$1: all passed" || echo "$1: $FAILS failure(s)"
    exit $((FAILS > 0))
}

for p in "$RTMCAT" "$RTMGEN"; do
    [ -x "$p" ] || { fail "$p not built"; exit 1; }
done
