/* tree_gamepaths.c - -o gamepaths: the mount's tree is the game's file
 * system (gamefs.h), every archive and loose $PBOPREFIX$ folder under
 * SOURCE at its prefix.  A leaf of the resolver, tier 3 of the tree
 * (tree_int.h): it translates, and never resolves.
 *
 * Every folder of the game's tree is made up here; a file of it is a
 * source's file, which tree_resolve.c resolves by the normal mount's rules
 * at the path this file translates it to
 * ("ace_goggles.pbo/anim/WipeGlasses.rtm/header.txt"): the same
 * target (archive, entry, version), so the cache, the index and the views
 * are the normal mount's.  Inode numbers are keyed by game paths, and an
 * animation's family is resolved by its game path (tree_by_path), as
 * when SOURCE is one file.
 *
 * The table of sources is built at the first need: a walk of SOURCE's
 * folders (each watched), each archive's prefix from the persistent index
 * when it knows that version of the archive, else from its table (through
 * the cache), then remembered.  An archive's
 * entries go into the table only when a path at or below its prefix is
 * asked about, so listing the root needs prefixes alone.  A change under
 * SOURCE drops the table and has the kernel forget every answer. */
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "gamefs.h"
#include "gamepath.h"

#define PBOPREFIX_NAME "$PBOPREFIX$"
#define SCAN_DEPTH_MAX 64                 /* folders below SOURCE, against loops */

struct tree_game {
    pthread_mutex_t lock;
    struct gamefs *g;                     /* NULL: to be built at the next need */
    struct timespec built;                /* when g was (CLOCK_MONOTONIC) */
};

int tree_gamepaths_new(struct rtm_tree *t)
{
    if (!t->cfg.gamepaths)
        return 0;
    if (!(t->game = calloc(1, sizeof *t->game)))
        return -ENOMEM;
    pthread_mutex_init(&t->game->lock, NULL);
    return 0;
}

void tree_gamepaths_free(struct rtm_tree *t)
{
    if (!t->game)
        return;
    gamefs_free(t->game->g);
    pthread_mutex_destroy(&t->game->lock);
    free(t->game);
    t->game = NULL;
}

/* ---- building the table ---- */

/* The normal mount's path of source src ("" for the SOURCE file itself). */
static const char *normal_base(const struct rtm_tree *t, const char *src)
{
    return t->file ? "" : src;
}

/* The persistent index's record of one version of an archive: its
 * prefix property as stored, empty when it has none.  A kind of record
 * of its own (RTM_STORE_PREFIX, store.h), so that a later mount lists
 * the game's root without decoding a table. */

/* Bytes of an archive's start read for its prefix: its header's
 * properties, a few hundred bytes as packers write them. */
#define HEAD_BYTES 4096

/* Archive rel's prefix from its header's properties alone, not its table,
 * into out (n bytes, NUL-terminated; "" when it has none): 0, or -1 when
 * they do not fit in HEAD_BYTES (or cannot be read).  *same: whether the
 * bytes are of version st. */
