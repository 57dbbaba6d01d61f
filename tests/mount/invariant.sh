#!/usr/bin/env bash
# make check: long
# invariant.sh - what every mount must hold, whatever it shows: over the
# trees the tests build (rtmgen's samples with their broken file, an
# archive as a folder's file and as SOURCE itself, a 100-animation install
# of rtmgen -I with configs, archives and loose mods) and ../shared's
# corpus, archive and addons, under every option that changes what is shown
# (none, -o gamepaths, show_other, configs=none, show_other,rapified=raw
# (rapified=raw changes nothing without show_other), timing=frames,
# skeleton=none, then none again: a later mount, its names and sizes from
# the persistent index the others filled, which must show the same names
# and bytes as the first), every name a listing gives looks
# up, as the kind the listing said (a folder a folder, a file a file), and
# every file reads exactly as many bytes as stat says, or fails once with
# EIO as rtmfs(1) documents (a wrong remembered size; an animation's damage
# found at its first full read), and then holds.  The walk is
# tests/lib/walk_check.c (find's order, readdir's d_type against stat); it
# samples folders of more than 12 entries named frames/, joints/ or
# tracks/ (12 of their files, the first and last among them), and under an
# option other than the default enters every fourth animation's folder
# (the others are looked up and checked as folders: each option changes a
# few views, which every fourth animation shows as well as all), so that
# the whole takes seconds (about 20 with ../shared).  It caught -o gamepaths
# listing missing.txt at the root that no lookup found, and a later mount
# sizing (and showing) an animation beside a model.cfg with the mount's
# skeleton instead of the model.cfg's.
NAME=invariant
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
M=$T/mnt WALK=$BUILD/tests/walk_check
export LC_ALL=C
need_fuse "the invariant of every tree under every option"
[ -x "$WALK" ] || { fail "$WALK not built (make tests)"; exit 1; }

mkdir -p "$T/gen" "$T/arch" "$T/inst"
"$RTMGEN" "$T/gen" >/dev/null && "$RTMGEN" -p "$T/arch/x.pbo" >/dev/null &&
    "$RTMGEN" -I 100 "$T/inst" >/dev/null || { fail "rtmgen"; exit 1; }
TREES=("$T/gen" "$T/arch" "$T/arch/x.pbo" "$T/inst")
for d in corpus archives addons; do
    if [ -d "$SHARED/$d" ]; then
        TREES+=("$SHARED/$d")
    else
        skip "no ../shared" "the invariant over $SHARED/$d"
    fi
done
# "" is the default; the last one is a later mount of it
OPTIONS=("" gamepaths show_other configs=none show_other,rapified=raw timing=frames
         skeleton=none "")

for tree in "${TREES[@]}"; do
    before=$FAILS first=
    for o in "${OPTIONS[@]}"; do
        what="${tree#"$T"/} ${o:-(default)}"
        do_mount "$tree" "$M" ${o:+-o "$o"} || continue
        if "$WALK" ${o:+-a 4} "$M" >"$T/walk" 2>&1; then
            echo "$what: $(tail -2 "$T/walk" | tr '\n' ' ')"
        else
            fail "$what: $(sed "s|$M/||" "$T/walk" | head -6 | tr '\n' ';')"
        fi
        do_umount "$M"
        # the later mount shows what the first showed, names and bytes
        shown=$(grep '^shown: ' "$T/walk")
        if [ -z "$o" ] && [ -z "$first" ]; then
            first=$shown
        elif [ -z "$o" ] && [ "$shown" != "$first" ]; then
            fail "$what: a later mount (from the index) shows other names or bytes: $shown, first $first"
        fi
    done
    block_ok "$before" "${tree#"$T"/}: under every option, every listed name looks up as what it is listed as, and every file reads its stat size; a later mount shows the same bytes"
done
finish mount/invariant
