#!/usr/bin/env bash
# preview.sh - preview.svg through a real mount: in every animation folder,
# loose and in an archive, the same bytes rtmcat prints; the standing
# figure (rtmgen -F) with its skeleton mounted by -o skeleton=; a short
# text, still an SVG, with -o skeleton=none; and with ../shared every corpus
# file's preview.svg well-formed (xmllint --noout) and rendered by
# rsvg-convert to a PNG.  The picture itself is checked in
# tests/cli/preview.sh and test_svg.
NAME=preview
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
S=$T/src M=$T/mnt N=$T/none F=$T/fig C=$T/corpus

need_fuse "preview.svg through a mount"
mkdir -p "$S/loose"
"$RTMGEN" "$S/loose" >/dev/null && "$RTMGEN" -p "$S/sample.pbo" && "$RTMGEN" -F 30 "$T/figure" ||
    { fail "rtmgen"; exit 1; }
have_tools=1
for p in xmllint rsvg-convert; do
    command -v $p >/dev/null || {
        skip_or_fail "not installed: $p" "preview.svg checked with $p"
        have_tools=0
    }
done
# well_formed FILE...: xmllint and rsvg-convert take each
well_formed() {
    local f bad=0
    [ $have_tools = 1 ] || return 0
    for f in "$@"; do
        xmllint --noout "$f" 2>"$T/err" || { fail "xmllint: $f: $(head -2 "$T/err")"; bad=1; }
        rsvg-convert "$f" -o "$T/out.png" 2>"$T/err" && [ -s "$T/out.png" ] ||
            { fail "rsvg-convert: $f: $(head -2 "$T/err")"; bad=1; }
    done
    return $bad
}

# In every folder, loose or archived: rtmcat's bytes, and the size stat says.
do_mount "$S" "$M" || exit 1
n=0 before=$FAILS
while IFS= read -r -d '' v; do
    dir=${v%/preview.svg} rel=${dir#"$M"/}
    cmp -s "$v" <("$RTMCAT" "$S/$rel" preview.svg) || fail "$rel/preview.svg differs from rtmcat's"
    [ "$(stat -c %s "$v")" = "$(wc -c <"$v")" ] || fail "$rel/preview.svg: stat size is not its length"
    well_formed "$v"
    n=$((n + 1))
done < <(find "$M" -name preview.svg ! -path '*/broken.rtm/*' -print0)   # cut: no views to read
[ "$n" -ge 10 ] || fail "only $n preview.svg files (loose and in sample.pbo)"
[ -n "$(find "$M/sample.pbo" -name preview.svg)" ] || fail "no preview.svg in the archive"
block_ok "$before" "preview.svg in $n folders, loose and archived, as rtmcat prints it"

# -o skeleton=FILE: the figure with its pivots; -o skeleton=none: the text.
do_mount "$T/figure" "$F" -o skeleton="$T/figure/figure.skel" || exit 1
before=$FAILS
[ "$(grep -c '<circle' "$F/figure.rtm/preview.svg")" = 44 ] || fail "the figure: not 2 x 22 dots"
grep -q '<title>LeftHand</title>' "$F/figure.rtm/preview.svg" || fail "the figure: no LeftHand"
well_formed "$F/figure.rtm/preview.svg"
block_ok "$before" "-o skeleton=figure.skel: the figure's 22 joints in each panel"
do_mount "$S" "$N" -o skeleton=none || exit 1
before=$FAILS
grep -q '>no rest pose: mount with a skeleton that has pivots</text>' "$N/loose/walk.rtm/preview.svg" ||
    fail "-o skeleton=none: preview.svg does not say there is no rest pose"
grep -q '<circle' "$N/loose/walk.rtm/preview.svg" && fail "-o skeleton=none: a figure drawn"
well_formed "$N/loose/walk.rtm/preview.svg"
block_ok "$before" "-o skeleton=none: preview.svg says so, still an SVG"

# Every real file.
if ! have_corpus; then
    skip "no ../shared" "every corpus file's preview.svg through xmllint and rsvg-convert"
elif [ $have_tools = 1 ]; then
    do_mount "$SHARED/corpus" "$C" || exit 1
    before=$FAILS n=0
    while IFS=$'\t' read -r file _; do
        [[ "$file" == *.rtm ]] || continue
        well_formed "$C/$file/preview.svg" || break
        n=$((n + 1))
    done < "$SHARED/corpus/MANIFEST.tsv"
    block_ok "$before" "corpus: $n preview.svg files well-formed and rendered by rsvg-convert"
fi
finish preview
