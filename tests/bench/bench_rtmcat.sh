#!/usr/bin/env bash
# bench_rtmcat.sh - `rtmcat FILE plain.rtm` over every BMTR file of the
# shared corpus, one process a file as a script converting them would run
# it: megabytes (10^6 bytes) of source a second, process start included,
# against the goal of >= 35 MB/s (6.0 MB/s when rtmcat rendered every view
# to size the one asked).  Warm page cache: this times rtmcat's
# CPU, not the disk.  A pass over the files takes about 0.1 s, so one
# pass's figure moves by a tenth from run to run on a shared machine: a
# warm-up pass (page cache, rtmcat's own pages), then PASSES timed
# passes, and the median one is the figure.  Not a pass/fail test.
#   RTMCAT         the rtmcat to time (default $BUILD/rtmcat)
#   RTMFS_SHARED   where corpus/ is (default ../shared)
#   PASSES         timed passes, odd (default 5)
BUILD=${BUILD:-build}
RTMCAT=${RTMCAT:-$BUILD/rtmcat}
CORPUS=${RTMFS_SHARED:-../shared}/corpus
PASSES=${PASSES:-5}
if [ ! -d "$CORPUS" ]; then
    echo "bench-rtmcat: no corpus at $CORPUS: skipped"
    exit 0
fi
# The BMTR files, by their magic, not by their name.
mapfile -t files < <(find "$CORPUS" -type f -name '*.rtm' -print0 |
    xargs -0 grep -l --null -m1 -a '^BMTR' 2>/dev/null | tr '\0' '\n' | LC_ALL=C sort)
[ ${#files[@]} -gt 0 ] || { echo "bench-rtmcat: no BMTR file in $CORPUS: skipped"; exit 0; }
bytes=$(cat "${files[@]}" | wc -c)      # also warms the page cache

# one_pass: every file once; prints "NANOSECONDS FAILED".
one_pass() {
    local f failed=0 start
    start=$(date +%s%N)
    for f in "${files[@]}"; do
        "$RTMCAT" "$f" plain.rtm > /dev/null 2>&1 || failed=$((failed + 1))
    done
    echo "$(($(date +%s%N) - start)) $failed"
}

one_pass > /dev/null                    # the warm-up
for _ in $(seq "$PASSES"); do
    one_pass
done | sort -n | awk -v b="$bytes" -v n="${#files[@]}" -v k="$PASSES" '
    { ns[NR] = $1; if ($2 > f) f = $2 }
    END {
        med = ns[int((NR + 1) / 2)]
        mbs = med > 0 ? b / 1e6 / (med / 1e9) : 0
        printf "rtmcat FILE plain.rtm, %d BMTR corpus files (%.1f MB, %d failed): %.3f s, %.1f MB/s, the median of %d passes (%.3f to %.3f s) (goal >= 35 MB/s: %s)\n",
               n, b / 1e6, f, med / 1e9, mbs, k, ns[1] / 1e9, ns[NR] / 1e9, (mbs >= 35 ? "met" : "missed") }'
