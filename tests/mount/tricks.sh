#!/usr/bin/env bash
# tricks.sh - archives with the table tricks of rtm(5) PBO paths, written by
# fuzz_seeds (the fuzz_pbo seeds): the same path twice and thrice, twice but
# for case, a file that is also a folder, a part over 255 bytes, '..' and a
# leading '\', a device name and control bytes.  The mount stays alive,
# every animation rtmcat lists is an animation folder with its views, and
# pbo.txt names each trick.
NAME=tricks
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
need_fuse "archive table tricks"
S=$T/src M=$T/mnt
mkdir -p "$S" "$T/r" "$T/s"
"$BUILD/tests/fuzz_seeds" "$T/r" "$T/s" "$S" >/dev/null || { fail "fuzz_seeds"; finish mount/tricks; }
do_mount "$S" "$M" -o show_other || finish mount/tricks
before=$FAILS
n=0
for a in "$S"/tricks*.pbo; do
    b=$(basename "$a")
    while read -r _ path; do
        case "${path,,}" in *.rtm) ;; *) continue ;; esac
        p=$(printf '%b' "$path")
        n=$((n + 1))
        [ -s "$M/$b/$p/header.txt" ] && cmp -s "$M/$b/$p/header.txt" <("$RTMCAT" "$a/$p" header.txt) \
            || fail "$b: $path is no animation in the mount"
    done < <("$RTMCAT" "$a")
done
[ "$n" -ge 9 ] || fail "only $n animations listed"
block_ok "$before" "every animation of the trick archives is shown ($n)"
grep -q "^entry 2 .*duplicate: .* as entry 1, which keeps it, shown as 'anims/walk~2~2.rtm'$" "$M/tricks0.pbo/pbo.txt" \
    && grep -q "^entry 2 .*'anims\\\\WALK.RTM': duplicate: .*shown as 'anims/WALK~2.RTM'$" "$M/tricks1.pbo/pbo.txt" \
    && grep -q "^entry 1 .*'anims': renamed: a folder has its path" "$M/tricks2.pbo/pbo.txt" \
    && grep -q "renamed: a name part longer than 255 bytes" "$M/tricks3.pbo/pbo.txt" \
    && grep -q "renamed: a '..' part dropped" "$M/tricks3.pbo/pbo.txt" \
    && grep -q "renamed: a leading '\\\\' dropped" "$M/tricks3.pbo/pbo.txt" \
    && grep -q "odd name: a Windows device name" "$M/tricks3.pbo/pbo.txt" \
    && grep -q "odd name: control bytes" "$M/tricks3.pbo/pbo.txt" \
    && ok "pbo.txt names every trick" || fail "pbo.txt: $(cat "$M"/tricks*.pbo/pbo.txt | grep '^entry')"
for a in "$S"/tricks*.pbo; do
    cmp -s "$M/$(basename "$a")/pbo.txt" <("$RTMCAT" "$a" pbo.txt) || fail "$a: pbo.txt differs from rtmcat's"
done
ls -R "$M" >/dev/null 2>&1
mounted "$M" && ok "the mount is alive" || fail "mount died"
do_umount "$M"
finish mount/tricks
