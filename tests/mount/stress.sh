#!/usr/bin/env bash
# stress.sh [SECONDS [damaged]] - eight parallel readers (cat, grep -r, ls -lR)
# against rtmfs while another process keeps rewriting, renaming and deleting
# source files and PBO archives.  Fails on a crash, a hang, a read that mixes two versions of
# a file, or file descriptors or memory that grow over the run.
# Then as long again over rtmgen -D's damaged tree (RTMFS_DAMAGED_N damaged
# files, default 500; tests/lib/damaged.sh): damaged.sh's four option sets
# (ahead=0 and 8 and the default, cache_size=4M and the default, a fresh
# index and a later mount) a quarter of the time each, its walks (du -a,
# ls -lR, find | xargs cat, grep -r, 4 parallel readers) in turn while a
# writer rewrites, truncates and renames files; fails when rtmfs dies or
# hangs, on an undocumented error, or on a sanitizer's report in its
# stderr.  With "damaged", that part alone (make tsan runs it against a
# ThreadSanitizer rtmfs, RTMFS_BIN).
NAME=stress
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
# shellcheck source=tests/lib/damaged.sh
. "$(dirname "$0")/../lib/damaged.sh"
SECS=${1:-60}
CACHE=16M
M=$T/mnt S=$T/src
need_fuse "stress run"

