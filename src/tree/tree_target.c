/* tree_target.c - the bottom tier of the tree (tree_int.h): a target's
 * cache entries and keys, an archive's entries below a folder, and the
 * inode table's share of the cache's budget.  Nothing here resolves a
 * path or knows what a kind shows. */
#include "tree_target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "pbo.h"
#include "store.h"

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
        if (kind == RTMC_ANIM) {
            s.id.skel = tg->skel;
            s.id.clip = tg->clip;
        }
        int rc = rtmc_get(t->cfg.cache, &s, h);
        if (rc != -ESTALE || tg->pinned)
            return rc;
        if (fstatat(t->cfg.srcfd, tg->src, &tg->st, 0))
            return -errno;
        if (!S_ISREG(tg->st.st_mode))
            return -ENOENT;
        tg->id = rtm_fileid_of(&tg->st);
        if (kind == RTMC_ANIM && key == tg->src) { /* its model.cfg may be what changed */
            tree_sides_stale(t, tg->src);
            rc = tree_modelcfg_salt(t, t->cfg.srcfd, tg->src, tg->src,
                                    (uint64_t)tg->st.st_dev, &tg->id.salt);
            if (rc)
                return rc;
        }
    }
    return -EIO;
}

void tree_watch(struct rtm_tree *t, const char *dir)
{
    if (t->cfg.watch && t->cfg.watch(t->cfg.watch_ctx, dir) != 0)
        atomic_store(&t->unwatched, 1);
    else if (t->cfg.watch)
        tree_sides_watched(t, dir);
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

void tree_target_done(struct rtm_tree *t, struct tree_target *tg)
{
    rtmc_put(t->cfg.cache, tg->h);
    rtmc_put(t->cfg.cache, tg->table);
    tg->h = tg->table = NULL;
}

struct timespec tree_entry_time(const struct tree_target *tg, long entry)
{
    uint32_t stamp = rtmc_pbo(tg->table)->entries[entry].timestamp;
    return stamp ? (struct timespec){ .tv_sec = (time_t)stamp } : tg->st.st_mtim;
}

/* The entries an archive's folder shows: animations, or every entry with
 * show_other.  Counts them below dir and keeps their newest time. */
struct below {
    const struct tree_target *tg;
    int all;
    size_t shown;
    struct timespec newest;
};

static int count_below(void *arg, long entry)
{
    struct below *b = arg;
    const char *path = rtmc_pbo(b->tg->table)->entries[entry].path;
    if (b->all || tree_is_anim_name(path, strlen(path))) {
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

/* The inode table counts against the cache's budget. */
void tree_account(struct rtm_tree *t)
{
    rtmc_set_outside(t->cfg.cache, rtm_inodes_bytes(t->nodes));
}

const struct rtm_store *tree_store(const struct rtm_tree *t)
{
    return t->cfg.store ? *t->cfg.store : NULL;
}

int tree_archive_key(const struct rtm_tree *t, const struct rtm_fileid *id, uint32_t kind,
                     struct rtm_store_key *k)
{
    *k = (struct rtm_store_key){ .dev = id->dev, .ino = id->ino, .size = id->size,
                                 .mtime_ns = id->mtime_ns, .ctime_ns = id->ctime_ns,
                                 .kind = kind, .render = "" };
    return tree_store(t) && id->mtime_ns && id->ctime_ns ? 0 : -1;
}
