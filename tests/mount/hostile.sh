#!/usr/bin/env bash
# hostile.sh - rtmfs over a hostile source tree: truncated, corrupted,
# empty and zero-frame files, counts far larger than the file, a file that
# grows and shrinks while it is read, symlink loops, an unreadable file (for
# a non-root rtmfs), names with newlines and bytes that are not UTF-8, and a
# directory of 100,000 entries.  The mount must never crash or hang, must show
# error.txt for the bad files and still serve the good ones exactly.  Damage
# past the names (BMTR arrays cut or corrupt) shows at the first full read:
# the listing shows the views, that read fails with EIO, then the folder
# shows error.txt, on this mount and (from the index) the next.
# RTMFS_HOSTILE_ENTRIES sets the size of the big directory (default 100000).
NAME=hostile
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
ENTRIES=${RTMFS_HOSTILE_ENTRIES:-100000}
M=$T/mnt
CHECKS=0
check() { CHECKS=$((CHECKS + 1)); }
need_fuse "hostile-tree tests"

S=$T/src
mkdir -p "$S"
"$RTMGEN" "$T/gen" >/dev/null
cp "$T/gen/"*.rtm "$S/"
good=(walk.rtm step_props.rtm wave_v3.rtm reload_v4.rtm run_v5.rtm idle_v5_raw.rtm)
bad=()
head -c 100 "$T/gen/walk.rtm" > "$S/trunc_plain.rtm"; bad+=(trunc_plain.rtm)
# cut and corrupted in BMTR's arrays, past the names a listing reads
# (rtmgen's broken.rtm is a v5 file cut in its frames)
late=(broken.rtm)
head -c 5000 "$T/gen/wave_v3.rtm" > "$S/trunc_v3.rtm"; late+=(trunc_v3.rtm)
: > "$S/empty.rtm"; bad+=(empty.rtm)
# corrupted: the last LZO frame's end marker overwritten (bytes in the
# middle of a stream may be literals, which any value decodes from)
cp "$T/gen/run_v5.rtm" "$S/corrupt.rtm"
printf '\377\377\377' | dd of="$S/corrupt.rtm" bs=1 seek=$(($(stat -c %s "$S/corrupt.rtm") - 3)) \
    conv=notrunc 2>/dev/null
late+=(corrupt.rtm)
# zero frames and zero bones: valid, empty animations
printf 'RTM_0101\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' > "$S/zero.rtm"; good+=(zero.rtm)
# counts far larger than the file: 4 billion frames, 4 billion bones
printf 'RTM_0101\0\0\0\0\0\0\0\0\0\0\0\0\xff\xff\xff\xff\x02\0\0\0' > "$S/huge_frames.rtm"
printf 'BMTR\5\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\0\xff\xff\xff\xff\0\0\0\0\xff\xff\xff\x7f\xff\xff\xff\x7f' > "$S/huge_bones.rtm"
bad+=(huge_frames.rtm huge_bones.rtm)
# names with a newline and bytes that are not UTF-8
cp "$T/gen/walk.rtm" "$S/new"$'\n'"line.rtm"
cp "$T/gen/run_v5.rtm" "$S/latin"$'\xe9\xff'".rtm"
# symlink loops: two links to each other, and a directory linking to itself
ln -s loop_b.rtm "$S/loop_a.rtm"; ln -s loop_a.rtm "$S/loop_b.rtm"
mkdir -p "$S/dir"; ln -s .. "$S/dir/up"; ln -s "$S/dir" "$S/dir/self"
# a directory of many entries, one in ten an animation (empty: error.txt)
mkdir -p "$S/many"
( cd "$S/many" && seq -f 'e%06g' 0 $((ENTRIES - 1)) | awk '{print ($0 ~ /0$/) ? $0 ".rtm" : $0 ".txt"}' | xargs touch )
# an unreadable file: only a non-root rtmfs is kept out of it
cp "$T/gen/walk.rtm" "$S/locked.rtm"; chmod 000 "$S/locked.rtm"
chmod -R a+rX "$S"; chmod 000 "$S/locked.rtm"

# As root, rtmfs runs without the capabilities that override file modes, so
# that mode 000 means something to it too.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    AS=(setpriv --bounding-set=-dac_override,-dac_read_search)
fi
do_mount "$S" "$M" -o cache_size=16M || finish mount/hostile
run() { timeout 120 "$@"; }   # a hang fails

