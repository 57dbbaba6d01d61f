#!/usr/bin/env bash
# bench_bvh.sh - the goals for BVH sources, printed as | measure |
# goal | measured | (not a pass/fail test: test_mocap_goals and
# tests/mount/bvh_blender.sh assert them):
#   - the round trip of every shared animation's anim.bvh read back, and
#     the two shared mocap clips retargeted onto ofp2 (knee and elbow
#     angles, motion, finite numbers, check.txt): test_mocap_goals' lines;
#   - `rtmcat cmu_01_01.bvh plain.rtm`, the whole process, warm page
#     cache: MB/s of BVH text, the median of RTMFS_BENCH_RUNS (5) runs.
NAME=bench-bvh
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
RUNS=${RTMFS_BENCH_RUNS:-5}
CLIP=$SHARED/bvh/cmu_01_01.bvh
if [ ! -f "$CLIP" ]; then
    echo "bench-bvh: no $CLIP: skipped"
    exit 0
fi
row() { printf "| %-52s | %-22s | %s |\n" "$1" "$2" "$3"; }
goals=$("$BUILD/tests/test_mocap_goals" 2>&1)
line() { printf '%s\n' "$goals" | sed -n "s/^# $1//p" | head -1; }
cat "$CLIP" >/dev/null
bytes=$(stat -c %s "$CLIP")
times=$(for _ in $(seq "$RUNS"); do timed "$RTMCAT" "$CLIP" plain.rtm; done | median)
echo "== BVH sources"
row measure goal measured
row "round trip: anim.bvh of the shared corpus read back" "137 of 137 within 1 mm" "$(line 'round trip: ')"
row "cmu_01_01.bvh onto ofp2" "angles within 5 deg, motion 2 %" "$(line 'cmu_01_01.bvh: [0-9]* frames; ')"
row "mixamo_freebvh.bvh onto ofp2" "angles within 5 deg, motion 2 %" "$(line 'mixamo_freebvh.bvh: [0-9]* frames; ')"
row "rtmcat cmu_01_01.bvh plain.rtm, whole process" ">= 20 MB/s" \
    "$(awk -v b="$bytes" -v t="$times" 'BEGIN { printf "%.1f MB/s (%d ms for %.2f MB)", b / 1e3 / t, t, b / 1e6 }')"
row "Blender's export of anim.bvh read back" "20 or more within 1 mm" "make check: tests/mount/bvh_blender.sh"
