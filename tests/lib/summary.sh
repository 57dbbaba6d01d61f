#!/usr/bin/env bash
# summary.sh LOG: the last line of make check, counted from the result lines
# of tests/lib/check.sh in LOG.  Exits 1 when a test failed or none passed.
awk '
    /^ok: /      { pass++ }
    /^FAIL: /    { fail++ }
    /^skip \(/   { skip++; r = $0; sub(/^skip \(/, "", r); sub(/\): .*/, "", r)
                   if (!(r in why)) order[++n] = r; why[r]++ }
    END {
        line = sprintf("make check: %d passed, %d failed, %d skipped", pass, fail, skip)
        for (i = 1; i <= n; i++)
            line = line (i == 1 ? " (" : "; ") order[i] ": " why[order[i]]
        print line (n ? ")" : "")
        exit (fail > 0 || pass == 0)
    }' "$1"
