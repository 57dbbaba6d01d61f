#!/usr/bin/env bash
# check.sh - check.txt in a real mount: grep -r over the check.txt files of
# a mod finds the faults written into its animations (a bone the skeleton
# lacks, a bone's case), loose and in an archive's folder alike, and sums
# them up as the README shows; a clean animation's check.txt is empty.
# The faults are written into rtmgen's plain sample (a bone's 32-byte name
# field renamed), the archive by rtmgen -a.
NAME=check
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C

need_fuse "check.txt in a mount"
command -v perl >/dev/null || { fail "perl (perl-base) is needed to write the faults"; exit 1; }
mkdir -p "$S/@mod/anims" "$S/@mod/addons" "$T/gen"
"$RTMGEN" "$T/gen" >/dev/null || { fail "rtmgen"; exit 1; }

# rename SRC DST FROM TO: SRC with the plain name field FROM made TO
rename() {
    perl -0777 -pe 'BEGIN { $x = pack("a32", shift); $y = pack("a32", shift) } s/\Q$x\E/$y/g' \
        "$3" "$4" <"$1" >"$2"
}
rename "$T/gen/walk.rtm" "$S/@mod/anims/backpack.rtm" Spine3 slot_backpack
rename "$T/gen/walk.rtm" "$T/gen/headcutscene.rtm" neck headcutscene
rename "$T/gen/walk.rtm" "$S/@mod/anims/case.rtm" Spine2 spine2
cp "$T/gen/wave_v3.rtm" "$S/@mod/anims/wave_v3.rtm"
"$RTMGEN" -a "$S/@mod/addons/faults.pbo" "$T/gen/headcutscene.rtm" "$T/gen/wave_v3.rtm" \
    || { fail "rtmgen -a"; exit 1; }

do_mount "$S" "$M" || finish check.sh
cd "$M" || exit 1
grep -rl . --include=check.txt . | sort >"$T/listed"
want="./@mod/addons/faults.pbo/gen/headcutscene.rtm/check.txt
./@mod/anims/backpack.rtm/check.txt
./@mod/anims/case.rtm/check.txt"
# wave_v3 has every bone of its kind: a note would list it; the rest must be there
for f in $want; do
    grep -qx "$f" "$T/listed" && ok "grep -rl . --include=check.txt lists $f" \
        || fail "grep -rl lacks $f: $(cat "$T/listed")"
done
grep -rh '^error' --include=check.txt . | sed 's/:.*//' | sort | uniq -c >"$T/sum"
[ "$(awk '{print $1, $2, $3}' "$T/sum")" = "2 error bone-not-in-skeleton" ] \
    && ok "grep -rh '^error' sums up the mod: two unknown bones" || fail "the sum: $(cat "$T/sum")"
grep -q "^error bone-not-in-skeleton: Bone slot_backpack doesn't exist in skeleton OFP2_ManSkeleton" \
    @mod/anims/backpack.rtm/check.txt && ok "check.txt names slot_backpack in the game's words" \
    || fail "backpack.rtm/check.txt: $(cat @mod/anims/backpack.rtm/check.txt)"
grep -q "^error bone-not-in-skeleton: Bone headcutscene doesn't exist" \
    @mod/addons/faults.pbo/gen/headcutscene.rtm/check.txt && ok "an archive entry's check.txt" \
    || fail "faults.pbo/gen/headcutscene.rtm/check.txt: $(cat @mod/addons/faults.pbo/gen/headcutscene.rtm/check.txt)"
grep -q "^warning bone-case: case mismatch 'spine2' in rtm vs 'Spine2'" @mod/anims/case.rtm/check.txt \
    && ok "a plain file's case mismatch is a warning" || fail "case.rtm/check.txt: $(cat @mod/anims/case.rtm/check.txt)"
size=$(stat -c %s @mod/anims/backpack.rtm/check.txt)
[ "$size" = "$(wc -c <@mod/anims/backpack.rtm/check.txt)" ] && ok "check.txt's size is exact" \
    || fail "check.txt: stat says $size"
cmp -s @mod/anims/backpack.rtm/check.txt <("$RTMCAT" "$S/@mod/anims/backpack.rtm" check.txt) \
    && ok "check.txt equals rtmcat's" || fail "check.txt differs from rtmcat's"
cd / || exit 1
do_umount "$M"
finish check.sh
