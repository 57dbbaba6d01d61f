/* tree_list.c - what each kind of folder lists (tier 4 of the tree,
 * tree_int.h): a source folder, a folder of the game's tree, an archive and
 * the folders in it, an animation's folder and its folders of views, and
 * the folder of a SOURCE file gone.  The kind table (tree_kinds.c) says
 * which lister a folder's kind has; the listing itself is tree_dirlist.c's.
 * Each lister appends to d, and returns 0 or a negative errno. */
#include "tree_int.h"
#include "names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        if (k == -ENOMEM)
            rc = k;                         /* never a listing short of an entry */
        else if (k < 0 && k != -ENOENT)
            tree_listing_set_unsure(d);     /* not gone, only unread: ask again */
        if (k > RTM_SRC_HIDDEN)
            rc = tree_list_add(t, d, rel, name, k == RTM_SRC_OTHER || k == RTM_SRC_CONFIG ? S_IFREG
                                                                                 : S_IFDIR,
                        &id, k == RTM_SRC_ANIM ? &hi : NULL);
    }
    closedir(dir);
    if (rc == 0)
        qsort(d->e + first, d->n - first, sizeof *d->e, by_name);
    return rc;
}

struct member_listing {
    struct rtm_tree *t;
    const struct tree_target *tg;
    const char *path;
    struct rtm_dirlist *d;
    int top;                            /* the archive's own folder */
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
    if (m->top && (strcmp(n, RTM_PBO_INFO_NAME) == 0 ||
                                  (strcmp(n, RTM_TREE_ERROR_NAME) == 0 &&
                                   rtmc_pbo(m->tg->table)->ncut)))
        return 0;                       /* the name is the archive's own file */
    mode_t type = entry < 0 || tree_is_anim_name(n, len) ? S_IFDIR
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
    return type ? tree_list_add(m->t, m->d, m->path, n, type, &m->tg->id,
                         entry >= 0 && type == S_IFDIR ? &hi : NULL) : 0;
}

/* The entries of folder tg->rest of an archive: error.txt when it is
 * broken, else (at the top) pbo.txt and the error.txt of a cut, then the
 * entries. */
static int list_archive(struct rtm_tree *t, const struct tree_target *tg, const char *path,
                        struct rtm_dirlist *d, int top)
{
    const struct pbo *p = rtmc_pbo(tg->table);
    if (!p)
        return tree_list_add(t, d, path, RTM_TREE_ERROR_NAME, S_IFREG, &tg->id, NULL);
    int rc = top ? tree_list_add(t, d, path, RTM_PBO_INFO_NAME, S_IFREG, &tg->id, NULL) : 0;
    if (!rc && top && p->ncut)
        rc = tree_list_add(t, d, path, RTM_TREE_ERROR_NAME, S_IFREG, &tg->id, NULL);
    struct member_listing m = { t, tg, path, d, top };
    if (!rc)
        rc = pbo_list(p, tg->rest, add_member, &m);
    return rc == -1 ? -ENOENT : rc;
}

int tree_list_archive(struct rtm_tree *t, uint64_t ino, struct tree_target *tg,
                      const char *path, struct rtm_dirlist *d)
{
    (void)ino;
    return list_archive(t, tg, path, d, 1);     /* its table loaded (tree_kinds.c) */
}

int tree_list_archive_dir(struct rtm_tree *t, uint64_t ino, struct tree_target *tg,
                          const char *path, struct rtm_dirlist *d)
{
    (void)ino;
    return list_archive(t, tg, path, d, 0);
}

/* Appends an entry of folder ino (at path) of an animation: in a family
 * (inodes.h), its member number k; else (the root of a mount of one .rtm
 * file) a held node. */
static int add_view(struct rtm_tree *t, struct rtm_dirlist *d, uint64_t ino, const char *path,
                    const struct tree_target *tg, const char *name, mode_t type, uint64_t k)
{
    if (ino & RTM_INO_FAMILY)
        return tree_list_put(t, d, name, type, rtm_ino_in_family(rtm_ino_head(ino), k));
    return tree_list_add(t, d, path, name, type, &tg->id, NULL);
}

/* An animation's folder: error.txt alone when it is broken, else its
 * fixed views, states.txt and its folders of views. */
int tree_list_anim(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                   struct rtm_dirlist *d)
{
    int rc = tg->h ? 0 : tree_load_anim(t, tg);
    if (rc)
        return rc;
    const struct rtm_anim *a = rtmc_anim(tg->h);
    if (!a)
        return add_view(t, d, ino, path, tg, RTM_TREE_ERROR_NAME, S_IFREG, MEMBER_ERROR);
    enum rtm_view_kind kind;
    const char *folder;
    size_t nfixed = rtm_view_nfixed(a);
    for (size_t k = 0; !rc && k < nfixed; k++)
        rc = add_view(t, d, ino, path, tg, rtm_view_fixed_name((enum rtm_view_kind)k),
                      S_IFREG, MEMBER_VIEWS + k);     /* the fixed views come first */
    if (!rc)
        rc = add_view(t, d, ino, path, tg, RTM_TREE_STATES_NAME, S_IFREG, MEMBER_STATES);
    for (size_t i = 0; !rc && (folder = rtm_view_folder(a, i, &kind)); i++)
        rc = add_view(t, d, ino, path, tg, folder, S_IFDIR, tree_folder_member(kind));
    if (!rc && tree_shows_clips(tg, a))
        rc = add_view(t, d, ino, path, tg, RTM_TREE_CLIPS_NAME, S_IFDIR, MEMBER_CLIPS);
    return rc;
}

