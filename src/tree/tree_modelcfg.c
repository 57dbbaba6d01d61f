/* tree_modelcfg.c - the model.cfg beside an animation, whose classes give
 * its skeleton unless -o skeleton= was given (rtmfs-views(7), the
 * skeleton rule; tree.h).  A loose file's version carries the model.cfg's
 * in its salt (fileid.h), so a model.cfg written, added or removed makes a
 * new version of every animation beside it; an archive's entry is of the
 * archive's version, which already changes with any entry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tree_int.h"

#define MODEL_CFG "model.cfg"

/* "DIR/model.cfg" for the file at path (DIR/NAME, or NAME: "model.cfg")
 * into out; -1 when too long. */
static int beside(const char *path, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    return snprintf(out, n, "%.*s" MODEL_CFG, dl, path) >= (int)n ? -1 : 0;
}

/* The version of the model.cfg beside name (relative to dfd): NONE when
 * there is none (or it is no regular file). */
static struct rtm_fileid model_cfg_id(int dfd, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    if (beside(name, p, sizeof p) || fstatat(dfd, p, &st, 0) || !S_ISREG(st.st_mode))
        return RTM_FILEID_NONE;
    return rtm_fileid_of(&st);
}

uint64_t tree_modelcfg_salt(struct rtm_tree *t, int dfd, const char *name)
{
    if (t->cfg.skeleton_explicit)
        return 0;
    struct rtm_fileid id = model_cfg_id(dfd, name);
    return rtm_fileid_hash(&id);
}

/* The archive entry tg's model.cfg: its cache key and where into key and
 * where; -1 when the archive has none beside it. */
static int entry_model_cfg(const struct tree_target *tg, char key[RTM_KEY_MAX],
                           char where[RTM_KEY_MAX])
{
    const struct pbo *p = rtmc_pbo(tg->table);
    char entry[PBO_NAME_MAX + sizeof MODEL_CFG];
    if (!p || beside(p->entries[tg->entry].path, entry, sizeof entry))
        return -1;
    long i = pbo_find(p, entry);
    if (i < 0)
        return -1;
    rtm_loader_entry_key(key, tg->src, strlen(tg->src), p->entries[i].path);
    snprintf(where, RTM_KEY_MAX, "%s", key);
    return 0;
}

int tree_modelcfg_get(struct rtm_tree *t, struct tree_target *tg, struct rtmc_entry **h,
                      char where[RTM_KEY_MAX])
{
    *h = NULL;
    where[0] = 0;
    if (t->cfg.skeleton_explicit)
        return 0;
    char key[RTM_KEY_MAX];
    struct rtmc_src s = { .path = key, .id = tg->id, .kind = RTMC_SKELETONS, .level = RTMC_FULL };
    if (tg->entry >= 0) {
        if (entry_model_cfg(tg, key, where))
            return 0;
        s.archive_len = strlen(tg->src);
        s.id.salt = 0;
    } else {
        if (beside(tg->src, key, sizeof key))
            return 0;
        s.id = model_cfg_id(t->cfg.srcfd, tg->src);
        uint64_t salt = rtm_fileid_hash(&s.id);
        if (salt != tg->id.salt && !tg->pinned)
            tg->id.salt = salt;         /* it changed since: follow it */
        if (!salt || salt != tg->id.salt)
            return 0;                   /* none, or not the pinned version's */
        snprintf(where, RTM_KEY_MAX, "%s", key);
    }
    int rc = rtmc_get(t->cfg.cache, &s, h);
    if (rc == -ESTALE || rc == -ENOENT)
        return 0;                       /* gone meanwhile: the watcher will say */
    size_t len;
    if (rc == 0 && !rtmc_data(*h, &len)) {
        /* a model.cfg that does not read: the mount's skeleton, with why
         * (the loader adds it to the skeleton's name) */
        snprintf(where, RTM_KEY_MAX, "%.2048s not used: %.1024s", key, rtmc_error(*h));
        rtmc_put(t->cfg.cache, *h);
        *h = NULL;
    }
    return rc;
}

/* Whether path is an animation's directly in dir. */
static int anim_in(const char *path, const char *dir)
{
    size_t dl = strlen(dir);
    const char *rest = dl ? path + dl + 1 : path;
    if (dl && (strncmp(path, dir, dl) || path[dl] != '/'))
        return 0;
    return !strchr(rest, '/') && tree_is_rtm_name(rest, strlen(rest));
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

void tree_modelcfg_changed(struct rtm_tree *t, const char *dir, uint64_t parent,
                           const struct rtm_tree_notify *n)
{
    if (t->cfg.skeleton_explicit)
        return;
    struct beside_ctx b = { t, dir, parent, n };
    rtm_inodes_each(t->nodes, forget_beside, &b);
}

int tree_is_model_cfg(const char *name)
{
    return name && strcmp(name, MODEL_CFG) == 0;
}
