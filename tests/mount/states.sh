#!/usr/bin/env bash
# states.sh - states.txt through a real mount: which config states play an
# animation, read from the configs under SOURCE (an archive's config.bin, a
# $PBOPREFIX$ folder's preprocessed config.cpp with its includes, CBA's
# macros from a project's include/).  Real data from ../shared: AUR's
# speeds -8 and 100000, grad_captive's 0.06 (16.6667 s), ACE's
# GestureWipeFace that inherits from the base game.  stat's size is the
# bytes read, the mount agrees with rtmcat, -o configs=none leaves the
# first line only, and a config rewritten changes states.txt within a
# second and no other view.
NAME=states
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "states.txt mount tests"
[ -d "$SHARED/addons/aur" ] && [ -f "$SHARED/archives/ace_goggles.pbo" ] ||
    { skip_or_fail "no ../shared" "states.txt of real addons"; finish mount/states; exit; }

AUR=addons/aur/addons/AUR_AdvancedUrbanRappelling
GRAD=addons/grad_captive/addons/functions
mkdir -p "$S/addons"
cp -r "$SHARED/addons/aur" "$SHARED/addons/grad_captive" "$S/addons/"
cp "$SHARED/archives/ace_goggles.pbo" "$S/"

# has FILE LINE WHAT: FILE holds exactly the line LINE.
has() { grep -qxF -- "$2" "$1" && ok "$3" || fail "$3: $(cat "$1")"; }

# exact FILE: stat's size is the bytes read.
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }

do_mount "$S" "$M" || exit 1
A=$M/$AUR/anims
has "$A/Rup_RopeFX_01_aim1.rtm/states.txt" \
    'CfgMovesMaleSdr/States/AUR_01_Aim_Idling speed=-8 duration_s=8 looped=? config=addons/aur/addons/AUR_AdvancedUrbanRappelling/config.cpp inherits=AmovPercMstpSrasWrflDnon' \
    "AUR: speed -8 lasts 8 s, looped comes from the game's class"
has "$A/Rup_RopeFX_01_idle.rtm/states.txt" \
    'CfgMovesMaleSdr/States/AUR_01_Idle speed=100000 duration_s=1e-05 looped=? config=addons/aur/addons/AUR_AdvancedUrbanRappelling/config.cpp inherits=AmovPercMstpSrasWrflDnon' \
    "AUR: speed 100000, a held pose"
has "$A/Rup_RopeFX_01_idle.rtm/states.txt" 'game_path: \AUR_AdvancedUrbanRappelling\anims\Rup_RopeFX_01_idle.rtm' \
    "AUR: the game path by its \$PBOPREFIX\$"
[ "$(cat "$A/Rup_RopeFX_01_Jump.rtm/states.txt")" = 'game_path: \AUR_AdvancedUrbanRappelling\anims\Rup_RopeFX_01_Jump.rtm' ] &&
    ok "AUR: an animation no state plays has its first line only" || fail "Jump: $(cat "$A/Rup_RopeFX_01_Jump.rtm/states.txt")"
unused=$(grep -L 'speed=' -r --include=states.txt "$M/$AUR" | wc -l)
[ "$unused" = 1 ] && ok "grep -L finds the one unused animation of AUR" || fail "grep -L: $unused"
has "$M/$GRAD/rtms/anim_cable_stand_loop.rtm/states.txt" \
    'CfgGesturesMale/States/AnimCableStandLoop speed=0.06 duration_s=16.6667 looped=1 config=addons/grad_captive/addons/functions/config.cpp' \
    "grad_captive: CBA's macros from include/, speed 0.06 lasts 16.6667 s"
W=$M/ace_goggles.pbo/anim/WipeGlasses.rtm/states.txt
has "$W" 'game_path: \z\ace\addons\goggles\anim\WipeGlasses.rtm' "ACE: the archive's prefix"
grep -qE '^CfgGesturesMale/States/GestureWipeFace speed=\? duration_s=\? looped=\? config=ace_goggles.pbo/config.bin inherits=[A-Za-z]+$' "$W" &&
    ok "ACE: GestureWipeFace inherits from the game: $(grep -o 'inherits=.*' "$W")" || fail "ACE: $(cat "$W")"
bad=0
while IFS= read -r f; do
    exact "$f" || { bad=1; fail "$f: stat size != bytes read"; }
    rel=${f#"$M"/}
    cmp -s "$f" <("$RTMCAT" -C "$S" "$S/${rel%/states.txt}" states.txt) || { bad=1; fail "$rel: differs from rtmcat"; }
done < <(find "$M" -name states.txt)
[ $bad = 0 ] && ok "every states.txt: stat size = bytes read, and rtmcat's bytes"

# a config rewritten: states.txt follows within a second, no other view moves
V=$A/Rup_RopeFX_01_aim1.rtm
# (preview.svg and anim.bvh follow the speed: tests/mount/timing.sh)
sums() { (cd "$V" && md5sum header.txt bones.txt moving.txt check.txt plain.rtm frames/000.csv); }
before=$(sums)
sed -i 's/speed=-8;/speed=-4;/' "$S/$AUR/cfgAnimations.hpp"
grep -q 'speed=-4;' "$S/$AUR/cfgAnimations.hpp" || fail "the fixture's speed -8 is not where it was"
changed() { grep -q ' speed=-4 duration_s=4 ' "$V/states.txt" && exact "$V/states.txt"; }
within_1s changed && ok "an include rewritten: states.txt changes within 1 s" || fail "not changed: $(cat "$V/states.txt")"
[ "$(sums)" = "$before" ] && ok "... and no other view" || fail "other views changed"
rm "$S/$AUR/config.cpp"
gone() { [ "$(wc -l <"$V/states.txt")" = 1 ]; }
within_1s gone && ok "a config removed: its states go within 1 s" || fail "still: $(cat "$V/states.txt")"

# an archive added with a config that names an animation in another archive
# (both of prefix rtmfs\packed) links them
mkdir -p "$T/gen" "$T/cfg"
"$RTMGEN" "$T/gen" >/dev/null && "$RTMGEN" -a "$S/other.pbo" "$T/gen/walk.rtm" || fail "rtmgen -a"
printf '%s\n' 'class CfgMovesMaleSdr { class States {' \
    '  class LinkedWalk { file = "\rtmfs\packed\gen\walk.rtm"; speed = 0.5; looped = 1; };' \
    '}; };' > "$T/cfg/config.cpp"
L=$M/other.pbo/gen/walk.rtm/states.txt
within_1s test -e "$L" || fail "other.pbo not shown"
[ "$(cat "$L")" = 'game_path: \rtmfs\packed\gen\walk.rtm' ] || fail "before: $(cat "$L")"
"$RTMGEN" -a "$T/links.pbo" "$T/cfg/config.cpp" && mv "$T/links.pbo" "$S/" || fail "rtmgen -a links.pbo"
linked() { grep -qxF 'CfgMovesMaleSdr/States/LinkedWalk speed=0.5 duration_s=2 looped=1 config=links.pbo/cfg/config.cpp' "$L"; }
within_1s linked && ok "an archive added links its config's state to another archive's animation" ||
    fail "not linked: $(cat "$L")"
do_umount "$M"

do_mount "$S" "$M" -o configs=none || exit 1
n=$(find "$M" -name states.txt -exec sh -c 'wc -l <"$1"' _ {} \; | sort -u | tr '\n' ' ')
[ "$n" = "1 " ] && ok "-o configs=none: every states.txt has its first line only" || fail "configs=none: $n"
do_umount "$M"
finish mount/states
