/* rtmfs_options.h - rtmfs's command line: the -o options fuse_opt_parse
 * fills, the usage text, and the options that need parsing (numbers,
 * owner and masks, threads; those rtmcat takes too are parsed by
 * shared_opts.h).  Messages go to
 * stderr, prefixed "rtmfs: "; the functions that check return 0, or -1
 * after saying why.  rtmfs.c is the mount's life, which reads them.
 */
#ifndef RTMFS_OPTIONS_H
#define RTMFS_OPTIONS_H

#include "fuse_ops.h"  /* libfuse's API version, then fuse_opt.h */
#include <fuse_opt.h>

#include "shared_opts.h"
#include "tree.h"

struct options {
    char *skeleton, *cache_size, *source, *digits, *index, *index_size;
    int noindex;
    char *uid, *gid, *umask, *dmask, *fmask, *fsname, *subtype, *watch;
    int show_other, gamepaths, nonopts;
    char *rapified;                     /* text (default) or raw */
    char *configs;                      /* all (default) or none */
    char *timing;                       /* game (default) or frames */
    char *ahead;                        /* threads sizing ahead of a walk */
    char *bvh_unit, *bvh_fps;           /* how BVH sources are read */
    /* skeleton, digits, bvh_unit, bvh_fps: rtmfs_shared_options */
    unsigned max_read;
};

enum { KEY_MAX_READ = 1 };
/* -o ahead=N's bound. */
enum { AHEAD_MAX = 16 };

extern const struct fuse_opt rtmfs_option_spec[];
/* fuse_opt_parse's processing function; data is a struct options. */
int rtmfs_opt_proc(void *data, const char *arg, int key, struct fuse_args *outargs);
void rtmfs_usage(void);
/* The strings fuse_opt_parse made. */
void rtmfs_options_free(struct options *o);
/* -o ahead=N (NULL: one a CPU): the threads, or -1 when s is no number of
 * them. */
int rtmfs_ahead_threads(const char *s);
/* -o uid=, gid=, umask=, dmask=, fmask= into what the tree shows. */
int rtmfs_parse_attrs(const struct options *o, struct rtm_tree_attrs *a);
/* -o skeleton=, digits=, bvh_unit= and bvh_fps=, the options rtmcat takes
 * too, read by their one parser (shared_opts.h) into *out, which points
 * into *o. */
int rtmfs_shared_options(const struct options *o, struct rtm_shared_opts *out);

#endif
