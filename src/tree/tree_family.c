/* tree_family.c - an animation's folder as a family of inode numbers
 * (inodes.h): what its head keeps, and resolving the head, its members by
 * number, and names inside it, without looking at SOURCE (the version is
 * pinned).  Part of the tree layer (tree.h, tree_int.h). */
#include "tree_int.h"

#include <errno.h>
#include <string.h>

void tree_head_info(const char *src, const struct stat *st, long entry, struct tree_head *hi)
{
    *hi = (struct tree_head){ .srclen = (uint32_t)strlen(src), .entry = (int32_t)entry,
                              .mode = st->st_mode,
                              .uid = st->st_uid, .gid = st->st_gid,
                              .atime_sec = st->st_atim.tv_sec, .atime_nsec = st->st_atim.tv_nsec };
}

int tree_resolve_head(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX],
                      struct tree_target *tg)
{
    struct rtm_fileid id;
    struct tree_head hi;
    int rc = rtm_inodes_path(t->nodes, ino, path, PATH_MAX, &id);
    if (rc || (rc = rtm_inodes_aux(t->nodes, ino, &hi)))
        return rc;
    size_t n = strlen(path);
    if (hi.srclen > n || hi.srclen >= sizeof tg->src)
        return -ESTALE;
    *tg = (struct tree_target){ .kind = TK_ANIM, .rest = "", .entry = -1, .id = id,
                                .pinned = 1, .level = RTMC_SHAPE, .head = ino };
    memcpy(tg->src, path, hi.srclen);
    tg->src[hi.srclen] = 0;
    tg->st.st_mode = hi.mode;
    tg->st.st_uid = hi.uid;
    tg->st.st_gid = hi.gid;
    tg->st.st_atim = (struct timespec){ .tv_sec = hi.atime_sec, .tv_nsec = hi.atime_nsec };
    rtm_fileid_to_stat(&id, &tg->st);
    if (hi.srclen == n)
        return 0;
    /* an archive's entry: its index in the table of this very version */
    rc = tree_get_entry(t, tg, tg->src, RTMC_TABLE, &tg->table);
    const struct pbo *p = rc ? NULL : rtmc_pbo(tg->table);
    if (!rc && (!p || hi.entry < 0 || (size_t)hi.entry >= p->nentries))
        rc = -ESTALE;
    tg->entry = hi.entry;
    if (rc)
        tree_target_done(t, tg);
    return rc;
}

/* Resolves name in folder parent, a family's head or one of its folders:
 * by the head's node, and the name inside the animation. */
int tree_resolve_in_family(struct rtm_tree *t, uint64_t parent, const char *name,
                           char path[PATH_MAX], struct tree_target *tg)
{
    uint64_t k = rtm_ino_member(parent);
    int rc = tree_resolve_head(t, rtm_ino_head(parent), path, tg);
    if (rc)
        return rc;
    size_t n = strlen(path);
    enum rtm_view_kind kind;
    if (k && tree_member_folder(k, &kind))
        rc = -ENOTDIR;
    else if (k)
        rc = rtm_path_join(path, PATH_MAX, path, rtm_view_folder_name(kind));
    if (!rc)
        rc = rtm_path_join(path, PATH_MAX, path, name);
    tg->rest = path + n + 1;
    if (!rc)
        rc = tree_resolve_inner(t, tg);
    if (rc)
        tree_target_done(t, tg);
    return rc;
}

int tree_aim_at_member(struct tree_target *tg, uint64_t k)
{
    const struct rtm_anim *a = rtmc_anim(tg->h);
    enum rtm_view_kind kind, has;
    if (a && k >= MEMBER_VIEWS && k - MEMBER_VIEWS < rtm_view_count(a)) {
        tg->kind = TK_VIEW;
        tg->view = rtm_view_at(a, (size_t)(k - MEMBER_VIEWS));
        tg->member = k;
        return 0;
    }
    if (a && k == MEMBER_STATES) {
        tg->kind = TK_STATES;
        tg->member = k;
        return 0;
    }
    if (!a || tree_member_folder(k, &kind))
        return -1;
    for (size_t i = 0; rtm_view_folder(a, i, &has); i++)
        if (has == kind) {
            tg->kind = TK_FRAMES;
            tg->view.kind = kind;
            tg->member = k;
            return 0;
        }
    return -1;
}

int tree_resolve_member(struct rtm_tree *t, struct tree_target *tg, uint64_t k)
{
    int rc = tree_load_anim(t, tg);     /* a shape names every view */
    if (rc)
        return rc;
    if (!rtmc_anim(tg->h) && k == MEMBER_ERROR) {
        tg->kind = TK_ERROR;
        tg->rest = RTM_TREE_ERROR_NAME;
        tg->member = k;
        return 0;
    }
    if (!rtmc_anim(tg->h))
        return -ENOENT;                 /* turned broken: error.txt alone is left */
    if (tree_aim_at_member(tg, k))      /* the kernel's number names nothing */
        return k == MEMBER_ERROR ? -ENOENT : -ESTALE;   /* a damage forgotten: found again */
    return 0;
}
