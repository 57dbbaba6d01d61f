#!/usr/bin/env bash
# rootcheck.sh - check.txt at the mount's root through a real mount: the
# mistakes in the configs' states the game would find, one line a finding
# (LEVEL CODE: CONFIG: CLASS: message).  A made-up dog addon (a
# $PBOPREFIX$ folder with config.cpp and two animations from rtmgen) has
# one mistake of each kind: a man's animation on a dog skeleton found
# through skeletonName and skeletonInherit, a connectTo that is no pairs,
# an IK curve of the wrong size, and a state no config defines.  Each
# finding leaves when its mistake is fixed while mounted, within a second;
# stat's size is the bytes read; rtmcat -C DIR check.txt prints the same
# (that listings read no config: test_states_remember).  Real data from
# ../shared: what the root check.txt of AUR, grad_captive and ACE's goggles
# archive says (AUR's states checked against the game's own man skeleton).
NAME=rootcheck
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "check.txt mount tests"

exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }

mkdir -p "$S/dog" "$T/gen"
"$RTMGEN" "$T/gen" >/dev/null || fail "rtmgen"
cp "$T/gen/walk.rtm" "$S/dog/walk.rtm"
cp "$T/gen/run_v5.rtm" "$S/dog/run.rtm"
echo dog >"$S/dog/\$PBOPREFIX\$"
# config CONNECT IK SKELETON: the dog's config.cpp
config() {
    cat >"$S/dog/config.cpp.new" <<CFG
class CfgSkeletons {
    class Base { skeletonBones[] = {"pelvis", "", "spine", "pelvis"}; };
    class DogSkeleton : Base { skeletonInherit = "Base"; skeletonBones[] = {"jaw", "spine"}; };
};
class CfgMovesBasic { class Default; };
class CfgMovesDog : CfgMovesBasic {
    skeletonName = "$3";
    class States {
        class DogWalk : Default { file = "\\dog\\walk.rtm"; connectTo[] = {$1}; rightHandIKCurve[] = {$2}; };
        class DogRun : DogWalk { file = "\\dog\\run.rtm"; };
    };
};
CFG
    mv "$S/dog/config.cpp.new" "$S/dog/config.cpp"
}
config '"DogRun", 0.5, "DogSit"' '0, 1, 0.5' DogSkeleton

do_mount "$S" "$M" || exit 1
C=$M/check.txt
ls "$M" | grep -qx check.txt && ok "the root lists check.txt beside missing.txt" || fail "root: $(ls "$M")"
grep -q '^error bone-not-in-skeleton: dog/config.cpp: CfgMovesDog/States/DogWalk: file \\dog\\walk.rtm: Bone Spine1 doesn'"'"'t exist in skeleton DogSkeleton (and 63 more: ' "$C" &&
    grep -q '^error bone-not-in-skeleton: dog/config.cpp: CfgMovesDog/States/DogRun: ' "$C" &&
    ok "a man's animations played by the dog's class: their bones against DogSkeleton (skeletonInherit)" ||
    fail "bones: $(cat "$C")"
grep -qxF 'error not-pairs: dog/config.cpp: CfgMovesDog/States/DogWalk: connectTo[] has 3 elements: pairs (name, weight) need an even count' "$C" &&
    ok "a connectTo that is no pairs" || fail "pairs: $(cat "$C")"
grep -q "^error ik-curve-size: dog/config.cpp: CfgMovesDog/States/DogWalk: rightHandIKCurve\[\] has 3 elements" "$C" &&
    ok "an IK curve of the wrong size" || fail "ik: $(cat "$C")"
grep -qxF "note name-not-in-source: dog/config.cpp: CfgMovesDog/States/DogWalk: connectTo names state 'DogSit', which no config under SOURCE defines (the game's own, or a mistake)" "$C" &&
    ok "a state no config defines: a note, as SOURCE lacks the game" || fail "name: $(cat "$C")"
[ "$(wc -l <"$C")" = 5 ] && exact "$C" && ok "five findings; stat's size is the bytes read" ||
    fail "$(wc -l <"$C") lines, size $(stat -c %s "$C")"
