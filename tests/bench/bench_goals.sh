#!/usr/bin/env bash
# bench_goals.sh - the goals table of a first mount at native pace.
# Prints | measure | goal | measured | for
#   - the whole install (rtmgen -I, the tree bench_install.sh keeps), first
#     mount, cold `grep -rli lefthand --include=bones.txt`, against a native
#     tree of the same shape (every folder and file name, bones.txt with its
#     content) built from 2 of the 20 mods and its time scaled to the
#     install; the median ratio of 3 interleaved runs, with rtmfs's CPU time
#     and the bytes it read from disk (/proc/PID/io read_bytes) beside it;
#   - those bytes as a share of the install's;
#   - cold `ls -lR` over 200 copies of the corpus's files, first mount,
#     against a native copy of their views (median of 3 interleaved runs);
#   - `rtmcat FILE plain.rtm` over the corpus's BMTR files (bench_rtmcat.sh);
#   - peak RSS during the whole-install walks against cache_size + 32 MiB.
# Each install row is measured with the default options and with
# -o configs=none.  Cold: page caches dropped (root).  The machine may be
# shared: compare ratios within one run; CPU time and bytes read do not
# depend on its load.  Not a pass/fail test.
#   RTMFS_BENCH_INSTALL  animations in archives (default 20000)
#   RTMFS_BENCH_TREE     the install tree (default /var/tmp/rtmfs-bench-install-N)
#   RTMFS_BENCH_CACHE    -o cache_size (default 64M)
#   RTMFS_BENCH_RUNS     interleaved runs (default 3)
NAME=bench-goals
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
CACHE=${RTMFS_BENCH_CACHE:-64M}
RUNS=${RTMFS_BENCH_RUNS:-3}
M=$T/mnt
need_fuse "goals benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
install_tree

native_tree

# 200 copies of the corpus's files, and a native copy of their views.
C200=$T/c200
corpus_copies "$C200" || C200=
peak=0
: > "$T/r.txt"
for opts in "" "-o configs=none"; do
    key=${opts:+none}; key=${key:-default}
    for run in $(seq "$RUNS"); do
        echo "run $run ($key): install grep..." >&2
        first_walk "$TREE" "$opts" grep_bones
        read -r t rb cpu h <<< "$W"
        nat=$(native_walk grep_bones "$NATIVE")
        nat_scaled=$(awk -v t="$nat" -v s="$scale" 'BEGIN { printf "%d", t * s }')
        echo "grep_$key $t $rb $cpu $nat_scaled" >> "$T/r.txt"
        [ "$h" -gt "$peak" ] && peak=$h
        if [ "$run" = 1 ]; then             # the other whole-install walk
            first_walk "$TREE" "$opts" du -s
            read -r _ _ _ h <<< "$W"
            [ "$h" -gt "$peak" ] && peak=$h
        fi
        if [ -n "$C200" ] && [ "$key" = default ]; then
            first_walk "$C200" "$opts" ls -lR
            read -r t rb cpu _ <<< "$W"
            nat=$(native_walk ls -lR "$C200.native")
            echo "lsR $t $rb $cpu $nat" >> "$T/r.txt"
        fi
    done
done

# "median ratio, median ms, median native ms, median MB read, median CPU ms"
summary() {
    local k=$1
    local ratio
    ratio=$(awk -v k="$k" '$1 == k && $5 > 0 { print $2 / $5 }' "$T/r.txt" | median)
    printf "x%.2f (median of %s; rtmfs %s ms, native %s ms; rtmfs read %s MB, CPU %s ms)" "$ratio" \
        "$(awk -v k="$k" '$1 == k' "$T/r.txt" | wc -l)" \
        "$(awk -v k="$k" '$1 == k { print $2 }' "$T/r.txt" | median)" \
        "$(awk -v k="$k" '$1 == k { print $5 }' "$T/r.txt" | median)" \
        "$(mb "$(awk -v k="$k" '$1 == k { print $3 }' "$T/r.txt" | median)")" \
        "$(awk -v k="$k" '$1 == k { print $4 }' "$T/r.txt" | median)"
}
share() {
    awk -v k="$1" '$1 == k { print $3 }' "$T/r.txt" | median |
        awk -v all="$bytes" '{ printf "%.1f %% (%.0f of %.0f MB)", 100 * $1 / all, $1 / 1e6, all / 1e6 }'
}
rtmcat_line=$(BUILD=$BUILD bash "$(dirname "$0")/bench_rtmcat.sh" 2>&1 | tail -1)
rtmcat_mbs=$(printf '%s\n' "$rtmcat_line" | grep -Eo '[0-9.]+ MB/s' | head -1)

echo
echo "first-mount goals: install $(mb "$bytes") MB ($anims_all animations; native sample" \
     "$anims_native, scaled x$scale), cache_size=$CACHE, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ -w /proc/sys/vm/drop_caches ] || echo "(not root: cold runs could not drop the page cache)"
row() { printf "| %-62s | %-10s | %s |\n" "$1" "$2" "$3"; }
row measure goal measured
row "$(printf -- '-%.0s' {1..62})" "----------" "--------"
for key in default none; do
    o=
    [ $key = none ] && o=", -o configs=none"
    row "whole install, first mount, cold grep vs native same shape$o" "<= x1.2" "$(summary grep_$key)"
    row "bytes rtmfs reads for it, of the install$o" "<= 25 %" "$(share grep_$key)"
done
[ -n "$C200" ] && row "cold ls -lR, 200 corpus copies, first mount, vs native views" "<= x2" "$(summary lsR)"
row "rtmcat FILE plain.rtm over the BMTR corpus, whole process" ">= 35 MB/s" "${rtmcat_mbs:-$rtmcat_line}"
row "peak RSS during the whole-install walks (grep, du -s)" "<= $CACHE + 32 MiB" "$((peak / 1024)) MiB"
echo "(raw runs: name ms read_bytes cpu_ms native_ms)"
cat "$T/r.txt"
