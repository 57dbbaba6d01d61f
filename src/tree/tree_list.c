/* tree_list.c - the listings of the mount's folders (see tree.h), kept for
 * the rest of an enumeration. */
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"

/* A listing's names, packed in blocks that never move: one allocation for
 * many names (a folder of views lists thousands, built again for every
 * enumeration). */
struct tree_names {
    struct tree_names *next;
    size_t used, cap;
    char s[];
};
enum { NAMES_BLOCK = 4000 };

static char *dl_name(struct rtm_dirlist *d, const char *name)
{
    size_t n = strlen(name) + 1;
    struct tree_names *b = d->names;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > NAMES_BLOCK ? n : NAMES_BLOCK;
        if (!(b = malloc(sizeof *b + cap)))
            return NULL;
        *b = (struct tree_names){ .next = d->names, .cap = cap };
        d->names = b;
    }
    char *p = memcpy(b->s + b->used, name, n);
    b->used += n;
    return p;
}

static void dl_free(struct rtm_tree *t, struct rtm_dirlist *d)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->e[i].ino != RTM_INO_ROOT && !rtm_ino_member(d->e[i].ino))
            rtm_inodes_release(t->nodes, d->e[i].ino);   /* members are not held */
    for (struct tree_names *b = d->names, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(d->e);
    free(d);
}

void tree_listings_free(struct rtm_tree *t)
{
    for (size_t i = 0; i < NLISTINGS; i++)
        if (t->listing[i].d)
            dl_free(t, t->listing[i].d);
}

/* Appends name with number ino, which the listing owns from now on (a hold
 * it releases, unless ino is the root's or a member's). */
static int dl_put(struct rtm_tree *t, struct rtm_dirlist *d, const char *name, mode_t type,
                  uint64_t ino)
{
    char *copy = NULL;
    void *e = d->e;
    if (!rtm_array_grow(&e, &d->cap, d->n + 1, sizeof *d->e, 64))
        d->e = e;
    if (d->n < d->cap)
        copy = dl_name(d, name);
    if (!copy) {
        if (ino != RTM_INO_ROOT && !rtm_ino_member(ino))
            rtm_inodes_release(t->nodes, ino);
        return -ENOMEM;
    }
    d->e[d->n++] = (struct rtm_dirent){ .name = copy, .ino = ino, .type = type };
    return 0;
}

/* Appends name, an entry of folder dir of version id, holding its number:
 * a family's head (inodes.h) keeping head when it is not NULL. */
static int dl_add(struct rtm_tree *t, struct rtm_dirlist *d, const char *dir,
                  const char *name, mode_t type, const struct rtm_fileid *id,
                  const struct tree_head *head)
{
    char path[PATH_MAX];
    if (rtm_path_join(path, PATH_MAX, dir, name))
        return -ENAMETOOLONG;
    uint64_t ino = head ? rtm_inodes_hold_head(t->nodes, path, id, head)
                        : rtm_inodes_hold(t->nodes, path, id);
    return ino ? dl_put(t, d, name, type, ino) : -ENOMEM;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(((const struct rtm_dirent *)x)->name, ((const struct rtm_dirent *)y)->name);
}

/* A source folder's entries, in the order of their names (bytes), as ls
 * shows them, rather than the file system's: a walk then goes in the order
 * of the listing whether it sorts (ls -R) or not (du, find), which is the
 * order sizing ahead follows (tree_ahead.c). */
