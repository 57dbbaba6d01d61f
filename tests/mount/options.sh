#!/usr/bin/env bash
# options.sh - the mount options people know from fuse-archive, ratarmount
# and sshfs: uid/gid/umask/dmask/fmask (and what umask= does for a copy a
# user wants to delete), fsname/subtype in /proc/mounts, options that are
# refused with a message and no mount left behind, max_read, a mount point
# already in use, -V's order, and the skeleton option's messages.
NAME=options
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C

need_fuse "mount option tests"
"$RTMGEN" "$S" >/dev/null || { fail "rtmgen"; exit 1; }

# stat's "uid gid mode" of each path, one line each
owners() { local p; for p in "$@"; do stat -c '%u %g %a' "$p"; done | sort -u | tr '\n' '|'; }

check_owner_and_masks() {
    local before=$FAILS
    do_mount "$S" "$M" -o uid=1234,gid=4321,umask=022 || return
    [ "$(owners "$M" "$M/walk.rtm" "$M/walk.rtm/frames")" = "1234 4321 755|" ] \
        || fail "umask=022 folders: $(owners "$M" "$M/walk.rtm" "$M/walk.rtm/frames")"
    # as in libfuse's high-level API (and vfat): 0777 & ~mask, files too
    [ "$(owners "$M/walk.rtm/header.txt" "$M/broken.rtm/error.txt")" = "1234 4321 755|" ] \
        || fail "umask=022 files: $(owners "$M/walk.rtm/header.txt")"
    e=$(touch "$M/walk.rtm/header.txt" 2>&1) && fail "a write bit made the mount writable"
    [[ $e == *"Read-only file system"* ]] || fail "touch: $e"
    do_umount "$M"
    do_mount "$S" "$M" -o dmask=027,fmask=137 || return
    [ "$(owners "$M/walk.rtm")" = "0 0 750|" ] || fail "dmask=027: $(owners "$M/walk.rtm")"
    [ "$(owners "$M/walk.rtm/bones.txt")" = "0 0 640|" ] || fail "fmask=137: $(owners "$M/walk.rtm/bones.txt")"
    do_umount "$M"
    do_mount "$S" "$M" -o umask=077,fmask=022 || return   # fmask= wins for files
    [ "$(owners "$M/walk.rtm" "$M/walk.rtm/plain.rtm")" = "0 0 700|0 0 755|" ] \
        || fail "umask with fmask: $(owners "$M/walk.rtm" "$M/walk.rtm/plain.rtm")"
    do_umount "$M"
    block_ok "$before" "uid, gid, umask, dmask and fmask set what stat shows"
}

# A user copies a folder out of the mount and wants to delete the copy:
# with the source's modes (read-only) they cannot; with umask=022 they can.
check_copy_can_be_deleted() {
    local nb=(setpriv --reuid=65534 --regid=65534 --clear-groups) w=$T/nobody
    if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
        skip "not root or no setpriv" "a copy deleted by another user"
        return
    fi
    mkdir -p "$w" && chown 65534 "$w"
    do_mount "$S" "$M" -o allow_other || return
    "${nb[@]}" cp -r "$M/walk.rtm" "$w/plain_modes"
    "${nb[@]}" rm -rf "$w/plain_modes" 2>/dev/null && fail "the read-only copy was deletable (test is wrong)"
    do_umount "$M"
    do_mount "$S" "$M" -o allow_other,umask=022 || return
    "${nb[@]}" cp -r "$M/walk.rtm" "$w/umask"
    "${nb[@]}" rm -rf "$w/umask" 2>"$T/rm.err" && ok "with umask=022 a user can delete what they copied out" \
        || fail "copy made with umask=022 not deletable: $(head -c 200 "$T/rm.err")"
    do_umount "$M"
    chmod -R u+w "$w"
}

