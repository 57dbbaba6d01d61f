/* tree_kinds.c - the kind table: what each kind of target (enum tree_kind,
 * tree_int.h) is and does, one row a kind, as curl's handlers are one
 * struct a protocol.  A row says whether the kind is a folder or a file and
 * how its attributes are made, how a folder lists, and how a file's size
 * is known and its bytes are read: either by functions of its own (a view,
 * an archive entry, a source file) or from its content made whole once a
 * request (error.txt, pbo.txt, configs, states.txt, missing.txt,
 * conflicts.txt), so that stat and read share one maker.
 *
 * Every operation on a resolved target is a lookup in this table:
 * tree_kind_attr (stat), tree_kind_read (read), tree_kind_list (readdir),
 * and the questions tree.c asks (timeouts, what readdirplus may answer).
 * Tier 4 of the tree (tree_int.h): above the listers (tree_list.c), the
 * readers (tree_read.c), the resolver and the states; below tree.c. */
#include "tree_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pbo.h"
#include "store.h"
#include "views.h"

/* ---- contents made whole ---- */

/* A file's content: p[0..len), then a line end when eol is set; held by
 * b, ct or tmp until content_done. */
struct content {
    const char *p;
    size_t len;
    int eol;
    struct rtm_buf b;
    struct tree_config_text ct;
    char tmp[PATH_MAX + 256];
};
typedef int content_fn(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                       struct timespec *when);

static int from_buf(struct content *c, int rc)
{
    c->p = rc ? NULL : c->b.p;
    c->len = rc ? 0 : c->b.len;
    return rc;
}

/* error.txt: an animation's or archive's message, the cut an archive
 * suffered, or the SOURCE file gone; one line. */
static int content_error(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                         struct timespec *when)
{
    (void)when;
    if (tg->h) {
        c->p = rtmc_error(tg->h);       /* the animation or archive is broken */
    } else if (tg->gone) {
        snprintf(c->tmp, sizeof c->tmp, "%s: %s; the mount shows it again when it is back",
                 t->file, tg->gone == EISDIR ? "no longer a file" : strerror(tg->gone));
        c->p = c->tmp;
    } else {
        char cut[160];
        pbo_describe_cut(rtmc_pbo(tg->table), cut, sizeof cut);
        snprintf(c->tmp, sizeof c->tmp, "%s: %s", tg->src, cut);
        c->p = c->tmp;
    }
    c->len = strlen(c->p);
    c->eol = 1;
    return 0;
}

/* The bytes at the end of archive tg (table p) that say what its trailer
 * is, when its table was read without them (pbo.h): how many into tail,
 * or a negative errno (-ESTALE: the archive is no longer tg's version).
 * Remembered in the index, a record of their own (RTM_STORE_TRAILER), so
 * that a later mount's pbo.txt reads nothing. */
