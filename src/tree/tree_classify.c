/* tree_classify.c - what a source entry is (rtm_tree_classify), the kind
 * a source path shows as (tree_classify_target), and which kinds carry a
 * version: the one place below the kind table (tree_kinds.c) that knows
 * kinds apart.  Tier 3 of the tree (tree_int.h). */
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

/* Whether rel is the hidden path or below it: never stat it, as that would
 * ask this very mount (and, single-threaded, wait for itself). */
int tree_is_hidden(const struct rtm_tree *t, const char *rel)
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
    int named = tree_is_anim_name(base, len) || tree_is_pbo_name(base, len);
    *id = RTM_FILEID_NONE;
    if (tree_is_hidden(t, rel))
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
    if (!tree_is_anim_name(base, len))
        return RTM_SRC_PBO;
    int rc = tree_modelcfg_salt(t, dfd, name, rel, (uint64_t)st->st_dev, &id->salt);
    return rc ? rc : RTM_SRC_ANIM;
}

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
    else if (tree_kind_versioned(tg->kind))
        rtm_fileid_to_stat(&tg->id, &tg->st);
    return k;
}

/* ---- what kinds are: the traits the lower tiers ask of a kind (the
 * kind table of tree_kinds.c, above them, has the rest) ---- */

enum {
    VERSIONED = 1,              /* of one version of its source file, which numbers it
                                   (inodes.h), rather than of its path alone */
    BY_PATH = 2,                /* or of its path alone (every kind is one or the other) */
    HEAD = 4,                   /* an animation's folder: the head of a family */
};

static const unsigned char traits[] = {
    [TK_DIR] = BY_PATH,         [TK_OTHER] = BY_PATH,
    [TK_ANIM] = VERSIONED | HEAD, [TK_VIEW_FOLDER] = VERSIONED, [TK_VIEW] = VERSIONED,
    [TK_ERROR] = VERSIONED,     [TK_GONE] = VERSIONED,
    [TK_PBO] = VERSIONED,       [TK_PDIR] = VERSIONED, [TK_PINFO] = VERSIONED,
    [TK_PFILE] = VERSIONED,     [TK_CONFIG] = BY_PATH, [TK_PCONFIG] = VERSIONED,
    [TK_STATES] = VERSIONED,    [TK_MISSING] = BY_PATH, [TK_ROOTCHECK] = BY_PATH,
    [TK_CONFLICTS] = VERSIONED, [TK_CLIPS] = VERSIONED,
};
_Static_assert(sizeof traits == TK_COUNT, "traits for every kind");

int tree_kind_versioned(enum tree_kind k)
{
    return (traits[k] & VERSIONED) != 0;
}

int tree_kind_is_head(enum tree_kind k)
{
    return (traits[k] & HEAD) != 0;
}

int tree_kind_traits_known(enum tree_kind k)
{
    return (traits[k] & (VERSIONED | BY_PATH)) != 0;
}

