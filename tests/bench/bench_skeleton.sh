#!/usr/bin/env bash
# bench_skeleton.sh - what the skeleton rule's third step (the skeleton a
# state's class plays a file with: rtmfs-views(7)) costs the walks of a
# first mount (a new index), over one mod of the whole install
# (bench_lib.sh's install_tree): cold `du -s` and `ls -lR` of
# RTMFS_BENCH_MOD (default @mod_00) and `grep -rli lefthand
# --include=bones.txt` of the whole install, each
#   - as the install is (its configs name no skeleton);
#   - with one more config, @skel/config.cpp, that gives CfgMovesMaleSdr
#     and CfgGesturesMale a skeletonName and CfgSkeletons that class (in a
#     $PBOPREFIX$ folder, where configs are read), so
#     that every state's file takes it (the worst case: every view of
#     every animation is of the configs' skeleton);
#   - and with RTMFS_BENCH_BEFORE (another build's rtmfs, e.g. the commit
#     before the step), both again.
# Medians of RTMFS_BENCH_RUNS (3) interleaved runs, rtmfs's CPU beside.
# Prints; asserts nothing.  The extra config is removed at the end.
NAME=bench-skeleton
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
CACHE=${RTMFS_BENCH_CACHE:-64M}
RUNS=${RTMFS_BENCH_RUNS:-3}
MOD=${RTMFS_BENCH_MOD:-@mod_00}
M=$T/mnt
need_fuse "skeleton-rule benchmark"
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
install_tree
SKEL=$TREE/@skel
trap 'rm -rf "$SKEL"; cleanup' EXIT

skeleton_config() {
    mkdir -p "$SKEL"
    echo skel >"$SKEL/\$PBOPREFIX\$"          # configs are read below a prefix
    cat >"$SKEL/config.cpp" <<'CFG'
class CfgSkeletons {
    class OFP2_ManSkeleton {
        skeletonBones[] = {"Pelvis", "", "Spine", "Pelvis", "Spine1", "Spine", "Spine2", "Spine1",
                           "Spine3", "Spine2", "neck", "Spine3", "head", "neck"};
    };
};
class CfgMovesMaleSdr { skeletonName = "OFP2_ManSkeleton"; };
class CfgGesturesMale { skeletonName = "OFP2_ManSkeleton"; };
CFG
}

builds=("now=$RTMFS")
[ -z "${RTMFS_BENCH_BEFORE:-}" ] || builds+=("before=$RTMFS_BENCH_BEFORE")
declare -A du lsr grp
for ((r = 1; r <= RUNS; r++)); do
    for b in "${builds[@]}"; do
        name=${b%%=*} RTMFS=${b#*=}
        for cfg in none skeleton; do
            rm -rf "$SKEL"
            [ $cfg = none ] || skeleton_config
            SUB=$MOD first_walk "$TREE" "" du -s
            du[$name.$cfg]+="$(awk '{print $1, $3}' <<<"$W");"
            SUB=$MOD first_walk "$TREE" "" ls -lR
            lsr[$name.$cfg]+="$(awk '{print $1, $3}' <<<"$W");"
            first_walk "$TREE" "" grep_bones
            grp[$name.$cfg]+="$(awk '{print $1, $3}' <<<"$W");"
        done
    done
done
rm -rf "$SKEL"

# med "t c;t c;...": the median wall time and the median CPU time.
med() {
    local w c
    w=$(tr ';' '\n' <<<"$1" | awk 'NF {print $1}' | median)
    c=$(tr ';' '\n' <<<"$1" | awk 'NF {print $2}' | median)
    echo "$w ms (CPU $c ms)"
}
echo "== skeleton rule, step 3: first-mount walks ($MOD; grep: the whole install), medians of $RUNS"
for b in "${builds[@]}"; do
    name=${b%%=*}
    for cfg in none skeleton; do
        printf '%-7s %-22s du -s %-24s ls -lR %-24s grep %s\n' "$name" \
            "$([ $cfg = none ] && echo "configs as generated" || echo "+ a skeletonName")" \
            "$(med "${du[$name.$cfg]}")" "$(med "${lsr[$name.$cfg]}")" "$(med "${grp[$name.$cfg]}")"
    done
done
