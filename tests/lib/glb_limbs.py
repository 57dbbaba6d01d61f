#!/usr/bin/env python3
"""glb_limbs.py REF.json FILE.glb [CLIP_COUNT]

Compares what rtmfs-fbx wrote (FILE.glb) with the clip Blender exported
(REF.json, tests/blender/fbx_export.py: every STEP-th frame's world bone
heads in Blender's axes, z up).  The one fixed change of axes: glTF's
(x, y, z) is Blender's (x, -z, y) read back, i.e. Blender = (x, -z, y).

Checks: the GLB holds a node for every bone, CLIP_COUNT animations (1 by
default), the first clip's last key at (last - first) / fps seconds, and
at each reference frame (time (f - first) / fps) the direction of each
limb (thighs, shins, upper arms, forearms: UpLeg->Leg, Leg->Foot,
Arm->ForeArm, ForeArm->Hand, left and right) within 5 degrees.  Also
reports the worst joint position difference (Blender's units, and
as a share of the figure's height: Blender's exporter simplifies the curves
it bakes, so positions differ a little).
Prints "ok: ..." or "FAIL: ..." lines; exits 1 when anything failed.
"""
import json
import math
import struct
import sys

LIMBS = [("UpLeg", "Leg"), ("Leg", "Foot"), ("Arm", "ForeArm"), ("ForeArm", "Hand")]
TOLERANCE_DEG = 5.0


def read_glb(path):
    data = open(path, "rb").read()
    magic, version, total = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF" and version == 2 and total == len(data), "not a GLB"
    jlen, jtype = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20:20 + jlen])
    off = 20 + jlen
    binary = b""
    if off < len(data):
        blen, _ = struct.unpack_from("<II", data, off)
        binary = data[off + 8:off + 8 + blen]
    return doc, binary


def accessor(doc, binary, i):
    acc = doc["accessors"][i]
    view = doc["bufferViews"][acc["bufferView"]]
    n = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[acc["type"]]
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    vals = struct.unpack_from("<%df" % (acc["count"] * n), binary, start)
    return [vals[k * n:(k + 1) * n] for k in range(acc["count"])]


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = [-x for x in b], -d
    if d > 0.9995:
        r = [x + u * (y - x) for x, y in zip(a, b)]
    else:
        th = math.acos(d)
        s = math.sin(th)
        r = [(math.sin((1 - u) * th) * x + math.sin(u * th) * y) / s for x, y in zip(a, b)]
    n = math.sqrt(sum(x * x for x in r))
    return [x / n for x in r]


def sample(times, values, t, path):
    if t <= times[0]:
        return values[0]
    if t >= times[-1]:
        return values[-1]
    lo, hi = 0, len(times) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if times[mid] <= t else (lo, mid)
    u = (t - times[lo]) / (times[hi] - times[lo])
    if path == "rotation":
        return slerp(values[lo], values[hi], u)
    return [x + u * (y - x) for x, y in zip(values[lo], values[hi])]


def matrix(t, q, s):
    x, y, z, w = q
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]


def mmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def world_positions(doc, tracks, t):
    nodes = doc["nodes"]
    out = {}
    stack = [(i, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]) for i in doc["scenes"][0]["nodes"]]
    while stack:
        i, parent = stack.pop()
        nd = nodes[i]
        trs = {"translation": nd.get("translation", [0, 0, 0]), "rotation": nd.get("rotation", [0, 0, 0, 1]),
               "scale": nd.get("scale", [1, 1, 1])}
        for path, (times, values) in tracks.get(i, {}).items():
            trs[path] = sample(times, values, t, path)
        m = mmul(parent, matrix(trs["translation"], trs["rotation"], trs["scale"]))
        out[nd.get("name", "")] = (m[0][3], m[1][3], m[2][3])
        stack.extend((c, m) for c in nd.get("children", []))
    return out


def angle(a, b):
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(x * x for x in b))
    c = sum(x * y for x, y in zip(a, b)) / (na * nb)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def main():
    ref = json.load(open(sys.argv[1]))
    doc, binary = read_glb(sys.argv[2])
    want_clips = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    fails = []
    names = {nd.get("name", "") for nd in doc["nodes"]}
    bones = set(next(iter(ref["frames"].values())).keys())
    missing = sorted(bones - names)
    if missing:
        fails.append("bones with no node: %s" % ", ".join(missing[:5]))
    clips = doc.get("animations", [])
    if len(clips) != want_clips:
        fails.append("%d animations, not %d" % (len(clips), want_clips))
    if not clips:
        print("FAIL: " + "; ".join(fails))
        return 1
    tracks = {}
    last_key = 0.0
    for ch in clips[0]["channels"]:
        smp = clips[0]["samplers"][ch["sampler"]]
        times = [v[0] for v in accessor(doc, binary, smp["input"])]
        last_key = max(last_key, times[-1])
        tracks.setdefault(ch["target"]["node"], {})[ch["target"]["path"]] = \
            (times, accessor(doc, binary, smp["output"]))
    fps, first = ref["fps"], ref["first"]
    want_last = (ref["last"] - first) / fps
    if abs(last_key - want_last) > 0.5 / fps:
        fails.append("the clip ends at %.4f s, not %.4f s" % (last_key, want_last))
    worst_deg, worst_m, where = 0.0, 0.0, ""
    limbs = []
    for side in ("Left", "Right"):
        for a, b in LIMBS:
            na = [n for n in bones if n.endswith(side + a)]
            nb = [n for n in bones if n.endswith(side + b)]
            if na and nb:
                limbs.append((min(na, key=len), min(nb, key=len)))
    if len(limbs) != 8:
        fails.append("found %d of the 8 limbs" % len(limbs))
    for f, heads in ref["frames"].items():
        got = world_positions(doc, tracks, (int(f) - first) / fps)
        blender = {n: (p[0], -p[2], p[1]) for n, p in got.items()}
        for n, p in heads.items():
            if n in blender:
                worst_m = max(worst_m, math.dist(p, blender[n]))
        for a, b in limbs:
            if a not in blender or b not in blender:
                continue
            want = [y - x for x, y in zip(heads[a], heads[b])]
            have = [y - x for x, y in zip(blender[a], blender[b])]
            d = angle(want, have)
            if d > worst_deg:
                worst_deg, where = d, "%s->%s at frame %s" % (a, b, f)
    if worst_deg > TOLERANCE_DEG:
        fails.append("a limb %.2f degrees off (%s)" % (worst_deg, where))
    zs = [p[2] for p in next(iter(ref["frames"].values())).values()]
    height = max(zs) - min(zs)
    what = ("%s: %d nodes, %d clip(s), %d frames compared, worst limb %.2f deg, worst joint %.3g "
            "(%.2f%% of the figure's height)") % (
        sys.argv[2].split("/")[-1], len(doc["nodes"]), len(clips), len(ref["frames"]), worst_deg, worst_m,
        100 * worst_m / height)
    if fails:
        print("FAIL: %s: %s" % (what, "; ".join(fails)))
        return 1
    print("ok: " + what)
    return 0


sys.exit(main())
