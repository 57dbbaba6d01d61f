/* rtmcat_states.h - which configs rtmcat's states.txt reads
 * (rtmcat_states.c): -C DIR, else the addon FILE is in; and the views of
 * a file the tree does not show, which no state plays. */
#ifndef RTM_RTMCAT_STATES_H
#define RTM_RTMCAT_STATES_H

#include <stddef.h>
#include <stdio.h>

/* The help's paragraph on states.txt and -C. */
void rtmcat_states_usage(FILE *f);

/* Where the configs of FILE (a path on disk, maybe through an archive:
 * ARCHIVE.pbo/anims/x.rtm) are read from, into out (n bytes): cdir when
 * given (-C DIR); else the first archive on FILE's path; else the folder
 * of the nearest $PBOPREFIX$ at or above FILE.  0, or -1 and out "" when
 * FILE is in no addon (then no config is read: states.txt has its first
 * line only, and no state plays FILE: rtmfs-views(7) TIMING). */
int rtmcat_states_from(const char *cdir, const char *file, char *out, size_t n);

/* View v (NULL: the list of views, sizes first) of h, an anim entry of
 * cache that the tree does not show (its name does not end in .rtm): the
 * game plays no such name, so no state plays it (timing.h), as the tree
 * would show the same bytes named .rtm that no state plays.  Appended to
 * out; 0 or a negative errno. */
struct rtmc;
struct rtmc_entry;
struct rtm_view;
struct rtm_buf;
int rtmcat_render_unlisted(struct rtmc *cache, struct rtmc_entry *h, const struct rtm_view *v,
                           struct rtm_buf *out);

#endif
