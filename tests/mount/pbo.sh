#!/usr/bin/env bash
# make check: long
# pbo.sh - PBO archives through a real mount, with ordinary tools: each
# archive is a folder of its entries, its RTM entries have exactly the views
# of the same bytes as a loose file, pbo.txt shows its header, other entries
# read back byte for byte (show_other), a view reads only its entry's bytes,
# changes to an archive show like changes to a loose file, and broken or
# hostile archives show error.txt without harming the mount.  Archives come
# from rtmgen (-p: the sample set, -a: given files) and pbo_raw below; real
# RTMs from ../shared/corpus go in one when it is there.
NAME=pbo
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt A=$T/src/@mod/addons
export LC_ALL=C

# u32 N: four little-endian bytes.
u32() {
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) \
        $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}

# commas N: N with thousands separators, as rtmfs's messages write it
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }

# pbo_raw OUT [NAME FILE]...: an archive of stored entries with any names,
# no header properties and no trailer, as the oldest packers wrote them.
pbo_raw() {
    local out=$1 files=()
    shift
    {
        while [ $# -gt 0 ]; do
            printf '%s\0' "$1"; u32 0; u32 0; u32 0; u32 0; u32 "$(stat -c %s "$2")"
            files+=("$2")
            shift 2
        done
        printf '\0'; u32 0; u32 0; u32 0; u32 0; u32 0
        [ ${#files[@]} -eq 0 ] || cat "${files[@]}"
    } > "$out"
}

# The sample pairs: loose file in $S/loose, entry in sample.pbo.
PAIRS="walk.rtm:anims/walk.rtm step_props.rtm:anims/step_props.rtm
wave_v3.rtm:anims/binarised/wave_v3.rtm run_v5.rtm:anims/binarised/run_v5.rtm"

setup() {
    mkdir -p "$A" "$S/loose" "$S/hostile" "$T/gen" "$T/files/sub" "$T/alt/anims"
    "$RTMGEN" "$T/gen" >/dev/null && "$RTMGEN" -p "$A/sample.pbo" || exit 1
    cp "$T/gen/"{walk,step_props,wave_v3,run_v5}.rtm "$S/loose/"
    cp "$A/sample.pbo" "$A/UPPER.PBO"
    echo "a backup, not an archive" > "$A/sample.pbo.bak"
    # other entries, stored and LZSS, to read back
    seq 1 20000 > "$T/files/notes.txt"
    { head -c 100000 /dev/urandom; seq 1 30000; } > "$T/files/blob.bin"
    echo "read me" > "$T/files/sub/readme.txt"
    "$RTMGEN" -a "$S/packed.pbo" "$T/gen/walk.rtm" "$T/files/notes.txt" "$T/files/blob.bin" \
        "$T/files/sub/readme.txt" || exit 1
    # the same entry name with other bytes, for rewrites
    cp "$T/gen/wave_v3.rtm" "$T/alt/anims/walk.rtm"
    "$RTMGEN" -a "$T/alt.pbo" "$T/alt/anims/walk.rtm" || exit 1
}

check_tree() {
    local m=$1 d=$1/@mod/addons/sample.pbo pair loose inner before
    [ "$(stat -c %F "$d")" = directory ] || fail "sample.pbo is not a directory"
    [ "$(ls "$m/@mod/addons" | tr '\n' ' ')" = "UPPER.PBO sample.pbo " ] \
        || fail "addons lists: $(ls "$m/@mod/addons" | tr '\n' ' ')"
    # a folder with no animation below it (texts/) is left out
    [ "$(ls "$d" | tr '\n' ' ')" = "anims pbo.txt " ] || fail "sample.pbo lists: $(ls "$d")"
    [ -e "$d/texts" ] && fail "texts/ (no animation below it) shown without show_other"
    [ "$(ls "$d/anims" | tr '\n' ' ')" = "binarised step_props.rtm walk.rtm " ] \
        || fail "sample.pbo/anims lists: $(ls "$d/anims")"
    cmp -s "$d/pbo.txt" <("$RTMCAT" "$A/sample.pbo" pbo.txt) || fail "pbo.txt differs from rtmcat's"
    grep -qx 'property prefix: rtmfs\\samples' "$d/pbo.txt" || fail "pbo.txt: no prefix"
    before=$FAILS
    for pair in $PAIRS; do
        loose=${pair%%:*} inner=${pair#*:}
        check_anim "$A/sample.pbo/$inner" "$d/$inner"
        # every view but states.txt, whose game_path line says where the file lies
        diff -r -x states.txt "$m/loose/$loose" "$d/$inner" >/dev/null \
            || fail "$inner: views differ from the loose file's"
        diff -r -x states.txt "$d/$inner" "$m/@mod/addons/UPPER.PBO/$inner" >/dev/null \
            || fail "UPPER.PBO/$inner"
    done
    block_ok "$before" "RTM entries have exactly the views of the loose files"
    cmp -s "$d/ANIMS/Binarised/RUN_V5.RTM/header.txt" "$m/loose/run_v5.rtm/header.txt" \
        && ok "names inside an archive match in any case" || fail "case-insensitive lookup"
    local n_loose n_arch
    n_loose=$(grep -rl lefthand --include=bones.txt "$m/loose" | wc -l)
    n_arch=$(grep -rl lefthand --include=bones.txt "$m/@mod" | wc -l)
    [ "$n_loose" -gt 0 ] && [ "$n_arch" = $((2 * n_loose)) ] \
        && ok "grep -r finds bones in archives ($n_arch)" || fail "grep -r: $n_arch, loose $n_loose"
    sizes_read "$m/@mod" > "$T/sizes" &&
        ok "every stat size in the archives equals the bytes read ($(tail -1 "$T/sizes"))" ||
        fail "stat size != bytes read: $(head -3 "$T/sizes" | tr '\n' ' ')"
    [ "$(stat -c %i "$d/anims/walk.rtm/bones.txt")" = "$(stat -c %i "$d/anims/walk.rtm/bones.txt")" ] \
        || fail "unstable inode"
    local e
    e=$( (touch "$d/new") 2>&1 ); [[ $e == *"Read-only"* ]] || fail "touch in an archive: $e"
    e=$( (rm -rf "$d/anims") 2>&1 ); [[ $e == *"Read-only"* ]] || fail "rm in an archive: $e"
    [ -e "$m/@mod/addons/sample.pbo.bak" ] && fail "other file shown without show_other"
    [ -e "$d/config.cpp" ] && fail "config.cpp shown without show_other"
}

# Other entries read back exactly: stored, LZSS, whole and from an offset.
check_other_entries() {
    local m=$T/mnt_other before=$FAILS
    do_mount "$S" "$m" -o show_other || return
    local p=$m/packed.pbo
    [ "$(ls "$p" | tr '\n' ' ')" = "files gen pbo.txt sub " ] || fail "packed.pbo lists: $(ls "$p")"
    [ -d "$m/@mod/addons/sample.pbo/texts" ] || fail "texts/ not shown with show_other"
    cmp -s "$p/files/notes.txt" "$T/files/notes.txt" || fail "stored entry bytes"
    cmp -s "$p/files/blob.bin" "$T/files/blob.bin" || fail "LZSS entry bytes"
    cmp -s "$p/sub/readme.txt" "$T/files/sub/readme.txt" || fail "readme bytes"
    cmp -s <(dd if="$p/files/blob.bin" bs=1000 skip=77 2>/dev/null) \
        <(dd if="$T/files/blob.bin" bs=1000 skip=77 2>/dev/null) || fail "LZSS entry from an offset"
    cmp -s <(dd if="$p/files/notes.txt" bs=999 skip=3 count=5 2>/dev/null) \
        <(dd if="$T/files/notes.txt" bs=999 skip=3 count=5 2>/dev/null) || fail "stored entry slice"
    [ "$(stat -c %s "$p/files/blob.bin")" = "$(stat -c %s "$T/files/blob.bin")" ] || fail "LZSS size"
    [ "$(stat -c %A "$p/files/notes.txt")" = "-r--r--r--" ] || fail "entry mode"
    [ -f "$m/@mod/addons/sample.pbo.bak" ] || fail "sample.pbo.bak not shown with show_other"
    [ "$(wc -c < "$m/@mod/addons/sample.pbo/config.cpp")" -gt 0 ] || fail "sample config.cpp"
    check_anim "$S/packed.pbo/gen/walk.rtm" "$p/gen/walk.rtm" quick
    do_umount "$m"
    block_ok "$before" "other entries read back exactly (show_other)"
}

# Reading a view reads that entry and the table, not the archive.
check_reads_one_entry() {
    local m=$T/mnt_io before after
    head -c 8000000 /dev/urandom > "$T/big.paa"
    mkdir -p "$T/io"
    pbo_raw "$T/io/big.pbo" 'data\big.paa' "$T/big.paa" 'anims\walk.rtm' "$T/gen/walk.rtm"
    fg_mount "$T/io" "$m" || return
    before=$(awk '$1 == "rchar:" {print $2}' "/proc/$RTMFS_PID/io")
    cmp -s "$m/big.pbo/anims/walk.rtm/bones.txt" <("$RTMCAT" "$T/gen/walk.rtm" bones.txt) \
        || fail "bones.txt of the entry after a big one"
    after=$(awk '$1 == "rchar:" {print $2}' "/proc/$RTMFS_PID/io")
    [ $((after - before)) -lt 1000000 ] \
        && ok "a view read $((after - before)) bytes of an 8.2 MB archive" \
        || fail "reading one entry read $((after - before)) bytes"
    do_umount "$m"
}

check_corpus() {
    local corpus=$SHARED/corpus m=$T/mnt_corpus src files=() n=0 before=$FAILS
    have_corpus || { skip "no ../shared" "real RTMs inside an archive"; return; }
    mkdir -p "$T/corpus"
    mapfile -d '' files < <(find "$corpus" -iname '*.rtm' -type f -print0)
    "$RTMGEN" -a "$T/corpus/corpus.pbo" "${files[@]}" || { fail "rtmgen -a corpus"; return; }
    do_mount "$T/corpus" "$m" -o cache_size=16M || return
    for src in "${files[@]}"; do
        check_anim "$src" "$m/corpus.pbo/$(basename "$(dirname "$src")")/$(basename "$src")" quick
        n=$((n + 1))
    done
    do_umount "$m"
    block_ok "$before" "shared corpus: $n real RTMs inside one archive"
}

pbo_is() { cmp -s "$1" <("$RTMCAT" "$2" pbo.txt); }

# The source-change rules of loose files, for an archive.
check_changes() {
    local m=$1 d=$1/@mod/addons/sample.pbo before=$FAILS
    cat "$d/pbo.txt" "$d/anims/walk.rtm/header.txt" >/dev/null
    cat "$T/alt.pbo" > "$A/sample.pbo"                              # rewritten in place
    within_1s pbo_is "$d/pbo.txt" "$A/sample.pbo" || fail "rewritten archive not seen"
    within_1s cmp -s "$d/anims/walk.rtm/header.txt" "$m/loose/wave_v3.rtm/header.txt" \
        || fail "rewritten entry not seen"
    [ -e "$d/anims/step_props.rtm" ] && fail "an entry the new archive lacks is still there"
    cp "$A/UPPER.PBO" "$T/tmp.pbo" && mv "$T/tmp.pbo" "$A/sample.pbo"   # replaced
    within_1s pbo_is "$d/pbo.txt" "$A/sample.pbo" || fail "replaced archive not seen"
    within_1s cmp -s "$d/anims/walk.rtm/header.txt" "$m/loose/walk.rtm/header.txt" \
        || fail "replaced entry not seen"
    cp "$A/UPPER.PBO" "$A/added.pbo"
    within_1s test -s "$m/@mod/addons/added.pbo/anims/walk.rtm/bones.txt" || fail "added archive"
    mv "$A/added.pbo" "$A/renamed.pbo"
    within_1s absent "$m/@mod/addons/added.pbo" && within_1s test -d "$m/@mod/addons/renamed.pbo/anims" \
        || fail "renamed archive"
    rm "$A/renamed.pbo"
    within_1s absent "$m/@mod/addons/renamed.pbo" || fail "removed archive"
    head -c 200 "$A/UPPER.PBO" > "$A/sample.pbo"                    # now broken
    within_1s test -e "$d/error.txt" || fail "broken archive not seen"
    check_broken "$S" @mod/addons/sample.pbo "$d"
    cp "$A/UPPER.PBO" "$A/sample.pbo"
    within_1s test -d "$d/anims" || fail "repaired archive not seen"
    block_ok "$before" "changes to archives show within 1 s"
}

# A view kept open across a rewrite of its archive reads its first version
# to the end, or fails: never a mix.
check_open_version() {
    local m=$1 v=$1/@mod/addons/sample.pbo/anims/walk.rtm/plain.rtm before=$FAILS
    "$RTMCAT" "$A/sample.pbo/anims/walk.rtm" plain.rtm > "$T/old_plain"
    read_across_rewrite "$v" "$T/old_plain" "$T/alt.pbo" "$A/sample.pbo"
    cmp -s "$v" <("$RTMCAT" "$A/sample.pbo/anims/walk.rtm" plain.rtm) || fail "new open, old bytes"
    cp "$A/UPPER.PBO" "$A/sample.pbo"
    within_1s pbo_is "$m/@mod/addons/sample.pbo/pbo.txt" "$A/sample.pbo" || fail "restore not seen"
    block_ok "$before" "an open view never mixes two versions of an archive"
}

setup_hostile() {
    local h=$S/hostile n size
    size=$(stat -c %s "$A/sample.pbo")
    for n in 0 1 10 100 266 300; do                 # inside the table (303 bytes)
        head -c "$n" "$A/sample.pbo" > "$h/cut_$n.pbo"
    done
    head -c 4096 /dev/zero | tr '\0' A > "$h/garbage.pbo"
    { printf 'x.rtm\0'; u32 0; u32 0; u32 0; u32 0; u32 4294967295
      printf '\0'; u32 0; u32 0; u32 0; u32 0; u32 0; } > "$h/huge.pbo"
    head -c $((size - 21)) "$A/sample.pbo" > "$h/no_trailer.pbo"
    { cat "$A/sample.pbo"; printf 'junk'; } > "$h/odd_trailer.pbo"
    # an LZSS RTM entry whose stream is damaged (walk.rtm comes first, packed)
    cp "$A/sample.pbo" "$h/bad_walk.pbo"
    printf '\x55\xaa\x55\xaa' | dd of="$h/bad_walk.pbo" bs=1 seek=2000 conv=notrunc 2>/dev/null
    # names: escapes, separators, newline, pbo.txt, duplicates, a file that
    # is also a folder, too long for the kernel, no name at all
    echo one > "$T/one"; echo two > "$T/two"
    head -c 900 "$T/gen/run_v5.rtm" > "$T/cut.rtm"
    pbo_raw "$h/names.pbo" '..\..\..\escape.txt' "$T/one" 'a\\b\.\c.txt' "$T/one" \
        "new"$'\n'"line.txt" "$T/one" 'pbo.txt' "$T/two" 'DUP.txt' "$T/one" 'dup.TXT' "$T/two" \
        'both' "$T/one" 'both\hidden.txt' "$T/two" "$(printf 'L%.0s' $(seq 300)).txt" "$T/one" \
        'anims\bad.rtm' "$T/cut.rtm" 'anims\good.rtm' "$T/gen/walk.rtm" '\\' "$T/one"
}

check_hostile() {
    local m=$T/mnt_hostile h=$S/hostile n before
    do_mount "$S" "$m" -o show_other,cache_size=1M || return
    before=$FAILS
    for n in 0 1 10 100 266 300 garbage; do
        [ -e "$h/cut_$n.pbo" ] && n=cut_$n
        check_broken "$S" "hostile/$n.pbo" "$m/hostile/$n.pbo"
    done
    block_ok "$before" "archives cut inside their table, and garbage, show error.txt with rtmcat's message"
    # an entry of 4 GiB in a 47-byte file: the table is whole, the entry cut off
    [ "$(ls "$m/hostile/huge.pbo" | tr '\n' ' ')" = "error.txt pbo.txt " ] \
        && grep -qx 'hostile/huge.pbo: archive cut short at byte 47: 1 of 1 entries lie past the end' \
            "$m/hostile/huge.pbo/error.txt" || fail "huge.pbo: $(ls "$m/hostile/huge.pbo")"
    grep -qx 'trailer: none' "$m/hostile/no_trailer.pbo/pbo.txt" || fail "no trailer"
    grep -qx 'trailer: unexpected (25 bytes after the data)' "$m/hostile/odd_trailer.pbo/pbo.txt" \
        || fail "odd trailer: $(grep trailer "$m/hostile/odd_trailer.pbo/pbo.txt")"
    check_anim "$A/sample.pbo/anims/walk.rtm" "$m/hostile/odd_trailer.pbo/anims/walk.rtm" quick
    check_broken "$S" hostile/bad_walk.pbo/anims/walk.rtm "$m/hostile/bad_walk.pbo/anims/walk.rtm"
    check_anim "$A/sample.pbo/anims/step_props.rtm" "$m/hostile/bad_walk.pbo/anims/step_props.rtm" quick
    local d=$m/hostile/names.pbo
    # rtm(5) PBO paths: the long name cut to 200 bytes and its hash, the
    # second DUP and the file "both" renamed by their number in the table
    [ "$(ls "$d" | sed 's/^L\{200\}~[0-9a-f]\{8\}\.txt$/LONG/' | tr '\n' '|')" = \
        "DUP.txt|LONG|a|anims|both|both~7|dup~6.TXT|escape.txt|new|line.txt|pbo.txt|" ] \
        || fail "names.pbo lists: $(ls "$d" | tr '\n' '|')"
    cmp -s "$d"/LLLL*.txt "$T/one" && cmp -s "$d/dup~6.TXT" "$T/two" && cmp -s "$d/both~7" "$T/one" \
        && cmp -s "$d/both/hidden.txt" "$T/two" || fail "renamed entries' content"
    grep -q "^entry 6 at byte [0-9]* 'dup.TXT': duplicate: .* as entry 5, which keeps it, shown as 'dup~6.TXT'$" "$d/pbo.txt" \
        && grep -q "^entry 7 at byte [0-9]* 'both': renamed: a folder has its path (entry 8 lies in it), shown as 'both~7'$" "$d/pbo.txt" \
        && grep -q "^entry 9 .*: renamed: a name part longer than 255 bytes, shown as 'L" "$d/pbo.txt" \
        && grep -q "^entry 1 at byte [0-9]* '..\\\\..\\\\..\\\\escape.txt': renamed: a '..' part dropped" "$d/pbo.txt" \
        || fail "pbo.txt names the tricks: $(grep '^entry' "$d/pbo.txt")"
    [ ! -e "$T/escape.txt" ] && [ ! -e "$S/escape.txt" ] && cmp -s "$d/escape.txt" "$T/one" \
        || fail "..\\ in a name"
    cmp -s "$d/a/b/c.txt" "$T/one" || fail "odd separators"
    cmp -s "$d/new"$'\n'"line.txt" "$T/one" || fail "newline in a name"
    grep -q '^format: PBO' "$d/pbo.txt" || fail "an entry named pbo.txt hides the archive's"
    cmp -s "$d/dup.txt" "$T/one" || fail "duplicate names: the first keeps the name"
    [ -d "$d/both" ] || fail "a name that is file and folder: the folder"
    check_broken "$S" hostile/names.pbo/anims/bad.rtm "$d/anims/bad.rtm"
    check_anim "$T/gen/walk.rtm" "$d/anims/good.rtm" quick
    find "$m/hostile" -type f -exec cat {} + >/dev/null 2>&1
    ls -R "$m" >/dev/null 2>&1
    mounted "$m" && [ -d "$m/@mod/addons/UPPER.PBO/anims" ] \
        && ok "hostile archives: the mount is alive and well" || fail "mount died"
    local blob=$m/hostile/bad_cfg.pbo/config.cpp
    size=$(stat -c %s "$A/sample.pbo")
    # config.cpp (LZSS) ends 37 + 21 bytes before the end: break its checksum
    cp "$A/sample.pbo" "$h/bad_cfg.pbo"
    printf '\x7f' | dd of="$h/bad_cfg.pbo" bs=1 seek=$((size - 59)) conv=notrunc 2>/dev/null
    within_1s test -e "$blob" || fail "bad_cfg.pbo not seen"
    cat "$blob" >/dev/null 2>"$T/eio" && fail "a damaged LZSS entry read without error"
    grep -q "Input/output error" "$T/eio" || fail "damaged entry: $(cat "$T/eio")"
    do_umount "$m"
}

# An archive cut short at several points (a download that stopped): the
# entries that lie wholly inside the file read exactly, the cut ones are
# absent, and error.txt and pbo.txt name the cut.  Stored entries of known
# sizes (pbo_raw) put the cut points exactly.
check_cut_archives() {
    local m=$T/mnt_cut c=$S/cut e n k whole before=$FAILS
    local names=('anims\walk.rtm' 'anims\wave.rtm' 'data\notes.txt' 'anims\run.rtm')
    local files=("$T/gen/walk.rtm" "$T/gen/wave_v3.rtm" "$T/files/notes.txt" "$T/gen/run_v5.rtm")
    local args=() ends=() at=0
    for k in 0 1 2 3; do
        args+=("${names[k]}" "${files[k]}")
        at=$((at + ${#names[k]} + 1 + 20))
    done
    at=$((at + 21))                                 # the end header: the table's size
    for k in 0 1 2 3; do at=$((at + $(stat -c %s "${files[k]}"))); ends+=("$at"); done
    mkdir -p "$c"
    pbo_raw "$T/full.pbo" "${args[@]}"
    local cuts=("${ends[0]}" $((ends[1] - 1)) $((ends[2] + 10)) $((ends[3] - 1)))
    for n in "${cuts[@]}"; do head -c "$n" "$T/full.pbo" > "$c/cut_$n.pbo"; done
    do_mount "$S" "$m" -o show_other || return
    for n in "${cuts[@]}"; do
        e=$m/cut/cut_$n.pbo whole=0
        for k in 0 1 2 3; do
            local path=${names[k]//\\//}
            if [ "${ends[k]}" -le "$n" ]; then
                whole=$((whole + 1))
                if [[ $path == *.rtm ]]; then
                    check_anim "${files[k]}" "$e/$path" quick
                else
                    cmp -s "$e/$path" "${files[k]}" || fail "cut_$n: $path differs"
                fi
            else
                [ -e "$e/$path" ] && fail "cut_$n: $path lies past the end but shows"
            fi
        done
        local want="archive cut short at byte $(commas "$n"): $((4 - whole)) of 4 entries lie past the end"
        [ "$(cat "$e/error.txt")" = "cut/cut_$n.pbo: $want" ] || fail "cut_$n error.txt: $(cat "$e/error.txt") != $want"
        [ "$(cd "$S" && "$RTMCAT" "cut/cut_$n.pbo" 2>&1 >/dev/null)" = "rtmcat: cut/cut_$n.pbo: $want" ] \
            || fail "cut_$n: rtmcat says: $(cd "$S" && "$RTMCAT" "cut/cut_$n.pbo" 2>&1 >/dev/null)"
        grep -qxF "trailer: none ($want)" "$e/pbo.txt" || fail "cut_$n pbo.txt: $(grep trailer "$e/pbo.txt")"
        ls "$e" | grep -qx error.txt || fail "cut_$n: error.txt not listed"
    done
    do_umount "$m"
    block_ok "$before" "archives cut short: whole entries read exactly, error.txt names the cut (${#cuts[@]} cut points)"
}

# Entry times: an entry's stored time, else the archive's; a folder the
# newest time below it.  rtmgen -a stores each file's mtime.
check_entry_times() {
    local m=$T/mnt_times d=$T/times
    mkdir -p "$d/src/old" "$d/src/new" "$d/arch"
    cp "$T/gen/walk.rtm" "$d/src/old/walk.rtm"
    cp "$T/gen/run_v5.rtm" "$d/src/new/run.rtm"
    touch -d @1000000000 "$d/src/old/walk.rtm"
    touch -d @1300000000 "$d/src/new/run.rtm"
    "$RTMGEN" -a "$d/arch/t.pbo" "$d/src/old/walk.rtm" "$d/src/new/run.rtm" || { fail "rtmgen -a"; return; }
    pbo_raw "$d/arch/nostamp.pbo" 'anims\walk.rtm' "$T/gen/walk.rtm"
    touch -d @1200000000 "$d/arch/t.pbo"
    touch -d @1100000000 "$d/arch/nostamp.pbo"
    do_mount "$d/arch" "$m" || return
    local got want="1000000000 1000000000 1000000000 1300000000 1300000000 1300000000 1200000000 1100000000" before=$FAILS
    got=$(stat -c %Y "$m/t.pbo/old/walk.rtm" "$m/t.pbo/old/walk.rtm/frames/001.csv" "$m/t.pbo/old"         "$m/t.pbo/new/run.rtm/header.txt" "$m/t.pbo/new" "$m/t.pbo" "$m/t.pbo/pbo.txt"         "$m/nostamp.pbo/anims/walk.rtm/bones.txt" | tr '\n' ' ')
    [ "$got" = "$want " ] || fail "times: $got != $want"
    ls -l --time-style=+%Y "$m/t.pbo" | grep -q ' 2001 old$' || fail "ls -l shows: $(ls -l "$m/t.pbo")"
    block_ok "$before" "entry times: stored, else the archive's; folders the newest below"
    do_umount "$m"
}

need_fuse "archive mount tests"
setup
setup_hostile
do_mount "$S" "$M" || exit 1
check_tree "$M"
check_open_version "$M"
check_changes "$M"
do_umount "$M"
check_other_entries
check_reads_one_entry
check_cut_archives
check_entry_times
check_hostile
check_corpus
finish mount/pbo
