#!/usr/bin/env bash
# make check: long
# index_faults.sh - the persistent index's faults through real mounts
# (test_index covers a corrupt, unopenable, read-only or locked file without
# FUSE): an index cut in the middle of a write (rtmfs killed with -9 while
# a first walk has its writer busy, its WAL then cut in half; the file
# itself cut in half; pages in its middle overwritten), after which a mount
# comes up, shows what a mount without an index shows, says on stderr what
# it found, and a damaged file is rebuilt empty (rtmfs(1), -o index=); and
# a full disk (the index on a small tmpfs, full before the mount, or filling
# during its walk), where the mount goes on, shows the same tree and says
# what happened once, and after space is freed a new mount writes the index
# and the next one answers from it.  Each mount's ls -lR and bones.txt (what
# the index answers) are compared with those of a mount with -o noindex.
NAME=index_faults
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
S=$T/src M=$T/mnt
need_fuse "index faults through a mount"
TMPFS=()      # tmpfs mount points, unmounted after rtmfs

# shellcheck disable=SC2317  # run by the EXIT trap
faults_cleanup() {
    local m
    for m in "${MOUNTS[@]}"; do
        grep -qs " $m fuse" /proc/mounts && { fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; }
    done
    for m in "${TMPFS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
    cleanup
}
trap faults_cleanup EXIT

# 120 animations in two folders and an archive: a first walk parses them
# all, and queues a record for each and the archive's table.
"$RTMGEN" -t 120 "$S" >/dev/null && "$RTMGEN" -p "$S/sample.pbo" || { fail "rtmgen"; exit 1; }

stat_of() { awk -v k="$1" '$1 == k {print $2}' "$T/stats"; }
# walked MNT OUT: what the index serves, as index.sh walks it: ls -lR
# (every name and exact size; inode numbers left out, they are per mount)
# and every bones.txt.  A first ls -lR asks every size first.
walked() {
    (cd "$1" && ls -lR . >/dev/null 2>&1)
    (cd "$1" && ls -lR --time-style=+%s . && find . -name bones.txt | sort | xargs cat) > "$2" 2>&1
}
# said: what rtmfs said on stderr, one line
said() { tr '\n' ' ' < "$T/rtmfs.err" | cut -c1-300; }
# answers WHAT: this mount's walk is the reference's
answers() {
    if cmp -s "$T/want" "$T/got"; then return 0; fi
    fail "$1: the tree differs from a mount without an index: $(diff "$T/want" "$T/got" | head -5)"
    return 1
}
# mount_walk IX: a mount with index IX, walked into $T/got, unmounted;
# its counts in $T/stats, its stderr in $T/rtmfs.err.
mount_walk() {
    rm -f "$T/stats"
    RTMFS_STATS=$T/stats fg_mount "$S" "$M" -o index="$1" || return 1
    walked "$M" "$T/got"
    do_umount "$M"
}

# The reference: no index.
fg_mount "$S" "$M" -o noindex || exit 1
walked "$M" "$T/want"
do_umount "$M"
echo "reference (-o noindex): 124 animations, $(wc -l < "$T/want") lines of ls -lR and bones.txt"

# kill -9 in the middle of a first walk, the WAL as it was left (the last
# time cut in half): the next mount comes up and answers right.
check_killed() {
    local ix=$T/killed.sqlite delay before=$FAILS wal n=0
    for delay in 0.2 0.5 0.9; do
        rm -f "$ix" "$ix"-*
        fg_mount "$S" "$M" -o index="$ix" || return
        local pid=$RTMFS_PID
        ls -lR "$M" >/dev/null 2>&1 &
        local lspid=$!
        sleep "$delay"
        wal=$(stat -c %s "$ix-wal" 2>/dev/null || echo none)
        kill -9 "$pid"
        wait "$pid" 2>/dev/null; wait "$lspid" 2>/dev/null
        RTMFS_PID=
        fusermount3 -u "$M" 2>/dev/null || umount -l "$M"
        [ "$delay" = 0.9 ] && [ -s "$ix-wal" ] && truncate -s $(($(stat -c %s "$ix-wal") / 2)) "$ix-wal" &&
            wal="$wal, cut to $(stat -c %s "$ix-wal")"
        mount_walk "$ix" || return
        answers "killed after $delay s" || continue
        n=$((n + 1))
        echo "killed after $delay s (WAL bytes: $wal): the next mount remembered $(stat_of remembered)" \
             "of $(stat_of loads) loads, wrote $(stat_of index_written); said: $(said)"
        grep -q . "$T/rtmfs.err" && fail "killed after $delay s: the next mount said something: $(said)"
    done
    block_ok "$before" "rtmfs killed -9 during its first walk, 3 times: each next mount comes up, answers right, says nothing"
}

