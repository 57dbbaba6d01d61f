#!/usr/bin/env bash
# make check: long
# glb_blender.sh - anim.glb in Blender: its glTF importer reads each
# animation's anim.glb through the mount with its default settings, and
# every pose bone's head, at every key, must be the joint of joints/NNN.csv
# plus the motion's share of the frame within 1 mm, after one fixed change
# of axes: Arma (x, y, z) at Blender's (x, z, y) (tests/blender/glb_check.py).
# On the writer's samples, and on 6 corpus files of each of BMTR v3, v4, v5
# and plain when ../shared exists (at least 20 files must pass).  Then
# Blender saves each corpus file's import again as GLB
# (tests/blender/glb_reexport.py), which, read back as a source, must put
# every joint of every frame where the original's is, within 1 mm.
# Blender gets 20 minutes a run.  Skips (fails under CI) without blender.
NAME=glb-blender
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
plain_build_only "Blender reading and saving anim.glb" && finish mount/glb_blender
export LC_ALL=C
S=$T/src M=$T/mnt C=$T/corpus

command -v blender >/dev/null || {
    skip_or_fail "not installed: blender" "anim.glb imported by Blender"
    finish mount/glb_blender
}
need_fuse "anim.glb imported by Blender"
mkdir -p "$S"
"$RTMGEN" "$S" >/dev/null || { fail "rtmgen"; exit 1; }
do_mount "$S" "$M" || exit 1
folders=()
for a in "$M"/*.rtm; do
    [ -e "$a/anim.glb" ] && folders+=("$a")
done

# 6 corpus files of each format: "bmtr 3", "bmtr 4", "bmtr 5", "plain"
if have_corpus; then
    do_mount "$SHARED/corpus" "$C" || exit 1
    declare -A picked=()
    while IFS=$'\t' read -r file _; do
        [[ "$file" == *.rtm ]] || continue
        kind=$(sed -n 's/^format: //p; s/^version: \([0-9]\)$/\1/p' "$C/$file/header.txt" | tr '\n' ' ')
        [ "${picked[$kind]:-0}" -lt 6 ] && [ -e "$C/$file/anim.glb" ] || continue
        picked[$kind]=$((${picked[$kind]:-0} + 1))
        folders+=("$C/$file")
    done < "$SHARED/corpus/MANIFEST.tsv"
    [ "${#picked[@]}" -eq 4 ] || fail "corpus: not every format found (${!picked[*]})"
else
    skip "no ../shared" "anim.glb of corpus files in Blender"
fi

timeout 1200 blender -b --factory-startup --python-exit-code 2 --python tests/blender/glb_check.py \
    -- "${folders[@]}" >"$T/blender.log" 2>&1
rc=$?
blender_results "$T/blender.log"
grep -q '^blender: ' "$T/blender.log" || fail "blender did not finish (status $rc): $(tail -5 "$T/blender.log")"
[ "$rc" = 0 ] || [ "$FAILS" -gt 0 ] || fail "blender exit status $rc"
passed=$(grep -c '^ok: ' "$T/blender.log")
! have_corpus || [ "$passed" -ge 20 ] || fail "only $passed files within 1 mm in Blender (at least 20)"

# Blender's export of what it imported, read back as a source: every joint
# of every frame where the original's is (tests/lib/joints_compare.py)
if have_corpus; then
    B=$T/back R=$T/readback
    mkdir -p "$B"
    pairs=() cmp_args=()
    for f in "${folders[@]}"; do
        [[ "$f" == "$C"/* ]] || continue
        name=$(basename "$f" .rtm).${#pairs[@]}.glb
        pairs+=("$f/anim.glb" "$B/$name")
        cmp_args+=("$f" "$R/$name")
    done
    timeout 1200 blender -b --factory-startup --python-exit-code 2 --python tests/blender/glb_reexport.py \
        -- "${pairs[@]}" >"$T/reexport.log" 2>&1
    grep -q '^blender: ' "$T/reexport.log" || fail "blender did not finish: $(tail -5 "$T/reexport.log")"
    grep '^FAIL' "$T/reexport.log" | while IFS= read -r l; do fail "$l"; done
    do_mount "$B" "$R" || exit 1
    python3 tests/lib/joints_compare.py "${cmp_args[@]}" >"$T/cmp.log" 2>&1
    back=$(grep -c '^ok' "$T/cmp.log")
    grep '^FAIL' "$T/cmp.log" | while IFS= read -r l; do fail "$l"; done
    [ "$back" -ge 20 ] && [ "$back" = "$((${#pairs[@]} / 2))" ] &&
        ok "Blender's GLB export of anim.glb read back: $back files within 1 mm in every frame" \
           "(worst $(sed -n 's/.*worst joint \([0-9.]*\) mm.*/\1/p' "$T/cmp.log" | sort -g | tail -1) mm)" ||
        fail "$back of $((${#pairs[@]} / 2)) re-exported files within 1 mm"
fi
finish mount/glb_blender
