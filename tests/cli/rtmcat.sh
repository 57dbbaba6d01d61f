#!/usr/bin/env bash
# make check: long
# rtmcat.sh - the rtmcat command line on rtmgen samples, broken files and,
# when ../shared/corpus is there (or RTMFS_SHARED), every real file's plain.rtm.
# Uses $BUILD/rtmcat and $BUILD/rtmgen (BUILD defaults to build).
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
CAT=$RTMCAT GEN=$RTMGEN

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmcat-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# Checks are counted silently; each section is one test of make check,
# passed when none of its checks failed.
checks=0 sect= sect_checks=0 sect_fails=0
pass() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fail "$*"; }
check() { # check DESCRIPTION COMMAND...: the command must succeed
    local what=$1; shift
    if "$@"; then pass; else bad "$what"; fi
}
# section NAME: ends the section before (ok when none of its checks failed)
# and starts NAME; "section" alone ends the last one.
section() {
    if [ -n "$sect" ] && [ "$FAILS" = "$sect_fails" ]; then
        ok "rtmcat $sect ($((checks - sect_checks)) checks)"
    fi
    sect=${1:-} sect_checks=$checks sect_fails=$FAILS
}

differ() { ! cmp -s "$1" "$2"; }
lacks() { ! grep -q "$1" "$2"; }  # lacks PATTERN FILE

