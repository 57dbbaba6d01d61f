#!/usr/bin/env bash
# make check: long
# blind.sh - SOURCE on a file system where inotify is blind: a FUSE one made
# with bindfs (as sshfs or rclone would be), and NFS where this machine can
# export to itself.  Every change is made in the BACKING folder, never
# through the view: a change through the view passes through this kernel,
# and inotify would see it.  Covered: the file system is named once on
# stderr; a file saved by rename over the old one, a file rewritten in
# place, a file added, a file removed and an archive rewritten with other
# entries each show within 1 s; an open view kept across a rewrite reads its
# old version or fails; an idle mount over 300 files uses under 1 % of a
# core; a blind mount point below a local SOURCE is blind and the rest is
# not; watch=inotify really misses changes there, and watch=poll sees them
# on a local SOURCE without inotify.
NAME=blind
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
need_fuse "blind-source tests"
if ! command -v bindfs >/dev/null; then
    skip_or_fail "not installed: bindfs" "blind-source tests (src/scripts/deps.sh installs bindfs)"
    exit $((FAILS > 0))
fi
"$RTMGEN" "$T/gen" >/dev/null || { fail "rtmgen"; finish mount/blind; }
A=$T/gen/walk.rtm B=$T/gen/wave_v3.rtm C=$T/gen/run_v5.rtm

header_is() { cmp -s "$1" <("$RTMCAT" "$2" header.txt); }
listed() { ls "$1" 2>/dev/null | grep -qx "$2"; }
requests() { grep -c "opcode:" "$T/rtmfs.err"; }

# bind BACK VIEW: VIEW shows BACK through bindfs.  Its own kernel caches are
# off: by default they hold a change back for up to a second more, which is
# bindfs's delay, not rtmfs's (rtmfs(1) says so of sshfs's).
bind() {
    mkdir -p "$2"
    MOUNTS+=("$2")
    bindfs -o attr_timeout=0,entry_timeout=0,negative_timeout=0 "$1" "$2" 2>"$T/bindfs.err" ||
        mount_failed "bindfs $1 $2" "$T/bindfs.err"
}

# The backing tree: three animations, an archive, and 300 more files.
make_back() {
    local b=$1 i
    mkdir -p "$b/sub" "$b/many" "$T/v1/gen" "$T/v2/anims"
    cp "$A" "$b/hot.rtm"; cp "$A" "$b/saved.rtm"; cp "$A" "$b/sub/deep.rtm"
    cp "$A" "$T/v1/gen/"; cp "$B" "$T/v1/gen/"; cp "$C" "$T/v2/anims/"
    "$RTMGEN" -a "$b/mod.pbo" "$T/v1/gen/walk.rtm" "$T/v1/gen/wave_v3.rtm" >/dev/null
    for i in $(seq -w 1 300); do cp "$A" "$b/many/a$i.rtm"; done
}

# An open view read across a rewrite of its file (mount.sh's helper: the
# old bytes whole, or a failure, never a mix).
check_open_view() {
    local b=$1 m=$2 before=$FAILS
    "$RTMCAT" "$A" plain.rtm > "$T/old.plain"
    read_across_rewrite "$m/hot.rtm/plain.rtm" "$T/old.plain" "$B" "$b/hot.rtm"
    block_ok "$before" "$3: an open view kept across a rewrite reads its old version or fails"
}

