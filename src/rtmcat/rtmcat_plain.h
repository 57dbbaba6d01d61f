/* rtmcat_plain.h - `rtmcat FILE plain.rtm` for a loose BMTR file, the
 * quick way (rtmcat_plain.c). */
#ifndef RTM_RTMCAT_PLAIN_H
#define RTM_RTMCAT_PLAIN_H

#include "skeleton.h"

/* When rel (below folder srcfd) is a regular file named *.rtm holding a
 * BMTR animation that parses with skel, and view is its plain.rtm (unless
 * skel is the default, not given, and a model.cfg lies beside it, whose
 * classes the tree's way reads):
 * writes that view to stdout, converted and written a piece at a time,
 * and returns rtmcat's exit status (1 after a message naming file when
 * stdout fails or memory runs out).  Otherwise -1, having written
 * nothing: the tree's way then gives the view or the file's message. */
int rtmcat_plain(int srcfd, const char *rel, const char *view,
                 const struct rtm_skeleton *skel, int skel_given, const char *file);

#endif
