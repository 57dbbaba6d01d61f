#!/usr/bin/env bash
# gltf.sh - glTF, GLB and FBX as animation sources through a real mount
# (rtm(5), GLTF SOURCES): rtmgen -G's arm as a GLB of two clips, as .gltf
# text whose buffer is the file beside it (a uri with %20), inline, and
# the same in an archive; each a folder of every view whose stat sizes are
# the bytes read and whose bytes are rtmcat's; the second clip in clips/;
# the buffer rewritten or removed while mounted shows within a second.
# FBX goes through a converter planted with RTMFS_FBX (one that gives the
# arm's GLB, one that dies of SEGV): the mount reads the first and says
# why of the second, and lives on; an FBX in an archive too.
NAME=gltf
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "glTF mount tests"

mkdir -p "$S/arm" "$T/gen"
"$RTMGEN" -G "$T/gen" >/dev/null || fail "rtmgen -G"
cp "$T/gen/"* "$S/arm/"
mv "$S/arm/arm_inline.gltf" "$S/arm/INLINE.GLTF"
"$RTMGEN" -a "$S/pack.pbo" "$T/gen/arm.gltf" "$T/gen/arm data.bin" "$T/gen/arm.glb" >/dev/null ||
    fail "rtmgen -a"
# FBX: a file that starts as binary FBX does, read by planted converters
printf 'Kaydara FBX Binary  \0 the arm\n' >"$S/arm/walk.fbx"
printf 'Kaydara FBX Binary  \0 CRASH\n' >"$S/arm/crash.fbx"
cat >"$T/fbx" <<CONV
#!/bin/sh
# a converter for the tests: the arm's GLB, or a death by SEGV
if grep -q CRASH; then kill -SEGV \$\$; fi
cat "$T/gen/arm.glb"
CONV
chmod +x "$T/fbx"
export RTMFS_FBX=$T/fbx
"$RTMGEN" -a "$S/fbx.pbo" "$S/arm/walk.fbx" >/dev/null || fail "rtmgen -a fbx"
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }

do_mount "$S" "$M" || exit 1
A=$M/arm
[ -d "$A/arm.glb" ] && [ -d "$A/arm.gltf" ] && [ -d "$A/INLINE.GLTF" ] && [ -d "$A/walk.fbx" ] &&
    ! [ -e "$A/arm data.bin" ] &&
    ok "every .glb, .gltf (any case) and .fbx is an animation's folder; the buffer is not" ||
    fail "listing: $(ls "$A")"
for f in arm.glb arm.gltf INLINE.GLTF; do
    check_anim "$S/arm/$f" "$A/$f" quick
done
ok "glb, gltf with its buffer beside it, gltf inline: every view as rtmcat gives it, sizes exact"
grep -qx 'format: glb' "$A/arm.glb/header.txt" &&
    grep -qx 'clip: 1 of 2 bend (the others: clips/)' "$A/arm.glb/header.txt" &&
    [ "$(ls "$A/arm.glb/clips")" = lift ] &&
    grep -qx 'clip: 2 of 2 lift' "$A/arm.glb/clips/lift/header.txt" &&
    grep -qx 'frames: 2' "$A/arm.glb/clips/lift/header.txt" &&
    ok "two clips: the first is the folder, the second clips/lift/ with its own 2 frames" ||
    fail "clips: $(grep -e ^clip -e ^frames "$A/arm.glb/header.txt" "$A/arm.glb/clips/lift/header.txt" 2>&1)"
bad=0
while IFS= read -r -d '' f; do exact "$f" || { bad=$((bad + 1)); fail "$f: size"; }; done \
    < <(find "$A/arm.glb/clips" -type f -print0)
[ $bad = 0 ] && cmp -s "$A/arm.glb/clips/lift/plain.rtm" <("$RTMCAT" "$S/arm/arm.glb" clips/lift/plain.rtm) &&
    ok "clips/lift: every size exact, plain.rtm as rtmcat FILE clips/lift/plain.rtm" ||
    fail "clips/lift: $bad sizes wrong or plain.rtm differs"