static int head_prefix(struct rtm_tree *t, const char *rel, const struct stat *st, char *out,
                       size_t n, int *same)
{
    uint8_t head[HEAD_BYTES];
    struct stat now;
    const char *v;
    size_t vl;
    int fd = rtm_work_openat(t->cfg.work, t->cfg.srcfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    ssize_t len = rtm_work_pread(t->cfg.work, fd, head, sizeof head, 0);
    struct rtm_fileid was = rtm_fileid_of(st), is = RTM_FILEID_NONE;
    if (fstat(fd, &now) == 0)
        is = rtm_fileid_of(&now);
    *same = rtm_fileid_same(&was, &is);
    close(fd);
    int r = len < 0 ? -1 : gamepath_head_prefix(head, (size_t)len, &v, &vl);
    if (r < 0 || (r == 1 && vl >= n))
        return -1;
    memcpy(out, r ? v : "", r ? vl : 0);
    out[r ? vl : 0] = 0;
    return 0;
}

/* Adds archive rel (stat st) at its prefix: remembered, or from its
 * header's properties, or else its table (a broken archive's is its name;
 * never remembered). */
static int add_archive(struct rtm_tree *t, struct gamefs *g, const char *rel,
                       const struct stat *st)
{
    struct rtm_store_key k;
    void *val;
    size_t len;
    char pre_head[PBO_NAME_MAX + 1];
    struct rtm_fileid id = rtm_fileid_of(st);
    int keyed = tree_archive_key(t, &id, RTM_STORE_PREFIX, &k) == 0, same = 0;
    if (keyed && rtm_store_get(tree_store(t), &k, &val, &len) == 0) {
        long i = gamefs_add(g, rel, len ? val : NULL, len);
        free(val);
        return i < 0 ? -ENOMEM : 0;
    }
    if (head_prefix(t, rel, st, pre_head, sizeof pre_head, &same) == 0) {
        len = strlen(pre_head);
        long i = gamefs_add(g, rel, len ? pre_head : NULL, len);
        if (keyed && same)
            rtm_store_put(tree_store(t), &k, pre_head, len);
        return i < 0 ? -ENOMEM : 0;
    }
    struct tree_target tg = { .entry = -1, .id = rtm_fileid_of(st), .st = *st };
    snprintf(tg.src, sizeof tg.src, "%s", rel);
    const struct pbo *p = NULL;
    if (tree_get_entry(t, &tg, tg.src, RTMC_TABLE, &tg.table) == 0)
        p = rtmc_pbo(tg.table);
    const char *pre = p ? pbo_prop(p, "prefix") : NULL;
    long i = gamefs_add(g, rel, pre, pre ? strlen(pre) : 0);
    if (keyed && p)
        rtm_store_put(tree_store(t), &k, pre ? pre : "", pre ? strlen(pre) : 0);
    tree_target_done(t, &tg);
    return i < 0 ? -ENOMEM : 0;         /* (or a path past PATH_MAX: none is) */
}

/* Paths of a loose addon's files, each the name it shows as. */
struct loose_files {
    const char *base;                     /* the addon folder, relative to SOURCE */
    struct rtm_buf pool;                  /* NUL-separated paths */
    size_t n;
};

/* Adds the files below folder rel of the addon (dfd open on it, taken),
 * classified as the normal mount classifies them (the mount point,
 * devices and links to folders left out; other files with show_other),
 * each folder watched. */
static void walk_loose(struct rtm_tree *t, int dfd, const char *rel, int depth,
                       struct loose_files *lf)
{
    char src[PATH_MAX];
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    if (*rel && rtm_path_join(src, PATH_MAX, lf->base, rel) == 0)
        tree_watch(t, src);              /* the addon's own folder is scan()'s */
    for (struct dirent *de; (de = readdir(d));) {
        char path[PATH_MAX], shown[NAME_MAX + 1];
        struct stat st;
        struct rtm_fileid id;
        const char *name = de->d_name;
        if (!strcmp(name, ".") || !strcmp(name, "..") || (!*rel && !strcmp(name, PBOPREFIX_NAME)) ||
            rtm_path_join(path, PATH_MAX, rel, name) || rtm_path_join(src, PATH_MAX, lf->base, path))
            continue;
        int k = rtm_tree_classify(t, dirfd(d), name, src, de->d_type, &st, &id);
        if (k == RTM_SRC_DIR && depth < SCAN_DEPTH_MAX) {
            int sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (sub >= 0)
                walk_loose(t, sub, path, depth + 1, lf);
            continue;
        }
        if (k != RTM_SRC_ANIM && k != RTM_SRC_OTHER && k != RTM_SRC_CONFIG)
            continue;                   /* archives in an addon's folder are not packed */
        snprintf(shown, sizeof shown, "%s", name);
        if (k == RTM_SRC_CONFIG)
            tree_config_shown(&(struct tree_folder){ .dfd = dirfd(d), .dir = "" }, name, shown);
        if (rtm_path_join(path, PATH_MAX, rel, shown) == 0) {
            rtm_buf_put(&lf->pool, path, strlen(path) + 1);
            lf->n++;
        }
    }
    closedir(d);
}

/* Adds loose addon folder rel (dfd open on it, taken) at the prefix its
 * $PBOPREFIX$ gives, with every file below it. */
static int add_loose(struct rtm_tree *t, struct gamefs *g, int dfd, const char *rel)
{
    char pre[PATH_MAX], buf[64 * 1024];
    int fd = rtm_work_openat(t->cfg.work, dfd, PBOPREFIX_NAME, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    ssize_t len = fd < 0 ? -1 : rtm_work_pread(t->cfg.work, fd, buf, sizeof buf, 0);
    if (fd >= 0)
        close(fd);
    int has = len >= 0 && gamepath_pboprefix(buf, (size_t)len, pre, sizeof pre) == 0;
    struct loose_files lf = { .base = rel };
    rtm_buf_init(&lf.pool);
    walk_loose(t, dfd, "", 0, &lf);
    const char **paths = lf.pool.oom ? NULL : calloc(lf.n ? lf.n : 1, sizeof *paths);
    long i = paths ? gamefs_add(g, rel, has ? pre : NULL, has ? strlen(pre) : 0) : -1;
    const char *at = lf.pool.p;
    for (size_t k = 0; paths && k < lf.n; at += strlen(at) + 1)
        paths[k++] = at;
    int rc = i < 0 || gamefs_set_entries(g, (size_t)i, paths, lf.n) ? -ENOMEM : 0;
    free(paths);
    rtm_buf_free(&lf.pool);
    return rc;
}

/* Adds every source in source folder rel (SOURCE's root: ""). */
static int scan(struct rtm_tree *t, struct gamefs *g, const char *rel, int depth)
{
    int dfd = openat(t->cfg.srcfd, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (dfd < 0)
        return 0;
    tree_watch(t, rel);
    if (fstatat(dfd, PBOPREFIX_NAME, &st, 0) == 0 && S_ISREG(st.st_mode))
        return add_loose(t, g, dfd, rel);
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return 0;
    }
    int rc = 0;
    for (struct dirent *de; !rc && (de = readdir(d));) {
        char path[PATH_MAX];
        struct rtm_fileid id;
        size_t len = strlen(de->d_name);
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            (de->d_type == DT_REG && !rtm_name_ends(de->d_name, len, ".pbo")) ||
            rtm_path_join(path, PATH_MAX, rel, de->d_name))
            continue;                   /* loose files outside addons: not the game's */
        int k = rtm_tree_classify(t, dirfd(d), de->d_name, path, de->d_type, &st, &id);
        if (k == RTM_SRC_DIR && depth < SCAN_DEPTH_MAX)
            rc = scan(t, g, path, depth + 1);
        else if (k == RTM_SRC_PBO)
            rc = add_archive(t, g, path, &st);
    }
    closedir(d);
    return rc;
}

/* Whether changes under SOURCE may go unreported (a watch failed, or
 * SOURCE is on a device inotify is blind on): then the table is only
 * trusted as long as the kernel trusts an answer, and built again after. */
static int table_expired(struct rtm_tree *t)
{
    struct stat st;
    struct timespec now;
    int blind = atomic_load(&t->unwatched) ||
                (t->cfg.fsmap && fstat(t->cfg.srcfd, &st) == 0 &&
                 rtm_fsmap_check(t->cfg.fsmap, t->cfg.srcfd, "", (uint64_t)st.st_dev));
    clock_gettime(CLOCK_MONOTONIC, &now);
    double age = (double)(now.tv_sec - t->game->built.tv_sec) +
                 (double)(now.tv_nsec - t->game->built.tv_nsec) / 1e9;
    return blind && age >= RTM_TREE_TIMEOUT_UNWATCHED;
}

/* The table, built when it is not (or no longer) up to date: 0, or a
 * negative errno. */
static int ensure_table(struct rtm_tree *t)
{
    struct tree_game *gm = t->game;
    struct stat st;
    if (gm->g && !table_expired(t))
        return 0;
    gamefs_free(gm->g);
    gm->g = NULL;
    struct gamefs *g = gamefs_new();
    if (!g)
        return -ENOMEM;
    int rc = 0;
    if (!t->file)
        rc = scan(t, g, "", 0);
    else if (fstatat(t->cfg.srcfd, t->file, &st, 0) == 0 && S_ISREG(st.st_mode) &&
             rtm_name_ends(t->file, strlen(t->file), ".pbo"))
        rc = add_archive(t, g, t->file, &st);
    if (rc) {
        gamefs_free(g);
        return rc;
    }
    gm->g = g;
    clock_gettime(CLOCK_MONOTONIC, &gm->built);
    return 0;
}

/* Puts archive source src's entries into the table, each by the name it
 * shows as in the normal mount (a config.bin as config.cpp). */
static int load_entries(void *arg, size_t src)
{
    struct rtm_tree *t = arg;
    struct gamefs *g = t->game->g;
    const char *name = gamefs_name(g, src);
    struct tree_target tg = { .entry = -1 };
    struct stat st;
    if (fstatat(t->cfg.srcfd, name, &st, 0))
        return gamefs_set_entries(g, src, NULL, 0) ? -ENOMEM : 0;   /* gone: empty */
    tg.st = st;
    tg.id = rtm_fileid_of(&st);
    snprintf(tg.src, sizeof tg.src, "%s", name);
    int rc = tree_get_entry(t, &tg, tg.src, RTMC_TABLE, &tg.table);
    const struct pbo *p = rc ? NULL : rtmc_pbo(tg.table);
    size_t n = p ? p->nentries : 0;
    struct rtm_buf pool;
    rtm_buf_init(&pool);
    size_t *off = calloc(n ? n : 1, sizeof *off);
    for (size_t i = 0; off && i < n; i++) {
        const struct pbo_entry *e = &p->entries[i];
        const char *slash = strrchr(e->path, '/'), *base = slash ? slash + 1 : e->path;
        char dir[PATH_MAX], shown[NAME_MAX + 1];
        off[i] = pool.len;
        if (e->cut || (!tree_is_anim_name(base, strlen(base)) && !t->cfg.show_other) ||
            strlen(e->path) >= sizeof dir) {
            rtm_buf_putc(&pool, 0);
            continue;
        }
        memcpy(dir, e->path, (size_t)(base - e->path));
        dir[base - e->path - (slash != NULL)] = 0;
        tg.rest = dir;
        tree_config_entry_name(t, &tg, (long)i, base, shown);
        rtm_buf_put(&pool, e->path, (size_t)(base - e->path));
        rtm_buf_put(&pool, shown, strlen(shown) + 1);
    }
    const char **paths = off && !pool.oom ? calloc(n ? n : 1, sizeof *paths) : NULL;
    for (size_t i = 0; paths && i < n; i++)
        paths[i] = pool.p + off[i];
    rc = paths ? gamefs_set_entries(g, src, paths, n) : -1;
    free(paths);
    free(off);
    rtm_buf_free(&pool);
    tree_target_done(t, &tg);
    return rc ? -ENOMEM : 0;
}

static int load_all(struct rtm_tree *t)
{
    struct gamefs *g = t->game->g;
    for (size_t i = 0; i < gamefs_count(g); i++)
        if (!gamefs_loaded(g, i) && load_entries(t, i))
            return -ENOMEM;
    return 0;
}

/* ---- game path -> target ---- */

/* What game path path is, under the lock: a folder (*normal ""), or a
 * source's file: the normal mount's path of it, with what follows. */
static int game_to_normal(struct rtm_tree *t, const char *path, char normal[PATH_MAX],
                          int *is_dir)
{
    char q[PATH_MAX];
    struct gamefs_hit hit;
    int rc = ensure_table(t);
    *is_dir = 0;
    for (const char *end = path; !rc; end++) {
        if (*end && *end != '/')
            continue;
        size_t n = (size_t)(end - path);
        memcpy(q, path, n);
        q[n] = 0;
        if ((rc = gamefs_each_needed(t->game->g, q, load_entries, t)))
            return rc;
        enum gamefs_node node = gamefs_lookup(t->game->g, q, &hit);
        if (node == GAMEFS_NONE)
            return -ENOENT;
        if (node == GAMEFS_DIR && !*end) {
            *is_dir = 1;
            return 0;
        }
        if (node == GAMEFS_FILE) {
            const char *base = normal_base(t, gamefs_name(t->game->g, (size_t)hit.src));
            int w = snprintf(normal, PATH_MAX, "%s%s%s%s", base, *base ? "/" : "", hit.path, end);
            return w < PATH_MAX ? 0 : -ENAMETOOLONG;
        }
        if (!*end)
            return -ENOENT;
    }
    return rc;
}

int tree_gamepaths_translate(struct rtm_tree *t, const char *path, char normal[PATH_MAX])
{
    int is_dir;
    pthread_mutex_lock(&t->game->lock);
    int rc = game_to_normal(t, path, normal, &is_dir);
    pthread_mutex_unlock(&t->game->lock);
    return rc ? rc : is_dir;
}

int rtm_tree_source_path(struct rtm_tree *t, const char *path, char *out)
{
    if (!t->game)
        return -EINVAL;
    int rc = tree_gamepaths_translate(t, path, out);
    if (rc == 1)
        *out = 0;
    return rc;
}

/* ---- a folder's children, for its listing (tree_list.c) ---- */

struct game_children {
    struct tree_game_child *c;
    size_t n, cap;
};

static int collect(void *arg, const char *name, size_t len, const struct gamefs_hit *hit)
{
    struct game_children *gc = arg;
    if (len > NAME_MAX)
        return 0;                       /* no lookup could reach it */
    void *c = gc->c;
    if (rtm_array_grow(&c, &gc->cap, gc->n + 1, sizeof *gc->c, 64))
        return -ENOMEM;
    gc->c = c;
    memcpy(gc->c[gc->n].name, name, len);
    gc->c[gc->n].name[len] = 0;
    gc->c[gc->n++].dir = hit->node == GAMEFS_DIR;
    return 0;
}

int tree_gamepaths_children(struct rtm_tree *t, const char *path, struct tree_game_child **out,
                            size_t *n)
{
    struct game_children gc = { 0 };
    pthread_mutex_lock(&t->game->lock);
    int rc = ensure_table(t);
    if (!rc)
        rc = gamefs_each_needed(t->game->g, path, load_entries, t);
    if (!rc)
        rc = gamefs_list(t->game->g, path, collect, &gc) == -1 ? -ENOENT : 0;
    pthread_mutex_unlock(&t->game->lock);
    if (rc) {
        free(gc.c);
        gc = (struct game_children){ 0 };
    }
    *out = gc.c;
    *n = gc.n;
    return rc;
}

/* ---- conflicts.txt, changes ---- */

int tree_gamepaths_conflicts(struct rtm_tree *t, struct rtm_buf *b)
{
    rtm_buf_init(b);
    pthread_mutex_lock(&t->game->lock);
    int rc = ensure_table(t);
    if (!rc)
        rc = load_all(t);
    if (!rc && gamefs_conflicts(t->game->g, b))
        rc = -ENOMEM;
    pthread_mutex_unlock(&t->game->lock);
    if (rc)
        rtm_buf_free(b);
    return rc;
}

void tree_gamepaths_changed(struct rtm_tree *t)
{
    pthread_mutex_lock(&t->game->lock);
    gamefs_free(t->game->g);            /* any source may have come, gone or moved */
    t->game->g = NULL;
    pthread_mutex_unlock(&t->game->lock);
}