# run ARGS...: rtmcat with stdout, stderr and status kept in $T/out, $T/err, $rc
run() {
    "$CAT" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# expect_error DESCRIPTION ARGS...: status 1, nothing on stdout, exactly one
# line on stderr starting with "rtmcat: "
expect_error() {
    local what=$1; shift
    run "$@"
    if [ "$rc" -ne 1 ]; then bad "$what: exit status $rc, expected 1"; return 1; fi
    if [ -s "$T/out" ]; then bad "$what: wrote to stdout"; return 1; fi
    if [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q '^rtmcat: ' "$T/err"; then
        bad "$what: stderr is not one 'rtmcat: ' line: $(cat "$T/err")"; return 1
    fi
    pass
}

"$GEN" "$T/s" >/dev/null || { echo "FAIL: rtmgen $T/s"; exit 1; }
samples=(walk.rtm step_props.rtm wave_v3.rtm reload_v4.rtm run_v5.rtm idle_v5_raw.rtm)

# --- options ---------------------------------------------------------------
section "options"
run --help
check "--help exits 0 with usage on stdout" [ "$rc" -eq 0 -a -s "$T/out" ]
check "--help mentions the usage" grep -q '^usage: rtmcat' "$T/out"
run -h
check "-h exits 0" [ "$rc" -eq 0 ]
run --version
check "--version exits 0" [ "$rc" -eq 0 ]
check "--version prints 'rtmcat VERSION'" grep -Eq '^rtmcat [0-9]+\.[0-9]+' "$T/out"
run
check "no FILE: usage error (status 2)" [ "$rc" -eq 2 -a ! -s "$T/out" ]
run a b c
check "three arguments: usage error (status 2)" [ "$rc" -eq 2 ]
run --no-such-option "$T/s/walk.rtm"
check "unknown option: usage error (status 2)" [ "$rc" -eq 2 ]

# --- listing: every view with its size ----------------------------------------
section "listing"
for f in "${samples[@]}"; do
    file=$T/s/$f
    run "$file"
    if [ "$rc" -ne 0 ] || [ -s "$T/err" ]; then bad "listing $f: status $rc"; continue; fi
    cp "$T/out" "$T/list"
    frames=$("$CAT" "$file" header.txt | sed -n 's/^frames: //p')
    bones=$("$CAT" "$file" header.txt | sed -n 's/^bones: //p')
    n=$(wc -l <"$T/list")
    # with the default skeleton (ofp2, which has pivots): bmtr.rtm, fixed.rtm, preview.svg, check.txt,
    # anim.bvh, anim.glb, frames/, joints/, tracks/; and states.txt
    check "listing $f has 14 + 2 x $frames + $bones views" [ "$n" -eq $((14 + 2 * frames + bones)) ]
    for v in header.txt bones.txt phases.csv props.json plain.rtm bmtr.rtm fixed.rtm skeleton.txt moving.txt preview.svg check.txt \
             anim.bvh anim.glb frames/000.csv joints/000.csv tracks/pelvis.csv; do
        check "listing $f shows $v" grep -Eiq "^ *[0-9]+ $v\$" "$T/list"
    done
    # every view's size as listed equals the bytes rtmcat prints for it
    while read -r size view; do
        got=$("$CAT" "$file" "$view" | wc -c)
        if [ "$got" -ne "$size" ]; then bad "$f $view: listed $size bytes, printed $got"
        else pass; fi
    done <"$T/list"
done

# --- single views ----------------------------------------------------------
section "single views"
# a BMTR file named *.rtm takes rtmcat's quick way to plain.rtm; by
# another name it is read through the tree: the same bytes
cp "$T/s/run_v5.rtm" "$T/run_v5.anim"
check "plain.rtm of a BMTR file: the quick way equals the tree's" \
    cmp -s <("$CAT" "$T/s/run_v5.rtm" plain.rtm) <("$CAT" "$T/run_v5.anim" plain.rtm)
f=$T/s/walk.rtm
run "$f" frames/000.csv
check "frames/000.csv prints" [ "$rc" -eq 0 -a -s "$T/out" ]
run "$f" frames/039.csv
check "the last frame prints" [ "$rc" -eq 0 -a -s "$T/out" ]
run "$f" plain.rtm
check "plain.rtm of a plain file is the file itself" cmp -s "$T/out" "$f"
run "$T/s/step_props.rtm" plain.rtm
check "plain.rtm of a plain file with MDAT is the file itself" cmp -s "$T/out" "$T/s/step_props.rtm"
run "$T/s/step_props.rtm" props.json
check "props.json of a file with properties names them" grep -q 'Step' "$T/out"
run "$f" bones.txt
check "bones.txt lists one bone a line" [ "$(wc -l <"$T/out")" -eq 66 ]

for v in nope frames/040.csv frames/40.csv frames/ frames/-01.csv Header.txt ""; do
    if expect_error "view '$v'" "$f" "$v"; then
        check "view '$v': the message names the view" grep -q "no view called" "$T/err"
    fi
done

# --- -o OUTDIR: the views as files -------------------------------------------
section "-o OUTDIR"
for f in walk.rtm run_v5.rtm; do
    rm -rf "$T/o"
    run -o "$T/o" "$T/s/$f"
    check "-o $f: status 0, nothing printed" [ "$rc" -eq 0 -a ! -s "$T/out" -a ! -s "$T/err" ]
    # every view rtmcat lists is a file of that size, with the bytes it prints
    listed=$("$CAT" "$T/s/$f" | awk '{print $2}' | sort)
    check "-o $f: OUTDIR holds what the listing lists" \
        [ "$(cd "$T/o" && find . -type f | sed 's|^\./||' | sort)" = "$listed" ]
    while read -r size v; do
        [ "$(wc -c <"$T/o/$v")" = "$size" ] && cmp -s <("$CAT" "$T/s/$f" "$v") "$T/o/$v" ||
            { bad "-o $f: $v is not what 'rtmcat $f $v' prints"; continue 2; }
    done < <("$CAT" "$T/s/$f")
    pass
done
# a file by another name is read as an animation all the same: the same
# views (but states.txt, which only a .rtm has)
rm -rf "$T/o" "$T/o_anim"; cp "$T/s/run_v5.rtm" "$T/run_v5.anim"
run -o "$T/o" "$T/s/run_v5.rtm" && run -o "$T/o_anim" "$T/run_v5.anim"
check "-o of a file by another name: the views of its .rtm" \
    diff -r -x states.txt "$T/o" "$T/o_anim"
rm -rf "$T/o"; mkdir -p "$T/o"; echo old >"$T/o/header.txt"
run -o "$T/o" "$T/s/walk.rtm" header.txt frames/003.csv
check "-o with VIEWs: only those, a file there replaced" \
    [ "$rc" -eq 0 ] && cmp -s <("$CAT" "$T/s/walk.rtm" header.txt) "$T/o/header.txt" &&
    cmp -s <("$CAT" "$T/s/walk.rtm" frames/003.csv) "$T/o/frames/003.csv" &&
    [ "$(find "$T/o" -type f | wc -l)" = 2 ]
for v in nope ../escape frames /etc/passwd; do
    if expect_error "-o with view '$v'" -o "$T/o" "$T/s/walk.rtm" "$v"; then
        check "-o with view '$v': the message names it" grep -q -- "$v" "$T/err"
    fi
done
check "-o never writes outside OUTDIR" [ ! -e "$T/escape" ]
"$GEN" -p "$T/x.pbo" >/dev/null || bad "rtmgen -p"
expect_error "-o of an archive" -o "$T/o2" "$T/x.pbo"
check "-o of an archive: says it is not an animation" grep -q 'not an animation' "$T/err"
expect_error "-o of a broken file" -o "$T/o3" "$T/s/broken.rtm"
check "-o of a broken file: the message is error.txt's" grep -q '(at byte [0-9]*)' "$T/err"
touch "$T/notdir"
expect_error "-o onto a file" -o "$T/notdir" "$T/s/walk.rtm"
run -o "$T/o" --raw "$T/s/walk.rtm"
check "-o with --raw: usage error (status 2)" [ "$rc" -eq 2 ]

# --- broken files ------------------------------------------------------------
section "broken files"
# FILE: message (at byte N), exactly one line, nothing on stdout, status 1
expect_broken() { # expect_broken DESCRIPTION FILE [VIEW]
    local what=$1 file=$2; shift 2
    expect_error "$what" "$file" "$@" || return
    if grep -Eq "^rtmcat: $(printf '%s' "$file" | sed 's/[][\.*^$/]/\\&/g'): .+ \(at byte [0-9]+\)\$" "$T/err"; then
        pass
    else
        bad "$what: message is not 'rtmcat: FILE: ... (at byte N)': $(cat "$T/err")"
    fi
}
expect_broken "broken.rtm" "$T/s/broken.rtm"
expect_broken "broken.rtm with a view" "$T/s/broken.rtm" header.txt
for f in walk.rtm step_props.rtm wave_v3.rtm run_v5.rtm; do
    size=$(wc -c <"$T/s/$f")
    for cut in 0 7 30 $((size / 2)) $((size - 1)); do
        head -c "$cut" "$T/s/$f" >"$T/cut.rtm"
        expect_broken "$f cut to $cut bytes" "$T/cut.rtm"
    done
done
printf 'not an animation\n' >"$T/text.rtm"
expect_broken "a text file" "$T/text.rtm"
expect_error "a missing file" "$T/missing.rtm"
check "a missing file: the message says why" grep -q 'No such file' "$T/err"
expect_error "a directory" "$T/s"

# --- skeletons -------------------------------------------------------------------
section "skeletons"
for f in wave_v3.rtm reload_v4.rtm run_v5.rtm; do
    "$CAT" "$T/s/$f" plain.rtm >"$T/ofp2.rtm"
    "$CAT" -s none "$T/s/$f" plain.rtm >"$T/none.rtm"
    "$CAT" --skeleton=ofp2 "$T/s/$f" plain.rtm >"$T/ofp2b.rtm"
    check "$f: -s none changes plain.rtm" differ "$T/ofp2.rtm" "$T/none.rtm"
    check "$f: --skeleton=ofp2 is the default" cmp -s "$T/ofp2.rtm" "$T/ofp2b.rtm"
done
"$CAT" "$T/s/walk.rtm" plain.rtm >"$T/a.rtm"
"$CAT" -s none "$T/s/walk.rtm" plain.rtm >"$T/b.rtm"
check "-s none leaves a plain file's plain.rtm alone" cmp -s "$T/a.rtm" "$T/b.rtm"

cat >"$T/skel.txt" <<'EOF'
# a three-bone chain
pelvis -
spine pelvis
spine1 spine   # trailing comment
EOF
f=$T/s/run_v5.rtm
run -s "$T/skel.txt" "$f" plain.rtm
check "-s FILE with a skeleton file works" [ "$rc" -eq 0 -a -s "$T/out" ]
cp "$T/out" "$T/file.rtm"
"$CAT" -s none "$f" plain.rtm >"$T/none.rtm"
"$CAT" "$f" plain.rtm >"$T/ofp2.rtm"
check "-s FILE differs from -s none" differ "$T/file.rtm" "$T/none.rtm"
check "-s FILE differs from ofp2" differ "$T/file.rtm" "$T/ofp2.rtm"
run -s "$T/skel.txt" "$f" header.txt
check "header.txt names the skeleton file" grep -qF "$T/skel.txt" "$T/out"

# skeleton.txt is a skeleton file: used as -s FILE it gives the same frames,
# and an edited pivot moves only that bone's joint
for f in wave_v3.rtm reload_v4.rtm run_v5.rtm walk.rtm; do
    "$CAT" "$T/s/$f" skeleton.txt >"$T/my.skel"
    check "$f: skeleton.txt has pivots" grep -Eq '^[^#]+ -?[0-9.]+ -?[0-9.]+ -?[0-9.]+( placed)?$' "$T/my.skel"
    "$CAT" -s "$T/my.skel" "$T/s/$f" plain.rtm >"$T/round.rtm"
    "$CAT" "$T/s/$f" plain.rtm >"$T/ofp2.rtm"
    check "$f: -s its skeleton.txt gives the same plain.rtm" cmp -s "$T/round.rtm" "$T/ofp2.rtm"
    "$CAT" -s "$T/my.skel" "$T/s/$f" skeleton.txt | grep -v '^#' >"$T/again.skel"
    check "$f: skeleton.txt round-trips" cmp -s <(grep -v '^#' "$T/my.skel") "$T/again.skel"
done
f=$T/s/run_v5.rtm
"$CAT" "$f" skeleton.txt | awk '$1 == "head" { $3 += 0.1 } { print }' >"$T/edited.skel"
"$CAT" -s "$T/edited.skel" "$f" joints/005.csv >"$T/edited.csv"
"$CAT" "$f" joints/005.csv >"$T/ofp2.csv"
check "an edited pivot moves that joint" differ <(grep '^head,' "$T/edited.csv") <(grep '^head,' "$T/ofp2.csv")
check "and no other" cmp -s <(grep -v '^head,' "$T/edited.csv") <(grep -v '^head,' "$T/ofp2.csv")
check "an edited skeleton keeps the frames" cmp -s <("$CAT" -s "$T/edited.skel" "$f" plain.rtm) \
    <("$CAT" "$f" plain.rtm)
run -s none "$f" joints/000.csv
check "-s none: no joints/ (no pivots)" [ "$rc" -eq 1 ]
run -s none "$f" header.txt
check "-s none: header.txt says why" grep -q '^rest_pose: none: the skeleton has no pivots' "$T/out"

printf 'pelvis\n' >"$T/bad1.txt"
printf 'spine nosuchparent\n' >"$T/bad2.txt"
for s in "$T/bad1.txt" "$T/bad2.txt" "$T/missing.txt"; do
    expect_error "bad skeleton $(basename "$s")" -s "$s" "$f" header.txt &&
        check "bad skeleton $(basename "$s"): the message names it" grep -qF "$s" "$T/err"
done

# --- the real files ---------------------------------------------------------------
section "corpus plain.rtm hashes"
if [ -f "$SHARED/corpus/MANIFEST.tsv" ] && [ -d "$SHARED/corpus-expected" ]; then
    n=0 good=0
    while IFS=$'\t' read -r rel _; do
        case $rel in *.rtm) ;; *) continue ;; esac
        json=$SHARED/corpus-expected/$rel.json
        if command -v jq >/dev/null; then
            want=$(jq -r 'if .format == "plain" then .source_sha256 else .plain_sha256_ofp2 end' "$json")
        else
            key=plain_sha256_ofp2
            grep -q '"format": *"plain"' "$json" && key=source_sha256
            want=$(sed -n "s/.*\"$key\": *\"\([0-9a-f]*\)\".*/\1/p" "$json")
        fi
        got=$("$CAT" "$SHARED/corpus/$rel" plain.rtm | sha256sum | cut -d' ' -f1)
        n=$((n + 1))
        if [ -n "$want" ] && [ "$got" = "$want" ]; then good=$((good + 1)); pass
        else bad "corpus $rel: plain.rtm sha256 $got, expected ${want:-?}"; fi
    done <"$SHARED/corpus/MANIFEST.tsv"
    echo "rtmcat corpus: $good of $n plain.rtm hashes match"
    [ "$n" -gt 0 ] || bad "no corpus files listed"
