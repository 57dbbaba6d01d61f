# mountlib.sh - what the mount tests share: a temporary directory, mounts
# that the EXIT trap always unmounts, pass/fail counting, and the checks that
# compare an animation's folder in the mount with rtmcat.  Sourced by
# tests/sh_*.sh after they set NAME (for the temporary directory).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
RTMFS=$BUILD/rtmfs RTMCAT=$BUILD/rtmcat RTMGEN=$BUILD/rtmgen
T=$(mktemp -d "/tmp/rtmfs-${NAME:-test}.XXXXXX")
MOUNTS=()
FAILS=0

cleanup() {
    for m in "${MOUNTS[@]}"; do
        if grep -qs " $m fuse" /proc/mounts; then
            fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
        fi
    done
    rm -rf "$T"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }
mounted() { grep -qs " $1 fuse.rtmfs " /proc/mounts; }

skip_unless_fuse() {
    if [ ! -c /dev/fuse ] || ! [ -r /dev/fuse -a -w /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
        echo "SKIP: /dev/fuse or fusermount3 not usable here; mount tests skipped"
        exit 0
    fi
}

# mount SRC MNT [options...]: mounts in the background (daemon) and waits.
do_mount() {
    local src=$1 mnt=$2
    shift 2
    mkdir -p "$mnt"
    MOUNTS+=("$mnt")
    if ! "$RTMFS" "$src" "$mnt" "$@" 2>"$T/mount.err"; then
        if [ ${#MOUNTS[@]} -eq 1 ] && grep -qiE 'fuse|permission' "$T/mount.err"; then
            echo "SKIP: cannot mount FUSE here: $(cat "$T/mount.err")"
            exit 0
        fi
        fail "mount $src: $(cat "$T/mount.err")"
        return 1
    fi
    mounted "$mnt" || { fail "$mnt not in /proc/mounts"; return 1; }
}

do_umount() {
    fusermount3 -u "$1" || fail "fusermount3 -u $1"
    for _ in $(seq 50); do mounted "$1" || return 0; sleep 0.1; done
    fail "$1 still mounted"
}

# Compares every view of one animation with rtmcat: size and bytes.
# With a third argument "quick", bytes only for the fixed views and frame 0.
check_anim() {
    local src=$1 dir=$2 mode=${3:-full} size path n=0
    while read -r size path; do
        [ "$(stat -c %s "$dir/$path")" = "$size" ] || { fail "$dir/$path: stat size != $size"; return; }
        if [ "$mode" = full ] || [[ "$path" != frames/* ]] || [[ "$path" == frames/000.csv ]]; then
            cmp -s <("$RTMCAT" "$src" "$path") "$dir/$path" || { fail "$dir/$path: bytes differ from rtmcat"; return; }
        fi
        n=$((n + 1))
    done < <("$RTMCAT" "$src")
    [ "$(ls "$dir" | wc -l)" = 6 ] || fail "$dir: expected 5 views and frames/"
    [ "$(ls "$dir/frames" | wc -l)" = "$((n - 5))" ] || fail "$dir/frames: wrong count"
}

# error.txt holds rtmcat's message without "rtmcat: ", run from SOURCE.
check_broken() {
    local srcdir=$1 rel=$2 dir=$3
    [ "$(ls "$dir")" = error.txt ] || { fail "$dir: expected only error.txt"; return; }
    local want
    want=$(cd "$srcdir" && "$RTMCAT" "$rel" 2>&1 >/dev/null | sed 's/^rtmcat: //')
    [ "$(cat "$dir/error.txt")" = "$want" ] || fail "$dir/error.txt: '$(cat "$dir/error.txt")' != '$want'"
    [ "$(stat -c %s "$dir/error.txt")" = "$(wc -c < "$dir/error.txt")" ] || fail "error.txt size"
}

# Whether a path is gone from the mount: no stat, and not in its listing.
absent() { [ ! -e "$1" ] && ! ls "$(dirname "$1")" | grep -qx "$(basename "$1")"; }

# Waits up to one second for a condition (a command) to hold.
within_1s() {
    for _ in $(seq 20); do "$@" && return 0; sleep 0.05; done
    return 1
}

# read_across_rewrite VIEW OLD NEW TARGET: opens VIEW and reads 4 KiB, then
# overwrites TARGET (a source file) with NEW and reads the rest from rtmfs:
# the whole must equal OLD, or the read must fail; never a mix.
read_across_rewrite() {
    local v=$1 old=$2 new=$3 target=$4
    exec 3<"$v"
    dd bs=4096 count=1 <&3 >"$T/part1" 2>/dev/null
    cat "$new" > "$target"
    sleep 1.2
    sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null   # the rest must come from rtmfs
    if cat <&3 >"$T/part2" 2>/dev/null; then
        cmp -s <(cat "$T/part1" "$T/part2") "$old" || fail "$v: an open file mixed two versions"
    fi
    exec 3<&-
}
