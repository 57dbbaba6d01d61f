#!/usr/bin/env bash
# glb_readback.sh - anim.glb read back as a source: every animation of
# ../shared/corpus (rtmgen's samples without it) mounted, its anim.glb
# copied out and mounted again; every joint of every frame of the copy
# (joints/) within 1 mm of the original's, bone by bone (names in any
# case: the copy's bones are the skeleton's, the original's as the file
# spells them; a joint a frame leaves empty, of a matrix not usable, is
# not compared).
NAME=glb_readback
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
need_fuse "anim.glb read back"
command -v python3 >/dev/null || { skip_or_fail "no python3" "anim.glb read back"; finish mount/glb_readback; exit; }
if [ -d "$SHARED/corpus" ]; then
    SRC=$SHARED/corpus
else
    echo "glb_readback: ../shared not found; rtmgen's samples"
    SRC=$T/samples
    "$RTMGEN" "$SRC" >/dev/null || fail "rtmgen"
fi
mkdir -p "$T/glb" "$T/m1" "$T/m2"
do_mount "$SRC" "$T/m1" || exit 1
n=0
while IFS= read -r -d '' d; do
    [ -f "$d/anim.glb" ] || continue
    n=$((n + 1))
    cp "$d/anim.glb" "$T/glb/$n.glb"
    printf '%s\t%s\n' "$n" "${d#"$T/m1/"}" >>"$T/pairs"
done < <(find "$T/m1" -mindepth 1 -type d \( -iname '*.rtm' \) -print0 | sort -z)
do_mount "$T/glb" "$T/m2" || exit 1
python3 - "$T/m1" "$T/m2" "$T/pairs" >"$T/result" <<'PY'
import os, sys
m1, m2, pairs = sys.argv[1:4]
def joints(path):
    with open(path) as f:
        rows = f.read().splitlines()[1:]
    # a joint of a frame whose matrix is not usable has no place (empty)
    return {r.split(',')[0].lower(): [float(v) for v in r.split(',')[1:4]]
            for r in rows if '' not in r.split(',')[1:4]}
good = bad = 0
worst = (0.0, '')
for line in open(pairs):
    n, rel = line.rstrip('\n').split('\t')
    a, b = os.path.join(m1, rel, 'joints'), os.path.join(m2, n + '.glb', 'joints')
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    err = 0.0 if len(fa) == len(fb) else float('inf')
    for x, y in zip(fa, fb) if err == 0 else []:
        ja, jb = joints(os.path.join(a, x)), joints(os.path.join(b, y))
        for bone, p in ja.items():
            if bone in jb:
                err = max(err, max(abs(u - v) for u, v in zip(p, jb[bone])))
    if err <= 0.001:
        good += 1
    else:
        bad += 1
        print('far: %s: %s' % (rel, 'frame counts differ' if err == float('inf') else '%.4f m' % err))
    if err > worst[0] and err != float('inf'):
        worst = (err, rel)
print('result %d %d %.6f %s' % (good, bad, worst[0] * 1000, worst[1]))
PY
read -r _ good bad worst_mm worst_file < <(grep '^result' "$T/result")
grep '^far' "$T/result" | head -5
[ "$n" -gt 0 ] && [ "$bad" = 0 ] && [ "$good" = "$n" ] &&
    ok "anim.glb of $n animations read back: every joint of every frame within 1 mm (worst $worst_mm mm, $worst_file)" ||
    fail "anim.glb read back: $good of $n within 1 mm, $bad not"
do_umount "$T/m2"
do_umount "$T/m1"
finish mount/glb_readback