cmp -s "$C" <("$RTMCAT" -C "$S" check.txt) && ok "rtmcat -C DIR check.txt prints the mount's bytes" ||
    fail "rtmcat: $("$RTMCAT" -C "$S" check.txt 2>&1)"

# each fixed while mounted: its finding leaves within a second
config '"DogRun", 0.5, "DogSit"' '0, 1, 0.5, 0' DogSkeleton
gone() { ! grep -q "$1" "$C" && exact "$C"; }
within_1s gone ik-curve-size && ok "the IK curve fixed: its finding leaves within 1 s" || fail "ik: $(cat "$C")"
config '"DogRun", 0.5, "DogWalk", 1' '0, 1, 0.5, 0' DogSkeleton
within_1s gone 'not-pairs\|DogSit' && ok "connectTo fixed: both its findings leave" || fail "pairs: $(cat "$C")"
config '"DogRun", 0.5, "DogWalk", 1' '0, 1, 0.5, 0' Missing
quiet() { grep -qxF "note skeleton-not-in-source: dog/config.cpp: CfgMovesDog: skeletonName 'Missing' is a class of CfgSkeletons no config under SOURCE has: no bone is checked" "$C" &&
          [ "$(wc -l <"$C")" = 1 ] && exact "$C"; }
within_1s quiet && ok "a skeletonName no config has: said once, no bone checked" || fail "skeleton: $(cat "$C")"
do_umount "$M"

[ -d "$SHARED/addons/aur" ] && [ -d "$SHARED/addons/grad_captive" ] && [ -f "$SHARED/archives/ace_goggles.pbo" ] ||
    { skip_or_fail "no ../shared" "check.txt of real addons"; finish mount/rootcheck; exit; }
# Each bone the root check finds against the game's own skeleton is one
# that the file's own check.txt finds too (both use the built-in ofp2).
bones_agree() {
    local line file first
    while IFS= read -r line; do
        file=${line##*\\} file=${file%%: Bone *}
        first=${line#*: Bone } first=${first%% doesn\'t exist*}
        file=$(find "$M" -type d -name "$file" | head -1)
        [ -n "$file" ] && grep -qF "Bone $first doesn't exist in skeleton OFP2_ManSkeleton" "$file/check.txt" ||
            { echo "not in $file/check.txt: $line"; return 1; }
    done < <(grep '^error bone-not-in-skeleton' "$M/check.txt")
}
# aur names OFP2_ManSkeleton and defines it nowhere: checked against the
# game's own, and three states' files have the Slot_ bones it lacks;
# grad_captive's own model.cfg defines it, which wins.
for src in addons/aur addons/grad_captive archives/ace_goggles.pbo; do
    do_mount "$SHARED/$src" "$M" || continue
    C=$M/check.txt
    if [ "$src" = addons/aur ]; then
        exact "$C" && [ "$(grep -c '^error' "$C")" = 3 ] &&
            [ "$(grep -c "^error bone-not-in-skeleton: .*Bone Slot_BackPack doesn't exist in skeleton OFP2_ManSkeleton (the game's own, built into rtmfs)" "$C")" = 3 ] &&
            ! grep -q skeleton-not-in-source "$C" && bones_agree &&
            cmp -s "$C" <("$RTMCAT" -C "$SHARED/$src" check.txt) &&
            ok "$src: its states' bones checked against the game's OFP2_ManSkeleton, as their files' check.txt; the same bytes as rtmcat" ||
            fail "$src: $(cat "$C")"
    else
        exact "$C" && ! grep -q '^error' "$C" && ! grep -q 'built into rtmfs' "$C" &&
            cmp -s "$C" <("$RTMCAT" -C "$SHARED/$src" check.txt) &&
            ok "$src: no error, the same bytes as rtmcat ($(wc -l <"$C") notes)" ||
            fail "$src: $(cat "$C")"
    fi
    do_umount "$M"
done
finish mount/rootcheck
