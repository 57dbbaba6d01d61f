/* tree.c - the mount's tree without FUSE (see tree.h): what a source entry
 * is, path -> view, attributes, lookups, and changes in SOURCE.  Numbers
 * inside an animation's folder are in tree_family.c, listings in
 * tree_list.c, reads in tree_read.c. */
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "pbo.h"
#include "views.h"

static void watch(struct rtm_tree *t, const char *dir);

struct rtm_tree *rtm_tree_new(const struct rtm_tree_config *cfg)
{
    struct rtm_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cfg = *cfg;
    t->nodes = rtm_inodes_new(cfg->hash);
    t->hidden = cfg->hidden ? strdup(cfg->hidden) : NULL;
    t->file = cfg->file ? strdup(cfg->file) : NULL;
    if (!t->nodes || (cfg->hidden && !t->hidden) || (cfg->file && !t->file) ||
        (t->file && strlen(t->file) > NAME_MAX)) {
        rtm_inodes_free(t->nodes);
        free(t->hidden);
        free(t->file);
        free(t);
        return NULL;
    }
    t->cfg.hidden = t->hidden;
    t->cfg.file = t->file;
    atomic_init(&t->unwatched, cfg->watch == NULL);
    pthread_mutex_init(&t->llock, NULL);
    watch(t, "");
    return t;
}

void rtm_tree_free(struct rtm_tree *t)
{
    if (!t)
        return;
    tree_listings_free(t);
    rtm_inodes_free(t->nodes);
    pthread_mutex_destroy(&t->llock);
    free(t->hidden);
    free(t->file);
    free(t);
}

/* The inode table counts against the cache's budget. */
void tree_account(struct rtm_tree *t)
{
    rtmc_set_outside(t->cfg.cache, rtm_inodes_bytes(t->nodes));
}

/* Asks for a folder to be watched; a failure means short timeouts. */
static void watch(struct rtm_tree *t, const char *dir)
{
    if (t->cfg.watch && t->cfg.watch(t->cfg.watch_ctx, dir) != 0)
        atomic_store(&t->unwatched, 1);
}

static double timeout(struct rtm_tree *t)
{
    return atomic_load(&t->unwatched) ? RTM_TREE_TIMEOUT_UNWATCHED : RTM_TREE_TIMEOUT_WATCHED;
}
/* ---- what a source entry is ---- */

int tree_is_rtm_name(const char *name, size_t len) { return rtm_name_ends(name, len, ".rtm"); }
static int is_pbo_name(const char *name, size_t len) { return rtm_name_ends(name, len, ".pbo"); }

/* Whether rel is the hidden path or below it: never stat it, as that would
 * ask this very mount (and, single-threaded, wait for itself). */
static int is_hidden(const struct rtm_tree *t, const char *rel)
{
    size_t n = t->hidden ? strlen(t->hidden) : 0;
    return n && strncmp(rel, t->hidden, n) == 0 && (rel[n] == 0 || rel[n] == '/');
}

static const char *base_name(const char *rel)
{
    const char *slash = strrchr(rel, '/');
    return slash ? slash + 1 : rel;
}

int rtm_tree_classify(struct rtm_tree *t, int dfd, const char *name, const char *rel,
                      unsigned char d_type, struct stat *st, struct rtm_fileid *id)
{
    const char *base = base_name(rel);
    size_t len = strlen(base);
    int named = tree_is_rtm_name(base, len) || is_pbo_name(base, len);
    *id = RTM_FILEID_NONE;
    if (is_hidden(t, rel))
        return RTM_SRC_HIDDEN;
    if (d_type == DT_REG && !named && !t->cfg.show_other)
        return RTM_SRC_HIDDEN;          /* no stat needed to know */
    if (d_type == DT_DIR)
        return RTM_SRC_DIR;
    if (fstatat(dfd, *name ? name : ".", st, AT_SYMLINK_NOFOLLOW))
        return -errno;
    if (S_ISDIR(st->st_mode))
        return RTM_SRC_DIR;
    if (S_ISLNK(st->st_mode) && fstatat(dfd, name, st, 0))
        return errno == ENOENT || errno == ELOOP ? RTM_SRC_HIDDEN : -errno;
    if (!S_ISREG(st->st_mode))
        return RTM_SRC_HIDDEN;          /* devices, fifos, links to folders */
    if (!named)
        return t->cfg.show_other ? RTM_SRC_OTHER : RTM_SRC_HIDDEN;
    *id = rtm_fileid_of(st);
    return tree_is_rtm_name(base, len) ? RTM_SRC_ANIM : RTM_SRC_PBO;
}
/* ---- mount path -> source file and view ---- */