# changes B M WHAT: each kind of change to backing folder B shows in M
# within 1 s, after the kernel has cached what M showed before.
check_changes() {
    local b=$1 m=$2 what=$3
    header_is "$m/saved.rtm/header.txt" "$A" && header_is "$m/sub/deep.rtm/header.txt" "$A" &&
        listed "$m/sub" deep.rtm && listed "$m/mod.pbo" gen || { fail "$what: first reads"; return; }
    cp "$C" "$b/.saved.tmp" && mv "$b/.saved.tmp" "$b/saved.rtm"
    within_1s header_is "$m/saved.rtm/header.txt" "$C" &&
        ok "$what: a file saved by rename shows within 1 s" ||
        fail "$what: a file saved by rename did not show within 1 s"
    cat "$B" > "$b/sub/deep.rtm"
    within_1s header_is "$m/sub/deep.rtm/header.txt" "$B" &&
        ok "$what: a file rewritten in place shows within 1 s" ||
        fail "$what: a file rewritten in place did not show within 1 s"
    cp "$A" "$b/sub/new.rtm"
    within_1s listed "$m/sub" new.rtm && within_1s header_is "$m/sub/new.rtm/header.txt" "$A" &&
        ok "$what: an added file is listed and read within 1 s" ||
        fail "$what: an added file did not show within 1 s"
    rm "$b/sub/new.rtm"
    within_1s absent "$m/sub/new.rtm" && ok "$what: a removed file is gone within 1 s" ||
        fail "$what: a removed file still shows after 1 s"
    "$RTMGEN" -a "$b/mod.pbo" "$T/v2/anims/run_v5.rtm" >/dev/null
    within_1s header_is "$m/mod.pbo/anims/run_v5.rtm/header.txt" "$C" &&
        within_1s absent "$m/mod.pbo/gen" &&
        ok "$what: an archive rewritten with other entries shows them within 1 s" ||
        fail "$what: an archive rewritten with other entries did not show within 1 s"
}

