#!/usr/bin/env bash
# fbx.sh - rtmfs-fbx, the FBX converter (src/fbx/; rtmfs(1), FBX SOURCES):
#  - files assimp must refuse (empty, garbage, an FBX header and nothing
#    after, a truncated export) exit 1 with one line on stderr;
#  - Blender (blender -b) imports each of the two shared BVH clips
#    (../shared/bvh) and exports it as FBX with its defaults
#    (tests/blender/fbx_export.py, which also records the clip's world bone
#    heads); rtmfs-fbx converts each to GLB, whose nodes, clip, times and
#    limb directions (thighs, shins, upper arms, forearms) must be the
#    source's within 5 degrees after one fixed change of axes
#    (tests/lib/glb_limbs.py); Khronos's glTF validator checks the GLB
#    when it is installed (gltf-validator on npm, run by node).
# Without ../shared/bvh the Blender part skips; without blender it skips
# (fails under CI).
NAME=fbx
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
FBX=$BUILD/rtmfs-fbx
T=$(mktemp -d /tmp/rtmfs-fbx.XXXXXX)
trap 'rm -rf "$T"' EXIT
[ -x "$FBX" ] || { fail "$FBX not built"; finish cli/fbx; }

# refused FILE WHAT: exit 1 and one line "rtmfs-fbx: ..." on stderr
refused() {
    local rc lines
    "$FBX" <"$1" >"$T/out" 2>"$T/err"
    rc=$?
    lines=$(wc -l <"$T/err")
    if [ "$rc" = 1 ] && [ "$lines" = 1 ] && grep -q '^rtmfs-fbx: ' "$T/err" && [ ! -s "$T/out" ]; then
        ok "$2: exit 1, $(cat "$T/err")"
    else
        fail "$2: exit $rc, $lines lines on stderr: $(head -c 300 "$T/err")"
    fi
}

: >"$T/empty.fbx"
refused "$T/empty.fbx" "an empty file"
head -c 4096 /dev/urandom >"$T/garbage.fbx"
refused "$T/garbage.fbx" "4 KiB of random bytes"
printf 'Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0' >"$T/header.fbx"
refused "$T/header.fbx" "an FBX header and nothing after"
"$FBX" extra </dev/null >/dev/null 2>&1
[ $? = 2 ] && ok "a wrong command line: exit 2" || fail "a wrong command line does not exit 2"

# where the test tools are installed (gltf-validator); NODE_PATH adds to it
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/local/lib/rtmfs-test-tools/node_modules
validator() {
    command -v node >/dev/null && node -e 'require("gltf-validator")' >/dev/null 2>&1
}

if ! command -v blender >/dev/null; then
    skip_or_fail "not installed: blender" "Blender's FBX exports of the shared BVH clips"
    finish cli/fbx
fi
if [ ! -f "$SHARED/bvh/cmu_01_01.bvh" ] || [ ! -f "$SHARED/bvh/mixamo_freebvh.bvh" ]; then
    skip "no ../shared" "Blender's FBX exports of the shared BVH clips"
    finish cli/fbx
fi
clips=(cmu_01_01 mixamo_freebvh)
args=()
for c in "${clips[@]}"; do args+=("$SHARED/bvh/$c.bvh" "$T/$c.fbx" "$T/$c.json"); done
blender -b --factory-startup --python-exit-code 2 --python tests/blender/fbx_export.py -- "${args[@]}" \
    >"$T/blender.log" 2>&1 || fail "blender: $(grep -E '^FAIL|Error' "$T/blender.log" | head -3)"
for c in "${clips[@]}"; do
    [ -s "$T/$c.fbx" ] || { fail "$c: Blender wrote no FBX"; continue; }
    start=$(date +%s%N)
    if ! "$FBX" <"$T/$c.fbx" >"$T/$c.glb" 2>"$T/$c.err"; then
        fail "$c.fbx: rtmfs-fbx: $(cat "$T/$c.err")"
        continue
    fi
    ns=$(($(date +%s%N) - start))
    bytes=$(stat -c %s "$T/$c.fbx")
    echo "  $c.fbx: $bytes bytes in $((ns / 1000000)) ms," \
        "$(awk -v b="$bytes" -v ns="$ns" 'BEGIN { printf "%.1f", b / 1e6 / (ns / 1e9) }') MB/s," \
        "GLB $(stat -c %s "$T/$c.glb") bytes"
    if python3 tests/lib/glb_limbs.py "$T/$c.json" "$T/$c.glb" >"$T/$c.cmp" 2>&1; then
        ok "$(cat "$T/$c.cmp" | sed 's/^ok: //')"
    else
        fail "$(tail -3 "$T/$c.cmp")"
    fi
    if validator; then
        node tests/lib/fbx_gltf_validate.js "$T/$c.glb" >"$T/$c.val" 2>&1 &&
            ok "$c.glb: Khronos glTF validator, $(tail -1 "$T/$c.val")" ||
            fail "$c.glb: Khronos glTF validator: $(head -5 "$T/$c.val")"
    else
        skip "not installed: gltf-validator" "Khronos's validator over $c.glb"
    fi
done
# a truncated real export
if [ -s "$T/mixamo_freebvh.fbx" ]; then
    head -c 100000 "$T/mixamo_freebvh.fbx" >"$T/cut.fbx"
    refused "$T/cut.fbx" "Blender's export cut at 100,000 bytes"
fi
finish cli/fbx