/* Sets t from a classification of t->src. */
static int classify_target(struct rtm_tree *t, struct target *tg)
{
    struct rtm_fileid id;
    int k = rtm_tree_classify(t, t->cfg.srcfd, tg->src, tg->src, DT_UNKNOWN, &tg->st, &id);
    static const enum kind of[] = { [RTM_SRC_DIR] = K_DIR, [RTM_SRC_ANIM] = K_ANIM,
                                    [RTM_SRC_PBO] = K_PBO, [RTM_SRC_OTHER] = K_OTHER };
    if (k < 0)
        return k;
    if (k == RTM_SRC_HIDDEN)
        return -ENOENT;
    tg->kind = of[k];
    if (!tg->pinned)
        tg->id = id;
    else if (tree_versioned(tg->kind))
        rtm_fileid_to_stat(&tg->id, &tg->st);
    return 0;
}

/* Gets the cache entry of kind for key (tg->src, or for an archive entry
 * "tg->src/ENTRY"): of the pinned version, or else of the current one,
 * following the file if it changes while it is read. */
int tree_get_entry(struct rtm_tree *t, struct target *tg, const char *key,
                     enum rtmc_kind kind, struct rtmc_entry **h)
{
    struct rtmc_src s = { .path = key, .level = kind == RTMC_ANIM ? tg->level : RTMC_FULL,
                          .kind = kind, .archive_len = key == tg->src ? 0 : strlen(tg->src) };
    for (int tries = 0; tries < 5; tries++) {
        s.id = tg->id;
        int rc = rtmc_get(t->cfg.cache, &s, h);
        if (rc != -ESTALE || tg->pinned)
            return rc;
        if (fstatat(t->cfg.srcfd, tg->src, &tg->st, 0))
            return -errno;
        if (!S_ISREG(tg->st.st_mode))
            return -ENOENT;
        tg->id = rtm_fileid_of(&tg->st);
    }
    return -EIO;
}

/* The cache key of archive entry tg->entry. */
void tree_member_key(const struct target *tg, char key[KEY_MAX])
{
    snprintf(key, KEY_MAX, "%s/%s", tg->src, rtmc_pbo(tg->table)->entries[tg->entry].path);
}

/* Gets the parsed animation tg names: a file, or an archive's entry. */
int tree_load_anim(struct rtm_tree *t, struct target *tg)
{
    char key[KEY_MAX];
    if (tg->entry < 0)
        return tree_get_entry(t, tg, tg->src, RTMC_ANIM, &tg->h);
    tree_member_key(tg, key);
    return tree_get_entry(t, tg, key, RTMC_ANIM, &tg->h);
}

/* Resolves what is inside an animation folder (tg->rest). */
int tree_resolve_inner(struct rtm_tree *t, struct target *tg)
{
    int rc = tree_load_anim(t, tg);
    if (rc)
        return rc;
    const struct rtm_anim *a = rtmc_anim(tg->h);
    if (!a) {
        tg->kind = K_ERROR;
        tg->member = MEMBER_ERROR;
    } else if (rtm_view_folder_lookup(a, tg->rest, &tg->view.kind) == 0) {
        tg->kind = K_FRAMES;
        tg->member = tree_folder_member(tg->view.kind);
    } else if (rtm_view_lookup(a, tg->rest, &tg->view) == 0) {
        tg->kind = K_VIEW;
        /* below RTM_INO_MEMBERS: an anim of 2^40 views would not fit in memory */
        tg->member = MEMBER_VIEWS + rtm_view_index(a, tg->view);
    }
    if ((!a && strcmp(tg->rest, ERROR_NAME)) || (a && tg->kind == K_ANIM)) {
        rtmc_put(t->cfg.cache, tg->h);
        tg->h = NULL;
        return -ENOENT;
    }
    return 0;
}

