#!/usr/bin/env bash
# make check: long
# basics.sh - really mounts rtmfs and checks it with ordinary tools: the
# mount's bytes and sizes equal rtmcat's, writes fail with EROFS, a changed
# source shows within a second, a broken file shows error.txt.  Every mount
# is unmounted by the EXIT trap, even on failure.  Skips where /dev/fuse
# cannot be used (fails under CI=true).
NAME=mount
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"

check_usage() {
    "$RTMFS" --version > "$T/version"
    grep -q "libfuse.*LZO" "$T/version" && ok "--version" || fail "--version lacks libfuse/LZO"
    "$RTMFS" --help | grep -q cache_size && ok "--help" || fail "--help lacks rtmfs options"
    local before=$FAILS
    mkdir -p "$T/empty"
    "$RTMFS" "$T/nope" "$T/empty" 2>/dev/null && fail "missing SOURCE accepted"
    echo notes > "$T/notes.txt"
    "$RTMFS" "$T/notes.txt" "$T/empty" 2>/dev/null && fail "a SOURCE file that is no .rtm or .pbo accepted"
    "$RTMFS" "$T/src" "$T/nope" 2>/dev/null && fail "missing mount point accepted"
    "$RTMFS" "$T/src" 2>/dev/null && fail "missing mount point accepted"
    "$RTMFS" "$T/src" "$T/empty" -o cache_size=lots 2>/dev/null && fail "bad cache_size accepted"
    mounted "$T/empty" && fail "something got mounted"
    block_ok "$before" "argument errors"
}

setup_tree() {
    mkdir -p "$T/src/sub/deeper"
    "$RTMGEN" "$T/src" >/dev/null && "$RTMGEN" "$T/src/sub/deeper" >/dev/null || exit 1
    cp "$T/src/run_v5.rtm" "$T/src/sub/LOUD.RTM"
    echo "not an animation" > "$T/src/readme.txt"
    chmod 640 "$T/src/sub/LOUD.RTM"
}

