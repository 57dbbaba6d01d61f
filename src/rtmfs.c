/* rtmfs - a read-only FUSE mount that shows every .rtm file of SOURCE as a
 * directory of the views rtmcat prints, and every .pbo archive as a
 * directory of its entries (its .rtm entries as such directories too).
 *
 * The layer is thin: a mount path names a source file (or directory) plus,
 * inside an archive, an entry and, inside an animation, a view; the bytes
 * come from the cache (cache.h, loaded by loader.h), which keys everything
 * by the source file's identity, so a rewritten file can never mix with its
 * old version.  The low-level API is used because it
 * lets us choose stable inode numbers and invalidate kernel dentries when
 * inotify reports a change in SOURCE.
 */
#define FUSE_USE_VERSION 312
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <lzo/lzoconf.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cache.h"
#include "loader.h"
#include "pbo.h"
#include "rtm.h"
#include "skeleton.h"
#include "version.h"
#include "views.h"

/* The kernel may keep entries and attributes this long: inotify tells it
 * when something changed, so there is no reason to ask again sooner. */
#define CACHE_TIMEOUT 3600.0
#define ERROR_NAME "error.txt"
#define FRAMES_NAME "frames"

/* ---- the inode table: stable numbers for the paths the kernel knows ---- */

/* One version of a source file.  Everything at or below an animation's
 * directory carries the version it was looked up in, and its inode number
 * depends on it: after a change the kernel meets new inodes (and drops no
 * page it should keep), while a file still open on an old inode reads that
 * version or fails, never a mix of two. */
struct ident {
    uint64_t dev, ino, size;
    int64_t mtime_ns;
};

static const struct ident NO_IDENT;

struct node {
    struct node *inext, *pnext;   /* hash chains by ino and by path */
    fuse_ino_t ino;
    uint64_t nlookup;
    struct ident id;              /* NO_IDENT for directories and other files */
    char *path;                   /* relative to the mount root, "" for it */
};

struct table {
    pthread_mutex_t lock;
    struct node **by_ino, **by_path;
    size_t size, count;
    size_t bytes;                 /* what the table holds, nodes and arrays */
};

/* A node's memory, malloc's own overhead included. */
static size_t node_bytes(const struct node *n) { return sizeof *n + strlen(n->path) + 1 + 64; }

struct fs {
    int srcfd;
    char *source;                 /* absolute path of SOURCE */
    struct rtm_skeleton *skel;
    struct rtmc *cache;
    struct rtm_loader loader;
    int show_other;
    struct fuse_session *se;
    struct table nodes;
    /* The last listings built: the kernel reads a large directory in many
     * readdir calls, which must neither rebuild it each time (quadratic)
     * nor see it change in the middle. */
    pthread_mutex_t llock;
    struct { fuse_ino_t ino; struct dirlist *d; } listing[2];
    unsigned lnext;
    /* The archive entry decoded last stays referenced: one larger than the
     * cache's budget, read in many calls, is then decoded once, not once
     * a call. */
    pthread_mutex_t dlock;
    struct rtmc_entry *last_data;
    /* inotify: one watch per source directory the kernel has seen */
    int ifd, stop[2];
    pthread_t watcher;
    int watching;
    pthread_mutex_t wlock;
    char **wpath;                 /* indexed by watch descriptor */
    size_t nwpath;
};

static uint64_t hash64(const char *s)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a, then a final mix */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    h ^= h >> 29;
    return h;
}

static int table_init(struct table *t)
{
    pthread_mutex_init(&t->lock, NULL);
    t->size = 1 << 12;
    t->bytes = 2 * t->size * sizeof *t->by_ino;
    t->by_ino = calloc(t->size, sizeof *t->by_ino);
    t->by_path = calloc(t->size, sizeof *t->by_path);
    return t->by_ino && t->by_path ? 0 : -1;
}

static struct node *find_ino(struct table *t, fuse_ino_t ino)
{
    struct node *n = t->by_ino[ino % t->size];
    while (n && n->ino != ino)
        n = n->inext;
    return n;
}

static int same_ident(const struct ident *a, const struct ident *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns;
}

static uint64_t ident_hash(const struct ident *id)
{
    if (same_ident(id, &NO_IDENT))
        return 0;
    uint64_t h = id->ino * 0x9e3779b97f4a7c15ull ^ id->size * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)id->mtime_ns * 0x165667b19e3779f9ull ^ id->dev;
    return h ^ (h >> 31);
}

