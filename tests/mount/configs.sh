#!/usr/bin/env bash
# configs.sh - rapified configs through a real mount: under show_other a
# config.bin (loose, or in an archive, LZSS or stored) reads as config.cpp,
# exactly the text rtmcat prints for it, with stat's size the bytes read;
# beside a config.cpp it is config.bin.cpp and both show; a rapified .rvmat
# keeps its name, a text one and a texture read as they are; a config cut
# short reads as a comment saying why; -o rapified=raw shows the bytes under
# the original names; without show_other none of it shows.  The fixtures
# come from the project's rapify and PBO writers (test_tree_config
# --fixtures); with ../shared, ACE's goggles archive shows its gesture.
NAME=configs
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C
need_fuse "config mount tests"

FIXTURES=$BUILD/tests/test_tree_config
[ -x "$FIXTURES" ] || { fail "$FIXTURES not built (make tests)"; exit 1; }
mkdir -p "$S" && "$FIXTURES" --fixtures "$S" || { fail "fixtures"; exit 1; }
P=$S/configs.pbo

# same_text FILE RTMCAT_PATH WHAT: FILE reads as rtmcat prints RTMCAT_PATH,
# and stat's size is what is read.
same_text() {
    if ! cmp -s "$1" <("$RTMCAT" "$2"); then
        fail "$3: differs from rtmcat $2"
    elif [ "$(stat -c %s "$1")" != "$(wc -c <"$1")" ]; then
        fail "$3: stat size $(stat -c %s "$1") != $(wc -c <"$1") bytes read"
    else
        ok "$3: rtmcat's text, stat size = bytes read"
    fi
}

# lists DIR WANT WHAT: ls DIR (sorted) is WANT.
lists() {
    local got
    got=$(ls "$1" | tr '\n' ' ')
    [ "$got" = "$2" ] && ok "$3 lists: $2" || fail "$3 lists: $got, not $2"
}

check_text() {
    do_mount "$S" "$M" -o show_other || return
    lists "$M" "bad both check.txt config.cpp configs.pbo mat.rvmat missing.txt plain.rvmat tex.paa " "a loose folder (and the root's missing.txt and check.txt)"
    same_text "$M/config.cpp" "$S/config.bin" "loose config.bin as config.cpp"
    grep -q '^        class GestureWipeTest : Default$' "$M/config.cpp" \
        && ok "config.cpp: the gesture's class, indented" || fail "config.cpp: no gesture class"
    [ -e "$M/config.bin" ] && fail "config.bin shown beside its text" || ok "config.bin not shown as such"
    lists "$M/both" "config.bin.cpp config.cpp " "beside a config.cpp"
    same_text "$M/both/config.bin.cpp" "$S/both/config.bin" "config.bin beside config.cpp"
    cmp -s "$M/both/config.cpp" "$S/both/config.cpp" && ok "the source's config.cpp as it is" \
        || fail "the source's config.cpp differs"
    same_text "$M/mat.rvmat" "$S/mat.rvmat" "a rapified .rvmat keeps its name"
    cmp -s "$M/plain.rvmat" "$S/plain.rvmat" && cmp -s "$M/tex.paa" "$S/tex.paa" \
        && ok "a text .rvmat and a texture starting with \\0raP read as they are" \
        || fail "plain.rvmat or tex.paa differs"
    # in an archive: the LZSS one at its top, a stored one beside config.cpp
    lists "$M/configs.pbo" "both config.cpp data pbo.txt " "an archive"
    same_text "$M/configs.pbo/config.cpp" "$P/config.bin" "archive config.bin (LZSS) as config.cpp"
    lists "$M/configs.pbo/both" "config.bin.cpp config.cpp " "an archive's folder beside a config.cpp"
    same_text "$M/configs.pbo/both/config.bin.cpp" "$P/both/config.bin" "archive config.bin.cpp"
    same_text "$M/configs.pbo/data/mat.rvmat" "$P/data/mat.rvmat" "archive .rvmat"
    # one cut short: a comment saying why, sized as read
    local bad=$M/bad/config.cpp
    if grep -q '^// rtmfs: bad/config.bin: .*(at byte [0-9]*)' "$bad" &&
        [ "$(wc -l <"$bad")" = 1 ] && [ "$(stat -c %s "$bad")" = "$(wc -c <"$bad")" ]; then
        ok "a config cut short reads as one comment saying why"
    else
        fail "bad/config.cpp: $(head -c 300 "$bad")"
    fi
    local f n=0
    while IFS= read -r f; do
        [ "$(stat -c %s "$f")" = "$(wc -c <"$f")" ] || { n=$((n + 1)); fail "$f: size != bytes"; }
    done < <(find "$M" -type f)
    [ $n = 0 ] && ok "every stat size equals the bytes read"
    do_umount "$M"
}

check_raw_and_hidden() {
    do_mount "$S" "$M" -o show_other,rapified=raw || return
    lists "$M" "bad both check.txt config.bin configs.pbo mat.rvmat missing.txt plain.rvmat tex.paa " "rapified=raw"
    cmp -s "$M/config.bin" "$S/config.bin" && cmp -s "$M/configs.pbo/config.bin" \
        <("$RTMCAT" --raw "$P/config.bin") && cmp -s "$M/mat.rvmat" "$S/mat.rvmat" \
        && ok "rapified=raw: the bytes under the original names" || fail "rapified=raw bytes"
    [ -e "$M/config.cpp" ] && fail "rapified=raw shows config.cpp"
    do_umount "$M"
    if "$RTMFS" "$S" "$M" -o show_other,rapified=binary 2>"$T/err"; then
        fail "rapified=binary accepted"; do_umount "$M"
    else
        grep -q "bad rapified 'binary'" "$T/err" && ok "a bad rapified= is refused, saying why" \
            || fail "rapified=binary: $(cat "$T/err")"
    fi
    do_mount "$S" "$M" || return
    lists "$M" "bad both check.txt configs.pbo missing.txt " "without show_other"
    [ -z "$(find "$M" -type f ! -name pbo.txt ! -name missing.txt ! -name check.txt)" ] &&
        ok "without show_other no config shows" ||
        fail "without show_other: $(find "$M" -type f ! -name pbo.txt ! -name missing.txt ! -name check.txt | head -3)"
    do_umount "$M"
}

check_real() {
    local ace=$SHARED/archives/ace_goggles.pbo
    if [ ! -f "$ace" ]; then
        skip "no ../shared" "ACE's config.cpp through the mount (set RTMFS_SHARED)"
        return
    fi
    do_mount "$ace" "$M" -o show_other || return
    grep -q GestureWipeFace "$M/config.cpp" && ok "ace_goggles.pbo: config.cpp names GestureWipeFace" \
        || fail "ace_goggles.pbo: no GestureWipeFace in config.cpp"
    same_text "$M/config.cpp" "$ace/config.bin" "ace_goggles.pbo's config.cpp"
    do_umount "$M"
}

check_text
check_raw_and_hidden
check_real
finish mount/configs