# A whole index, damaged as DAMAGE (a command on the file) says: the
# mount comes up, answers right, says it rebuilt the file, and the next
# mount answers from the new one.
check_damaged() {
    local what=$1 ix=$T/damaged.sqlite before=$FAILS
    shift
    rm -f "$ix" "$ix"-*
    mount_walk "$ix" || return
    "$@" "$ix"
    mount_walk "$ix" || return
    answers "$what" || return
    echo "$what: remembered $(stat_of remembered) of $(stat_of loads) loads, wrote $(stat_of index_written); said: $(said)"
    grep -q "index $ix: corrupt; rebuilt empty" "$T/rtmfs.err" ||
        fail "$what: rtmfs did not say the index was rebuilt: $(said)"
    [ "$(grep -c . "$T/rtmfs.err")" -le 1 ] || fail "$what: said more than once: $(said)"
    mount_walk "$ix" || return
    answers "$what, a later mount" && [ "$(stat_of remembered)" -gt 0 ] && [ ! -s "$T/rtmfs.err" ] ||
        fail "$what: a later mount remembered $(stat_of remembered), said: $(said)"
    block_ok "$before" "$what: the mount answers right, says it rebuilt the index empty, the next one uses it"
}
cut_half() { truncate -s $(($(stat -c %s "$1") / 2)) "$1"; }
# pages 2 and up to the middle overwritten with bytes of an animation
overwrite_middle() {
    local size; size=$(stat -c %s "$1")
    dd if="$S/mod_00/anim_00001.rtm" of="$1" bs=4096 seek=1 count=$((size / 8192)) conv=notrunc 2>/dev/null
}

# A full disk: XDG_CACHE_HOME on a 4 MiB tmpfs (the index of this tree
# takes about 500 kB, and its WAL about 1 MB more while a walk writes).
check_full() {
    local x=$T/small before=$FAILS
    if [ "$(id -u)" != 0 ]; then
        skip_or_fail "not root" "a full disk under the index (mounting a tmpfs needs root)"
        return
    fi
    mkdir -p "$x"
    if ! mount -t tmpfs -o size=4m tmpfs "$x" 2>"$T/tmpfs.err"; then
        skip_or_fail "no tmpfs" "a full disk under the index: mount -t tmpfs: $(cat "$T/tmpfs.err")"
        return
    fi
    TMPFS+=("$x")
    local ix=$x/rtmfs/index.sqlite
    # full before the mount: nothing can be created
    dd if=/dev/zero of="$x/fill" bs=4k 2>/dev/null
    XDG_CACHE_HOME=$x mount_walk "$ix" || return
    answers "a full disk before the mount" &&
        echo "full before the mount: said: $(said)"
    [ "$(grep -c "index $ix" "$T/rtmfs.err")" = 1 ] ||
        fail "full before the mount: not said once: $(said)"
    # filling during the walk: 200 kB free
    rm -f "$x/fill" "$ix" "$ix"-*
    dd if=/dev/zero of="$x/fill" bs=4k count=$(((4096 - 200) / 4)) 2>/dev/null
    XDG_CACHE_HOME=$x mount_walk "$ix" || return
    answers "a disk that fills during the walk" &&
        echo "full during the walk: wrote $(stat_of index_written); said: $(said)"
    [ "$(grep -c "index $ix" "$T/rtmfs.err")" = 1 ] && grep -qi "full" "$T/rtmfs.err" ||
        fail "full during the walk: not said once that the disk is full: $(said)"
    block_ok "$before" "a full disk, before or during the walk: the mount answers right and says so once"
    # space freed: a new mount writes the index, and the next answers from it
    before=$FAILS
    rm -f "$x/fill"
    XDG_CACHE_HOME=$x mount_walk "$ix" || return
    answers "after space was freed" && [ "$(stat_of index_written)" -gt 0 ] ||
        fail "after space was freed: wrote $(stat_of index_written); said: $(said)"
    XDG_CACHE_HOME=$x mount_walk "$ix" || return
    answers "after space was freed, a later mount" && [ "$(stat_of remembered)" -gt 0 ] &&
        [ "$(stat_of sizings)" = 0 ] && [ ! -s "$T/rtmfs.err" ] ||
        fail "after space was freed, a later mount: $(tr '\n' ' ' < "$T/stats"); said: $(said)"
    block_ok "$before" "space freed: a new mount writes the index ($(stat_of remembered) loads answered from it next)"
}

check_killed
check_damaged "the index cut in half" cut_half
check_damaged "the index's middle pages overwritten" overwrite_middle
check_full
finish mount/index_faults
