#!/usr/bin/env bash
# single.sh - one file as SOURCE, as ratarmount and fuse-archive mount one
# archive: "rtmfs walk.rtm mnt" shows that animation's folder of views and
# "rtmfs mod.pbo mnt" that archive's tree.  A rewritten or replaced file
# shows within a second (watched, and with inotify unavailable); while the
# file is missing the root holds only error.txt saying so.
NAME=single
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C

need_fuse "single-file SOURCE tests"
mkdir -p "$S" "$T/gen" "$M"
"$RTMGEN" "$T/gen" >/dev/null && "$RTMGEN" -p "$T/gen/sample.pbo" || { fail "rtmgen"; exit 1; }
"$RTMGEN" -a "$T/gen/other.pbo" "$T/gen/wave_v3.rtm" || { fail "rtmgen -a"; exit 1; }

# The root of mount m shows the animation whose bytes are in file f.
shows_anim() { cmp -s "$1/header.txt" <("$RTMCAT" "$2" header.txt); }
gone_says() { [ "$(ls "$1")" = error.txt ] && grep -q "^$2: No such file or directory; " "$1/error.txt"; }

# check_rtm [ENV=VALUE]: the animation file's folder at the root
check_rtm() {
    local how=$1 before=$FAILS
    cp "$T/gen/walk.rtm" "$S/walk.rtm"
    env "$how" "$RTMFS" "$S/walk.rtm" "$M" 2>"$T/err" || { fail "rtmfs walk.rtm: $(cat "$T/err")"; return; }
    MOUNTS+=("$M")
    mounted "$M" || { fail "walk.rtm: not mounted"; return; }
    grep -q "^$S/walk.rtm $M fuse.rtmfs " /proc/mounts || fail "/proc/mounts: $(grep " $M " /proc/mounts)"
    [ "$(ls "$M" | tr '\n' ' ')" = "anim.bvh anim.glb bmtr.rtm bones.txt check.txt fixed.rtm frames header.txt joints moving.txt phases.csv plain.rtm preview.svg props.json skeleton.txt states.txt tracks " ] \
        || fail "root lists: $(ls "$M")"
    check_anim "$S/walk.rtm" "$M"
    cat "$T/gen/run_v5.rtm" > "$S/walk.rtm"                                 # rewritten
    within_1s shows_anim "$M" "$T/gen/run_v5.rtm" || fail "$how: rewrite not seen"
    cp "$T/gen/wave_v3.rtm" "$T/new.rtm" && mv "$T/new.rtm" "$S/walk.rtm"  # replaced
    within_1s shows_anim "$M" "$T/gen/wave_v3.rtm" || fail "$how: replacement not seen"
    rm "$S/walk.rtm"
    within_1s gone_says "$M" walk.rtm || fail "$how: missing file: $(ls "$M"; cat "$M/error.txt")"
    [ "$(stat -c %s "$M/error.txt")" = "$(wc -c < "$M/error.txt")" ] || fail "error.txt size"
    cp "$T/gen/walk.rtm" "$S/walk.rtm"
    within_1s shows_anim "$M" "$T/gen/walk.rtm" || fail "$how: file back, not seen"
    check_anim "$S/walk.rtm" "$M" quick
    do_umount "$M"
    block_ok "$before" "one .rtm as SOURCE ($how): its views, rewrites, missing and back"
}

check_pbo() {
    local how=$1 before=$FAILS
    cp "$T/gen/sample.pbo" "$S/mod.pbo"
    env "$how" "$RTMFS" "$S/mod.pbo" "$M" 2>"$T/err" || { fail "rtmfs mod.pbo: $(cat "$T/err")"; return; }
    MOUNTS+=("$M")
    [ "$(ls "$M" | tr '\n' ' ')" = "anims check.txt missing.txt pbo.txt " ] || fail "root lists: $(ls "$M")"
    cmp -s "$M/pbo.txt" <("$RTMCAT" "$S/mod.pbo" pbo.txt) || fail "pbo.txt"
    check_anim "$S/mod.pbo/anims/binarised/run_v5.rtm" "$M/anims/binarised/run_v5.rtm"
    [ "$(grep -rl lefthand --include=bones.txt "$M" | wc -l)" -gt 0 ] || fail "grep -r finds nothing"
    cat "$T/gen/other.pbo" > "$S/mod.pbo"                                   # rewritten
    within_1s test -d "$M/gen/wave_v3.rtm" || fail "$how: rewritten archive not seen: $(ls "$M")"
    within_1s absent "$M/anims" || fail "$how: the old archive's folder is still there"
    rm "$S/mod.pbo"
    within_1s gone_says "$M" mod.pbo || fail "$how: missing archive: $(ls "$M")"
    cp "$T/gen/sample.pbo" "$T/mod.pbo" && mv "$T/mod.pbo" "$S/mod.pbo"     # back, replaced
    within_1s test -d "$M/anims/binarised" || fail "$how: archive back, not seen"
    check_anim "$S/mod.pbo/anims/walk.rtm" "$M/anims/walk.rtm" quick
    do_umount "$M"
    block_ok "$before" "one .pbo as SOURCE ($how): its tree, rewrites, missing and back"
}

# A symlink keeps its own name: the link's, not its target's, is what rtmfs
# reads; files that are neither .rtm nor .pbo are refused.
check_link_and_refusal() {
    local before=$FAILS
    cp "$T/gen/walk.rtm" "$S/target.bin"
    ln -sf target.bin "$S/link.rtm"
    do_mount "$S/link.rtm" "$M" || return
    check_anim "$S/target.bin" "$M" quick
    do_umount "$M"
    mkdir -p "$M"
    "$RTMFS" "$S/target.bin" "$M" 2>"$T/err" && { fail "target.bin accepted"; fusermount3 -u "$M"; }
    grep -q "neither a folder nor an .rtm, .bvh or .pbo file" "$T/err" || fail "refusal: $(cat "$T/err")"
    block_ok "$before" "a symlinked .rtm mounts; other files are refused"
}

check_rtm RTMFS_WATCHED=1
check_rtm RTMFS_TEST_NO_INOTIFY=1
check_pbo RTMFS_WATCHED=1
check_pbo RTMFS_TEST_NO_INOTIFY=1
check_link_and_refusal
finish mount/single
