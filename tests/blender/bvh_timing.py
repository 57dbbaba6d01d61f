# bvh_timing.py - run by Blender: blender -b --factory-startup --python-exit-code 2
#   --python tests/blender/bvh_timing.py -- FILE.bvh SECONDS FRAMES
#
# Imports FILE.bvh (an anim.bvh timed by the configs, rtmfs-views(7)) as a
# user who wants the file's own timing does: update_scene_fps=True,
# update_scene_duration=True.  The scene's frame rate must then be the
# file's (1 / Frame Time, within Blender's rounding into fps / fps_base),
# the scene (set to one frame first: the import only extends it) must run
# to the end of the file's FRAMES frames, and the FRAMES - 1 steps from
# the first key to the last must last SECONDS (one pass of the state)
# within 1 %.
# Prints "ok: ..." or "FAIL: ..." lines and "blender: done"; exits 2 when
# anything failed.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtmfs_blender import patch_ru  # noqa: E402

def main(path, seconds, frames):
    patch_ru()
    with open(path) as f:
        frame_time = float(next(line for line in f if line.startswith("Frame Time:")).split(":")[1])
    scene = bpy.context.scene
    scene.frame_start = scene.frame_end = 1     # the import only ever extends it
    bpy.ops.import_anim.bvh(filepath=path, update_scene_fps=True, update_scene_duration=True)
    fps = scene.render.fps / scene.render.fps_base
    first, last = bpy.context.object.animation_data.action.frame_range
    length = (last - first) / fps
    print("blender: fps %d / %.6f = %.6f, scene frames %d..%d, keys %g..%g last %.6f s"
          % (scene.render.fps, scene.render.fps_base, fps, scene.frame_start, scene.frame_end,
             first, last, length))
    failed = 0
    checks = (
        ("the scene's frame rate is the file's, 1 / Frame Time = %.6f" % (1 / frame_time),
         abs(fps * frame_time - 1) < 1e-3),
        ("the scene runs to the end of the file's %d frames" % frames,
         scene.frame_end == scene.frame_start + frames and last - first == frames - 1),
        ("the %d steps from the first frame to the last last one pass of %g s"
         % (frames - 1, seconds), abs(length - seconds) <= 0.01 * seconds),
    )
    for what, good in checks:
        print(("ok: " if good else "FAIL: ") + what)
        failed += not good
    print("blender: done")
    return failed


args = sys.argv[sys.argv.index("--") + 1:]
sys.exit(2 if main(args[0], float(args[1]), int(args[2])) else 0)
