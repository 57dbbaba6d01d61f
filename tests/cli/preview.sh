#!/usr/bin/env bash
# preview.sh - preview.svg in the programs that open it, on the writer's
# standing figure (rtmgen -F) read with its skeleton:
#  - xmllint --noout: well-formed XML;
#  - rsvg-convert (librsvg, which image viewers and thumbnailers use): in
#    its PNG the head's dot is above the pelvis's, the pelvis's above the
#    feet's, in both panels, and in front the left hand's is right of the
#    right hand's (tests/svg/png.py finds each dot, drawn green in a copy);
#    the three colours are there;
#  - headless chromium plays it: screenshots at two times differ for the
#    moving figure and are the same for a still one (one frame).
# Each part skips (fails under CI) without its program or python3.
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
plain_build_only "preview.svg drawn by rsvg-convert and chromium" && finish preview.sh
PNG="python3 $PWD/tests/svg/png.py"

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmfs-preview.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

"$RTMGEN" -F 60 "$T/move" && "$RTMGEN" -F 1 "$T/still" || { fail "rtmgen -F"; finish preview.sh; }
for d in move still; do
    "$RTMCAT" -s "$T/$d/figure.skel" "$T/$d/figure.rtm" preview.svg >"$T/$d.svg" ||
        { fail "rtmcat $d/figure.rtm preview.svg"; finish preview.sh; }
done
grep -q '<animateTransform' "$T/move.svg" && ! grep -q '<animate' "$T/still.svg" ||
    fail "the 60-frame figure should animate, the 1-frame one not"

# --- xmllint ------------------------------------------------------------------
if ! command -v xmllint >/dev/null; then
    skip_or_fail "not installed: xmllint" "preview.svg is well-formed XML (libxml2-utils)"
else
    for d in move still; do
        if xmllint --noout "$T/$d.svg"; then ok "xmllint: the $d figure's preview.svg"
        else fail "xmllint: the $d figure's preview.svg is not well-formed"; fi
    done
fi

# --- rsvg-convert ---------------------------------------------------------------
# at NAME: "FX FY SX SY", where NAME's dot lands in the PNG (front, side)
at() {
    $PNG mark "$T/move.svg" "$1" "$T/mark.svg" && rsvg-convert "$T/mark.svg" -o "$T/mark.png" &&
        $PNG where "$T/mark.png"
}
# below A B PANEL: A's dot lower in the picture than B's (larger y)
below() {
    local i=$(($3 * 2 + 1))
    awk -v a="${pos[$1]}" -v b="${pos[$2]}" -v i="$i" \
        'BEGIN { split(a, p); split(b, q); exit !(p[i + 1] > q[i + 1]) }'
}
if ! command -v rsvg-convert >/dev/null || ! command -v python3 >/dev/null; then
    skip_or_fail "not installed: rsvg-convert or python3" "preview.svg rendered by librsvg (librsvg2-bin)"
else
    declare -A pos=()
    for j in Head Pelvis LeftFoot RightFoot LeftHand RightHand; do
        pos[$j]=$(at "$j") || fail "rsvg-convert: $j's dot not found"
        echo "  $j: ${pos[$j]}"
    done
    for panel in 0 1; do
        name=$([ $panel = 0 ] && echo front || echo side)
        for pair in "Pelvis Head" "LeftFoot Pelvis" "RightFoot Pelvis"; do
            set -- $pair
            if below "$1" "$2" $panel; then ok "rsvg-convert, $name: $2 above $1"
            else fail "rsvg-convert, $name: $2 is not above $1 (${pos[$2]} / ${pos[$1]})"; fi
        done
    done
    if awk -v l="${pos[LeftHand]}" -v r="${pos[RightHand]}" \
        'BEGIN { split(l, p); split(r, q); exit !(p[1] > q[1]) }'; then
        ok "rsvg-convert, front: the left hand right of the right hand"
    else
        fail "rsvg-convert, front: the left hand (${pos[LeftHand]}) not right of the right (${pos[RightHand]})"
    fi
    rsvg-convert "$T/move.svg" -o "$T/move.png"
    read -r centre left right < <($PNG colours "$T/move.png" 333333 1f6fd1 d1361f)
    if [ "$centre" -gt 100 ] && [ "$left" -gt 100 ] && [ "$right" -gt 100 ]; then
        ok "rsvg-convert: centre, left and right colours drawn ($centre, $left, $right pixels)"
    else
        fail "rsvg-convert: colours missing: centre $centre, left $left, right $right pixels"
    fi
fi

# --- chromium -------------------------------------------------------------------
shot() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$T/chromium" --window-size=510,340 --virtual-time-budget="$2" \
        --screenshot="$3" "file://$1" >/dev/null 2>"$T/chromium.err" && [ -s "$3" ]
}
if ! command -v chromium >/dev/null || ! command -v python3 >/dev/null; then
    skip_or_fail "not installed: chromium or python3" "preview.svg played by a browser"
else
    for d in move still; do
        if ! shot "$T/$d.svg" 250 "$T/$d.a.png" || ! shot "$T/$d.svg" 1250 "$T/$d.b.png"; then
            fail "chromium: no screenshot of the $d figure: $(tail -2 "$T/chromium.err")"
            continue
        fi
        # (a blank picture would be "the same" at both times)
        before=$FAILS
        read -r ink < <($PNG colours "$T/$d.a.png" 1f6fd1)
        [ "$ink" -gt 100 ] || fail "chromium: the $d figure is not drawn ($ink blue pixels)"
        if $PNG same "$T/$d.a.png" "$T/$d.b.png"; then same=yes; else same=no; fi
        want=$([ $d = move ] && echo no || echo yes)
        [ $same = $want ] ||
            fail "chromium: screenshots at 0.25 s and 1.25 s of the $d figure: same=$same, want $want"
        block_ok "$before" "chromium: screenshots at 0.25 s and 1.25 s $([ $d = move ] && echo differ || echo are the same) for the $d figure"
    done
fi
finish preview.sh