static int list_source_dir(struct rtm_tree *t, const char *rel, struct rtm_dirlist *d)
{
    size_t first = d->n;
    int dfd = openat(t->cfg.srcfd, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = dfd < 0 ? NULL : fdopendir(dfd);
    if (!dir) {
        int e = errno;
        if (dfd >= 0)
            close(dfd);
        return -e;
    }
    int rc = 0;
    char path[PATH_MAX];
    for (struct dirent *de; !rc && (de = readdir(dir));) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            rtm_path_join(path, PATH_MAX, rel, de->d_name))
            continue;
        struct stat st;
        struct rtm_fileid id;
        struct tree_head hi;
        int k = rtm_tree_classify(t, dfd, de->d_name, path, de->d_type, &st, &id);
        const char *name = de->d_name;
        char shown[NAME_MAX + 1];
        if (k == RTM_SRC_ANIM)
            tree_head_info(path, &st, -1, &hi);
        if (k == RTM_SRC_CONFIG) {      /* numbered by path, as lookup numbers it */
            tree_config_shown(&(struct tree_folder){ .dfd = dfd, .dir = "" }, name, shown);
            name = shown;
            id = RTM_FILEID_NONE;
        }
        if (k < 0 && k != -ENOENT)
            d->unsure = 1;              /* not gone, only unread: ask again */
        if (k > RTM_SRC_HIDDEN)
            rc = dl_add(t, d, rel, name, k == RTM_SRC_OTHER || k == RTM_SRC_CONFIG ? S_IFREG
                                                                                 : S_IFDIR,
                        &id, k == RTM_SRC_ANIM ? &hi : NULL);
    }
    closedir(dir);
    if (rc == 0)
        qsort(d->e + first, d->n - first, sizeof *d->e, by_name);
    return rc;
}

/* Appends an entry of folder ino (at path) of an animation: in a family
 * (inodes.h), its member number k; else (the root of a mount of one .rtm
 * file) a held node. */
static int add_view(struct rtm_tree *t, struct rtm_dirlist *d, uint64_t ino, const char *path,
                    const struct tree_target *tg, const char *name, mode_t type, uint64_t k)
{
    if (ino & RTM_INO_FAMILY)
        return dl_put(t, d, name, type, rtm_ino_in_family(rtm_ino_head(ino), k));
    return dl_add(t, d, path, name, type, &tg->id, NULL);
}

static int list_anim(struct rtm_tree *t, uint64_t ino, const struct tree_target *tg,
                     const char *path, struct rtm_dirlist *d)
{
    const struct rtm_anim *a = rtmc_anim(tg->h);
    char name[RTM_VIEW_NAME_MAX];
    int rc = 0;
    if (tg->kind == TK_ANIM && !a)
        return add_view(t, d, ino, path, tg, RTM_TREE_ERROR_NAME, S_IFREG, MEMBER_ERROR);
    if (tg->kind == TK_ANIM) {
        enum rtm_view_kind kind;
        const char *folder;
        for (size_t k = 0; !rc && k < rtm_view_nfixed(a); k++)
            rc = add_view(t, d, ino, path, tg, rtm_view_fixed_name((enum rtm_view_kind)k),
                          S_IFREG, MEMBER_VIEWS + k);     /* the fixed views come first */
        if (!rc)
            rc = add_view(t, d, ino, path, tg, RTM_TREE_STATES_NAME, S_IFREG,
                          MEMBER_STATES);
        for (size_t i = 0; !rc && (folder = rtm_view_folder(a, i, &kind)); i++)
            rc = add_view(t, d, ino, path, tg, folder, S_IFDIR, tree_folder_member(kind));
        return rc;
    }
    uint32_t n = rtm_view_folder_size(a, tg->view.kind);
    struct rtm_view v = { .kind = tg->view.kind };
    for (uint32_t i = 0; !rc && i < n; i++) {
        v.frame = i;                    /* also the bone, for tracks */
        rtm_view_entry_name(a, tg->view.kind, i, name);
        rc = add_view(t, d, ino, path, tg, name, S_IFREG, MEMBER_VIEWS + rtm_view_index(a, v));
    }
    return rc;
}

struct member_listing {
    struct rtm_tree *t;
    const struct tree_target *tg;
    const char *path;
    struct rtm_dirlist *d;
};

