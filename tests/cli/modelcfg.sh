#!/usr/bin/env bash
# modelcfg.sh - rtmcat -s MODEL.cfg[:CLASS] (skeleton_cfg.h): a CfgSkeletons
# class named or the best cover, what header.txt and skeleton.txt say of it,
# plain.rtm as with the built-in skeleton when the bones and parents are
# the same, each error as one line with exit 1 and nothing on stdout, and
# (with ../shared, or RTMFS_SHARED) the real model.cfg files.  Uses
# $BUILD/rtmgen and $BUILD/rtmcat (BUILD defaults to build).
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmfs-modelcfg.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
"$RTMGEN" "$T/s" >/dev/null || { fail "rtmgen: writing the fixtures"; finish modelcfg.sh; }
A=$T/s/run_v5.rtm                      # BMTR: composed with the skeleton

# A model.cfg whose class Man is the built-in skeleton's bones of $A, as
# (bone, parent) pairs from its skeleton.txt, and a weapon's class.
{
    echo 'class CfgSkeletons {'
    echo '    class Default { isDiscrete = 1; skeletonInherit = ""; skeletonBones[] = {}; };'
    echo '    class Man : Default {'
    echo '        skeletonBones[] = {'
    "$RTMCAT" "$A" skeleton.txt | awk '!/^#/ { p = $2 == "-" ? "" : $2; printf "%s\"%s\", \"%s\"", n++ ? ",\n" : "", $1, p }'
    echo '        };'
    echo '    };'
    echo '    class Gun { skeletonInherit = ""; skeletonBones[] = { "bolt", "", "trigger", "bolt" }; };'
    echo '};'
} >"$T/model.cfg"

h=$("$RTMCAT" -s "$T/model.cfg:man" "$A" header.txt 2>&1)
grep -qx "skeleton: $T/model.cfg:Man (model.cfg class, named) (65 of 66 bones composed with a parent)" <<<"$h" &&
    ok "-s model.cfg:man: header.txt names the class and says it was named" ||
    fail "-s model.cfg:man: $(grep skeleton <<<"$h")"
h=$("$RTMCAT" -s "$T/model.cfg" "$A" header.txt 2>&1)
grep -q "^skeleton: $T/model.cfg:Man (model.cfg class, best cover: 66 of 103 ofp2 bones) " <<<"$h" &&
    ok "-s model.cfg: the class of best cover, and the count" ||
    fail "-s model.cfg: $(grep skeleton <<<"$h")"
grep -q "^# The skeleton used for this animation: $T/model.cfg:Man (model.cfg class, named), with pivots" \
    < <("$RTMCAT" -s "$T/model.cfg:MAN" "$A" skeleton.txt) &&
    ok "skeleton.txt names the class" || fail "skeleton.txt: $("$RTMCAT" -s "$T/model.cfg:MAN" "$A" skeleton.txt | head -1)"
cmp -s <("$RTMCAT" "$A" plain.rtm) <("$RTMCAT" -s "$T/model.cfg:Man" "$A" plain.rtm) &&
    ok "plain.rtm with model.cfg:Man is the built-in skeleton's" || fail "plain.rtm differs with model.cfg:Man"
cmp -s <("$RTMCAT" "$A" joints/000.csv) <("$RTMCAT" -s "$T/model.cfg:Man" "$A" joints/000.csv) &&
    ok "joints/000.csv: the built-in rest pose's pivots" || fail "joints/000.csv differs with model.cfg:Man"
h=$("$RTMCAT" -s "$T/model.cfg:gun" "$A" header.txt 2>&1)
grep -q '^rest_pose: none' <<<"$h" && ok "-s model.cfg:gun: no ofp2 bone, no pivots" ||
    fail "-s model.cfg:gun: $(grep rest_pose <<<"$h")"
# the skeleton's own text, from skeleton.txt, is a skeleton file of its own
"$RTMCAT" -s "$T/model.cfg:Man" "$A" skeleton.txt >"$T/man.txt"
cmp -s <("$RTMCAT" -s "$T/man.txt" "$A" plain.rtm) <("$RTMCAT" -s "$T/model.cfg:Man" "$A" plain.rtm) &&
    ok "skeleton.txt of a model.cfg skeleton reads back as a skeleton file" || fail "skeleton.txt round trip"

# --- errors: one line, exit 1, nothing on stdout ---------------------------
bad() {
    local what=$1 spec=$2 want=$3 out rc
    out=$("$RTMCAT" -s "$spec" "$A" header.txt 2>"$T/err")
    rc=$?
    if [ "$rc" = 1 ] && [ -z "$out" ] && [ "$(wc -l <"$T/err")" = 1 ] &&
        grep -qF "rtmcat: skeleton '$spec': $want" "$T/err"; then
        ok "$what: exit 1, one line"
    else
        fail "$what: exit $rc, stdout ${#out} bytes, stderr: $(head -c 300 "$T/err")"
    fi
}
bad "a class that is not there" "$T/model.cfg:Nope" "CfgSkeletons has no class 'Nope'"
printf 'class CfgModels {};\n' >"$T/none.cfg"
bad "no CfgSkeletons" "$T/none.cfg" "no class CfgSkeletons"
printf 'class CfgSkeletons { class A { skeletonInherit = "B"; }; class B { skeletonInherit = "A"; }; };\n' \
    >"$T/loop.cfg"
bad "a skeletonInherit loop" "$T/loop.cfg:a" "skeletonInherit loop: class A inherits itself through B"
printf 'class CfgSkeletons { class A { skeletonBones[] = {"x", "y"}; }; };\n' >"$T/orphan.cfg"
bad "a parent not listed" "$T/orphan.cfg" "class A: bone 'x' has parent 'y', which the skeleton does not list"
printf 'class CfgSkeletons { class A {\n' >"$T/cut.cfg"
bad "a cut file" "$T/cut.cfg" "$T/cut.cfg:"

# --- the real files --------------------------------------------------------
if [ -d "$SHARED/modelcfg" ] && have_corpus; then
    for f in "$SHARED"/modelcfg/*.cfg; do
        "$RTMCAT" -s "$f" "$A" header.txt >/dev/null 2>"$T/err" && ok "loads: ${f#"$SHARED"/}" ||
            fail "${f#"$SHARED"/}: $(cat "$T/err")"
    done
    M=$SHARED/modelcfg/arifle_ak47_data_anims_model.cfg
    n=0 same=0
    while read -r f; do
        n=$((n + 1))
        cmp -s <("$RTMCAT" "$f" plain.rtm) <("$RTMCAT" -s "$M:OFP2_ManSkeleton" "$f" plain.rtm) &&
            same=$((same + 1))
    done < <(find "$SHARED/corpus" -name '*.rtm' | sort | head -40)
    [ "$n" -gt 0 ] && [ "$same" = "$n" ] &&
        ok "corpus: $same of $n files, plain.rtm with the real OFP2_ManSkeleton is the built-in's" ||
        fail "corpus: $same of $n files with the same plain.rtm"
else
    skip "no ../shared" "the real model.cfg files"
fi

finish modelcfg.sh
