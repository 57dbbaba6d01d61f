#!/usr/bin/env bash
# index.sh - the persistent index through real mounts: a second mount shows
# what the first showed (ls -lR, bones.txt) without parsing or rendering
# anything but bones.txt (RTMFS_STATS counts); -o noindex shows the same
# and writes nothing; where the index goes by default; an index that cannot
# be opened is said once and costs nothing else; two mounts share one; the
# states table is written as the mount that built it ends; index_size= is
# checked (its bound: test_index).  Wrong remembered sizes: test_remember.
NAME=index
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
export LC_ALL=C
S=$T/src M=$T/mnt M2=$T/mnt2 IX=$T/ix/index.sqlite

need_fuse "the persistent index through a mount"
mkdir -p "$S/loose"
"$RTMGEN" "$S/loose" >/dev/null && "$RTMGEN" -p "$S/sample.pbo" || { fail "rtmgen"; exit 1; }

# stat NAME: the value of NAME in the last RTMFS_STATS file
stat_of() { awk -v k="$1" '$1 == k {print $2}' "$T/stats"; }
# walk MNT OUT: ls -lR (inode numbers left out: they are per mount) and
# every bones.txt, as grep -r would read them.  The sizes a first ls -lR
# asks for find the damage a listing does not see (broken.rtm's cut
# arrays: rtmfs-views(7), ERROR.TXT), after which that folder shows
# error.txt: the walk is of the tree after that, as later mounts show it.
walk() {
    (cd "$1" && ls -lR . >/dev/null 2>&1); sleep 0.3
    (cd "$1" && ls -lR --time-style=+%s . && find . -name bones.txt | sort | xargs cat) > "$2"
}
# counted MNT OUT [options]: a walk under its own mount, with the counts
counted() {
    local mnt=$1 out=$2
    shift 2
    RTMFS_STATS=$T/stats fg_mount "$S" "$mnt" "$@" || return 1
    walk "$mnt" "$out"
    do_umount "$mnt"
}

counted "$M" "$T/first" -o index="$IX" || exit 1
[ "$(stat_of remembered)" = 0 ] && [ "$(stat_of index_written)" -gt 0 ] &&
    ok "first mount: everything parsed, $(stat_of index_written) records written" ||
    fail "first mount: $(tr '\n' ' ' < "$T/stats")"
bones=$(grep -c ' bones.txt$' "$T/first")
counted "$M" "$T/second" -o index="$IX" || exit 1
cmp -s "$T/first" "$T/second" && ok "second mount: ls -lR and bones.txt as the first showed them" ||
    fail "second mount differs: $(diff "$T/first" "$T/second" | head -5)"
loads=$(stat_of loads) remembered=$(stat_of remembered) renders=$(stat_of renders)
if [ "$loads" = "$remembered" ] && [ "$(stat_of sizings)" = 0 ] && [ "$renders" = "$bones" ]; then
    ok "second mount: $loads loads, all from the index; $renders renders (bones.txt only), 0 sizings"
else
    fail "second mount parsed or rendered: $(tr '\n' ' ' < "$T/stats")"
fi

# -o noindex: the same tree, no file anywhere
counted "$M" "$T/noindex" -o noindex || exit 1
cmp -s "$T/first" "$T/noindex" && [ "$(stat_of remembered)" = 0 ] &&
    [ ! -e "$XDG_CACHE_HOME/rtmfs" ] && ok "-o noindex: the same tree, nothing remembered or written" ||
    fail "-o noindex: $(diff "$T/first" "$T/noindex" | head -3); $(ls "$XDG_CACHE_HOME" 2>&1)"

# default places: $XDG_CACHE_HOME/rtmfs/, else ~/.cache/rtmfs/
counted "$M" "$T/xdg" || exit 1
[ -s "$XDG_CACHE_HOME/rtmfs/index.sqlite" ] && ok "default: \$XDG_CACHE_HOME/rtmfs/index.sqlite" ||
    fail "no index in $XDG_CACHE_HOME/rtmfs"
mkdir -p "$T/home"
(unset XDG_CACHE_HOME; HOME=$T/home counted "$M" "$T/home.out") || exit 1
[ -s "$T/home/.cache/rtmfs/index.sqlite" ] && ok "without \$XDG_CACHE_HOME: ~/.cache/rtmfs/index.sqlite" ||
    fail "no index in $T/home/.cache/rtmfs"

# an index that cannot be opened: said once, the mount as good as without
counted "$M" "$T/bad" -o index=/proc/rtmfs-no/index.sqlite || exit 1
n=$(grep -c "index" "$T/rtmfs.err")
cmp -s "$T/first" "$T/bad" && [ "$n" = 1 ] && ok "an index that cannot be opened: said once ($(head -1 "$T/rtmfs.err")), same tree" ||
    fail "unusable index: $n messages, $(diff "$T/first" "$T/bad" | head -3)"
# a damaged file: rebuilt, said once
printf 'this is not a database, not at all, nothing like one at all%.0s' {1..100} > "$T/junk.sqlite"
counted "$M" "$T/junk" -o index="$T/junk.sqlite" || exit 1
cmp -s "$T/first" "$T/junk" && [ "$(grep -c index "$T/rtmfs.err")" = 1 ] &&
    ok "a damaged index: $(head -1 "$T/rtmfs.err")" || fail "damaged index: $(cat "$T/rtmfs.err")"

