/* rtmcat_extract.h - rtmcat -o OUTDIR (rtmcat(1)): an animation's views
 * written as files below OUTDIR, each holding the bytes that `rtmcat FILE
 * VIEW` prints, in one run (one parse, one process) instead of one run a
 * view.
 *
 * Contract.  OUTDIR is made when missing, and so are the folders a view
 * lies in (frames/, joints/, tracks/); a file already there is replaced.
 * Nothing outside OUTDIR is written; SOURCE is only read (through the
 * tree).  A failure stops at the view it met, with one message on stderr,
 * "rtmcat: FILE: what is wrong", that names the view or path; the views
 * written before it stay. */
#ifndef RTM_RTMCAT_EXTRACT_H
#define RTM_RTMCAT_EXTRACT_H

#include <stdint.h>

#include "cache.h"
#include "tree.h"

/* Walks view's names ("frames/000.csv") from folder ino: 0 with the
 * entry in *out, or the failed lookup's negative errno (-ENOENT for a
 * name too long or empty). */
int rtmcat_lookup_view(struct rtm_tree *t, uint64_t ino, const char *view,
                       struct rtm_tree_entry *out);

/* Writes views[0..n) of the animation whose folder is ino (n 0: every file
 * its folder lists, its folders' too) into outdir; file is FILE as given,
 * for messages.  rtmcat's exit status: 0, or 1 after the message. */
int rtmcat_extract(struct rtm_tree *t, uint64_t ino, const char *file, const char *outdir,
                   char *const *views, int n);

/* The same for a file the tree does not show as an animation, read as
 * one all the same (rtmcat.c: cat_unlisted): views of the loaded entry h,
 * rendered as rtmcat_render_unlisted renders them. */
int rtmcat_extract_unlisted(struct rtmc *cache, struct rtmc_entry *h, const char *file,
                            const char *outdir, char *const *views, int n);

#endif
