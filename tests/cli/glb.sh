#!/usr/bin/env bash
# glb.sh - anim.glb checked by Khronos's glTF-Validator (the gltf-validator
# package from npm, which src/scripts/deps.sh ci installs; run by
# tests/tools/gltf_validate.mjs): rtmcat writes anim.glb of every animation
# of rtmgen's samples and of the writer's standing figure (rtmgen -F), and
# of every .rtm of the shared corpus when ../shared exists; the validator
# must find no error in any of them (warnings and infos are counted and
# shown).  Skips (fails under CI) without node or the validator.
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
plain_build_only "Khronos's glTF-Validator over anim.glb" && finish glb.sh
export LC_ALL=C
VALIDATE="node $PWD/tests/tools/gltf_validate.mjs"

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmfs-glb.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

if ! command -v node >/dev/null; then
    skip_or_fail "not installed: node" "anim.glb checked by glTF-Validator"
    finish glb.sh
fi
$VALIDATE >/dev/null 2>"$T/probe.err"
if [ $? = 3 ]; then
    skip_or_fail "not installed: gltf-validator" "anim.glb checked by glTF-Validator ($(cat "$T/probe.err"))"
    finish glb.sh
fi

# validate WHAT FILE...: one ok or FAIL for the lot, every error shown
validate() {
    local what=$1 before=$FAILS
    shift
    $VALIDATE "$@" >"$T/report" 2>&1
    local rc=$? line
    while IFS= read -r line; do
        case $line in "  ERROR "*) fail "glTF-Validator: $line" ;; esac
    done <"$T/report"
    [ "$rc" = 0 ] || [ "$FAILS" != "$before" ] || fail "glTF-Validator failed: $(tail -3 "$T/report")"
    read -r files errors warnings < <(awk '/^[^ ].*: [0-9]+ errors/ {n++; e += $(NF-5); w += $(NF-3)}
        END {print n + 0, e + 0, w + 0}' "$T/report")
    [ "$files" = "$#" ] || fail "glTF-Validator reported $files of $# files ($what)"
    block_ok "$before" "glTF-Validator: $what: $files files, $errors errors, $warnings warnings"
}

# glb SOURCE OUT [-s SKELETON]: anim.glb of SOURCE into OUT, or a failure
glb() {
    local src=$1 out=$2
    shift 2
    "$RTMCAT" "$@" "$src" anim.glb >"$out" 2>"$T/err" || { fail "rtmcat $src anim.glb: $(cat "$T/err")"; return 1; }
}

mkdir -p "$T/gen" "$T/glb/gen"
"$RTMGEN" "$T/gen" >/dev/null && "$RTMGEN" -F 60 "$T/figure" >/dev/null || { fail "rtmgen"; finish glb.sh; }
samples=()
for f in "$T"/gen/*.rtm; do
    [ "$(basename "$f")" = broken.rtm ] && continue       # rtmgen's damaged file: no views
    glb "$f" "$T/glb/gen/$(basename "$f").glb" && samples+=("$T/glb/gen/$(basename "$f").glb")
done
glb "$T/figure/figure.rtm" "$T/glb/figure.glb" -s "$T/figure/figure.skel" && samples+=("$T/glb/figure.glb")
validate "rtmgen's samples and figure" "${samples[@]}"

if have_corpus; then
    mkdir -p "$T/glb/corpus"
    corpus=()
    while IFS=$'\t' read -r file _; do
        [[ "$file" == *.rtm ]] || continue
        out=$T/glb/corpus/${#corpus[@]}.glb
        glb "$SHARED/corpus/$file" "$out" && corpus+=("$out")
    done <"$SHARED/corpus/MANIFEST.tsv"
    validate "the shared corpus's animations" "${corpus[@]}"
else
    skip "no ../shared" "anim.glb of the shared corpus checked by glTF-Validator"
fi
finish glb.sh
