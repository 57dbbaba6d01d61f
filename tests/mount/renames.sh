#!/usr/bin/env bash
# renames.sh - sizes exact through every change, and the mount's bytes
# rtmcat's: while walkers (find | xargs cat, du) run, folders holding
# animations beside a model.cfg or a BVH's bvh.map are renamed, a model.cfg
# renamed away and back, a bvh.map replaced, an archive replaced by
# rename(2) and another rewritten in place.  After SOURCE has been still
# for 1 s, every file's stat size is the bytes a read returns
# (tests/lib/walk_check.c), and every view of every animation at the top of
# its folder is what rtmcat -C SOURCE prints for it, paths included.  Then
# folders renamed between two mounts sharing one index (-o index=FILE):
# the second mount's sizes are the bytes read.  Fixtures from rtmgen.
NAME=renames
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt WALK=$BUILD/tests/walk_check
export LC_ALL=C

need_fuse "renames while walking"
[ -x "$WALK" ] || { fail "$WALK not built"; exit 1; }
mkdir -p "$S/set1" "$S/mocap" "$S/deep/inner" "$S/mods" "$T/gen"
"$RTMGEN" "$S/set1" >/dev/null && "$RTMGEN" -b "$T/gen/bvh" >/dev/null &&
    "$RTMGEN" -p "$S/mods/a.pbo" >/dev/null || { fail "rtmgen"; exit 1; }
rm -f "$S/set1/broken.rtm"
cp "$T/gen/bvh/mixamo.bvh" "$T/gen/bvh/cmu_mb.bvh" "$S/mocap/"
printf '# the left arm is left out\nmixamorig:LeftArm -\n' >"$S/mocap/bvh.map"
cat >"$S/set1/model.cfg" <<'EOF'
class CfgSkeletons {
    class Base { skeletonInherit = ""; skeletonBones[] = { "pelvis", "", "spine", "pelvis" }; };
    class Man { skeletonInherit = "Base"; skeletonBones[] = { "spine1", "spine", "spine2", "spine1" }; };
};
EOF
cp "$S/set1/model.cfg" "$S/set1/walk.rtm" "$S/set1/run_v5.rtm" "$S/deep/inner/"
# archives: b.pbo holds a model.cfg beside its animations (ARCHIVE/set1/)
"$RTMGEN" -a "$S/mods/b.pbo" "$S/set1/wave_v3.rtm" "$S/set1/model.cfg" >/dev/null &&
    "$RTMGEN" -a "$T/gen/new_a.pbo" "$S/set1/reload_v4.rtm" "$S/set1/model.cfg" >/dev/null &&
    "$RTMGEN" -a "$T/gen/new_b.pbo" "$S/set1/walk.rtm" "$S/set1/idle_v5_raw.rtm" >/dev/null ||
    { fail "rtmgen -a"; exit 1; }

# What rtmcat -C SOURCE prints for view $2 of file $1 (a path from
# SOURCE, run there): error.txt is its message, without "rtmcat: ".
rtmcat_view() {
    if [ "$2" = error.txt ]; then
        (cd "$S" && "$RTMCAT" -C "$S" "$1" 2>&1 >/dev/null | sed 's/^rtmcat: //')
    else
        (cd "$S" && "$RTMCAT" -C "$S" "$1" "$2")
    fi
}

