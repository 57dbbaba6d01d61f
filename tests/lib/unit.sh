#!/usr/bin/env bash
# unit.sh TEST...: runs cmocka test programs with TAP output and turns it
# into the lines of tests/lib/check.sh.  A program that stops before it has
# run every test it planned, or exits non-zero, fails too, and so does one
# that ran no test: with TEST_CASE set (the programs run only the cases it
# matches, testutil.h's run_test_cases), one that has no such case.
set -uo pipefail
status=0
for t in "$@"; do
    name=unit/$(basename "$t")
    echo "== $name"
    CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1 | awk -v name="$name" -v tc="${TEST_CASE:-}" '
        /^1\.\.[0-9]+$/             { plan = substr($0, 4) + 0; next }
        /^# skip reason: /          { reason = substr($0, 16); next }
        /^not ok [0-9]+ # SKIP/     { t = $0; sub(/^not ok [0-9]+ # SKIP */, "", t)
                                      print "skip (" (reason == "" ? "no reason given" : reason) "): " name " " t
                                      reason = ""; seen++; next }
        /^ok [0-9]+ - /             { t = $0; sub(/^ok [0-9]+ - /, "", t)
                                      print "ok: " name " " t; seen++; next }
        /^not ok [0-9]+ - /         { t = $0; sub(/^not ok [0-9]+ - /, "", t)
                                      print "FAIL: " name " " t; seen++; bad++; next }
        /^# (not )?ok - tests$/     { next }
                                    { print }
        END {
            if (seen < plan) { print "FAIL: " name " stopped after " seen " of " plan " tests"; bad++ }
            if (plan == 0 && seen == 0) {
                if (tc == "") print "FAIL: " name " ran no test"
                else print "FAIL: " name " has no case matching TEST_CASE=" tc
                bad++
            }
            exit bad > 0
        }'
    rc=("${PIPESTATUS[@]}")
    if [ "${rc[0]}" -ne 0 ] && [ "${rc[1]}" -eq 0 ]; then
        echo "FAIL: $name exited with status ${rc[0]}"
    fi
    [ "${rc[0]}" -eq 0 ] && [ "${rc[1]}" -eq 0 ] || status=1
done
exit $status