/* clips/ of a source of several clips: a folder a clip but the first
 * (which is the source's own folder), each the head of a family. */
int tree_list_clips(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                    struct rtm_dirlist *d)
{
    (void)ino;
    const struct rtm_anim *a = rtmc_anim(tg->h);
    struct tree_head hi;
    tree_head_info(tg->src, &tg->st, tg->entry, &hi);
    int rc = 0;
    for (uint32_t i = 1; !rc && i < a->nclips; i++) {
        hi.clip = i;
        rc = tree_list_add(t, d, path, a->clips->form[i], S_IFDIR, &tg->id, &hi);
    }
    return rc;
}

/* frames/, joints/ or tracks/ of an animation (tg->view.kind). */
int tree_list_views(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                    struct rtm_dirlist *d)
{
    const struct rtm_anim *a = rtmc_anim(tg->h);
    char name[RTM_VIEW_NAME_MAX];
    uint32_t n = rtm_view_folder_size(a, tg->view.kind);
    /* the folder's files are numbered in a run: frame (or bone) i's view
     * is the first one's number plus i */
    uint64_t first = MEMBER_VIEWS + rtm_view_index(a, (struct rtm_view){ .kind = tg->view.kind });
    int rc = 0;
    for (uint32_t i = 0; !rc && i < n; i++) {
        rtm_view_entry_name(a, tg->view.kind, i, name);
        rc = add_view(t, d, ino, path, tg, name, S_IFREG, first + i);
    }
    return rc;
}

/* The root while the SOURCE file is gone: error.txt says so. */
int tree_list_gone(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                   struct rtm_dirlist *d)
{
    (void)ino;
    return tree_list_add(t, d, path, RTM_TREE_ERROR_NAME, S_IFREG, &tg->id, NULL);
}

/* A file of the game's tree as the listing shows it: resolved as lookup
 * resolves it, so that the two give it one number. */
static int list_game_file(struct rtm_tree *t, struct rtm_dirlist *d, const char *dir,
                          const char *name)
{
    char path[PATH_MAX];
    struct tree_target tg;
    struct tree_head hi;
    if (rtm_path_join(path, PATH_MAX, dir, name) ||
        tree_resolve(t, path, &RTM_FILEID_NONE, &tg))
        return 0;                       /* gone meanwhile, or unreadable: not shown */
    struct rtm_fileid id = tree_kind_versioned(tg.kind) ? tg.id : RTM_FILEID_NONE;
    int head = tree_kind_is_head(tg.kind);
    if (head)
        tree_head_info(tg.src, &tg.st, tg.entry, &hi);
    int rc = tree_list_add(t, d, dir, name, head ? S_IFDIR : S_IFREG, &id, head ? &hi : NULL);
    tree_target_done(t, &tg);
    return rc;
}

/* A folder of the game's tree: made up (tree_gamepaths.c), its files
 * those of the sources; the root also holds conflicts.txt. */
static int list_game_dir(struct rtm_tree *t, const char *path, struct rtm_dirlist *d)
{
    struct tree_game_child *c;
    size_t n;
    int rc = tree_gamepaths_children(t, path, &c, &n);
    if (!rc && !*path)
        rc = tree_list_add(t, d, "", RTM_TREE_CONFLICTS_NAME, S_IFREG, &RTM_FILEID_NONE, NULL);
    for (size_t i = 0; !rc && i < n; i++)
        rc = c[i].dir ? tree_list_add(t, d, path, c[i].name, S_IFDIR, &RTM_FILEID_NONE, NULL)
                      : list_game_file(t, d, path, c[i].name);
    free(c);
    return rc;
}

int tree_list_dir(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                  struct rtm_dirlist *d)
{
    (void)ino;
    (void)tg;
    return t->game ? list_game_dir(t, path, d) : list_source_dir(t, path, d);
}

/* Adds the root file name, unless SOURCE showed an entry of that name. */
static int list_root_file(struct rtm_tree *t, struct rtm_dirlist *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->e[i].name, name) == 0)
            return 0;
    return tree_list_add(t, d, "", name, S_IFREG, &RTM_FILEID_NONE, NULL);
}

/* The root's missing.txt and check.txt (tree_missing.c), last, unless
 * SOURCE showed an entry of that name. */
int tree_list_missing(struct rtm_tree *t, struct rtm_dirlist *d)
{
    if (!tree_missing_shown(t))
        return 0;
    int rc = list_root_file(t, d, RTM_TREE_MISSING_NAME);
    return rc ? rc : list_root_file(t, d, RTM_TREE_CHECK_NAME);
}
