#!/usr/bin/env bash
# fuzz.sh FUZZ_DIR BUILD SECONDS: runs every libFuzzer target for SECONDS,
# seeded with generated files (and ../shared/corpus when present), then
# prints the executions each target made.
set -euo pipefail
dir=$1 build=$2 secs=$3
shared=${RTMFS_SHARED:-../shared}
seeds_rtm=$dir/seeds-rtm seeds_skel=$dir/seeds-skeleton seeds_pbo=$dir/seeds-pbo
seeds_config=$dir/seeds-config
mkdir -p "$seeds_rtm" "$seeds_skel" "$seeds_pbo" "$seeds_config" "$dir/corpus-rtm" \
         "$dir/corpus-skeleton" "$dir/corpus-pbo" "$dir/corpus-config" "$dir/corpus-gamepath"
"$build/tests/fuzz_seeds" "$seeds_rtm" "$seeds_skel" "$seeds_pbo" "$seeds_config"
extra=()
if [ -d "$shared/corpus" ]; then
    extra=("$shared/corpus")   # read-only seeds: libFuzzer writes only to the first dir
else
    echo "fuzz: $shared/corpus not found; seeding with generated files only"
fi
status=0
config_extra=()
[ -d "$shared/configs" ] && config_extra=("$shared/configs")   # the real rapified files
for t in rtm skeleton pbo config gamepath; do
    seeds=$dir/seeds-$t
    [ "$t" = gamepath ] && seeds=$dir/seeds-pbo     # archives, read for their prefix
    more=()
    [ "$t" = rtm ] && more=("${extra[@]}")
    [ "$t" = config ] && more=("${config_extra[@]}")
    log=$dir/fuzz_$t.log
    if ! "$dir/fuzz_$t" -max_total_time="$secs" -max_len=262144 -rss_limit_mb=2048 \
            -artifact_prefix="$dir/" "$dir/corpus-$t" "$seeds" "${more[@]}" >"$log" 2>&1; then
        echo "fuzz_$t: FAILED, see $log"; tail -30 "$log"; status=1
    fi
    execs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || true)
    echo "fuzz_$t: ${execs:-?} executions in ${secs}s"
done
exit $status