# The damaged tree's part: each option set walked for a quarter of SECS
# (at least one walk), the walks in turn, the writer throughout.
damaged_stress() {
    local secs=$1 D=$T/dsrc DM=$T/dmnt s w n end pid label before san
    local sets=("ahead=0,cache_size=4M" "" "ahead=8" "ahead=8,cache_size=4M") when=(fresh later fresh later)
    local kinds=(du ls cat grep readers) walks=0 deaths=0 bad=0 eio=0 enoent=0 refound=0
    dmg_tree "$D" "${RTMFS_DAMAGED_N:-500}" "${RTMFS_DAMAGED_SEED:-1}" || return
    echo "$DMG_SUMMARY"
    for s in 0 1 2 3; do
        label="${sets[$s]:-default options} (${when[$s]} index)"
        before=$FAILS n=0
        [ "${when[$s]}" = fresh ] && rm -rf "$XDG_CACHE_HOME/rtmfs"
        fg_mount "$D" "$DM" -o "show_other${sets[$s]:+,${sets[$s]}}" || { fail "$label: no mount"; continue; }
        pid=$RTMFS_PID end=$((SECONDS + secs / 4))
        dmg_writer_start "$D"
        while [ "$n" = 0 ] || [ $SECONDS -lt $end ]; do
            w=${kinds[$((n % ${#kinds[@]}))]}
            n=$((n + 1)) walks=$((walks + 1))
            dmg_walk "$w" "$DM"
            [ $? = 2 ] && fail "$label: $w hung (over ${DMG_TIMEOUT}s)"
            if ! dmg_alive "$DM" "$pid"; then
                deaths=$((deaths + 1))
                fail "$label: rtmfs died during $w: $(tail -5 "$T/rtmfs.err" | tr '\n' ' ')"
                break
            fi
            dmg_judge "$DM"
            [ "$DMG_BAD" = 0 ] || fail "$label: $w: $DMG_BAD undocumented errors: $(head -5 "$T/walk.bad" | tr '\n' '|')"
            eio=$((eio + DMG_EIO)) enoent=$((enoent + DMG_ENOENT))
            refound=$((refound + DMG_REFOUND)) bad=$((bad + DMG_BAD))
        done
        dmg_writer_stop
        if dmg_alive "$DM" "$pid"; then
            echo "  $label: $n walks; the last ($w) met $(dmg_met "$D" "$DM")"
            do_umount "$DM"
        else
            RTMFS_PID=
            fusermount3 -u "$DM" 2>/dev/null || umount -l "$DM" 2>/dev/null
        fi
        san=$(dmg_san "$T/rtmfs.err")
        [ -z "$san" ] || { fail "$label: a sanitizer reported: $(echo "$san" | head -3 | tr '\n' '|')"; cat "$T/rtmfs.err"; }
        block_ok "$before" "stress over the damaged tree, $label: $n walks, no death, hang, undocumented error or sanitizer report"
    done
    echo "stress, damaged tree: ${secs}s, $walks walks, $deaths deaths; errors: EIO $eio, ENOENT $enoent," \
         "failure forgotten and found again $refound, undocumented $bad"
}
if [ "${2:-}" = damaged ]; then
    damaged_stress "$SECS"
    finish stress
fi
"$RTMGEN" -t 300 "$S" >/dev/null
"$RTMGEN" "$T/v" >/dev/null
A=$T/v/walk.rtm B=$T/v/wave_v3.rtm
cp "$A" "$S/hot.rtm"; cp "$A" "$S/x.rtm"; cp "$B" "$S/z.rtm"
# two archives with anims\hot.rtm of A's and of B's bytes
mkdir -p "$T/pa/anims" "$T/pb/anims"
cp "$A" "$T/pa/anims/hot.rtm"; cp "$B" "$T/pb/anims/hot.rtm"
"$RTMGEN" -a "$T/A.pbo" "$T/pa/anims/hot.rtm" "$T/v/run_v5.rtm"
"$RTMGEN" -a "$T/B.pbo" "$T/v/step_props.rtm" "$T/pb/anims/hot.rtm"
PA=$T/A.pbo PB=$T/B.pbo
cp "$PA" "$S/hot.pbo"; cp "$PB" "$S/z.pbo"
hA=$("$RTMCAT" "$A" header.txt) hB=$("$RTMCAT" "$B" header.txt)
pA=$("$RTMCAT" "$A" plain.rtm | sha256sum | cut -d' ' -f1)
pB=$("$RTMCAT" "$B" plain.rtm | sha256sum | cut -d' ' -f1)

fg_mount "$S" "$M" -o cache_size=$CACHE || finish stress
PID=$RTMFS_PID
ls -lR "$M" >/dev/null 2>&1        # warm up, then take the baseline
fd0=$(ls /proc/$PID/fd | wc -l)
rss0=$(awk '/VmRSS/ {print $2}' /proc/$PID/status)

end=$((SECONDS + SECS))
writer() {
    local i=0
    while [ $SECONDS -lt $end ]; do
        i=$((i + 1))
        if [ $((i % 2)) = 0 ]; then cat "$A" > "$S/hot.rtm"; else cp "$B" "$S/.t" && mv "$S/.t" "$S/hot.rtm"; fi
        if [ -e "$S/x.rtm" ]; then mv "$S/x.rtm" "$S/y.rtm"; else mv "$S/y.rtm" "$S/x.rtm"; fi
        if [ -e "$S/z.rtm" ]; then rm "$S/z.rtm"; else cp "$B" "$S/z.rtm"; fi
        if [ $((i % 2)) = 0 ]; then cat "$PA" > "$S/hot.pbo"; else cp "$PB" "$S/.p" && mv "$S/.p" "$S/hot.pbo"; fi
        if [ -e "$S/z.pbo" ]; then rm "$S/z.pbo"; else cp "$PB" "$S/z.pbo"; fi
        sleep 0.01
    done
}
# Each reader prints "kind reads mixed" at the end.
# (hot.rtm: a loose file; hot.pbo/anims/hot.rtm: an archive's entry)
cat_reader() {
    local n=0 bad=0 h p d arch=0
    while [ $SECONDS -lt $end ]; do
        for d in "$M/hot.rtm" "$M/hot.pbo/anims/hot.rtm"; do
            [ "$d" = "$M/hot.rtm" ] || arch=$((arch - n))
            if h=$(cat "$d/header.txt" 2>/dev/null); then
                [ "$h" = "$hA" ] || [ "$h" = "$hB" ] || { bad=$((bad + 1)); echo "$h" > "$T/mixed.header"; }
                n=$((n + 1))
            fi
            if p=$(sha256sum "$d/plain.rtm" 2>/dev/null | cut -d' ' -f1) && [ -n "$p" ]; then
                [ "$p" = "$pA" ] || [ "$p" = "$pB" ] || { bad=$((bad + 1)); echo "$p" > "$T/mixed.plain"; }
                n=$((n + 1))
            fi
            [ "$d" = "$M/hot.rtm" ] || arch=$((arch + n))
        done
    done
    echo "cat $n $bad $arch"
}
loop_reader() {
    local kind=$1 n=0
    shift
    while [ $SECONDS -lt $end ]; do timeout 60 "$@" >/dev/null 2>&1; n=$((n + 1)); done
    echo "$kind $n 0"
}
writer & PIDS+=($!)
for _ in 1 2 3 4; do cat_reader > "$T/r.$RANDOM$RANDOM" & PIDS+=($!); done
for _ in 1 2; do loop_reader grep grep -rl lefthand --include=bones.txt "$M" > "$T/r.$RANDOM$RANDOM" & PIDS+=($!); done
for _ in 1 2; do loop_reader ls ls -lR "$M" > "$T/r.$RANDOM$RANDOM" & PIDS+=($!); done
wait "${PIDS[@]}"
PIDS=()

kill -0 $PID 2>/dev/null && grep -qs " $M fuse.rtmfs " /proc/mounts || fail "rtmfs died"
ls "$M/hot.rtm" >/dev/null 2>&1 || fail "rtmfs no longer answers"
sleep 1
ls -lR "$M" >/dev/null 2>&1
fd1=$(ls /proc/$PID/fd 2>/dev/null | wc -l)
rss=$(awk '/VmRSS/ {print $2}' /proc/$PID/status 2>/dev/null)
hwm=$(awk '/VmHWM/ {print $2}' /proc/$PID/status 2>/dev/null)
read -r cats mixed archs < <(awk '$1 == "cat" {n += $2; b += $3; a += $4} END {print n + 0, b + 0, a + 0}' "$T"/r.*)
greps=$(awk '$1 == "grep" {n += $2} END {print n + 0}' "$T"/r.*)
lss=$(awk '$1 == "ls" {n += $2} END {print n + 0}' "$T"/r.*)
[ "$mixed" = 0 ] || { fail "$mixed reads mixed two versions"; cat "$T"/mixed.* 2>/dev/null | head -20; }
[ "$fd1" -le $((fd0 + 2)) ] || fail "file descriptors grew from $fd0 to $fd1"
[ "${hwm:-0}" -le $(( (16 + 32) * 1024 )) ] || fail "peak RSS ${hwm} kB over cache_size + 32 MiB"
[ "$archs" -gt 0 ] || fail "no read of an archive's entry succeeded"
echo "stress: ${SECS}s, 8 readers: $cats checked reads ($archs in an archive), $greps grep -r, $lss ls -lR;" \
     "$mixed mixed; fds $fd0 -> $fd1; RSS $rss0 -> $rss kB (peak $hwm kB, budget $CACHE + 32 MiB)"
do_umount "$M"
[ -s "$T/rtmfs.err" ] && { echo "rtmfs said:"; cat "$T/rtmfs.err"; }
block_ok 0 "stress: no crash, hang, mixed read or growth"
damaged_stress "$SECS"
finish stress