/* Whether folder name of the folder being listed has anything to show. */
static int shows_something(struct member_listing *m, const char *name)
{
    char dir[PATH_MAX];
    return rtm_path_join(dir, PATH_MAX, m->tg->rest, name) == 0 &&
           tree_archive_below(m->t, m->tg, dir, NULL) > 0;
}

static int add_member(void *arg, const char *name, size_t len, long entry)
{
    struct member_listing *m = arg;
    char n[NAME_MAX + 1];
    if (len > NAME_MAX)
        return 0;                       /* no lookup could reach it */
    memcpy(n, name, len);
    n[len] = 0;
    if (m->tg->kind == TK_PBO && (strcmp(n, RTM_PBO_INFO_NAME) == 0 ||
                                  (strcmp(n, RTM_TREE_ERROR_NAME) == 0 &&
                                   rtmc_pbo(m->tg->table)->ncut)))
        return 0;                       /* the name is the archive's own file */
    mode_t type = entry < 0 || tree_is_rtm_name(n, len) ? S_IFDIR
                  : m->t->cfg.show_other                ? S_IFREG
                                                        : 0;
    if (entry < 0 && !shows_something(m, n))
        type = 0;
    char shown[NAME_MAX + 1];
    if (type == S_IFREG) {
        tree_config_entry_name(m->t, m->tg, entry, n, shown);
        memcpy(n, shown, sizeof n);
    }
    struct tree_head hi;
    tree_head_info(m->tg->src, &m->tg->st, entry, &hi);
    return type ? dl_add(m->t, m->d, m->path, n, type, &m->tg->id,
                         entry >= 0 && type == S_IFDIR ? &hi : NULL) : 0;
}

/* An archive's folder (or a folder in it): error.txt when it is broken,
 * else pbo.txt (at the top) and the entries. */
static int list_archive(struct rtm_tree *t, const struct tree_target *tg, const char *path,
                        struct rtm_dirlist *d)
{
    const struct pbo *p = rtmc_pbo(tg->table);
    if (!p)
        return dl_add(t, d, path, RTM_TREE_ERROR_NAME, S_IFREG, &tg->id, NULL);
    int rc = tg->kind == TK_PBO ? dl_add(t, d, path, RTM_PBO_INFO_NAME, S_IFREG, &tg->id, NULL) : 0;
    if (!rc && tg->kind == TK_PBO && p->ncut)
        rc = dl_add(t, d, path, RTM_TREE_ERROR_NAME, S_IFREG, &tg->id, NULL);
    struct member_listing m = { t, tg, path, d };
    if (!rc)
        rc = pbo_list(p, tg->rest, add_member, &m);
    return rc == -1 ? -ENOENT : rc;
}

/* The root's missing.txt (tree_missing.c), last, unless SOURCE showed
 * an entry of that name. */
static int list_missing(struct rtm_tree *t, const struct tree_target *root,
                        struct rtm_dirlist *d)
{
    if (!tree_missing_at_root(root))
        return 0;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->e[i].name, RTM_TREE_MISSING_NAME) == 0)
            return 0;
    return dl_add(t, d, "", RTM_TREE_MISSING_NAME, S_IFREG, &RTM_FILEID_NONE, NULL);
}

