#!/usr/bin/env bash
# harness.sh - the test harness itself: the summary counts what it is given,
# block_ok prints a block's ok only when nothing in it failed, a unit
# program that stops early or crashes fails, and under CI=true the
# mount tests fail (not skip) when /dev/fuse is hidden or a mount does not
# come up.  /dev/fuse is hidden in a private mount namespace (unshare -m,
# root only), so the machine's own /dev/fuse is never touched.
NAME=harness
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
T=$(mktemp -d /tmp/rtmfs-harness.XXXXXX)
trap 'rm -rf "$T"' EXIT

printf '%s\n' "ok: a" "detail" "ok: b" "FAIL: c" "skip (no ../shared): d" \
    "skip (no /dev/fuse): e" "skip (no ../shared): f" > "$T/log"
want="make check: 2 passed, 1 failed, 3 skipped (no ../shared: 2; no /dev/fuse: 1)"
got=$(bash tests/lib/summary.sh "$T/log"); rc=$?
[ "$got" = "$want" ] && [ $rc = 1 ] && ok "summary counts passes, failures and skips by reason" \
    || fail "summary: '$got' (status $rc), expected '$want' (status 1)"
printf 'ok: a\n' > "$T/log"
[ "$(bash tests/lib/summary.sh "$T/log")" = "make check: 1 passed, 0 failed, 0 skipped" ] \
    && ok "summary of a clean run" || fail "summary of a clean run"

# block_ok (check.sh): a block's ok only when nothing failed since the block
# began, nested blocks too.  Run in a command substitution, so that the
# failures made here count in it alone.
got=$(fail "earlier"
      b=$FAILS; ok "one"; fail "two"; block_ok "$b" "a failed block"; echo "status $?"
      b=$FAILS; ok "three"; block_ok "$b" "a clean block after a failure"; echo "status $?"
      outer=$FAILS; inner=$FAILS; fail "four"; block_ok "$inner" "inner"; block_ok "$outer" "outer"
      outer=$FAILS; fail "five"; inner=$FAILS; block_ok "$inner" "a clean inner block"
      block_ok "$outer" "its outer block"; echo "status $?")
want=$(printf '%s\n' "FAIL: earlier" "ok: one" "FAIL: two" "status 1" "ok: three" \
    "ok: a clean block after a failure" "status 0" "FAIL: four" "FAIL: five" "ok: a clean inner block" "status 1")
[ "$got" = "$want" ] && ok "block_ok: a block's ok only when nothing in it failed, nested blocks too" \
    || fail "block_ok printed: $(tr '\n' '|' <<<"$got") expected: $(tr '\n' '|' <<<"$want")"

# Fake cmocka programs: one stops after 1 of 2 tests, one crashes after all.
printf '#!/bin/sh\necho 1..2; echo "ok 1 - first"\n' > "$T/stops"
printf '#!/bin/sh\necho 1..1; echo "ok 1 - only"; kill -SEGV $$\n' > "$T/crashes"
printf '#!/bin/sh\necho 1..1; echo "# skip reason: no ../shared"; echo "not ok 1 # SKIP real"\n' > "$T/skips"
chmod +x "$T/stops" "$T/crashes" "$T/skips"
bash tests/lib/unit.sh "$T/stops" > "$T/out" 2>&1 && fail "unit.sh: a program that stops early passed"
grep -q '^FAIL: unit/stops stopped after 1 of 2 tests' "$T/out" && ok "unit.sh: stopping early fails" \
    || fail "unit.sh: stopping early: $(cat "$T/out")"
bash tests/lib/unit.sh "$T/crashes" > "$T/out" 2>&1 && fail "unit.sh: a crash passed"
grep -q '^FAIL: unit/crashes exited with status' "$T/out" && ok "unit.sh: a crash fails" \
    || fail "unit.sh: crash: $(cat "$T/out")"
bash tests/lib/unit.sh "$T/skips" > "$T/out" 2>&1
grep -qx 'skip (no ../shared): unit/skips real' "$T/out" && ok "unit.sh: a skip keeps its reason" \
    || fail "unit.sh: skip: $(cat "$T/out")"

# hidden_fuse WHAT_OVER_DEV_FUSE CI: runs the mount tests with /dev/fuse
# replaced (in a private mount namespace); prints their status and output.
hidden_fuse() {
    unshare -m bash -c 'mount --bind "$1" /dev/fuse && CI=$2 bash tests/mount/basics.sh' _ "$1" "$2" \
        > "$T/out" 2>&1
    echo $?
}
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
    skip "not root" "CI=true with /dev/fuse hidden (needs unshare -m)"
else
    : > "$T/regular"
    [ "$(hidden_fuse "$T/regular" true)" = 1 ] && grep -q '^FAIL: .*CI=true' "$T/out" \
        && ok "CI=true: no /dev/fuse fails the mount tests" || fail "CI=true, no /dev/fuse: $(cat "$T/out")"
    [ "$(hidden_fuse "$T/regular" "")" = 0 ] && grep -q '^skip (no /dev/fuse): ' "$T/out" \
        && ok "without CI: no /dev/fuse skips the mount tests" || fail "no /dev/fuse: $(cat "$T/out")"
    # /dev/null in its place: a character device that cannot mount
    [ "$(hidden_fuse /dev/null true)" = 1 ] && grep -q '^FAIL: mount .*CI=true' "$T/out" \
        && ok "CI=true: a mount that does not come up fails" || fail "CI=true, mount fails: $(cat "$T/out")"
fi
finish build/harness
