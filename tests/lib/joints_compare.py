# joints_compare.py - python3 tests/lib/joints_compare.py ORIG BACK...:
# each ORIG is an animation's folder of views (an .rtm's) and the BACK
# after it the folder of that animation read back from a BVH (rtm(5), BVH
# SOURCES).  For every frame (ORIG's in phase order: a BVH's frames are),
# every bone both have must sit at the same joint (joints/NNN.csv) within
# 1 mm, and the motion vectors (header.txt) must agree within 1 mm.
# Prints "ok: ..." or "FAIL: ..." a pair with the largest difference.
import math
import os
import sys

TOLERANCE_M = 0.001


def joints(folder, frame):
    with open(os.path.join(folder, "joints", "%03d.csv" % frame)) as f:
        rows = [line.rstrip("\n").split(",") for line in f][1:]
    # a bone whose joint is not known (no pivot) has empty fields
    return {r[0].lower(): tuple(float(v) for v in r[1:4]) for r in rows if all(r[1:4])}


def phase_order(folder):
    with open(os.path.join(folder, "phases.csv")) as f:
        ph = [float(r.split(",")[1]) for r in f.read().splitlines()[1:]]
    return sorted(range(len(ph)), key=lambda i: (math.isnan(ph[i]), 0 if math.isnan(ph[i]) else ph[i], i))


def motion(folder):
    with open(os.path.join(folder, "header.txt")) as f:
        for line in f:
            if line.startswith("motion:"):
                w = line.split()
                return float(w[2]), float(w[4]), float(w[6])
    return 0.0, 0.0, 0.0


def compare(orig, back):
    order = phase_order(orig)
    n_back = len(os.listdir(os.path.join(back, "joints")))
    if n_back != len(order):
        return "FAIL: %s: %d frames back, %d in the file" % (back, n_back, len(order))
    worst, where = 0.0, ""
    for k, f in enumerate(order):
        a, b = joints(orig, f), joints(back, k)
        for bone in a.keys() & b.keys():
            d = math.dist(a[bone], b[bone])
            if not d <= worst:
                worst, where = d, "%s frame %d" % (bone, k)
    dm = math.dist(motion(orig), motion(back))
    line = "%s: worst joint %.4f mm (%s), motion %.4f mm" % (os.path.basename(orig), worst * 1e3, where, dm * 1e3)
    return ("ok: " if worst <= TOLERANCE_M and dm <= TOLERANCE_M else "FAIL: ") + line


def main():
    args = sys.argv[1:]
    bad = 0
    for orig, back in zip(args[0::2], args[1::2]):
        r = compare(orig, back)
        bad += r.startswith("FAIL")
        print(r)
    sys.exit(1 if bad else 0)


main()
