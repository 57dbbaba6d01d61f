# glb_reexport.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/glb_reexport.py -- IN.glb OUT.glb [IN.glb OUT.glb]...
#
# Each IN.glb (an animation's anim.glb) is imported with Blender's glTF
# importer and its whole key range exported again to OUT.glb with the
# exporter (binary, every frame kept), as a user who opens a file and
# saves it does; the caller reads OUT.glb back as an animation source
# (rtm(5), GLTF SOURCES).  The scene runs at 30 frames a second, anim.glb's
# own rate when no config times it, so that a key stays a frame.
# Prints "exported: OUT" a file, "FAIL: ..." for one that did not; exits 2
# when any failed.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import each  # noqa: E402


def round_trip(src, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 30, 1
    bpy.ops.import_scene.gltf(filepath=src)
    arm = next(o for o in scene.objects if o.type == "ARMATURE")
    action = arm.animation_data.action
    first, last = (round(f) for f in action.frame_range)
    scene.frame_start, scene.frame_end = first, last
    # the action's own range rounded: its last key, a float32 time times 30,
    # lands at 39.99996 for 40, which the exporter would cut to 39
    action.use_frame_range = True
    action.frame_start, action.frame_end = first, last
    bpy.ops.export_scene.gltf(filepath=out, export_format="GLB",
                              export_optimize_animation_size=False)


each(round_trip, 2)
