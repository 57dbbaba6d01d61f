#!/usr/bin/env bash
# damaged.sh - the mount never dies over a damaged tree: rtmgen
# -D's tree of RTMFS_DAMAGED_N (500) damaged files beside good ones (cut
# in every part, bytes flipped, counts and array sizes rewritten, LZO
# broken, archives with table tricks and damaged entries, configs and
# model.cfg cut mid-class: tests/lib/damaged.sh), mounted four times:
#   -o ahead=0,cache_size=4M     a fresh index
#   the default options          a later mount (the index the first filled)
#   -o ahead=8                   a fresh index
#   -o ahead=8,cache_size=4M     a later mount
# each walked by du -a, ls -lR, find | xargs cat, grep -r and 4 parallel
# readers while a writer rewrites, truncates and renames files in SOURCE.
# After every walk rtmfs runs and is mounted, and every error the walk met
# is documented (dmg_judge: EIO once error.txt says why, ENOENT for a name
# gone); rtmfs's stderr holds no sanitizer report and it exits 0 at its
# unmount.  Prints how many rows of each kind of damaged.tsv each walk met.
NAME=damaged
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
# shellcheck source=tests/lib/damaged.sh
. "$(dirname "$0")/../lib/damaged.sh"
N=${RTMFS_DAMAGED_N:-500}
S=$T/src M=$T/mnt
need_fuse "damaged-tree walks"
start=$SECONDS
dmg_tree "$S" "$N" "${RTMFS_DAMAGED_SEED:-1}" || finish mount/damaged
echo "$DMG_SUMMARY"
rows=$(grep -vc '^#' "$S/damaged.tsv")
dmg=$(sed -n 's/.* rows, \([0-9]*\) damaged:.*/\1/p' <<<"$DMG_SUMMARY")
[ "${dmg:-0}" -ge "$N" ] && grep -q $'\thead-ok-full-fails\t' "$S/damaged.tsv" &&
    ok "rtmgen -D $N: $rows rows, $dmg damaged, some whose head reads and full parse fails" ||
    fail "rtmgen -D $N: $DMG_SUMMARY"

WALKS=(du ls cat grep readers)
SETS=("ahead=0,cache_size=4M" "" "ahead=8" "ahead=8,cache_size=4M")
WHEN=(fresh later fresh later)
deaths=0 walks=0
: > "$T/all.err"
for s in "${!SETS[@]}"; do
    opts=show_other${SETS[$s]:+,${SETS[$s]}}
    label="${SETS[$s]:-default options} (${WHEN[$s]} index)"
    [ "${WHEN[$s]}" = fresh ] && rm -rf "$XDG_CACHE_HOME/rtmfs"
    fg_mount "$S" "$M" -o "$opts" || { fail "$label: no mount"; continue; }
    pid=$RTMFS_PID
    before=$FAILS
    for w in "${WALKS[@]}"; do
        walks=$((walks + 1))
        t0=$SECONDS
        dmg_writer_start "$S"
        dmg_walk "$w" "$M"; hung=$?
        dmg_writer_stop
        if ! dmg_alive "$M" "$pid"; then
            deaths=$((deaths + 1))
            fail "$label: rtmfs died during $w: $(tail -5 "$T/rtmfs.err" | tr '\n' ' ')"
            break
        fi
        [ "$hung" = 2 ] && fail "$label: $w hung (over ${DMG_TIMEOUT}s)"
        dmg_judge "$M"
        [ "$DMG_BAD" = 0 ] || fail "$label: $w: $DMG_BAD undocumented errors: $(head -5 "$T/walk.bad" | tr '\n' '|')"
        echo "  $label, $w ($((SECONDS - t0))s): met $(dmg_met "$S" "$M");" \
             "errors: EIO $DMG_EIO, ENOENT $DMG_ENOENT, churn $DMG_CHURN," \
             "failure forgotten and found again $DMG_REFOUND, undocumented $DMG_BAD"
    done
    if dmg_alive "$M" "$pid"; then
        do_umount "$M"
    else
        RTMFS_PID=
        fusermount3 -u "$M" 2>/dev/null || umount -l "$M" 2>/dev/null
    fi
    { echo "== $label"; cat "$T/rtmfs.err"; } >> "$T/all.err"
    san=$(dmg_san "$T/rtmfs.err")
    [ -z "$san" ] || fail "$label: a sanitizer reported: $(echo "$san" | head -3 | tr '\n' '|')"
    block_ok "$before" "$label: ${#WALKS[@]} walks, rtmfs up after each, every error documented, no sanitizer report"
done
echo "damaged: $walks walks over $rows rows, $deaths deaths, $((SECONDS - start))s"
[ "$deaths" = 0 ] || { echo "rtmfs said:"; tail -30 "$T/all.err"; }
finish mount/damaged
