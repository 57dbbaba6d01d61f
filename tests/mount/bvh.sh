#!/usr/bin/env bash
# bvh.sh - BVH motion capture as an animation source through a real mount
# (rtm(5), BVH SOURCES): rtmgen -b's clips in every naming, loose and in an
# archive, any case of .bvh; each a folder of every view, header.txt
# saying format: bvh, its unit and how each joint was mapped; every stat
# size the bytes read; bmtr.rtm copied out reads back with rtmcat; a
# bvh.map beside the files overrides the mapping and, written while
# mounted, shows within a second; -o bvh_unit= and bvh_fps=; a file cut
# short is a folder of error.txt naming its line; the shared clips, when
# ../shared is there, retarget with no error in check.txt.
NAME=bvh
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "BVH mount tests"

mkdir -p "$S/mocap" "$T/gen"
"$RTMGEN" -b "$T/gen" >/dev/null || fail "rtmgen -b"
cp "$T/gen/"*.bvh "$S/mocap/"
mv "$S/mocap/poser.bvh" "$S/mocap/POSER.BVH"
"$RTMGEN" -a "$S/clips.pbo" "$T/gen/cmu_max.bvh" >/dev/null || fail "rtmgen -a"
head -c 2000 "$T/gen/mixamo.bvh" >"$S/mocap/cut.bvh"
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }

do_mount "$S" "$M" || exit 1
n=$(find "$M/mocap" -maxdepth 1 -name '*.bvh' -o -maxdepth 1 -name '*.BVH' | wc -l)
[ "$n" = 16 ] && [ -d "$M/mocap/POSER.BVH" ] && ok "every .bvh (any case) is an animation's folder" ||
    fail "$n folders: $(ls "$M/mocap")"
A=$M/mocap/mixamo.bvh
grep -qx 'format: bvh' "$A/header.txt" &&
    grep -qx 'bvh_unit: 0.01 m (cm, inferred from the rest pose'"'"'s height of 1.71 m)' "$A/header.txt" &&
    grep -qx 'bvh_map: mixamorig:LeftForeArm LeftForeArm (naming)' "$A/header.txt" &&
    ok "header.txt: format, unit inferred, each joint's mapping" || fail "header: $(head -20 "$A/header.txt")"
bad=0
for f in "$A"/*.* "$A"/frames/000.csv "$A"/joints/000.csv; do exact "$f" || { bad=1; fail "$f: size"; }; done
[ $bad = 0 ] && ok "every view of a BVH: stat size = bytes read"
grep -q '^error' "$A/check.txt" && fail "check.txt: $(grep '^error' "$A/check.txt" | head -3)" ||
    ok "check.txt: no error in the retargeted clip"
cp "$A/bmtr.rtm" "$T/out.rtm"
"$RTMCAT" "$T/out.rtm" header.txt | grep -qx 'format: bmtr' &&
    [ "$("$RTMCAT" "$T/out.rtm" header.txt | awk '/^frames:/ {print $2}')" = 40 ] &&
    ok "bmtr.rtm copied out: rtmcat reads it back, 40 frames" || fail "out.rtm: $("$RTMCAT" "$T/out.rtm" header.txt 2>&1 | head -3)"
cmp -s "$A/plain.rtm" <("$RTMCAT" "$S/mocap/mixamo.bvh" plain.rtm) &&
    ok "rtmcat FILE.bvh plain.rtm: the mount's bytes" || fail "rtmcat plain.rtm differs"
grep -qx 'bvh_naming: cmu-max' "$M/clips.pbo/gen/cmu_max.bvh/header.txt" &&
    ok "a BVH in an archive; CMU's 3ds Max naming recognised" || fail "archive: $(ls "$M/clips.pbo" 2>&1)"
grep -qx 'bvh_unit: 0.0254 m (in, inferred .*' "$M/mocap/POSER.BVH/header.txt" 2>/dev/null ||
    grep -q '^bvh_unit: 0.0254 m (in, ' "$M/mocap/POSER.BVH/header.txt" &&
    ok "Poser's clip in inches" || fail "poser: $(grep bvh_ "$M/mocap/POSER.BVH/header.txt")"
[ "$(ls "$M/mocap/cut.bvh")" = error.txt ] && grep -q 'line [0-9]*' "$M/mocap/cut.bvh/error.txt" &&
    ok "a BVH cut short: error.txt names the line ($(cat "$M/mocap/cut.bvh/error.txt"))" ||
    fail "cut: $(ls "$M/mocap/cut.bvh")"
grep -rl LeftForeArm --include=bones.txt "$M/mocap" | grep -q mixamo.bvh &&
    ok "grep -r finds the bones of a BVH's bones.txt" || fail "grep -r"

# bvh.map written while mounted
printf '# the left arm is left out\nmixamorig:LeftArm -\n' >"$S/mocap/bvh.map"
mapped() { grep -qx 'bvh_map: mixamorig:LeftArm - (map file)' "$A/header.txt" && exact "$A/header.txt"; }
within_1s mapped && ok "bvh.map written while mounted: its line shows within 1 s" ||
    fail "map: $(grep LeftArm "$A/header.txt")"
printf 'nosuch Pelvis\n' >"$S/mocap/bvh.map"
badmap() { [ "$(ls "$A")" = error.txt ] && grep -q "bvh.map line 1: no joint 'nosuch'" "$A/error.txt"; }
within_1s badmap && ok "a bad bvh.map: error.txt says which line" || fail "bad map: $(ls "$A")"
rm "$S/mocap/bvh.map"
gone() { grep -qx 'bvh_map: mixamorig:LeftArm LeftArm (naming)' "$A/header.txt"; }
within_1s gone && ok "bvh.map removed: the naming again" || fail "removed: $(ls "$A")"
do_umount "$M"

do_mount "$S" "$M" -o bvh_unit=m,bvh_fps=10 || exit 1
grep -qx 'bvh_unit: 1 m (set)' "$A/header.txt" && grep -qx 'frames: 14' "$A/header.txt" &&
    ok "-o bvh_unit=m,bvh_fps=10: the unit set, 14 frames" || fail "options: $(grep -e bvh_unit -e ^frames "$A/header.txt")"
do_umount "$M"

if [ -f "$SHARED/bvh/cmu_01_01.bvh" ]; then
    mkdir -p "$T/shared"
    cp "$SHARED/bvh/"*.bvh "$T/shared/"
    do_mount "$T/shared" "$M" || exit 1
    for c in cmu_01_01 mixamo_freebvh; do
        H=$M/$c.bvh
        grep -q '^format: bvh' "$H/header.txt" && ! grep -q '^error' "$H/check.txt" && exact "$H/preview.svg" &&
            ok "$c: retargeted onto ofp2, no error in check.txt ($(grep bvh_unit "$H/header.txt"))" ||
            fail "$c: $(head -3 "$H/header.txt"; grep '^error' "$H/check.txt" | head -3)"
    done
    do_umount "$M"
else
    skip_or_fail "no ../shared" "the shared BVH clips"
fi
finish mount/bvh
