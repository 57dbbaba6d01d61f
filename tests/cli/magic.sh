#!/usr/bin/env bash
# magic.sh - src/packaging/rtmfs.magic under file(1) on rtmgen's samples of every
# format, a PBO, files that are not animations and (with ../shared, or
# RTMFS_SHARED) every real file; make install-magic and make uninstall on a
# scratch MAGIC file; make install into a DESTDIR (rtmgen, its man page, the
# magic file) and rtmgen's usage.  Uses $BUILD/rtmgen and $BUILD/rtmcat
# (BUILD defaults to build).
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
MAGICSRC=$PWD/src/packaging/rtmfs.magic
MK=${MAKE:-make}

T=$(mktemp -d "${TMPDIR:-/tmp}/rtmfs-magic.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

"$RTMGEN" "$T/s" && "$RTMGEN" -p "$T/x.pbo" &&
    "$RTMGEN" -a "$T/y.pbo" "$T/s/walk.rtm" "$T/s/run_v5.rtm" ||
    { fail "rtmgen: writing the fixtures"; finish magic.sh; }

# --- file -m src/packaging/rtmfs.magic ----------------------------------------------
RTM="Arma RTM animation"
# what file(1) should say of an animation, by rtmcat's header.txt (format,
# version, and for plain files whether an RTM_MDAT block is there)
expected() {
    local h fmt ver
    h=$("$RTMCAT" "$1" header.txt 2>/dev/null) || return 1
    fmt=$(sed -n 's/^format: //p' <<<"$h") ver=$(sed -n 's/^version: //p' <<<"$h")
    case $fmt in
    plain)
        if grep -q '^mdat[a-z_]*: yes' <<<"$h"; then
            echo "$RTM, plain RTM_0101 with frame properties (RTM_MDAT)"
        else
            echo "$RTM, plain RTM_0101"
        fi ;;
    bmtr) echo "$RTM, BMTR version $ver" ;;
    *) return 1 ;;
    esac
}

# says FILE TEXT: file -m src/packaging/rtmfs.magic FILE prints exactly TEXT
says() {
    local got
    got=$(file -b -m "$MAGICSRC" "$1" 2>&1)
    if [ "$got" = "$2" ]; then ok "file: ${1#"$T"/}: $2"; else fail "file: ${1#"$T"/}: \"$got\", expected \"$2\""; fi
}

if ! command -v file >/dev/null; then
    skip_or_fail "not installed: file" "file -m src/packaging/rtmfs.magic (apt-get install file)"