static struct ident ident_of(const struct stat *st)
{
    return (struct ident){ (uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint64_t)st->st_size,
                           (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec };
}

static struct node *find_path(struct table *t, const char *path, const struct ident *id)
{
    struct node *n = t->by_path[hash64(path) % t->size];
    while (n && (strcmp(n->path, path) || !same_ident(&n->id, id)))
        n = n->pnext;
    return n;
}

static void link_node(struct table *t, struct node *n)
{
    size_t pi = hash64(n->path) % t->size;
    n->inext = t->by_ino[n->ino % t->size];
    t->by_ino[n->ino % t->size] = n;
    n->pnext = t->by_path[pi];
    t->by_path[pi] = n;
}

/* Doubles both hash arrays so chains stay short; keeps the old ones on OOM. */
static void table_grow(struct table *t)
{
    struct node **oi = t->by_ino, **op = t->by_path;
    size_t old = t->size;
    t->by_ino = calloc(old * 2, sizeof *t->by_ino);
    t->by_path = calloc(old * 2, sizeof *t->by_path);
    if (!t->by_ino || !t->by_path) {
        free(t->by_ino);
        free(t->by_path);
        t->by_ino = oi;
        t->by_path = op;
        return;
    }
    t->size = old * 2;
    t->bytes += 2 * old * sizeof *t->by_ino;
    for (size_t i = 0; i < old; i++)
        for (struct node *n = oi[i], *next; n; n = next) {
            next = n->inext;
            link_node(t, n);
        }
    free(oi);
    free(op);
}

/* Counts one kernel lookup of (path, version) and returns its inode number,
 * a hash of both, so that it stays the same across forgets. */
static fuse_ino_t node_ref(struct table *t, const char *path, const struct ident *id)
{
    pthread_mutex_lock(&t->lock);
    struct node *n = find_path(t, path, id);
    if (!n && (n = calloc(1, sizeof *n)) && !(n->path = strdup(path))) {
        free(n);
        n = NULL;
    } else if (n && !n->ino) {
        n->id = *id;
        fuse_ino_t ino = hash64(path) ^ ident_hash(id);
        while (ino <= FUSE_ROOT_ID || find_ino(t, ino))
            ino++;                      /* a collision: probe on */
        n->ino = ino;
        t->bytes += node_bytes(n);
        if (++t->count > t->size)
            table_grow(t);
        link_node(t, n);
    }
    fuse_ino_t ino = 0;
    if (n) {
        n->nlookup++;
        ino = n->ino;
    }
    pthread_mutex_unlock(&t->lock);
    return ino;
}

static void unlink_node(struct table *t, struct node *n)
{
    struct node **pp = &t->by_ino[n->ino % t->size];
    while (*pp != n)
        pp = &(*pp)->inext;
    *pp = n->inext;
    pp = &t->by_path[hash64(n->path) % t->size];
    while (*pp != n)
        pp = &(*pp)->pnext;
    *pp = n->pnext;
    t->count--;
}

static void node_forget(struct table *t, fuse_ino_t ino, uint64_t nlookup)
{
    pthread_mutex_lock(&t->lock);
    struct node *n = find_ino(t, ino);
    if (n && (n->nlookup -= nlookup < n->nlookup ? nlookup : n->nlookup) == 0) {
        unlink_node(t, n);
        t->bytes -= node_bytes(n);
        free(n->path);
        free(n);
    }
    pthread_mutex_unlock(&t->lock);
}

/* Copies the path of ino into buf and its version into *id; -ENOENT when
 * the kernel never saw it. */
static int node_path(struct table *t, fuse_ino_t ino, char *buf, size_t n, struct ident *id)
{
    *id = NO_IDENT;
    if (ino == FUSE_ROOT_ID) {
        buf[0] = 0;
        return 0;
    }
    pthread_mutex_lock(&t->lock);
    struct node *nd = find_ino(t, ino);
    int rc = nd && strlen(nd->path) < n ? 0 : -ENOENT;
    if (!rc) {
        strcpy(buf, nd->path);
        *id = nd->id;
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

static size_t table_bytes(struct table *t)
{
    pthread_mutex_lock(&t->lock);
    size_t b = t->bytes;
    pthread_mutex_unlock(&t->lock);
    return b;
}

/* The inode of an unversioned path (a directory or another file), or 0. */
static fuse_ino_t path_ino(struct table *t, const char *path)
{
    if (!*path)
        return FUSE_ROOT_ID;
    pthread_mutex_lock(&t->lock);
    struct node *n = find_path(t, path, &NO_IDENT);
    fuse_ino_t ino = n ? n->ino : 0;
    pthread_mutex_unlock(&t->lock);
    return ino;
}

static void table_free(struct table *t)
{
    for (size_t i = 0; i < t->size; i++)
        for (struct node *n = t->by_ino[i], *next; n; n = next) {
            next = n->inext;
            free(n->path);
            free(n);
        }
    free(t->by_ino);
    free(t->by_path);
    pthread_mutex_destroy(&t->lock);
}

/* ---- mount path -> source file and view ---- */

enum kind {
    K_DIR, K_OTHER,               /* a source directory, another source file */
    K_ANIM, K_FRAMES, K_VIEW,     /* an animation's directory and views */
    K_ERROR,                      /* an animation's or archive's error.txt */
    K_PBO, K_PDIR, K_PINFO,       /* an archive, a directory in it, its pbo.txt */
    K_PFILE,                      /* an archive entry shown as it is */
};

struct target {
    enum kind kind;
    struct stat st;               /* of the source file (or archive) or directory */
    char src[PATH_MAX];           /* source path relative to SOURCE */
    const char *rest;             /* path inside an animation directory, or (for
                                     K_PBO and K_PDIR) inside an archive */
    struct rtmc_entry *h;         /* for K_FRAMES, K_VIEW, K_ERROR; put it */
    struct rtmc_entry *table;     /* the archive's table, once needed; put it */
    long entry;                   /* the archive entry (K_PFILE, or an anim's), or -1 */
    struct rtm_view view;
    const struct ident *pin;      /* the version asked for, or NULL: current */
    int full;                     /* needs matrices: a frame or plain.rtm */
};

/* A cache key for an archive entry: "ARCHIVE/ENTRY" */
enum { KEY_MAX = PATH_MAX + PBO_NAME_MAX + 2 };

/* Kinds that live at or below an animation's directory carry a version. */
static int versioned(enum kind k) { return k != K_DIR && k != K_OTHER; }

static int is_rtm_name(const char *name, size_t len)
{
    return rtm_name_ends(name, len, ".rtm");
}

static int is_pbo_name(const char *name, size_t len)
{
    return rtm_name_ends(name, len, ".pbo");
}

static const char *src_arg(const char *rel) { return *rel ? rel : "."; }

/* Classifies an existing source object; -ENOENT for what the mount hides:
 * symlinked directories (loops), devices, fifos, and other files unless
 * show_other. */
static int classify(struct fs *fs, const char *rel, struct target *t)
{
    struct stat lst;
    if (fstatat(fs->srcfd, src_arg(rel), &lst, AT_SYMLINK_NOFOLLOW))
        return -errno;
    if (S_ISLNK(lst.st_mode) && fstatat(fs->srcfd, rel, &t->st, 0))
        return -errno;
    if (!S_ISLNK(lst.st_mode))
        t->st = lst;
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    if (S_ISDIR(t->st.st_mode) && !S_ISLNK(lst.st_mode))
        t->kind = K_DIR;
    else if (S_ISREG(t->st.st_mode) && is_rtm_name(base, strlen(base)))
        t->kind = K_ANIM;
    else if (S_ISREG(t->st.st_mode) && is_pbo_name(base, strlen(base)))
        t->kind = K_PBO;
    else if (S_ISREG(t->st.st_mode) && fs->show_other)
        t->kind = K_OTHER;
    else
        return -ENOENT;
    return 0;
}

/* Makes t describe version id of its source file (size, times). */
static void pin_version(struct target *t, const struct ident *id)
{
    t->st.st_dev = (dev_t)id->dev;
    t->st.st_ino = (ino_t)id->ino;
    t->st.st_size = (off_t)id->size;
    t->st.st_mtim.tv_sec = (time_t)(id->mtime_ns / 1000000000);
    t->st.st_mtim.tv_nsec = (long)(id->mtime_ns % 1000000000);
}

/* Gets the cache entry of kind for key (t->src, or for an archive entry
 * "t->src/ENTRY"): of the version pinned in t->pin, or else of the current
 * one, following the file if it changes while it is read. */
static int get_entry(struct fs *fs, struct target *t, const char *key, enum rtmc_kind kind,
                     struct rtmc_entry **h)
{
    struct rtmc_src s = { key, 0, 0, 0, 0, kind == RTMC_ANIM && !t->full, kind,
                          key == t->src ? 0 : strlen(t->src) };
    if (t->pin)
        pin_version(t, t->pin);
    for (int tries = 0; tries < 5; tries++) {
        struct ident id = ident_of(&t->st);
        s.dev = id.dev, s.ino = id.ino, s.size = id.size, s.mtime_ns = id.mtime_ns;
        int rc = rtmc_get(fs->cache, &s, h);
        if (rc != -ESTALE || t->pin)
            return rc;
        if (fstatat(fs->srcfd, t->src, &t->st, 0))
            return -errno;
        if (!S_ISREG(t->st.st_mode))
            return -ENOENT;
    }
    return -EIO;
}

/* The cache key of archive entry t->entry. */
static void member_key(const struct target *t, char key[KEY_MAX])
{
    snprintf(key, KEY_MAX, "%s/%s", t->src, rtmc_pbo(t->table)->entries[t->entry].path);
}

/* Gets the parsed animation t names: a file, or an archive's entry. */
static int load_anim(struct fs *fs, struct target *t)
{
    char key[KEY_MAX];
    if (t->entry < 0)
        return get_entry(fs, t, t->src, RTMC_ANIM, &t->h);
    member_key(t, key);
    return get_entry(fs, t, key, RTMC_ANIM, &t->h);
}

/* Resolves what is inside an animation directory (t->rest). */
static int resolve_inner(struct fs *fs, struct target *t)
{
    /* listings, header.txt and bones.txt need no matrices: a cheaper parse */
    t->full = strncmp(t->rest, "frames/", 7) == 0 || strcmp(t->rest, "plain.rtm") == 0;
    int rc = load_anim(fs, t);
    if (rc)
        return rc;
    const struct rtm_anim *a = rtmc_anim(t->h);
    if (!a)
        t->kind = K_ERROR;
    else if (strcmp(t->rest, FRAMES_NAME) == 0)
        t->kind = K_FRAMES;
    else if (rtm_view_lookup(a, t->rest, &t->view) == 0)
        t->kind = K_VIEW;
    if ((!a && strcmp(t->rest, ERROR_NAME)) || (a && t->kind == K_ANIM)) {
        rtmc_put(fs->cache, t->h);
        t->h = NULL;
        return -ENOENT;
    }
    return 0;
}

/* Resolves inner, a path below the directories of archive t->src whose
 * table is t->table, one component at a time. */
static int resolve_member(struct fs *fs, struct target *t, const struct pbo *p, const char *inner)
{
    char q[PATH_MAX];
    for (const char *end = inner;; end++) {
        if (*end && *end != '/')
            continue;
        size_t n = (size_t)(end - inner);
        memcpy(q, inner, n);
        q[n] = 0;
        enum pbo_node node = pbo_lookup(p, q, &t->entry);
        if (node == PBO_DIR && !*end) {
            t->kind = K_PDIR;
            t->rest = inner;
            return 0;
        }
        if (node == PBO_FILE && is_rtm_name(q, n)) {
            t->kind = K_ANIM;
            t->rest = end + (*end != 0);
            return *end ? resolve_inner(fs, t) : 0;
        }
        if (node == PBO_FILE && !*end && fs->show_other) {
            t->kind = K_PFILE;
            return 0;
        }
        if (node != PBO_DIR)
            return -ENOENT;
    }
}

/* Resolves inner, a path inside archive t->src ("" for the archive itself):
 * a broken archive holds only error.txt, a good one pbo.txt and its tree. */
static int resolve_archive(struct fs *fs, struct target *t, const char *inner)
{
    t->kind = K_PBO;
    t->rest = "";
    int rc = get_entry(fs, t, t->src, RTMC_TABLE, &t->table);
    const struct pbo *p = rc ? NULL : rtmc_pbo(t->table);
    if (rc || !*inner)
        return rc;
    if (!p && strcmp(inner, ERROR_NAME) == 0) {
        t->kind = K_ERROR;
        t->h = t->table;
        t->table = NULL;
        return 0;
    }
    if (!p)
        return -ENOENT;
    if (strcmp(inner, RTM_PBO_INFO_NAME) == 0) {
        t->kind = K_PINFO;
        return 0;
    }
    return resolve_member(fs, t, p, inner);
}

/* Finds the animation or archive among the leading components of path. */
static int resolve_prefix(struct fs *fs, const char *path, struct target *t)
{
    for (const char *p = path, *slash; (slash = strchr(p, '/')); p = slash + 1) {
        size_t len = (size_t)(slash - p);
        if (!is_rtm_name(p, len) && !is_pbo_name(p, len))
            continue;
        size_t n = (size_t)(slash - path);
        memcpy(t->src, path, n);
        t->src[n] = 0;
        int rc = classify(fs, t->src, t);
        if (rc == 0 && t->kind == K_ANIM) {
            t->rest = path + n + 1;
            return resolve_inner(fs, t);
        }
        if (rc == 0 && t->kind == K_PBO)
            return resolve_archive(fs, t, path + n + 1);
        if (rc == 0 && t->kind == K_DIR)
            continue;
        return -ENOENT;
    }
    return -ENOENT;
}

/* Resolves a mount path; id is the version the kernel's inode names
 * (NO_IDENT: whatever is current). */
static int resolve(struct fs *fs, const char *path, const struct ident *id, struct target *t)
{
    memset(t, 0, sizeof *t);
    t->entry = -1;
    t->rest = "";
    t->pin = id && !same_ident(id, &NO_IDENT) ? id : NULL;
    if (strlen(path) >= sizeof t->src)
        return -ENAMETOOLONG;
    strcpy(t->src, path);
    int rc = classify(fs, path, t);
    if (rc == 0 && t->pin && versioned(t->kind))
        pin_version(t, t->pin);
    if (rc == -ENOTDIR || rc == -ENOENT)
        rc = resolve_prefix(fs, path, t);
    return rc;
}

static void target_done(struct fs *fs, struct target *t)
{
    rtmc_put(fs->cache, t->h);
    rtmc_put(fs->cache, t->table);
    t->h = t->table = NULL;
}

/* ---- attributes ---- */

/* Directories we make up are readable and searchable where the source file
 * is readable; nothing is writable. */
static mode_t dir_mode(mode_t m)
{
    return S_IFDIR | (m & 0444) | ((m & 0444) >> 2);
}

static int view_size(struct fs *fs, struct target *t, uint64_t *size)
{
    if (t->kind == K_ERROR) {
        *size = strlen(rtmc_error(t->h)) + 1;
        return 0;
    }
    return rtmc_view_size(fs->cache, t->h, t->view, size);
}

/* pbo.txt of t's archive into b; -ENOMEM. */
static int render_info(const struct target *t, struct rtm_buf *b)
{
    buf_init(b);
    if (rtm_view_pbo_info(rtmc_pbo(t->table), b) == 0)
        return 0;
    buf_free(b);
    return -ENOMEM;
}

static int regular_size(struct fs *fs, struct target *t, uint64_t *size)
{
    struct rtm_buf b;
    if (t->kind == K_PFILE) {
        *size = pbo_entry_content_size(&rtmc_pbo(t->table)->entries[t->entry]);
    } else if (t->kind == K_PINFO) {
        if (render_info(t, &b))
            return -ENOMEM;
        *size = b.len;
        buf_free(&b);
    } else {
        return view_size(fs, t, size);
    }
    return 0;
}

static int fill_attr(struct fs *fs, struct target *t, fuse_ino_t ino, struct stat *st)
{
    uint64_t size = 0;
    *st = t->st;
    st->st_ino = ino;
    st->st_mode &= ~(mode_t)07222;      /* read-only, no set-id bits */
    switch (t->kind) {
    case K_DIR: st->st_nlink = 1; break;   /* 1: "count unknown" for find */
    case K_OTHER: break;
    case K_ANIM:
    case K_PBO:
    case K_PDIR: st->st_mode = dir_mode(t->st.st_mode); st->st_nlink = 1; st->st_size = 0; break;
    case K_FRAMES: st->st_mode = dir_mode(t->st.st_mode); st->st_nlink = 2; st->st_size = 0; break;
    case K_VIEW:
    case K_ERROR:
    case K_PINFO:
    case K_PFILE: {
        int rc = regular_size(fs, t, &size);
        if (rc)
            return rc;
        st->st_mode = S_IFREG | (t->st.st_mode & 0555);
        st->st_nlink = 1;
        st->st_size = (off_t)size;
    }
    }
    st->st_blocks = (st->st_size + 511) / 512;
    st->st_blksize = 4096;
    return 0;
}

/* ---- directory listings ---- */

/* dir/name into out (PATH_MAX bytes); -ENAMETOOLONG when it does not fit. */
static int child_path(char *out, const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name), sep = dl > 0;
    if (dl + sep + nl >= PATH_MAX)
        return -ENAMETOOLONG;
    memcpy(out, dir, dl);
    out[dl] = '/';
    memcpy(out + dl + sep, name, nl + 1);
    return 0;
}

struct dent {
    char *name;
    ino_t ino;
    mode_t type;
};

struct dirlist {
    struct dent *e;
    size_t n, cap;
    int refs;                     /* under fs->llock once in the listing cache */
};

/* id: the version of the entries (NO_IDENT for source directory entries). */
static int dl_add(struct dirlist *d, const char *dir, const char *name, mode_t type,
                  const struct ident *id)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        struct dent *e = realloc(d->e, cap * sizeof *e);
        if (!e)
            return -ENOMEM;
        d->e = e;
        d->cap = cap;
    }
    char path[PATH_MAX];
    if (child_path(path, dir, name))
        return -ENAMETOOLONG;
    struct dent *e = &d->e[d->n];
    if (!(e->name = strdup(name)))
        return -ENOMEM;
    e->ino = strcmp(name, ".") && strcmp(name, "..") ? hash64(path) ^ ident_hash(id)
                                                    : FUSE_ROOT_ID;
    e->type = type;
    d->n++;
    return 0;
}

