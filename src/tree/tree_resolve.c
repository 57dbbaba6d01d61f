/* tree_resolve.c - the resolver: a mount path, or an inode number, -> the
 * target it shows (tree_int.h's struct tree_target: the source file or
 * archive entry, its version, the kind and the view).  Tier 3 of the tree.
 *
 * The one place a path is resolved.  It classifies the source path
 * (tree_classify.c) and dispatches to the leaves, which each return a
 * verdict and never resolve again: an animation's folder (tree_family.c),
 * an archive (tree_archive.c), a config shown under another name
 * (tree_config.c), the root's missing.txt (tree_missing.c), and under -o
 * gamepaths the game's tree, which only translates a game path into a
 * path of SOURCE's own tree (tree_gamepaths.c). */
#include "tree_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "views.h"

/* ---- SOURCE's own tree ---- */

/* Finds the animation or archive among the leading components of path. */
static int resolve_prefix(struct rtm_tree *t, const char *path, struct tree_target *tg)
{
    for (const char *p = path, *slash; (slash = strchr(p, '/')); p = slash + 1) {
        size_t len = (size_t)(slash - p);
        if (!tree_is_anim_name(p, len) && !tree_is_pbo_name(p, len))
            continue;
        size_t n = (size_t)(slash - path);
        memcpy(tg->src, path, n);
        tg->src[n] = 0;
        int k = tree_classify_target(t, tg);
        if (k == RTM_SRC_ANIM) {
            tg->rest = path + n + 1;
            return tree_resolve_inner(t, tg);
        }
        if (k == RTM_SRC_PBO)
            return tree_resolve_archive(t, tg, path + n + 1);
        if (k == RTM_SRC_DIR)
            continue;
        return -ENOENT;
    }
    return -ENOENT;
}

/* A whole source path: what it is, unless it is a config shown under
 * another name (then nothing is there), or it is missing and is the name
 * a config shows as (then it is that config: tree_config.c). */
static int resolve_whole(struct rtm_tree *t, const char *path, struct tree_target *tg)
{
    strcpy(tg->src, path);              /* its length was checked */
    int k = tree_classify_target(t, tg);
    if (k == RTM_SRC_CONFIG && !tree_config_shown_as(t, path, path))
        return -ENOENT;
    if (k != -ENOENT)
        return k < 0 ? k : 0;
    if (tree_config_alias(t, path, tg->src))
        return -ENOENT;
    k = tree_classify_target(t, tg);
    if (k >= 0 && (k != RTM_SRC_CONFIG || !tree_config_shown_as(t, tg->src, path)))
        return -ENOENT;
    return k < 0 ? k : 0;
}

/* SOURCE is one file: path is inside its folder.  While the file is gone
 * (or is no longer a file), the root holds only error.txt saying so. */
static int resolve_in_file(struct rtm_tree *t, const char *path, struct tree_target *tg)
{
    strcpy(tg->src, t->file);           /* its length was checked in rtm_tree_new */
    int k = tree_classify_target(t, tg);
    if (k == RTM_SRC_ANIM) {
        tg->rest = path;
        return *path ? tree_resolve_inner(t, tg) : 0;
    }
    if (k == RTM_SRC_PBO)
        return tree_resolve_archive(t, tg, path);
    tg->gone = k < 0 ? -k : EISDIR;
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

static void target_init(struct tree_target *tg, const struct rtm_fileid *id)
{
    memset(tg, 0, sizeof *tg);
    tg->level = RTMC_SHAPE;
    tg->entry = -1;
    tg->rest = "";
    tg->pinned = !rtm_fileid_none(id);
    tg->id = *id;
}

/* Resolves a path of SOURCE's own tree; id is the version the kernel's
 * inode names (RTM_FILEID_NONE: whatever is current). */
static int resolve_source(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                          struct tree_target *tg)
{
    target_init(tg, id);
    if (strlen(path) >= sizeof tg->src)
        return -ENAMETOOLONG;
    if (tree_is_hidden(t, path))
        return -ENOENT;
    int rc;
    if (t->file) {
        rc = resolve_in_file(t, path, tg);
    } else {
        rc = resolve_whole(t, path, tg);
        if (rc == -ENOTDIR || rc == -ENOENT)
            rc = resolve_prefix(t, path, tg);
    }
    rc = tree_missing_resolve(t, path, tg, rc);
    if (rc)
        tree_target_done(t, tg);        /* an archive's table may be held */
    return rc;
}

int tree_resolve_source(struct rtm_tree *t, const char *path, struct tree_target *tg)
{
    return resolve_source(t, path, &RTM_FILEID_NONE, tg);
}

/* ---- the game's tree (-o gamepaths) ---- */

/* A folder the game's tree makes up, or its conflicts.txt (a file): of
 * SOURCE's root. */
static int made_up(struct rtm_tree *t, enum tree_kind kind, mode_t type, struct tree_target *tg)
{
    if (fstat(t->cfg.srcfd, &tg->st))
        return -errno;
    tg->kind = kind;
    if (type == S_IFREG)
        tg->st.st_mode = S_IFREG | (tg->st.st_mode & 0444);
    return 0;
}

/* A game path: a folder made up, conflicts.txt, the root's missing.txt
 * (unless a source shows a file of that name there), or what SOURCE's own
 * tree shows at the source's path of it. */
static int resolve_game(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                        struct tree_target *tg)
{
    char normal[PATH_MAX];
    target_init(tg, &RTM_FILEID_NONE);
    if (strcmp(path, RTM_TREE_CONFLICTS_NAME) == 0)
        return made_up(t, TK_CONFLICTS, S_IFREG, tg);
    int rc = tree_gamepaths_translate(t, path, normal);
    if (rc < 0)                         /* the root's missing.txt, as listed */
        return tree_missing_resolve(t, path, tg, rc);
    if (rc == 1)
        return made_up(t, TK_DIR, S_IFDIR, tg);
    return resolve_source(t, normal, id, tg);
}

int tree_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                 struct tree_target *tg)
{
    return t->game ? resolve_game(t, path, id, tg) : resolve_source(t, path, id, tg);
}

/* ---- inode numbers ---- */

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
    rc = tree_kind_is_head(tg->kind) ? tree_resolve_member(t, tg, k) : -ESTALE;
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
    if (k == MEMBER_CLIPS)
        return rtm_path_join(path, PATH_MAX, path, RTM_TREE_CLIPS_NAME);
    if (tree_member_folder(k, &kind))
        return -ENOTDIR;
    return rtm_path_join(path, PATH_MAX, path, rtm_view_folder_name(kind));
}
