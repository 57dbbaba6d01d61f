#!/usr/bin/env bash
# gltf_real.sh - glTF and FBX files other tools wrote: the test models of
# Debian's assimp-testmodels (FBX from 3ds Max, Maya and Blender; glTF 1
# and 2 from Khronos's samples and asset generator, some of them broken on
# purpose) mounted as a SOURCE and walked as find | xargs cat does.  The
# mount lives through all of it, every stat size is the bytes read, and
# what is no animation says why in error.txt: a mesh "nothing to animate",
# a cycle of nodes, glTF 1, a rig that is not a person's (no joint maps).
# Skips without the package (fails under CI, which installs it).
NAME=gltf-real
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
MODELS=${RTMFS_ASSIMP_MODELS:-/usr/share/assimp/models}
M=$T/mnt
[ -d "$MODELS/glTF2" ] && [ -d "$MODELS/FBX" ] || {
    skip_or_fail "not installed: assimp-testmodels ($MODELS)" "other tools' glTF and FBX files"
    finish mount/gltf_real
}
need_fuse "other tools' glTF and FBX files"
do_mount "$MODELS" "$M" || exit 1
n=$(find "$M" -type d \( -iname '*.gltf' -o -iname '*.glb' -o -iname '*.fbx' \) | wc -l)
bad=0
while IFS= read -r -d '' f; do
    [ "$(stat -c %s "$f")" = "$(wc -c <"$f")" ] || { bad=$((bad + 1)); fail "$f: size is not the bytes"; }
done < <(find "$M" -path '*.gl*/*' -type f -print0 -o -ipath '*.fbx/*' -type f -print0)
[ "$n" -gt 60 ] && [ "$bad" = 0 ] && mounted "$M" &&
    ok "$n glTF, GLB and FBX files walked: every size the bytes read, the mount alive" ||
    fail "$n files, $bad sizes wrong"
says() { grep -q "$2" "$M/$1/error.txt" 2>/dev/null || { fail "$1: $(cat "$M/$1/error.txt" 2>&1)"; return 1; }; }
says glTF2/BoxTextured-glTF-Binary/BoxTextured.glb 'holds no skin and no animation: nothing to animate' &&
    says FBX/maxPbrMaterial_metalRough.fbx 'nothing to animate' &&
    ok "a mesh (3ds Max's FBX, Khronos's GLB): error.txt says there is nothing to animate"
says glTF2/RecursiveNodes/RecursiveNodes.gltf 'the node tree has a cycle' &&
    ok "a cycle of nodes: $(cat "$M/glTF2/RecursiveNodes/RecursiveNodes.gltf/error.txt")"
says glTF/TwoBoxes/TwoBoxes.gltf 'only glTF 2.x is read' &&
    says glTF/BoxTextured-glTF-Binary/BoxTextured.glb 'version 1, not 2' &&
    ok "glTF 1, text and binary: error.txt says only 2 is read"
says FBX/huesitos.fbx 'no joint of the clip maps to a bone' &&
    says glTF2/simple_skin/simple_skin.gltf 'no joint of the clip maps to a bone' &&
    ok "an animated rig that is not a person's (FBX, glTF): no joint maps, and a map file can say"
do_umount "$M"
finish mount/gltf_real
