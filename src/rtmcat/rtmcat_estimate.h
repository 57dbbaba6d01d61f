/* rtmcat_estimate.h - rtmcat --estimate-pivots (rtmcat_estimate.c). */
#ifndef RTM_RTMCAT_ESTIMATE_H
#define RTM_RTMCAT_ESTIMATE_H

/* Estimates the pivots of skeleton skel_spec from the animation files and
 * prints the skeleton file with them, the report in its comments.  rtmcat's
 * exit status: 0, or 1 when a file was skipped (said on stderr) or nothing
 * could be estimated. */
int rtmcat_estimate(const char *skel_spec, char *const *files, int nfiles);

#endif
