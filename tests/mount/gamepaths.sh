#!/usr/bin/env bash
# gamepaths.sh - -o gamepaths through a real mount: archives at their
# prefixes (rtmgen -a's archives with their entries renamed and prefix set),
# three of them overlapping and nested, the source whose path sorts last
# shown, conflicts.txt exact at stat and naming every source, an archive
# rewritten and removed while mounted (the tree and conflicts.txt follow
# within a second), a loose $PBOPREFIX$ folder, show_other, one archive as
# SOURCE; the root's missing.txt stats and reads as listed (with and without
# show_other); the real archive and addons of ../shared at their game paths with
# the normal mount's views (diff -r).
NAME=gamepaths
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt N=$T/normal
export LC_ALL=C

# pbo_at OUT PREFIX [NAME FILE]...: an archive of rtmgen -a (pbo_write.c)
# whose entries are named NAME and whose prefix is PREFIX: rtmgen names
# them DIR\NAME from their last two path components and gives every
# archive the prefix rtmfs\packed, so the names are staged and then
# renamed in the table (data offsets follow from the table; rtmfs never
# checks the trailing SHA-1).
pbo_at() {
    local out=$1 prefix=$2 files=() names=() i=0 st
    shift 2
    st=$(mktemp -d "$T/stage.XXXXXX")
    while [ $# -gt 0 ]; do
        mkdir -p "$st/e$i" && cp "$2" "$st/e$i/f.rtm"
        files+=("$st/e$i/f.rtm") names+=("e$i\\f.rtm" "$1")
        i=$((i + 1))
        shift 2
    done
    "$RTMGEN" -a "$out" "${files[@]}" || return 1
    perl -e 'my ($f, $p, @kv) = @ARGV; local $/; open(my $h, "<:raw", $f) or die;
        $_ = <$h>; s/prefix\0rtmfs\\packed\0/prefix\0$p\0/ or die "no prefix";
        while (my ($k, $v) = splice(@kv, 0, 2)) { s/\Q$k\E\0/$v\0/ or die "no $k" }
        open($h, ">:raw", $f) or die; print $h $_' "$out" "$prefix" "${names[@]}"
}

need_fuse "game path mounts"
G=$T/gen
mkdir -p "$S/@ace/addons" "$S/@zz_override/addons" "$S/addons/loose/anims" "$G"
"$RTMGEN" "$G" >/dev/null && "$RTMGEN" -p "$G/sample.pbo" || { fail "rtmgen"; exit 1; }
GEST='z\ace\addons\gestures'
write_sources() {
    pbo_at "$S/@ace/addons/gestures.pbo" "$GEST" 'anim\walk.rtm' "$G/walk.rtm" \
        'anim\wave.rtm' "$G/wave_v3.rtm"
    pbo_at "$S/@zz_override/addons/gestures.pbo" 'z\ACE\addons\gestures\' \
        'anim\Walk.rtm' "$G/run_v5.rtm"
    # nested: its prefix is above the others', its entries merge into theirs
    pbo_at "$S/@ace/addons/ace_main.pbo" '\z\\ace\.\addons' \
        'gestures\anim\walk.rtm' "$G/step_props.rtm" 'gestures\anim\extra.rtm' "$G/reload_v4.rtm" \
        'main\idle.rtm' "$G/idle_v5_raw.rtm"
    printf 'prefix=x\\loose\\addons\\main\n' > "$S/addons/loose/\$PBOPREFIX\$"
    cp "$G/walk.rtm" "$S/addons/loose/anims/Sit.rtm"
}
write_sources

lists() { [ "$(ls "$1" | tr '\n' ' ')" = "$2" ]; }
shows() { cmp -s "$1/header.txt" <("$RTMCAT" "$2" header.txt); }
size_exact() { [ "$(stat -c %s "$1")" = "$(wc -c < "$1")" ]; }
# the root's missing.txt, as listed: a file that stat finds and cat reads,
# its size exact (it was listed but not found under -o gamepaths)
missing_reads() { [ -f "$1/missing.txt" ] && cat "$1/missing.txt" >/dev/null && size_exact "$1/missing.txt"; }
conflict_line() {
    printf '%s\t%s\n' 'z\ACE\addons\gestures\anim\Walk.rtm' \
        "@zz_override/addons/gestures.pbo	@ace/addons/gestures.pbo	@ace/addons/ace_main.pbo"
}

# The merged tree, the order rule, case, conflicts.txt; the views are the
# normal mount's, byte for byte.
check_merge() {
    local before=$FAILS A=$M/z/ace/addons/gestures/anim
    lists "$M" "check.txt conflicts.txt missing.txt x z " || fail "root lists: $(ls "$M")"
    lists "$M/z" "ACE " || fail "z/ lists $(ls "$M/z"), not the shown source's spelling"
    lists "$M/z/ace/addons" "gestures main " || fail "addons/ lists $(ls "$M/z/ace/addons")"
    lists "$A" "Walk.rtm extra.rtm wave.rtm " || fail "anim/ lists $(ls "$A")"
    shows "$A/WALK.RTM" "$G/run_v5.rtm" || fail "walk.rtm is not @zz_override's"
    shows "$M/z/ace/addons/main/idle.rtm" "$G/idle_v5_raw.rtm" || fail "nested archive's idle.rtm"
    shows "$M/x/loose/addons/main/anims/Sit.rtm" "$G/walk.rtm" || fail "loose addon's Sit.rtm"
    check_anim "$G/reload_v4.rtm" "$A/extra.rtm" quick
    size_exact "$M/conflicts.txt" || fail "conflicts.txt: stat size != its bytes"
    cmp -s "$M/conflicts.txt" <(conflict_line) || fail "conflicts.txt: $(cat -A "$M/conflicts.txt")"
    missing_reads "$M" || fail "missing.txt: listed, but no file whose stat size is its bytes"
    do_mount "$S" "$N" -o noindex || return
    diff -r "$N/@zz_override/addons/gestures.pbo/anim/Walk.rtm" "$A/Walk.rtm" >"$T/diff" \
        || fail "views differ from the normal mount's: $(head -5 "$T/diff")"
    diff -r "$N/addons/loose/anims/Sit.rtm" "$M/x/loose/addons/main/anims/Sit.rtm" >"$T/diff" \
        || fail "loose views differ: $(head -5 "$T/diff")"
    do_umount "$N"
    [ "$(find "$M" -name header.txt | wc -l)" = 5 ] || fail "find: $(find "$M" -name header.txt)"
    block_ok "$before" "three overlapping archives, a nested one and a loose addon merge at their prefixes; the last path shown; conflicts.txt"
}

# A rewrite and a removal show within a second, conflicts.txt with them.
check_changes() {
    local before=$FAILS A=$M/z/ace/addons/gestures/anim
    pbo_at "$T/new.pbo" "$GEST" 'anim\other.rtm' "$G/wave_v3.rtm"
    cat "$T/new.pbo" > "$S/@zz_override/addons/gestures.pbo"                 # rewritten
    within_1s shows "$A/walk.rtm" "$G/walk.rtm" || fail "rewrite: walk.rtm is not @ace's now"
    within_1s lists "$A" "extra.rtm other.rtm walk.rtm wave.rtm " || fail "rewrite: anim/ lists $(ls "$A")"
    want() { printf '%s\t%s\t%s\n' 'z\ace\addons\gestures\anim\walk.rtm' \
        @ace/addons/gestures.pbo @ace/addons/ace_main.pbo; }
    within_1s cmp -s "$M/conflicts.txt" <(want) || fail "rewrite: conflicts.txt: $(cat "$M/conflicts.txt")"
    size_exact "$M/conflicts.txt" || fail "conflicts.txt size after the rewrite"
    rm "$S/@ace/addons/ace_main.pbo"                                        # removed
    within_1s absent "$M/z/ace/addons/main" || fail "removal: main/ still there"
    within_1s test ! -s "$M/conflicts.txt" || fail "removal: conflicts.txt: $(cat "$M/conflicts.txt")"
    [ "$(stat -c %s "$M/conflicts.txt")" = 0 ] || fail "conflicts.txt: not empty at stat"
    cp "$T/new.pbo" "$S/@ace/addons/added.pbo"                              # added
    within_1s test -d "$A/other.rtm" || fail "added archive not seen"
    cp "$G/wave_v3.rtm" "$S/addons/loose/anims/New.rtm"                    # in a loose addon
    within_1s test -d "$M/x/loose/addons/main/anims/New.rtm" || fail "a loose addon's new file not seen"
    rm "$S/addons/loose/anims/New.rtm"
    block_ok "$before" "a rewritten, removed and added archive, and a loose addon's new file, change the tree and conflicts.txt within a second${1:-}"
}

# Listing the game's root reads each archive's header properties, never a
# table (none is loaded, from the archive or the index); the persistent
# index remembers each prefix, so a later mount reads no archive at all.
stat_of() { awk -v k="$1" '$1 == k {print $2}' "$T/stats"; }
check_index() {
    local before=$FAILS round
    for round in first later; do
        RTMFS_STATS=$T/stats fg_mount "$S" "$M" -o gamepaths,index="$T/ix.sqlite" || return
        lists "$M" "check.txt conflicts.txt missing.txt x z " || fail "$round: root lists $(ls "$M")"
        do_umount "$M"
        [ "$(stat_of loads)" = 0 ] || fail "$round mount: $(stat_of loads) loads"
    done
    [ "$(stat_of index_hits)" = 3 ] || fail "later mount: $(stat_of index_hits) index hits, not 3 prefixes"
    block_ok "$before" "the game's root lists from the archives' headers, then from the index's prefixes: no table loaded"
}

# show_other: other entries and configs as the normal mount shows them;
# one archive as SOURCE at its prefix.
check_other_and_single() {
    local before=$FAILS P=$M/rtmfs/samples
    do_mount "$G/sample.pbo" "$M" -o gamepaths,show_other,noindex || return
    lists "$M" "check.txt conflicts.txt missing.txt rtmfs " || fail "one archive: root lists $(ls "$M")"
    missing_reads "$M" || fail "show_other: missing.txt listed, but it does not stat and read"
    lists "$P" "anims config.cpp texts " || fail "show_other: lists $(ls "$P")"
    do_mount "$G/sample.pbo" "$N" -o show_other,noindex || return
    diff -r "$N/texts" "$P/texts" && cmp -s "$N/config.cpp" "$P/config.cpp" || fail "other entries"
    do_umount "$N"
    check_anim "$G/sample.pbo/anims/walk.rtm" "$P/ANIMS/walk.rtm" quick
    [ ! -s "$M/conflicts.txt" ] || fail "one archive: conflicts"
    do_umount "$M"
    block_ok "$before" "show_other passes entries through; one archive as SOURCE shows at its prefix"
}

# The real archive and addons at their game paths, with the normal
# mount's views of the same files (the archive alone as SOURCE, the addons'
# folder as it is).
check_real() {
    local before=$FAILS A=$SHARED/archives/ace_goggles.pbo D=$SHARED/addons
    if [ ! -f "$A" ] || [ ! -d "$D/aur" ] || [ ! -d "$D/grad_captive" ]; then
        skip "no $SHARED/archives or addons" "real archive and addons"
        return
    fi
    do_mount "$A" "$M" -o gamepaths,noindex || return
    do_mount "$A" "$N" -o noindex || return
    diff -r "$N/anim" "$M/z/ace/addons/goggles/anim" >"$T/diff" \
        || fail "ace_goggles anim/: $(head -3 "$T/diff")"
    do_umount "$N"
    do_umount "$M"
    do_mount "$D" "$M" -o gamepaths,noindex || return
    do_mount "$D" "$N" -o noindex || return
    lists "$M" "AUR_AdvancedUrbanRappelling check.txt conflicts.txt missing.txt x " || fail "addons: root lists $(ls "$M")"
    missing_reads "$M" || fail "addons: missing.txt listed, but it does not stat and read"
    diff -r "$N/aur/addons/AUR_AdvancedUrbanRappelling/anims" \
        "$M/AUR_AdvancedUrbanRappelling/anims" >"$T/diff" || fail "aur: $(head -3 "$T/diff")"
    diff -r "$N/grad_captive/addons/functions/rtms" \
        "$M/x/grad_captiveWalking/addons/functions/rtms" >"$T/diff" \
        || fail "grad_captive: $(head -3 "$T/diff")"
    [ "$(find "$M" -name '*.rtm' | wc -l)" = "$(find "$N" -name '*.rtm' | grep -vc '/include/')" ] \
        || fail "find counts differ"
    do_umount "$N"
    do_umount "$M"
    do_mount "$D" "$M" -o gamepaths,show_other,noindex || return
    missing_reads "$M" || fail "addons, show_other: missing.txt listed, but it does not stat and read"
    do_umount "$M"
    block_ok "$before" "ace_goggles.pbo, aur and grad_captive at their game paths with the normal mount's views; missing.txt reads (and with show_other)"
}

do_mount "$S" "$M" -o gamepaths,noindex && { check_merge; check_changes; do_umount "$M"; }
rm -r "$S" && mkdir -p "$S/@ace/addons" "$S/@zz_override/addons" "$S/addons/loose/anims" && write_sources
RTMFS_TEST_NO_INOTIFY=1 do_mount "$S" "$M" -o gamepaths,noindex && { check_changes " (no inotify)"; do_umount "$M"; }
check_index
check_other_and_single
check_real
finish mount/gamepaths
