#!/usr/bin/env bash
# bench_binarise.sh - bmtr.rtm's goals, printed as | measure | goal |
# measured |, with this machine's figures (not a pass/fail test; the
# unit test test_binarise asserts the values):
#   - the shared pairs (../shared/binarise): values equal to binarise's,
#     and how many are within 10^-3 of a step from a rounding boundary;
#   - the same pairs unchanged by the reader's rule (rtm(5), Writing BMTR):
#     their transforms' SHA-256 as pinned in the test;
#   - the BMTR corpus round trip (plain.rtm of each binarised file, then
#     bmtr.rtm) against the stored values, file by file: rotations,
#     translations, names, times, motion and properties, each against its
#     goal; and made-up quaternions of every length from 0.5 to 1.5;
#   - `rtmcat FILE bmtr.rtm` over the plain corpus files, one process a
#     file, warm page cache: MB/s of plain input;
#   - on a mount, the first cat of bmtr.rtm of each plain corpus file
#     against the first cat of plain.rtm of the same animation in BMTR
#     (its bmtr.rtm, made beforehand): a new mount and a dropped page cache
#     for each, medians of RTMFS_BENCH_RUNS (3) interleaved runs, rtmfs's
#     CPU time beside.
NAME=bench-binarise
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
CORPUS=$SHARED/corpus
RUNS=${RTMFS_BENCH_RUNS:-3}
if [ ! -d "$CORPUS" ]; then
    echo "bench-binarise: no corpus at $CORPUS: skipped"
    exit 0
fi
row() { printf "| %-58s | %-10s | %s |\n" "$1" "$2" "$3"; }

# The unit test's own figures: the same code, one place.
pairs_out=$(TEST_CASE='binarise_pairs' "$BUILD/tests/test_binarise" 2>&1)
figures=$(printf '%s\n' "$pairs_out" | grep '^# ace_' | grep -v 'SHA-256')
if printf '%s\n' "$pairs_out" | grep -q '^\[  PASSED  \] 1 test'; then
    pairs_same="yes: ace_hold and ace_point, SHA-256 of the transforms as before"
else
    pairs_same="NO: test_binarise binarise_pairs fails"
fi
trip_out=$(TEST_CASE='corpus_round_trip' "$BUILD/tests/test_binarise" 2>&1)
# trip WHAT: the figures of the round trip's line "# round trip WHAT: ..."
trip() { printf '%s\n' "$trip_out" | sed -n "s/^# round trip $1: //p"; }
lengths=$(TEST_CASE='every_length' "$BUILD/tests/test_binarise" 2>&1 | sed -n 's/^# every length: //p')
small=$(TEST_CASE='small_turns' "$BUILD/tests/test_binarise" 2>&1 | sed -n 's/^# small turns: //p')

mapfile -t plain < <(find "$CORPUS" -type f -name '*.rtm' -print0 |
    xargs -0 grep -L --null -m1 -a '^BMTR' 2>/dev/null | tr '\0' '\n' | LC_ALL=C sort)
bytes=$(cat "${plain[@]}" | wc -c)
start=$(now)
for f in "${plain[@]}"; do "$RTMCAT" "$f" bmtr.rtm > /dev/null 2>&1; done
ns=$(($(now) - start))
mbs=$(awk -v b="$bytes" -v ns="$ns" 'BEGIN { printf "%.1f", b / 1e6 / (ns / 1e9) }')

# The same animations twice: plain as written, and binarised (BMTR).
mkdir -p "$T/plain" "$T/bmtr"
i=0
for f in "${plain[@]}"; do
    i=$((i + 1))
    cp "$f" "$T/plain/$i.rtm"
    "$RTMCAT" "$f" bmtr.rtm > "$T/bmtr/$i.rtm"
done
# first_cats DIR VIEW: a new mount of DIR, the page cache dropped, VIEW of
# every animation read once; "MS CPU_MS".
first_cats() {
    local m=$T/m.$RANDOM t
    fg_mount "$1" "$m" -o noindex >/dev/null || return 1
    drop
    t=$(now)
    for a in "$m"/*.rtm; do cat "$a/$2" > /dev/null; done
    echo "$(ms "$t") $(cpu_ms)"
    fusermount3 -u "$m"
    wait "$RTMFS_PID" 2>/dev/null
}
: > "$T/b" && : > "$T/p"
if fuse_usable; then
    for ((r = 0; r < RUNS; r++)); do
        first_cats "$T/plain" bmtr.rtm >> "$T/b"
        first_cats "$T/bmtr" plain.rtm >> "$T/p"
    done
fi
b_ms=$(cut -d' ' -f1 "$T/b" | median) p_ms=$(cut -d' ' -f1 "$T/p" | median)
b_cpu=$(cut -d' ' -f2 "$T/b" | median) p_cpu=$(cut -d' ' -f2 "$T/p" | median)

echo
echo "bmtr.rtm goals: ${#plain[@]} plain corpus files ($(mb "$bytes" 1) MB), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
row measure goal measured
row "the shared pairs: values equal to binarise's" "every one" \
    "$(printf '%s' "$figures" | sed 's/^# //' | tr '\n' ';' | sed 's/;$//')"
row "the shared pairs unchanged by the reader's rule" "every value" "$pairs_same"
row "BMTR round trip (plain.rtm, then bmtr.rtm): files passing" "77 of 77" "$(trip files)"
row "  rotations, after normalising" "1.5/16384" "$(trip rotations)"
row "  translations (but below 2^-14 m, stored as +0)" "1 step, 1e-6 m" "$(trip translations)"
row "  names, times, motion, properties" "exact" "$(trip 'names, times, motion, properties')"
row "quaternions of length 0.5 to 1.5, turns of 1 to 180 deg" "1.5/16384" "$lengths"
row "  turns under 1 deg (rtm(5): the limit of the rule)" "1.5/16384 *" "$small"
row "rtmcat FILE bmtr.rtm over the plain corpus, whole process" ">= 25 MB/s" "$mbs MB/s"
row "first cat of bmtr.rtm (plain) vs plain.rtm (same, BMTR)" "<= x2" \
    "$(ratio "$b_ms" "$p_ms") ($b_ms vs $p_ms ms; CPU $b_cpu vs $p_cpu ms)"
echo "* for lengths within 0.01 of 1, as the corpus's; farther from 1, within |1 - k^2| sin(turn/2) and the roundings"
echo "runs (bmtr.rtm of plain, plain.rtm of BMTR: ms cpu_ms): $(tr '\n' ' ' < "$T/b")/ $(tr '\n' ' ' < "$T/p")"
