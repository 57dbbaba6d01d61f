#!/usr/bin/env bash
# blender.sh - anim.bvh in its real client: Blender imports each animation's
# anim.bvh through the mount with its default settings, and every pose
# bone's head, at every frame, must be the joint of joints/NNN.csv at
# Blender's (x, z, y) within 1 mm (tests/blender/bvh_check.py).  On the
# writer's samples, and on 3 corpus files of each of BMTR v3, v4, v5 and
# plain when ../shared exists.  Skips (fails under CI) without blender.
NAME=blender
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
plain_build_only "Blender reading anim.bvh" && finish blender
export LC_ALL=C
S=$T/src M=$T/mnt C=$T/corpus

command -v blender >/dev/null || {
    skip_or_fail "not installed: blender" "anim.bvh imported by Blender"
    finish blender
}
need_fuse "anim.bvh imported by Blender"
mkdir -p "$S"
"$RTMGEN" "$S" >/dev/null || { fail "rtmgen"; exit 1; }
do_mount "$S" "$M" || exit 1
folders=()
for a in "$M"/*.rtm; do
    [ -e "$a/anim.bvh" ] && folders+=("$a")
done

# 3 corpus files of each format: "bmtr 3", "bmtr 4", "bmtr 5", "plain"
if have_corpus; then
    do_mount "$SHARED/corpus" "$C" || exit 1
    declare -A picked=()
    while IFS=$'\t' read -r file _; do
        [[ "$file" == *.rtm ]] || continue
        kind=$(sed -n 's/^format: //p; s/^version: \([0-9]\)$/\1/p' "$C/$file/header.txt" | tr '\n' ' ')
        [ "${picked[$kind]:-0}" -lt 3 ] || continue
        picked[$kind]=$((${picked[$kind]:-0} + 1))
        folders+=("$C/$file")
    done < "$SHARED/corpus/MANIFEST.tsv"
    [ "${#picked[@]}" -eq 4 ] || fail "corpus: not every format found (${!picked[*]})"
else
    skip "no ../shared" "anim.bvh of corpus files in Blender"
fi

blender -b --factory-startup --python-exit-code 2 --python tests/blender/bvh_check.py \
    -- "${folders[@]}" >"$T/blender.log" 2>&1
rc=$?
blender_results "$T/blender.log"
grep -q '^blender: ' "$T/blender.log" || fail "blender did not finish (status $rc): $(tail -5 "$T/blender.log")"
[ "$rc" = 0 ] || [ "$FAILS" -gt 0 ] || fail "blender exit status $rc"
finish blender
