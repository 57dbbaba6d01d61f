#!/usr/bin/env bash
# fuzz.sh FUZZ_DIR BUILD SECONDS: runs every libFuzzer target for SECONDS,
# seeded with generated files (and ../shared/corpus when present), then
# prints the executions each target made and its rate (inputs a second:
# libFuzzer's count over its time, seeds read included).  FUZZ_TARGETS="tree"
# runs only those (fuzz_tree is the tree with its workers: fuzz_tree.h).
set -euo pipefail
dir=$1 build=$2 secs=$3
shared=${RTMFS_SHARED:-../shared}
seeds_rtm=$dir/seeds-rtm seeds_skel=$dir/seeds-skeleton seeds_pbo=$dir/seeds-pbo
seeds_config=$dir/seeds-config seeds_tree=$dir/seeds-tree seeds_mocap=$dir/seeds-mocap
seeds_gltf=$dir/seeds-gltf
mkdir -p "$seeds_rtm" "$seeds_skel" "$seeds_pbo" "$seeds_config" "$seeds_mocap" "$seeds_gltf" "$dir/corpus-rtm" \
         "$dir/corpus-skeleton" "$dir/corpus-pbo" "$dir/corpus-config" "$dir/corpus-gamepath"
"$build/tests/fuzz_seeds" "$seeds_rtm" "$seeds_skel" "$seeds_pbo" "$seeds_config" "$seeds_mocap" \
    "$seeds_gltf"
mkdir -p "$seeds_tree"
"$build/tests/fuzz_tree_seeds" "$seeds_tree"   # SOURCEs and scripts (fuzz_tree.h)
extra=()
if [ -d "$shared/corpus" ]; then
    extra=("$shared/corpus")   # read-only seeds: libFuzzer writes only to the first dir
else
    echo "fuzz: $shared/corpus not found; seeding with generated files only"
fi
status=0
config_extra=()
[ -d "$shared/configs" ] && config_extra=("$shared/configs")   # the real rapified files
for t in ${FUZZ_TARGETS:-rtm rtm_head skeleton pbo config gamepath tree mocap gltf}; do
    seeds=$dir/seeds-$t max_len=262144
    [ "$t" = gamepath ] && seeds=$dir/seeds-pbo     # archives, read for their prefix
    [ "$t" = rtm_head ] && seeds=$dir/seeds-rtm max_len=256    # every prefix of each
    [ "$t" = tree ] && max_len=4096     # a SOURCE and a script, not one file
    mkdir -p "$dir/corpus-$t"
    more=()
    [ "$t" = rtm ] || [ "$t" = rtm_head ] && more=("${extra[@]}")
    [ "$t" = config ] && more=("${config_extra[@]}")
    [ "$t" = mocap ] && [ -d "$shared/bvh" ] && more=("$shared/bvh")   # the real clips
    log=$dir/fuzz_$t.log
    if ! "$dir/fuzz_$t" -max_total_time="$secs" -max_len="$max_len" -rss_limit_mb=2048 \
            -artifact_prefix="$dir/" "$dir/corpus-$t" "$seeds" "${more[@]}" >"$log" 2>&1; then
        echo "fuzz_$t: FAILED, see $log"; tail -30 "$log"; status=1
    fi
    done_line=$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
    execs=$(awk '{print $2}' <<<"$done_line") took=$(awk '{print $5}' <<<"$done_line")
    rate=$(awk -v n="${execs:-0}" -v s="${took:-0}" 'BEGIN { if (s > 0) printf "%d", n / s; else print "?" }')
    echo "fuzz_$t: ${execs:-?} executions in ${took:-?}s: $rate inputs a second"
done
exit $status
