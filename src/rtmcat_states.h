/* rtmcat_states.h - which configs rtmcat's states.txt reads
 * (rtmcat_states.c): -C DIR, else the addon FILE is in. */
#ifndef RTM_RTMCAT_STATES_H
#define RTM_RTMCAT_STATES_H

#include <stddef.h>
#include <stdio.h>

/* The help's paragraph on states.txt and -C. */
void rtmcat_states_usage(FILE *f);

/* Where the configs of FILE (a path on disk, maybe through an archive:
 * ARCHIVE.pbo/anims/x.rtm) are read from, into out (n bytes): cdir when
 * given (-C DIR); else the first archive on FILE's path; else the folder
 * of the nearest $PBOPREFIX$ at or above FILE.  0, or -1 when FILE is in
 * no addon (then no config is read: states.txt has its first line only). */
int rtmcat_states_from(const char *cdir, const char *file, char *out, size_t n);

#endif