static long archive_tail(struct rtm_tree *t, const struct tree_target *tg, const struct pbo *p,
                         uint8_t tail[PBO_TAIL_MAX])
{
    if (p->trailer != PBO_TRAILER_UNKNOWN)
        return 0;
    struct rtm_store_key k;
    void *val;
    size_t len;
    int keyed = tree_archive_key(t, &tg->id, RTM_STORE_TRAILER, &k) == 0;
    if (keyed && rtm_store_get(tree_store(t), &k, &val, &len) == 0) {
        if (len == PBO_TAIL_MAX)
            memcpy(tail, val, len);
        free(val);
        if (len == PBO_TAIL_MAX)
            return PBO_TAIL_MAX;
        rtm_store_drop(tree_store(t), &k);      /* not a tail: read it again */
    }
    struct rtm_error err = { .msg = "" };
    int fd = rtm_work_openat(t->cfg.work, t->cfg.srcfd, tg->src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    long n = rtm_fileid_check(fd, &tg->id);
    if (n == 0 && (n = pbo_load_tail(t->cfg.work, fd, p, tail, &err)) < 0)
        n = err.code ? -err.code : -EIO;
    close(fd);
    if (n == PBO_TAIL_MAX && keyed)
        rtm_store_put(tree_store(t), &k, tail, (size_t)n);
    return n;
}

/* pbo.txt: the archive's table and trailer. */
static int content_info(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                        struct timespec *when)
{
    (void)when;
    const struct pbo *p = rtmc_pbo(tg->table);
    uint8_t tail[PBO_TAIL_MAX];
    long n = archive_tail(t, tg, p, tail);
    if (n < 0)
        return from_buf(c, (int)n);
    return from_buf(c, rtm_view_pbo_info(p, tail, (size_t)n, &c->b) ? -ENOMEM : 0);
}

/* A rapified config's text, made by the loader and kept in the cache. */
static int content_config(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                          struct timespec *when)
{
    (void)when;
    int rc = tree_config_text(t, tg, &c->ct);
    c->p = rc ? NULL : c->ct.text;
    c->len = rc ? 0 : c->ct.len;
    return rc;
}

static int content_states(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                          struct timespec *when)
{
    return from_buf(c, tree_states_text(t, tg, &c->b, when));
}

static int content_missing(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                           struct timespec *when)
{
    return from_buf(c, tree_missing_text(t, tg, &c->b, when));
}

static int content_rootcheck(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                             struct timespec *when)
{
    return from_buf(c, tree_rootcheck_text(t, tg, &c->b, when));
}

static int content_conflicts(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                             struct timespec *when)
{
    (void)tg;
    (void)when;
    return from_buf(c, tree_gamepaths_conflicts(t, &c->b));
}

/* ---- the table ---- */

/* How a kind's attributes are made from its source's stat. */
enum kind_attr {
    AS_SOURCE = 1,              /* (0: no row, which tree_kinds_complete finds) */                  /* the source's own (a folder of SOURCE, a file shown as it is) */
    AS_FOLDER,                  /* a folder made up: searchable where readable */
    AS_FILE,                    /* a file made up: read-only, its size its content's */
};

enum {
    OF_SOURCE = 1,              /* follows anything under SOURCE (configs, archives), not its
                                   version: short timeouts, and its size reads configs */
    TIMED = 2,                  /* a view, which the configs may time (tree_states_follow) */
    WATCHED = 4,                /* a folder of SOURCE, watched for changes */
    TABLE = 8,                  /* its attributes and listing need the archive's table */
    CONFIGS_TIME = 16,          /* its time is the configs' (its ctime too) */
};

struct kind_row {
    enum kind_attr attr;
    nlink_t nlink;              /* 0: the source's */
    unsigned flags;
    tree_list_fn *list;         /* a folder's entries */
    content_fn *content;        /* a file made whole: its bytes and size */
    tree_size_fn *size;         /* or a file's size (NULL: the source's) ... */
    tree_read_fn *read;         /* ... and bytes */
    /* an OF_SOURCE file's size when the configs are read already (a
     * listing gives it then): 0, or -EAGAIN (NULL: a listing never does) */
    int (*size_ready)(struct rtm_tree *t, const struct tree_target *tg, uint64_t *size);
    /* the time of a folder of an archive (NULL: the entry's, or the source's) */
    struct timespec (*time)(struct rtm_tree *t, struct tree_target *tg);
};

static struct timespec time_archive(struct rtm_tree *t, struct tree_target *tg)
{
    tree_archive_below(t, tg, "", &tg->newest);
    return tree_later(tg->newest, tg->st.st_mtim);      /* pbo.txt: the archive's */
}

static struct timespec time_archive_dir(struct rtm_tree *t, struct tree_target *tg)
{
    (void)t;
    return tg->newest;                  /* found when it was resolved */
}

static const struct kind_row kinds[] = {
    [TK_DIR]       = { AS_SOURCE, 1, WATCHED, .list = tree_list_dir },
    [TK_OTHER]     = { AS_SOURCE, 0, 0, .read = tree_read_other },
    [TK_ANIM]      = { AS_FOLDER, 1, 0, .list = tree_list_anim },
    [TK_VIEW_FOLDER] = { AS_FOLDER, 2, 0, .list = tree_list_views },
    [TK_VIEW]      = { AS_FILE, 1, TIMED, .size = tree_view_size, .read = tree_read_view },
    [TK_ERROR]     = { AS_FILE, 1, 0, .content = content_error },
    [TK_GONE]      = { AS_FOLDER, 1, 0, .list = tree_list_gone },
    [TK_PBO]       = { AS_FOLDER, 1, TABLE, .list = tree_list_archive, .time = time_archive },
    [TK_PDIR]      = { AS_FOLDER, 1, 0, .list = tree_list_archive_dir,
                       .time = time_archive_dir },
    [TK_PINFO]     = { AS_FILE, 1, 0, .content = content_info },
    [TK_PFILE]     = { AS_FILE, 1, 0, .size = tree_size_member, .read = tree_read_member },
    [TK_CONFIG]    = { AS_FILE, 1, 0, .content = content_config },
    [TK_PCONFIG]   = { AS_FILE, 1, 0, .content = content_config },
    [TK_STATES]    = { AS_FILE, 1, OF_SOURCE | CONFIGS_TIME, .content = content_states,
                       .size_ready = tree_states_text_size_ready },
    [TK_MISSING]   = { AS_FILE, 1, OF_SOURCE | CONFIGS_TIME, .content = content_missing },
    [TK_ROOTCHECK] = { AS_FILE, 1, OF_SOURCE | CONFIGS_TIME, .content = content_rootcheck },
    [TK_CONFLICTS] = { AS_FILE, 1, OF_SOURCE, .content = content_conflicts },
    [TK_CLIPS]     = { AS_FOLDER, 1, 0, .list = tree_list_clips },
};
_Static_assert(sizeof kinds / sizeof kinds[0] == TK_COUNT, "a row for every kind");

int tree_kinds_complete(void)
{
    for (size_t k = 0; k < TK_COUNT; k++)
        if (!kinds[k].attr || !tree_kind_traits_known((enum tree_kind)k))
            return 0;
    return 1;
}

static const struct kind_row *row_of(const struct tree_target *tg)
{
    return &kinds[tg->kind];
}

static void content_done(struct rtm_tree *t, struct content *c)
{
    rtm_buf_free(&c->b);
    tree_config_text_put(t, &c->ct);
}

static int make(struct rtm_tree *t, struct tree_target *tg, struct content *c,
                struct timespec *when)
{
    memset(c, 0, offsetof(struct content, tmp));
    rtm_buf_init(&c->b);
    return row_of(tg)->content(t, tg, c, when);
}

/* ---- attributes ---- */

/* A file's size, and its time into *when where the kind has one of its own. */
static int file_size(struct rtm_tree *t, struct tree_target *tg, uint64_t *size,
                     struct timespec *when)
{
    const struct kind_row *r = row_of(tg);
    struct content c;
    if (!r->content)
        return r->size(t, tg, size, when);
    int rc = make(t, tg, &c, when);
    *size = rc ? 0 : c.len + (size_t)c.eol;
    content_done(t, &c);
    return rc;
}

/* Folders we make up are readable and searchable where the source file is
 * readable; nothing is writable. */
static mode_t dir_mode(mode_t m)
{
    return S_IFDIR | (m & 0444) | ((m & 0444) >> 2);
}

/* -o uid=, gid=, umask=, dmask=, fmask= */
static void apply_attrs(const struct rtm_tree_attrs *a, struct stat *st)
{
    int dir = S_ISDIR(st->st_mode);
    if (a->set & RTM_ATTR_UID)
        st->st_uid = a->uid;
    if (a->set & RTM_ATTR_GID)
        st->st_gid = a->gid;
    if (a->set & (dir ? RTM_ATTR_DMASK : RTM_ATTR_FMASK))
        st->st_mode = (st->st_mode & S_IFMT) | (0777 & ~(dir ? a->dmask : a->fmask));
}

/* Inside an archive, the time an entry or folder shows: the entry's, or
 * for a folder the newest below it.  What the configs give (states.txt, a
 * timed view) keeps their time when it is later: a config rewritten must
 * move it. */
static void archive_times(struct rtm_tree *t, struct tree_target *tg, struct stat *st)
{
    const struct kind_row *r = row_of(tg);
    int configs = st->st_mtim.tv_sec != tg->st.st_mtim.tv_sec ||
                  st->st_mtim.tv_nsec != tg->st.st_mtim.tv_nsec;
    struct timespec at = r->time ? r->time(t, tg)
                         : tg->entry >= 0 ? tree_entry_time(tg, tg->entry) : tg->st.st_mtim;
    st->st_atim = at;
    st->st_mtim = configs ? tree_later(at, st->st_mtim) : at;
}

int tree_kind_attr(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, struct stat *st)
{
    const struct kind_row *r = row_of(tg);
    *st = tg->st;
    st->st_ino = (ino_t)ino;
    st->st_mode &= ~(mode_t)07222;      /* read-only, no set-id bits */
    if (r->nlink)
        st->st_nlink = r->nlink;        /* a folder's 1: "count unknown" for find */
    if (r->attr == AS_FOLDER) {
        st->st_mode = dir_mode(tg->st.st_mode);
        st->st_size = 0;
    } else if (r->attr == AS_FILE) {
        uint64_t size = 0;
        int rc = file_size(t, tg, &size, &st->st_mtim);
        if (rc == -EIO)
            tree_stale(t, tg, ino);
        if (rc)
            return rc;
        st->st_mode = S_IFREG | (tg->st.st_mode & 0555);
        st->st_size = (off_t)size;
        if (r->flags & CONFIGS_TIME)
            st->st_ctim = st->st_mtim;
    }
    st->st_blocks = (st->st_size + 511) / 512;
    st->st_blksize = 4096;
    if ((r->flags & TABLE) && !tg->table)
        tree_resolve_archive(t, tg, "");    /* its time needs the table (cached) */
    if (tg->table && rtmc_pbo(tg->table))
        archive_times(t, tg, st);
    apply_attrs(&t->cfg.attrs, st);
    return 0;
}

/* ---- reads and listings ---- */

ssize_t tree_kind_read(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, char *buf,
                       size_t size, off_t off)
{
    const struct kind_row *r = row_of(tg);
    struct content c;
    struct timespec when;
    if (r->read)
        return r->read(t, tg, ino, buf, size, off);
    if (!r->content)
        return -EISDIR;
    ssize_t n = make(t, tg, &c, &when);
    if (n == 0)
        n = tree_slice(buf, size, c.p, c.len, off);
    if (n >= 0 && c.eol && (size_t)n < size && (uint64_t)off + (uint64_t)n == c.len)
        buf[n++] = '\n';                /* the line's end */
    content_done(t, &c);
    return n;
}

int tree_kind_list(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                   struct rtm_dirlist *d)
{
    const struct kind_row *r = row_of(tg);
    if (!r->list)
        return -ENOTDIR;
    int rc = (r->flags & TABLE) && !tg->table ? tree_resolve_archive(t, tg, "") : 0;
    if (!rc)
        rc = tree_list_put(t, d, ".", S_IFDIR, RTM_INO_ROOT);
    if (!rc)
        rc = tree_list_put(t, d, "..", S_IFDIR, RTM_INO_ROOT);
    if (!rc)
        rc = r->list(t, ino, tg, path, d);
    if (!rc && ino == RTM_INO_ROOT)
        rc = tree_list_missing(t, d);
    return rc;
}

/* ---- what tree.c asks ---- */

int tree_kind_follows_source(const struct rtm_tree *t, const struct tree_target *tg)
{
    const struct kind_row *r = row_of(tg);
    return (r->flags & OF_SOURCE) || ((r->flags & TIMED) && tree_states_follow(t, tg->view));
}

int tree_kind_watched(const struct tree_target *tg)
{
    return !!(row_of(tg)->flags & WATCHED);
}

int tree_kind_size_known(struct rtm_tree *t, struct tree_target *tg)
{
    uint64_t size;
    const struct kind_row *r = row_of(tg);
    if (r->flags & OF_SOURCE)           /* its size needs the configs read */
        return r->size_ready && r->size_ready(t, tg, &size) == 0;
    return !(r->flags & TIMED) || rtmc_view_level(tg->view) == RTMC_SHAPE ||
           tree_view_size_known(t, tg, &size) == 0;
}