check_tree() {
    local m=$1 before=$FAILS
    ls -R "$m" >/dev/null || fail "ls -R"
    local src rel
    while IFS= read -r src; do
        rel=${src#"$T/src/"}
        if [ "$(basename "$rel")" = broken.rtm ]; then
            check_broken "$T/src" "$rel" "$m/$rel"
        else
            check_anim "$src" "$m/$rel"
        fi
    done < <(find "$T/src" -iname '*.rtm' -type f)
    block_ok "$before" "views equal rtmcat's bytes and sizes"
    sizes_read "$m" > "$T/sizes" && ok "every stat size equals the bytes read ($(tail -1 "$T/sizes"))" ||
        fail "stat size != bytes read: $(head -3 "$T/sizes" | tr '\n' ' ')"
    [ -e "$m/readme.txt" ] && fail "readme.txt shown without show_other"
    [ "$(stat -c %A "$m/sub/LOUD.RTM/header.txt")" = "-r--r-----" ] || fail "mode of LOUD.RTM views"
    [ "$(stat -c %F "$m/walk.rtm")" = directory ] || fail "walk.rtm is not a directory"
    [ "$(stat -c %i "$m/walk.rtm/bones.txt")" = "$(stat -c %i "$m/walk.rtm/bones.txt")" ] || fail "inode"
    local n_bones n_good
    n_bones=$(grep -rli pelvis --include=bones.txt "$m" | wc -l)
    n_good=$(find "$T/src" -iname '*.rtm' ! -name broken.rtm | wc -l)
    [ "$n_bones" = "$n_good" ] && ok "grep -r finds every bones.txt" || fail "grep -r: $n_bones != $n_good"
    diff <("$RTMCAT" "$T/src/walk.rtm" frames/010.csv) "$m/walk.rtm/frames/010.csv" >/dev/null || fail "diff frame 10"
    diff -r "$m/sub/deeper" "$m/sub/deeper" >/dev/null || fail "diff -r"
}

check_readonly() {
    local m=$1 e before=$FAILS
    e=$(touch "$m/new" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "touch: $e"
    e=$(touch "$m/walk.rtm/header.txt" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "touch view: $e"
    e=$(rm -f "$m/walk.rtm/bones.txt" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "rm: $e"
    e=$(rm -rf "$m/sub" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "rm -r: $e"
    e=$(mkdir "$m/d" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "mkdir: $e"
    e=$( (echo x > "$m/walk.rtm/header.txt") 2>&1); [[ $e == *"Read-only file system"* ]] || fail "echo >: $e"
    e=$(mv "$m/walk.rtm" "$m/x.rtm" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "mv: $e"
    e=$(chmod 600 "$m/walk.rtm/header.txt" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "chmod: $e"
    e=$(truncate -s 0 "$m/walk.rtm/header.txt" 2>&1); [[ $e == *"Read-only file system"* ]] || fail "truncate: $e"
    if command -v setfattr >/dev/null; then
        e=$(setfattr -n user.x -v 1 "$m/walk.rtm/header.txt" 2>&1)
        [[ $e == *"Read-only file system"* ]] || fail "setfattr: $e"
    else
        skip_or_fail "not installed: attr" "setxattr gives EROFS (setfattr)"
    fi
    [ -e "$T/src/walk.rtm" ] && [ ! -e "$T/src/new" ] || fail "SOURCE changed"
    block_ok "$before" "writes give EROFS"
}

header_is() { cmp -s "$1" <("$RTMCAT" "$2" header.txt) && [ "$(stat -c %s "$1")" = "$(wc -c < "$1")" ]; }

# A file kept open across a rewrite of its source reads its first version
# to the end, or fails: it never mixes two versions.
check_open_version() {
    local m=$1 v=$1/walk.rtm/plain.rtm before=$FAILS
    cp "$T/src/walk.rtm" "$T/old.rtm"
    read_across_rewrite "$v" "$T/old.rtm" "$T/src/sub/deeper/wave_v3.rtm" "$T/src/walk.rtm"
    cmp -s "$v" <("$RTMCAT" "$T/src/walk.rtm" plain.rtm) || fail "a new open does not see the new version"
    cp "$T/old.rtm" "$T/src/walk.rtm"
    within_1s header_is "$m/walk.rtm/header.txt" "$T/src/walk.rtm" || fail "restore not seen"
    block_ok "$before" "an open file never mixes two versions"
}

check_changes() {
    local m=$1 before=$FAILS
    cat "$m/walk.rtm/header.txt" "$m/walk.rtm/frames/000.csv" >/dev/null
    cat "$T/src/sub/deeper/wave_v3.rtm" > "$T/src/walk.rtm"        # rewritten in place
    within_1s header_is "$m/walk.rtm/header.txt" "$T/src/walk.rtm" \
        && ok "rewritten file shows new content" || fail "rewrite not seen within 1 s"
    check_anim "$T/src/walk.rtm" "$m/walk.rtm" quick
    cp "$T/src/run_v5.rtm" "$T/src/.tmp" && mv "$T/src/.tmp" "$T/src/walk.rtm"   # replaced
    within_1s header_is "$m/walk.rtm/header.txt" "$T/src/walk.rtm" || fail "replace not seen"
    cp "$T/src/step_props.rtm" "$T/src/sub/added.rtm"
    within_1s test -s "$m/sub/added.rtm/header.txt" || fail "added file not seen"
    mv "$T/src/sub/added.rtm" "$T/src/sub/renamed.rtm"
    within_1s absent "$m/sub/added.rtm" && within_1s test -e "$m/sub/renamed.rtm/bones.txt" \
        || fail "rename not seen"
    rm "$T/src/sub/renamed.rtm"
    within_1s absent "$m/sub/renamed.rtm" || fail "removal not seen"
    head -c 900 "$T/src/run_v5.rtm" > "$T/src/walk.rtm"            # now broken
    within_1s test -e "$m/walk.rtm/error.txt" || fail "breakage not seen"
    check_broken "$T/src" walk.rtm "$m/walk.rtm"
    block_ok "$before" "changes in SOURCE show within 1 s"
}

check_parallel() {
    local m=$1 i before=$FAILS
    for i in $(seq 8); do cat "$m/sub/deeper/run_v5.rtm/plain.rtm" > "$T/par.$i" & done
    wait
    for i in $(seq 8); do
        cmp -s "$T/par.$i" <("$RTMCAT" "$T/src/sub/deeper/run_v5.rtm" plain.rtm) || fail "parallel read $i"
    done
    block_ok "$before" "parallel first reads"
}

check_show_other() {
    local m=$T/mnt_other before=$FAILS
    do_mount "$T/src" "$m" -o show_other,cache_size=1M || return
    cmp -s "$m/readme.txt" "$T/src/readme.txt" || fail "show_other: readme.txt"
    [ "$(stat -c %A "$m/readme.txt")" = "-r--r--r--" ] || fail "show_other: mode"
    local e; e=$( (echo x >> "$m/readme.txt") 2>&1); [[ $e == *"Read-only"* ]] || fail "show_other write: $e"
    check_anim "$T/src/sub/deeper/run_v5.rtm" "$m/sub/deeper/run_v5.rtm"
    do_umount "$m"
    block_ok "$before" "show_other, small cache"
}

check_signals() {
    local m=$T/mnt_sig pid
    mkdir -p "$m"
    MOUNTS+=("$m")
    "$RTMFS" -f -s "$T/src" "$m" -o ro,nosuid,nodev,noexec,noauto,user,auto & pid=$!
    within_1s mounted "$m" || { fail "-f -s mount"; return; }
    check_anim "$T/src/sub/deeper/step_props.rtm" "$m/sub/deeper/step_props.rtm"
    kill -TERM $pid
    local before=$FAILS
    wait $pid || fail "rtmfs exit status after SIGTERM"
    mounted "$m" && fail "still mounted after SIGTERM"
    block_ok "$before" "SIGTERM unmounts cleanly"
}

# mount(8) runs mount.fuse3 with PATH removed, which runs "rtmfs SOURCE MNT
# -o OPTS" through /bin/sh: run that helper directly with rtmfs on PATH, and
# mount(8) itself (command line and an fstab line) when rtmfs is installed.
check_mount_helper() {
    command -v mount.fuse3 >/dev/null || { skip_or_fail "not installed: fuse3" "mount.fuse3"; return; }
    local m=$T/mnt_helper before=$FAILS
    mkdir -p "$m"
    MOUNTS+=("$m")
    PATH="$BUILD:$PATH" mount.fuse3 "$T/src" "$m" -t fuse.rtmfs -o ro,noauto,nodev,user \
        || { fail "mount.fuse3 -t fuse.rtmfs"; return; }
    grep -qs "^$T/src $m fuse.rtmfs " /proc/mounts || fail "/proc/mounts line"
    check_anim "$T/src/sub/LOUD.RTM" "$m/sub/LOUD.RTM" quick
    do_umount "$m"
    block_ok "$before" "mount.fuse3 runs rtmfs"
    if [ "$(id -u)" != 0 ]; then
        skip "not root" "mount -t fuse.rtmfs and fstab"; return
    fi
    if ! env -i /bin/sh -c 'command -v rtmfs' >/dev/null; then
        skip "not installed: rtmfs" "mount -t fuse.rtmfs and fstab (make install puts rtmfs on the default PATH)"; return
    fi
    before=$FAILS
    mount -t fuse.rtmfs -o ro,noauto "$T/src" "$m" || { fail "mount -t fuse.rtmfs"; return; }
    check_anim "$T/src/sub/LOUD.RTM" "$m/sub/LOUD.RTM" quick
    umount "$m" || fail "umount"
    echo "$T/src $m fuse.rtmfs ro,noauto,nosuid 0 0" > "$T/fstab"
    mount -T "$T/fstab" "$m" && mounted "$m" || { fail "mount from an fstab line"; return; }
    umount "$m" || fail "umount"
    block_ok "$before" "mount -t fuse.rtmfs and fstab"
}

# The mount point inside SOURCE: never shown (it would show itself without
# end), and a single-threaded rtmfs never waits for itself.
check_mount_inside() {
    local s=$T/inside m=$T/inside/view before=$FAILS
    mkdir -p "$m"
    cp "$T/src/sub/deeper/walk.rtm" "$s/"
    do_mount "$s" "$m" || return
    timeout 20 find "$m" > "$T/find.out" 2>&1 || fail "find over a mount inside SOURCE: status $?"
    grep -q "/view/view" "$T/find.out" && fail "the mount shows itself: $(grep -c /view/ "$T/find.out") paths"
    grep -q "^$m/walk.rtm/header.txt$" "$T/find.out" || fail "the mount inside SOURCE lost walk.rtm"
    [ "$(timeout 20 grep -rl -i pelvis --include=bones.txt "$m" | wc -l)" = 1 ] || fail "grep -r over a mount inside SOURCE"
    do_umount "$m"
    do_mount "$s" "$m" -s || return
    timeout 10 ls "$m/view" >/dev/null 2>&1; local rc=$?
    [ $rc = 124 ] && fail "-s: ls of the mount point inside the mount hangs"
    [ $rc = 2 ] || fail "-s: ls of the mount point inside the mount: status $rc, expected 2 (no such file)"
    timeout 10 ls "$m" >/dev/null || fail "-s: the mount no longer answers"
    do_umount "$m"
    block_ok "$before" "a mount point inside SOURCE is not shown, nothing waits for itself"
}

check_corpus() {
    local corpus=$SHARED/corpus m=$T/mnt_corpus src rel n=0 before=$FAILS
    have_corpus || { skip "no ../shared" "the shared corpus through a mount"; return; }
    do_mount "$corpus" "$m" -o cache_size=16M || return
    while IFS= read -r src; do
        rel=${src#"$corpus/"}
        if "$RTMCAT" "$src" >/dev/null 2>&1; then
            check_anim "$src" "$m/$rel" quick
        else
            check_broken "$corpus" "$rel" "$m/$rel"
        fi
        n=$((n + 1))
    done < <(find "$corpus" -iname '*.rtm' -type f)
    do_umount "$m"
    block_ok "$before" "shared corpus: $n files"
}

# A skeleton.txt copied out of the mount, edited, and mounted with
# -o skeleton=: the frames stay, the edited joint moves; -o skeleton=none
# has no joints/ and says why.
check_skeleton_round_trip() {
    local m=$T/mnt_skel before=$FAILS
    do_mount "$T/src" "$m" || return
    cp "$m/run_v5.rtm/skeleton.txt" "$T/my.skel"
    cp "$m/run_v5.rtm/plain.rtm" "$T/ofp2_plain.rtm"
    cp "$m/run_v5.rtm/joints/003.csv" "$T/ofp2_joints.csv"
    do_umount "$m"
    awk '$1 == "head" { $3 += 0.1 } { print }' "$T/my.skel" > "$T/edited.skel"
    do_mount "$T/src" "$m" -o skeleton="$T/edited.skel" || return
    cmp -s "$m/run_v5.rtm/plain.rtm" "$T/ofp2_plain.rtm" || fail "an edited skeleton.txt changed the frames"
    cmp -s <(grep -v '^head,' "$m/run_v5.rtm/joints/003.csv") <(grep -v '^head,' "$T/ofp2_joints.csv") \
        && ! cmp -s "$m/run_v5.rtm/joints/003.csv" "$T/ofp2_joints.csv" \
        || fail "the edited pivot did not move only its joint"
    do_umount "$m"
    do_mount "$T/src" "$m" -o skeleton=none || return
    [ -e "$m/run_v5.rtm/joints" ] && fail "joints/ without pivots"
    grep -q '^rest_pose: none' "$m/run_v5.rtm/header.txt" || fail "header.txt does not say why"
    do_umount "$m"
    block_ok "$before" "skeleton.txt, edited, mounts with -o skeleton= and round-trips"
}

need_fuse "mount tests"
setup_tree
check_usage
do_mount "$T/src" "$T/mnt" || exit 1
grep -qs "^$T/src $T/mnt fuse.rtmfs ro," /proc/mounts && ok "/proc/mounts says fuse.rtmfs" \
    || fail "/proc/mounts line"
check_tree "$T/mnt"
check_readonly "$T/mnt"
check_parallel "$T/mnt"
check_open_version "$T/mnt"
check_changes "$T/mnt"
# (do_umount returns 0 after its own fail)
before=$FAILS
do_umount "$T/mnt"
block_ok "$before" "fusermount3 -u"
check_show_other
check_signals
check_mount_helper
check_mount_inside
check_skeleton_round_trip
check_corpus
finish mount/basics
