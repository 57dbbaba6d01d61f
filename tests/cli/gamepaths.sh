#!/usr/bin/env bash
# gamepaths.sh - rtmcat -g SOURCE GAMEPATH [VIEW]: a game path (either
# separator, any case, a leading '\') resolved under a folder of archives
# or one archive, as rtmfs -o gamepaths resolves it: the same bytes as
# rtmcat on the file it shows, the shown one of two overlapping archives,
# a made-up folder's names, and the failures.  With ../shared: the real
# archive's and addons' animations at their game paths.
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmfs-gamepaths.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
S=$T/src
mkdir -p "$S/@a/addons" "$S/@b/addons"
"$RTMGEN" "$T/gen" >/dev/null && "$RTMGEN" -p "$S/@a/addons/sample.pbo" &&
    "$RTMGEN" -a "$S/@b/addons/packed.pbo" "$T/gen/run_v5.rtm" ||
    { fail "rtmgen: writing the fixtures"; finish cli/gamepaths; }
cp "$S/@a/addons/sample.pbo" "$S/@b/addons/copy.pbo"

# rtmcat -g and rtmcat, each saying so when it fails (so that two failures
# never compare equal)
gcat() { "$RTMCAT" -g "$@" || echo "rtmcat -g failed: $?"; }
pcat() { "$RTMCAT" "$@" || echo "rtmcat failed: $?"; }

# the same bytes as rtmcat on the archive entry, every spelling of the path
for gp in '\rtmfs\samples\anims\walk.rtm' 'RTMFS/Samples/ANIMS/Walk.RTM' 'rtmfs\samples/anims\walk.rtm'; do
    cmp -s <(gcat "$S" "$gp" header.txt) <(pcat "$S/@b/addons/copy.pbo/anims/walk.rtm" header.txt) \
        || fail "-g $gp header.txt"
done
cmp -s <(gcat "$S" 'rtmfs\samples\anims\walk.rtm') <(pcat "$S/@a/addons/sample.pbo/anims/walk.rtm") \
    || fail "-g without VIEW: the views' list"
cmp -s <(gcat -d 2 "$S" 'rtmfs\packed\gen\run_v5.rtm' frames/000.csv) \
    <(pcat -d 2 "$T/gen/run_v5.rtm" frames/000.csv) || fail "-g with -d: frames/000.csv"
# states.txt reads too (copy.pbo, whose path sorts last, is the one shown)
"$RTMCAT" -g "$S" 'rtmfs\samples\anims\walk.rtm' states.txt >/dev/null || fail "states.txt"
[ "$("$RTMCAT" -g "$S" 'rtmfs' | tr '\n' ' ')" = "packed/ samples/ " ] || fail "a folder's names: $("$RTMCAT" -g "$S" rtmfs)"
[ "$("$RTMCAT" -g "$S/@a/addons/sample.pbo" '' | tr '\n' ' ')" = "conflicts.txt rtmfs/ missing.txt check.txt " ] || fail "one archive's root"
"$RTMCAT" -g "$S" 'rtmfs\nothing.rtm' 2>"$T/err"; st=$?
[ $st = 1 ] && grep -q 'no such game path' "$T/err" || fail "a missing path: status $st, $(cat "$T/err")"
"$RTMCAT" -g "$S" 2>/dev/null; [ $? = 2 ] || fail "-g without GAMEPATH: not status 2"
"$RTMCAT" -g "$S" rtmfs header.txt 2>/dev/null; [ $? = 1 ] || fail "a folder with VIEW: not status 1"
block_ok 0 "rtmcat -g: game paths under a folder and one archive, any case and separator"

if [ -f "$SHARED/archives/ace_goggles.pbo" ] && [ -d "$SHARED/addons/grad_captive" ]; then
    before=$FAILS
    cmp -s <(gcat "$SHARED/archives/ace_goggles.pbo" '\z\ace\addons\goggles\anim\WipeGlasses.rtm' bones.txt) \
        <(pcat "$SHARED/archives/ace_goggles.pbo/anim/WipeGlasses.rtm" bones.txt) || fail "ace_goggles"
    cmp -s <(gcat "$SHARED/addons" '\x\grad_captiveWalking\addons\functions\rtms\anim_cable_stand_loop.rtm' header.txt) \
        <(pcat "$SHARED/addons/grad_captive/addons/functions/rtms/anim_cable_stand_loop.rtm" header.txt) \
        || fail "grad_captive"
    block_ok "$before" "rtmcat -g: ace_goggles.pbo and grad_captive at their game paths"
else
    skip "no $SHARED/archives or addons" "real game paths"
fi
finish cli/gamepaths
