# glb_check.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/glb_check.py -- FOLDER...
#
# Each FOLDER is an animation's folder of views (a mount's): anim.glb,
# bones.txt, phases.csv, header.txt and joints/NNN.csv.  For each, Blender's
# glTF importer reads anim.glb with its default settings and, at every key
# of the animation (the frames of anim.glb, in phase order: the k-th key is
# frame k), the head of every pose bone in world space must be the joint
# of joints/NNN.csv (Arma x, y, z) plus the motion's share of the frame
# (header.txt's motion times its phase: rtm_root carries it), within 1 mm,
# after one fixed change of axes: Arma (x, y, z) is Blender's (x, z, y)
# (anim.glb's glTF (x, y, -z), which the importer turns Z up as (x, -z, y)).
# The keys are where the importer put them (time x the scene's frame rate),
# read from the action, so the test does not depend on that rate.
# Prints one line a folder, "ok: ..." or "FAIL: ...", and the largest
# difference; exits 2 when anything failed.
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import joints, motion, phase_order, phases  # noqa: E402

TOLERANCE_MM = 1.0


def glb_name(name):
    """A bones.txt name as anim.glb names its node (anim.bvh's name)."""
    return name.replace(" ", "\\x20")


def keys(arm):
    """The frames of the armature's action's keys, the most any curve has."""
    action = arm.animation_data.action if arm.animation_data else None
    if action is None:
        return []
    return max((sorted({k.co[0] for k in fc.keyframe_points}) for fc in action.fcurves), key=len, default=[])


def check(folder):
    with open(os.path.join(folder, "bones.txt")) as f:
        bones = [line.rstrip("\n") for line in f]
    ph = phases(folder)
    order = phase_order(ph)
    mx, my, mz = motion(folder)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=os.path.join(folder, "anim.glb"))
    arms = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    if not arms:
        return "FAIL: %s: Blender made no armature" % folder, 0.0
    arm = arms[0]
    frames = keys(arm)
    if len(frames) != len(order):
        return "FAIL: %s: %d keys in Blender, %d frames" % (folder, len(frames), len(order)), 0.0
    names = {}
    for i, b in enumerate(bones):
        n = glb_name(b)
        if bones.count(b) == 1 and len(n) <= 63 and n != "rtm_root":
            names[n] = i
    compared, worst = 0, 0.0
    for k, frame in enumerate(order):
        at = frames[k]
        bpy.context.scene.frame_set(int(math.floor(at)), subframe=at - math.floor(at))
        want = joints(folder, frame, len(order))
        p = 0.0 if not math.isfinite(ph[frame]) else ph[frame]
        for pb in arm.pose.bones:
            i = names.get(pb.name)
            if i is None or want[i] is None or any(math.isnan(v) for v in want[i]):
                continue
            x, y, z = want[i][0] + mx * p, want[i][1] + my * p, want[i][2] + mz * p
            head = arm.matrix_world @ pb.head
            d = math.dist((head.x, head.y, head.z), (x, z, y)) * 1000
            worst = max(worst, d)
            compared += 1
            if d > TOLERANCE_MM:
                return "FAIL: %s: frame %d (key %d at Blender frame %.3f), %s: %.3f mm off" % (
                    folder, frame, k, at, pb.name, d), worst
    if compared == 0:
        return "FAIL: %s: no bone compared" % folder, worst
    return "ok: %s: %d frames, %d bone positions within %.4f mm" % (
        folder, len(order), compared, worst), worst


def main():
    folders = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    failed, worst = 0, 0.0
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
