#!/usr/bin/env bash
# binarise.sh - bmtr.rtm through a real mount, used as a modder ships it:
# copied out of the mount with cp, then read back by rtmcat as BMTR 5 with
# the frames, bones (lower case) and properties of the plain file; a BMTR
# file's bmtr.rtm is its own bytes; ls -l's size is the bytes cat reads;
# rtmcat FILE bmtr.rtm gives the mount's bytes; and, with ../shared, the
# author's plain ace_hold binarised through the mount reads back as the
# animation binarise made of it (frames equal to 2 decimals: the
# quantisation); a model.cfg written beside an animation while mounted
# gives it that file's class within a second (the skeleton rule), and
# removed, the mount's again.
NAME=binarise
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C

need_fuse "bmtr.rtm mount tests"
mkdir -p "$S/anims"
"$RTMGEN" "$S/anims" >/dev/null || { fail "rtmgen"; exit 1; }
do_mount "$S" "$M" || exit 1
A=$M/anims

# header.txt's value of KEY in file F (a view path or a file rtmcat reads)
key() { sed -n "s/^$2: //p" "$1"; }

before=$FAILS
for f in walk step_props; do
    cp "$A/$f.rtm/bmtr.rtm" "$T/$f.out.rtm" || { fail "cp $f.rtm/bmtr.rtm"; continue; }
    "$RTMCAT" "$T/$f.out.rtm" header.txt > "$T/h" || { fail "rtmcat $f.out.rtm header.txt"; continue; }
    [ "$(key "$T/h" format) $(key "$T/h" version)" = "bmtr 5" ] ||
        fail "$f: bmtr.rtm reads as $(key "$T/h" format) $(key "$T/h" version), not bmtr 5"
    for k in frames bones properties first_phase last_phase motion; do
        [ "$(key "$T/h" $k)" = "$(key "$A/$f.rtm/header.txt" $k)" ] ||
            fail "$f: bmtr.rtm's $k is $(key "$T/h" $k), the plain file's $(key "$A/$f.rtm/header.txt" $k)"
    done
    cmp -s <("$RTMCAT" "$T/$f.out.rtm" bones.txt) <(tr 'A-Z' 'a-z' < "$A/$f.rtm/bones.txt") ||
        fail "$f: bmtr.rtm's bones are not the plain file's in lower case"
    cmp -s <("$RTMCAT" "$T/$f.out.rtm" props.json) "$A/$f.rtm/props.json" ||
        fail "$f: bmtr.rtm's properties differ from the plain file's"
    cmp -s <("$RTMCAT" "$S/anims/$f.rtm" bmtr.rtm) "$T/$f.out.rtm" ||
        fail "$f: rtmcat FILE bmtr.rtm differs from the mount's bmtr.rtm"
    [ "$(stat -c %s "$A/$f.rtm/bmtr.rtm")" = "$(wc -c < "$T/$f.out.rtm")" ] ||
        fail "$f: ls -l says $(stat -c %s "$A/$f.rtm/bmtr.rtm") bytes, cat reads $(wc -c < "$T/$f.out.rtm")"
done
block_ok "$before" "cp of a plain file's bmtr.rtm reads back as BMTR 5: frames, phases, motion, bones (lower case), properties; ls -l's size; rtmcat's bytes"

before=$FAILS
for f in wave_v3 reload_v4 run_v5 idle_v5_raw; do
    cmp -s "$A/$f.rtm/bmtr.rtm" "$S/anims/$f.rtm" || fail "$f: bmtr.rtm is not the BMTR file's own bytes"
done
block_ok "$before" "a BMTR file's bmtr.rtm is its own bytes (versions 3, 4, 5; LZO and raw)"

grep -q '^warning binarise-refuses: ' "$A/walk.rtm/check.txt" &&
    fail "walk.rtm: check.txt says binarise refuses, though ofp2 has every bone: $(cat "$A/walk.rtm/check.txt")" ||
    ok "check.txt: no binarise-refuses for a plain file whose bones the skeleton has"

# A model.cfg of walk.rtm's own bones, as a class Mine, written while mounted.
skel_line() { sed -n 's/^skeleton: //p' "$A/walk.rtm/header.txt"; }
# within_1s WANT: header.txt's skeleton line starts with WANT within a second.
within_1s() {
    local i
    for ((i = 0; i < 20; i++)); do
        case $(skel_line) in "$1"*) return 0 ;; esac
        sleep 0.05
    done
    return 1
}
before=$FAILS
[ "$(skel_line | cut -d' ' -f1)" = ofp2 ] || fail "walk.rtm without a model.cfg: skeleton $(skel_line)"
{
    echo "class CfgSkeletons { class Mine { skeletonInherit = \"\"; skeletonBones[] = {"
    "$RTMCAT" -s ofp2 "$S/anims/walk.rtm" skeleton.txt |
        awk '!/^#/ && NF >= 2 { printf "\"%s\", \"%s\",\n", $1, ($2 == "-" ? "" : $2) }'
    echo '"end_of_list", "" }; }; };'
} > "$T/model.cfg"
mv "$T/model.cfg" "$S/anims/model.cfg"
within_1s "Mine from model.cfg" || fail "model.cfg written: walk.rtm's skeleton is $(skel_line)"
rm "$S/anims/model.cfg"
within_1s "ofp2 " || fail "model.cfg removed: walk.rtm's skeleton is $(skel_line)"
block_ok "$before" "a model.cfg written beside an animation gives its class within 1 s, removed the mount's"

if [ -f "$SHARED/binarise/ace_hold.plain.rtm" ]; then
    mkdir -p "$T/pair"
    cp "$SHARED/binarise/ace_hold.plain.rtm" "$T/pair/"
    do_mount "$T/pair" "$T/pm" || exit 1
    cp "$T/pm/ace_hold.plain.rtm/bmtr.rtm" "$T/hold.rtm"
    before=$FAILS
    for fr in 000 004 008; do
        cmp -s <("$RTMCAT" -d 2 "$T/hold.rtm" "frames/$fr.csv") \
               <("$RTMCAT" -d 2 "$SHARED/binarise/ace_hold.binarise.rtm" "frames/$fr.csv") ||
            fail "ace_hold: frame $fr of bmtr.rtm differs from binarise's to 2 decimals"
    done
    block_ok "$before" "ace_hold's bmtr.rtm reads back as binarise's own output (frames to 2 decimals)"
else
    skip "no ../shared" "ace_hold's bmtr.rtm against binarise's output"
fi
finish mount/binarise