# The daemon's CPU time (user + system, all threads) over 10 s of idleness,
# after a walk of the 300 files: its own ticks, which other jobs' load
# does not add to (make check runs it beside them; an idle mount counts 0).
check_idle() {
    local m=$1 pid=$2 hz t0 t1
    ls -lR "$m/many" >/dev/null
    cat "$m"/many/*/header.txt >/dev/null
    sleep 1
    hz=$(getconf CLK_TCK)
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    sleep 10
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    local pct; pct=$(awk -v d=$((t1 - t0)) -v hz="$hz" 'BEGIN { printf "%.2f", d / hz / 10 * 100 }')
    echo "idle: $((t1 - t0)) ticks of 1/$hz s over 10 s: $pct % of a core"
    awk -v p="$pct" 'BEGIN { exit !(p < 1) }' && ok "idle over 300 files: $pct % of a core (< 1 %)" ||
        fail "idle over 300 files: $pct % of a core (>= 1 %)"
}

# SOURCE is the bindfs view itself.
check_fuse_source() {
    local b=$T/back v=$T/view m=$T/mnt
    make_back "$b"
    bind "$b" "$v" || return
    fg_mount "$v" "$m" || return
    case $(grep -c "$v is on a fuse[^ ]* file system, where inotify misses" "$T/rtmfs.err") in
        1) ok "bindfs SOURCE: said once on stderr, with its path and type" ;;
        0) fail "bindfs SOURCE: nothing said: $(cat "$T/rtmfs.err")" ;;
        *) fail "bindfs SOURCE: said more than once" ;;
    esac
    check_open_view "$b" "$m" "bindfs SOURCE"
    check_changes "$b" "$m" "bindfs SOURCE"
    check_idle "$m" "$RTMFS_PID"
    do_umount "$m"
    fusermount3 -u "$v" || fail "fusermount3 -u $v"
}

# A local SOURCE with a bindfs view mounted below it: the mount point is
# found blind as the walk enters it, and only what is below it is asked
# again (-d prints each request the kernel makes).
check_mount_below() {
    local b=$T/back2 s=$T/src m=$T/mnt2
    make_back "$b"
    mkdir -p "$s"
    cp "$A" "$s/local.rtm"
    bind "$b" "$s/net" || return
    fg_mount "$s" "$m" -d || return
    grep -q "inotify misses" "$T/rtmfs.err" && fail "mount below: said before the walk got there"
    header_is "$m/local.rtm/header.txt" "$A" && header_is "$m/net/sub/deep.rtm/header.txt" "$A" ||
        fail "mount below: first reads"
    case $(grep -c "$s/net is on a fuse[^ ]* file system, where inotify misses" "$T/rtmfs.err") in
        1) ok "mount below: the blind mount point is named once" ;;
        *) fail "mount below: the blind mount point is not named once" ;;
    esac
    # a first stat: the kernel asks once whether rtmfs knows STATX (it does not)
    stat "$m/local.rtm/header.txt" "$m/net/sub/deep.rtm/header.txt" >/dev/null
    sleep 0.7
    local n0 n1 n2
    n0=$(requests); stat "$m/local.rtm/header.txt" >/dev/null; n1=$(requests)
    stat "$m/net/sub/deep.rtm/header.txt" >/dev/null; n2=$(requests)
    [ "$n1" = "$n0" ] && [ "$n2" -gt "$n1" ] &&
        ok "mount below: short timeouts below the mount point and nowhere else" ||
        fail "mount below: requests after 0.7 s: local $((n1 - n0)) (want 0), below $((n2 - n1)) (want > 0)"
    cat "$B" > "$b/sub/deep.rtm"
    within_1s header_is "$m/net/sub/deep.rtm/header.txt" "$B" &&
        ok "mount below: a rewrite below the mount point shows within 1 s" ||
        fail "mount below: a rewrite below the mount point did not show within 1 s"
    do_umount "$m"
    fusermount3 -u "$s/net" || fail "fusermount3 -u $s/net"
}

# watch=inotify trusts inotify, and so misses a change in the backing
# folder (which shows that the test's source is blind indeed); watch=poll
# sees a change in a local SOURCE without inotify, and says nothing.
check_modes() {
    local b=$T/back3 v=$T/view3 m=$T/mnt3 s=$T/local4 m4=$T/mnt4
    mkdir -p "$b" "$s"
    cp "$A" "$b/hot.rtm"; cp "$A" "$s/hot.rtm"
    bind "$b" "$v" || return
    fg_mount "$v" "$m" -o watch=inotify || return
    header_is "$m/hot.rtm/header.txt" "$A" || fail "watch=inotify: first read"
    cat "$B" > "$b/hot.rtm"
    sleep 1.5
    header_is "$m/hot.rtm/header.txt" "$A" && ! grep -q "inotify misses" "$T/rtmfs.err" &&
        ok "watch=inotify: a change in the backing folder is missed, as inotify misses it" ||
        fail "watch=inotify: the change showed, or the file system was named"
    do_umount "$m"
    fusermount3 -u "$v" || fail "fusermount3 -u $v"
    fg_mount "$s" "$m4" -o watch=poll || return
    header_is "$m4/hot.rtm/header.txt" "$A" || fail "watch=poll: first read"
    cat "$B" > "$s/hot.rtm"
    within_1s header_is "$m4/hot.rtm/header.txt" "$B" && [ ! -s "$T/rtmfs.err" ] &&
        ok "watch=poll: a local rewrite shows within 1 s without inotify, silently" ||
        fail "watch=poll: a local rewrite did not show within 1 s, or something was said"
    do_umount "$m4"
}

# NFS over loopback needs the kernel's NFS server and client and an
# export; a container seldom has them, and then this says why.
check_nfs() {
    local why=
    grep -qw nfsd /proc/filesystems || why="the kernel has no NFS server (nfsd)"
    [ -z "$why" ] && ! grep -qw nfs4 /proc/filesystems && why="the kernel has no NFS client"
    [ -z "$why" ] && ! command -v exportfs >/dev/null && why="not installed: nfs-kernel-server"
    [ -z "$why" ] && [ "$(id -u)" != 0 ] && why="not root"
    if [ -n "$why" ]; then
        skip "no NFS" "the same changes over an NFS loopback export ($why)"
        return
    fi
    local b=$T/nfsback v=$T/nfsview m=$T/mnt5
    make_back "$b"
    mkdir -p "$v"
    NFS_B=$b NFS_V=$v
    trap 'umount -l "$NFS_V" 2>/dev/null; exportfs -u "127.0.0.1:$NFS_B" 2>/dev/null; cleanup' EXIT
    if ! { exportfs -o rw,no_root_squash,sync,insecure "127.0.0.1:$b" &&
           mount -t nfs4 -o vers=4.2 "127.0.0.1:$b" "$v"; } 2>"$T/nfs.err"; then
        skip "no NFS" "the same changes over an NFS loopback export ($(head -c 200 "$T/nfs.err"))"
        exportfs -u "127.0.0.1:$b" 2>/dev/null
        return
    fi
    fg_mount "$v" "$m" || return
    grep -q "$v is on a nfs4 file system" "$T/rtmfs.err" && ok "NFS SOURCE: named once" ||
        fail "NFS SOURCE: not named"
    check_changes "$b" "$m" "NFS SOURCE"
    do_umount "$m"
    umount "$v"; exportfs -u "127.0.0.1:$b"
}

check_fuse_source
check_mount_below
check_modes
check_nfs
finish mount/blind
