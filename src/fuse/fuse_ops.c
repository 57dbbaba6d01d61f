/* fuse_ops.c - the FUSE operations: decode, ask the tree, reply (see
 * fuse_ops.h).  Writes need no handler: the mount is forced read-only, so
 * the kernel answers EROFS before asking. */
#include "fuse_ops.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/statvfs.h>

#include "work.h"

/* Taken before replying: a reply frees the request. */
static struct rtmfs_ops_ctx *ctx_of(fuse_req_t req) { return fuse_req_userdata(req); }
static struct rtm_tree *tree_of(fuse_req_t req) { return ctx_of(req)->tree; }

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
    struct rtmfs_ops_ctx *c = userdata;
    unsigned capable = 0;
    if (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT)
        capable |= RTM_CAP_NO_OPEN;
    if (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT)
        capable |= RTM_CAP_NO_OPENDIR;
    c->policy = rtm_tree_open_policy(capable);
    /* a changed view has a new mtime or size: the kernel drops old pages */
    conn->want |= conn->capable & FUSE_CAP_AUTO_INVAL_DATA;
    /* every call of a listing is a readdirplus, not only its first: in
     * auto mode the kernel went on with plain readdir once the first reply
     * was full (204 entries), and a walk that stats looked up each name
     * after that one at a time (a later mount's du of 1,000 animations:
     * 4,669 lookups, a third of its requests).  A walk that does not stat
     * is given no attributes where it earns none (tree.h), and a listing
     * of up to 408 names takes as many calls either way. */
    conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
    conn->want &= ~(unsigned)FUSE_CAP_EXPLICIT_INVAL_DATA;
    conn->max_read = c->max_read;       /* libfuse refuses a mount where they differ */
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
    struct rtm_tree *t = tree_of(req);
    struct rtm_tree_entry te;
    int rc = rtm_tree_lookup(t, parent, name, &te);
    if (rc) {
        fuse_reply_err(req, -rc);
        return;
    }
    struct fuse_entry_param e = { .ino = te.ino, .attr = te.st, .attr_timeout = te.timeout,
                                  .entry_timeout = te.timeout };
    if (fuse_reply_entry(req, &e))
        rtm_tree_forget(t, te.ino, 1);   /* the kernel did not get it */
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
    rtm_tree_forget(tree_of(req), ino, nlookup);
    fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *f)
{
    for (size_t i = 0; i < count; i++)
        rtm_tree_forget(tree_of(req), f[i].ino, f[i].nlookup);
    fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    struct rtm_tree_entry te;
    (void)fi;
    int rc = rtm_tree_getattr(tree_of(req), ino, &te);
    if (rc)
        fuse_reply_err(req, -rc);
    else
        fuse_reply_attr(req, &te.st, te.timeout);
}

/* Where the kernel can do without open and opendir, ENOSYS spares every
 * later open its round trip and keeps pages and listings cached; elsewhere
 * a real open asks for the same caching. */
static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    (void)ino;
    if (ctx_of(req)->policy.opendir_enosys) {
        fuse_reply_err(req, ENOSYS);
        return;
    }
    fi->cache_readdir = 1;
    fi->keep_cache = 1;
    fuse_reply_open(req, fi);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    (void)ino;
    if (ctx_of(req)->policy.open_enosys) {
        fuse_reply_err(req, ENOSYS);
        return;
    }
    fi->keep_cache = 1;
    fuse_reply_open(req, fi);
}

/* readdir and readdirplus.  With plus, the entries of an animation's or
 * an archive's folder come with their attributes where they are known
 * without parsing (tree.h says which), sparing ls -l, and a grep -r that
 * descends into every animation and reads its bones.txt, a lookup each.
 * The others come as readdir gives them (ino 0: the kernel looks them up
 * itself when it needs to). */
static void reply_listing(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, int plus)
{
    struct rtm_tree *t = tree_of(req);
    struct rtm_dirlist *d;
    int rc = rtm_tree_listing(t, ino, off, &d);
    size_t from = !rc && off > 0 ? (size_t)off : 0, to = rc || from > d->n ? from : d->n;
    size_t fit = size / fuse_add_direntry_plus(req, NULL, 0, "", NULL, 0) + 1;
    if (plus && to - from > fit)
        to = from + fit;                /* no more can fit */
    if (off < 0)
        to = from;
    char *buf = rc ? NULL : malloc(size ? size : 1);
    /* not zeroed: rtm_tree_listed_entries sets every ino (a folder of views
     * lists thousands, mostly without attributes) */
    struct rtm_tree_entry *te = rc || !plus ? NULL : malloc((to - from + 1) * sizeof *te);
    if (rc || !buf || (plus && !te)) {
        fuse_reply_err(req, rc ? -rc : ENOMEM);
        free(buf);
        free(te);
        rtm_tree_listing_put(t, d);
        return;
    }
    if (plus)
        rtm_tree_listed_entries(t, ino, d, from, to, te);
    size_t pos = 0, i = from, len;
    for (; i < to; i++) {
        struct stat bare = { .st_ino = (ino_t)d->e[i].ino, .st_mode = d->e[i].type };
        struct rtm_tree_entry *x = plus ? &te[i - from] : NULL;
        struct fuse_entry_param e = { .attr = bare };
        if (x && x->ino)
            e = (struct fuse_entry_param){ .ino = x->ino, .attr = x->st,
                                           .attr_timeout = x->timeout,
                                           .entry_timeout = x->timeout };
        len = plus ? fuse_add_direntry_plus(req, buf + pos, size - pos, d->e[i].name, &e,
                                            (off_t)i + 1)
                   : fuse_add_direntry(req, buf + pos, size - pos, d->e[i].name, &bare,
                                       (off_t)i + 1);
        if (len > size - pos)
            break;
        pos += len;
    }
    for (; plus && i < to; i++)         /* not sent: their lookups were not made */
        if (te[i - from].ino)
            rtm_tree_forget(t, te[i - from].ino, 1);
    fuse_reply_buf(req, buf, pos);
    free(buf);
    free(te);
    rtm_tree_listing_put(t, d);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                       struct fuse_file_info *fi)
{
    (void)fi;
    reply_listing(req, ino, size, off, 0);
}

