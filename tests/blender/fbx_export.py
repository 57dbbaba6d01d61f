# fbx_export.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/fbx_export.py -- IN.bvh OUT.fbx OUT.json [IN.bvh OUT.fbx OUT.json]...
#
# Each IN.bvh (a motion capture clip) is imported with Blender's default
# settings and exported to OUT.fbx with the FBX exporter's defaults (an
# armature and no mesh, as Blender makes of a BVH; its action baked), as a
# user who converts a clip does.  OUT.json gets the reference the test
# compares rtmfs-fbx's output with: for every STEP-th frame, the world
# head of every pose bone in Blender's axes (z up) and units, and the
# clip's frame rate and frame range.
# Prints "exported: OUT.json" a file, "FAIL: ..." for one that did not; exits 2
# when any failed.
import json
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import each, patch_ru  # noqa: E402

STEP = 10


def heads(arm, first, last):
    scene = bpy.context.scene
    frames = {}
    for f in range(first, last + 1, STEP):
        scene.frame_set(f)
        frames[str(f)] = {b.name: list(arm.matrix_world @ b.head) for b in arm.pose.bones}
    return frames


def export(src, out, ref):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_anim.bvh(filepath=src)
    arm = bpy.context.selected_objects[0]
    bpy.context.view_layer.objects.active = arm
    action = arm.animation_data.action
    first, last = (int(f) for f in action.frame_range)
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = first, last
    bpy.ops.export_scene.fbx(filepath=out)
    fps = scene.render.fps / scene.render.fps_base
    with open(ref, "w") as f:
        json.dump({"fps": fps, "first": first, "last": last, "step": STEP,
                   "frames": heads(arm, first, last)}, f)


patch_ru()
each(export, 3)