static int build_listing(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d)
{
    char path[PATH_MAX];
    struct tree_target tg;
    int rc = tree_resolve_ino(t, ino, path, &tg);
    if (rc)
        return rc;                      /* tg holds nothing to put back */
    if (tg.kind != TK_DIR && tg.kind != TK_ANIM && tg.kind != TK_FRAMES &&
        tg.kind != TK_PBO && tg.kind != TK_PDIR && tg.kind != TK_GONE)
        rc = -ENOTDIR;
    if (!rc && tg.kind == TK_ANIM)
        rc = tree_load_anim(t, &tg);
    if (!rc && tg.kind == TK_PBO && !tg.table)
        rc = tree_resolve_archive(t, &tg, "");
    if (!rc)
        rc = dl_put(t, d, ".", S_IFDIR, RTM_INO_ROOT);
    if (!rc)
        rc = dl_put(t, d, "..", S_IFDIR, RTM_INO_ROOT);
    if (!rc && tg.kind == TK_GONE)
        rc = dl_add(t, d, path, RTM_TREE_ERROR_NAME, S_IFREG, &tg.id, NULL);
    else if (!rc && tg.kind == TK_DIR)
        rc = t->game ? tree_gamepaths_list(t, path, d) : list_source_dir(t, path, d);
    else if (!rc && (tg.kind == TK_PBO || tg.kind == TK_PDIR))
        rc = list_archive(t, &tg, path, d);
    else if (!rc)
        rc = list_anim(t, ino, &tg, path, d);
    if (!rc && ino == RTM_INO_ROOT)
        rc = list_missing(t, &tg, d);
    tree_target_done(t, &tg);
    return rc;
}

void rtm_tree_listing_put(struct rtm_tree *t, struct rtm_dirlist *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&t->llock);
    int last = --d->refs == 0;
    pthread_mutex_unlock(&t->llock);
    if (last) {
        dl_free(t, d);
        tree_account(t);
    }
}

void tree_listing_ref(struct rtm_tree *t, struct rtm_dirlist *d)
{
    pthread_mutex_lock(&t->llock);
    d->refs++;
    pthread_mutex_unlock(&t->llock);
}

/* The kept listing of ino (a reference for the caller), or NULL. */
static struct rtm_dirlist *listing_find(struct rtm_tree *t, uint64_t ino)
{
    struct rtm_dirlist *d = NULL;
    pthread_mutex_lock(&t->llock);
    for (size_t i = 0; i < NLISTINGS; i++)
        if (t->listing[i].d && t->listing[i].ino == ino) {
            d = t->listing[i].d;
            d->refs++;
        }
    pthread_mutex_unlock(&t->llock);
    return d;
}

/* Keeps d (which holds one reference for the caller) as ino's listing. */
static void listing_keep(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d)
{
    size_t slot = NLISTINGS;
    pthread_mutex_lock(&t->llock);
    for (size_t i = 0; i < NLISTINGS; i++)
        if (t->listing[i].d && t->listing[i].ino == ino)
            slot = i;
    if (slot == NLISTINGS)
        slot = t->lnext++ % NLISTINGS;
    struct rtm_dirlist *old = t->listing[slot].d;
    t->listing[slot].ino = ino;
    t->listing[slot].d = d;
    d->refs++;
    pthread_mutex_unlock(&t->llock);
    rtm_tree_listing_put(t, old);
}

int rtm_tree_listing(struct rtm_tree *t, uint64_t ino, off_t off, struct rtm_dirlist **out)
{
    struct rtm_dirlist *d = off > 0 ? listing_find(t, ino) : NULL;
    *out = NULL;
    if (d) {
        *out = d;
        return 0;
    }
    if (!(d = calloc(1, sizeof *d)))
        return -ENOMEM;
    d->refs = 1;
    int rc = build_listing(t, ino, d);
    if (rc) {
        rtm_tree_listing_put(t, d);
        return rc;
    }
    listing_keep(t, ino, d);
    tree_account(t);
    if (d->unsure && t->cfg.stale)      /* after this reply: no listing of a failed read sticks */
        t->cfg.stale(t->cfg.stale_ctx, ino, 1);
    if (!(ino & RTM_INO_FAMILY))
        tree_ahead_listed(t, ino, d);
    else if (!rtm_ino_member(ino))
        tree_ahead_at(t, ino);
    *out = d;
    return 0;
}

int tree_list_add(struct rtm_tree *t, struct rtm_dirlist *d, const char *dir, const char *name,
                  mode_t type, const struct rtm_fileid *id, const struct tree_head *head)
{
    return dl_add(t, d, dir, name, type, id, head);
}
