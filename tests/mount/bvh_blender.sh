#!/usr/bin/env bash
# bvh_blender.sh - a BVH from a real client read back (rtm(5), BVH
# SOURCES): Blender imports anim.bvh of 24 corpus files (6 of each of BMTR
# v3, v4, v5 and plain) with its default settings and exports it again
# with the exporter's (tests/blender/bvh_export.py); each exported file,
# mounted as a source with the same skeleton, must put every bone both
# share at the original's joint in every frame within 1 mm, and give the
# motion vector within 1 mm (tests/lib/joints_compare.py).  Skips without
# ../shared; without blender, skips (fails under CI).
NAME=bvh-blender
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
plain_build_only "Blender's export of anim.bvh read back" && finish mount/bvh_blender
export LC_ALL=C
C=$T/corpus B=$T/back M=$T/mnt

command -v blender >/dev/null || {
    skip_or_fail "not installed: blender" "Blender's export of anim.bvh read back"
    finish mount/bvh_blender
}
have_corpus || { skip "no ../shared" "Blender's export of anim.bvh read back"; finish mount/bvh_blender; }
need_fuse "Blender's export of anim.bvh read back"
mkdir -p "$B"
do_mount "$SHARED/corpus" "$C" || exit 1
declare -A picked=()
files=() pairs=()
while IFS=$'\t' read -r file _; do
    [[ "$file" == *.rtm ]] || continue
    kind=$(sed -n 's/^format: //p; s/^version: \([0-9]\)$/\1/p' "$C/$file/header.txt" | tr '\n' ' ')
    [ "${picked[$kind]:-0}" -lt 6 ] && [ -e "$C/$file/anim.bvh" ] || continue
    picked[$kind]=$((${picked[$kind]:-0} + 1))
    name=$(basename "$file" .rtm).${#files[@]}.bvh
    files+=("$file")
    pairs+=("$C/$file/anim.bvh" "$B/$name")
done <"$SHARED/corpus/MANIFEST.tsv"
blender -b --factory-startup --python-exit-code 2 --python tests/blender/bvh_export.py \
    -- "${pairs[@]}" >"$T/blender.log" 2>&1
grep -q '^blender: ' "$T/blender.log" || fail "blender did not finish: $(tail -5 "$T/blender.log")"
grep '^FAIL' "$T/blender.log" | while IFS= read -r l; do fail "$l"; done
do_mount "$B" "$M" || exit 1
cmp_args=()
for i in "${!files[@]}"; do
    cmp_args+=("$C/${files[$i]}" "$M/$(basename "${pairs[$((2 * i + 1))]}")")
done
python3 tests/lib/joints_compare.py "${cmp_args[@]}" >"$T/cmp.log" 2>&1
passed=$(grep -c '^ok' "$T/cmp.log")
grep '^FAIL' "$T/cmp.log" | while IFS= read -r l; do fail "$l"; done
[ "$passed" -ge 20 ] && [ "$passed" = "${#files[@]}" ] &&
    ok "Blender's export read back: $passed of ${#files[@]} files within 1 mm in every frame" \
       "(worst $(sed -n 's/.*worst joint \([0-9.]*\) mm.*/\1/p' "$T/cmp.log" | sort -g | tail -1) mm)" ||
    fail "$passed of ${#files[@]} files within 1 mm"
finish mount/bvh_blender
