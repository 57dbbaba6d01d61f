/* rtmcat_check.h - rtmcat --check: check.txt's findings (check.h) for
 * files, archive entries and folder trees, for a mod's CI (rtmcat(1)).
 *
 * Contract:
 *  - Each FILE is an animation (any name: .rtm, plain or BMTR, or a .bvh
 *    source), an archive (every animation entry, .rtm or .bvh),
 *    ARCHIVE.pbo/ENTRY or ARCHIVE.pbo/FOLDER (the animation entries
 *    below), or a folder, walked in name order: its *.rtm files (a walk
 *    leaves its loose .bvh files out) and the animation entries of its
 *    *.pbo archives (names any case).
 *  - Text: one "FILE: LEVEL CODE: message" line a finding, in check.txt's
 *    order, FILE as given joined with the path below it.  JSON
 *    (RTMCAT_CHECK_JSON): one object a line and a file,
 *    {"file": F, "findings": [{"level": L, "code": C, "message": M}, ...]},
 *    or {"file": F, "error": MESSAGE} for one that cannot be read.
 *  - A file that cannot be read (missing, not an animation, broken) is
 *    named on stderr ("rtmcat: FILE: why"), and the others are still checked.
 *  - Returns the exit status: 2 when a file could not be read, else 1 when
 *    there is an error (strict: or a warning), else 0.
 */
#ifndef RTM_RTMCAT_CHECK_H
#define RTM_RTMCAT_CHECK_H

#include <stdio.h>

enum { RTMCAT_CHECK_STRICT = 1, RTMCAT_CHECK_JSON = 2 };

int rtmcat_check(const char *skel_spec, int skel_given, int digits, unsigned flags,
                 char **files, int n);

/* The help's paragraph on --check. */
void rtmcat_check_usage(FILE *f);

#endif
