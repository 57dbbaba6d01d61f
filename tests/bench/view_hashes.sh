#!/usr/bin/env bash
# view_hashes.sh OUT - every file the mount shows over the shared files, one
# line each: "MOUNT PATH SIZE SHA256" (or "... SIZE error ERRNO-TEXT" when its
# read fails), sorted.  A refactoring that changes no behaviour gives the same
# OUT before and after: `make view-hashes` writes build/view-hashes.txt, and
# `cmp` of two such listings says whether any view's bytes moved.
# SOURCEs: each folder of ../shared (-o show_other, so that configs show as
# text and other files as they are), and the archives and
# addons under -o gamepaths.  Skips (exit 0, a message) without ../shared.
NAME=view-hashes
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
OUT=${1:?usage: view_hashes.sh OUT}
SHARED=${SHARED:-../shared}
[ -d "$SHARED/corpus" ] || { skip "no $SHARED: nothing to list"; exit 0; }
need_fuse "view hashes"

# list NAME SRC [options...]: mounts SRC and prints every file's line.
list() {
    local name=$1 src=$2 mnt=$T/m-$1 f size sum
    shift 2
    do_mount "$src" "$mnt" "$@" || return 1
    (cd "$mnt" && find . -type f -print0 | sort -z) |
    while IFS= read -r -d '' f; do
        size=$(stat -c %s "$mnt/$f")
        if sum=$(sha256sum < "$mnt/$f" 2>"$T/err"); then
            printf '%s %s %s %s\n' "$name" "${f#./}" "$size" "${sum%% *}"
        else
            printf '%s %s %s error %s\n' "$name" "${f#./}" "$size" "$(tail -c 80 "$T/err" | tr '\n' ' ')"
        fi
    done
    do_umount "$mnt"
}

# configs show as text where named config.bin, and a model.cfg gives the
# animations beside it their skeleton: copies in the temporary folder
# make them so.
configs_as_named() {
    local f n
    for f in "$SHARED"/configs/*.bin; do
        n=$(basename "$f" .bin); mkdir -p "$T/cfg/$n"; cp "$f" "$T/cfg/$n/config.bin"
    done
    for f in "$SHARED"/modelcfg/*.cfg; do
        n=$(basename "$f" .cfg); mkdir -p "$T/mc/$n"; cp "$f" "$T/mc/$n/model.cfg"
        cp "$(find "$SHARED/corpus" -name '*.rtm' | sort | head -1)" "$T/mc/$n/"
    done
}

configs_as_named
{
    list configs-named "$T/cfg" -o show_other
    list modelcfg-named "$T/mc" -o show_other
    for d in corpus archives addons binarise bvh; do
        [ -d "$SHARED/$d" ] && list "$d" "$SHARED/$d" -o show_other
    done
    list archives-gp "$SHARED/archives" -o gamepaths
    list addons-gp "$SHARED/addons" -o gamepaths
} > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
ok "$(wc -l < "$OUT") files listed with their sizes and hashes in $OUT"
finish bench/view-hashes
