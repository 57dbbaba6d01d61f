#!/usr/bin/env bash
# run.sh UNIT_TEST... | --only NAME: make check's runner.  Runs the unit tests, the build-flags test,
# the rtmcat tests and the mount tests as independent jobs, CHECK_JOBS at a
# time (default: twice the cores, since most of them wait on mounts, disks
# and sleeps rather than compute), each into a log of its own that is shown
# whole when the job ends; then keeps them all, in the order of the jobs,
# in $BUILD/check.log (or $CHECK_LOG) with each job's time, and ends with one summary line
# (see tests/lib/check.sh for the lines it counts).  Exits 1 when anything
# failed.  Every job makes its own temporary folder and mount points, so
# none waits for another.  TEST_CASE=PATTERN (with --only test_NAME alone)
# runs only that unit test's cases whose names PATTERN matches ('*' and
# '?'; tests/unit/testutil.h).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
log=${CHECK_LOG:-$BUILD/check.log}
# run.sh --only NAME: one unit test (test_tree) or one shell suite
# (tests/mount/pbo.sh) alone, with the same summary.
units=("$@") scripts=(tests/build/*.sh tests/cli/*.sh tests/mount/*.sh)
if [ "${1:-}" = --only ]; then
    case ${2:-} in
    *.sh) [ -f "$2" ] || { echo "run.sh: no test script $2" >&2; exit 2; }
          units=() scripts=("$2") ;;
    test_*) [ -x "$BUILD/tests/$2" ] || { echo "run.sh: no unit test $BUILD/tests/$2" >&2; exit 2; }
          units=("$BUILD/tests/$2") scripts=() ;;
    *) echo "run.sh: TEST=$2 is neither test_NAME nor a tests/.../NAME.sh script" >&2; exit 2 ;;
    esac
fi
# TEST_CASE picks cases of one unit test; the programs read it themselves.
export TEST_CASE=${TEST_CASE:-}
if [ -n "$TEST_CASE" ] && { [ "${1:-}" != --only ] || [ ${#scripts[@]} -ne 0 ]; }; then
    echo "run.sh: TEST_CASE=$TEST_CASE needs one unit test: TEST=test_NAME" >&2
    exit 2
fi
ncpu=$(nproc 2>/dev/null || echo 2)
max=${CHECK_JOBS:-$((ncpu * 2))}

# The jobs: every script but the long ones that make valgrind and make
# stress run (valgrind.sh; stress.sh and damaged.sh, minutes each) and
# those that build the project again (a line "# make check: builds" among
# their first ten: make check-builds runs them) unless asked for by name,
# then every unit test.
# The long ones (a line "make check: long" among a script's or a unit
# test's source's first ten) start first, so that none of them is left
# running alone at the end while a core waits.
jobs=() long=()
for t in "${scripts[@]}"; do
    case $t in tests/cli/valgrind.sh|tests/mount/stress.sh|tests/mount/damaged.sh)
        [ ${#scripts[@]} -eq 1 ] || continue ;;
    esac
    first=$(head -n 10 "$t")
    if grep -qx '# make check: builds' <<<"$first" && [ ${#scripts[@]} -gt 1 ]; then continue
    elif grep -qx '# make check: long' <<<"$first"; then long+=("$t")
    else jobs+=("$t"); fi
done
for u in "${units[@]}"; do
    if head -n 10 tests/unit/*/"$(basename "$u")".c 2>/dev/null | grep -q 'make check: long'; then
        long+=("$u")
    else
        jobs+=("$u")
    fi
done
jobs=("${long[@]}" "${jobs[@]}")

# job N NAME: runs job NAME into $jobs_dir/N.log, its first line its name,
# its last its time.
job() {
    local out=$jobs_dir/$1.log t=$2 start=$SECONDS rc
    case $t in
    *.sh) echo "== $t" > "$out"
          BUILD=$BUILD bash "$t" >> "$out" 2>&1
          rc=$?
          # a script that fails says what failed; one that dies may not have
          if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$out"; then
              echo "FAIL: $t exited with status $rc" >> "$out"
          fi ;;
    *)    bash tests/lib/unit.sh "$t" > "$out" 2>&1 ;;
    esac
    echo "== $(basename "$t"): $((SECONDS - start)) s" >> "$out"
}

mkdir -p "$BUILD"
# the jobs' logs: a folder of this run's own, so that two runs never mix
jobs_dir=$(mktemp -d "$BUILD/check.d.XXXXXX") || exit 2
trap 'rm -rf "$jobs_dir"' EXIT
running=0 done_jobs=0
declare -A pid_of
for ((i = 0; i < ${#jobs[@]}; i++)); do
    if [ "$running" -ge "$max" ]; then
        wait -n
        running=$((running - 1))
    fi
    job "$i" "${jobs[$i]}" &
    pid_of[$i]=$!
    running=$((running + 1))
    # show the logs of the jobs that ended, in the order they ended
    for k in "${!pid_of[@]}"; do
        kill -0 "${pid_of[$k]}" 2>/dev/null && continue
        wait "${pid_of[$k]}" 2>/dev/null
        cat "$jobs_dir/$k.log"
        unset "pid_of[$k]"
    done
done
for k in "${!pid_of[@]}"; do
    wait "${pid_of[$k]}" 2>/dev/null
    cat "$jobs_dir/$k.log"
done
: > "$log"
for ((i = 0; i < ${#jobs[@]}; i++)); do
    cat "$jobs_dir/$i.log" >> "$log"
done
echo
bash tests/lib/summary.sh "$log"
