#!/usr/bin/env bash
# bench_blind.sh - what a blind SOURCE costs: grep -r and ls -lR
# over the same generated tree, on the local folder (watched by inotify:
# long timeouts) and through bindfs (a FUSE file system: blind, so short
# timeouts and requests that check SOURCE again), and through bindfs with
# -o watch=inotify (bindfs's own cost without the blindness's).  Not a
# pass/fail test: it prints times and ratios.  Each walk runs twice, the
# second 1 s after the first, when every short timeout has run out.
#   RTMFS_BENCH_N   number of RTM files (default 500)
NAME=bench-blind
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
N=${RTMFS_BENCH_N:-500}
need_fuse "blind-source benchmark"
command -v bindfs >/dev/null || { skip "not installed: bindfs" "blind-source benchmark"; exit 0; }

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

echo "generating $N files..."
"$RTMGEN" -t "$N" "$T/src" >/dev/null
mkdir -p "$T/view"
MOUNTS+=("$T/view")
bindfs "$T/src" "$T/view" || { fail "bindfs"; exit 1; }

# run NAME SOURCE [options]: one mount, its four walks, one "NAME g1 g2 l1 l2" line.
run() {
    local name=$1 src=$2 m=$T/mnt
    shift 2
    drop
    fg_mount "$src" "$m" -o noindex "$@" || exit 1
    local g1 g2 l1 l2
    g1=$(timed grep_bones "$m"); sleep 1
    g2=$(timed grep_bones "$m"); sleep 1
    l1=$(timed ls -lR "$m"); sleep 1
    l2=$(timed ls -lR "$m")
    do_umount "$m"
    echo "$name $g1 $g2 $l1 $l2" >> "$T/res"
}
run local "$T/src"
run blind "$T/view"
run bindfs_trusted "$T/view" -o watch=inotify
fusermount3 -u "$T/view"

awk -v n="$N" '
    { g1[$1] = $2; g2[$1] = $3; l1[$1] = $4; l2[$1] = $5 }
    function r(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
    END {
        printf "%d animations; ms (first walk after mounting, then again 1 s later)\n", n
        printf "%-34s %9s %9s %9s %9s\n", "", "grep -r", "again", "ls -lR", "again"
        split("local blind bindfs_trusted", k, " ")
        lab["local"] = "local folder, watched"
        lab["blind"] = "bindfs, watch=auto (blind)"
        lab["bindfs_trusted"] = "bindfs, watch=inotify (trusted)"
        for (i = 1; i <= 3; i++)
            printf "%-34s %9d %9d %9d %9d\n", lab[k[i]], g1[k[i]], g2[k[i]], l1[k[i]], l2[k[i]]
        printf "%-34s %9s %9s %9s %9s\n", "blind / local", r(g1["blind"], g1["local"]),
               r(g2["blind"], g2["local"]), r(l1["blind"], l1["local"]), r(l2["blind"], l2["local"])
        printf "%-34s %9s %9s %9s %9s\n", "blind / bindfs trusted", r(g1["blind"], g1["bindfs_trusted"]),
               r(g2["blind"], g2["bindfs_trusted"]), r(l1["blind"], l1["bindfs_trusted"]),
               r(l2["blind"], l2["bindfs_trusted"])
    }' "$T/res"