check_names_in_proc_mounts() {
    do_mount "$S" "$M" || return
    grep -q "^$S $M fuse.rtmfs ro," /proc/mounts || fail "default: $(grep " $M " /proc/mounts)"
    do_umount "$M"
    mkdir -p "$M"
    MOUNTS+=("$M")
    "$RTMFS" "$S" "$M" -o 'fsname=my\,mods,subtype=arma' 2>"$T/err" || { fail "fsname/subtype: $(cat "$T/err")"; return; }
    grep -q "^my,mods $M fuse.arma ro," /proc/mounts && ok "fsname= and subtype= show in /proc/mounts" \
        || fail "fsname/subtype: $(grep " $M " /proc/mounts)"
    [ -s "$M/walk.rtm/header.txt" ] || fail "fsname/subtype mount does not read"
    fusermount3 -u "$M"
}

# Every refused option: a message, a non-zero exit, and no mount left.
check_refused_options() {
    local o before=$FAILS
    mkdir -p "$M"
    for o in nonsense max_read=abc max_read= uid=abc uid=-1 gid=1x umask=999 dmask=8 fmask= \
             fsname= subtype= skeleton=/nonexistent cache_size=lots digits=10 digits=x digits=; do
        if timeout 20 "$RTMFS" -o "$o" "$S" "$M" 2>"$T/err"; then
            fail "-o $o: exit status 0"
            fusermount3 -u "$M" 2>/dev/null
            continue
        fi
        [ -s "$T/err" ] || fail "-o $o: no message"
        grep -qs " $M " /proc/mounts && { fail "-o $o: left a mount"; fusermount3 -u "$M"; }
    done
    block_ok "$before" "refused options: a message, a non-zero exit, no mount"
    # max_read= is honoured, not refused: reads come in 4 KiB pieces
    do_mount "$S" "$M" -o max_read=4096 || return
    cmp -s "$M/walk.rtm/plain.rtm" "$S/walk.rtm" && ok "max_read=4096 mounts and reads" \
        || fail "max_read=4096: plain.rtm differs"
    do_umount "$M"
}

check_mountpoint_in_use() {
    do_mount "$S" "$M" || return
    mkdir -p "$T/other"
    "$RTMGEN" -p "$T/other/x.pbo" >/dev/null
    "$RTMFS" "$T/other" "$M" 2>"$T/err" || { fail "stacked mount refused: $(cat "$T/err")"; return; }
    grep -q "warning: $M is already a mount point" "$T/err" && ok "a mount point in use: a warning" \
        || fail "no warning: $(cat "$T/err")"
    fusermount3 -u "$M"
    do_umount "$M"
    "$RTMFS" "$S" "$M" 2>"$T/err" && ! grep -q warning "$T/err" || fail "warning on a free mount point"
    fusermount3 -u "$M"
}

check_version_and_skeleton_messages() {
    [[ $("$RTMFS" -V | head -1) == "rtmfs "* ]] && ok "rtmfs -V | cat: rtmfs's line first" \
        || fail "-V order: $("$RTMFS" -V | head -1)"
    local e
    e=$("$RTMFS" -o skeleton=/nonexistent "$S" "$M" 2>&1)
    [ "$(grep -o skeleton <<<"$e" | wc -l)" = 1 ] && [[ $e == *"ofp2 or none"* ]] \
        && ok "skeleton=/nonexistent: said once, with the built-in names" || fail "skeleton message: $e"
    do_mount "$S" "$M" -o skeleton=OFP2 || return
    grep -q '^skeleton: ofp2' "$M/run_v5.rtm/header.txt" && ok "skeleton=OFP2 is the built-in ofp2" \
        || fail "skeleton=OFP2: $(grep skeleton "$M/run_v5.rtm/header.txt")"
    do_umount "$M"
}

check_owner_and_masks
check_copy_can_be_deleted
check_names_in_proc_mounts
check_refused_options
check_mountpoint_in_use
check_version_and_skeleton_messages
finish mount/options
