#!/usr/bin/env bash
# make check: builds
# flags.sh - the build keeps what correctness needs whatever flags a user
# gives.  Builds rtmcat and the real-file test with a user's CFLAGS into
# build-flags-*: with -O0 -g (the issue that started this), and with FMA
# allowed (-march=native -ffp-contract=fast), which would change BMTR
# conversion's rounding if the project's -ffp-contract=off were dropped.
# Each build must give plain.rtm byte for byte as the main build does for
# the generated samples, and match the reference hashes of the real files.
# Also checks that header dependencies are exact (-MMD): a header change
# rebuilds the objects that include it and no others.
NAME=flags
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
MAKE=${MAKE:-make}
T=$(mktemp -d /tmp/rtmfs-flags.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$RTMGEN" "$T/s" >/dev/null || { fail "rtmgen"; finish build/flags; }

# build DIR CFLAGS: rtmcat and test_corpus with the user's CFLAGS.
build() {
    # SANITIZE= : a "make check SANITIZE=1" above must not reach this build
    $MAKE -s --no-print-directory BUILD="$1" SANITIZE= CFLAGS="$2" \
        "$1/rtmcat" "$1/tests/test_corpus" >"$T/make.log" 2>&1
}

# same_plain DIR: every sample's plain.rtm from DIR's rtmcat equals the main build's.
same_plain() {
    local f
    for f in "$T"/s/*.rtm; do
        [ "$(basename "$f")" = broken.rtm ] && continue
        cmp -s <("$1/rtmcat" "$f" plain.rtm) <("$RTMCAT" "$f" plain.rtm) || return 1
    done
}

for pair in "O0:-O0 -g" "fma:-O2 -march=native -ffp-contract=fast"; do
    dir=build-flags-${pair%%:*} flags=${pair#*:}
    if ! build "$dir" "$flags"; then
        fail "make CFLAGS=\"$flags\" does not build: $(tail -3 "$T/make.log")"
        continue
    fi
    ok "make CFLAGS=\"$flags\" builds"
    same_plain "$dir" && ok "CFLAGS=\"$flags\": plain.rtm of the samples equals the main build's" \
        || fail "CFLAGS=\"$flags\": plain.rtm of a sample differs from the main build's"
    if ! have_corpus; then
        skip "no ../shared" "CFLAGS=\"$flags\": plain.rtm of the real files against the reference hashes"
    elif "$dir/tests/test_corpus" >"$T/corpus.log" 2>&1; then
        ok "CFLAGS=\"$flags\": $(grep -o 'corpus: [0-9]* of [0-9]* files match' "$T/corpus.log")" \
           "(plain.rtm sha256 with ofp2 and none)"
    else
        fail "CFLAGS=\"$flags\": the real files do not match: $(grep -m3 -i 'mismatch\|fail' "$T/corpus.log")"
    fi
done

# make -W HEADER -n: what would be rebuilt if HEADER changed.
rebuilt() { $MAKE -n --no-print-directory BUILD=build-flags-O0 SANITIZE= CFLAGS="-O0 -g" \
                -W "$1" build-flags-O0/rtmcat 2>/dev/null | grep -o 'src/[a-z]*/[a-z_]*\.c' | sort -u | tr '\n' ' '; }
got=$(rebuilt src/base/lzo.h)
[ "$got" = "src/base/lzo.c src/rtm/bmtr.c src/rtm/bmtr_write.c src/rtm/format_table.c src/tree/tree_states_index.c " ] && ok "a change to lzo.h rebuilds only the five files that include it" \
    || fail "a change to lzo.h rebuilds: ${got:-nothing}"
finish build/flags
