#!/usr/bin/env bash
# bench_states.sh - what the configs cost, over
# the whole-install tree of bench_install.sh (rtmgen -I: 400 archives, each
# with a rapified config.bin naming its animations): the first cat of a
# states.txt on a first mount (every config read; goal < 2 s) and on a
# later one (the table from the persistent index; goal < 50 ms), each on a
# cold page cache, and the later one again on a warm page cache (goal
# < 50 ms: rtmfs's own time, the table's record decoded); the index's growth when the table is remembered; the
# first cat of missing.txt on a later mount; and, as the median of 3
# interleaved cold runs, grep -r over bones.txt (opens no states.txt; goal:
# within 5 % of -o configs=none) and ls -lR of one mod (stats every
# states.txt) with and without -o configs=none.  Prints; asserts nothing.
#   RTMFS_BENCH_INSTALL  animations in archives (default 20000: 400 archives)
#   RTMFS_BENCH_TREE     where the tree is kept (default /var/tmp/rtmfs-bench-install-N)
#   RTMFS_BENCH_LSR      the folder ls -lR walks (default @mod_00)
NAME=bench-states
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
LSR=${RTMFS_BENCH_LSR:-@mod_00}
M=$T/mnt IX=$T/states.sqlite
need_fuse "states.txt benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
bytes() { local n=0 f; for f in "$IX" "$IX-wal"; do [ ! -f "$f" ] || n=$((n + $(stat -c %s "$f"))); done; echo $n; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f %%", (a - b) * 100 / b; else print "-" }'; }

[ "$(id -u)" = 0 ] || echo "(not root: the page cache is not dropped; cold figures are warm ones)"
install_tree
archives=$(awk '$1 == "archives:" {print $2}' "$TREE/.complete")
cfgmb=$(awk '$1 == "config_bytes:" {printf "%.1f", $2 / 1e6}' "$TREE/.complete")

# An animation to ask: the first of the first mod's first archive, found
# through a mount that reads no config.
fg_mount "$TREE" "$M" -o index="$IX" || exit 1
A=$(find "$M/@mod_00/addons" -mindepth 1 -maxdepth 4 -name '*.rtm' -type d | LC_ALL=C sort | awk 'NR == 1')
A=${A#"$M"/}
do_umount "$M"
before=$(bytes)

fg_mount "$TREE" "$M" -o index="$IX" || exit 1
first=$(cold cat "$M/$A/states.txt")
do_umount "$M"
after=$(bytes)

fg_mount "$TREE" "$M" -o index="$IX" || exit 1
later=$(cold cat "$M/$A/states.txt")
lines=$(grep -rh ' config=' --include=states.txt "$M/${A%/*}" | wc -l)
do_umount "$M"
# the same on a warm page cache (the index's pages read by the mount
# before): what rtmfs itself spends, the table's record decoded and all
fg_mount "$TREE" "$M" -o index="$IX" || exit 1
warm=$(timed cat "$M/$A/states.txt")
do_umount "$M"
fg_mount "$TREE" "$M" -o index="$IX" || exit 1
missing=$(cold cat "$M/missing.txt")
nmissing=$(wc -l <"$M/missing.txt")
do_umount "$M"

# walk OPTS...: one cold grep and one cold ls -lR on a fresh mount with
# its own index, warmed by a mount before (both are later mounts).
walks() {
    local tag=$1; shift
    fg_mount "$TREE" "$M" -o index="$T/walk_$tag.sqlite" "$@" || exit 1
    echo "grep_$tag $(cold grep -rli lefthand --include=bones.txt "$M")" >> "$T/w.txt"
    echo "lsr_$tag $(cold ls -lR "$M/$LSR")" >> "$T/w.txt"
    do_umount "$M"
}
: > "$T/w.txt"
walks configs; walks none -o configs=none         # warm the two indexes
: > "$T/w.txt"
for _ in 1 2 3; do walks configs; walks none -o configs=none; done
med() { awk -v k="$1" '$1 == k {print $2}' "$T/w.txt" | median; }
gc=$(med grep_configs) gn=$(med grep_none) lc=$(med lsr_configs) ln=$(med lsr_none)

echo "configs over a whole install: $archives archives, $cfgmb MB of rapified config.bin"
printf '%-52s %10s  %s\n' "figure" "measured" "goal"
printf '%-52s %7s ms  %s\n' "first cat states.txt, first mount (cold)" "$first" "< 2000 ms"
printf '%-52s %7s ms  %s\n' "first cat states.txt, later mount (cold)" "$later" "< 50 ms"
printf '%-52s %7s ms  %s\n' "first cat states.txt, later mount (warm)" "$warm" "< 50 ms"
printf '%-52s %7s ms  %s\n' "first cat missing.txt, later mount (cold)" "$missing" "($nmissing lines)"
printf '%-52s %7s kB  %s\n' "index growth: the table remembered" "$(((after - before) / 1024))" \
    "($((before / 1024)) kB -> $((after / 1024)) kB; $lines state lines in ${A%/*})"
printf '%-52s %7s ms  %s\n' "grep -r bones.txt, median of 3 cold" "$gc" "configs=none $gn ms: $(pct "$gc" "$gn") (goal within 5 %)"
printf '%-52s %7s ms  %s\n' "ls -lR $LSR, median of 3 cold" "$lc" "configs=none $ln ms: $(pct "$lc" "$ln")"