static void dl_free(struct dirlist *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->e[i].name);
    free(d->e);
    free(d);
}

/* The type one source directory entry has in the mount, or 0 if hidden;
 * *id is the version an animation's or archive's directory has (its inode
 * depends on it). */
static mode_t entry_type(struct fs *fs, int dfd, const struct dirent *de, struct ident *id)
{
    struct stat st;
    size_t len = strlen(de->d_name);
    unsigned char t = de->d_type;
    *id = NO_IDENT;
    if (t == DT_UNKNOWN || t == DT_LNK) {
        if (fstatat(dfd, de->d_name, &st, t == DT_LNK ? 0 : AT_SYMLINK_NOFOLLOW))
            return 0;
        t = S_ISDIR(st.st_mode) ? (de->d_type == DT_LNK ? DT_LNK : DT_DIR)
                                : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    if (t == DT_DIR)
        return S_IFDIR;
    if (t == DT_REG && (is_rtm_name(de->d_name, len) || is_pbo_name(de->d_name, len))) {
        if (fstatat(dfd, de->d_name, &st, 0))
            return 0;
        *id = ident_of(&st);
        return S_IFDIR;
    }
    return t == DT_REG && fs->show_other ? S_IFREG : 0;
}

static int list_source_dir(struct fs *fs, const char *rel, struct dirlist *d)
{
    int dfd = openat(fs->srcfd, src_arg(rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = dfd < 0 ? NULL : fdopendir(dfd);
    if (!dir) {
        int e = errno;
        if (dfd >= 0)
            close(dfd);
        return -e;
    }
    int rc = 0;
    for (struct dirent *de; !rc && (de = readdir(dir));) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        struct ident id;
        mode_t type = entry_type(fs, dfd, de, &id);
        if (type)
            rc = dl_add(d, rel, de->d_name, type, &id);
    }
    closedir(dir);
    return rc;
}

static int list_anim(const struct target *t, const char *path, struct dirlist *d)
{
    const struct rtm_anim *a = rtmc_anim(t->h);
    struct ident id = ident_of(&t->st);
    char name[RTM_VIEW_PATH_MAX];
    int rc = 0;
    if (t->kind == K_ANIM && !a)
        return dl_add(d, path, ERROR_NAME, S_IFREG, &id);
    if (t->kind == K_ANIM) {
        for (int k = 0; !rc && k < RTM_NFIXED_VIEWS; k++)
            rc = dl_add(d, path, rtm_view_fixed_name((enum rtm_view_kind)k), S_IFREG, &id);
        return rc ? rc : dl_add(d, path, FRAMES_NAME, S_IFDIR, &id);
    }
    for (uint32_t f = 0; !rc && f < a->nframes; f++) {
        rtm_frame_name(a, f, name);
        rc = dl_add(d, path, name, S_IFREG, &id);
    }
    return rc;
}

struct member_listing {
    const struct target *t;
    const char *path;
    struct dirlist *d;
    int show_other;
};

static int add_member(void *arg, const char *name, size_t len, long entry)
{
    struct member_listing *m = arg;
    struct ident id = ident_of(&m->t->st);
    char n[NAME_MAX + 1];
    if (len > NAME_MAX)
        return 0;                       /* no lookup could reach it */
    memcpy(n, name, len);
    n[len] = 0;
    if (m->t->kind == K_PBO && strcmp(n, RTM_PBO_INFO_NAME) == 0)
        return 0;                       /* the name is the archive's own file */
    mode_t type = entry < 0 || is_rtm_name(n, len) ? S_IFDIR : m->show_other ? S_IFREG : 0;
    return type ? dl_add(m->d, m->path, n, type, &id) : 0;
}

/* An archive's folder (or a folder in it): error.txt when it is broken,
 * else pbo.txt (at the top) and the entries. */
static int list_archive(struct fs *fs, const struct target *t, const char *path,
                        struct dirlist *d)
{
    const struct pbo *p = rtmc_pbo(t->table);
    struct ident id = ident_of(&t->st);
    if (!p)
        return dl_add(d, path, ERROR_NAME, S_IFREG, &id);
    int rc = t->kind == K_PBO ? dl_add(d, path, RTM_PBO_INFO_NAME, S_IFREG, &id) : 0;
    struct member_listing m = { t, path, d, fs->show_other };
    if (!rc)
        rc = pbo_list(p, t->rest, add_member, &m);
    return rc == -1 ? -ENOENT : rc;
}

static int build_listing(struct fs *fs, const char *path, const struct ident *id,
                         struct dirlist *d)
{
    struct target t;
    int rc = resolve(fs, path, id, &t);
    if (!rc && t.kind != K_DIR && t.kind != K_ANIM && t.kind != K_FRAMES && t.kind != K_PBO &&
        t.kind != K_PDIR)
        rc = -ENOTDIR;
    if (!rc && t.kind == K_ANIM)
        rc = load_anim(fs, &t);
    if (!rc && t.kind == K_PBO && !t.table)
        rc = resolve_archive(fs, &t, "");
    if (!rc)
        rc = dl_add(d, "", ".", S_IFDIR, &NO_IDENT);
    if (!rc)
        rc = dl_add(d, "", "..", S_IFDIR, &NO_IDENT);
    if (!rc && t.kind == K_DIR)
        rc = list_source_dir(fs, path, d);
    else if (!rc && (t.kind == K_PBO || t.kind == K_PDIR))
        rc = list_archive(fs, &t, path, d);
    else if (!rc)
        rc = list_anim(&t, path, d);
    target_done(fs, &t);
    return rc;
}

/* ---- inotify: tell the kernel and the cache what changed in SOURCE ---- */

#define WATCH_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | \
                    IN_MODIFY | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW)

static void watch_dir(struct fs *fs, const char *rel)
{
    char abs[PATH_MAX];
    snprintf(abs, sizeof abs, "%s/%s", fs->source, rel);
    int wd = inotify_add_watch(fs->ifd, abs, WATCH_MASK);
    if (wd < 0)
        return;                         /* e.g. out of watches: still correct
                                           after the kernel's timeouts */
    pthread_mutex_lock(&fs->wlock);
    if ((size_t)wd >= fs->nwpath) {
        size_t n = (size_t)wd * 2 + 16;
        char **p = realloc(fs->wpath, n * sizeof *p);
        if (p) {
            memset(p + fs->nwpath, 0, (n - fs->nwpath) * sizeof *p);
            fs->wpath = p;
            fs->nwpath = n;
        }
    }
    if ((size_t)wd < fs->nwpath) {
        free(fs->wpath[wd]);
        fs->wpath[wd] = strdup(rel);    /* a renamed directory gets its new path */
    }
    pthread_mutex_unlock(&fs->wlock);
}

static void on_change(struct fs *fs, const char *dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", name);
    rtmc_invalidate(fs->cache, path);
    fuse_ino_t parent = path_ino(&fs->nodes, dir), child = path_ino(&fs->nodes, path);
    if (parent) {
        /* drops the dentry and everything under it (an animation's views) */
        fuse_lowlevel_notify_inval_entry(fs->se, parent, name, strlen(name));
        fuse_lowlevel_notify_inval_inode(fs->se, parent, 0, 0);
    }
    if (child)
        fuse_lowlevel_notify_inval_inode(fs->se, child, 0, 0);
}

static void on_event(struct fs *fs, const struct inotify_event *ev)
{
    char dir[PATH_MAX] = "";
    pthread_mutex_lock(&fs->wlock);
    const char *p = (size_t)ev->wd < fs->nwpath ? fs->wpath[ev->wd] : NULL;
    int known = p != NULL;
    if (p)
        snprintf(dir, sizeof dir, "%s", p);
    if (p && (ev->mask & IN_IGNORED)) {
        free(fs->wpath[ev->wd]);
        fs->wpath[ev->wd] = NULL;
    }
    pthread_mutex_unlock(&fs->wlock);
    if (!known || (ev->mask & IN_IGNORED))
        return;
    if (ev->len)
        on_change(fs, dir, ev->name);
    else if (path_ino(&fs->nodes, dir))
        fuse_lowlevel_notify_inval_inode(fs->se, path_ino(&fs->nodes, dir), 0, 0);
}

static void *watcher_main(void *arg)
{
    struct fs *fs = arg;
    char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
    struct pollfd pfd[2] = { { fs->ifd, POLLIN, 0 }, { fs->stop[0], POLLIN, 0 } };
    for (;;) {
        if (poll(pfd, 2, -1) < 0 && errno != EINTR)
            break;
        if (pfd[1].revents)
            break;
        ssize_t n = read(fs->ifd, buf, sizeof buf);
        for (ssize_t i = 0; n > 0 && i < n;) {
            const struct inotify_event *ev = (const void *)(buf + i);
            on_event(fs, ev);
            i += (ssize_t)(sizeof *ev + ev->len);
        }
    }
    return NULL;
}

/* ---- FUSE operations ---- */

static struct fs *req_fs(fuse_req_t req) { return fuse_req_userdata(req); }


static void op_init(void *userdata, struct fuse_conn_info *conn)
{
    (void)userdata;
    /* a changed view has a new mtime or size: the kernel drops old pages */
    conn->want |= conn->capable & FUSE_CAP_AUTO_INVAL_DATA;
    conn->want &= ~(unsigned)FUSE_CAP_EXPLICIT_INVAL_DATA;
}

/* The inode table counts against the cache's budget. */
static void sync_outside(struct fs *fs) { rtmc_set_outside(fs->cache, table_bytes(&fs->nodes)); }

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
    struct fs *fs = req_fs(req);
    char dir[PATH_MAX], path[PATH_MAX];
    struct target t;
    struct fuse_entry_param e = { .attr_timeout = CACHE_TIMEOUT, .entry_timeout = CACHE_TIMEOUT };
    struct ident pid;
    int rc = node_path(&fs->nodes, parent, dir, sizeof dir, &pid);
    if (rc == 0)
        rc = child_path(path, dir, name);
    if (rc == 0) {
        /* inside an animation, the child is of the parent's version */
        rc = resolve(fs, path, &pid, &t);
        if (rc == 0) {
            struct ident id = versioned(t.kind) ? ident_of(&t.st) : NO_IDENT;
            e.ino = node_ref(&fs->nodes, path, &id);
            rc = e.ino ? fill_attr(fs, &t, e.ino, &e.attr) : -ENOMEM;
            if (rc && e.ino)
                node_forget(&fs->nodes, e.ino, 1);
            if (rc == 0 && t.kind == K_DIR)
                watch_dir(fs, path);
            target_done(fs, &t);
        }
    }
    if (rc)
        fuse_reply_err(req, -rc);
    else if (fuse_reply_entry(req, &e))
        node_forget(&fs->nodes, e.ino, 1);   /* the kernel did not get it */
    sync_outside(fs);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
    node_forget(&req_fs(req)->nodes, ino, nlookup);
    sync_outside(req_fs(req));
    fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *f)
{
    for (size_t i = 0; i < count; i++)
        node_forget(&req_fs(req)->nodes, f[i].ino, f[i].nlookup);
    sync_outside(req_fs(req));
    fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    struct fs *fs = req_fs(req);
    char path[PATH_MAX];
    struct target t;
    struct stat st;
    (void)fi;
    struct ident id;
    int rc = node_path(&fs->nodes, ino, path, sizeof path, &id);
    if (rc == 0 && (rc = resolve(fs, path, &id, &t)) == 0) {
        rc = fill_attr(fs, &t, ino, &st);
        target_done(fs, &t);
    }
    if (rc)
        fuse_reply_err(req, -rc);
    else
        fuse_reply_attr(req, &st, CACHE_TIMEOUT);
}

