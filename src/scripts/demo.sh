#!/usr/bin/env bash
# make demo: write sample animations with the project's own writers and show
# what rtmcat makes of them.
set -euo pipefail
BUILD=${1:-build}
dir=demo-samples
rm -rf "$dir"
"$BUILD/rtmgen" "$dir"
mkdir -p "$dir/@samples/addons"
"$BUILD/rtmgen" -p "$dir/@samples/addons/samples.pbo"
show() { echo; echo "\$ $*"; "$@" || true; }
echo "Sample animations written to $dir/:"
ls -l "$dir"
show "$BUILD/rtmcat" "$dir/run_v5.rtm"
show "$BUILD/rtmcat" "$dir/run_v5.rtm" header.txt
echo; echo "\$ $BUILD/rtmcat $dir/walk.rtm bones.txt | head -5"
"$BUILD/rtmcat" "$dir/walk.rtm" bones.txt | head -5
echo; echo "\$ $BUILD/rtmcat $dir/walk.rtm frames/010.csv | head -3"
"$BUILD/rtmcat" "$dir/walk.rtm" frames/010.csv | head -3
show "$BUILD/rtmcat" "$dir/step_props.rtm" props.json
show "$BUILD/rtmcat" "$dir/broken.rtm" header.txt
show "$BUILD/rtmcat" "$dir/@samples/addons/samples.pbo"
show "$BUILD/rtmcat" "$dir/@samples/addons/samples.pbo/anims/binarised/run_v5.rtm" header.txt
if [ -x "$BUILD/rtmfs" ] && [ -f src/scripts/demo_mount.sh ]; then
    bash src/scripts/demo_mount.sh "$BUILD" "$dir"
fi
echo
echo "Try: $BUILD/rtmcat $dir/wave_v3.rtm header.txt   (man ./man/rtmcat.1)"
