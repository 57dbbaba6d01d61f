/* tree_modelcfg.c - the files beside an animation that its views depend
 * on: the model.cfg, whose classes give its skeleton unless -o skeleton=
 * was given (rtmfs-views(7), the skeleton rule; the loader reads it:
 * modelcfg.h), and a BVH's bvh.map (bvhmap.h).  A loose file's version
 * carries theirs in its salt (fileid.h, rtm_loader_salt), so one written,
 * added or removed makes a new version of every animation beside it; an
 * archive's entry is of the archive's version, which already changes with
 * any entry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "skeleton_cfg.h"
#include "tree_target.h"

/* The version of the model.cfg beside name (relative to dfd): NONE when
 * there is none (or it is no regular file). */
static struct rtm_fileid model_cfg_id(int dfd, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    if (rtm_model_cfg_beside(name, strlen(name), p, sizeof p) || fstatat(dfd, p, &st, 0) ||
        !S_ISREG(st.st_mode))
        return RTM_FILEID_NONE;
    return rtm_fileid_of(&st);
}

/* The version of a BVH's map beside name (relative to dfd): NONE when
 * name is no BVH or there is none. */
static struct rtm_fileid map_id(int dfd, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    size_t len = strlen(name);
    if (!rtm_is_bvh_name(name, len) || rtm_bvh_map_beside(name, len, p, sizeof p) ||
        fstatat(dfd, p, &st, 0) || !S_ISREG(st.st_mode))
        return RTM_FILEID_NONE;
    return rtm_fileid_of(&st);
}

uint64_t tree_modelcfg_salt(struct rtm_tree *t, int dfd, const char *name)
{
    struct rtm_fileid model = t->cfg.skeleton_explicit ? RTM_FILEID_NONE : model_cfg_id(dfd, name);
    struct rtm_fileid map = map_id(dfd, name);
    return rtm_loader_salt(&model, &map);
}

/* Whether path is an animation's directly in dir. */
static int anim_in(const char *path, const char *dir)
{
    size_t dl = strlen(dir);
    const char *rest = dl ? path + dl + 1 : path;
    if (dl && (strncmp(path, dir, dl) || path[dl] != '/'))
        return 0;
    return !strchr(rest, '/') && tree_is_anim_name(rest, strlen(rest));
}

struct beside_ctx {
    struct rtm_tree *t;
    const char *dir;
    uint64_t parent;
    const struct rtm_tree_notify *n;
};

static void forget_beside(void *arg, uint64_t ino, const char *path,
                          const struct rtm_fileid *id)
{
    struct beside_ctx *b = arg;
    (void)id;
    if (!anim_in(path, b->dir))
        return;
    rtmc_invalidate(b->t->cfg.cache, path);
    if (b->parent)
        b->n->entry(b->n->ctx, b->parent, path + (*b->dir ? strlen(b->dir) + 1 : 0));
    b->n->inode(b->n->ctx, ino);
}

void tree_modelcfg_changed(struct rtm_tree *t, const char *dir, const char *name,
                           uint64_t parent, const struct rtm_tree_notify *n)
{
    if (t->cfg.skeleton_explicit && strcmp(name, RTM_BVH_MAP) != 0)
        return;
    struct beside_ctx b = { t, dir, parent, n };
    rtm_inodes_each(t->nodes, forget_beside, &b);
}

int tree_is_model_cfg(const char *name)
{
    return name && (strcmp(name, RTM_MODEL_CFG) == 0 || strcmp(name, RTM_BVH_MAP) == 0);
}
