/* tree_resolve.c - what a source entry is, and a mount path -> the source
 * file (or archive entry) and view it shows (tree_int.h's struct tree_target). */
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pbo.h"
#include "views.h"

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
    if (!named && !t->cfg.show_other)
        return RTM_SRC_HIDDEN;
    int config = named ? 0 : tree_config_sniff_file(t, dfd, name);
    if (config < 0)
        return config;                  /* unread: neither kind can be told */
    if (!named && !config)
        return RTM_SRC_OTHER;
    *id = rtm_fileid_of(st);            /* a config's text is of one version */
    if (!named)
        return RTM_SRC_CONFIG;
    if (!tree_is_rtm_name(base, len))
        return RTM_SRC_PBO;
    id->salt = tree_modelcfg_salt(t, dfd, name);
    return RTM_SRC_ANIM;
}
/* ---- mount path -> source file and view ---- */

int tree_classify_target(struct rtm_tree *t, struct tree_target *tg)
{
    struct rtm_fileid id;
    int k = rtm_tree_classify(t, t->cfg.srcfd, tg->src, tg->src, DT_UNKNOWN, &tg->st, &id);
    static const enum tree_kind of[] = { [RTM_SRC_DIR] = TK_DIR, [RTM_SRC_ANIM] = TK_ANIM,
                                         [RTM_SRC_PBO] = TK_PBO, [RTM_SRC_OTHER] = TK_OTHER,
                                         [RTM_SRC_CONFIG] = TK_CONFIG };
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
int tree_get_entry(struct rtm_tree *t, struct tree_target *tg, const char *key,
                   enum rtmc_kind kind, struct rtmc_entry **h)
{
    struct rtmc_src s = { .path = key, .level = kind == RTMC_ANIM ? tg->level : RTMC_FULL,
                          .kind = kind, .archive_len = key == tg->src ? 0 : strlen(tg->src),
                          .full_if_parsed = kind == RTMC_ANIM && tg->full_if_parsed };
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
        if (kind == RTMC_ANIM && key == tg->src)   /* its model.cfg may be what changed */
            tg->id.salt = tree_modelcfg_salt(t, t->cfg.srcfd, tg->src);
    }
    return -EIO;
}

/* The cache key of archive entry tg->entry. */
void tree_member_key(const struct tree_target *tg, char key[RTM_KEY_MAX])
{
    rtm_loader_entry_key(key, tg->src, strlen(tg->src),
                         rtmc_pbo(tg->table)->entries[tg->entry].path);
}

/* Gets the parsed animation tg names: a file, or an archive's entry. */
int tree_load_anim(struct rtm_tree *t, struct tree_target *tg)
{
    char key[RTM_KEY_MAX];
    if (tg->entry < 0)
        return tree_get_entry(t, tg, tg->src, RTMC_ANIM, &tg->h);
    tree_member_key(tg, key);
    return tree_get_entry(t, tg, key, RTMC_ANIM, &tg->h);
}

/* Whether name, inside an animation's folder, can only be or lead to a
 * view that needs matrices: a fixed name of such a view, or a folder of
 * views (frames/, joints/, tracks/: all theirs need them) or a file in one.
 * Decided from the name alone, before anything is loaded.  A walk (grep
 * -r, find) lists the animation's folder before it enters frames/, so the
 * light entry that listing loaded names frames/ and nothing is parsed. */
static int name_needs_full(const char *name)
{
    static const enum rtm_view_kind folders[] = { RTM_VIEW_FRAME, RTM_VIEW_JOINTS,
                                                  RTM_VIEW_TRACK };
    for (int k = 0; k < RTM_NFIXED_VIEWS; k++)
        if (strcmp(name, rtm_view_fixed_name((enum rtm_view_kind)k)) == 0)
            return rtmc_view_level((struct rtm_view){ .kind = (enum rtm_view_kind)k }) ==
                   RTMC_FULL;
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++) {
        const char *f = rtm_view_folder_name(folders[i]);
        size_t n = strlen(f);
        if (strncmp(name, f, n) == 0 && (name[n] == '/' || !name[n]))
            return 1;
    }
    return 0;
}

/* The same for member k of an animation's family: views come in
 * rtm_view_at() order, the fixed ones first by kind, then the folders'
 * files, which all need matrices. */
static int member_needs_full(uint64_t k)
{
    if (k < MEMBER_VIEWS || k >= RTM_INO_MEMBERS - 1)
        return 0;                       /* the last number is states.txt's */
    uint64_t i = k - MEMBER_VIEWS;
    return i >= RTM_NFIXED_VIEWS ||
           rtmc_view_level((struct rtm_view){ .kind = (enum rtm_view_kind)i }) == RTMC_FULL;
}

