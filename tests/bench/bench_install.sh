#!/usr/bin/env bash
# bench_install.sh - the whole-install benchmark of `make bench`:
# rtmfs over a tree shaped like an Arma install (rtmgen -I: 20,000
# animations in 400 archives across 20 mods, plus 2,000 loose, the real
# files' mix), and over 200 copies of the shared corpus's files, against
# native copies of the views.  Cold means the page cache was dropped; "next
# mount" is a second mount of the same tree (what the persistent index is
# for).  Prints the goals table.  Not a pass/fail test.
#   RTMFS_BENCH_INSTALL  animations in archives (default 20000)
#   RTMFS_BENCH_TREE     where the generated tree is kept between runs
#                        (default /var/tmp/rtmfs-bench-install-N)
#   RTMFS_BENCH_CACHE    -o cache_size (default 64M)
NAME=bench-install
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
CACHE=${RTMFS_BENCH_CACHE:-64M}
M=$T/mnt
need_fuse "whole-install benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
install_tree

archives=$(awk '$1 == "archives:" {print $2}' "$TREE/.complete")
loose=$(awk '$1 == "loose:" {print $2}' "$TREE/.complete")

# mount_cold NAME [options]: drops the caches, mounts in the foreground,
# says how long.  Each run starts with empty indexes (in the new $T).
mount_cold() {
    local name=$1
    shift
    drop
    local s; s=$(now)
    fg_mount "$TREE" "$M" -o cache_size="$CACHE" "$@" || exit 1
    echo "$name $(ms "$s")" >> "$T/r.txt"
}

# A walk on a cold cache: its time, and rtmfs's disk bytes and CPU for it.
walk() {
    local name=$1; shift
    drop
    local r0 c0 s t
    r0=$(io read_bytes) c0=$(cpu_ms) s=$(now)
    "$@" >/dev/null 2>&1 || true
    t=$(ms "$s")
    echo "$name $t $(( $(io read_bytes) - r0 )) $(( $(cpu_ms) - c0 ))" >> "$T/r.txt"
}

: > "$T/r.txt"
peak=0
IX=$T/install.sqlite
for round in first next; do
    RTMFS_STATS=$T/stats_$round.txt mount_cold "mount_$round" -o index="$IX"
    walk "grep_$round" grep_bones "$M"
    hg=$(hwm)
    walk "du_$round" du -s "$M"
    h=$(hwm); [ "$h" -gt "$peak" ] && peak=$h
    echo "rss_$round $((hg / 1024)) $((h / 1024))" >> "$T/r.txt"
    if [ $round = first ]; then
        # a native copy of a sample's views (the first mod's first archive
        # and 1/20 of the loose files) for du's comparison
        mkdir -p "$T/native"
        a=$(find "$M/@mod_00/addons" -maxdepth 1 -name '*.pbo' | sort | head -1)
        cp -r "$a" "$T/native/"
        cp -r "$M/loose/mod_00" "$T/native/loose"
    fi
    do_umount "$M"
done
sample=$(( $(find "$T/native" -name '*.rtm' -type d | wc -l) ))
drop
du_native=$(timed du -s "$T/native")
total=$((N + loose))
du_scaled=$(awk -v t="$du_native" -v s="$sample" -v n="$total" 'BEGIN { printf "%d", s ? t * n / s : 0 }')

# 200 copies of the corpus's files, and a native copy of their views.
if corpus_copies "$T/c200"; then
    TREE_SAVE=$TREE TREE=$T/c200
    for round in first next; do
        mount_cold "c200_mount_$round" -o index="$T/c200.sqlite"
        walk "lsR_$round" ls -lR "$M"
        do_umount "$M"
    done
    drop
    lsr_native=$(timed ls -lR "$T/c200.native")
    TREE=$TREE_SAVE
else
    lsr_native=
    echo "(no ../shared: the 200-copies rows are left out)"
fi

get() { awk -v k="$1" -v f="$2" '$1 == k {print $f}' "$T/r.txt"; }
echo
echo "whole-install benchmark: $archives archives in 20 mods, $N animations in them," \
     "$loose loose; $(mb "$bytes") MB on disk; cache_size=$CACHE; $(nproc) CPUs"
[ -w /proc/sys/vm/drop_caches ] || echo "(not root: cold runs could not drop the page cache)"
printf "| %-58s | %-24s | %-10s |\n" measure result goal
printf "|%s|%s|%s|\n" "$(printf -- '-%.0s' {1..60})" "$(printf -- '-%.0s' {1..26})" "$(printf -- '-%.0s' {1..12})"
row() { printf "| %-58s | %-24s | %-10s |\n" "$1" "$2" "$3"; }
if [ -n "$lsr_native" ]; then
    row "cold ls -lR, 200 corpus copies, first mount (native $lsr_native ms)" \
        "$(get lsR_first 2) ms, $(ratio "$(get lsR_first 2)" "$lsr_native")" "<= x2"
    row "the same, next mount" "$(get lsR_next 2) ms, $(ratio "$(get lsR_next 2)" "$lsr_native")" "<= x1.2"
fi
row "mount of the whole-install tree" "$(get mount_first 2) ms (next $(get mount_next 2) ms)" "< 200 ms"
for round in first next; do
    row "cold grep -rli lefthand --include=bones.txt, $round mount" \
        "$(get grep_$round 2) ms; disk $(mb "$(get grep_$round 3)") MB, CPU $(get grep_$round 4) ms" \
        "$([ $round = first ] && echo '< 10 s' || echo '< 3 s')"
done
row "cold du -s, next mount (native sample scaled: $du_scaled ms)" \
    "$(get du_next 2) ms, $(ratio "$(get du_next 2)" "$du_scaled")" "<= x2"
row "peak RSS during the whole-install walks" "$((peak / 1024)) MiB" "<= $CACHE + 32 MiB"
echo "(peak RSS after grep, after du: first mount $(get rss_first 2), $(get rss_first 3) MiB;" \
     "next mount $(get rss_next 2), $(get rss_next 3) MiB)"
stat_of() { awk -v k="$2" '$1 == k {print $2}' "$T/stats_$1.txt" 2>/dev/null; }
echo "(next mount: $(stat_of next sizings) animations sized, $(stat_of next renders) views" \
     "rendered, $(stat_of next remembered) shapes from the index; first mount: $(stat_of first sizings) sized)"
echo "(RSS includes SQLite's page cache: at most 2 MiB for each of the index's two connections)"
echo "index after the walks: $(mb "$(stat -c %s "$IX")") MB for $((N + loose)) animations and $archives archives"