# two mounts share one index at once
fg_mount "$S" "$M" -o index="$T/shared.sqlite" && pid1=$RTMFS_PID && cp "$T/rtmfs.err" "$T/err1" &&
    fg_mount "$S" "$M2" -o index="$T/shared.sqlite" || exit 1
walk "$M" "$T/a" & walk "$M2" "$T/b"; wait $!
RTMFS_PID=$pid1 do_umount "$M"
do_umount "$M2"
cmp -s "$T/first" "$T/a" && cmp -s "$T/first" "$T/b" && [ ! -s "$T/err1" ] && [ ! -s "$T/rtmfs.err" ] &&
    ok "two mounts share one index" || fail "shared index: $(cat "$T/err1" "$T/rtmfs.err" | head -3)"

# as a daemon (no -f): the daemon writes the index, and exits at unmount
# (it used to open the index before fuse_daemonize's fork, lose the writer
# thread, write nothing, and hang at unmount)
rm -f "$T/stats"
RTMFS_STATS=$T/stats do_mount "$S" "$M" -o index="$T/daemon.sqlite" || exit 1
dpid=$(pgrep -f -- "index=$T/daemon.sqlite")
walk "$M" "$T/daemon"
do_umount "$M"
for _ in $(seq 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
if [ -z "$dpid" ] || kill -0 "$dpid" 2>/dev/null; then
    fail "as a daemon: pid '$dpid' still running 10 s after its unmount"
    [ -n "$dpid" ] && kill -9 "$dpid"
elif cmp -s "$T/first" "$T/daemon" && [ "$(stat_of index_written)" -gt 0 ] 2>/dev/null; then
    ok "as a daemon: the same tree, $(stat_of index_written) records written, gone after its unmount"
else
    fail "as a daemon: $(tr '\n' ' ' < "$T/stats" 2>&1)"
fi

# the table of config states is written to the index when the mount that
# built it ends, also when nothing asked for its lines (header.txt alone):
# the next mount's header.txt and states.txt read no config.  sample.pbo's
# config.cpp is text that looks for no include: its archive keys it.
views() { cat "$M/sample.pbo/anims/walk.rtm/header.txt" "$M/sample.pbo/anims/walk.rtm/states.txt"; }
rm -f "$T/stats"
RTMFS_STATS=$T/stats fg_mount "$S" "$M" -o index="$T/states.sqlite" || exit 1
cat "$M/sample.pbo/anims/walk.rtm/header.txt" > "$T/header1"
do_umount "$M"
p1=$(stat_of configs_parsed) l1=$(stat_of states_lines)
RTMFS_STATS=$T/stats fg_mount "$S" "$M" -o index="$T/states.sqlite" || exit 1
views > "$T/views2"
do_umount "$M"
p2=$(stat_of configs_parsed)
fg_mount "$S" "$M" -o noindex || exit 1
views > "$T/views3"
do_umount "$M"
if [ "${p1:-0}" -ge 1 ] && [ "$p2" = 0 ] && cmp -s "$T/views2" "$T/views3" &&
    cmp -s "$T/header1" <(head -c "$(wc -c < "$T/header1")" "$T/views2"); then
    ok "a header.txt alone: its mount read $p1 config(s) and made $l1 line(s) as it ended; the next read none, same views"
else
    fail "states table not remembered at the end: parsed $p1 then $p2; $(diff "$T/views2" "$T/views3" | head -3)"
fi

# a later mount's walk that stats (du: all of a folder listed, then
# stat'ed) looks up only what its listings could not give: two animations
# of 300 frames, each frames/ holding more names than one readdirplus reply
# (204); the first folder of views a mount lists is looked up whole (that
# earns the rest their attributes: tree.c), the second not at all, also
# past its first reply (lookups: RTMFS_STATS; 614 when the kernel went on
# with plain readdir)
L=$T/long
mkdir -p "$L"
"$RTMGEN" -F 300 "$L/a" >/dev/null && "$RTMGEN" -F 300 "$L/b" >/dev/null || fail "rtmgen -F"
for _ in 1 2; do
    rm -f "$T/stats"
    RTMFS_STATS=$T/stats fg_mount "$L" "$M" -o index="$T/long.sqlite" || exit 1
    du -s "$M" >/dev/null
    frames=$(ls "$M/a/figure.rtm/frames" | wc -l)
    do_umount "$M"
done
n=$(stat_of lookups)
if [ "$frames" -gt 204 ] && [ "${n:-99999}" -le $((frames + 50)) ]; then
    ok "a later du of two animations of $frames frames: $n lookups"
else
    fail "a later du of two animations of $frames frames: ${n:-no} lookups"
fi

# index_size
before=$FAILS
err=$("$RTMFS" "$S" "$M" -o index_size=lots 2>&1) && fail "index_size=lots mounted"
[[ $err == *"bad index_size 'lots'"* ]] || fail "index_size=lots: $err"
mounted "$M" && fail "a refused mount was left behind"
block_ok "$before" "index_size=lots: $err"
counted "$M" "$T/small" -o index="$T/small.sqlite",index_size=64k || exit 1
cmp -s "$T/first" "$T/small" && [ -s "$T/small.sqlite" ] && ok "index_size=64k: the same tree" ||
    fail "index_size=64k: $(diff "$T/first" "$T/small" | head -3)"
finish mount/index
