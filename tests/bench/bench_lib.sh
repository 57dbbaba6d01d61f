# shellcheck shell=bash
# bench_lib.sh - what the mount benchmarks share, sourced after
# tests/lib/mount.sh: timing, the page cache, the counters of the rtmfs of
# the last fg_mount (RTMFS_PID), small figures, and the whole-install tree.
now() { date +%s%N; }
ms() { echo $((($(now) - $1) / 1000000)); }
# Drops the page cache when allowed (root), so "cold" means cold on disk too.
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true; }
# timed CMD...: its time in ms (its output and status dropped).
timed() { local s; s=$(now); "$@" >/dev/null 2>&1 || true; ms "$s"; }
# cold CMD...: the same on a dropped page cache.
cold() { drop; timed "$@"; }
io() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$RTMFS_PID/io" 2>/dev/null || echo 0; }
cpu_ms() { awk '{ print ($14 + $15) * 10 }' "/proc/$RTMFS_PID/stat" 2>/dev/null || echo 0; }
hwm() { awk '$1 == "VmHWM:" {print $2}' "/proc/$RTMFS_PID/status"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "x%.2f", a / b; else print "-" }'; }
# mb BYTES [DECIMALS]: megabytes (10^6 bytes).
mb() { awk -v b="$1" -v d="${2:-0}" 'BEGIN { printf "%.*f", d, b / 1e6 }'; }
grep_bones() { grep -rli lefthand --include=bones.txt "$1"; }

# install_tree: the whole-install tree of rtmgen -I (RTMFS_BENCH_INSTALL
# animations in archives, default 20000; kept in RTMFS_BENCH_TREE, default
# /var/tmp/rtmfs-bench-install-N), generated once per N (about a minute for
# 20,000) with its summary (rtmgen -I's, "bytes:" and all) in
# $TREE/.complete.  Sets N, TREE and bytes, the install's size.
install_tree() {
    N=${RTMFS_BENCH_INSTALL:-20000}
    TREE=${RTMFS_BENCH_TREE:-/var/tmp/rtmfs-bench-install-$N}
    if ! grep -q '^config_bytes:' "$TREE/.complete" 2>/dev/null; then
        rm -rf "$TREE"
        echo "generating the install tree ($N animations) in $TREE..."
        "${RTMGEN:-${BUILD:-build}/rtmgen}" -I "$N" "$TREE" > "$TREE.summary"
        mv "$TREE.summary" "$TREE/.complete"
    fi
    # shellcheck disable=SC2034  # for the scripts that source this
    bytes=$(awk '$1 == "bytes:" {print $2}' "$TREE/.complete")
}