/* Resolves inner, a path below the folders of archive tg->src whose table
 * is p, one component at a time. */
static int resolve_member(struct rtm_tree *t, struct target *tg, const struct pbo *p,
                          const char *inner)
{
    char q[PATH_MAX];
    for (const char *end = inner;; end++) {
        if (*end && *end != '/')
            continue;
        size_t n = (size_t)(end - inner);
        memcpy(q, inner, n);
        q[n] = 0;
        enum pbo_node node = pbo_lookup(p, q, &tg->entry);
        if (node == PBO_DIR && !*end) {
            tg->kind = K_PDIR;
            tg->rest = inner;
            return tree_archive_below(t, tg, inner, &tg->newest) ? 0 : -ENOENT;
        }
        if (node == PBO_FILE && tree_is_rtm_name(q, n)) {
            tg->kind = K_ANIM;
            tg->rest = end + (*end != 0);
            return *end ? tree_resolve_inner(t, tg) : 0;
        }
        if (node == PBO_FILE && !*end && t->cfg.show_other) {
            tg->kind = K_PFILE;
            return 0;
        }
        if (node != PBO_DIR)
            return -ENOENT;
    }
}

/* Resolves inner, a path inside archive tg->src ("" for the archive
 * itself): a broken archive holds only error.txt, a good one pbo.txt and
 * its tree. */
int tree_resolve_archive(struct rtm_tree *t, struct target *tg, const char *inner)
{
    tg->kind = K_PBO;
    tg->rest = "";
    int rc = tree_get_entry(t, tg, tg->src, RTMC_TABLE, &tg->table);
    const struct pbo *p = rc ? NULL : rtmc_pbo(tg->table);
    if (rc || !*inner)
        return rc;
    if (!p && strcmp(inner, ERROR_NAME) == 0) {
        tg->kind = K_ERROR;
        tg->h = tg->table;
        tg->table = NULL;
        return 0;
    }
    if (!p)
        return -ENOENT;
    if (strcmp(inner, RTM_PBO_INFO_NAME) == 0) {
        tg->kind = K_PINFO;
        return 0;
    }
    if (p->ncut && strcmp(inner, ERROR_NAME) == 0) {
        tg->kind = K_ERROR;             /* says what the cut took */
        return 0;
    }
    return resolve_member(t, tg, p, inner);
}

/* The entries an archive's folder shows: animations, or every entry with
 * show_other.  Counts them below dir and keeps their newest time. */
struct below {
    const struct target *tg;
    int all;
    size_t shown;
    struct timespec newest;
};

static struct timespec later(struct timespec a, struct timespec b)
{
    return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec) ? a : b;
}

/* An entry's stored time when it has one (seconds since 1970), else the
 * archive's. */
static struct timespec entry_time(const struct target *tg, long entry)
{
    uint32_t stamp = rtmc_pbo(tg->table)->entries[entry].timestamp;
    return stamp ? (struct timespec){ .tv_sec = (time_t)stamp } : tg->st.st_mtim;
}

static int count_below(void *arg, long entry)
{
    struct below *b = arg;
    const char *path = rtmc_pbo(b->tg->table)->entries[entry].path;
    if (b->all || tree_is_rtm_name(path, strlen(path))) {
        b->shown++;
        b->newest = later(b->newest, entry_time(b->tg, entry));
    }
    return 0;
}

size_t tree_archive_below(struct rtm_tree *t, const struct target *tg, const char *dir,
                          struct timespec *newest)
{
    struct below b = { .tg = tg, .all = t->cfg.show_other };
    pbo_each_below(rtmc_pbo(tg->table), dir, count_below, &b);
    if (newest)
        *newest = b.newest;
    return b.shown;
}

