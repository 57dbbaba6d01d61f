#!/usr/bin/env bash
# make check: long
# ahead.sh - sizing ahead of a walk (tree_ahead.c, -o ahead=N) through real
# mounts, on a first mount (a new index each): grep -r of bones.txt sizes
# nothing, ahead or not (RTMFS_STATS counts); du and ls -lR have workers
# size ahead, and every size ls -l shows is the bytes cat reads, in
# loose folders and in an archive; -o ahead=0 sizes nothing ahead and shows
# the same; a bad ahead= is refused, saying why.
NAME=ahead
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
S=$T/src M=$T/mnt

need_fuse "sizing ahead through a mount"
mkdir -p "$S"
"$RTMGEN" -t 60 "$S/loose" >/dev/null && "$RTMGEN" -p "$S/sample.pbo" || { fail "rtmgen"; exit 1; }
rm -f "$S"/loose/*/anim_0000[0-5].rtm      # the small set's broken.rtm among them: keep it once
"$RTMGEN" "$S/small" >/dev/null || { fail "rtmgen"; exit 1; }

stat_of() { awk -v k="$1" '$1 == k {print $2}' "$T/stats"; }
IXN=0
# first CMD... [-- options]: CMD on a fresh mount with a new index, the
# counts in $T/stats
first() {
    local opts=()
    IXN=$((IXN + 1))
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    RTMFS_STATS=$T/stats fg_mount "$S" "$M" -o "index=$T/ix$IXN.sqlite" "${opts[@]}" || return 1
    (cd "$M" && "$@") > "$T/out" 2>&1 || true
    do_umount "$M"
}
broken_shows_error() { [ "$(ls small/broken.rtm)" = error.txt ]; }
# ls -lR (whose first sizes find broken.rtm's damage: its folder then
# shows error.txt), then every file's size as ls -l shows it against the
# bytes cat reads
lsR_then_sizes() {
    ls -lR . >/dev/null 2>&1
    # the damage turns broken.rtm's folder into error.txt; the kernel is
    # told to forget its listing just after the request that found it
    within_1s broken_shows_error || echo "broken.rtm still lists: $(ls small/broken.rtm)"
    find . -type f -printf '%s %p\n' | sort -k2 > "$T/sizes.txt"
    sizes_read .
}

first -- grep -rl lefthand --include=bones.txt . || exit 1
[ -s "$T/out" ] && [ "$(stat_of sizings)" = 0 ] && [ "$(stat_of ahead)" = 0 ] &&
    ok "grep -r of bones.txt on a first mount: $(wc -l < "$T/out") files found, nothing sized" ||
    fail "grep -r sized: $(tr '\n' ' ' < "$T/stats")"

first -o ahead=2 -- du -s . || exit 1
[ "$(stat_of ahead)" -gt 0 ] &&
    ok "du -s on a first mount: $(stat_of sizings) animations sized, $(stat_of ahead) of them ahead" ||
    fail "du -s sized nothing ahead: $(tr '\n' ' ' < "$T/stats")"

first -o ahead=2 -- lsR_then_sizes || exit 1
grep -q ' bad 0$' "$T/out" && [ "$(stat_of ahead)" -gt 0 ] &&
    ok "ls -lR then cat: $(grep -o 'files [0-9]*' "$T/out"), every size the bytes read; $(stat_of ahead) sized ahead" ||
    fail "ls -lR sizes: $(grep -v '^files' "$T/out" | head -3) $(tail -1 "$T/out"); $(tr '\n' ' ' < "$T/stats")"
with=$(tail -1 "$T/out")
cp "$T/sizes.txt" "$T/sizes_ahead.txt"

first -o ahead=0 -- lsR_then_sizes || exit 1
[ "$(stat_of ahead)" = 0 ] && [ "$(tail -1 "$T/out")" = "$with" ] &&
    cmp -s "$T/sizes.txt" "$T/sizes_ahead.txt" &&
    ok "-o ahead=0: nothing sized ahead, the same sizes" ||
    fail "-o ahead=0: $(tr '\n' ' ' < "$T/stats"); $(diff "$T/sizes.txt" "$T/sizes_ahead.txt" | head -5 | tr '\n' ' ')"

mkdir -p "$T/bad"
if "$RTMFS" "$S" "$T/bad" -o ahead=lots 2>"$T/err"; then
    fusermount3 -u "$T/bad"
    fail "-o ahead=lots was taken"
else
    grep -q "bad ahead 'lots'" "$T/err" && ok "-o ahead=lots refused: $(cat "$T/err")" ||
        fail "-o ahead=lots: $(cat "$T/err")"
fi
finish mount/ahead
