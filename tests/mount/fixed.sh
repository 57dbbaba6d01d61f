#!/usr/bin/env bash
# fixed.sh - fixed.rtm through a real mount, over every animation of
# ../shared/corpus: its size at stat is the bytes read and rtmcat FILE
# fixed.rtm prints the same; saved and read again with the same skeleton
# its check.txt has no bone error or warning, and its bones are the
# original's that the skeleton holds (header.txt's fixed: line says how
# many); binarised (rtmcat fixed.rtm bmtr.rtm) it stays so.  Mounted with
# -o skeleton=none, fixed.rtm is plain.rtm and header.txt says why.
NAME=fixed
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
M=$T/mnt
export LC_ALL=C
need_fuse "fixed.rtm mount tests"
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }
[ -d "$SHARED/corpus" ] || { skip_or_fail "no ../shared" "fixed.rtm over the shared corpus"; finish mount/fixed; exit; }

BONE='^(error bone-not-in-skeleton|warning binarise-refuses|note helper-bone|warning bone-case|warning duplicate-bone|warning name-length: Bone )'
do_mount "$SHARED/corpus" "$M" || exit 1
n=0 bad=0 found=0
while IFS= read -r -d '' d; do
    rel=${d#"$M"/} src=$SHARED/corpus/$rel f=$d/fixed.rtm
    n=$((n + 1))
    grep -Eq "$BONE" "$d/check.txt" && found=$((found + 1))
    cp "$f" "$T/saved.rtm"
    kept=$(sed -n 's/^fixed: fixed.rtm keeps \([0-9]*\) of.*/\1/p' "$d/header.txt")
    [ -n "$kept" ] || kept=$(sed -n 's/^bones: //p' "$d/header.txt")
    if ! exact "$f" || ! cmp -s "$f" <("$RTMCAT" "$src" fixed.rtm) ||
        "$RTMCAT" "$T/saved.rtm" check.txt | grep -Eq "$BONE" ||
        [ "$("$RTMCAT" "$T/saved.rtm" bones.txt | wc -l)" != "$kept" ] ||
        ! "$RTMCAT" "$T/saved.rtm" bmtr.rtm >"$T/saved.bmtr" ||
        "$RTMCAT" "$T/saved.bmtr" check.txt | grep -Eq "$BONE" ||
        [ "$("$RTMCAT" "$T/saved.bmtr" bones.txt | wc -l)" != "$kept" ]; then
        bad=$((bad + 1))
        [ "$bad" -le 3 ] && fail "$rel: fixed.rtm: $(grep '^fixed:' "$d/header.txt" | head -c 300)"
    fi
done < <(find "$M" -mindepth 1 -type d -iname '*.rtm' -print0)
[ "$n" -gt 100 ] && [ "$bad" = 0 ] &&
    ok "$n animations ($found with a bone finding): fixed.rtm exact at stat, rtmcat's bytes, no bone finding read back or binarised, the skeleton's bones kept" ||
    fail "$bad of $n animations' fixed.rtm wrong"
do_umount "$M"

do_mount "$SHARED/corpus" "$M" -o skeleton=none || exit 1
n=0 bad=0
while IFS= read -r -d '' d; do
    n=$((n + 1))
    cmp -s "$d/fixed.rtm" "$d/plain.rtm" && exact "$d/fixed.rtm" &&
        grep -qx 'fixed: nothing: no skeleton to check the bones against (skeleton none), so fixed.rtm is plain.rtm' "$d/header.txt" ||
        bad=$((bad + 1))
done < <(find "$M" -mindepth 1 -type d -iname '*.rtm' -print0 | head -z -n 20)
[ "$n" = 20 ] && [ "$bad" = 0 ] && ok "-o skeleton=none: fixed.rtm is plain.rtm, and header.txt says why" ||
    fail "skeleton=none: $bad of $n differ"
do_umount "$M"
finish mount/fixed