/* Finds the animation or archive among the leading components of path. */
static int resolve_prefix(struct rtm_tree *t, const char *path, struct target *tg)
{
    for (const char *p = path, *slash; (slash = strchr(p, '/')); p = slash + 1) {
        size_t len = (size_t)(slash - p);
        if (!tree_is_rtm_name(p, len) && !is_pbo_name(p, len))
            continue;
        size_t n = (size_t)(slash - path);
        memcpy(tg->src, path, n);
        tg->src[n] = 0;
        int rc = classify_target(t, tg);
        if (rc == 0 && tg->kind == K_ANIM) {
            tg->rest = path + n + 1;
            return tree_resolve_inner(t, tg);
        }
        if (rc == 0 && tg->kind == K_PBO)
            return tree_resolve_archive(t, tg, path + n + 1);
        if (rc == 0 && tg->kind == K_DIR)
            continue;
        return -ENOENT;
    }
    return -ENOENT;
}

/* SOURCE is one file: path is inside its folder.  While the file is gone
 * (or is no longer a file), the root holds only error.txt saying so. */
static int resolve_in_file(struct rtm_tree *t, const char *path, struct target *tg)
{
    strcpy(tg->src, t->file);           /* its length was checked in rtm_tree_new */
    int rc = classify_target(t, tg);
    if (rc == 0 && tg->kind == K_ANIM) {
        tg->rest = path;
        return *path ? tree_resolve_inner(t, tg) : 0;
    }
    if (rc == 0 && tg->kind == K_PBO)
        return tree_resolve_archive(t, tg, path);
    tg->gone = rc < 0 ? -rc : EISDIR;
    struct stat dir;
    if (fstat(t->cfg.srcfd, &dir))
        return -errno;
    tg->st = dir;
    tg->st.st_mode = S_IFREG | (dir.st_mode & 0444);
    if (!*path)
        tg->kind = K_GONE;
    else if (strcmp(path, ERROR_NAME) == 0)
        tg->kind = K_ERROR;
    else
        return -ENOENT;
    return 0;
}

/* Resolves a mount path; id is the version the kernel's inode names
 * (RTM_FILEID_NONE: whatever is current). */
int tree_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                   struct target *tg)
{
    memset(tg, 0, sizeof *tg);
    tg->level = RTMC_SHAPE;
    tg->entry = -1;
    tg->rest = "";
    tg->pinned = !rtm_fileid_none(id);
    tg->id = *id;
    if (strlen(path) >= sizeof tg->src)
        return -ENAMETOOLONG;
    if (is_hidden(t, path))
        return -ENOENT;
    int rc;
    if (t->file) {
        rc = resolve_in_file(t, path, tg);
    } else {
        strcpy(tg->src, path);
        rc = classify_target(t, tg);
        if (rc == -ENOTDIR || rc == -ENOENT)
            rc = resolve_prefix(t, path, tg);
    }
    if (rc)
        tree_target_done(t, tg);        /* an archive's table may be held */
    return rc;
}

void tree_target_done(struct rtm_tree *t, struct target *tg)
{
    rtmc_put(t->cfg.cache, tg->h);
    rtmc_put(t->cfg.cache, tg->table);
    tg->h = tg->table = NULL;
}
/* ---- attributes ---- */

/* Folders we make up are readable and searchable where the source file is
 * readable; nothing is writable. */
static mode_t dir_mode(mode_t m)
{
    return S_IFDIR | (m & 0444) | ((m & 0444) >> 2);
}

/* pbo.txt of tg's archive into b; -ENOMEM. */
int tree_render_info(const struct target *tg, struct rtm_buf *b)
{
    buf_init(b);
    if (rtm_view_pbo_info(rtmc_pbo(tg->table), b) == 0)
        return 0;
    buf_free(b);
    return -ENOMEM;
}

const char *tree_error_text(const struct rtm_tree *t, const struct target *tg, char *tmp,
                            size_t n)
{
    if (tg->h)
        return rtmc_error(tg->h);       /* the animation or archive is broken */
    if (tg->gone) {
        snprintf(tmp, n, "%s: %s; the mount shows it again when it is back", t->file,
                 tg->gone == EISDIR ? "no longer a file" : strerror(tg->gone));
    } else {
        char cut[160];
        pbo_describe_cut(rtmc_pbo(tg->table), cut, sizeof cut);
        snprintf(tmp, n, "%s: %s", tg->src, cut);
    }
    return tmp;
}

