#!/usr/bin/env bash
# demo_mount.sh BUILD SAMPLES: mounts the sample animations with rtmfs and
# shows a short tour with ls, cat, grep and diff, into a PBO archive too.  The mount stays up for the
# user to explore; the last lines say how to unmount it.
set -euo pipefail
BUILD=$1 SAMPLES=$2
MNT=demo-mnt
if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
    echo; echo "(no usable /dev/fuse here: the mount part of the demo is skipped)"
    exit 0
fi
mkdir -p "$MNT"
grep -qs " $PWD/$MNT fuse" /proc/mounts && fusermount3 -u "$MNT"
"$BUILD/rtmfs" "$SAMPLES" "$MNT"
show() { echo; echo "\$ $*"; eval "$@" || true; }
echo; echo "=== rtmfs: $SAMPLES mounted at $MNT ==="
show "ls $MNT"
show "ls $MNT/run_v5.rtm"
show "ls $MNT/run_v5.rtm/frames | head -3"
show "cat $MNT/reload_v4.rtm/props.json"
show "grep -rli LeftHand --include=bones.txt $MNT/"
show "diff $MNT/walk.rtm/frames/010.csv $MNT/run_v5.rtm/frames/010.csv | head -4"
show "cat $MNT/broken.rtm/error.txt"
show "ls -R $MNT/@samples/addons/samples.pbo | head -12"
show "cat $MNT/@samples/addons/samples.pbo/pbo.txt"
echo
echo "The mount stays up: explore $MNT/, then unmount it with:"
echo "    fusermount3 -u $MNT"