/* Resolves what is inside an animation folder (tg->rest).  A name that
 * can only be a view with numbers loads, when the file must be parsed at
 * all, the full parse its size and bytes will need: a cold file is parsed
 * once, not light for its names and then full for its view.  A shape the
 * index gives, or any entry already cached, still serves the names. */
int tree_resolve_inner(struct rtm_tree *t, struct tree_target *tg)
{
    tg->full_if_parsed = name_needs_full(tg->rest);
    int rc = tree_load_anim(t, tg);
    if (rc)
        return rc;
    const struct rtm_anim *a = rtmc_anim(tg->h);
    if (!a) {
        tg->kind = TK_ERROR;
        tg->member = MEMBER_ERROR;
    } else if (rtm_view_folder_lookup(a, tg->rest, &tg->view.kind) == 0) {
        tg->kind = TK_FRAMES;
        tg->member = tree_folder_member(tg->view.kind);
    } else if (rtm_view_lookup(a, tg->rest, &tg->view) == 0) {
        tg->kind = TK_VIEW;
        /* below RTM_INO_MEMBERS: an anim of 2^40 views would not fit in memory */
        tg->member = MEMBER_VIEWS + rtm_view_index(a, tg->view);
    } else if (strcmp(tg->rest, RTM_TREE_STATES_NAME) == 0) {
        tg->kind = TK_STATES;
        tg->member = MEMBER_STATES;
    }
    if ((!a && strcmp(tg->rest, RTM_TREE_ERROR_NAME)) || (a && tg->kind == TK_ANIM)) {
        rtmc_put(t->cfg.cache, tg->h);
        tg->h = NULL;
        return -ENOENT;
    }
    return 0;
}

/* Resolves inner, a path below the folders of archive tg->src whose table
 * is p, one component at a time. */
static int resolve_member(struct rtm_tree *t, struct tree_target *tg, const struct pbo *p,
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
            tg->kind = TK_PDIR;
            tg->rest = inner;
            return tree_archive_below(t, tg, inner, &tg->newest) ? 0 : -ENOENT;
        }
        if (node == PBO_FILE && tree_is_rtm_name(q, n)) {
            tg->kind = TK_ANIM;
            tg->rest = end + (*end != 0);
            return *end ? tree_resolve_inner(t, tg) : 0;
        }
        if ((node == PBO_FILE || node == PBO_NONE) && !*end && t->cfg.show_other)
            return tree_config_entry(t, tg, inner, node);   /* as it is, or as text */
        if (node != PBO_DIR)
            return -ENOENT;
    }
}

/* Resolves inner, a path inside archive tg->src ("" for the archive
 * itself): a broken archive holds only error.txt, a good one pbo.txt and
 * its tree. */
int tree_resolve_archive(struct rtm_tree *t, struct tree_target *tg, const char *inner)
{
    tg->kind = TK_PBO;
    tg->rest = "";
    int rc = tree_get_entry(t, tg, tg->src, RTMC_TABLE, &tg->table);
    const struct pbo *p = rc ? NULL : rtmc_pbo(tg->table);
    if (rc || !*inner)
        return rc;
    if (!p && strcmp(inner, RTM_TREE_ERROR_NAME) == 0) {
        tg->kind = TK_ERROR;
        tg->h = tg->table;
        tg->table = NULL;
        return 0;
    }
    if (!p)
        return -ENOENT;
    if (strcmp(inner, RTM_PBO_INFO_NAME) == 0) {
        tg->kind = TK_PINFO;
        return 0;
    }
    if (p->ncut && strcmp(inner, RTM_TREE_ERROR_NAME) == 0) {
        tg->kind = TK_ERROR;             /* says what the cut took */
        return 0;
    }
    return resolve_member(t, tg, p, inner);
}

/* The entries an archive's folder shows: animations, or every entry with
 * show_other.  Counts them below dir and keeps their newest time. */
struct below {
    const struct tree_target *tg;
    int all;
    size_t shown;
    struct timespec newest;
};

struct timespec tree_entry_time(const struct tree_target *tg, long entry)
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
        b->newest = tree_later(b->newest, tree_entry_time(b->tg, entry));
    }
    return 0;
}

size_t tree_archive_below(struct rtm_tree *t, const struct tree_target *tg, const char *dir,
                          struct timespec *newest)
{
    struct below b = { .tg = tg, .all = t->cfg.show_other };
    pbo_each_below(rtmc_pbo(tg->table), dir, count_below, &b);
    if (newest)
        *newest = b.newest;
    return b.shown;
}