/* No opendir: the kernel then never asks to open a directory and caches
 * listings itself (FOPEN_CACHE_DIR), so a warm walk of the tree costs no
 * round trips; inotify invalidates a directory's cached listing. */
static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    (void)ino;
    (void)fi;
    fuse_reply_err(req, ENOSYS);
}

static void reply_listing(fuse_req_t req, const struct dirlist *d, size_t size, off_t off)
{
    char *buf = malloc(size);
    size_t pos = 0;
    if (!buf) {
        fuse_reply_err(req, ENOMEM);
        return;
    }
    for (size_t i = (size_t)off; off >= 0 && i < d->n; i++) {
        struct stat st = { .st_ino = d->e[i].ino, .st_mode = d->e[i].type };
        size_t len = fuse_add_direntry(req, buf + pos, size - pos, d->e[i].name, &st,
                                       (off_t)i + 1);
        if (len > size - pos)
            break;
        pos += len;
    }
    fuse_reply_buf(req, buf, pos);
    free(buf);
}

/* Builds the listing for each call: the kernel only asks when its cached
 * copy is missing or was invalidated. */
static void listing_put(struct fs *fs, struct dirlist *d)
{
    pthread_mutex_lock(&fs->llock);
    int last = --d->refs == 0;
    pthread_mutex_unlock(&fs->llock);
    if (last)
        dl_free(d);
}

