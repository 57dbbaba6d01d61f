# bvh_export.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/bvh_export.py -- IN.bvh OUT.bvh [IN.bvh OUT.bvh]...
#
# Each IN.bvh (an animation's anim.bvh) is imported with Blender's default
# settings and its whole frame range exported again to OUT.bvh with the
# exporter's defaults, as a user who opens a file and saves it does; the
# caller reads OUT.bvh back as an animation source (rtm(5), BVH SOURCES).
# Prints "exported: OUT" a file, "FAIL: ..." for one that did not; exits 2
# when any failed.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import each, patch_ru  # noqa: E402


def round_trip(src, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_anim.bvh(filepath=src)
    arm = bpy.context.selected_objects[0]
    bpy.context.view_layer.objects.active = arm
    action = arm.animation_data.action
    first, last = (int(f) for f in action.frame_range)
    bpy.context.scene.frame_start, bpy.context.scene.frame_end = first, last
    bpy.ops.export_anim.bvh(filepath=out, frame_start=first, frame_end=last)


patch_ru()
each(round_trip, 2)
