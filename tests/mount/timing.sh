#!/usr/bin/env bash
# timing.sh - preview.svg and anim.bvh at the game's speed, through a real
# mount (rtmfs-views(7) TIMING).  Fixtures from the project's writers: a
# 60-frame figure and a 1-frame one (rtmgen -F) in one archive, a config
# in another (rtmgen -a) whose states play them.  The SVG's dur and <desc>
# and the BVH's Frame Time (the mean step) follow the state's speed; the
# bounds (0.05 s, 600 s), speed 0 and a config removed keep or restore the
# convention; a file no state plays (a loose copy with no game path, the
# archived one once its config is gone) keeps it too, its <desc> saying
# so, the same bytes archived or loose; a config rewritten changes
# states.txt and the two timed views within a second and no other view;
# sizes are exact at stat, on a later mount too; -o timing=frames and -o
# configs=none keep the convention everywhere with no sentence: the two
# views then the file alone's; rtmcat on a file in no addon reads no
# config, so no state plays it: the loose copy's views on the mount.
# Clients: headless Chromium seeks the timed SVG (setCurrentTime) to a
# fraction of its pass and shows the pose the convention's SVG shows at
# that fraction; Blender imports the timed BVH with update_scene_fps and
# update_scene_duration and plays one pass in the state's time.  Real
# data from ../shared: AUR (-8, 100000), grad_captive (0.06), ACE (?).
NAME=timing
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt F=$T/frames N=$T/none
PNG="python3 $PWD/tests/svg/png.py"
export LC_ALL=C
need_fuse "timing mount tests"

mkdir -p "$T/gen" "$T/one" "$T/cfg" "$S"
"$RTMGEN" -F 60 "$T/gen" >/dev/null && "$RTMGEN" -F 1 "$T/one" >/dev/null || { fail "rtmgen -F"; exit 1; }
"$RTMGEN" -a "$S/anims.pbo" "$T/gen/figure.rtm" "$T/one/figure.rtm" || { fail "rtmgen -a"; exit 1; }
cp "$T/gen/figure.rtm" "$S/loose.rtm"            # no game path: no config names it
SKEL=skeleton=$T/gen/figure.skel

# config SPEED: cfg.pbo's config.cpp plays the figure at SPEED and holds
# the one-frame figure (speed 0.5); written beside, then moved in whole
config() {
    printf '%s\n' 'class CfgMovesMaleSdr { class States {' \
        "  class FigureWalk { file = \"\\rtmfs\\packed\\gen\\figure.rtm\"; speed = $1; looped = 1; };" \
        '  class FigureHold { file = "\rtmfs\packed\one\figure.rtm"; speed = 0.5; };' \
        '}; };' >"$T/cfg/config.cpp"
    "$RTMGEN" -a "$T/cfg.pbo" "$T/cfg/config.cpp" && mv "$T/cfg.pbo" "$S/cfg.pbo" || fail "rtmgen -a cfg.pbo"
}
config 0.25

mkdir -p "$T/bad"
before=$FAILS
"$RTMFS" "$S" "$T/bad" -o timing=fast 2>"$T/bad.err" && { fail "-o timing=fast mounted"; fusermount3 -u "$T/bad"; }
grep -qF "bad timing 'fast' (game or frames)" "$T/bad.err" || fail "-o timing=fast: $(cat "$T/bad.err")"
block_ok "$before" "-o timing=fast: refused, saying the modes"
do_mount "$S" "$M" -o "$SKEL" || exit 1
do_mount "$S" "$F" -o "$SKEL,timing=frames" || exit 1
V=$M/anims.pbo/gen/figure.rtm
desc() { grep -o '<desc>.*</desc>' "$1/preview.svg"; }
dur() { grep -m1 -o ' dur="[^"]*"' "$1/preview.svg"; }
ftime() { sed -n 's/^Frame Time: //p' "$1/anim.bvh"; }
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }

[ "$(desc "$V")" = '<desc>Timing: one pass in 4 s, from CfgMovesMaleSdr/States/FigureWalk (speed=0.25).</desc>' ] &&
    ok "speed 0.25: the <desc> says where the timing came from" || fail "desc: $(desc "$V")"
[ "$(dur "$V")" = ' dur="4s"' ] && [ "$(ftime "$V")" = 0.0677966 ] &&
    ok "speed 0.25: the SVG plays one pass in 4 s, the BVH's 60 frames step 4/59 s" ||
    fail "dur $(dur "$V"), Frame Time $(ftime "$V")"
