#!/usr/bin/env bash
# demo_mount.sh BUILD SAMPLES: the second half of make demo's tour (demo.sh
# calls it, with its step and show helpers exported): mounts the sample
# animations with rtmfs and shows ls, grep, diff and cat at work, into a PBO
# archive too.  The mount stays up for the reader to explore; the last lines
# say how to unmount it.
set -euo pipefail
BUILD=$1 SAMPLES=$2
MNT=demo-mnt
if ! declare -F show >/dev/null; then
    echo "demo_mount.sh: run it through src/scripts/demo.sh (make demo)" >&2
    exit 2
fi
if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
    echo; echo "(no usable /dev/fuse here: the mount part of the demo is skipped)"
    exit 0
fi
mkdir -p "$MNT"
grep -qs " $PWD/$MNT fuse" /proc/mounts && fusermount3 -u "$MNT"
pbo=$MNT/@samples/addons/samples.pbo

step "rtmfs mounts the samples: each animation becomes a folder of the same views;
a broken one holds only error.txt, with rtmcat's message."
printf '$ %s\n' "$BUILD/rtmfs $SAMPLES $MNT"
if ! "$BUILD/rtmfs" "$SAMPLES" "$MNT"; then
    echo "(rtmfs could not mount here: the rest of the mount part is skipped)"
    exit 0
fi
show 1 "ls -C $MNT/run_v5.rtm"
show 1 "cat $MNT/broken.rtm/error.txt"

step "grep and diff work across animations: which ones have a left hand (-i: BMTR
names are lowercase), which of them move it (^ and a space: exactly that bone),
and what differs between two of them in frame 10."
show 2 "grep -rli LeftHand --include=bones.txt $MNT/"
show 2 "grep -rliE '^lefthand ' --include=moving.txt $MNT/"
show 2 "diff $MNT/walk.rtm/frames/010.csv $MNT/run_v5.rtm/frames/010.csv"

step "walk.rtm and run_v5.rtm are one animation, plain and binarised: their frames
differ on every line, as BMTR names are lowercase, but tracks/ (one bone through
every frame, found by its name in any case) leaves names out and matches."
show 2 "diff $MNT/walk.rtm/tracks/lefthand.csv $MNT/run_v5.rtm/tracks/lefthand.csv && echo same"

step "An archive is a folder of its animations; pbo.txt shows its header."
show 1 "ls -C $pbo"
show 2 "cat $pbo/pbo.txt"

step "Every animation folder has its preview.svg, to open in a browser or see as a
thumbnail in a file manager:"
show 1 "ls -l $MNT/run_v5.rtm/preview.svg"

echo
echo "The mount stays up: explore $MNT/ (xdg-open $MNT/run_v5.rtm/preview.svg);"
echo "unmount it with fusermount3 -u $MNT"
