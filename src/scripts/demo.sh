#!/usr/bin/env bash
# make demo: write sample animations with the project's own writers and take
# a reader through what rtmcat (and, when it can mount, rtmfs) shows of them.
# Each step says in one sentence what to look at and shows a few lines; the
# rest of a long output is named by the command that prints it all, so the
# whole tour fits on a couple of screens.
set -euo pipefail
BUILD=${1:-build}
dir=demo-samples
WIDTH=78                        # lines wider than this are cut, at a comma

rm -rf "$dir"
"$BUILD/rtmgen" "$dir" >/dev/null
mkdir -p "$dir/@samples/addons"
"$BUILD/rtmgen" -p "$dir/@samples/addons/samples.pbo"
"$BUILD/rtmgen" -F 60 "$dir/figure"

# step SENTENCE: a blank line, then what the next commands show.
step() { printf '\n%s\n' "$*"; }

# Cuts CSV rows wider than WIDTH after their last comma that fits, and
# marks the cut with "...": a frame's row is 12 numbers, too wide for a
# terminal.  Other lines (a message, a path) stay whole.
narrow() {
    awk -v w="$WIDTH" 'length($0) <= w { print; next }
        { s = substr($0, 1, w - 3) }
        s !~ /,/ { print; next }
        { sub(/,[^,]*$/, ",", s); print s "..." }'
}

# show N CMD: "$ CMD", the first N lines of what it prints (stderr too: a
# broken file's message is part of the tour), then how many lines were left
# out and the command that prints them all.
show() {
    local n=$1 cmd=$2 out total
    printf '$ %s\n' "$cmd"
    out=$(eval "$cmd" 2>&1) || true
    [ -n "$out" ] || return 0
    total=$(wc -l <<<"$out")
    head -n "$n" <<<"$out" | narrow
    if [ "$total" -gt "$n" ]; then
        local more="$((total - n)) more lines"
        [ $((total - n)) -eq 1 ] && more="1 more line"
        echo "... $more: $cmd"
    fi
}
export -f step narrow show
export WIDTH

cat="$BUILD/rtmcat" pbo="$dir/@samples/addons/samples.pbo"
echo "Sample animations by rtmgen in $dir/: plain, BMTR v3 to v5, one broken."
show 5 "ls -C $dir"

step "rtmcat lists an animation's views and sizes: nine files, then a CSV a frame
in frames/ (the matrices) and in joints/ (where the bones are), and a CSV a
bone in tracks/ (one bone through time)."
show 9 "$cat $dir/run_v5.rtm"

step "header.txt sums it up: format, counts, motion, phases, skeleton and rest pose."
show 10 "$cat $dir/run_v5.rtm header.txt"

step "bones.txt has a bone name a line; phases.csv where each frame sits in the cycle."
show 2 "$cat $dir/walk.rtm bones.txt"
show 2 "$cat $dir/walk.rtm phases.csv"

step "frames/NNN.csv: a row a bone, rotation m11..m33, then translation m41..m43."
show 2 "$cat $dir/walk.rtm frames/010.csv"

step "Row 4 of a matrix is where the model's origin goes, not where the bone is.
joints/NNN.csv is: each bone's pivot (its rest-pose joint, skeleton.txt) times
its matrix, in metres (+y up)."
show 3 "$cat $dir/run_v5.rtm joints/010.csv"
show 3 "$cat $dir/run_v5.rtm skeleton.txt"

step "moving.txt: the bones that move, by how much they turn against their parent
(degrees) and drift from it (metres); -d 3 writes numbers to 3 decimals."
show 3 "$cat $dir/walk.rtm moving.txt"
show 2 "$cat -d 3 $dir/walk.rtm tracks/lefthand.csv"

step "anim.bvh is the animation as BVH, for Blender (File > Import > Motion Capture)
and other motion-capture tools: a hierarchy of joints at the rest pose, then a
line of channels a frame."
show 6 "$cat $dir/run_v5.rtm anim.bvh"

step "preview.svg draws the animation: a stick figure of the joints from the front
and the side, left blue, right red, that a browser plays and image viewers show
in its first pose.  figure/ holds a figure standing upright and its skeleton;
open the SVG this writes in a browser (xdg-open, chromium, firefox):"
show 1 "$cat -s $dir/figure/figure.skel $dir/figure/figure.rtm preview.svg >$dir/figure.svg && ls $dir/figure.svg"
show 1 "grep -c '<circle' $dir/figure.svg"

step "props.json holds the frame properties, here the footstep sounds."
show 2 "$cat $dir/step_props.rtm props.json"

step "plain.rtm: the animation in the plain RTM_0101 format, for tools that need it."
show 1 "$cat $dir/run_v5.rtm plain.rtm | wc -c"

step "A file that cannot be read gives one line: what is wrong, and at which byte."
show 1 "$cat $dir/broken.rtm"

step "A PBO archive (as mods ship them) lists its entries, and so does a folder in it;
an entry has the views a loose file has."
show 3 "$cat $pbo"
show 2 "$cat $pbo/anims/binarised"
show 1 "$cat $pbo/anims/binarised/run_v5.rtm header.txt"

if [ -x "$BUILD/rtmfs" ] && [ -f src/scripts/demo_mount.sh ]; then
    bash src/scripts/demo_mount.sh "$BUILD" "$dir"
else
    echo
fi
echo "More: man ./man/rtmcat.1 and man ./man/rtmfs.1"