O=$M/anims.pbo/one/figure.rtm
desc "$O" | grep -qF 'Timing: none, a still pose of 1 frame, played by CfgMovesMaleSdr/States/FigureHold (speed=0.5).' &&
    ! grep -q '<animate' "$O/preview.svg" && [ "$(ftime "$O")" = 0.0333333 ] &&
    ok "one frame: still, whatever its state's speed" || fail "one frame: $(desc "$O"), $(ftime "$O")"
bad=0
for f in "$M"/*/*/*.rtm/preview.svg "$M"/*/*/*.rtm/anim.bvh "$M"/*.rtm/preview.svg "$M"/*.rtm/anim.bvh; do
    exact "$f" || { bad=1; fail "$f: stat size != bytes read"; }
done
[ $bad = 0 ] && ok "timed views: stat's size is the bytes read"

# the convention, where the file alone decides: -o timing=frames and -o
# configs=none give the same two views, no sentence; a loose copy no
# config names, with configs read, the same but for the <desc> that says
# no state plays it, as rtmcat gives them for a file in no addon
NOSTATE='<desc>Timing: 30 frames a second (the convention): no config state plays this file.</desc>'
do_mount "$S" "$N" -o "$SKEL,configs=none" || exit 1
same=1
for v in preview.svg anim.bvh; do
    cmp -s "$F/anims.pbo/gen/figure.rtm/$v" "$N/anims.pbo/gen/figure.rtm/$v" &&
        cmp -s "$F/loose.rtm/$v" "$N/anims.pbo/gen/figure.rtm/$v" &&
        cmp -s "$M/loose.rtm/$v" <("$RTMCAT" -s "$T/gen/figure.skel" "$T/gen/figure.rtm" "$v") || same=0
done
[ $same = 1 ] && ok "-o timing=frames, -o configs=none: the file's own preview.svg and anim.bvh; rtmcat in no addon: the loose copy's" ||
    fail "the convention's views differ"
[ "$(desc "$M/loose.rtm")" = "$NOSTATE" ] && cmp -s "$M/loose.rtm/anim.bvh" "$N/loose.rtm/anim.bvh" &&
    cmp -s <(grep -v '^<desc>' "$M/loose.rtm/preview.svg") "$N/loose.rtm/preview.svg" &&
    ok "no game path, configs read: the convention, the <desc> says no state plays it (the BVH the file's own)" ||
    fail "loose, no state: $(desc "$M/loose.rtm")"
! grep -rqs --include=preview.svg 'Timing' "$F" "$N" && [ "$(ftime "$F/anims.pbo/gen/figure.rtm")" = 0.0333333 ] &&
    ok "-o timing=frames, configs=none: no timing from the configs anywhere" || fail "a timing under timing=frames or configs=none"
do_umount "$N"

# a config rewritten: states.txt and the two timed views within 1 s, no other
others() { (cd "$V" && find . -type f ! -name states.txt ! -name preview.svg ! -name anim.bvh ! -name anim.glb -print0 | sort -z | xargs -0 md5sum); }
before=$(others)
[ "$(echo "$before" | wc -l)" -gt 100 ] || fail "only $(echo "$before" | wc -l) other views"
# rewrite SPEED WANT_DESC WANT_DUR: the config's speed becomes SPEED
rewrite() {
    config "$1"
    # shellcheck disable=SC2317
    follows() {
        grep -q " speed=$1 " "$V/states.txt" && desc "$V" | grep -qF -- "$2" &&
            [ "$(dur "$V")" = " dur=\"$3\"" ] && exact "$V/preview.svg" && exact "$V/anim.bvh"
    }
    within_1s follows "$1" "$2" "$3" && ok "speed $1: states.txt and the preview follow within 1 s ($3)" ||
        fail "speed $1: $(grep speed= "$V/states.txt"), $(desc "$V"), $(dur "$V")"
}
rewrite -2 'Timing: one pass in 2 s, from CfgMovesMaleSdr/States/FigureWalk (speed=-2).' 2s
[ "$(ftime "$V")" = 0.0338983 ] && ok "speed -2: Frame Time 2/59 s" || fail "Frame Time $(ftime "$V")"
[ "$(others)" = "$before" ] && ok "... and no other view changed" || fail "other views changed"
rewrite 100000 'Timing: one pass in 0.05 s, the shortest played: CfgMovesMaleSdr/States/FigureWalk (speed=100000: 1e-05 s).' 0.05s
rewrite -1000 'Timing: one pass in 600 s, the longest played: CfgMovesMaleSdr/States/FigureWalk (speed=-1000: 1000 s).' 600s
rewrite 0 'Timing: 30 frames a second (the convention): CfgMovesMaleSdr/States/FigureWalk (speed=0) has no duration.' 2s
[ "$(ftime "$V")" = 0.0333333 ] && ok "speed 0: the BVH keeps 30 frames a second" || fail "Frame Time $(ftime "$V")"
rm "$S/cfg.pbo"
gone() { [ "$(desc "$V")" = "$NOSTATE" ] && cmp -s "$V/preview.svg" "$M/loose.rtm/preview.svg" &&
    cmp -s "$V/anim.bvh" "$M/loose.rtm/anim.bvh" && exact "$V/preview.svg"; }
within_1s gone && ok "the config removed: within 1 s no state plays it, the <desc> says so, the loose copy's bytes" ||
    fail "still: $(desc "$V")"
[ "$(others)" = "$before" ] && ok "... and no other view changed" || fail "other views changed"
config 0.25
back() { grep -q 'one pass in 4 s' "$V/preview.svg" && exact "$V/preview.svg" && exact "$V/anim.bvh"; }
within_1s back && ok "the config back: timed again within 1 s, sizes exact" || fail "not timed again"

# Chromium seeks each SVG to a fraction of its pass: the timed one (4 s)
# and the convention's (2 s for 60 frames) show the same pose there
cp "$V/preview.svg" "$T/timed.svg"
cp "$F/anims.pbo/gen/figure.rtm/preview.svg" "$T/frames.svg"
# at SVG SECONDS OUT.png: the pose SVG shows SECONDS into its animation,
# its right hand marked, as chromium draws it: "FX FY SX SY"
at() {
    $PNG mark "$1" RightHand "$T/mark.svg" &&
        sed "s#</svg>#<script>document.documentElement.pauseAnimations();document.documentElement.setCurrentTime($2);</script></svg>#" \
            "$T/mark.svg" >"$T/at.svg" &&
        timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
            --user-data-dir="$T/chromium" --window-size=510,340 --virtual-time-budget=100 \
            --screenshot="$3" "file://$T/at.svg" >/dev/null 2>"$T/chromium.err" && [ -s "$3" ] &&
        $PNG where "$3"
}
if ! command -v chromium >/dev/null || ! command -v python3 >/dev/null; then
    skip_or_fail "not installed: chromium or python3" "the timed preview.svg played by a browser"
else
    for f in 0.25 0.5; do
        ts=$(awk "BEGIN { print $f * 4 }") fs=$(awk "BEGIN { print $f * 2 }")
        a=$(at "$T/timed.svg" "$ts" "$T/a.png") && b=$(at "$T/frames.svg" "$fs" "$T/b.png") &&
            [ -n "$a" ] && [ "$a" = "$b" ] && ok "chromium: at $f of a pass, the timed SVG's $ts s shows the convention's $fs s pose: $a" ||
            fail "chromium at $f of a pass: timed '$a', convention '$b' ($(tail -1 "$T/chromium.err"))"
    done
    a=$(at "$T/timed.svg" 0.5 "$T/a.png") && b=$(at "$T/timed.svg" 1 "$T/b.png") && [ "$a" != "$b" ] &&
        ok "chromium: the timed figure moves between 0.5 s and 1 s" || fail "chromium: no move ($a, $b)"
fi

# Blender: the timed BVH's frame rate and length
if ! command -v blender >/dev/null; then
    skip_or_fail "not installed: blender" "the timed anim.bvh in Blender"
else
    cp "$V/anim.bvh" "$T/timed.bvh"
    blender -b --factory-startup --python-exit-code 2 --python tests/blender/bvh_timing.py \
        -- "$T/timed.bvh" 4 60 >"$T/blender.log" 2>&1
    grep -q '^blender: done' "$T/blender.log" || fail "blender did not finish: $(tail -3 "$T/blender.log")"
    blender_results "$T/blender.log"
fi
do_umount "$F"
do_umount "$M"

# a later mount: the timed sizes come from the persistent index, by
# generation, and stay exact; a config changed between mounts is a new one
do_mount "$S" "$M" -o "$SKEL" || exit 1
sizes() { stat -c %s "$V/preview.svg" "$V/anim.bvh" | tr '\n' ' '; }
first=$(sizes)
exact "$V/preview.svg" && exact "$V/anim.bvh" && exact "$V/anim.glb" && grep -q 'one pass in 4 s' "$V/preview.svg" &&
    exact "$M/loose.rtm/preview.svg" && [ "$(desc "$M/loose.rtm")" = "$NOSTATE" ] &&
    ok "a later mount: the timed views' sizes are exact ($first), no state's too" || fail "later mount: $first"
do_umount "$M"
config -8
do_mount "$S" "$M" -o "$SKEL" || exit 1
exact "$V/preview.svg" && exact "$V/anim.bvh" && exact "$V/anim.glb" && grep -q 'one pass in 8 s' "$V/preview.svg" &&
    ok "a config changed between mounts: the new timing, sizes exact" || fail "after the change: $(sizes), $(desc "$V")"
# rtmcat -C: the configs under DIR time the file as the mount does; without
# it, those of the file's own archive, where none plays it: no state, as
# the loose copy on the mount
for v in preview.svg anim.bvh anim.glb; do
    cmp -s "$V/$v" <("$RTMCAT" -s "$T/gen/figure.skel" -C "$S" "$S/anims.pbo/gen/figure.rtm" "$v") &&
        cmp -s "$M/loose.rtm/$v" <("$RTMCAT" -s "$T/gen/figure.skel" "$S/anims.pbo/gen/figure.rtm" "$v") &&
        ok "rtmcat -C SOURCE FILE $v: the mount's bytes; without -C no state's" ||
        fail "rtmcat $v: -C or not, not the expected bytes"
done
do_umount "$M"

# real addons: AUR's -8 and 100000, grad_captive's 0.06, ACE's unknown speed
if [ -d "$SHARED/addons/aur" ] && [ -d "$SHARED/addons/grad_captive" ] && [ -f "$SHARED/archives/ace_goggles.pbo" ]; then
    R=$T/real
    mkdir -p "$R/addons"
    cp -r "$SHARED/addons/aur" "$SHARED/addons/grad_captive" "$R/addons/" && cp "$SHARED/archives/ace_goggles.pbo" "$R/"
    do_mount "$R" "$M" || exit 1
    A=$M/addons/aur/addons/AUR_AdvancedUrbanRappelling/anims
    G=$M/addons/grad_captive/addons/functions/rtms/anim_cable_stand_loop.rtm
    W=$M/ace_goggles.pbo/anim/WipeGlasses.rtm
    # real NAME FOLDER DESC DUR FRAME_TIME
    real() {
        desc "$2" | grep -qF -- "$3" && [ "$(dur "$2")" = " dur=\"$4\"" ] && [ "$(ftime "$2")" = "$5" ] &&
            exact "$2/preview.svg" && exact "$2/anim.bvh" && ok "$1: $3 (dur $4, Frame Time $5)" ||
            fail "$1: $(desc "$2"), $(dur "$2"), Frame Time $(ftime "$2")"
    }
    real "AUR speed -8" "$A/Rup_RopeFX_01_aim1.rtm" 'Timing: one pass in 8 s, from CfgMovesMaleSdr/States/AUR_01_Aim_Idling (speed=-8).' 8s 8
    real "AUR speed 100000" "$A/Rup_RopeFX_01_idle.rtm" 'Timing: one pass in 0.05 s, the shortest played: CfgMovesMaleSdr/States/AUR_01_Idle (speed=100000: 1e-05 s)' 0.05s 0.05
    real "grad_captive speed 0.06" "$G" 'Timing: one pass in 16.6667 s, from CfgGesturesMale/States/AnimCableStandLoop (speed=0.06).' 16.667s 0.0833333
    real "ACE, inherited from the game" "$W" 'Timing: 30 frames a second (the convention): the speed of CfgGesturesMale/States/GestureWipeFace (speed=?) is unknown.' 1s 0.0333333
    desc "$A/Rup_RopeFX_01_Jump.rtm" | grep -qF -- "${NOSTATE#<desc>}" &&
        [ "$(ftime "$A/Rup_RopeFX_01_Jump.rtm")" = 0.0333333 ] &&
        ok "AUR: the animation no state plays keeps the convention, and its <desc> says why" ||
        fail "Jump: $(desc "$A/Rup_RopeFX_01_Jump.rtm")"
    cmp -s "$G/preview.svg" <("$RTMCAT" "$R/addons/grad_captive/addons/functions/rtms/anim_cable_stand_loop.rtm" preview.svg) &&
        cmp -s "$W/anim.bvh" <("$RTMCAT" "$R/ace_goggles.pbo/anim/WipeGlasses.rtm" anim.bvh) &&
        ok "rtmcat FILE preview.svg|anim.bvh reads the configs of the file's addon, as the mount" ||
        fail "rtmcat's timed views differ from the mount's"
    do_umount "$M"
else
    skip_or_fail "no ../shared" "the timing of real addons"
fi
finish mount/timing