/* The cached listing of ino (a reference for the caller), or NULL. */
static struct dirlist *listing_find(struct fs *fs, fuse_ino_t ino)
{
    struct dirlist *d = NULL;
    pthread_mutex_lock(&fs->llock);
    for (size_t i = 0; i < sizeof fs->listing / sizeof fs->listing[0]; i++)
        if (fs->listing[i].d && fs->listing[i].ino == ino) {
            d = fs->listing[i].d;
            d->refs++;
        }
    pthread_mutex_unlock(&fs->llock);
    return d;
}

/* Keeps d (which holds one reference for the caller) as ino's listing. */
static void listing_keep(struct fs *fs, fuse_ino_t ino, struct dirlist *d)
{
    struct dirlist *old = NULL;
    size_t n = sizeof fs->listing / sizeof fs->listing[0], slot = n;
    pthread_mutex_lock(&fs->llock);
    for (size_t i = 0; i < n; i++)
        if (fs->listing[i].d && fs->listing[i].ino == ino)
            slot = i;
    if (slot == n)
        slot = fs->lnext++ % n;
    old = fs->listing[slot].d;
    fs->listing[slot].ino = ino;
    fs->listing[slot].d = d;
    d->refs++;
    pthread_mutex_unlock(&fs->llock);
    if (old)
        listing_put(fs, old);
}

