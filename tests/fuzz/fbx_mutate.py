#!/usr/bin/env python3
"""fbx_mutate.py RTMFS_FBX SECONDS SEED.fbx...

rtmfs-fbx on damaged FBX files for SECONDS: each run takes a seed (an FBX
Blender exported: tests/cli/fbx.sh makes them), damages it one of four
ways (a few bytes overwritten, cut short, a stretch of random bytes put
in, a 32-bit field set to a large or negative number) and feeds it to
RTMFS_FBX with a 20-second timeout.  Counts the outcomes: exit 0, exit 1
(refused, as it should when damaged), other exits, deaths by signal, and
timeouts; keeps the input of every death and timeout as
fbx-crash-N.fbx in the current folder.  assimp runs out of the mount's
process, so this is a measure of the converter's behaviour, not a
requirement: rtmfs turns each outcome into a message.
"""
import collections
import os
import random
import struct
import subprocess
import sys
import time


def mutate(data, rnd):
    b = bytearray(data)
    kind = rnd.randrange(4)
    if kind == 0:
        for _ in range(rnd.randint(1, 16)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
    elif kind == 1:
        del b[rnd.randrange(len(b)):]
    elif kind == 2:
        at = rnd.randrange(len(b))
        b[at:at] = os.urandom(rnd.randint(1, 64))
    else:
        at = rnd.randrange(max(1, len(b) - 4))
        b[at:at + 4] = struct.pack("<i", rnd.choice([0x7fffffff, -1, -0x80000000, 0x10000000, 65536]))
    return bytes(b)


def main():
    prog, seconds, seeds = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    datas = [open(s, "rb").read() for s in seeds]
    rnd = random.Random(57)
    counts = collections.Counter()
    end = time.time() + seconds
    runs = 0
    while time.time() < end:
        data = mutate(rnd.choice(datas), rnd)
        runs += 1
        try:
            p = subprocess.run([prog], input=data, capture_output=True, timeout=20)
            rc = p.returncode
            key = "signal %d" % -rc if rc < 0 else "exit %d" % rc
        except subprocess.TimeoutExpired:
            key = "timeout"
        counts[key] += 1
        if key == "timeout" or key.startswith("signal"):
            with open("fbx-crash-%d.fbx" % runs, "wb") as f:
                f.write(data)
    print("fbx_mutate: %d runs in %.0f s: %s" % (runs, seconds,
          ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


main()
