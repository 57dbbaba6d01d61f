#!/usr/bin/env bash
# valgrind.sh BUILD: memcheck over rtmcat for every view of every
# corpus file (generated samples when ../shared is absent).  Any error or
# leak fails; a file rtmcat rejects is fine as long as valgrind is quiet.
set -euo pipefail
BUILD=${1:-build}
shared=${RTMFS_SHARED:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$shared/corpus" ]; then
    mapfile -t files < <(find "$shared/corpus" -name '*.rtm' | sort)
else
    echo "valgrind: $shared/corpus not found; using generated samples"
    "$BUILD/rtmgen" "$tmp/s" && mapfile -t files < <(find "$tmp/s" -name '*.rtm' | sort)
fi
# rtmcat is a static program (Makefile), whose heap memcheck cannot watch:
# it runs rtmcat-memcheck, the same objects linked dynamically.
"${MAKE:-make}" --no-print-directory -s BUILD="$BUILD" "$BUILD/rtmcat-memcheck"
rtmcat=$BUILD/rtmcat-memcheck
# One memcheck run a line of $tmp/runs (rtmcat's arguments), on every core:
# each run is a process of its own, so they need no order.  A run fails
# only when valgrind itself reports (a rejected file is fine).
cat > "$tmp/one.sh" <<'ONE'
err=$(mktemp -p "$TMPD")
# shellcheck disable=SC2086
if ! valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
        "$RTMCAT" $1 >/dev/null 2>"$err" && grep -q '^==[0-9]*==' "$err"; then
    echo "valgrind: errors in rtmcat $1"; cat "$err"; rm -f "$err"; exit 255
fi
rm -f "$err"
ONE
export RTMCAT=$rtmcat TMPD=$tmp
# Listing the views renders every one of them; plain.rtm adds the output path.
for f in "${files[@]}"; do printf '%s\n%s plain.rtm\n' "$f" "$f"; done > "$tmp/runs"
# The same files inside an archive (entries read through its table), a cut
# archive, and the archive's own listing and pbo.txt.
"$BUILD/rtmgen" -a "$tmp/all.pbo" "${files[@]}"
head -c 5000 "$tmp/all.pbo" > "$tmp/cut.pbo"
mapfile -t entries < <("$BUILD/rtmcat" "$tmp/all.pbo" | awk 'NR > 1 {print $2}')
# (and the error paths: a missing entry, a view an entry does not have)
{
    printf '%s\n' "$tmp/all.pbo" "$tmp/all.pbo pbo.txt" "$tmp/cut.pbo" "$tmp/cut.pbo/${entries[0]}" \
        "$tmp/all.pbo/no/such.rtm" "$tmp/all.pbo/${entries[0]} nope.txt"
    for e in "${entries[@]}"; do printf '%s\n' "$tmp/all.pbo/$e"; done
} >> "$tmp/runs"
runs=$(wc -l < "$tmp/runs")
# xargs stops at the first run that exits 255 and then fails itself.
xargs -d '\n' -P "$(nproc)" -n 1 bash "$tmp/one.sh" < "$tmp/runs"
echo "valgrind: $runs rtmcat runs over ${#files[@]} files, loose and in an archive" \
     "(every view rendered), no errors, no leaks"