/* A listing is built when the kernel starts reading a directory (offset 0)
 * and served from the listing cache for the rest of that enumeration. */
static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                       struct fuse_file_info *fi)
{
    struct fs *fs = req_fs(req);
    char path[PATH_MAX];
    struct ident id;
    (void)fi;
    struct dirlist *d = off > 0 ? listing_find(fs, ino) : NULL;
    int rc = 0;
    if (!d) {
        d = calloc(1, sizeof *d);
        rc = d ? node_path(&fs->nodes, ino, path, sizeof path, &id) : -ENOMEM;
        if (rc == 0)
            rc = build_listing(fs, path, &id, d);
        if (d) {
            d->refs = 1;
            if (rc == 0)
                listing_keep(fs, ino, d);
        }
    }
    if (rc)
        fuse_reply_err(req, -rc);
    else
        reply_listing(req, d, size, off);
    if (d)
        listing_put(fs, d);
}

/* No open: the kernel then never asks to open or release a file and keeps
 * its pages (FOPEN_KEEP_CACHE), so a warm read costs no round trip.  Reads
 * name the inode, and the inode names one version (struct ident). */
static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    (void)ino;
    (void)fi;
    fuse_reply_err(req, ENOSYS);
}

static void reply_slice(fuse_req_t req, const char *data, size_t len, size_t size, off_t off)
{
    if (off < 0 || (uint64_t)off >= len)
        fuse_reply_buf(req, NULL, 0);
    else
        fuse_reply_buf(req, data + off, len - (size_t)off < size ? len - (size_t)off : size);
}

/* Replies with up to size bytes of fd at off. */
static int reply_pread(fuse_req_t req, int fd, size_t size, off_t off)
{
    char *buf = malloc(size ? size : 1);
    ssize_t n = !buf ? -1 : size ? pread(fd, buf, size, off) : 0;
    int rc = !buf ? -ENOMEM : n < 0 ? -errno : 0;
    if (!rc)
        fuse_reply_buf(req, buf, (size_t)n);
    free(buf);
    return rc;
}