else
    sect=
    skip "no ../shared" "rtmcat on the real files (set RTMFS_SHARED)"
fi

# ---- RTM entries inside a PBO archive (rtmgen -p writes the small set) ----
section "archives"
"$GEN" -p "$T/samples.pbo" || bad "rtmgen -p"
for pair in walk.rtm:anims/walk.rtm step_props.rtm:anims/step_props.rtm \
            wave_v3.rtm:anims/binarised/wave_v3.rtm run_v5.rtm:ANIMS/Binarised/RUN_V5.RTM; do
    loose=${pair%%:*} inner=${pair#*:}
    run "$T/samples.pbo/$inner"
    # but states.txt, whose game_path line says where the file lies
    check "archive $inner: the view list equals the loose file's" \
        cmp -s <(grep -v ' states.txt$' "$T/out") <("$CAT" "$T/s/$loose" | grep -v ' states.txt$')
    for v in header.txt bones.txt plain.rtm frames/005.csv; do
        run "$T/samples.pbo/$inner" "$v"
        check "archive $inner $v equals the loose file's" cmp -s "$T/out" <("$CAT" "$T/s/$loose" "$v")
    done
done
expect_error "missing archive entry" "$T/samples.pbo/anims/nope.rtm" &&
    check "missing entry: says so" grep -q "no entry or folder 'anims/nope.rtm'" "$T/err"
run "$T/samples.pbo"
check "archive: lists pbo.txt and every entry with its size" \
    grep -qx ' *[0-9]* pbo.txt' "$T/out"
check "archive: lists anims/binarised/run_v5.rtm" \
    grep -qx " *$(stat -c %s "$T/s/run_v5.rtm") anims/binarised/run_v5.rtm" "$T/out"
run "$T/samples.pbo" pbo.txt
check "archive pbo.txt: the prefix property" grep -qx 'property prefix: rtmfs\\samples' "$T/out"
check "archive pbo.txt: a SHA-1 trailer" grep -qx 'trailer: sha1 [0-9a-f]\{40\}' "$T/out"
check "archive pbo.txt: 4 RTM entries" grep -qx 'rtm_entries: 4' "$T/out"
expect_error "archive: a view it does not have" "$T/samples.pbo" bones.txt &&
    check "archive view: names pbo.txt" grep -q "only the view pbo.txt" "$T/err"
head -c 300 "$T/samples.pbo" > "$T/cut.pbo"
expect_error "cut archive itself" "$T/cut.pbo" pbo.txt &&
    check "cut archive itself: says where" grep -q "(at byte [0-9]*)" "$T/err"
expect_error "cut archive" "$T/cut.pbo/anims/walk.rtm" &&
    check "cut archive: says where" grep -q "(at byte [0-9]*)" "$T/err" &&
    check "cut archive: names the archive, as its error.txt does" grep -qF "rtmcat: $T/cut.pbo: " "$T/err"
run "$T/samples.pbo/config.cpp"      # named on the command line: a text config
check "ARCHIVE/config.cpp: printed as a config" grep -qx 'class CfgMovesMaleSdr : CfgMovesBasic {};' "$T/out"
expect_error "archive entry that is no animation, asked a view" "$T/samples.pbo/config.cpp" header.txt &&
    check "config.cpp with a view: a config has none" grep -q 'a text config has no views' "$T/err"

# ---- a folder in an archive lists its entries, as the archive does ----
section "archive folders"
# folder_lines FOLDER: the archive's listing of the entries below FOLDER,
# named from it (what rtmcat ARCHIVE/FOLDER must print)
folder_lines() { "$CAT" "$T/samples.pbo" | sed -n "s|^\( *[0-9]*\) $1/|\1 |p"; }
run "$T/samples.pbo/anims"
check "anims: exit status 0, nothing on stderr" [ "$rc" -eq 0 -a ! -s "$T/err" ]
check "anims: the archive's lines for anims/, named from the folder" \
    cmp -s "$T/out" <(folder_lines anims)
check "anims: four entries" [ "$(wc -l <"$T/out")" -eq 4 ]
check "anims: walk.rtm with the loose file's size" \
    grep -qx " *$(stat -c %s "$T/s/walk.rtm") walk.rtm" "$T/out"
check "anims: binarised/run_v5.rtm with the loose file's size" \
    grep -qx " *$(stat -c %s "$T/s/run_v5.rtm") binarised/run_v5.rtm" "$T/out"
check "anims: no pbo.txt (the archive's own file) and nothing outside" \
    lacks 'pbo.txt\|config.cpp\|readme' "$T/out"
cp "$T/out" "$T/anims.list"
while read -r _ name; do      # every name listed is reachable as listed
    run "$T/samples.pbo/anims/$name" header.txt
    check "anims: $name listed and readable" [ "$rc" -eq 0 -a -s "$T/out" ]
done <"$T/anims.list"
run "$T/samples.pbo/anims/binarised"
check "anims/binarised: its two entries" [ "$(wc -l <"$T/out")" -eq 2 ]
check "anims/binarised: the archive's lines" cmp -s "$T/out" <(folder_lines anims/binarised)
cp "$T/out" "$T/bin.list"
for f in ANIMS/Binarised anims/binarised/ anims//binarised ./anims/binarised \
         anims/walk.rtm/../binarised texts/../anims/binarised 'anims\binarised' \
         'ANIMS\.\Binarised'; do
    run "$T/samples.pbo/$f"
    check "$f: the same folder" cmp -s "$T/out" "$T/bin.list"
done
run "$T/samples.pbo/texts"
# a mount hides a folder without animations; rtmcat's listing of the
# archive has its entries, so its own listing is there too
check "texts, a folder of other files: listed" cmp -s "$T/out" <(folder_lines texts)
check "texts: readme.txt" grep -qx ' *37 readme.txt' "$T/out"
run "$T/samples.pbo/anims/.."
check "anims/..: the archive itself" cmp -s "$T/out" <("$CAT" "$T/samples.pbo")
for f in nope anims/nope anims/binarised/nope/ Anims/Walk; do
    expect_error "missing folder $f" "$T/samples.pbo/$f" &&
        check "missing folder $f: says so" \
            grep -qF "rtmcat: $T/samples.pbo/$f: no entry or folder '${f%/}' in the archive" "$T/err"
done
expect_error "a view of a folder" "$T/samples.pbo/anims" header.txt &&
    check "a view of a folder: says it has none" grep -q "a folder in an archive has no views" "$T/err"
expect_error "a folder of a cut archive" "$T/cut.pbo/anims" &&
    check "a folder of a cut archive: the archive's message" \
        grep -q "^rtmcat: $T/cut.pbo: .* (at byte [0-9]*)\$" "$T/err"
# entries spelt differently in one archive are in one folder, as in a mount
mkdir -p "$T/pack/Anims" "$T/pack2/ANIMS" "$T/pack3/other"
cp "$T/s/walk.rtm" "$T/pack/Anims/Walk.rtm"
cp "$T/s/run_v5.rtm" "$T/pack2/ANIMS/run_v5.rtm"
cp "$T/s/wave_v3.rtm" "$T/pack3/other/wave_v3.rtm"
"$GEN" -a "$T/packed.pbo" "$T/pack/Anims/Walk.rtm" "$T/pack2/ANIMS/run_v5.rtm" \
    "$T/pack3/other/wave_v3.rtm" || bad "rtmgen -a"
run "$T/packed.pbo/anims"
check "folder spelt two ways: both entries, as the archive spells them" \
    cmp -s "$T/out" <(printf '%10s run_v5.rtm\n%10s Walk.rtm\n' \
        "$(stat -c %s "$T/s/run_v5.rtm")" "$(stat -c %s "$T/s/walk.rtm")")
# an archive cut short in its data: the entries past the end are not listed
head -c $(($(stat -c %s "$T/samples.pbo") - 1000)) "$T/samples.pbo" >"$T/cut_data.pbo"
run "$T/cut_data.pbo/anims/binarised"
check "cut archive's folder: only the whole entry" \
    cmp -s "$T/out" <(printf '%10s wave_v3.rtm\n' "$(stat -c %s "$T/s/wave_v3.rtm")")

# ---- FILE as a path: split where the folders on disk end, the rest found as in a mount ----
section "paths"
cp "$T/s/walk.rtm" "$T/walk.bin"
cp "$T/s/broken.rtm" "$T/broken.bin"
run "$T/walk.bin"
# (states.txt is an .rtm file's: the game plays no other name)
check "a file not named .rtm: the views of the same bytes" \
    cmp -s "$T/out" <("$CAT" "$T/s/walk.rtm" | grep -v ' states.txt$')
run "$T/walk.bin" frames/003.csv
check "a file not named .rtm: a frame" cmp -s "$T/out" <("$CAT" "$T/s/walk.rtm" frames/003.csv)
expect_broken "a broken file not named .rtm" "$T/broken.bin"
(cd "$T" && "$CAT" s/broken.rtm) 2>"$T/rel.err" >/dev/null
check "a relative path: the message names FILE as given" grep -q '^rtmcat: s/broken\.rtm: .* (at byte [0-9]*)$' "$T/rel.err"
(cd "$T/s" && "$CAT" broken.rtm) 2>"$T/rel.err" >/dev/null
check "a file in the current folder: the message names it" grep -q '^rtmcat: broken\.rtm: ' "$T/rel.err"
for f in "$T/s//walk.rtm" "$T/s/walk.rtm/" "$T/s/../s/walk.rtm"; do
    run "$f" header.txt
    check "$f: the same animation" cmp -s "$T/out" <("$CAT" "$T/s/walk.rtm" header.txt)
done
expect_error "a folder" "$T/s" && check "a folder: says so" grep -q 'Is a directory' "$T/err"
expect_error "below an animation" "$T/s/walk.rtm/header.txt" &&
    check "below an animation: not a folder" grep -q 'Not a directory' "$T/err"
expect_broken "error.txt of a broken file is its message" "$T/s/broken.rtm" error.txt
expect_error "error.txt is no view" "$T/s/walk.rtm" error.txt &&
    check "error.txt is no view: says so" grep -q "no view called 'error.txt'" "$T/err"

# ---- rtmgen -I: a whole install, the real files' mix ----
section "install"
"$RTMGEN" -I 120 "$T/inst" >"$T/inst.txt"
check "rtmgen -I 120: 3 archives, 120 entries, 12 loose" \
    grep -qz 'archives: 3.*rtm: 120.*loose: 12' <(tr '\n' ' ' <"$T/inst.txt")
n=0
for p in "$T"/inst/@mod_*/addons/*.pbo; do
    n=$((n + $("$CAT" "$p/anims/characters" | grep -c '\.rtm$')))
done
check "rtmcat lists 120 animations in the archives" [ "$n" -eq 120 ]
check "12 loose animations" [ "$(find "$T/inst/loose" -name '*.rtm' | wc -l)" -eq 12 ]
f=$(find "$T/inst/loose" -name '*.rtm' | sort | head -1)
run "$f" header.txt
check "a loose one reads" [ "$rc" -eq 0 ]
"$RTMGEN" -I 120 "$T/inst2" >/dev/null
check "rtmgen -I: the same bytes on every run" diff -rq "$T/inst" "$T/inst2"

# Each -I archive's config.bin plays its animations: rtmcat prints it as
# text; its file = lines are game paths (\PREFIX\ENTRY, any case), mostly of
# the archive's own animations, a few of another archive's or of none.
lower() { tr '[:upper:]' '[:lower:]'; }
archives=("$T"/inst/@mod_*/addons/*.pbo)
for k in "${!archives[@]}"; do  # each archive's animations as game paths
    p=${archives[k]}
    prefix=$(head -c 512 "$p" | tr '\0' '\n' | sed -n '/^prefix$/{n;p;q;}')
    "$CAT" "$p" | PRE=$prefix awk '$2 ~ /\.rtm$/ { gsub("/", "\\", $2); print "\\" ENVIRON["PRE"] "\\" $2 }' |
        lower >"$T/own_$k.txt"
done
cat "$T"/own_*.txt >"$T/inst_anims.txt"
cross=0 nowhere=0
for k in "${!archives[@]}"; do
    p=${archives[k]} what=${archives[k]#"$T"/}/config.bin
    run "$p/config.bin"
    check "$what prints as text" [ "$rc" -eq 0 -a -s "$T/out" -a ! -s "$T/err" ]
    cp "$T/out" "$T/cfg_$k.txt"
    sed -n 's/^ *file = "\(.*\)";$/\1/p' "$T/out" | lower >"$T/files.txt"
    nf=$(wc -l <"$T/files.txt") own=$(grep -cxFf "$T/own_$k.txt" "$T/files.txt")
    check "$what: $own of $nf file = lines name its own animations (80 % at least)" \
        [ "$nf" -ge 20 -a $((own * 10)) -ge $((nf * 8)) ]
    known=$(grep -cxFf "$T/inst_anims.txt" "$T/files.txt")
    cross=$((cross + known - own)) nowhere=$((nowhere + nf - known))
done
check "a few file = lines name another archive's animation ($cross)" [ "$cross" -ge 1 ]
check "a few name one that exists nowhere ($nowhere, for missing.txt)" [ "$nowhere" -ge 1 ]
cat "$T"/cfg_*.txt >"$T/cfgs.txt"
for want in '^class CfgPatches$' '^class CfgMovesMaleSdr : CfgMovesBasic$' \
    '^class CfgGesturesMale$' '^ *class AmovPercMstpSnonWnonDnon;$' \
    '^ *class m[0-9]*_[a-z_0-9]* : AmovPercMstpSnonWnonDnon$' '^ *class m.*_[0-9][0-9] : m.*_[0-9][0-9]$' \
    '^ *speed = 0\.[0-9]*;$' '^ *speed = -[0-9.]*;$' '^ *speed = 0;$' '^ *speed = 100000;$' \
    '^ *looped = 1;$' '^ *actions = ' '^ *mask = ' '^class CfgVehicles$'; do
    check "the configs have a line matching $want" grep -q "$want" "$T/cfgs.txt"
done
"$CAT" "${archives[0]/"$T/inst"/"$T/inst2"}/config.bin" >"$T/out2"
check "the same config text on a second run" cmp -s "$T/cfg_0.txt" "$T/out2"

# ---- rapified configs (by name, then "\0raP") and --raw ----
section "configs"
run --raw "$T/s/walk.rtm"
check "--raw: a loose file's bytes" [ "$rc" -eq 0 ] && check "--raw: equal" cmp -s "$T/out" "$T/s/walk.rtm"
run --raw "$T/samples.pbo/anims/binarised/wave_v3.rtm"
check "--raw: an archive entry's bytes" cmp -s "$T/out" "$T/s/wave_v3.rtm"
run --raw "$T/samples.pbo"
check "--raw: an archive's own bytes" cmp -s "$T/out" "$T/samples.pbo"
run --raw "$T/s/walk.rtm" header.txt
check "--raw with a VIEW: usage error (status 2)" [ "$rc" -eq 2 -a ! -s "$T/out" ]
expect_error "--raw: a missing file" --raw "$T/s/nope.bin"
expect_error "--raw: a missing archive entry" --raw "$T/samples.pbo/nope.bin"
printf 'class CfgSkeletons {};\n' >"$T/model.cfg"
run "$T/model.cfg"
check "a text model.cfg: prints its class text" [ "$rc" -eq 0 -a ! -s "$T/err" ] &&
    check "a text model.cfg: the class" grep -q '^class CfgSkeletons' "$T/out"
check "a text model.cfg: --raw prints it" cmp -s <("$CAT" --raw "$T/model.cfg") "$T/model.cfg"
# text configs: preprocessed as the game does, printed as a rapified one's text
mkdir -p "$T/tc/inc/x/lib"
printf '#define GREETING "hi"\n' >"$T/tc/inc/x/lib/g.hpp"
printf '#include "\\x\\lib\\g.hpp"\n#define N 2\nclass A {\n  x = N; s = GREETING;\n' >"$T/tc/config.cpp"
printf '#if N > 1 && __ARMA3__\n  y = 1;\n#else\n  y = 0;\n#endif\n  u = '"'"'http://x'"'"';\n};\n' \
    >>"$T/tc/config.cpp"
run -I "$T/tc/inc" "$T/tc/config.cpp"
check "config.cpp with -I: prints" [ "$rc" -eq 0 -a ! -s "$T/err" ]
check "config.cpp with -I: the include's macro" grep -qx '    s = "hi";' "$T/out"
check "config.cpp with -I: #if taken" grep -qx '    y = 1;' "$T/out"
check "config.cpp with -I: // in single quotes kept" grep -qx '    u = "http://x";' "$T/out"
cp "$T/out" "$T/tc/text.txt"
run -E -I "$T/tc/inc" "$T/tc/config.cpp"
check "-E: the preprocessed text" [ "$rc" -eq 0 ] && check "-E: macros expanded, line kept" \
    [ "$(sed -n 4p "$T/out")" = '  x = 2; s = "hi";' ]
check "-E: a line for each source line" [ "$(wc -l <"$T/out")" -eq 11 ]
run "$T/tc/config.cpp"
check "config.cpp without -I: the include left, its macro a word" grep -qx '    s = "GREETING";' "$T/out"
expect_error "a VIEW on a text config" "$T/tc/config.cpp" header.txt &&
    check "a VIEW on a text config: says there are none" grep -q 'a text config has no views' "$T/err"
printf '#if NOPE\n#endif\n' >"$T/tc/bad.hpp"
expect_error "an #if that cannot be evaluated" "$T/tc/bad.hpp" &&
    check "an #if that cannot be evaluated: FILE:LINE" \
        grep -qx "rtmcat: $T/tc/bad.hpp:1: #if cannot be evaluated: NOPE is not a defined macro" "$T/err"
expect_error "-E on an animation" -E "$T/s/walk.rtm"
# a text config in an archive, named on the command line
mkdir -p "$T/tc/cfgdir" && printf 'class A { x = 1; };\n' >"$T/tc/cfgdir/config.cpp"
"$GEN" -a "$T/tc/cfgs.pbo" "$T/tc/cfgdir/config.cpp" >/dev/null 2>&1
run "$T/tc/cfgs.pbo/cfgdir/config.cpp"
check "ARCHIVE.pbo/DIR/config.cpp: its text as a config" grep -qx '    x = 1;' "$T/out"
run -E "$T/tc/cfgs.pbo/cfgdir/config.cpp"
check "-E ARCHIVE.pbo/DIR/config.cpp: its preprocessed text" grep -qx 'class A { x = 1; };' "$T/out"
run --help
check "--help tells of configs and --raw" grep -q 'rtmcat --raw FILE' "$T/out"
if [ -f "$SHARED/configs/000_config.bin" ] && [ -f "$SHARED/archives/ace_goggles.pbo" ]; then
    mkdir -p "$T/c0" && cp "$SHARED/configs/000_config.bin" "$T/c0/config.bin"
    cb=$T/c0/config.bin     # the name rule: config.bin, not 000_config.bin
    run "$cb"
    check "config.bin prints its text" [ "$rc" -eq 0 -a ! -s "$T/err" ]
    cp "$T/out" "$T/cfg.txt"
    check "config.bin: the class the expected model names" grep -q '^class CfgPatches$' "$T/cfg.txt"
    check "config.bin: a nested class, indented" grep -q '^    class ace_movement$' "$T/cfg.txt"
    check "config.bin: the same text on a second run" cmp -s "$T/cfg.txt" <("$CAT" "$cb")
    mkdir -p "$T/c1" && cp "$cb" "$T/c1/CONFIG.BIN"
    check "a copy named CONFIG.BIN: the same text" cmp -s "$T/cfg.txt" <("$CAT" "$T/c1/CONFIG.BIN")
    cp "$cb" "$T/other.bin"
    check "the same bytes under another name: its text too" cmp -s "$T/cfg.txt" <("$CAT" "$T/other.bin")
    run --raw "$cb"
    check "--raw config.bin: its bytes" cmp -s "$T/out" "$cb"
    expect_error "a VIEW on a config" "$cb" header.txt &&
        check "a VIEW on a config: says there are none" grep -q 'a rapified config has no views' "$T/err"
    mkdir -p "$T/cut"
    for cut in 4 15 16 100 $(($(stat -c %s "$cb") - 1)); do
        head -c "$cut" "$cb" >"$T/cut/config.bin"
        expect_error "config.bin cut at $cut bytes" "$T/cut/config.bin" &&
            check "cut at $cut: the message names the file and the byte" \
                grep -q "^rtmcat: $T/cut/config.bin: .* (at byte [0-9]*)$" "$T/err"
    done
    pbo=$SHARED/archives/ace_goggles.pbo
    run "$pbo/config.bin"
    check "archive config.bin prints its text" [ "$rc" -eq 0 ]
    check "archive config.bin: GestureWipeFace" grep -q 'GestureWipeFace' "$T/out"
    check "archive config.bin: WipeGlasses.rtm" grep -q 'WipeGlasses\.rtm' "$T/out"
    run --raw "$pbo/config.bin"
    check "--raw archive config.bin: rapified bytes" [ "$(head -c 4 "$T/out" | od -An -c | tr -d ' ')" = '\0raP' ]
    expect_error "a VIEW on an archive's config" "$pbo/config.bin" bones.txt
else
    skip "no ../shared" "rtmcat on real configs (set RTMFS_SHARED)"
fi

section
finish cli/rtmcat
