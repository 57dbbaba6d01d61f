# bvh_check.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/bvh_check.py -- FOLDER...
#
# Each FOLDER is an animation's folder of views (a mount's, or one written
# by rtmcat): anim.bvh, bones.txt, phases.csv and joints/NNN.csv.  For each,
# Blender imports anim.bvh with its default settings and, at every frame,
# the head of every pose bone in world space must be the joint's position
# from joints/NNN.csv (Arma x, y, z) plus the motion's share of the frame
# (header.txt's motion times its phase: anim.bvh's rtm_root carries it) at
# Blender's (x, z, y), within 1 mm.
# Frames are in phase order, BVH frame k at Blender frame 1 + k.
# Prints one line a folder, "ok: ..." or "FAIL: ...", and the largest
# difference; exits 2 when anything failed.
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import joints, motion, patch_ru, phase_order, phases  # noqa: E402

TOLERANCE_MM = 1.0


def bvh_name(escaped):
    """A bones.txt name as anim.bvh writes it: a space escaped too."""
    return escaped.replace(" ", "\\x20")


def check(folder):
    with open(os.path.join(folder, "bones.txt")) as f:
        bones = [line.rstrip("\n") for line in f]
    phase = phases(folder)
    order = phase_order(phase)
    mx, my, mz = motion(folder)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    patch_ru()
    bpy.ops.import_anim.bvh(filepath=os.path.join(folder, "anim.bvh"))
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    # compare the bones whose name is unique and fits Blender as is
    names = {}
    for i, b in enumerate(bones):
        n = bvh_name(b)
        if bones.count(b) == 1 and len(n) <= 63 and n != "rtm_root":
            names[n] = i
    compared = 0
    worst = 0.0
    for k, frame in enumerate(order):
        bpy.context.scene.frame_set(1 + k)
        want = joints(folder, frame, len(order))
        for pb in arm.pose.bones:
            i = names.get(pb.name)
            if i is None or want[i] is None or any(math.isnan(v) for v in want[i]):
                continue
            ph = 0.0 if not math.isfinite(phase[frame]) else phase[frame]
            x, y, z = want[i][0] + mx * ph, want[i][1] + my * ph, want[i][2] + mz * ph
            head = arm.matrix_world @ pb.head
            d = math.dist((head.x, head.y, head.z), (x, z, y)) * 1000
            worst = max(worst, d)
            compared += 1
            if d > TOLERANCE_MM:
                return "FAIL: %s: frame %d (Blender frame %d), %s: %.3f mm off" % (
                    folder, frame, 1 + k, pb.name, d), worst
    if compared == 0:
        return "FAIL: %s: no bone compared" % folder, worst
    return "ok: %s: %d frames, %d bone positions within %.4f mm" % (
        folder, len(order), compared, worst), worst


def main():
    folders = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    failed = 0
    worst = 0.0
    for folder in folders:
        line, w = check(folder)
        worst = max(worst, w)
        failed += line.startswith("FAIL")
        print(line, flush=True)
    print("blender: %d of %d folders within %.1f mm; largest difference %.4f mm" % (
        len(folders) - failed, len(folders), TOLERANCE_MM, worst), flush=True)
    if failed or not folders:
        sys.exit(2)


main()
