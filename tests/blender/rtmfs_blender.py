# rtmfs_blender.py - what the Blender scripts here share (each puts this
# folder on sys.path and imports it): Debian's BVH importer fixed, an
# animation's folder of views read (phases.csv, header.txt's motion,
# joints/), and the loop of a script that converts files in pairs.
import math
import os
import sys


def patch_ru():
    """Debian 12's Blender 3.4 opens BVH files with mode 'rU', which its
    Python 3.11 refuses (ValueError: invalid mode: 'rU')."""
    import builtins
    import io_anim_bvh.import_bvh as ib

    def open_without_u(file, mode="r", *args, **kwargs):
        return builtins.open(file, mode.replace("U", ""), *args, **kwargs)

    ib.open = open_without_u


def phases(folder):
    with open(os.path.join(folder, "phases.csv")) as f:
        return [float(r.split(",")[1]) for r in f.read().splitlines()[1:]]


def phase_order(ph):
    """The frames in phase order, NaN last, ties in file order."""
    return sorted(range(len(ph)), key=lambda i: (math.isnan(ph[i]), 0 if math.isnan(ph[i]) else ph[i], i))


def motion(folder):
    """header.txt's 'motion: x X y Y z Z (metres)'."""
    with open(os.path.join(folder, "header.txt")) as f:
        for line in f:
            if line.startswith("motion:"):
                w = line.split()
                return float(w[2]), float(w[4]), float(w[6])
    return 0.0, 0.0, 0.0


def joints(folder, frame, nframes):
    """joints/NNN.csv of a frame: a bone's (x, y, z) a row, None for a bone
    whose joint is not known."""
    width = max(3, len(str(nframes - 1)))
    with open(os.path.join(folder, "joints", "%0*d.csv" % (width, frame))) as f:
        rows = [line.rstrip("\n").split(",") for line in f][1:]
    return [None if r[-3] == "" else tuple(float(v) for v in r[-3:]) for r in rows]


def each(convert, per):
    """convert(*group) for each group of per arguments after '--': prints
    "exported: LAST" a group and "FAIL: FIRST: why" for one that failed,
    then "blender: N exported, M failed"; exits 2 when any failed."""
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    groups = [args[i:i + per] for i in range(0, len(args) - per + 1, per)]
    failed = 0
    for g in groups:
        try:
            convert(*g)
            print("exported: " + g[-1])
        except Exception as e:  # noqa: BLE001 - one file's failure is reported
            print("FAIL: %s: %s" % (g[0], e))
            failed += 1
    print("blender: %d exported, %d failed" % (len(groups) - failed, failed))
    sys.exit(2 if failed else 0)
