# bvh_import.py - what the Blender scripts here share: imported by them
# (each puts this folder on sys.path first).


def patch_ru():
    """Debian 12's Blender 3.4 opens BVH files with mode 'rU', which its
    Python 3.11 refuses (ValueError: invalid mode: 'rU')."""
    import builtins
    import io_anim_bvh.import_bvh as ib

    def open_without_u(file, mode="r", *args, **kwargs):
        return builtins.open(file, mode.replace("U", ""), *args, **kwargs)

    ib.open = open_without_u