static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                           struct fuse_file_info *fi)
{
    (void)fi;
    reply_listing(req, ino, size, off, 1);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    (void)fi;
    char *buf = malloc(size ? size : 1);
    ssize_t n = buf ? rtm_tree_read(tree_of(req), ino, buf, size, off) : -ENOMEM;
    if (n < 0)
        fuse_reply_err(req, (int)-n);
    else
        fuse_reply_buf(req, buf, (size_t)n);
    free(buf);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
    struct statvfs sv;
    (void)ino;
    int rc = rtm_tree_statfs(tree_of(req), &sv);
    if (rc)
        fuse_reply_err(req, -rc);
    else
        fuse_reply_statfs(req, &sv);
}

const struct fuse_lowlevel_ops rtmfs_ops = {
    .init = op_init,
    .lookup = op_lookup,
    .forget = op_forget,
    .forget_multi = op_forget_multi,
    .getattr = op_getattr,
    .opendir = op_opendir,
    .readdir = op_readdir,
    .readdirplus = op_readdirplus,
    .open = op_open,
    .read = op_read,
    .statfs = op_statfs,
};

static void inval_entry(void *ctx, uint64_t parent, const char *name)
{
    struct rtmfs_ops_ctx *c = ctx;
    rtm_work_add(c->work, RTM_WORK_STALE, 1);
    fuse_lowlevel_notify_inval_entry(c->se, parent, name, strlen(name));
}

static void inval_inode(void *ctx, uint64_t ino)
{
    struct rtmfs_ops_ctx *c = ctx;
    rtm_work_add(c->work, RTM_WORK_STALE, 1);
    fuse_lowlevel_notify_inval_inode(c->se, ino, 0, 0);
}

struct rtm_tree_notify rtmfs_notify(struct rtmfs_ops_ctx *c)
{
    return (struct rtm_tree_notify){ .ctx = c, .entry = inval_entry, .inode = inval_inode };
}

/* Told from inside a request: the kernel may hold a lock that request's
 * reply releases, so the notification waits for it on a thread of its own
 * (a wrong remembered size, a listing that met a failed read: rare, so a
 * thread each is cheap enough).  It waits STALE_AFTER_MS first: the kernel
 * fills its caches (a listing's pages, from this readdir and the empty one
 * that ends it) after the replies, and a notification before that would be
 * undone by them. */
enum { STALE_AFTER_MS = 50 };
struct stale {
    struct rtmfs_ops_ctx *c;
    uint64_t ino, n;
};

static void *stale_thread(void *arg)
{
    struct stale *s = arg;
    usleep(STALE_AFTER_MS * 1000);
    for (uint64_t i = 0; s->c->se && !atomic_load(&s->c->ending) && i < s->n; i++) {
        rtm_work_add(s->c->work, RTM_WORK_STALE, 1);
        fuse_lowlevel_notify_inval_inode(s->c->se, rtm_ino_after(s->ino, i), 0, 0);
    }
                                        /* ENOENT: not held */
    atomic_fetch_sub(&s->c->stale_threads, 1);
    free(s);
    return NULL;
}

void rtmfs_stale(void *ctx, uint64_t ino, uint64_t n)
{
    struct rtmfs_ops_ctx *c = ctx;
    struct stale *s = malloc(sizeof *s);
    pthread_t th;
    pthread_attr_t attr;
    if (!s)
        return;                         /* the attributes time out in the end */
    *s = (struct stale){ c, ino, n };
    atomic_fetch_add(&c->stale_threads, 1);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &attr, stale_thread, s)) {
        atomic_fetch_sub(&c->stale_threads, 1);
        free(s);
    }
    pthread_attr_destroy(&attr);
}

void rtmfs_stale_end(struct rtmfs_ops_ctx *c)
{
    /* a thread that counted itself before this store is waited for; one
     * that counts itself after it sees ending and writes nothing */
    atomic_store(&c->ending, 1);
    while (atomic_load(&c->stale_threads) > 0)
        usleep(1000);
}
