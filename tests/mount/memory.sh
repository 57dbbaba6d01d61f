#!/usr/bin/env bash
# make check: long
# memory.sh - one file cannot take rtmfs past its memory budget: a small
# BMTR whose LZO arrays expand far past cache_size, and a plain file larger
# than cache_size, are refused with an error.txt that says what they need;
# four readers of four files that each need 0.9 x cache_size get their bytes
# one after the other.  rtmfs's peak RSS stays within cache_size + 32 MiB,
# and within cache_size + 16 MiB over a first mount's `du -s` of a small
# generated install (rtmgen -I 1000, 400 archives with their configs): the
# configs read for the states table are not kept (held whole, they took
# 7 MiB more there).
NAME=memory
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
need_fuse "memory tests"

peak_kib() { awk '$1 == "VmHWM:" {print $2}' "/proc/$RTMFS_PID/status"; }

# peak_within MB WHAT [OVER]: rtmfs's peak RSS is at most MB + OVER MiB
# (default 32; not asked of a sanitizer build, whose shadow memory and
# quarantine count too).
peak_within() {
    local peak libs over=${3:-32}; peak=$(peak_kib) libs=$(ldd "$RTMFS")
    # (not ldd | grep -q: grep quits at the match, ldd may then die of
    # SIGPIPE, and with pipefail the test would say "not a sanitizer build")
    if [[ "$libs" == *libasan* || "$libs" == *libtsan* ]]; then
        skip "sanitizer build" "$2: peak RSS $((peak / 1024)) MiB not held to cache_size $1M + $over MiB"
        return
    fi
    if [ "$peak" -le $((($1 + over) * 1024)) ]; then
        ok "$2: peak RSS $((peak / 1024)) MiB, within cache_size $1M + $over MiB"
    else
        fail "$2: peak RSS $((peak / 1024)) MiB, over cache_size $1M + $over MiB"
    fi
}

check_refused() {
    local s=$T/big m=$T/mnt_big before=$FAILS
    mkdir -p "$s"
    "$RTMGEN" -x 200 "$s/expands.rtm" && "$RTMGEN" -s 40 "$s/large.rtm" || { fail "rtmgen"; return; }
    echo "expands.rtm: $(stat -c %s "$s/expands.rtm") bytes; large.rtm: $(stat -c %s "$s/large.rtm") bytes"
    fg_mount "$s" "$m" -o cache_size=16M || return
    local f
    for f in expands.rtm large.rtm; do
        [ "$(ls "$m/$f")" = error.txt ] || fail "$f: not refused: $(ls "$m/$f" | head -3)"
        grep -Eq "^$f: needs [0-9.]+ MiB to (parse|read), more than cache_size 16.0 MiB$" \
            "$m/$f/error.txt" || fail "$f: error.txt says: $(cat "$m/$f/error.txt")"
        cat "$m/$f/error.txt"
    done
    block_ok "$before" "files that cannot fit in cache_size show error.txt saying what they need"
    peak_within 16 "refused files"
    do_umount "$m"
}

check_parallel() {
    local s=$T/par m=$T/mnt_par i before=$FAILS
    mkdir -p "$s"
    # 60 MB each: 0.9 x 64 MiB
    "$RTMGEN" -s 60 "$s/f0.rtm" || { fail "rtmgen"; return; }
    for i in 1 2 3; do cp "$s/f0.rtm" "$s/f$i.rtm"; done
    local frame; frame=$("$RTMCAT" "$s/f0.rtm" | awk '$2 ~ /^frames\// {print $2; exit}')
    "$RTMCAT" "$s/f0.rtm" "$frame" > "$T/want.csv" && [ -s "$T/want.csv" ] || fail "rtmcat $frame"
    fg_mount "$s" "$m" -o cache_size=64M || return
    local readers=()
    for i in 0 1 2 3; do
        cat "$m/f$i.rtm/$frame" > "$T/got.$i" 2>"$T/err.$i" & readers+=($!)
    done
    wait "${readers[@]}"
    for i in 0 1 2 3; do
        cmp -s "$T/got.$i" "$T/want.csv" || fail "reader $i: $(cat "$T/err.$i")"
    done
    block_ok "$before" "4 parallel readers of 4 files of 0.9 x cache_size all read"
    peak_within 64 "4 parallel readers"
    do_umount "$m"
}

# A first mount (a new index) of a generated install, walked by du -s:
# every view sized, states.txt and missing.txt made from its configs.
check_install() {
    local s=$T/install m=$T/mnt_install
    "$RTMGEN" -I 1000 "$s" > /dev/null || { fail "rtmgen -I"; return; }
    fg_mount "$s" "$m" -o cache_size=4M,index="$T/install.sqlite" || return
    du -s "$m" > /dev/null || fail "du -s over the install"
    grep -q "^CfgMovesMaleSdr/States/" "$m/missing.txt" || fail "missing.txt names no state"
    peak_within 4 "du -s over a generated install of 400 archives" 16
    do_umount "$m"
    rm -rf "$s"
}

check_refused
check_parallel
check_install
finish mount/memory
