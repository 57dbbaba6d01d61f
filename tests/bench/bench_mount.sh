#!/usr/bin/env bash
# bench_mount.sh - times rtmfs on a generated tree against a native copy of
# the rendered tree.  Not a pass/fail test: it prints
# times, ratios (mount / native) and rtmfs's peak RSS.
#   RTMFS_BENCH_N      number of RTM files (default 2000)
#   RTMFS_BENCH_CACHE  -o cache_size for the mount (default 64M, well below
#                      the rendered tree, so the RSS bound is exercised)
NAME=bench
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
N=${RTMFS_BENCH_N:-2000}
CACHE=${RTMFS_BENCH_CACHE:-64M}
M=$T/mnt
need_fuse "mount benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

# Mounts in the foreground (so that RTMFS_PID is rtmfs's) and appends the
# time it took until the mount appeared to $T/fuse.txt as "NAME ms".
bench_mount() {
    drop
    local s; s=$(now)
    fg_mount "$T/src" "$M" -o cache_size="$CACHE" || exit 1
    echo "$1 $(ms "$s")" >> "$T/fuse.txt"
}

bench_umount() {
    awk '$1 == "VmHWM:" {print $2}' "/proc/$RTMFS_PID/status" > "$T/hwm.$1"
    do_umount "$M"
}

cat_all() { find "$1" -type f -print0 | xargs -0 cat; }

# One round of the operations on a directory; prints "name ms" lines.
run_ops() {
    local d=$1 mountfirst=${2:-}
    echo "grep_cold $(timed grep_bones "$d")"
    echo "grep_warm $(timed grep_bones "$d")"
    echo "lsR_cold $(timed ls -lR "$d")"
    echo "lsR_warm $(timed ls -lR "$d")"
    if [ -n "$mountfirst" ]; then bench_umount 1; bench_mount remount; else drop; fi
    echo "cat_cold $(timed cat_all "$d")"
    echo "cat_warm $(timed cat_all "$d")"
}

echo "generating $N files..."
"$RTMGEN" -t "$N" "$T/src" >/dev/null
bench_mount mount
run_ops "$M" remount >> "$T/fuse.txt"
echo "copying the rendered tree to a native directory..."
cp -r "$M" "$T/native"
bench_umount 2
drop
run_ops "$T/native" > "$T/native.txt"

rendered=$(du -sm "$T/native" | cut -f1)
echo
echo "rtmfs mount benchmark: $N files, $(find "$T/native" -type f | wc -l) views," \
     "${rendered} MiB rendered, cache_size=$CACHE, $(nproc) CPUs"
[ -w /proc/sys/vm/drop_caches ] || echo "(not root: cold runs could not drop the page cache)"
printf "%-10s %10s %10s %8s\n" operation "rtmfs ms" "native ms" ratio
while read -r op v; do
    nat=$(awk -v o="$op" '$1 == o {print $2}' "$T/native.txt")
    [ -z "$nat" ] && { printf "%-10s %10s\n" "$op" "$v"; continue; }
    ratio=$(awk -v a="$v" -v b="$nat" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    printf "%-10s %10s %10s %8s\n" "$op" "$v" "$nat" "$ratio"
done < "$T/fuse.txt"
h1=$(cat "$T/hwm.1") h2=$(cat "$T/hwm.2")
echo "peak RSS (VmHWM): $((h1 / 1024)) MiB after grep/ls, $((h2 / 1024)) MiB after cat of everything"
echo "goals: mount < 200 ms; warm <= 1.5x native; cold grep < 2000 ms; RSS < cache_size + 32 MiB"