else
    says "$T/s/walk.rtm" "$RTM, plain RTM_0101"
    says "$T/s/step_props.rtm" "$RTM, plain RTM_0101 with frame properties (RTM_MDAT)"
    says "$T/s/wave_v3.rtm" "$RTM, BMTR version 3"
    says "$T/s/reload_v4.rtm" "$RTM, BMTR version 4"
    says "$T/s/run_v5.rtm" "$RTM, BMTR version 5"
    says "$T/s/idle_v5_raw.rtm" "$RTM, BMTR version 5"
    says "$T/x.pbo" 'Arma PBO archive, prefix "rtmfs\samples"'
    says "$T/y.pbo" 'Arma PBO archive, prefix "rtmfs\packed"'

    # the magic agrees with rtmcat on every sample that parses
    n=0 bad=0
    for f in "$T"/s/*.rtm; do
        want=$(expected "$f") || continue
        n=$((n + 1))
        [ "$(file -b -m "$MAGICSRC" "$f")" = "$want" ] || { bad=$((bad + 1)); echo "  $f: not \"$want\""; }
    done
    [ "$n" -eq 6 ] && [ "$bad" -eq 0 ] && ok "file agrees with rtmcat's header.txt on $n samples" ||
        fail "file agrees with rtmcat's header.txt: $bad of $n samples differ"

    # the prefix property anywhere among the properties, or none at all
    # vers PROPS: a PBO's header entry (empty name, "sreV", 16 zero bytes), then PROPS
    vers() { printf '\0sreV'; head -c 16 /dev/zero; printf "$1"; }
    vers 'product\0Arma 3\0prefix\0a3\\anims_f\0\0' >"$T/p2.pbo"
    vers 'product\0x\0\0' >"$T/p3.pbo"
    says "$T/p2.pbo" 'Arma PBO archive, prefix "a3\anims_f"'
    says "$T/p3.pbo" 'Arma PBO archive'

    # what is not an animation must not be called one
    printf 'RTM animation notes\nBMTR is binarised\n' >"$T/notes.txt"
    printf 'BMTR\007\0\0\0rest of a file' >"$T/bmtr7.rtm"      # no version 7
    printf 'RTM_0100 an older magic' >"$T/rtm0100.rtm"
    head -c 4096 /dev/zero >"$T/zeros.rtm"
    for f in notes.txt bmtr7.rtm rtm0100.rtm zeros.rtm; do
        got=$(file -b -m "$MAGICSRC" "$T/$f")
        case $got in
        *"$RTM"* | *"PBO archive"*) fail "file: $f is not an animation, yet: $got" ;;
        *) ok "file: $f is not an animation ($got)" ;;
        esac
    done

    # every real file, by rtmcat's header.txt
    if ! have_corpus; then
        skip "no ../shared" "file -m src/packaging/rtmfs.magic on the real files (set RTMFS_SHARED)"
    else
        n=0 bad=0
        declare -A count=()
        while IFS= read -r -d '' f; do
            n=$((n + 1))
            want=$(expected "$f") || { bad=$((bad + 1)); echo "  $f: rtmcat cannot read it"; continue; }
            got=$(file -b -m "$MAGICSRC" "$f")
            if [ "$got" = "$want" ]; then
                count[$got]=$((${count[$got]:-0} + 1))
            else
                bad=$((bad + 1)); echo "  $f: \"$got\", expected \"$want\""
            fi
        done < <(find "$SHARED/corpus" -type f -iname '*.rtm' -print0)
        for k in "${!count[@]}"; do echo "  ${count[$k]} $k"; done
        [ "$n" -gt 0 ] && [ "$bad" -eq 0 ] && ok "file recognises all $n real files with their format and version" ||
            fail "file on the real files: $bad of $n wrong"
    fi

    # rapified configs: every real one, and a text config or other "raP" is not one
    if [ ! -d "$SHARED/configs" ]; then
        skip "no ../shared" "file -m src/packaging/rtmfs.magic on the real rapified configs (set RTMFS_SHARED)"
    else
        n=0 bad=0
        for f in "$SHARED"/configs/*.bin "$SHARED"/configs/*.rvmat; do
            n=$((n + 1))
            got=$(file -b -m "$MAGICSRC" "$f")
            [ "$got" = "Arma rapified config" ] || { bad=$((bad + 1)); echo "  $f: \"$got\""; }
        done
        [ "$n" -gt 0 ] && [ "$bad" -eq 0 ] && ok "file calls all $n real rapified configs Arma rapified config" ||
            fail "file on the real rapified configs: $bad of $n wrong"
    fi
    printf 'class CfgPatches {};\n' >"$T/config.cpp"
    printf '\0raP\007\0\0\0not a config' >"$T/rap7.bin"
    for f in config.cpp rap7.bin; do
        got=$(file -b -m "$MAGICSRC" "$T/$f")
        case $got in
        *rapified*) fail "file: $f is not a rapified config, yet: $got" ;;
        *) ok "file: $f is not a rapified config ($got)" ;;
        esac
    done
fi

# --- make install-magic, make uninstall -----------------------------------
BEGIN='# >>> rtmfs magic (make install-magic; make uninstall removes it)'
# mk ARGS...: make in the source tree, its output kept in $T/make.log
mk() { "$MK" --no-print-directory BUILD="$BUILD" "$@" >"$T/make.log" 2>&1 || { sed 's/^/  /' "$T/make.log"; return 1; }; }
# blocks FILE: how many rtmfs blocks FILE holds
blocks() { grep -c -x -F -e "$BEGIN" -e "$BEGIN, newline added" "$1"; }
# block_is_src FILE: the one block's content is src/packaging/rtmfs.magic
block_is_src() { sed -n '/^# >>> rtmfs magic/,/^# <<< rtmfs magic$/p' "$1" | sed '1d;$d' | cmp -s - "$MAGICSRC"; }

# two local magic files: one as Debian ships it, one without a last newline
printf '# Magic local data for file(1) command.\n# Insert here your local magic data. Format is described in magic(5).\n\n0\tstring\tXYZZY\tlocal test format\n' >"$T/magic1"
printf '0\tstring\tXYZZY\tlocal test format, no newline at the end' >"$T/magic2"
for m in magic1 magic2; do
    M=$T/$m
    cp "$M" "$M.orig"
    if mk install-magic MAGIC="$M" && mk install-magic MAGIC="$M"; then
        [ "$(blocks "$M")" = 1 ] && block_is_src "$M" &&
            ok "make install-magic twice ($m): one block, holding src/packaging/rtmfs.magic" ||
            fail "make install-magic twice ($m): $(blocks "$M") blocks, or not src/packaging/rtmfs.magic"
        [ "$(head -c "$(stat -c %s "$M.orig")" "$M" | cmp - "$M.orig" && echo same)" = same ] &&
            ok "make install-magic ($m): the content before the block is unchanged" ||
            fail "make install-magic ($m): the content before the block changed"
    else
        fail "make install-magic MAGIC=$m"
    fi
    if command -v file >/dev/null && [ $m = magic1 ]; then
        printf 'XYZZY\n' >"$T/xyzzy"
        [ "$(file -b -m "$M" "$T/s/run_v5.rtm")" = "$RTM, BMTR version 5" ] &&
            [ "$(file -b -m "$M" "$T/xyzzy")" = "local test format" ] &&
            ok "file -m MAGIC with the block: the block's and the old magic both work" ||
            fail "file -m MAGIC with the block: $(file -b -m "$M" "$T/s/run_v5.rtm" "$T/xyzzy" | tr '\n' ';')"
    fi
    if mk uninstall MAGIC="$M" DESTDIR="$T/none" PREFIX=/usr && cmp -s "$M" "$M.orig"; then
        ok "make uninstall ($m): MAGIC byte for byte as before install-magic"
    else
        fail "make uninstall ($m): MAGIC differs from before install-magic"
    fi
done

# a block whose content changed is replaced, and the content after it stays
M=$T/magic1
mk install-magic MAGIC="$M" && printf '0\tstring\tPLUGH\tadded after the block\n' >>"$M" &&
    sed -i 's/^\(0\tstring\tRTM_0101\t\).*/\1an old description/' "$M" &&
    cp "$M" "$M.changed" && mk install-magic MAGIC="$M"
