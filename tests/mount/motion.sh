#!/usr/bin/env bash
# motion.sh - moving.txt, tracks/ and -o digits=N through a real mount, with
# the programs a modder uses: grep finds which animations move a bone, cut
# and diff show that a track is its column of the frames, a track is found
# by its name in any case, and -o digits=N makes two copies of one
# animation (plain and binarised, from the shared corpus) diff as
# rtmfs-views(7) says.
NAME=motion
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
S=$T/src M=$T/mnt D=$T/digits

need_fuse "moving.txt and tracks/ through a mount"
mkdir -p "$S"
"$RTMGEN" "$S" >/dev/null || { fail "rtmgen"; exit 1; }
do_mount "$S" "$M" || exit 1

# Every name moving.txt gives is a bone of the animation, and grep at the
# start of a line finds the animations that move a bone.
check_moving() {
    local before=$FAILS a
    for a in "$M"/*.rtm; do
        [ -e "$a/error.txt" ] && continue
        cut -d' ' -f1 "$a/moving.txt" | while read -r b; do
            grep -qxF "$b" "$a/bones.txt" || echo "$b"
        done >"$T/strays"
        [ -s "$T/strays" ] && fail "$a/moving.txt names non-bones: $(head -3 "$T/strays")"
        grep -Evq '^[^ ]+ [0-9]+\.[0-9]{3} ([0-9]+\.[0-9]{5}|-)$' "$a/moving.txt" \
            && fail "$a/moving.txt: a line is not NAME DEG METRES"
    done
    local bone
    bone=$(head -1 "$M/walk.rtm/moving.txt" | cut -d' ' -f1)
    [ -n "$bone" ] || { fail "walk.rtm moves nothing"; return; }
    grep -rliE "^$bone " --include=moving.txt "$M" >"$T/movers"
    grep -qx "$M/walk.rtm/moving.txt" "$T/movers" || fail "grep -rliE '^$bone ' misses walk.rtm"
    block_ok "$before" "moving.txt: bones only, NAME DEG METRES, grep '^$bone ' finds $(wc -l <"$T/movers") animations"
}

# A track is its bone's column of the frames: cut and paste rebuild it.
check_tracks() {
    local before=$FAILS a="$M/walk.rtm" t bone
    [ "$(ls "$a/tracks" | wc -l)" = "$(wc -l <"$a/bones.txt")" ] || fail "tracks/: one file a bone"
    for t in "$a"/tracks/*.csv; do
        bone=$(basename "$t" .csv)
        for f in "$a"/frames/*.csv; do grep "^$bone," "$f" | cut -d, -f2-; done >"$T/column"
        diff -q <(tail -n +2 "$t" | cut -d, -f3-) "$T/column" >/dev/null \
            || { fail "tracks/$bone.csv is not its column of frames/"; break; }
        diff -q <(tail -n +2 "$t" | cut -d, -f1,2) <(tail -n +2 "$a/phases.csv") >/dev/null \
            || { fail "tracks/$bone.csv: frame,phase differ from phases.csv"; break; }
    done
    bone=$(head -1 "$a/bones.txt")
    cmp -s "$a/tracks/$bone.csv" "$a/tracks/${bone^^}.csv" || fail "tracks/${bone^^}.csv is not $bone's"
    block_ok "$before" "tracks/: $(ls "$a/tracks" | wc -l) files, each the column of the frames; found in any case"
}

# -o digits=3: fixed point in the numbered views, as rtmcat -d 3 prints;
# plain.rtm and the summaries unchanged.
check_digits() {
    local before=$FAILS v
    do_mount "$S" "$D" -o digits=3 || return
    for v in frames/000.csv tracks/pelvis.csv joints/000.csv phases.csv props.json; do
        [ -e "$D/walk.rtm/$v" ] || { fail "digits: no $v"; continue; }
        cmp -s "$D/walk.rtm/$v" <("$RTMCAT" -d 3 "$S/walk.rtm" "$v") || fail "digits=3 $v differs from rtmcat -d 3"
        grep -qE '[0-9]\.[0-9]{4}|[0-9]e[-+]|(^|,)-0(,|$)' "$D/walk.rtm/$v" && fail "digits=3 $v: $(grep -m1 -E '[0-9]\.[0-9]{4}|e[-+]' "$D/walk.rtm/$v")"
        cmp -s "$D/walk.rtm/$v" "$M/walk.rtm/$v" && [ "$v" != props.json ] && fail "digits=3 $v is the exact text"
    done
    for v in plain.rtm header.txt moving.txt skeleton.txt bones.txt; do
        cmp -s "$D/walk.rtm/$v" "$M/walk.rtm/$v" || fail "digits=3 changed $v"
    done
    do_umount "$D"
    block_ok "$before" "-o digits=3: fixed point in frames, tracks, joints, phases, props; plain.rtm as before"
}

# The M24 table of man/rtmfs-views.7 (rows "\fB\-o digits=N\fR   X of Y"):
# for N = 2, 3, 4 the count of M24's bones whose tracks are identical in the
# plain (dsr/dmr) and binarised (dsr/m110) copies, names compared without
# case, as the page states it.
check_m24() {
    have_corpus || { skip "no ../shared" "the M24 pair with -o digits=N"; return; }
    local before=$FAILS n t b common same want
    for n in 2 3 4; do
        do_mount "$SHARED/corpus/dsr" "$D" -o digits=$n || return
        common=0 same=0
        for t in "$D"/dmr/M24.rtm/tracks/*.csv; do
            b=$(basename "$t")
            [ -e "$D/m110/M24.rtm/tracks/$b" ] || continue
            common=$((common + 1))
            cmp -s "$t" "$D/m110/M24.rtm/tracks/$b" && same=$((same + 1))
        done
        do_umount "$D"
        want=$(sed -n 's/^\\fB\\-o digits='"$n"'\\fR  *\([0-9]* of [0-9]*\)$/\1/p' man/rtmfs-views.7)
        [ "$same of $common" = "$want" ] || fail "M24 with digits=$n: $same of $common identical tracks, rtmfs-views(7) says '$want'"
        echo "M24 digits=$n: $same of $common tracks identical"
    done
    block_ok "$before" "M24 plain against binarised: identical tracks as rtmfs-views(7) states"
}

check_moving
check_tracks
check_digits
check_m24
finish motion
