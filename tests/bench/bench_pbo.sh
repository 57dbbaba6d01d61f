#!/usr/bin/env bash
# bench_pbo.sh - times rtmfs over PBO archives shaped like Arma mods
# (rtmgen -P): the mount, a cold and a warm
# `grep -rl lefthand --include=bones.txt`, rtmfs's peak RSS, and the bytes
# rtmfs read from disk during the cold grep against the archives' size (only
# the tables and the RTM entries should be read, not the textures).  Not a
# pass/fail test.
#   RTMFS_BENCH_PBO_MB  megabytes (10^6 bytes) of archives (default 520)
#   RTMFS_BENCH_CACHE   -o cache_size for the mount (default 64M)
NAME=bench-pbo
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
set -e
MB=${RTMFS_BENCH_PBO_MB:-520}
CACHE=${RTMFS_BENCH_CACHE:-64M}
M=$T/mnt
need_fuse "PBO mount benchmark"

# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? 100 * a / b : 0) }'; }
# A field of rtmfs's /proc/PID/io (read_bytes, rchar), or empty when unavailable.
io() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$RTMFS_PID/io" 2>/dev/null || true; }

# A first mount of an empty directory tells whether FUSE works here at all,
# before writing hundreds of megabytes.
mkdir -p "$T/probe-src"
fg_mount "$T/probe-src" "$T/probe" || exit 1
do_umount "$T/probe"

echo "generating $MB MB of PBO archives..."
s=$(now)
"$RTMGEN" -P "$MB" "$T/src" > "$T/gen.txt"
gen_ms=$(ms "$s")
field() { awk -v k="$1:" '$1 == k {print $2}' "$T/gen.txt"; }
archives=$(find "$T/src" -type f -iname '*.pbo' | wc -l)
bytes=$(find "$T/src" -type f -iname '*.pbo' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
mods=$(find "$T/src" -mindepth 1 -maxdepth 1 -type d | wc -l)

drop
s=$(now)
fg_mount "$T/src" "$M" -o cache_size="$CACHE" || exit 1
mount_ms=$(ms "$s")

rb0=$(io read_bytes) rc0=$(io rchar)
s=$(now)
grep -rl lefthand --include=bones.txt "$M" > "$T/cold.txt" 2>"$T/grep.err" || true
cold_ms=$(ms "$s")
rb1=$(io read_bytes) rc1=$(io rchar)
s=$(now)
grep -rl lefthand --include=bones.txt "$M" > "$T/warm.txt" 2>>"$T/grep.err" || true
warm_ms=$(ms "$s")
hwm=$(awk '$1 == "VmHWM:" {print $2}' "/proc/$RTMFS_PID/status")
# What the mount shows, after the timed runs: archive and animation folders.
pbo_dirs=$(find "$M" -type d -iname '*.pbo' 2>/dev/null | wc -l)
rtm_dirs=$(find "$M" -type d -iname '*.rtm' 2>/dev/null | wc -l)
do_umount "$M"

# For scale: what reading every archive once from a cold disk takes.
drop
s=$(now)
find "$T/src" -type f -iname '*.pbo' -print0 | xargs -0 cat > /dev/null
catall_ms=$(ms "$s")

cold_n=$(wc -l < "$T/cold.txt")
warm_n=$(wc -l < "$T/warm.txt")
needed=$(field needed_bytes)
echo
echo "rtmfs PBO benchmark: $archives archives in $mods mods, $bytes bytes ($(mib "$bytes") MiB)," \
     "$(field rtm) RTM entries ($(mib "$(field rtm_bytes)") MiB unpacked)," \
     "cache_size=$CACHE, $(nproc) CPUs"
[ -w /proc/sys/vm/drop_caches ] || echo "(not root: could not drop the page cache; the archives" \
                                        "just written are likely cached, so cold is warm and" \
                                        "read_bytes undercounts)"
printf "%-30s %12s  %s\n" measure value note
printf "%-30s %12s  %s\n" "generate (rtmgen -P $MB)" "$gen_ms ms" "$(mb "$bytes" 1) MB written"
printf "%-30s %12s\n" mount "$mount_ms ms"
printf "%-30s %12s  %s\n" "grep lefthand, cold" "$cold_ms ms" \
       "$cold_n bones.txt matched (the generator put it in $(field rtm_lefthand))"
printf "%-30s %12s  %s\n" "grep lefthand, warm" "$warm_ms ms" "$warm_n matched"
printf "%-30s %12s  %s\n" "cat every archive, cold" "$catall_ms ms" "for scale: what reading them whole costs"
printf "%-30s %12s  %s\n" "peak RSS (VmHWM)" "$((hwm / 1024)) MiB" "cache_size=$CACHE"
if [ -n "$rb0" ] && [ -n "$rb1" ]; then
    rb=$((rb1 - rb0)) rc=$((rc1 - rc0))
    printf "%-30s %12s  %s\n" "disk read, cold grep" "$(mb "$rb" 1) MB" \
           "$(pct "$rb" "$bytes") % of the archives (read_bytes)"
    printf "%-30s %12s  %s\n" "read(), cold grep" "$(mb "$rc" 1) MB" \
           "$(pct "$rc" "$bytes") % (rchar: every read, cached or not, FUSE requests too)"
else
    printf "%-30s %12s  %s\n" "disk read, cold grep" "n/a" "no /proc/PID/io here"
fi
printf "%-30s %12s  %s\n" "tables + RTM entries" "$(mb "$needed" 1) MB" \
       "$(pct "$needed" "$bytes") % of the archives: what the grep needs"
printf "%-30s %12s  %s\n" "folders in the mount" "$pbo_dirs .pbo" "$rtm_dirs .rtm"
if [ -s "$T/grep.err" ]; then
    echo "grep reported errors (first lines):"
    head -5 "$T/grep.err"
fi
