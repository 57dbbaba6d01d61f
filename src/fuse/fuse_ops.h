/* fuse_ops.h - the FUSE operations (libfuse3 low-level API).  Each decodes
 * a request, asks the tree (tree.h) and replies; nothing here decides what
 * the mount shows.
 *
 * Contract: the session's userdata is a struct rtmfs_ops_ctx, whose tree
 * and session outlive the session loop.  rtmfs_notify() gives the change
 * callbacks (struct rtm_tree_notify) that tell this session's kernel what
 * to forget; they never run inside a request handler.  rtmfs_stale() is
 * the tree's stale hook (tree.h): it runs inside one (or on a worker
 * sizing ahead), so a thread of its own tells the kernel;
 * rtmfs_stale_end() stops new ones from telling it and waits for those
 * running, before the session is unmounted: the session's fd must not be
 * written while it is closed.
 */
#ifndef RTM_FUSE_OPS_H
#define RTM_FUSE_OPS_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include <stdatomic.h>

#include "tree.h"

struct rtmfs_ops_ctx {
    struct rtm_tree *tree;
    struct fuse_session *se;
    struct rtm_open_policy policy;      /* set in init from the kernel's capabilities */
    unsigned max_read;                  /* -o max_read=, which init must repeat */
    atomic_int stale_threads;           /* rtmfs_stale()'s, still running */
    atomic_int ending;                  /* rtmfs_stale_end() was called */
    struct rtm_work *work;              /* counts the notifications sent (work.h) */
};

extern const struct fuse_lowlevel_ops rtmfs_ops;
struct rtm_tree_notify rtmfs_notify(struct rtmfs_ops_ctx *c);
void rtmfs_stale(void *ctx, uint64_t ino, uint64_t n);
void rtmfs_stale_end(struct rtmfs_ops_ctx *c);

#endif
