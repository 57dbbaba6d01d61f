# gltf_export.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/gltf_export.py -- IN.bvh OUT [IN.bvh OUT]...
#
# Each IN.bvh (a motion capture clip) is imported with Blender's defaults
# and exported as OUT.glb (its glTF exporter, binary; every frame kept:
# no key dropped as redundant) and OUT.fbx (its FBX exporter; no curve
# simplified), an armature and no mesh, as a user converting a clip does.
# Prints "exported: OUT" a clip and "FAIL: ..." for one that did not,
# then "blender: N exported, M failed"; exits 2 when any failed.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import each, patch_ru  # noqa: E402


def export(src, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_anim.bvh(filepath=src)
    arm = bpy.context.selected_objects[0]
    bpy.context.view_layer.objects.active = arm
    first, last = (int(f) for f in arm.animation_data.action.frame_range)
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = first, last
    bpy.ops.export_scene.gltf(filepath=out + ".glb", export_format="GLB",
                              export_optimize_animation_size=False)
    bpy.ops.export_scene.fbx(filepath=out + ".fbx", bake_anim_simplify_factor=0.0)


patch_ru()
each(export, 2)
