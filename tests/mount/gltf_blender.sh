#!/usr/bin/env bash
# make check: long
# gltf_blender.sh - glTF and FBX from a real client (rtm(5), GLTF SOURCES):
# Blender imports each of the two shared BVH clips (../shared/bvh) and
# exports it as GLB and as FBX (tests/blender/gltf_export.py); the three
# files of each clip are mounted side by side, and in every frame each
# limb (thighs, shins, upper arms, forearms, both sides) of the GLB and of
# the FBX, as joints/ gives it, points as the BVH's within 5 degrees.  The
# three are read onto the same skeleton in the same axes, so the one fixed
# change of axes is none.  Skips without ../shared/bvh; without blender,
# skips (fails under CI).
NAME=gltf-blender
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
S=$T/src M=$T/mnt
command -v blender >/dev/null || {
    skip_or_fail "not installed: blender" "Blender's GLB and FBX of the shared clips"
    finish mount/gltf_blender
}
[ -f "$SHARED/bvh/cmu_01_01.bvh" ] || { skip "no ../shared/bvh" "Blender's GLB and FBX"; finish mount/gltf_blender; }
need_fuse "Blender's GLB and FBX of the shared clips"
mkdir -p "$S"
clips=(cmu_01_01 mixamo_freebvh)
args=()
for c in "${clips[@]}"; do
    cp "$SHARED/bvh/$c.bvh" "$S/"
    args+=("$SHARED/bvh/$c.bvh" "$S/$c")
done
timeout 600 blender -b --factory-startup --python-exit-code 2 --python tests/blender/gltf_export.py \
    -- "${args[@]}" >"$T/blender.log" 2>&1
grep -q '^blender: ' "$T/blender.log" || fail "blender did not finish: $(tail -5 "$T/blender.log")"
grep '^FAIL' "$T/blender.log" | while IFS= read -r l; do fail "$l"; done
# the converter beside the programs (rtmfs-fbx), not one a caller planted
unset RTMFS_FBX
do_mount "$S" "$M" || exit 1
for c in "${clips[@]}"; do
    python3 - "$M/$c" >"$T/$c.result" <<'PY'
import math, os, sys
base = sys.argv[1]
LIMBS = [('LeftUpLeg', 'LeftLeg'), ('LeftLeg', 'LeftFoot'), ('LeftArm', 'LeftForeArm'),
         ('LeftForeArm', 'LeftHand')]
LIMBS += [(a.replace('Left', 'Right'), b.replace('Left', 'Right')) for a, b in LIMBS]
def joints(path):
    with open(path) as f:
        rows = [r.split(',') for r in f.read().splitlines()[1:]]
    return {r[0]: [float(v) for v in r[1:4]] for r in rows if '' not in r[1:4]}
def angle(u, v):
    d = sum(x * y for x, y in zip(u, v))
    n = math.sqrt(sum(x * x for x in u) * sum(y * y for y in v))
    return math.degrees(math.acos(max(-1.0, min(1.0, d / n))))
src = base + '.bvh/joints'
frames = sorted(os.listdir(src))
for ext in ('glb', 'fbx'):
    got = base + '.' + ext + '/joints'
    if sorted(os.listdir(got)) != frames:
        print('%s %d frames, not %d' % (ext, len(os.listdir(got)), len(frames)))
        continue
    worst, compared = 0.0, 0
    for fr in frames:
        a, b = joints(os.path.join(src, fr)), joints(os.path.join(got, fr))
        for p, c in LIMBS:
            u = [a[c][k] - a[p][k] for k in range(3)]
            v = [b[c][k] - b[p][k] for k in range(3)]
            worst = max(worst, angle(u, v))
            compared += 1
    print('%s %d %.4f' % (ext, compared, worst))
PY
    while read -r ext n worst; do
        if [[ "$n" =~ ^[0-9]+$ ]] && awk -v w="$worst" 'BEGIN { exit !(w <= 5) }'; then
            ok "$c.$ext (Blender's export) read by rtmfs: $n limbs in every frame, the worst $worst degrees from the BVH's"
        else
            fail "$c.$ext: $n $worst"
        fi
    done <"$T/$c.result"
done
do_umount "$M"
finish mount/gltf_blender