static int file_size(struct rtm_tree *t, struct target *tg, uint64_t *size)
{
    struct rtm_buf b;
    switch (tg->kind) {
    case K_PFILE:
        *size = pbo_entry_content_size(&rtmc_pbo(tg->table)->entries[tg->entry]);
        return 0;
    case K_PINFO:
        if (tree_render_info(tg, &b))
            return -ENOMEM;
        *size = b.len;
        buf_free(&b);
        return 0;
    case K_ERROR: {
        char tmp[PATH_MAX + 256];
        *size = strlen(tree_error_text(t, tg, tmp, sizeof tmp)) + 1;
        return 0;
    }
    default:
        return rtmc_view_size(t->cfg.cache, tg->h, tg->view, size);
    }
}

/* The time a path inside an archive shows: its entry's, or for a folder the
 * newest below it (the archive's own folder also holds pbo.txt, of the
 * archive's time). */
static struct timespec archive_time(struct rtm_tree *t, struct target *tg)
{
    switch (tg->kind) {
    case K_PBO:
        tree_archive_below(t, tg, "", &tg->newest);
        return later(tg->newest, tg->st.st_mtim);   /* pbo.txt: the archive's */
    case K_PDIR:
        return tg->newest;              /* found when it was resolved */
    default:
        return tg->entry >= 0 ? entry_time(tg, tg->entry) : tg->st.st_mtim;
    }
}

void tree_stale(struct rtm_tree *t, const struct target *tg, uint64_t ino)
{
    const struct rtm_anim *a = tg->h ? rtmc_anim(tg->h) : NULL;
    if (!t->cfg.stale)
        return;
    if (rtm_ino_member(ino) && a)
        t->cfg.stale(t->cfg.stale_ctx, rtm_ino_in_family(rtm_ino_head(ino), MEMBER_VIEWS),
                     rtm_view_count(a));
    else
        t->cfg.stale(t->cfg.stale_ctx, ino, 1);
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

static int fill_attr(struct rtm_tree *t, struct target *tg, uint64_t ino, struct stat *st)
{
    uint64_t size = 0;
    *st = tg->st;
    st->st_ino = (ino_t)ino;
    st->st_mode &= ~(mode_t)07222;      /* read-only, no set-id bits */
    switch (tg->kind) {
    case K_DIR: st->st_nlink = 1; break;   /* 1: "count unknown" for find */
    case K_OTHER: break;
    case K_ANIM:
    case K_PBO:
    case K_PDIR:
    case K_GONE: st->st_mode = dir_mode(tg->st.st_mode); st->st_nlink = 1; st->st_size = 0; break;
    case K_FRAMES: st->st_mode = dir_mode(tg->st.st_mode); st->st_nlink = 2; st->st_size = 0; break;
    case K_VIEW:
    case K_ERROR:
    case K_PINFO:
    case K_PFILE: {
        int rc = file_size(t, tg, &size);
        if (rc == -EIO)
            tree_stale(t, tg, ino);
        if (rc)
            return rc;
        st->st_mode = S_IFREG | (tg->st.st_mode & 0555);
        st->st_nlink = 1;
        st->st_size = (off_t)size;
    }
    }
    st->st_blocks = (st->st_size + 511) / 512;
    st->st_blksize = 4096;
    if (tg->kind == K_PBO && !tg->table)
        tree_resolve_archive(t, tg, "");    /* its time needs the table (cached) */
    if (tg->table && rtmc_pbo(tg->table))
        st->st_mtim = st->st_atim = archive_time(t, tg);
    apply_attrs(&t->cfg.attrs, st);
    return 0;
}
/* ---- lookup, forget, getattr ---- */

/* dir/name into out (PATH_MAX bytes); -ENAMETOOLONG when it does not fit. */
int tree_child_path(char *out, const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name), sep = dl > 0;
    if (dl + sep + nl >= PATH_MAX)
        return -ENAMETOOLONG;
    memcpy(out, dir, dl);
    out[dl] = '/';
    memcpy(out + dl + sep, name, nl + 1);
    return 0;
}


