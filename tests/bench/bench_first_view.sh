#!/usr/bin/env bash
# bench_first_view.sh - the first view of an animation in a big install, as
# a new user meets it: the page cache dropped, a fresh index, the mount
# command run, and the `cat` of one header.txt issued as soon as that
# command returns, timed from the command's start (work moved to mount
# time counts).  header.txt needs the skeleton rule's third step, so the
# mount's table of config states (rtmfs-views(7), THE SKELETON RULE).
#
# Two installs of rtmgen -I's shape (RTMFS_BENCH_INSTALL animations,
# default 20000: 400 archives of 50 across 20 mods, 3-8 MB each), kept in
# RTMFS_BENCH_TREE.first-KIND (default /var/tmp/rtmfs-bench-install-N),
# generated once each:
#   - none: no archive holds a config (rtmgen -I N,none);
#   - cpp:  each archive holds a text config.cpp whose states play its 50
#           animations with skeletonName "OFP2_ManSkeleton" (-I N,cpp):
#           the header's skeleton line must name it.
# Beside them the native floor: the first 4 KiB of every archive of the
# tree read cold, 8 readers at a time.  Then a later mount's first view,
# cold, on the index the first mount left.  Medians of RTMFS_BENCH_RUNS
# (3); the RTMFS_STATS work counters of the last first mount (its view,
# then the states.txt lines its end makes for the index).  Prints;
# asserts nothing.
NAME=bench-first-view
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
RUNS=${RTMFS_BENCH_RUNS:-3}
N=${RTMFS_BENCH_INSTALL:-20000}
M=$T/mnt
need_fuse "first-view benchmark"
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

# first_tree KIND: the install of that kind, generated when missing; sets
# DIR, and VIEW, the header.txt read (the first animation, in name order,
# of mod 07's first archive, found once on a mount without configs).
first_tree() {
    DIR=${RTMFS_BENCH_TREE:-/var/tmp/rtmfs-bench-install-$N}.first-$1
    if [ ! -f "$DIR/.complete" ]; then
        rm -rf "$DIR"
        echo "generating the install ($N animations, configs: $1) in $DIR..."
        "${RTMGEN:-${BUILD:-build}/rtmgen}" -I "$N,$1" "$DIR" >"$T/summary"
        mv "$T/summary" "$DIR/.complete"
    fi
    if [ ! -s "$DIR/.first_view" ]; then
        fg_mount "$DIR" "$M" -o noindex,configs=none || exit 1
        local pbo
        pbo=$(cd "$M" && find @mod_07/addons -maxdepth 1 -name '*.pbo' | LC_ALL=C sort | head -1)
        (cd "$M" && find "$pbo" -type d -name '*.rtm' | LC_ALL=C sort | head -1) >"$DIR/.first_view"
        do_umount "$M"
    fi
    VIEW=$(cat "$DIR/.first_view")/header.txt
}

# native_floor: ms to read the first 4 KiB of every archive, cold, 8
# readers at a time (perl: no process a file).
native_floor() {
    drop
    local s; s=$(now)
    find "$DIR" -name '*.pbo' -print0 |
        xargs -0 -n 50 -P 8 perl -e 'for (@ARGV) { open(my $f, "<", $_) or next; sysread($f, my $b, 4096) }'
    ms "$s"
}

# view IX: ms from the mount command's start (the daemon: it returns once
# mounted) to the end of the cat of $VIEW, cold, with index IX; its
# header in $T/header, the mount's counters in $T/stats.
view() {
    local ix=$1 s t
    rm -f "$T/stats"
    mkdir -p "$M"
    MOUNTS+=("$M")
    drop
    s=$(now)
    RTMFS_STATS=$T/stats "$RTMFS" "$DIR" "$M" -o "index=$ix" 2>"$T/mount.err" ||
        { mount_failed "mount $DIR" "$T/mount.err"; exit 1; }
    cat "$M/$VIEW" >"$T/header" 2>&1 || true
    t=$(ms "$s")
    do_umount "$M"
    # the daemon writes its counters, then the index, as it exits
    for _ in $(seq 200); do pgrep -f -- " $M " >/dev/null || break; sleep 0.05; done
    echo "$t"
}

# counters: the work counters of the last mount, one line.
counters() {
    awk '$1 ~ /^(opened|reads|bytes_read|archive_tables|configs_read|configs_parsed|states_checked|states_lines):?$/ {
             sub(":", "", $1); printf "%s%s %s", sep, $1, $2; sep = ", " }' "$T/stats" 2>/dev/null
}

declare -A first later stats skel
floor=()
for ((r = 1; r <= RUNS; r++)); do
    for kind in none cpp; do
        first_tree $kind
        floor+=("$(native_floor)")
        ix=$T/ix.$kind.$r.sqlite
        first[$kind]+="$(view "$ix") "
        stats[$kind]=$(counters)
        skel[$kind]=$(grep -m1 '^skeleton' "$T/header" || echo "(no skeleton line)")
        later[$kind]+="$(view "$ix") "
    done
done

med() { tr ' ' '\n' <<<"$1" | awk 'NF' | median; }
fl=$(printf '%s\n' "${floor[@]}" | median)
echo "== the first header.txt of a big install ($N animations in 400 archives), cold,"
echo "   from the mount command's start; medians of $RUNS"
printf '%-36s %6s ms\n' "native floor (4 KiB of each archive)" "$fl"
for kind in none cpp; do
    f=$(med "${first[$kind]}") l=$(med "${later[$kind]}")
    label=$([ $kind = none ] && echo "no configs" || echo "config.cpp in each, a skeletonName")
    printf '%-36s %6s ms  %s of the floor  (goal: <= 100 ms or <= x1.5)\n' "$label" "$f" "$(ratio "$f" "$fl")"
    printf '%-36s %6s ms  %s of the floor\n' "  later mount, same index" "$l" "$(ratio "$l" "$fl")"
    echo "  first mount's work (its view, then what its end wrote to the index): ${stats[$kind]}"
    echo "  ${skel[$kind]}"
done
