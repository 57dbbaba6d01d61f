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
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all)
runs=0
# Listing the views renders every one of them; plain.rtm adds the output path.
for f in "${files[@]}"; do
    for v in "" plain.rtm; do
        if ! "${vg[@]}" "$rtmcat" "$f" $v >/dev/null 2>"$tmp/err" &&
                grep -q '^==[0-9]*==' "$tmp/err"; then
            echo "valgrind: errors in rtmcat $f $v"; cat "$tmp/err"; exit 1
        fi
        runs=$((runs + 1))
    done
done
# The same files inside an archive (entries read through its table), a cut
# archive, and the archive's own listing and pbo.txt.
"$BUILD/rtmgen" -a "$tmp/all.pbo" "${files[@]}"
head -c 5000 "$tmp/all.pbo" > "$tmp/cut.pbo"
mapfile -t entries < <("$BUILD/rtmcat" "$tmp/all.pbo" | awk 'NR > 1 {print $2}')
# (and the error paths: a missing entry, a view an entry does not have)
args=("$tmp/all.pbo" "$tmp/all.pbo pbo.txt" "$tmp/cut.pbo" "$tmp/cut.pbo/${entries[0]}"
      "$tmp/all.pbo/no/such.rtm" "$tmp/all.pbo/${entries[0]} nope.txt")
for e in "${entries[@]}"; do args+=("$tmp/all.pbo/$e"); done
for a in "${args[@]}"; do
    # shellcheck disable=SC2086
    if ! "${vg[@]}" "$rtmcat" $a >/dev/null 2>"$tmp/err" && grep -q '^==[0-9]*==' "$tmp/err"; then
        echo "valgrind: errors in rtmcat $a"; cat "$tmp/err"; exit 1
    fi
    runs=$((runs + 1))
done
echo "valgrind: $runs rtmcat runs over ${#files[@]} files, loose and in an archive" \
     "(every view rendered), no errors, no leaks"
