#!/usr/bin/env bash
# bench_walks.sh - size walks at native pace: the goals table of walks
# that stat every file (du, ls -l) on a first mount (a new index) and on a
# later one (the index the first filled), against native trees of the same
# shape, and of the grep that must not pay for sizes.  Rows:
#   - cold `du -s` of one mod of the whole install (RTMFS_BENCH_MOD,
#     default @mod_00: 1,000 animations in 20 archives) against the same
#     mod's native same-shape tree (every folder and name, files empty);
#   - cold `ls -lR` of 200 copies of the corpus's files against a native
#     copy of their views;
#   - cold `grep -rli lefthand --include=bones.txt` of the whole install on
#     a first mount against the native same-shape tree of 2 mods, scaled;
#   - rtmfs's peak RSS during the install's walks, cache_size 64M.
# Each ratio is the median of RTMFS_BENCH_RUNS (3) interleaved runs,
# rtmfs's CPU time beside it; the RTMFS_STATS counters of the last run
# (animations sized, sized ahead) follow.  Not a pass/fail test.
#   RTMFS_BENCH_INSTALL, RTMFS_BENCH_TREE  the install tree (bench_lib.sh)
#   RTMFS_BENCH_CACHE    -o cache_size (default 64M)
#   RTMFS_BENCH_OPTS     more rtmfs options for every mount
NAME=bench-walks
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
CACHE=${RTMFS_BENCH_CACHE:-64M}
RUNS=${RTMFS_BENCH_RUNS:-3}
MOD=${RTMFS_BENCH_MOD:-@mod_00}
OPTS=${RTMFS_BENCH_OPTS:-}
M=$T/mnt
need_fuse "size-walks benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
install_tree
native_tree
C200=$T/c200
corpus_copies "$C200" || C200=

peak=0
: > "$T/r.txt"
# record KEY NATIVE_MS: the walk W (first_walk's) as a row "KEY ms
# read_bytes cpu_ms native_ms"; its peak RSS counts when it is the
# install's (du, grep).
record() {
    local key=$1 nat=$2 h
    read -r t rb cpu h <<< "$W"
    echo "$key $t $rb $cpu $nat" >> "$T/r.txt"
    case $key in du* | grep*) [ "$h" -gt "$peak" ] && peak=$h ;; esac
    return 0
}
for run in $(seq "$RUNS"); do
    echo "run $run: du -s $MOD..." >&2
    IX=$T/du.$run.sqlite SUB=$MOD first_walk "$TREE" "$OPTS" du -s
    W1=$W
    IX=$T/du.$run.sqlite SUB=$MOD first_walk "$TREE" "$OPTS" du -s
    W2=$W
    nat=$(native_walk du -s "$NATIVE/$MOD")
    W=$W1 record du_first "$nat"
    W=$W2 record du_later "$nat"
    if [ -n "$C200" ]; then
        echo "run $run: ls -lR of 200 corpus copies..." >&2
        IX=$T/ls.$run.sqlite first_walk "$C200" "$OPTS" ls -lR
        W1=$W
        IX=$T/ls.$run.sqlite first_walk "$C200" "$OPTS" ls -lR
        W2=$W
        nat=$(native_walk ls -lR "$C200.native")
        W=$W1 record lsR_first "$nat"
        W=$W2 record lsR_later "$nat"
    fi
    echo "run $run: grep of the whole install..." >&2
    RTMFS_STATS=$T/stats_grep.txt first_walk "$TREE" "$OPTS" grep_bones
    nat=$(native_walk grep_bones "$NATIVE")
    record grep_first "$(awk -v t="$nat" -v s="$scale" 'BEGIN { printf "%d", t * s }')"
done
# the counters of one more first-mount du, for the table's foot
RTMFS_STATS=$T/stats_du.txt SUB=$MOD first_walk "$TREE" "$OPTS" du -s

summary() {
    local k=$1
    printf "x%.2f (rtmfs %s ms, native %s ms; rtmfs CPU %s ms)" \
        "$(awk -v k="$k" '$1 == k && $5 > 0 { print $2 / $5 }' "$T/r.txt" | median)" \
        "$(awk -v k="$k" '$1 == k { print $2 }' "$T/r.txt" | median)" \
        "$(awk -v k="$k" '$1 == k { print $5 }' "$T/r.txt" | median)" \
        "$(awk -v k="$k" '$1 == k { print $4 }' "$T/r.txt" | median)"
}
stat_of() { awk -v k="$2" '$1 == k {print $2}' "$T/stats_$1.txt" 2>/dev/null; }

echo
echo "size walks: install $(mb "$bytes") MB ($anims_all animations), $MOD of it for du;" \
     "cache_size=$CACHE${OPTS:+, $OPTS}; medians of $RUNS interleaved runs;" \
     "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ -w /proc/sys/vm/drop_caches ] || echo "(not root: cold runs could not drop the page cache)"
row() { printf "| %-56s | %-8s | %s |\n" "$1" "$2" "$3"; }
row measure goal measured
row "$(printf -- '-%.0s' {1..56})" "--------" "--------"
row "first-mount du -s of $MOD vs native same shape" "<= x2" "$(summary du_first)"
[ -n "$C200" ] && row "first-mount cold ls -lR, 200 corpus copies, vs native" "<= x2" "$(summary lsR_first)"
row "later mount, du -s of $MOD" "<= x1.2" "$(summary du_later)"
[ -n "$C200" ] && row "later mount, ls -lR of the 200 copies" "<= x1.2" "$(summary lsR_later)"
row "first-mount grep -rli lefthand --include=bones.txt, all" "<= x1.2" "$(summary grep_first)"
row "peak RSS during the install's walks (du, grep)" "<= $((${CACHE%M} + 32)) MiB" "$((peak / 1024)) MiB"
[ -n "$C200" ] || echo "(no ../shared: the 200-copies rows are left out)"
echo "(a first-mount du: $(stat_of du sizings) animations sized, $(stat_of du ahead) of them" \
     "ahead; a first-mount grep: $(stat_of grep sizings) sized, $(stat_of grep ahead) ahead)"
echo "(raw runs: name ms read_bytes cpu_ms native_ms)"
cat "$T/r.txt"