[ -z "$(ls "$A/INLINE.GLTF" | grep -x clips)" ] && ok "a file of one clip has no clips/" ||
    fail "INLINE.GLTF lists clips/"
grep -qx 'format: gltf' "$M/pack.pbo/gen/arm.gltf/header.txt" &&
    cmp -s "$M/pack.pbo/gen/arm.gltf/plain.rtm" "$A/arm.gltf/plain.rtm" &&
    ok "a .gltf in an archive reads its buffer from the entry beside it" ||
    fail "archive: $(ls "$M/pack.pbo/gen/arm.gltf" 2>&1 | head -3)"
grep -rl RightForeArm --include=bones.txt "$A" | grep -q arm.glb/bones.txt &&
    ok "grep -r finds the bones of a glTF's bones.txt" || fail "grep -r"

# the buffer rewritten while mounted: a new version at once, sizes exact
before=$(cat "$A/arm.gltf/moving.txt")
printf '\0\0\200\77' | dd of="$S/arm/arm data.bin" bs=1 seek=212 conv=notrunc status=none
changed() { [ "$(cat "$A/arm.gltf/moving.txt")" != "$before" ] && exact "$A/arm.gltf/moving.txt" &&
            cmp -s "$A/arm.gltf/plain.rtm" <("$RTMCAT" "$S/arm/arm.gltf" plain.rtm); }
within_1s changed && ok "its buffer rewritten while mounted: the views follow within 1 s, sizes exact" ||
    fail "rewritten: moving.txt unchanged"
mv "$S/arm/arm data.bin" "$T/away.bin"
# its names and counts are in the JSON: the first full read finds the
# buffer gone (as damage past a BMTR file's names), then error.txt says so
lost() { cat "$A/arm.gltf/header.txt" >/dev/null 2>&1
         [ "$(ls "$A/arm.gltf")" = error.txt ] && grep -q 'arm data.bin: no such file beside it' "$A/arm.gltf/error.txt"; }
within_1s lost && ok "its buffer removed: a full read fails, then error.txt names it ($(cat "$A/arm.gltf/error.txt"))" ||
    fail "removed: $(ls "$A/arm.gltf")"
mv "$T/away.bin" "$S/arm/arm data.bin"
back() { [ -f "$A/arm.gltf/header.txt" ] && exact "$A/arm.gltf/header.txt"; }
within_1s back && ok "and put back: the views again" || fail "back: $(ls "$A/arm.gltf")"

# bvh.map maps a glTF's joints as it maps a BVH's
printf 'RightForeArm -\n' >"$S/arm/bvh.map"
mapped() { grep -qx 'bvh_map: RightForeArm - (map file)' "$A/arm.glb/header.txt" && exact "$A/arm.glb/header.txt"; }
within_1s mapped && ok "bvh.map beside a GLB maps its joints, shown within 1 s" ||
    fail "map: $(grep RightForeArm "$A/arm.glb/header.txt")"
rm "$S/arm/bvh.map"

# FBX through the planted converters
grep -qx 'format: fbx' "$A/walk.fbx/header.txt" &&
    grep -qx 'clip: 1 of 2 bend (the others: clips/)' "$A/walk.fbx/header.txt" && exact "$A/walk.fbx/header.txt" &&
    ok "an .fbx read through its converter (RTMFS_FBX): every view, its clips" ||
    fail "fbx: $(head -3 "$A/walk.fbx/header.txt" 2>&1)"
grep -qx 'format: fbx' "$M/fbx.pbo/arm/walk.fbx/header.txt" &&
    ok "an .fbx in an archive: its entry's bytes through the converter" ||
    fail "fbx in an archive: $(ls "$M/fbx.pbo" 2>&1)"
[ "$(ls "$A/crash.fbx")" = error.txt ] && grep -q 'rtmfs-fbx died of signal 11' "$A/crash.fbx/error.txt" &&
    [ -f "$A/arm.glb/header.txt" ] &&
    ok "a converter that dies: error.txt says so, the mount lives ($(cat "$A/crash.fbx/error.txt"))" ||
    fail "crash: $(ls "$A/crash.fbx"; cat "$A/crash.fbx/error.txt" 2>&1)"
do_umount "$M"
finish mount/gltf
