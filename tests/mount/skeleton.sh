#!/usr/bin/env bash
# skeleton.sh - the skeleton rule through a real mount (rtmfs-views(7),
# THE SKELETON RULE): a made-up dog addon whose moves class names
# DogSkeleton (CfgSkeletons, through skeletonInherit) plays a plain and a
# BMTR file; header.txt names it and where it came from, the BMTR file's
# bones compose with its parents, check.txt finds no bone the game would
# miss; a config rewritten while mounted changes the views within a
# second and stat's sizes stay exact; -o skeleton= and a model.cfg beside
# the files come first.  Fixtures from rtmgen.
NAME=skeleton
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "skeleton rule mount tests"

mkdir -p "$S/dog" "$T/gen"
"$RTMGEN" "$T/gen" >/dev/null || fail "rtmgen"
cp "$T/gen/walk.rtm" "$S/dog/walk.rtm"
cp "$T/gen/run_v5.rtm" "$S/dog/run.rtm"
echo dog >"$S/dog/\$PBOPREFIX\$"
# config SKELETON: the dog's config.cpp, its moves class naming SKELETON
config() {
    cat >"$S/dog/config.cpp.new" <<CFG
class CfgSkeletons {
    class Base { skeletonBones[] = {"pelvis", "", "spine", "pelvis", "spine1", "spine"}; };
    class DogSkeleton : Base { skeletonInherit = "Base"; skeletonBones[] = {"jaw", "spine1"}; };
};
class CfgMovesBasic { class Default; };
class CfgMovesDog : CfgMovesBasic {
    skeletonName = "$1";
    class States {
        class DogWalk : Default { file = "\\dog\\walk.rtm"; };
        class DogRun : DogWalk { file = "\\dog\\run.rtm"; };
    };
};
CFG
    mv "$S/dog/config.cpp.new" "$S/dog/config.cpp"
}
config DogSkeleton
exact() { [ "$(stat -c %s "$1")" = "$(wc -c <"$1")" ]; }
skeleton_line() { grep '^skeleton: ' "$M/dog/$1/header.txt"; }

do_mount "$S" "$M" || exit 1
ls -R "$M" >/dev/null && grep -rl spine1 --include=bones.txt "$M" >/dev/null ||
    fail "ls -R, grep -r"
[ "$(skeleton_line run.rtm)" = 'skeleton: DogSkeleton (skeletonName of dog/config.cpp: CfgMovesDog) (2 of 66 bones composed with a parent)' ] &&
    ok "BMTR: read with the class's skeleton, named with where it came from" ||
    fail "run.rtm: $(skeleton_line run.rtm)"
skeleton_line walk.rtm | grep -q '^skeleton: DogSkeleton (skeletonName of dog/config.cpp: CfgMovesDog) (used for pivots' &&
    ok "plain: the same skeleton" || fail "walk.rtm: $(skeleton_line walk.rtm)"
grep -q "Bone pelvis\|Bone spine1 " "$M/dog/run.rtm/check.txt" &&
    fail "check.txt misses a bone DogSkeleton has: $(head -3 "$M/dog/run.rtm/check.txt")" ||
    ok "check.txt: no bone of DogSkeleton said missing"
grep -q "Bone spine2 doesn't exist in skeleton DogSkeleton" "$M/dog/run.rtm/check.txt" &&
    ok "check.txt: the man's bones the dog lacks, against DogSkeleton" || fail "check: $(head -3 "$M/dog/run.rtm/check.txt")"
cmp -s "$M/dog/run.rtm/frames/000.csv" <("$RTMCAT" "$S/dog/run.rtm" frames/000.csv) &&
    "$RTMCAT" "$S/dog/run.rtm" header.txt | grep -q '^skeleton: DogSkeleton (skeletonName of config.cpp: CfgMovesDog) (2 of 66' &&
    ok "rtmcat FILE VIEW takes the skeleton of its addon's configs too" ||
    fail "rtmcat: $("$RTMCAT" "$S/dog/run.rtm" header.txt | grep '^skeleton')"
before=$(cat "$M/dog/run.rtm/frames/000.csv")
config Missing
changed() { skeleton_line run.rtm | grep -q '^skeleton: ofp2 (' && exact "$M/dog/run.rtm/header.txt" &&
            exact "$M/dog/run.rtm/frames/000.csv"; }
within_1s changed && ok "config rewritten while mounted: the mount's skeleton within 1 s, sizes exact" ||
    fail "after rewrite: $(skeleton_line run.rtm)"
[ "$(cat "$M/dog/run.rtm/frames/000.csv")" != "$before" ] &&
    ok "a BMTR file's frames follow its skeleton" || fail "frames unchanged"
config DogSkeleton
back() { skeleton_line run.rtm | grep -q '^skeleton: DogSkeleton' && exact "$M/dog/run.rtm/frames/000.csv"; }
within_1s back && [ "$(cat "$M/dog/run.rtm/frames/000.csv")" = "$before" ] &&
    ok "changed back: the same bytes again" || fail "back: $(skeleton_line run.rtm)"
do_umount "$M"

do_mount "$S" "$M" -o skeleton=ofp2 || exit 1
skeleton_line run.rtm | grep -q '^skeleton: ofp2 (' && ok "-o skeleton= comes first" ||
    fail "explicit: $(skeleton_line run.rtm)"
do_umount "$M"

cat >"$S/dog/model.cfg" <<'CFG'
class CfgSkeletons { class Mine { skeletonBones[] = {"pelvis", "", "spine", "pelvis"}; }; };
CFG
do_mount "$S" "$M" || exit 1
skeleton_line run.rtm | grep -q '^skeleton: Mine from model.cfg (' &&
    ok "a model.cfg beside the file comes before the configs" || fail "model.cfg: $(skeleton_line run.rtm)"
do_umount "$M"
finish mount/skeleton
