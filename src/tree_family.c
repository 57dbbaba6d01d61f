/* tree_family.c - an animation's folder as a family of inode numbers
 * (inodes.h): what its head keeps, and resolving the head, its members by
 * number, and names inside it, without looking at SOURCE (the version is
 * pinned).  Part of the tree layer (tree.h); paths are in tree.c. */
#include "tree_int.h"

#include <errno.h>
#include <string.h>

/* path/name in place (path: PATH_MAX bytes); -ENAMETOOLONG. */
static int append_name(char *path, const char *name)
{
    size_t pl = strlen(path), nl = strlen(name);
    if (pl + 1 + nl >= PATH_MAX)
        return -ENAMETOOLONG;
    path[pl] = '/';
    memcpy(path + pl + 1, name, nl + 1);
    return 0;
}

void tree_head_info(const char *src, const struct stat *st, long entry, struct head_info *hi)
{
    *hi = (struct head_info){ .srclen = (uint32_t)strlen(src), .entry = (int32_t)entry,
                              .mode = st->st_mode,
                              .uid = st->st_uid, .gid = st->st_gid,
                              .atime_sec = st->st_atim.tv_sec, .atime_nsec = st->st_atim.tv_nsec };
}

/* Resolves family head ino (an animation's folder) into tg, its path into
 * path, from what its node keeps: SOURCE is not looked at, the version
 * being pinned (a file rewritten since reads as -ESTALE when loaded). */
static int resolve_head(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct target *tg)
{
    struct rtm_fileid id;
    struct head_info hi;
    int rc = rtm_inodes_path(t->nodes, ino, path, PATH_MAX, &id);
    if (rc || (rc = rtm_inodes_aux(t->nodes, ino, &hi)))
        return rc;
    size_t n = strlen(path);
    if (hi.srclen > n || hi.srclen >= sizeof tg->src)
        return -ESTALE;
    *tg = (struct target){ .kind = K_ANIM, .rest = "", .entry = -1, .id = id, .pinned = 1,
                           .level = RTMC_SHAPE };
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
                             char path[PATH_MAX], struct target *tg)
{
    uint64_t k = rtm_ino_member(parent);
    int rc = resolve_head(t, rtm_ino_head(parent), path, tg);
    if (rc)
        return rc;
    size_t n = strlen(path);
    enum rtm_view_kind kind;
    if (k && tree_member_folder(k, &kind))
        rc = -ENOTDIR;
    else if (k)
        rc = append_name(path, rtm_view_folder_name(kind));
    if (!rc)
        rc = append_name(path, name);
    tg->rest = path + n + 1;
    if (!rc)
        rc = tree_resolve_inner(t, tg);
    if (rc)
        tree_target_done(t, tg);
    return rc;
}

int tree_aim_at_member(struct target *tg, uint64_t k)
{
    const struct rtm_anim *a = rtmc_anim(tg->h);
    enum rtm_view_kind kind, has;
    if (a && k >= MEMBER_VIEWS && k - MEMBER_VIEWS < rtm_view_count(a)) {
        tg->kind = K_VIEW;
        tg->view = rtm_view_at(a, (size_t)(k - MEMBER_VIEWS));
        tg->member = k;
        return 0;
    }
    if (!a || tree_member_folder(k, &kind))
        return -1;
    for (size_t i = 0; rtm_view_folder(a, i, &has); i++)
        if (has == kind) {
            tg->kind = K_FRAMES;
            tg->view.kind = kind;
            tg->member = k;
            return 0;
        }
    return -1;
}



/* Resolves member k of the family of animation tg (resolved, holding
 * nothing) by its number alone, names unused: path stays the head's. */
static int resolve_member_number(struct rtm_tree *t, struct target *tg, uint64_t k)
{
    int rc = tree_load_anim(t, tg);     /* a shape names every view */
    if (rc)
        return rc;
    if (!rtmc_anim(tg->h) && k == MEMBER_ERROR) {
        tg->kind = K_ERROR;
        tg->rest = ERROR_NAME;
        tg->member = k;
        return 0;
    }
    return tree_aim_at_member(tg, k) ? -ESTALE : 0;   /* the kernel's number names nothing */
}

int tree_resolve_ino(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct target *tg)
{
    struct rtm_fileid id;
    uint64_t k = rtm_ino_member(ino);
    int rc = 0;
    if ((ino & RTM_INO_FAMILY) && !t->file)
        rc = resolve_head(t, rtm_ino_head(ino), path, tg);
    else if (!(rc = rtm_inodes_path(t->nodes, ino, path, PATH_MAX, &id)))
        rc = tree_resolve(t, path, &id, tg);
    if (rc || !k)
        return rc;
    rc = tg->kind == K_ANIM ? resolve_member_number(t, tg, k) : -ESTALE;
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
    return tree_member_folder(k, &kind) ? -ENOTDIR : append_name(path, rtm_view_folder_name(kind));
}