# Every view at the top of each animation's folder under mount point $1
# is rtmcat -C SOURCE's for the same file (frames/ and the like are
# sized by walk_check; their bytes are the renderer's, not the paths').
same_as_rtmcat() {
    local mnt=$1 n=0 bad=0 dir rel v
    while IFS= read -r dir; do
        rel=${dir#"$mnt"/}
        for v in "$dir"/*; do
            [ -f "$v" ] || continue
            n=$((n + 1))
            cmp -s "$v" <(rtmcat_view "$rel" "${v##*/}") && continue
            bad=$((bad + 1))
            [ $bad -le 3 ] && echo "  differs from rtmcat -C SOURCE: $rel/${v##*/}: $(diff <(rtmcat_view "$rel" "${v##*/}") "$v" | head -4 | tr '\n' ' ')"
        done
    done < <(find "$mnt" -type d \( -name '*.rtm' -o -name '*.bvh' \) -prune -print)
    [ $bad = 0 ] && [ $n -gt 50 ] && ok "$2: $n views, each rtmcat -C SOURCE's" ||
        fail "$2: $bad of $n views differ from rtmcat -C SOURCE"
}

# walk_check over the mount: every size the bytes read.
exact_sizes() {
    if "$WALK" -s 3 "$M" >"$T/walk.out" 2>&1; then
        ok "$1: every stat size is the bytes read ($(grep '^shown' "$T/walk.out" | cut -d, -f1-2))"
    else
        fail "$1: $(head -5 "$T/walk.out" | tr '\n' ' ')"
    fi
}

skeleton_of() { grep '^skeleton:' "$M/$1/header.txt"; }

# ---- one mount: changes while walkers run ----
do_mount "$S" "$M" || exit 1
walk_cat() { while :; do find "$M" -type f 2>/dev/null | head -600 | xargs -d '\n' cat >/dev/null 2>&1; done; }
walk_du() { while :; do du -s "$M" >/dev/null 2>&1; done; }
walk_cat & PIDS+=($!)
walk_du & PIDS+=($!)
sleep 0.5
mv "$S/set1" "$S/set1_renamed_to_a_longer_name"; sleep 0.3
mv "$S/set1_renamed_to_a_longer_name/model.cfg" "$S/set1_renamed_to_a_longer_name/model.cfg.off"; sleep 0.2
mv "$S/set1_renamed_to_a_longer_name/model.cfg.off" "$S/set1_renamed_to_a_longer_name/model.cfg"; sleep 0.2
mv "$S/mocap" "$S/motion_capture"; sleep 0.2
printf 'mixamorig:RightArm -\n' >"$T/gen/bvh.map" && mv "$T/gen/bvh.map" "$S/motion_capture/bvh.map"; sleep 0.2
mv "$S/deep" "$S/deeper_still"; sleep 0.2
cp "$T/gen/new_a.pbo" "$S/mods/.a.tmp" && mv "$S/mods/.a.tmp" "$S/mods/a.pbo"; sleep 0.2   # rename(2)
cat "$T/gen/new_b.pbo" >"$S/mods/b.pbo"; sleep 0.2                                       # in place
mv "$S/mods" "$S/mods_moved"; sleep 0.3
kill "${PIDS[@]}" 2>/dev/null
wait "${PIDS[@]}" 2>/dev/null
PIDS=()
sleep 1                                 # SOURCE still for 1 s

exact_sizes "after renames while walking"
same_as_rtmcat "$M" "after renames while walking"
before=$FAILS
[ "$(skeleton_of set1_renamed_to_a_longer_name/walk.rtm)" = "$(cd "$S/set1_renamed_to_a_longer_name" && "$RTMCAT" walk.rtm header.txt | grep '^skeleton:')" ] ||
    fail "set1's skeleton: $(skeleton_of set1_renamed_to_a_longer_name/walk.rtm)"
skeleton_of set1_renamed_to_a_longer_name/walk.rtm | grep -q '^skeleton: Man from model.cfg (' ||
    fail "set1: $(skeleton_of set1_renamed_to_a_longer_name/walk.rtm)"
skeleton_of mods_moved/a.pbo/set1/reload_v4.rtm | grep -q '^skeleton: Man from model.cfg (' ||
    fail "a.pbo replaced: $(skeleton_of mods_moved/a.pbo/set1/reload_v4.rtm)"
[ -d "$M/mods_moved/b.pbo/set1/idle_v5_raw.rtm" ] || fail "b.pbo rewritten: $(ls "$M/mods_moved/b.pbo/set1")"
grep -qx 'bvh_map: mixamorig:RightArm - (map file)' "$M/motion_capture/mixamo.bvh/header.txt" ||
    fail "bvh.map replaced: $(grep 'Arm ' "$M/motion_capture/mixamo.bvh/header.txt" | head -2)"
block_ok "$before" "the skeleton line names model.cfg beside the file, the new archives and map show"
do_umount "$M"

# ---- folders renamed between two mounts that share an index ----
IX=$T/shared-index.sqlite
do_mount "$S" "$M" -o "index=$IX" && {
    "$WALK" -s 3 "$M" >/dev/null 2>&1     # sizes remembered for every version
    do_umount "$M"
}
mv "$S/set1_renamed_to_a_longer_name" "$S/s"
mv "$S/motion_capture" "$S/a_motion_capture_folder"
mv "$S/deeper_still/inner" "$S/deeper_still/the_inner_folder"
mv "$S/mods_moved" "$S/m"
do_mount "$S" "$M" -o "index=$IX" && {
    exact_sizes "renamed between two mounts sharing an index"
    same_as_rtmcat "$M" "renamed between two mounts sharing an index"
    do_umount "$M"
}

finish renames.sh