if [ "$(blocks "$M")" = 1 ] && block_is_src "$M" && grep -q PLUGH "$M" && ! cmp -s "$M" "$M.changed"; then
    ok "make install-magic replaces a changed block, keeping what follows it"
else
    fail "make install-magic over a changed block: $(blocks "$M") blocks"
fi
mk uninstall MAGIC="$M" DESTDIR="$T/none" PREFIX=/usr
{ cat "$M.orig"; printf '0\tstring\tPLUGH\tadded after the block\n'; } | cmp -s - "$M" &&
    ok "make uninstall takes out the block and nothing else" ||
    fail "make uninstall after a replaced block: not the old content plus the added line"

# no MAGIC file, or one without the block: uninstall changes nothing
cp "$T/magic1.orig" "$T/magic3"
mk uninstall MAGIC="$T/magic3" DESTDIR="$T/none" PREFIX=/usr && cmp -s "$T/magic3" "$T/magic1.orig" &&
    mk uninstall MAGIC="$T/absent" DESTDIR="$T/none" PREFIX=/usr && [ ! -e "$T/absent" ] &&
    ok "make uninstall without a block, or without MAGIC, changes nothing" ||
    fail "make uninstall without a block or without MAGIC"

# --- make install into a DESTDIR; rtmgen's usage ---------------------------
D=$T/dest
if mk install DESTDIR="$D" PREFIX=/usr MAGIC="$T/absent"; then
    missing=
    for f in bin/rtmgen bin/rtmcat bin/rtmfs share/man/man1/rtmgen.1 share/man/man1/rtmcat.1 \
             share/man/man1/rtmfs.1 share/rtmfs/rtmfs.magic; do
        [ -f "$D/usr/$f" ] || missing="$missing $f"
    done
    [ -z "$missing" ] && [ -x "$D/usr/bin/rtmgen" ] && cmp -s "$D/usr/share/rtmfs/rtmfs.magic" "$MAGICSRC" &&
        ok "make install DESTDIR: rtmgen, rtmgen.1 and share/rtmfs/rtmfs.magic are there" ||
        fail "make install DESTDIR: missing:${missing:- (rtmgen not executable, or the magic differs)}"
    [ ! -e "$T/absent" ] && ok "make install does not touch MAGIC" || fail "make install wrote MAGIC"

    G=$D/usr/bin/rtmgen
    "$G" --help >"$T/out" 2>"$T/err"; rc=$?
    [ "$rc" -eq 0 ] && grep -q '^usage: rtmgen' "$T/out" && grep -q -- '-p FILE.pbo' "$T/out" && [ ! -s "$T/err" ] &&
        ok "rtmgen --help: usage on stdout, status 0" || fail "rtmgen --help: status $rc"
    "$G" -h >"$T/out" 2>/dev/null; rc=$?
    [ "$rc" -eq 0 ] && grep -q '^usage: rtmgen' "$T/out" && ok "rtmgen -h: usage, status 0" || fail "rtmgen -h: status $rc"
    for args in --bogus -q ""; do
        # shellcheck disable=SC2086
        "$G" $args >"$T/out" 2>"$T/err"; rc=$?
        [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -q '^usage: rtmgen' "$T/err" &&
            ok "rtmgen ${args:-(no arguments)}: usage on stderr, status 2" ||
            fail "rtmgen ${args:-(no arguments)}: status $rc, or the usage not on stderr alone"
    done

    # the installed rtmgen away from the source tree
    mkdir "$T/away"
    (cd "$T/away" && "$G" samples && mkdir -p samples/@samples/addons &&
        "$G" -p samples/@samples/addons/samples.pbo) >/dev/null 2>&1 &&
        cmp -s "$T/away/samples/run_v5.rtm" "$T/s/run_v5.rtm" &&
        cmp -s "$T/away/samples/@samples/addons/samples.pbo" "$T/x.pbo" &&
        ok "the installed rtmgen writes the samples outside the source tree" ||
        fail "the installed rtmgen outside the source tree"

    if command -v groff >/dev/null; then
        w=$(groff -man -ww -z -Tutf8 "$D/usr/share/man/man1/rtmgen.1" 2>&1)
        [ -z "$w" ] && ok "rtmgen.1 formats without warnings" || fail "rtmgen.1: $w"
    fi

    if mk uninstall DESTDIR="$D" PREFIX=/usr MAGIC="$T/absent"; then
        left=$(find "$D" -type f -o -type l)
        [ -z "$left" ] && [ ! -e "$D/usr/share/rtmfs" ] && ok "make uninstall DESTDIR removes every installed file" ||
            fail "make uninstall DESTDIR left: $left"
    else
        fail "make uninstall DESTDIR"
    fi
else
    fail "make install DESTDIR=$D"
fi

finish magic.sh
