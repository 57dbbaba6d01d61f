#!/usr/bin/env bash
# missing.sh - missing.txt at the mount's root through a real mount: the
# config states whose file no animation under SOURCE has, one line a state
# (class path, file as written, config=, why), in config-path then file
# order; stat's size is the bytes read and rtmcat -C DIR missing.txt
# prints the same.  With the project's writers: an archive added while
# mounted, holding the animation another archive's config names, links
# them (states.txt gains the line, missing.txt loses it) within a second; a
# config naming what no prefix under SOURCE has stays, naming the prefix;
# a config removed takes its lines; -o configs=none leaves it empty; a
# SOURCE folder named missing.txt wins.  Real data from ../shared: ACE's
# goggles archive, AUR and grad_captive name only animations they have
# (AUR's aimFrompistol differs from its file in case alone), and each
# loses one animation in a copy to show its line.
NAME=missing
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "missing.txt mount tests"

# exact FILE: stat's size is the bytes read.
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }
# same FILE WANT WHAT: FILE's bytes are exactly WANT's (a string).
same() { [ "$(cat "$1")" = "$2" ] && exact "$1" && ok "$3" || fail "$3: $(cat "$1")"; }

mkdir -p "$S" "$T/gen" "$T/cfg"
"$RTMGEN" "$T/gen" >/dev/null || fail "rtmgen"
printf '%s\n' 'class CfgMovesMaleSdr { class States {' \
    '  class LinkedWalk { file = "\rtmfs\packed\gen\walk.rtm"; speed = 0.5; looped = 1; };' \
    '  class BaseIdle { file = "\A3\anims_F\Data\Anim\Sdr\idle.rtm"; speed = 1; };' \
    '  class CaseWalk { file = "RTMFS/Packed/GEN/Walk.RTM"; speed = 1; };' \
    '}; };' >"$T/cfg/config.cpp"
"$RTMGEN" -a "$S/links.pbo" "$T/cfg/config.cpp" || fail "rtmgen -a links.pbo"

LINKED='CfgMovesMaleSdr/States/LinkedWalk file=\rtmfs\packed\gen\walk.rtm config=links.pbo/cfg/config.cpp (prefix \rtmfs\packed is under SOURCE, no animation at that path in it)'
BASE='CfgMovesMaleSdr/States/BaseIdle file=\A3\anims_F\Data\Anim\Sdr\idle.rtm config=links.pbo/cfg/config.cpp (no archive or $PBOPREFIX$ folder under SOURCE has prefix \A3\anims_F)'
CASE='CfgMovesMaleSdr/States/CaseWalk file=RTMFS/Packed/GEN/Walk.RTM config=links.pbo/cfg/config.cpp (prefix \RTMFS\Packed is under SOURCE, no animation at that path in it)'

do_mount "$S" "$M" || exit 1
ls "$M" | grep -qx missing.txt && ok "the root lists missing.txt" || fail "root: $(ls "$M")"
same "$M/missing.txt" "$LINKED
$BASE
$CASE" "every state whose file is not there, in file order, with why"
cmp -s "$M/missing.txt" <("$RTMCAT" -C "$S" missing.txt) && ok "rtmcat -C DIR missing.txt prints the mount's bytes" ||
    fail "rtmcat: $("$RTMCAT" -C "$S" missing.txt 2>&1)"

# the archive that holds walk.rtm arrives: both states link, one stays missing
"$RTMGEN" -a "$T/other.pbo" "$T/gen/walk.rtm" && mv "$T/other.pbo" "$S/" || fail "rtmgen -a other.pbo"
linked() { [ "$(cat "$M/missing.txt")" = "$BASE" ] && exact "$M/missing.txt"; }
within_1s linked && ok "an archive added with the animation named: its lines leave missing.txt within 1 s" ||
    fail "still: $(cat "$M/missing.txt")"
L=$M/other.pbo/gen/walk.rtm/states.txt
grep -qxF 'CfgMovesMaleSdr/States/LinkedWalk speed=0.5 duration_s=2 looped=1 config=links.pbo/cfg/config.cpp' "$L" &&
    grep -qF 'CfgMovesMaleSdr/States/CaseWalk ' "$L" && ok "... and its states.txt gains the linking states" ||
    fail "states.txt: $(cat "$L")"

rm "$S/links.pbo"
empty() { [ ! -s "$M/missing.txt" ] && [ "$(stat -c %s "$M/missing.txt")" = 0 ]; }
within_1s empty && ok "the config's archive removed: missing.txt empty within 1 s" || fail "left: $(cat "$M/missing.txt")"
do_umount "$M"

# a SOURCE folder named missing.txt is shown, not the mount's file
mkdir "$S/missing.txt"
do_mount "$S" "$M" || exit 1
[ -d "$M/missing.txt" ] && [ "$(ls "$M" | grep -cx missing.txt)" = 1 ] &&
    ok "SOURCE's own missing.txt wins, listed once" || fail "missing.txt: $(ls -l "$M")"
do_umount "$M"
rmdir "$S/missing.txt"

"$RTMGEN" -a "$S/links.pbo" "$T/cfg/config.cpp" || fail "rtmgen -a links.pbo"
do_mount "$S" "$M" -o configs=none || exit 1
same "$M/missing.txt" "" "-o configs=none: missing.txt is there, empty"
do_umount "$M"

[ -d "$SHARED/addons/aur" ] && [ -d "$SHARED/addons/grad_captive" ] && [ -f "$SHARED/archives/ace_goggles.pbo" ] ||
    { skip_or_fail "no ../shared" "missing.txt of real addons"; finish mount/missing; exit; }

# the real addons as they are: every state's file is there
for src in archives/ace_goggles.pbo addons/aur addons/grad_captive; do
    do_mount "$SHARED/$src" "$M" || exit 1
    states=$(grep -rh ' config=' --include=states.txt "$M" | wc -l)
    [ "$states" -gt 0 ] && same "$M/missing.txt" "" "$src: $states state lines, every file there: missing.txt empty" ||
        fail "$src: no state found"
    do_umount "$M"
done

# copies that lose one animation each (names worked out from their configs)
R=$T/real
mkdir -p "$R/addons"
cp -r "$SHARED/addons/aur" "$SHARED/addons/grad_captive" "$R/addons/"
cp "$SHARED/archives/ace_goggles.pbo" "$R/"
rm "$R/addons/aur/addons/AUR_AdvancedUrbanRappelling/anims/Rup_RopeFX_01_Jump3.rtm" \
    "$R/addons/grad_captive/addons/functions/rtms/anim_cable_stand_end.rtm"
do_mount "$R" "$M" || exit 1
same "$M/missing.txt" 'CfgGesturesMale/States/AUR_01_Jump3 file=\AUR_AdvancedUrbanRappelling\anims\Rup_RopeFX_01_Jump3.rtm config=addons/aur/addons/AUR_AdvancedUrbanRappelling/config.cpp (prefix \AUR_AdvancedUrbanRappelling is under SOURCE, no animation at that path in it)
CfgGesturesMale/States/AnimCableStandEnd file=\x\grad_captiveWalking\addons\functions\rtms\anim_cable_stand_end.rtm config=addons/grad_captive/addons/functions/config.cpp (prefix \x\grad_captiveWalking\addons\functions is under SOURCE, no animation at that path in it)' \
    "AUR and grad_captive without one animation each: their states, in config-path order"
do_umount "$M"
finish mount/missing
