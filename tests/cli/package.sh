#!/usr/bin/env bash
# make check: builds
# package.sh - make deb and what the package installs: builds
# $BUILD/rtmfs_VERSION-1_ARCH.deb, runs lintian on it (no E: or W: line),
# compares dpkg-deb -c with the list below, installs it (for real as root
# with CI=true, else with dpkg --root into a scratch folder), names the
# types of a generated animation, archive and rapified config with
# mimetype and gio (XDG_DATA_DIRS into the install, update-mime-database run
# there), runs the thumbnailer's Exec line on a generated animation (a PNG
# of the size asked for, with the figure in it) and on bad input (a cut
# file, huge files, files that are not animations: no thumbnail, within the
# time limit), completes rtmcat's views, archive entries, rtmfs -o and
# rtmgen's options, and purges the package: nothing is left.
# Skips where dpkg-dev is absent (each later step: where its tool is),
# except under CI=true.
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
plain_build_only "the Debian package and lintian" && finish package.sh
MK=${MAKE:-make}
T=$(mktemp -d "${TMPDIR:-/tmp}/rtmfs-package.XXXXXX") || exit 1
REAL=                       # set when the package is installed for real
cleanup() {
    [ -n "$REAL" ] && dpkg-query -W -f='${Status}' rtmfs 2>/dev/null | grep -q installed &&
        dpkg --purge rtmfs >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

for t in dpkg-deb dpkg-shlibdeps dpkg-gencontrol; do
    command -v $t >/dev/null || { skip_or_fail "not installed: $t" "make deb and the package (apt-get install dpkg-dev)"; finish package.sh; }
done

# --- 1. make deb -----------------------------------------------------------
VER=$(sed -n 's/^#define RTMFS_VERSION "\(.*\)"$/\1/p' src/base/version.h)-1
DEB=$BUILD/rtmfs_${VER}_$(dpkg --print-architecture).deb
rm -f "$DEB"
start=$SECONDS
if "$MK" --no-print-directory -j"$(nproc)" BUILD="$BUILD" deb >"$T/deb.log" 2>&1 && [ -f "$DEB" ]; then
    ok "make deb: ${DEB#"$PWD"/} ($((SECONDS - start)) s)"
else
    sed 's/^/  /' "$T/deb.log" | tail -20
    fail "make deb"; finish package.sh
fi
[ ! -e debian ] && ok "make deb leaves no debian/ at the top level" || fail "make deb: a debian/ at the top level"

# --- 2. lintian ------------------------------------------------------------
if ! command -v lintian >/dev/null; then
    skip_or_fail "not installed: lintian" "lintian on the package (apt-get install lintian)"
else
    lintian "$DEB" >"$T/lintian" 2>"$T/lintian.err"; rc=$?
    sed 's/^/  lintian: /' "$T/lintian"
    if grep -q '^[EW]: ' "$T/lintian"; then
        fail "lintian: $(grep -c '^[EW]: ' "$T/lintian") error or warning line(s)"
    elif [ "$rc" -ne 0 ]; then
        sed 's/^/  /' "$T/lintian.err"; fail "lintian exited with $rc"
    else
        ok "lintian: no error and no warning"
    fi
fi

# --- 3. the contents ---------------------------------------------------------
cat >"$T/want" <<'EOF'
./usr/bin/rtmcat
./usr/bin/rtmfs
./usr/bin/rtmgen
./usr/lib/rtmfs/rtmfs-fbx
./usr/libexec/rtmfs/rtmfs-thumbnailer
./usr/share/bash-completion/completions/rtmcat
./usr/share/bash-completion/completions/rtmfs -> rtmcat
./usr/share/bash-completion/completions/rtmgen -> rtmcat
./usr/share/doc/rtmfs/changelog.Debian.gz
./usr/share/doc/rtmfs/copyright
./usr/share/lintian/overrides/rtmfs
./usr/share/man/man1/rtmcat.1.gz
./usr/share/man/man1/rtmfs.1.gz
./usr/share/man/man1/rtmgen.1.gz
./usr/share/man/man5/rtm.5.gz
./usr/share/man/man7/rtmfs-views.7.gz
./usr/share/mime/packages/rtmfs.xml
./usr/share/rtmfs/rtmfs.magic
./usr/share/thumbnailers/rtmfs.thumbnailer
EOF
dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' |
    LC_ALL=C sort >"$T/got"
if diff -u "$T/want" "$T/got" >"$T/diff"; then
    ok "dpkg-deb -c: the $(wc -l <"$T/want") files and links of the list, and no others"
else
    sed 's/^/  /' "$T/diff"; fail "dpkg-deb -c differs from the list"
fi
field() { dpkg-deb -f "$DEB" "$1"; }
dep=$(field Depends)
[ "$(field Version)" = "$VER" ] && [[ $dep == *libfuse3-* && $dep == *liblzo2-* && $dep == *libc6* && $dep == *libassimp* ]] &&
    [[ ", $dep," == *", fuse3,"* ]] && [ "$(field Recommends)" = librsvg2-bin ] &&
    ok "control: Version $VER, Depends $dep, Recommends librsvg2-bin" ||
    fail "control: Version $(field Version), Depends $dep, Recommends $(field Recommends)"
dpkg-deb -e "$DEB" "$T/ctl"
[ "$(cd "$T/ctl" && ls | tr '\n' ' ')" = "control md5sums " ] &&
    ok "no maintainer scripts, no conffiles (control, md5sums)" || fail "control members: $(ls "$T/ctl")"

# --- 4. install ------------------------------------------------------------
if [ "${CI:-}" = true ] && [ "$(id -u)" -eq 0 ] &&
    ! dpkg-query -W -f='${Status}' rtmfs 2>/dev/null | grep -q 'ok installed'; then
    REAL=1 R=
    if dpkg -i "$DEB" >"$T/dpkg.log" 2>&1; then ok "dpkg -i: installed for real"; else
        sed 's/^/  /' "$T/dpkg.log"; fail "dpkg -i"; finish package.sh; fi
    DATA=/usr/share
else
    # a scratch root with a dpkg database of its own (no triggers there)
    R=$T/root
    mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
    : >"$R/var/lib/dpkg/status"
    # (--force-bad-path: a user's PATH has no ldconfig; --log: not the host's log)
    DPKG=(dpkg --root="$R" --log="$T/dpkg-history" --force-not-root --force-depends
        --force-script-chrootless --force-bad-path)
    if "${DPKG[@]}" -i "$DEB" >"$T/dpkg.log" 2>&1; then ok "dpkg --root SCRATCH -i"; else
        sed 's/^/  /' "$T/dpkg.log"; fail "dpkg --root SCRATCH -i"; finish package.sh; fi
    DATA=$R/usr/share
fi
cmp -s "$R/usr/share/rtmfs/rtmfs.magic" src/packaging/rtmfs.magic &&
    ok "the magic file is /usr/share/rtmfs/rtmfs.magic" || fail "no /usr/share/rtmfs/rtmfs.magic"
"$R/usr/lib/rtmfs/rtmfs-fbx" --version >"$T/fbx.out" 2>&1 && grep -q '^rtmfs-fbx ' "$T/fbx.out" &&
    ok "the installed /usr/lib/rtmfs/rtmfs-fbx runs" || fail "the installed rtmfs-fbx: $(cat "$T/fbx.out")"
B=$R/usr/bin
"$B/rtmgen" "$T/s" && "$B/rtmgen" -p "$T/x.pbo" || { fail "the installed rtmgen: samples"; finish package.sh; }
# a rapified config: the root class, empty (rtm(5), RAPIFIED CONFIGS)
printf '\0raP\0\0\0\0\010\0\0\0\0\0\0\0\0\0\026\0\0\0' >"$T/config.bin"
"$B/rtmcat" "$T/config.bin" >/dev/null || fail "rtmcat: the generated config.bin"
cp "$T/s/walk.rtm" "$T/plain_anim"; cp "$T/s/step_props.rtm" "$T/mdat_anim"
cp "$T/s/run_v5.rtm" "$T/bmtr_anim"; cp "$T/x.pbo" "$T/archive"

# --- 5. MIME types -----------------------------------------------------------
# types FILE...: "FILE TYPE" a line, by mimetype or gio (TOOL)
types() {
    local f
    for f in "$@"; do
        case $TOOL in
        mimetype) printf '%s %s\n' "$f" "$(mimetype -b "$T/$f")" ;;
        gio) printf '%s %s\n' "$f" "$(gio info -a standard::content-type "$T/$f" 2>/dev/null |
            sed -n 's/^ *standard::content-type: //p')" ;;
        esac
    done
}
cat >"$T/types.want" <<'EOF'
s/walk.rtm application/x-arma-rtm
s/run_v5.rtm application/x-arma-rtm
plain_anim application/x-arma-rtm
mdat_anim application/x-arma-rtm
bmtr_anim application/x-arma-rtm
x.pbo application/x-arma-pbo
archive application/x-arma-pbo
config.bin application/x-arma-rapified
EOF
if ! command -v update-mime-database >/dev/null; then
    skip_or_fail "not installed: update-mime-database" "the MIME types (apt-get install shared-mime-info)"
