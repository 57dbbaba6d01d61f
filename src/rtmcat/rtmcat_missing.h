/* rtmcat_missing.h - `rtmcat -C DIR missing.txt` and `rtmcat -C DIR
 * check.txt` (rtmcat_missing.c): the mount's root file of SOURCE DIR (a
 * folder, or an archive), without mounting, through the same tree
 * (tree.h). */
#ifndef RTM_RTMCAT_MISSING_H
#define RTM_RTMCAT_MISSING_H

#include <stdio.h>

/* The help's paragraph on it. */
void rtmcat_missing_usage(FILE *f);
/* Whether rtmcat's operands (n of them, after the options; cdir: -C's
 * DIR or NULL) ask for a root file: -C DIR and the one operand
 * "missing.txt" or "check.txt". */
int rtmcat_missing_asked(const char *cdir, char **operands, int n);
/* Prints the root file name of cdir: rtmcat's exit status (0, or 1 after
 * a message). */
int rtmcat_missing(const char *cdir, const char *name);

#endif
