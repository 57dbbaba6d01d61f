#!/usr/bin/env bash
# bench_damaged.sh - the goal "0 deaths in 60 walks of each option set"
# over rtmgen -D's damaged tree (RTMFS_BENCH_DAMAGED_N damaged files
# beside good ones, default 500; tests/lib/damaged.sh) walked
# RTMFS_BENCH_DAMAGED_WALKS times (60) with each of the default options,
# -o ahead=1 and -o ahead=8,cache_size=4M, the walks du -a, ls -lR,
# find | xargs cat and grep -r in turn.  Each walk is a first one: a mount
# of its own with a new index, so that the sizing workers meet every
# damaged file.  A death is a walk after which rtmfs no longer runs or is
# no longer mounted (every later access would say "Transport endpoint is
# not connected"), or whose rtmfs a signal killed before its unmount
# ended it; its last words are shown.  Prints deaths per option set
# and the time.  A measurement, not a test: it never fails on a death.
NAME=bench-damaged
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
# shellcheck source=tests/lib/damaged.sh
. "$(dirname "$0")/../lib/damaged.sh"
N=${RTMFS_BENCH_DAMAGED_N:-500}
WALKS=${RTMFS_BENCH_DAMAGED_WALKS:-60}
S=$T/src M=$T/mnt
need_fuse "damaged-tree walks benchmark"
dmg_tree "$S" "$N" "${RTMFS_BENCH_DAMAGED_SEED:-1}" || exit 1
echo "$DMG_SUMMARY"

KINDS=(du ls cat grep)
SETS=("" "ahead=1" "ahead=8,cache_size=4M")
: > "$T/rows"
for s in "${!SETS[@]}"; do
    label=${SETS[$s]:-default}
    deaths=0 hangs=0 t0=$SECONDS
    declare -A died=()
    for ((n = 0; n < WALKS; n++)); do
        k=${KINDS[$((n % ${#KINDS[@]}))]}
        fg_mount "$S" "$M" -o "index=$T/ix.$s.$n.sqlite${SETS[$s]:+,${SETS[$s]}}" || continue
        pid=$RTMFS_PID
        dmg_walk "$k" "$M"
        [ $? = 2 ] && hangs=$((hangs + 1))
        # dead after the walk, or killed by a signal before its unmount
        # ended it (the workers may still be sizing when the walk ends)
        st=0
        if dmg_alive "$M" "$pid"; then
            fusermount3 -u "$M" 2>/dev/null || umount -l "$M" 2>/dev/null
            wait "$pid"; st=$?
        else
            wait "$pid"; st=$?
            fusermount3 -u "$M" 2>/dev/null || umount -l "$M" 2>/dev/null
            [ "$st" -gt 128 ] || st=255
        fi
        RTMFS_PID=
        if [ "$st" -gt 128 ]; then
            deaths=$((deaths + 1)) died[$k]=$((${died[$k]:-0} + 1))
            echo "$label: rtmfs died in walk $((n + 1)) ($k), status $st:" \
                 "$(grep -v '^$' "$T/rtmfs.err" | tail -3 | tr '\n' ' ')"
        fi
        rm -f "$T/ix.$s.$n.sqlite"*
    done
    how=""
    for k in "${KINDS[@]}"; do [ -n "${died[$k]:-}" ] && how="$how $k ${died[$k]}"; done
    unset died
    printf '| %-24s | %5s | %-18s | %5s | %6ss |\n' "$label" "$WALKS" "$deaths${how:+ (${how# })}" \
        "$hangs" "$((SECONDS - t0))" >> "$T/rows"
done
echo
echo "damaged-tree walks: $(grep -vc '^#' "$S/damaged.tsv") rows, a new mount and index a walk," \
     "${KINDS[*]} in turn; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-24s | %5s | %-18s | %5s | %7s |\n' "option set" walks "deaths (by walk)" hangs time
printf '| %-24s | %5s | %-18s | %5s | %7s |\n' "------------------------" ----- ------------------ ----- -------
cat "$T/rows"
echo "(goal: 0 deaths in $WALKS walks of each option set)"