else
    # the scratch install's database: made there as the trigger makes /usr/share's
    [ -n "$REAL" ] || XDG_DATA_DIRS=$DATA update-mime-database "$DATA/mime"
    n=0
    for TOOL in mimetype gio; do
        command -v $TOOL >/dev/null || continue
        n=$((n + 1))
        mapfile -t names < <(cut -d' ' -f1 "$T/types.want")
        XDG_DATA_DIRS=$DATA XDG_DATA_HOME=$T/home types "${names[@]}" >"$T/types.got"
        diff -u "$T/types.want" "$T/types.got" >"$T/diff" &&
            ok "$TOOL names the types: .rtm and the three magics, .pbo and \\0sreV, \\0raP" ||
            { sed 's/^/  /' "$T/diff"; fail "$TOOL: the types"; }
    done
    [ $n -gt 0 ] || skip_or_fail "not installed: mimetype" \
        "the MIME types by name (apt-get install libfile-mimeinfo-perl or libglib2.0-bin)"
fi

# --- 6. the thumbnailer ------------------------------------------------------
# thumb IN OUT [SIZE]: runs the .thumbnailer's Exec line (in the scratch root)
EXEC=$(sed -n 's/^Exec=//p' "$DATA/thumbnailers/rtmfs.thumbnailer")
thumb() {
    local a argv=()
    for a in $EXEC; do
        case $a in
        %s) argv+=("${3:-128}") ;;
        %i) argv+=("$1") ;;
        %o) argv+=("$2") ;;
        /*) argv+=("$R$a") ;;
        *) argv+=("$a") ;;
        esac
    done
    "${argv[@]}"
}
# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }
grep -q '^MimeType=application/x-arma-rtm;$' "$DATA/thumbnailers/rtmfs.thumbnailer" &&
    [[ $EXEC == /usr/libexec/rtmfs/rtmfs-thumbnailer\ * ]] &&
    ok "rtmfs.thumbnailer: application/x-arma-rtm, Exec=$EXEC" || fail "rtmfs.thumbnailer: Exec=$EXEC"
if ! command -v rsvg-convert >/dev/null; then
    skip_or_fail "not installed: rsvg-convert" "the thumbnailer (apt-get install librsvg2-bin)"
else
    for size in 128 256; do
        rm -f "$T/t.png"
        if thumb "$T/s/walk.rtm" "$T/t.png" $size && [ -s "$T/t.png" ]; then
            read -r w h < <(png_size "$T/t.png")
            [ "$w" = "$size" ] && [ "$h" -gt 0 ] && [ "$h" -le "$size" ] &&
                ok "thumbnailer -s $size: a PNG of ${w}x$h" || fail "thumbnailer -s $size: ${w}x$h"
            if command -v python3 >/dev/null; then
                # white but for the frames, the text and the figure: its
                # dark (#333) and blue (#1f6fd1) lines
                read -r dark blue white < <(python3 tests/svg/png.py colours "$T/t.png" 333333 1f6fd1 ffffff)
                [ "$dark" -gt $((size / 32)) ] && [ "$blue" -gt $((size / 32)) ] &&
                    [ "$white" -gt $((w * h / 2)) ] && [ "$white" -lt $((w * h * 99 / 100)) ] &&
                    ok "thumbnailer -s $size: not blank ($dark dark, $blue blue, $white white pixels of $((w * h)))" ||
                    fail "thumbnailer -s $size: blank? $dark dark, $blue blue, $white white pixels of $((w * h))"
            else
                skip_or_fail "not installed: python3" "thumbnailer: the PNG is not blank (tests/svg/png.py)"
            fi
        else
            fail "thumbnailer -s $size on walk.rtm: no PNG"
        fi
    done
    thumb "$T/s/run_v5.rtm" "$T/t5.png" && read -r w h < <(png_size "$T/t5.png") && [ "$w" = 128 ] &&
        ok "thumbnailer on a BMTR v5 animation: ${w}x$h" || fail "thumbnailer on run_v5.rtm"

    # bad input: no thumbnail, an exit status, within the time limit (8 s)
    head -c 3000 "$T/s/walk.rtm" >"$T/cut.rtm"
    { printf 'RTM_0101'; head -c 4096 /dev/zero; } >"$T/huge.rtm" && truncate -s 3G "$T/huge.rtm"
    "$B/rtmgen" -s 120 "$T/big.rtm"
    cp "$T/t.png" "$T/png.rtm"; printf 'not an animation\n' >"$T/text.rtm"; : >"$T/empty.rtm"
    mkfifo "$T/fifo.rtm"
    for f in cut.rtm s/broken.rtm huge.rtm big.rtm png.rtm text.rtm empty.rtm fifo.rtm missing.rtm; do
        rm -f "$T/bad.png"
        t0=$SECONDS
        thumb "$T/$f" "$T/bad.png" 2>"$T/err"; rc=$?
        dt=$((SECONDS - t0))
        [ "$rc" -ne 0 ] && [ ! -e "$T/bad.png" ] && [ "$dt" -le 9 ] &&
            ok "thumbnailer on $f: no thumbnail, status $rc, $dt s" ||
            fail "thumbnailer on $f: status $rc, $dt s, thumbnail: $([ -e "$T/bad.png" ] && echo yes || echo no)"
    done
    # its own time limit: a file that takes longer than it (big.rtm, 75 MB, whose
    # parse alone takes longer than 0.2 s; rendered whole in under 1 s now)
    # with the size bound lifted) is stopped
    t0=$SECONDS
    RTMFS_THUMBNAILER_TIMEOUT=0.2 RTMFS_THUMBNAILER_MAX_MB=1000 thumb "$T/big.rtm" "$T/bad.png"; rc=$?
    dt=$((SECONDS - t0))
    [ "$rc" -ne 0 ] && [ ! -e "$T/bad.png" ] && [ "$dt" -le 3 ] &&
        ok "thumbnailer with a 0.2 s limit on a 75 MB animation: stopped (status $rc, $dt s)" ||
        fail "thumbnailer with a 0.2 s limit: status $rc, $dt s"
    [ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'rtmfs-thumbnailer.*' -newer "$T/want" 2>/dev/null)" ] &&
        ok "thumbnailer: no temporary folder left behind" || fail "thumbnailer left temporary folders"
fi

# --- 7. bash completion ------------------------------------------------------
BC=/usr/share/bash-completion/bash_completion
# complete WORD...: the candidates (one a line) for the command line WORD...,
# the last word being completed, the function found by bash-completion's
# own loader in the install's completions folder
complete_() {
    (cd "$T" && PATH=$B:$PATH XDG_DATA_DIRS=$DATA BASH_COMPLETION_USER_DIR=$T/none bash -c '
        . "$1"; shift
        __load_completion "$1" || { echo "no completion for $1" >&2; exit 1; }
        fn=$(complete -p "$1" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        compopt() { :; }
        "$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}"' complete_ "$BC" "$@")
}
has() { grep -qxF -- "$1" "$T/c"; }
if [ ! -f "$BC" ]; then
    skip_or_fail "not installed: bash-completion" "completion of rtmcat, rtmfs and rtmgen (apt-get install bash-completion)"
else
    complete_ rtmcat s/walk.rtm "" >"$T/c"
    has header.txt && has frames/ && has preview.svg &&
        ok "rtmcat s/walk.rtm <TAB>: its views ($(tr '\n' ' ' <"$T/c"))" || fail "rtmcat s/walk.rtm <TAB>: $(tr '\n' ' ' <"$T/c")"
    complete_ rtmcat s/walk.rtm tracks/LeftH >"$T/c"
    has tracks/LeftHand.csv && ok "rtmcat s/walk.rtm tracks/LeftH<TAB>: tracks/LeftHand.csv among $(wc -l <"$T/c")" ||
        fail "rtmcat FILE tracks/LeftH<TAB>: $(tr '\n' ' ' <"$T/c")"
    complete_ rtmcat x.pbo/anims/ >"$T/c"
    has x.pbo/anims/walk.rtm && has x.pbo/anims/binarised/ &&
        ok "rtmcat x.pbo/anims/<TAB>: the archive's entries ($(tr '\n' ' ' <"$T/c"))" ||
        fail "rtmcat x.pbo/anims/<TAB>: $(tr '\n' ' ' <"$T/c")"
    complete_ rtmcat x.pbo/anims/walk.rtm he >"$T/c"
    has header.txt && ok "rtmcat x.pbo/anims/walk.rtm he<TAB>: header.txt" || fail "rtmcat ARCHIVE/ENTRY he<TAB>: $(tr '\n' ' ' <"$T/c")"
    complete_ rtmfs -o "" >"$T/c"
    missing=
    for o in $("$B/rtmfs" --help 2>&1 | grep -o -- '-o [a-z_]*=\?' | cut -c4-); do
        has "$o" || has "$o=" || missing="$missing $o"
    done
    has noindex && has watch= && [ -z "$missing" ] &&
        ok "rtmfs -o <TAB>: every -o of rtmfs --help ($(wc -l <"$T/c") options)" || fail "rtmfs -o <TAB>: missing$missing"
    complete_ rtmfs -o noindex,watch=i >"$T/c"
    has noindex,watch=inotify && ok "rtmfs -o noindex,watch=i<TAB>: noindex,watch=inotify" ||
        fail "rtmfs -o noindex,watch=i<TAB>: $(tr '\n' ' ' <"$T/c")"
    complete_ rtmgen - >"$T/c"
    has -p && has -F && has --help && ok "rtmgen -<TAB>: its options" || fail "rtmgen -<TAB>: $(tr '\n' ' ' <"$T/c")"
fi

# --- 8. purge ----------------------------------------------------------------
if [ -n "$REAL" ]; then
    dpkg -L rtmfs | while read -r p; do [ -d "$p" ] || printf '%s\n' "$p"; done >"$T/files"
    dpkg --purge rtmfs >"$T/dpkg.log" 2>&1 || { sed 's/^/  /' "$T/dpkg.log"; fail "dpkg --purge rtmfs"; }
    left=$(while read -r p; do [ -e "$p" ] || [ -L "$p" ] && echo "$p"; done <"$T/files")
    [ -z "$left" ] && [ ! -e /usr/share/rtmfs ] && [ ! -e /usr/libexec/rtmfs ] && [ ! -e /usr/share/doc/rtmfs ] &&
        ! dpkg-query -W rtmfs >/dev/null 2>&1 &&
        ok "dpkg --purge: none of the $(wc -l <"$T/files") files is left, nor the package's folders" ||
        fail "dpkg --purge left: $left"
    if command -v mimetype >/dev/null; then
        [ "$(XDG_DATA_DIRS=/usr/share XDG_DATA_HOME=$T/home mimetype -b "$T/bmtr_anim")" != application/x-arma-rtm ] &&
            ok "after the purge the MIME database no longer has the types" || fail "after the purge: the types are still known"
    fi
else
    rm -rf "$DATA/mime"/[!p]* # the database that update-mime-database made above
    "${DPKG[@]}" --purge rtmfs >"$T/dpkg.log" 2>&1 || { sed 's/^/  /' "$T/dpkg.log"; fail "dpkg --root SCRATCH --purge"; }
    left=$(cd "$R" && find . -mindepth 1 -not -path './var' -not -path './var/*')
    [ -z "$left" ] && ok "dpkg --root SCRATCH --purge: nothing is left" || fail "dpkg --purge left: $(echo $left)"
fi

finish package.sh
