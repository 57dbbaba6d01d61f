#!/usr/bin/env bash
# faults.sh - read errors from SOURCE through a real mount: rtmfs over
# faultfs (tests/lib/faultfs.c), a FUSE passthrough whose reads fail as a
# control file says.  SOURCE: two loose animations (plain, BMTR v5), a
# broken one, an archive of two and a rapified config.  For each fault
# (every read EIO; EIO past the first 4 KiB, where a head reads and a full
# parse does not; short counts; end of file at half the size) a fresh
# mount lists every folder and stats and reads every view that a healthy
# mount shows (two and the last of each frames/, joints/, tracks/): each
# answer is the right bytes, EIO, a folder of error.txt, or ENOENT for a
# name its folder does not list; never wrong bytes or a size that is not
# read, nor another error (ESTALE is for a view kept open across a
# rewrite: rtmfs(1)); and the mount stays up.  Then a fresh mount whose
# index a healthy walk filled meets every read failing.
# Then the source heals (the control file emptied, nothing touched: read
# errors are not kept, loader.c) and within a second every folder lists,
# and every view reads, as rtmcat prints it from the healthy file, and a
# later mount with the same index shows the same (nothing of the fault was
# remembered).  The figures: views read, EIO, error.txt, other, per fault.
NAME=faults
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
FAULTFS=$BUILD/tests/faultfs
need_fuse "read errors from SOURCE"
if [ ! -x "$FAULTFS" ]; then
    skip_or_fail "not built: faultfs" "read errors from SOURCE ($FAULTFS: make tests builds it)"
    exit $((FAILS > 0))
fi

# Unmounts in reverse order (rtmfs before the faultfs below it), then
# mount.sh's cleanup (which kills faultfs if it is still running).
# shellcheck disable=SC2317  # run by the EXIT trap
faults_cleanup() {
    local i m
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        m=${MOUNTS[i]}
        grep -qs " $m fuse" /proc/mounts && { fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; }
    done
    cleanup
}
trap faults_cleanup EXIT

B=$T/back V=$T/view C=$T/control M=$T/mnt R=$T/ref
mkdir -p "$B" && : > "$C"
"$RTMGEN" "$T/gen" >/dev/null && cp "$T/gen/"{walk,run_v5,broken}.rtm "$B/" &&
    "$RTMGEN" -p "$B/pack.pbo" >/dev/null && head -c 20000 "$T/gen/walk.rtm" | base64 > "$B/notes.txt" &&
    mkdir -p "$T/cfg" && "$BUILD/tests/test_tree_config" --fixtures "$T/cfg" >/dev/null && cp "$T/cfg/config.bin" "$B/" ||
    { fail "fixtures"; finish mount/faults; }
OPTS=(-o show_other)

# faultfs BACK VIEW: VIEW shows BACK, failing as $C says; its stderr (one
# line a fault met) in $T/faultfs.err.
faultfs() {
    mkdir -p "$2"
    MOUNTS+=("$2")
    "$FAULTFS" "$1" "$C" "$2" -f 2>"$T/faultfs.err" &
    PIDS+=($!)
    local _
    for _ in $(seq 200); do
        grep -qs " $2 fuse.faultfs " /proc/mounts && return 0
        sleep 0.05
    done
    mount_failed "faultfs $1 $2" "$T/faultfs.err"
}

# What a healthy mount shows: every folder and file, and a copy of the files.
reference() {
    fg_mount "$B" "$R" "${OPTS[@]}" -o noindex || return 1
    found_broken "$R"
    (cd "$R" && find . -type d | sort) > "$T/dirs"
    # a folder of frames, joints or tracks: its first two and its last
    # views (the others are made the same way), so that a walk stays short
    (cd "$R" && find . -type f | sort) |
        awk -F/ '{ d = $0; sub("/[^/]*$", "", d) }
                 d ~ /\/(frames|joints|tracks)$/ { if (d != last) { if (keep != "") print keep; n = 0; last = d }
                                                  if (++n <= 2) print; else keep = $0; next }
                 { if (keep != "") print keep; keep = ""; last = ""; print }
                 END { if (keep != "") print keep }' > "$T/files"
    cp -r "$R" "$T/want" || fail "copying the reference tree"
    while read -r size p; do SIZE[$p]=$size; done < <(cd "$T/want" && find . -type f -printf '%s %p\n')
    do_umount "$R"
}
declare -A SIZE

