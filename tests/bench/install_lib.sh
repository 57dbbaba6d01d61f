# shellcheck shell=bash
# install_lib.sh - what the whole-install benchmarks (bench_install.sh,
# bench_goals.sh) share: timing, the page cache, the counters of the rtmfs
# of the last fg_mount (RTMFS_PID), and the install tree itself.  Sourced
# after tests/lib/mount.sh, with N and TREE set.
now() { date +%s%N; }
ms() { echo $((($(now) - $1) / 1000000)); }
# Drops the page cache when allowed (root), so "cold" means cold on disk too.
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true; }
timed() { local s; s=$(now); "$@" >/dev/null 2>&1 || true; ms "$s"; }
io() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$RTMFS_PID/io" 2>/dev/null || echo 0; }
cpu_ms() { awk '{ print ($14 + $15) * 10 }' "/proc/$RTMFS_PID/stat" 2>/dev/null || echo 0; }
hwm() { awk '$1 == "VmHWM:" {print $2}' "/proc/$RTMFS_PID/status"; }
grep_bones() { grep -rli lefthand --include=bones.txt "$1"; }

# The tree, generated once per N (about a minute for 20,000); its summary
# (rtmgen -I's, with "bytes:") in $TREE/.complete.
if [ ! -f "$TREE/.complete" ]; then
    rm -rf "$TREE"
    echo "generating the install tree ($N animations) in $TREE..."
    "$RTMGEN" -I "$N" "$TREE" > "$T/summary.txt"
    cp "$T/summary.txt" "$TREE/.complete"
fi
# shellcheck disable=SC2034  # the install's size, for the scripts that source this
bytes=$(awk '$1 == "bytes:" {print $2}' "$TREE/.complete")