static int read_other(fuse_req_t req, struct fs *fs, const char *src, size_t size, off_t off)
{
    int fd = openat(fs->srcfd, src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = reply_pread(req, fd, size, off);
    close(fd);
    return rc;
}

/* A stored entry straight from the archive, if it is still t's version. */
static int read_stored(fuse_req_t req, struct fs *fs, const struct target *t,
                       const struct pbo_entry *e, size_t size, off_t off)
{
    struct stat st;
    int fd = openat(fs->srcfd, t->src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = fstat(fd, &st) ? -errno : 0;
    if (!rc) {
        struct ident now = ident_of(&st), want = ident_of(&t->st);
        rc = same_ident(&now, &want) ? 0 : -ESTALE;
    }
    if (!rc) {
        uint64_t from = off < 0 ? e->data_size : (uint64_t)off;
        uint64_t left = from < e->data_size ? e->data_size - from : 0;
        rc = reply_pread(req, fd, left < size ? (size_t)left : size, (off_t)(e->offset + from));
    }
    close(fd);
    return rc;
}

/* An entry shown as it is: stored bytes are read in place, anything else
 * is decoded once into the cache.  A broken entry reads as EIO. */
static int read_member(fuse_req_t req, struct fs *fs, struct target *t, size_t size, off_t off)
{
    const struct pbo_entry *e = &rtmc_pbo(t->table)->entries[t->entry];
    if (e->method == PBO_METHOD_STORED && !pbo_entry_compressed(e))
        return read_stored(req, fs, t, e, size, off);
    char key[KEY_MAX];
    struct rtmc_entry *h;
    member_key(t, key);
    int rc = get_entry(fs, t, key, RTMC_DATA, &h);
    if (rc)
        return rc;
    size_t len;
    const uint8_t *data = rtmc_data(h, &len);
    if (data)
        reply_slice(req, (const char *)data, len, size, off);
    pthread_mutex_lock(&fs->dlock);
    struct rtmc_entry *old = fs->last_data;
    fs->last_data = h;                  /* our reference moves there */
    pthread_mutex_unlock(&fs->dlock);
    rtmc_put(fs->cache, old);
    return data ? 0 : -EIO;
}

static int read_info(fuse_req_t req, const struct target *t, size_t size, off_t off)
{
    struct rtm_buf b;
    if (render_info(t, &b))
        return -ENOMEM;
    reply_slice(req, b.p, b.len, size, off);
    buf_free(&b);
    return 0;
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    struct fs *fs = req_fs(req);
    char path[PATH_MAX];
    struct target t;
    struct ident id;
    (void)fi;
    int rc = node_path(&fs->nodes, ino, path, sizeof path, &id);
    if (rc == 0 && (rc = resolve(fs, path, &id, &t)) == 0) {
        struct rtmc_view *v = NULL;
        if (t.kind == K_OTHER) {
            rc = read_other(req, fs, t.src, size, off);
        } else if (t.kind == K_PFILE) {
            rc = read_member(req, fs, &t, size, off);
        } else if (t.kind == K_PINFO) {
            rc = read_info(req, &t, size, off);
        } else if (t.kind == K_ERROR) {
            const char *msg = rtmc_error(t.h);
            size_t len = strlen(msg);
            char *text = malloc(len + 1);
            rc = text ? 0 : -ENOMEM;
            if (text) {
                memcpy(text, msg, len);
                text[len] = '\n';
                reply_slice(req, text, len + 1, size, off);
                free(text);
            }
        } else if (t.kind == K_VIEW && (rc = rtmc_view_get(fs->cache, t.h, t.view, &v)) == 0) {
            size_t len;
            const char *data = rtmc_view_data(v, &len);
            reply_slice(req, data, len, size, off);
            rtmc_view_put(fs->cache, v);
        } else if (t.kind != K_VIEW) {
            rc = -EISDIR;
        }
        target_done(fs, &t);
    }
    if (rc)
        fuse_reply_err(req, -rc);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
    struct statvfs sv;
    (void)ino;
    if (fstatvfs(req_fs(req)->srcfd, &sv))
        fuse_reply_err(req, errno);
    else
        fuse_reply_statfs(req, &sv);
}

/* Everything that would change the tree: the mount is read-only. */
static void rofs(fuse_req_t req) { fuse_reply_err(req, EROFS); }
static void op_setattr(fuse_req_t req, fuse_ino_t i, struct stat *a, int s, struct fuse_file_info *f)
{ (void)i; (void)a; (void)s; (void)f; rofs(req); }
static void op_mknod(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m, dev_t d)
{ (void)p; (void)n; (void)m; (void)d; rofs(req); }
static void op_mkdir(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m)
{ (void)p; (void)n; (void)m; rofs(req); }
static void op_unlink(fuse_req_t req, fuse_ino_t p, const char *n) { (void)p; (void)n; rofs(req); }
static void op_symlink(fuse_req_t req, const char *l, fuse_ino_t p, const char *n)
{ (void)l; (void)p; (void)n; rofs(req); }
static void op_rename(fuse_req_t req, fuse_ino_t p, const char *n, fuse_ino_t np,
                      const char *nn, unsigned int f)
{ (void)p; (void)n; (void)np; (void)nn; (void)f; rofs(req); }
static void op_link(fuse_req_t req, fuse_ino_t i, fuse_ino_t p, const char *n)
{ (void)i; (void)p; (void)n; rofs(req); }
static void op_create(fuse_req_t req, fuse_ino_t p, const char *n, mode_t m,
                      struct fuse_file_info *f)
{ (void)p; (void)n; (void)m; (void)f; rofs(req); }
static void op_write(fuse_req_t req, fuse_ino_t i, const char *b, size_t s, off_t o,
                     struct fuse_file_info *f)
{ (void)i; (void)b; (void)s; (void)o; (void)f; rofs(req); }
static void op_setxattr(fuse_req_t req, fuse_ino_t i, const char *n, const char *v,
                        size_t s, int f)
{ (void)i; (void)n; (void)v; (void)s; (void)f; rofs(req); }
static void op_removexattr(fuse_req_t req, fuse_ino_t i, const char *n)
{ (void)i; (void)n; rofs(req); }

static const struct fuse_lowlevel_ops ops = {
    .init = op_init,
    .lookup = op_lookup,
    .forget = op_forget,
    .forget_multi = op_forget_multi,
    .getattr = op_getattr,
    .opendir = op_opendir,
    .readdir = op_readdir,
    .open = op_open,
    .read = op_read,
    .statfs = op_statfs,
    .setattr = op_setattr,
    .mknod = op_mknod,
    .mkdir = op_mkdir,
    .unlink = op_unlink,
    .rmdir = op_unlink,
    .symlink = op_symlink,
    .rename = op_rename,
    .link = op_link,
    .create = op_create,
    .write = op_write,
    .setxattr = op_setxattr,
    .removexattr = op_removexattr,
};

/* ---- command line ---- */

struct options {
    char *skeleton, *cache_size, *source;
    int show_other, nonopts, help;
};

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt option_spec[] = {
    OPT("skeleton=%s", skeleton),
    OPT("cache_size=%s", cache_size),
    OPT("show_other", show_other),
    /* what fstab and mount(8) pass that means nothing here (ro is forced) */
    FUSE_OPT_KEY("ro", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("rw", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("user", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("nouser", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("users", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("auto", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("noauto", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("defaults", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("_netdev", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("nofail", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("exec", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("owner", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_END
};

static int opt_proc(void *data, const char *arg, int key, struct fuse_args *outargs)
{
    struct options *o = data;
    (void)outargs;
    if (key == FUSE_OPT_KEY_OPT)
        return strncmp(arg, "x-", 2) && strncmp(arg, "comment=", 8) ? 1 : 0;
    if (key != FUSE_OPT_KEY_NONOPT)
        return 1;
    if (o->nonopts++ == 0) {
        o->source = strdup(arg);
        return 0;
    }
    if (o->nonopts == 2)
        return 1;                       /* the mount point, for fuse_parse_cmdline */
    fprintf(stderr, "rtmfs: unexpected argument '%s'\n", arg);
    return -1;
}

static void usage(void)
{
    printf("usage: rtmfs [options] SOURCE MOUNTPOINT\n"
           "Mount SOURCE read-only at MOUNTPOINT, showing every .rtm file as a directory\n"
           "of its views (header.txt bones.txt phases.csv props.json plain.rtm frames/)\n"
           "and every .pbo archive as a directory of its entries and pbo.txt.\n\n"
           "rtmfs options:\n"
           "    -o skeleton=SKEL       ofp2 (default), none, or a skeleton file\n"
           "    -o cache_size=SIZE     cache of parsed files and views (K, M, G; default 256M)\n"
           "    -o show_other          pass other files (and archive entries) through\n\n");
}

/* Everything that can go wrong before mounting, said plainly. */
static int check_dir(const char *what, const char *path)
{
    struct stat st;
    if (!path) {
        fprintf(stderr, "rtmfs: missing %s (try 'rtmfs --help')\n", what);
        return -1;
    }
    if (stat(path, &st)) {
        fprintf(stderr, "rtmfs: %s %s: %s\n", what, path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "rtmfs: %s %s: not a directory\n", what, path);
        return -1;
    }
    return 0;
}

static int fs_setup(struct fs *fs, const struct options *o)
{
    struct rtm_error err = { "", 0, 0 };
    size_t budget = 256u << 20;
    if (o->cache_size && rtmc_parse_size(o->cache_size, &budget)) {
        fprintf(stderr, "rtmfs: bad cache_size '%s' (use e.g. 64M, 1G)\n", o->cache_size);
        return -1;
    }
    if (rtm_skeleton_open(o->skeleton ? o->skeleton : "ofp2", &fs->skel, &err)) {
        fprintf(stderr, "rtmfs: skeleton: %s\n", err.msg);
        return -1;
    }
    fs->source = realpath(o->source, NULL);
    fs->srcfd = fs->source ? open(fs->source, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fs->srcfd < 0) {
        fprintf(stderr, "rtmfs: %s: %s\n", o->source, strerror(errno));
        return -1;
    }
    fs->show_other = o->show_other;
    fs->loader = (struct rtm_loader){ fs->srcfd, fs->skel, NULL };
    fs->cache = fs->loader.cache = rtmc_new(budget, rtm_loader_load, &fs->loader);
    fs->ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    pthread_mutex_init(&fs->wlock, NULL);
    pthread_mutex_init(&fs->llock, NULL);
    pthread_mutex_init(&fs->dlock, NULL);
    if (!fs->cache || table_init(&fs->nodes) || pipe(fs->stop)) {
        fprintf(stderr, "rtmfs: out of memory\n");
        return -1;
    }
    return 0;
}

static void stop_watcher(struct fs *fs)
{
    if (!fs->watching)
        return;
    if (write(fs->stop[1], "x", 1) < 0)
        perror("rtmfs: stopping the watcher");
    pthread_join(fs->watcher, NULL);
    fs->watching = 0;
}

static void fs_teardown(struct fs *fs)
{
    stop_watcher(fs);
    for (int i = 0; i < 2; i++)
        if (fs->stop[i] >= 0)
            close(fs->stop[i]);
    for (size_t i = 0; i < fs->nwpath; i++)
        free(fs->wpath[i]);
    free(fs->wpath);
    if (fs->ifd >= 0)
        close(fs->ifd);
    for (size_t i = 0; i < sizeof fs->listing / sizeof fs->listing[0]; i++)
        if (fs->listing[i].d)
            dl_free(fs->listing[i].d);
    if (fs->cache)
        rtmc_put(fs->cache, fs->last_data);
    rtmc_free(fs->cache);
    if (fs->nodes.by_ino)
        table_free(&fs->nodes);
    rtm_skeleton_free(fs->skel);
    if (fs->srcfd >= 0)
        close(fs->srcfd);
    free(fs->source);
}

/* Options every rtmfs mount gets: read-only, kernel permission checks, and
 * a /proc/mounts line that reads "SOURCE MNT fuse.rtmfs".  Commas and
 * backslashes in SOURCE are escaped the way fuse_opt expects. */
static int add_mount_opts(struct fuse_args *args, const char *source)
{
    static const char fixed[] = "-oro,default_permissions,subtype=rtmfs,fsname=";
    char *opt = malloc(sizeof fixed + 2 * strlen(source));
    if (!opt)
        return -1;
    char *p = stpcpy(opt, fixed);
    for (const char *s = source; *s; s++) {
        if (*s == ',' || *s == '\\')
            *p++ = '\\';
        *p++ = *s;
    }
    *p = 0;
    int rc = fuse_opt_add_arg(args, opt);
    free(opt);
    return rc;
}

static int serve(struct fs *fs, struct fuse_args *args, struct fuse_cmdline_opts *c)
{
    int rc = -1;
    fs->se = fuse_session_new(args, &ops, sizeof ops, fs);
    if (!fs->se)
        return 1;
    if (fuse_set_signal_handlers(fs->se) == 0) {
        if (fuse_session_mount(fs->se, c->mountpoint) == 0) {
            fuse_daemonize(c->foreground);
            watch_dir(fs, "");
            fs->watching = fs->ifd >= 0 &&
                           pthread_create(&fs->watcher, NULL, watcher_main, fs) == 0;
            if (c->singlethread) {
                rc = fuse_session_loop(fs->se);
            } else {
                struct fuse_loop_config *lc = fuse_loop_cfg_create();
                fuse_loop_cfg_set_clone_fd(lc, (unsigned)c->clone_fd);
                fuse_loop_cfg_set_max_threads(lc, c->max_threads);
                rc = fuse_session_loop_mt(fs->se, lc);
                fuse_loop_cfg_destroy(lc);
            }
            stop_watcher(fs);           /* it must not notify a dead session */
            fuse_session_unmount(fs->se);
        }
        fuse_remove_signal_handlers(fs->se);
    }
    fuse_session_destroy(fs->se);
    return rc < 0 ? 1 : 0;      /* > 0: the signal that ended the loop */
}

/* Keeps freed cache memory from lingering in per-thread malloc arenas, so
 * that RSS follows the cache's byte budget. */
static void tune_malloc(void)
{
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
}

int main(int argc, char **argv)
{
    struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
    struct options o = { 0 };
    struct fuse_cmdline_opts c = { 0 };
    struct fs fs = { .srcfd = -1, .ifd = -1, .stop = { -1, -1 } };
    int rc = 1;
    if (fuse_opt_parse(&args, &o, option_spec, opt_proc) || fuse_parse_cmdline(&args, &c))
        goto out;
    if (c.show_help) {
        usage();
        fuse_cmdline_help();
        fuse_lowlevel_help();
        rc = 0;
    } else if (c.show_version) {
        printf("rtmfs %s (libfuse %s, LZO %s)\n", RTMFS_VERSION, fuse_pkgversion(),
               lzo_version_string());
        fuse_lowlevel_version();
        rc = 0;
    } else if (check_dir("SOURCE", o.source) == 0 && check_dir("mount point", c.mountpoint) == 0 &&
               fs_setup(&fs, &o) == 0 && add_mount_opts(&args, fs.source) == 0) {
        tune_malloc();
        rc = serve(&fs, &args, &c);
    }
    fs_teardown(&fs);
out:
    free(c.mountpoint);
    free(o.source);
    free(o.skeleton);
    free(o.cache_size);
    fuse_opt_free_args(&args);
    return rc;
}
