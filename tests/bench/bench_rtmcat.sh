#!/usr/bin/env bash
# bench_rtmcat.sh - `rtmcat FILE plain.rtm` over every BMTR file of the
# shared corpus, one process a file as a script converting them would run
# it: megabytes (10^6 bytes) of source a second, process start included,
# against the goal of >= 35 MB/s (6.0 MB/s when rtmcat rendered every view
# to size the one asked).  Warm page cache: this times rtmcat's
# CPU, not the disk.  Not a pass/fail test.
#   RTMCAT         the rtmcat to time (default $BUILD/rtmcat)
#   RTMFS_SHARED   where corpus/ is (default ../shared)
BUILD=${BUILD:-build}
RTMCAT=${RTMCAT:-$BUILD/rtmcat}
CORPUS=${RTMFS_SHARED:-../shared}/corpus
if [ ! -d "$CORPUS" ]; then
    echo "bench-rtmcat: no corpus at $CORPUS: skipped"
    exit 0
fi
# The BMTR files, by their magic, not by their name.
mapfile -t files < <(find "$CORPUS" -type f -name '*.rtm' -print0 |
    xargs -0 grep -l --null -m1 -a '^BMTR' 2>/dev/null | tr '\0' '\n' | LC_ALL=C sort)
[ ${#files[@]} -gt 0 ] || { echo "bench-rtmcat: no BMTR file in $CORPUS: skipped"; exit 0; }
bytes=$(cat "${files[@]}" | wc -c)      # also warms the page cache
start=$(date +%s%N)
failed=0
for f in "${files[@]}"; do
    "$RTMCAT" "$f" plain.rtm > /dev/null 2>&1 || failed=$((failed + 1))
done
ns=$(($(date +%s%N) - start))
awk -v b="$bytes" -v ns="$ns" -v n="${#files[@]}" -v f="$failed" 'BEGIN {
    mbs = ns > 0 ? b / 1e6 / (ns / 1e9) : 0
    printf "rtmcat FILE plain.rtm, %d BMTR corpus files (%.1f MB, %d failed): %.2f s, %.1f MB/s (goal >= 35 MB/s: %s)\n",
           n, b / 1e6, f, ns / 1e9, mbs, (mbs >= 35 ? "met" : "missed") }'