/* How many folders of views get their files' attributes after a lookup in
 * one: the kernel looks a file up when it stats one it was not given, so a
 * walk that stats what it lists (ls -l, du, find -size) earns attributes
 * for the next folders, and a walk that only reads a few files by name
 * (grep -r) never does: given to grep, the attributes of the million files
 * in frames/ and tracks/ made the kernel build an inode each, and grep over
 * 10,000 animations took 2.4 times as long. */
enum { PLUS_CREDIT = 64 };

/* Counts a lookup of tg, found at path in folder parent: a member of
 * parent's family, the head of a family of its own (an animation's folder),
 * or a node.  Its number, or 0 when out of memory. */
static uint64_t child_number(struct rtm_tree *t, uint64_t parent, const char *path,
                             const struct target *tg)
{
    struct rtm_fileid id = tree_versioned(tg->kind) ? tg->id : RTM_FILEID_NONE;
    struct head_info hi;
    if (parent & RTM_INO_FAMILY)
        return tg->member ? rtm_inodes_ref_member(t->nodes, rtm_ino_head(parent), tg->member) : 0;
    if (tg->kind != K_ANIM)
        return rtm_inodes_ref(t->nodes, path, &id);
    tree_head_info(tg->src, &tg->st, tg->entry, &hi);
    return rtm_inodes_ref_head(t->nodes, path, &id, &hi);
}

int rtm_tree_lookup(struct rtm_tree *t, uint64_t parent, const char *name,
                    struct rtm_tree_entry *out)
{
    char dir[PATH_MAX], path[PATH_MAX];
    struct rtm_fileid pid;
    struct target tg;
    int rc;
    if ((parent & RTM_INO_FAMILY) && !t->file) {
        if ((rc = tree_resolve_in_family(t, parent, name, path, &tg)))
            return rc;
    } else {
        rc = tree_dir_path(t, parent, dir, &pid);
        if (rc == 0)
            rc = tree_child_path(path, dir, name);
        /* inside an animation or archive, the child is of the parent's version */
        if (rc || (rc = tree_resolve(t, path, &pid, &tg)))
            return rc;
    }
    if (rtm_ino_member(parent))         /* in a folder of views: a walker that stats */
        atomic_store(&t->plus_credit, PLUS_CREDIT);
    out->ino = child_number(t, parent, path, &tg);
    rc = out->ino ? fill_attr(t, &tg, out->ino, &out->st) : -ENOMEM;
    if (rc && out->ino)
        rtm_inodes_forget(t->nodes, out->ino, 1);
    if (rc == 0 && tg.kind == K_DIR)
        watch(t, path);
    tree_target_done(t, &tg);
    out->timeout = timeout(t);
    tree_account(t);
    return rc;
}

void rtm_tree_forget(struct rtm_tree *t, uint64_t ino, uint64_t nlookup)
{
    rtm_inodes_forget(t->nodes, ino, nlookup);
    tree_account(t);
}

/* Whether the files of folder dir (a family's folder of views) come with
 * their attributes in this readdirplus; the folder's first call spends a
 * credit. */
static int plus_for_views(struct rtm_tree *t, size_t from)
{
    int c = atomic_load(&t->plus_credit);
    if (c > 0 && from == 0)
        atomic_compare_exchange_strong(&t->plus_credit, &c, c - 1);
    return c > 0;
}