# broken.rtm's damage lies past its names: its folder lists the views until
# a first full read fails, and error.txt from then on (rtmfs-views(7),
# ERROR.TXT).  A walk compares the folder as it is after that read.
found_broken() { cat "$1/broken.rtm/header.txt" >/dev/null 2>&1; within_1s lists_only_error "$1/broken.rtm"; }

# The animation folder a view lies in ("" for one outside any).
anim_of() { case $1 in *.rtm/*) echo "${1%%.rtm/*}.rtm" ;; *) echo "" ;; esac; }

# outcome MNT PATH ERR: what a failed stat, ls or cat of PATH (message ERR)
# gave: eio, errtxt (the animation's folder now holds only error.txt,
# which reads), absent (ENOENT for a name its folder does not list: the
# damage of broken.rtm cannot be found while its reads fail, so no
# error.txt yet), or other (printed).
outcome() {
    local m=$1 p=$2 err=$3 a
    a=$(anim_of "$p")
    if [[ $err == *"Input/output error"* ]]; then
        echo eio
    elif [ -n "$a" ] && [[ $err == *"No such file"* ]] && lists_only_error "$m/$a" &&
         cat "$m/$a/error.txt" >/dev/null 2>&1; then
        echo errtxt
    elif [[ $err == *"No such file"* ]] && ls "$(dirname "$m/$p")" >/dev/null 2>&1 &&
         ! ls "$(dirname "$m/$p")" | grep -qxF "$(basename "$p")"; then
        echo absent
    else
        echo "other: $p: $err" >&2
        echo other
    fi
}

# walk_faulted MNT WHAT: lists every folder, stats and reads every file of
# the reference; counts the answers (N[ok], N[eio], N[errtxt], N[other],
# N[wrong]).  A file that reads must be the reference's bytes at the
# reference's size.
declare -A N
walk_faulted() {
    local m=$1 what=$2 p err got o
    N=([ok]=0 [eio]=0 [errtxt]=0 [absent]=0 [other]=0 [wrong]=0 [lists]=0 [list_eio]=0 [list_errtxt]=0)
    while IFS= read -r p; do
        if err=$(ls "$m/$p" 2>&1 >/dev/null); then
            N[lists]=$((N[lists] + 1))
        else
            o=$(outcome "$m" "$p/x" "$err"); o=${o%% *}
            case $o in eio) N[list_eio]=$((N[list_eio] + 1)) ;; errtxt) N[list_errtxt]=$((N[list_errtxt] + 1)) ;;
                       *) N[other]=$((N[other] + 1)) ;; esac
        fi
    done < "$T/dirs"
    while IFS= read -r p; do
        if got=$(stat -c %s "$m/$p" 2>&1) && err=$(cat "$m/$p" 2>&1 >"$T/got"); then
            if [ "$got" = "${SIZE[$p]}" ] && cmp -s "$T/got" "$T/want/$p"; then
                N[ok]=$((N[ok] + 1))
            else
                N[wrong]=$((N[wrong] + 1))
                echo "wrong: $p: stat $got, read $(wc -c < "$T/got") bytes" >&2
            fi
        else
            [[ $got =~ ^[0-9]+$ ]] || err=$got
            o=$(outcome "$m" "$p" "$err")
            N[$o]=$((N[$o] + 1))
        fi
    done < "$T/files"
    echo "$what: $(wc -l < "$T/dirs") folders: ${N[lists]} listed, ${N[list_eio]} EIO," \
         "${N[list_errtxt]} error.txt; $(wc -l < "$T/files") views: ${N[ok]} read right," \
         "${N[eio]} EIO, ${N[errtxt]} error.txt, ${N[absent]} not listed, ${N[other]} other errors, ${N[wrong]} wrong"
}

# healed MNT WHAT: every folder lists as the reference, every view reads
# its bytes, and each animation's as rtmcat prints it from the healthy file.
healed() {
    local m=$1 what=$2 before=$FAILS
    found_broken "$m" || fail "$what: broken.rtm does not show error.txt after a full read"
    diff -r "$T/want" "$m" > "$T/diff" 2>&1 || fail "$what: after healing, differs from a healthy mount: $(head -c 400 "$T/diff")"
    check_anim "$B/walk.rtm" "$m/walk.rtm" quick
    check_anim "$B/run_v5.rtm" "$m/run_v5.rtm" quick
    local a
    for a in $(cd "$m/pack.pbo" && find anims -type d -name '*.rtm'); do
        check_anim "$B/pack.pbo/$a" "$m/pack.pbo/$a" quick
    done
    cmp -s "$m/pack.pbo/texts/readme.txt" <("$RTMCAT" --raw "$B/pack.pbo/texts/readme.txt") ||
        fail "$what: the archive's readme.txt is not rtmcat's"
    check_broken "$B" broken.rtm "$m/broken.rtm"
    cmp -s "$m/config.cpp" <("$RTMCAT" "$B/config.bin") || fail "$what: config.cpp is not rtmcat's text"
    cmp -s "$m/notes.txt" "$B/notes.txt" || fail "$what: notes.txt is not the file's bytes"
    cmp -s "$m/pack.pbo/pbo.txt" <("$RTMCAT" "$B/pack.pbo" pbo.txt) || fail "$what: pbo.txt is not rtmcat's"
    block_ok "$before" "$what: healed without a touch: every folder and view as rtmcat prints it"
}

# one_fault RULE WHAT [warm]: a fresh mount over the faulted view, with a
# fresh index, or (warm) one that a healthy mount's ls -lR filled first, so
# that listings and sizes come from it and only reads meet the fault.
# After the heal, a later mount with the same index shows the healthy tree:
# nothing the fault caused was remembered.
one_fault() {
    local rule=$1 what=$2 ix=$T/ix-${1// /-}${3:+-$3}.sqlite before=$FAILS t0=$SECONDS
    if [ "${3:-}" = warm ]; then
        fg_mount "$V" "$M" "${OPTS[@]}" -o index="$ix" || return
        ls -lR "$M" >/dev/null 2>&1
        do_umount "$M"
    fi
    echo "* $rule" > "$C"
    : > "$T/faultfs.err"
    fg_mount "$V" "$M" "${OPTS[@]}" -o index="$ix" || return
    walk_faulted "$M" "$what" 2> "$T/walk.err"
    local met; met=$(grep -c '^faultfs: ' "$T/faultfs.err")
    [ "$met" -gt 0 ] || fail "$what: faultfs met no read (the test tests nothing)"
    [ "${N[wrong]}" = 0 ] || fail "$what: ${N[wrong]} views read wrong bytes or sizes: $(grep '^wrong' "$T/walk.err" | tr '\n' ' ')"
    [ "${N[other]}" = 0 ] || fail "$what: ${N[other]} answers neither EIO nor error.txt: $(grep -m3 '^other' "$T/walk.err")"
    mounted "$M" || { fail "$what: the mount died"; return; }
    block_ok "$before" "$what: $met faults met; every answer right bytes, EIO or error.txt; the mount stays up"
    : > "$C"
    sleep 1.1                           # a blind source's timeouts: 0.5 s
    healed "$M" "$what"
    do_umount "$M"
    local said; said=$(grep -v 'inotify misses' "$T/rtmfs.err")
    echo "$what: rtmfs said on stderr: ${said:-nothing but the blind source}"
    fg_mount "$V" "$M" "${OPTS[@]}" -o index="$ix" || return
    found_broken "$M"
    diff -r "$T/want" "$M" > "$T/diff" 2>&1 && ok "$what: a later mount with the same index shows the healthy tree" ||
        fail "$what: a later mount with the same index differs: $(head -c 300 "$T/diff")"
    do_umount "$M"
    echo "$what: $((SECONDS - t0)) s"
}

reference || finish mount/faults
faultfs "$B" "$V" || finish mount/faults
one_fault "eio" "every read EIO"
one_fault "eio 4096" "EIO past byte 4096"
one_fault "short" "short reads (half)"
one_fault "eof" "end of file at half the size"
one_fault "eio" "every read EIO after a healthy walk filled the index" warm
finish mount/faults