/* Finds the animation or archive among the leading components of path. */
static int resolve_prefix(struct rtm_tree *t, const char *path, struct tree_target *tg)
{
    for (const char *p = path, *slash; (slash = strchr(p, '/')); p = slash + 1) {
        size_t len = (size_t)(slash - p);
        if (!tree_is_rtm_name(p, len) && !is_pbo_name(p, len))
            continue;
        size_t n = (size_t)(slash - path);
        memcpy(tg->src, path, n);
        tg->src[n] = 0;
        int rc = tree_classify_target(t, tg);
        if (rc == 0 && tg->kind == TK_ANIM) {
            tg->rest = path + n + 1;
            return tree_resolve_inner(t, tg);
        }
        if (rc == 0 && tg->kind == TK_PBO)
            return tree_resolve_archive(t, tg, path + n + 1);
        if (rc == 0 && tg->kind == TK_DIR)
            continue;
        return -ENOENT;
    }
    return -ENOENT;
}

/* SOURCE is one file: path is inside its folder.  While the file is gone
 * (or is no longer a file), the root holds only error.txt saying so. */
static int resolve_in_file(struct rtm_tree *t, const char *path, struct tree_target *tg)
{
    strcpy(tg->src, t->file);           /* its length was checked in rtm_tree_new */
    int rc = tree_classify_target(t, tg);
    if (rc == 0 && tg->kind == TK_ANIM) {
        tg->rest = path;
        return *path ? tree_resolve_inner(t, tg) : 0;
    }
    if (rc == 0 && tg->kind == TK_PBO)
        return tree_resolve_archive(t, tg, path);
    tg->gone = rc < 0 ? -rc : EISDIR;
    struct stat dir;
    if (fstat(t->cfg.srcfd, &dir))
        return -errno;
    tg->st = dir;
    tg->st.st_mode = S_IFREG | (dir.st_mode & 0444);
    if (!*path)
        tg->kind = TK_GONE;
    else if (strcmp(path, RTM_TREE_ERROR_NAME) == 0)
        tg->kind = TK_ERROR;
    else
        return -ENOENT;
    return 0;
}

int tree_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                 struct tree_target *tg)
{
    return t->game ? tree_gamepaths_resolve(t, path, id, tg) : tree_resolve_source(t, path, id, tg);
}

/* Resolves a path of SOURCE's own tree; id is the version the kernel's
 * inode names (RTM_FILEID_NONE: whatever is current). */
int tree_resolve_source(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                        struct tree_target *tg)
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
        rc = tree_config_loose(t, path, tg, tree_classify_target(t, tg));
        if (rc == -ENOTDIR || rc == -ENOENT)
            rc = resolve_prefix(t, path, tg);
    }
    rc = tree_missing_resolve(t, path, tg, rc);
    if (rc)
        tree_target_done(t, tg);        /* an archive's table may be held */
    return rc;
}

void tree_target_done(struct rtm_tree *t, struct tree_target *tg)
{
    rtmc_put(t->cfg.cache, tg->h);
    rtmc_put(t->cfg.cache, tg->table);
    tg->h = tg->table = NULL;
}

/* ---- inode numbers -> mount paths ---- */

int tree_resolve_ino(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX],
                     struct tree_target *tg)
{
    struct rtm_fileid id;
    uint64_t k = rtm_ino_member(ino);
    int rc = 0;
    if ((ino & RTM_INO_FAMILY) && !tree_by_path(t))
        rc = tree_resolve_head(t, rtm_ino_head(ino), path, tg);
    else if (!(rc = rtm_inodes_path(t->nodes, ino, path, PATH_MAX, &id)))
        rc = tree_resolve(t, path, &id, tg);
    if (rc || !k)
        return rc;
    tg->full_if_parsed = member_needs_full(k);  /* as tree_resolve_inner */
    rc = tg->kind == TK_ANIM ? tree_resolve_member(t, tg, k) : -ESTALE;
    if (rc)
        tree_target_done(t, tg);
    return rc;
}

int tree_dir_path(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct rtm_fileid *id)
{
    uint64_t k = rtm_ino_member(ino);
    int rc = rtm_inodes_path(t->nodes, ino, path, PATH_MAX, id);
    if (rc || !k)
        return rc;
    enum rtm_view_kind kind;
    if (tree_member_folder(k, &kind))
        return -ENOTDIR;
    return rtm_path_join(path, PATH_MAX, path, rtm_view_folder_name(kind));
}

