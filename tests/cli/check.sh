#!/usr/bin/env bash
# check.sh - rtmcat --check (rtmcat(1)): its lines, exit statuses, --strict,
# --format=json (read back by Python's json), archive entries and a folder
# tree with an archive in it.  The faults are written into rtmgen's plain
# sample: a bone's 32-byte name field renamed wherever it occurs.
# Uses $BUILD/rtmcat and $BUILD/rtmgen (BUILD defaults to build).
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
CAT=$RTMCAT GEN=$RTMGEN

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmcat-check.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# rename SRC DST FROM TO: SRC with the plain name field FROM made TO
rename() {
    perl -0777 -pe 'BEGIN { $x = pack("a32", shift); $y = pack("a32", shift) } s/\Q$x\E/$y/g' \
        "$3" "$4" <"$1" >"$2"
}

# run ARGS...: rtmcat with stdout, stderr and status in $T/out, $T/err, $rc
run() {
    "$CAT" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# expect WHAT STATUS ARGS...: rtmcat ARGS exits STATUS
expect() {
    local what=$1 want=$2; shift 2
    run "$@"
    if [ "$rc" = "$want" ]; then ok "--check: $what (exit $want)"
    else fail "--check: $what: exit $rc, expected $want: $(head -c 300 "$T/err")"; fi
}

"$GEN" "$T/s" >/dev/null || { fail "rtmgen $T/s"; exit 1; }
command -v perl >/dev/null || { fail "perl (perl-base) is needed to write the faults"; exit 1; }
rename "$T/s/walk.rtm" "$T/bad.rtm" Spine3 slot_backpack
rename "$T/s/walk.rtm" "$T/case.rtm" Spine2 spine2
grep -q slot_backpack "$T/bad.rtm" || fail "the fault was not written into bad.rtm"

expect "a clean file (a note only)" 0 --check "$T/s/walk.rtm"
expect "a note is no warning" 0 --check --strict "$T/s/walk.rtm"
expect "an unknown bone" 1 --check "$T/bad.rtm"
if grep -qx "$T/bad.rtm: error bone-not-in-skeleton: Bone slot_backpack doesn't exist in skeleton OFP2_ManSkeleton (the game logs this and leaves the bone still; fixed.rtm is the file without it)" "$T/out"
then ok "--check: the game's words, FILE first"
else fail "--check: the line for slot_backpack: $(cat "$T/out")"; fi
expect "a case mismatch is a warning" 0 --check "$T/case.rtm"
grep -q "^$T/case.rtm: warning bone-case: case mismatch 'spine2' in rtm vs 'Spine2'" "$T/out" \
    && ok "--check: bone-case names both spellings" || fail "--check: bone-case: $(cat "$T/out")"
expect "--strict: a warning fails" 1 --check --strict "$T/case.rtm"
expect "a file that is missing" 2 --check "$T/s/walk.rtm" "$T/nothing.rtm"
grep -q "^rtmcat: $T/nothing.rtm: " "$T/err" && grep -q "^$T/s/walk.rtm: note" "$T/out" \
    && ok "--check: the others are still checked" || fail "--check: missing file: $(cat "$T/err")"
expect "a broken file" 2 --check "$T/s/broken.rtm" "$T/bad.rtm"
expect "--format=yaml is refused" 2 --check --format=yaml "$T/bad.rtm"

# check.txt and --check say the same
"$CAT" "$T/bad.rtm" check.txt >"$T/view"
"$CAT" --check "$T/bad.rtm" | sed "s|^$T/bad.rtm: ||" >"$T/lines"
cmp -s "$T/view" "$T/lines" && ok "--check: the lines of check.txt" \
    || fail "--check differs from check.txt: $(diff "$T/view" "$T/lines" | head -5)"

# a folder tree with an archive in it, and an entry of the archive
mkdir -p "$T/mod/addons" "$T/mod/anims"
"$GEN" -p "$T/mod/addons/samples.pbo" >/dev/null || fail "rtmgen -p"
cp "$T/bad.rtm" "$T/mod/anims/Bad.RTM"
cp "$T/s/walk.rtm" "$T/mod/anims/notes.txt"       # not *.rtm: not looked at
expect "a folder tree" 1 --check "$T/mod"
for f in addons/samples.pbo/anims/walk.rtm addons/samples.pbo/anims/binarised/run_v5.rtm \
         anims/Bad.RTM; do
    grep -q "^$T/mod/$f: " "$T/out" && ok "--check: the tree's $f" \
        || fail "--check: no line for $f: $(cut -c1-120 "$T/out" | head -5)"
done
grep -q "notes.txt" "$T/out" && fail "--check: a file not named *.rtm was checked"
expect "an archive entry" 0 --check "$T/mod/addons/samples.pbo/anims/walk.rtm"
[ "$(cut -d: -f1 "$T/out" | sort -u)" = "$T/mod/addons/samples.pbo/anims/walk.rtm" ] \
    && ok "--check: only that entry" || fail "--check: entry: $(cut -c1-120 "$T/out")"
expect "a folder in an archive" 0 --check "$T/mod/addons/samples.pbo/anims/binarised"
expect "no such entry" 2 --check "$T/mod/addons/samples.pbo/anims/none.rtm"

# --format=json: one object a file, read back by Python
if command -v python3 >/dev/null; then
    run --check --format=json "$T/mod" "$T/nothing.rtm"
    if [ "$rc" = 2 ] && python3 - "$T/out" "$T/mod" "$T/nothing.rtm" <<'EOF'
import json, sys
objs = [json.loads(line) for line in open(sys.argv[1])]
files = {o["file"]: o for o in objs}
bad = files[sys.argv[2] + "/anims/Bad.RTM"]["findings"]
assert any(f["level"] == "error" and f["code"] == "bone-not-in-skeleton"
           and "slot_backpack" in f["message"] for f in bad), bad
walk = files[sys.argv[2] + "/addons/samples.pbo/anims/walk.rtm"]["findings"]
assert [f["code"] for f in walk] == ["skeleton-bones-left-out"], walk
assert "error" in files[sys.argv[3]], files[sys.argv[3]]
assert all(set(o) in ({"file", "findings"}, {"file", "error"}) for o in objs)
EOF
    then ok "--check --format=json: one object a file, read by Python's json"
    else fail "--check --format=json (exit $rc): $(head -c 400 "$T/out")"; fi
else
    skip_or_fail "not installed: python3" "--check --format=json read by Python's json"
fi

finish check.sh
