#!/usr/bin/env bash
# bench_gamepaths.sh - -o gamepaths over the whole-install tree:
# the first `ls` (names only) of the game's root on a first mount (empty
# index: every archive's header properties are read, not its table) and on
# a later mount (the index has every prefix), page caches dropped; then find, grep -r and ls -lR, each
# on a fresh mount with cold caches, over -o gamepaths beside the normal
# mount.  Not a pass/fail test: it prints times and ratios.
#   RTMFS_BENCH_INSTALL  animations in archives (default 20000)
#   RTMFS_BENCH_TREE     the tree (default bench_install.sh's; written by
#                        rtmgen -I when missing)
#   RTMFS_BENCH_WALKS    0: the root's ls alone, no walks (default 1)
NAME=bench-gamepaths
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
M=$T/mnt
need_fuse "game paths benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
find_names() { find "$1" -name '*.rtm'; }

install_tree

# The root's first ls, first and later mount, each a fresh process.
IX=$T/index.sqlite
for round in first later; do
    drop
    fg_mount "$TREE" "$M" -o gamepaths,index="$IX" || exit 1
    echo "ls_$round $(timed ls "$M") $(ls "$M" | wc -l)" >> "$T/r"
    do_umount "$M"
done

drop
echo "ls_local $(timed ls "$TREE")" >> "$T/r"     # what a cold ls costs by itself

# walk NAME OPTS CMD...: a fresh mount with OPTS, cold caches, CMD timed.
walk() {
    local name=$1 opts=$2
    shift 2
    drop
    fg_mount "$TREE" "$M" -o noindex"$opts" || exit 1
    echo "$name $(timed "$@" "$M")" >> "$T/r"
    do_umount "$M"
}
[ "${RTMFS_BENCH_WALKS:-1}" = 0 ] || for cmd in find_names grep_bones "ls -lR"; do
    key=${cmd%% *}
    walk "${key}_normal" "" $cmd
    walk "${key}_game" ",gamepaths" $cmd
done

get() { awk -v k="$1" -v f="${2:-2}" '$1 == k {print $f}' "$T/r"; }
echo
echo "-o gamepaths over the whole-install tree ($TREE): $(grep -c . <(find "$TREE" -name '*.pbo')) archives; $(nproc) CPUs"
[ -w /proc/sys/vm/drop_caches ] || echo "(not root: cold runs could not drop the page cache)"
row() { printf "| %-52s | %-28s | %-8s |\n" "$1" "$2" "$3"; }
row measure result goal
row "cold ls of the game's root, first mount (no index)" "$(get ls_first) ms ($(get ls_first 3) names)" "< 2 s"
row "cold ls of the game's root, later mount (index)" "$(get ls_later) ms" "< 50 ms"
row "(cold ls of SOURCE's own folder, for scale)" "$(get ls_local) ms" "-"
[ "${RTMFS_BENCH_WALKS:-1}" = 0 ] || for k in find_names grep_bones ls; do
    row "cold $k: gamepaths (normal)" \
        "$(get "${k}_game") ms ($(get "${k}_normal") ms), $(ratio "$(get "${k}_game")" "$(get "${k}_normal")")" "-"
done