# grows and shrinks while it is read
cp "$T/gen/walk.rtm" "$S/moving.rtm"
( while :; do cat "$T/gen/wave_v3.rtm" > "$S/moving.rtm"; head -c 3000 "$T/gen/walk.rtm" > "$S/moving.rtm";
             cat "$T/gen/walk.rtm" > "$S/moving.rtm"; done ) & GROWER=$!
PIDS+=("$GROWER")

run ls -R "$M" >/dev/null 2>&1; [ $? -eq 124 ] && fail "ls -R hangs"; check
for f in "${good[@]}"; do
    for v in header.txt bones.txt plain.rtm frames/000.csv; do
        [ "$f" = zero.rtm ] && [ "$v" = frames/000.csv ] && continue
        run cmp -s "$M/$f/$v" <("$RTMCAT" "$S/$f" "$v") || fail "$f/$v differs from rtmcat"; check
    done
done
# the folder of bad file $1 shows error.txt, as rtmcat says it
shows_error() {
    # (after a full read the kernel is told to forget the listing from a thread)
    within_1s lists_only_error "$M/$1" || fail "$1: no error.txt${2:+ $2}"; check
    local want
    want=$(cd "$S" && "$RTMCAT" "$1" 2>&1 >/dev/null | sed 's/^rtmcat: //')
    [ "$(run cat "$M/$1/error.txt")" = "$want" ] || fail "$1: error.txt differs from rtmcat${2:+ $2}"
    check
}
for f in "${bad[@]}"; do shows_error "$f"; done
for f in "${late[@]}"; do
    run ls "$M/$f" | grep -qx bones.txt || fail "$f: the listing does not show the views"; check
    [ -s "$M/$f/bones.txt" ] || fail "$f: bones.txt is empty"; check
    e=$(run cat "$M/$f/header.txt" 2>&1 >/dev/null)
    [[ "$e" == *"Input/output error"* ]] || fail "$f: the first full read gave '$e', not EIO"; check
    shows_error "$f" "after the full read"
done
run cmp -s "$M/new"$'\n'"line.rtm/bones.txt" <("$RTMCAT" "$S/new"$'\n'"line.rtm" bones.txt) ||
    fail "name with a newline"; check
run cmp -s "$M/latin"$'\xe9\xff'".rtm/header.txt" <("$RTMCAT" "$S/latin"$'\xe9\xff'".rtm" header.txt) ||
    fail "name with non-UTF-8 bytes"; check
run stat "$M/loop_a.rtm" >/dev/null 2>&1 && fail "a symlink loop resolves"; check
run ls "$M/dir" | grep -qx self && fail "a directory symlink loop is shown"; check
if [ ${#AS[@]} -gt 0 ] || [ "$(id -u)" != 0 ]; then
    [ "$(run ls "$M/locked.rtm")" = error.txt ] &&
        run grep -q "Permission denied" "$M/locked.rtm/error.txt" || fail "unreadable file: no error.txt"
    check
fi
n=$(run ls "$M/many" | wc -l)
[ "$n" = $((ENTRIES / 10)) ] || fail "many: $n entries listed, expected $((ENTRIES / 10))"; check
[ "$(run ls "$M/many/e000010.rtm")" = error.txt ] || fail "many: empty file has no error.txt"; check
# the moving file: every read is whole and of one version, or fails
v1=$("$RTMCAT" "$T/gen/walk.rtm" header.txt) v2=$("$RTMCAT" "$T/gen/wave_v3.rtm" header.txt)
for _ in $(seq 200); do
    if h=$(run cat "$M/moving.rtm/header.txt" 2>/dev/null); then
        [ "$h" = "$v1" ] || [ "$h" = "$v2" ] || [[ "$h" == *"error"* || -z "$h" ]] ||
            { fail "moving file: a read mixed versions"; break; }
    fi
done; check
kill "$GROWER"; wait "$GROWER" 2>/dev/null
grep -qs " $M fuse.rtmfs " /proc/mounts || fail "rtmfs died"; check
run cmp -s "$M/walk.rtm/plain.rtm" "$S/walk.rtm" || fail "good file after the storm"; check
do_umount "$M"
# the next mount, with the same index: error.txt from the start
do_mount "$S" "$M" -o cache_size=16M || finish mount/hostile
for f in "${late[@]}"; do shows_error "$f" "on the next mount"; done
do_umount "$M"
block_ok 0 "hostile tree: $CHECKS checks (${#bad[@]} + ${#late[@]} bad files, $ENTRIES entries)"
finish mount/hostile