void rtm_tree_listed_entries(struct rtm_tree *t, uint64_t dir, const struct rtm_dirlist *d,
                             size_t from, size_t to, struct rtm_tree_entry *out)
{
    char path[PATH_MAX];
    struct target tg;
    uint64_t head = rtm_ino_head(dir), size;
    for (size_t i = from; i < to; i++)
        out[i - from].ino = 0;
    if (!(dir & RTM_INO_FAMILY) || t->file || (rtm_ino_member(dir) && !plus_for_views(t, from)) ||
        tree_resolve_ino(t, dir, path, &tg))
        return;
    if ((tg.kind == K_ANIM && tree_load_anim(t, &tg)) || !tg.h || !rtmc_anim(tg.h)) {
        tree_target_done(t, &tg);
        return;
    }
    for (size_t i = from; i < to; i++) {
        struct rtm_tree_entry *o = &out[i - from];
        uint64_t k = rtm_ino_member(d->e[i].ino);
        if (rtm_ino_head(d->e[i].ino) != head || tree_aim_at_member(&tg, k) ||
            (tg.kind == K_VIEW && rtmc_view_size_known(t->cfg.cache, tg.h, tg.view, &size)))
            continue;
        o->ino = rtm_inodes_ref_member(t->nodes, head, k);
        if (o->ino && fill_attr(t, &tg, o->ino, &o->st)) {
            rtm_inodes_forget(t->nodes, o->ino, 1);
            o->ino = 0;
        }
        o->timeout = timeout(t);
    }
    tree_target_done(t, &tg);
}

int rtm_tree_getattr(struct rtm_tree *t, uint64_t ino, struct rtm_tree_entry *out)
{
    char path[PATH_MAX];
    struct target tg;
    int rc = tree_resolve_ino(t, ino, path, &tg);
    if (rc)
        return rc;
    out->ino = ino;
    out->timeout = timeout(t);
    rc = fill_attr(t, &tg, ino, &out->st);
    tree_target_done(t, &tg);
    return rc;
}
/* ---- changes in SOURCE ---- */

void rtm_tree_changed(struct rtm_tree *t, const char *dir, const char *name,
                      const struct rtm_tree_notify *n)
{
    if (t->file) {
        /* everything shown is of that one file */
        if (!*dir && name && strcmp(name, t->file) == 0)
            rtm_tree_changed_all(t, n);
        return;
    }
    uint64_t parent = rtm_inodes_find(t->nodes, dir, &RTM_FILEID_NONE);
    if (!name) {
        if (parent)
            n->inode(n->ctx, parent);
        return;
    }
    char path[PATH_MAX];
    if (tree_child_path(path, dir, name))
        return;
    rtmc_invalidate(t->cfg.cache, path);
    uint64_t child = rtm_inodes_find(t->nodes, path, &RTM_FILEID_NONE);
    if (parent) {
        /* drops the dentry and everything under it (an animation's views) */
        n->entry(n->ctx, parent, name);
        n->inode(n->ctx, parent);
    }
    if (child)
        n->inode(n->ctx, child);
}

struct forget_all {
    struct rtm_tree *t;
    const struct rtm_tree_notify *n;
};

/* Tells the kernel to forget one inode's name in its folder, and the
 * inode's attributes and pages. */
static void forget_one(void *arg, uint64_t ino, const char *path, const struct rtm_fileid *id)
{
    struct forget_all *f = arg;
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 0;
    memcpy(dir, path, dl);
    dir[dl] = 0;
    uint64_t parent = rtm_inodes_find(f->t->nodes, dir, id);   /* inside an anim */
    if (!parent)
        parent = rtm_inodes_find(f->t->nodes, dir, &RTM_FILEID_NONE);
    if (parent)
        f->n->entry(f->n->ctx, parent, slash ? slash + 1 : path);
    f->n->inode(f->n->ctx, ino);
}

void rtm_tree_changed_all(struct rtm_tree *t, const struct rtm_tree_notify *n)
{
    struct forget_all f = { t, n };
    rtmc_invalidate(t->cfg.cache, "");
    rtm_inodes_each(t->nodes, forget_one, &f);
    n->inode(n->ctx, RTM_INO_ROOT);
}

int rtm_tree_statfs(struct rtm_tree *t, struct statvfs *sv)
{
    return fstatvfs(t->cfg.srcfd, sv) ? -errno : 0;
}

/* ---- open and opendir ---- */

struct rtm_open_policy rtm_tree_open_policy(unsigned capable)
{
    return (struct rtm_open_policy){ .open_enosys = !!(capable & RTM_CAP_NO_OPEN),
                                     .opendir_enosys = !!(capable & RTM_CAP_NO_OPENDIR) };
}
