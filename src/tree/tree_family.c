/* tree_family.c - an animation's folder: the names inside it
 * (tree_resolve_inner), and the folder as a family of inode numbers
 * (inodes.h): what its head keeps, and resolving the head, its members by
 * number, and names inside it, without looking at SOURCE (the version is
 * pinned).  A leaf of the resolver, tier 3 of the tree (tree_int.h). */
#include "tree_int.h"
#include "names.h"

#include <errno.h>
#include <string.h>

void tree_head_info(const char *src, const struct stat *st, long entry, struct tree_head *hi)
{
    *hi = (struct tree_head){ .srclen = (uint32_t)strlen(src), .entry = (int32_t)entry,
                              .mode = st->st_mode,
                              .uid = st->st_uid, .gid = st->st_gid,
                              .atime_sec = st->st_atim.tv_sec, .atime_nsec = st->st_atim.tv_nsec };
}

static int member_needs_full(uint64_t k);

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
    tg->clip = hi.clip;
    if (hi.entry < 0)
        return 0;                       /* a file's folder, or one of its clips/ */
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
    if (k == MEMBER_CLIPS)
        rc = rtm_path_join(path, PATH_MAX, path, RTM_TREE_CLIPS_NAME);
    else if (k && tree_member_folder(k, &kind))
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
    if (k == MEMBER_CLIPS && tree_shows_clips(tg, a)) {
        tg->kind = TK_CLIPS;
        tg->member = k;
        return 0;
    }
    if (!a || tree_member_folder(k, &kind))
        return -ENOENT;
    for (size_t i = 0; rtm_view_folder(a, i, &has); i++)
        if (has == kind) {
            tg->kind = TK_VIEW_FOLDER;
            tg->view.kind = kind;
            tg->member = k;
            return 0;
        }
    return -ENOENT;
}

int tree_resolve_member(struct rtm_tree *t, struct tree_target *tg, uint64_t k)
{
    /* as tree_resolve_inner; the table is built by the lookup before */
    tg->full_if_parsed = member_needs_full(k) && !tree_states_may_choose(t);
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

/* Whether name, inside an animation's folder, can only be or lead to a
 * view that needs matrices: a fixed name of such a view, or a folder of
 * views (frames/, joints/, tracks/: all theirs need them) or a file in one.
 * Decided from the name alone, before anything is loaded.  A walk (grep
 * -r, find) lists the animation's folder before it enters frames/, so the
 * light entry that listing loaded names frames/ and nothing is parsed. */
static int name_needs_full(const char *name)
{
    enum rtm_view_kind kind;
    return rtm_view_name_kind(name, &kind) == 0 &&
           rtmc_view_level((struct rtm_view){ .kind = kind }) == RTMC_FULL;
}

/* Whether the configs may give name's view another skeleton than the
 * mount's (the skeleton rule's third step), so that it is parsed whole
 * only once that is known.  A fixed view's size needs the configs'
 * table anyway, which is built here; a folder's listing never reads a
 * config (grep -r goes through it), so there a table not built yet counts
 * as one that may choose. */
static int skeleton_pending(struct rtm_tree *t, const char *name)
{
    enum rtm_view_kind kind;
    const char *fixed = rtm_view_name_kind(name, &kind) ? NULL : rtm_view_fixed_name(kind);
    return fixed && !strcmp(fixed, name) ? tree_states_chose_any(t) : tree_states_may_choose(t);
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

/* What is inside clips/ of the first clip's folder (tg->rest), the anim
 * loaded: clips/ itself, a clip's folder (a family's head), or a name
 * inside one, resolved as inside the source's folder with that clip's
 * anim.  1 when tg->rest is not in clips/ (or there is none). */
static int resolve_clips(struct rtm_tree *t, struct tree_target *tg)
{
    const char *rest = tg->rest;
    size_t n = strlen(RTM_TREE_CLIPS_NAME);
    if (strncmp(rest, RTM_TREE_CLIPS_NAME, n) || (rest[n] && rest[n] != '/') ||
        !tree_shows_clips(tg, rtmc_anim(tg->h)))
        return 1;
    if (!rest[n]) {
        tg->kind = TK_CLIPS;
        tg->member = MEMBER_CLIPS;
        return 0;
    }
    const char *name = rest + n + 1, *slash = strchr(name, '/');
    int64_t i = rtm_names_find(rtmc_anim(tg->h)->clips, name,
                               slash ? (size_t)(slash - name) : strlen(name));
    rtmc_put(t->cfg.cache, tg->h);
    tg->h = NULL;
    if (i < 1)
        return -ENOENT;                 /* the first clip is the folder itself */
    tg->clip = (uint32_t)i;
    tg->member = 0;
    if (!slash) {
        tg->kind = TK_ANIM;
        tg->rest = "";
        return 0;
    }
    tg->rest = slash + 1;
    return tree_resolve_inner(t, tg);
}

/* Resolves what is inside an animation folder (tg->rest).  A name that
 * can only be a view with numbers loads, when the file must be parsed at
 * all, the full parse its size and bytes will need: a cold file is parsed
 * once, not light for its names and then full for its view.  A shape the
 * index gives, or any entry already cached, still serves the names. */
int tree_resolve_inner(struct rtm_tree *t, struct tree_target *tg)
{
    tg->full_if_parsed = name_needs_full(tg->rest) && !skeleton_pending(t, tg->rest);
    int rc = tree_load_anim(t, tg);
    if (rc || (rc = resolve_clips(t, tg)) <= 0)
        return rc;
    const struct rtm_anim *a = rtmc_anim(tg->h);
    int found = 1;
    if (!a) {
        tg->kind = TK_ERROR;
        tg->member = MEMBER_ERROR;
    } else if (rtm_view_folder_lookup(a, tg->rest, &tg->view.kind) == 0) {
        tg->kind = TK_VIEW_FOLDER;
        tg->member = tree_folder_member(tg->view.kind);
    } else if (rtm_view_lookup(a, tg->rest, &tg->view) == 0) {
        tg->kind = TK_VIEW;
        /* below RTM_INO_MEMBERS: an anim of 2^40 views would not fit in memory */
        tg->member = MEMBER_VIEWS + rtm_view_index(a, tg->view);
    } else if (strcmp(tg->rest, RTM_TREE_STATES_NAME) == 0) {
        tg->kind = TK_STATES;
        tg->member = MEMBER_STATES;
    } else {
        found = 0;
    }
    if (!found || (!a && strcmp(tg->rest, RTM_TREE_ERROR_NAME))) {
        rtmc_put(t->cfg.cache, tg->h);
        tg->h = NULL;
        return -ENOENT;
    }
    return 0;
}
