/* tree_rootcheck.c - the root's check.txt (rtmfs-views(7), ROOT
 * CHECK.TXT): the configs' findings (states_check.h, made with the table
 * of states in tree_states.c) and the bones of each state's file, read
 * here: an animation found by its path in SOURCE, loaded to its shape
 * (names and counts only, as bones.txt).  Tier 4 of the tree
 * (tree_int.h): it resolves paths, which tier 2 cannot. */
#include "tree_int.h"


/* tree_bones_fn: the bones of the animation at where, a path of SOURCE. */
static int bones_at(void *ctx, const char *where, rtm_states_bones_visit *visit, void *vctx)
{
    struct rtm_tree *t = ctx;
    struct tree_target tg;
    int rc = tree_resolve_source(t, where, &tg);
    if (rc)
        return -1;
    const struct rtm_anim *a = NULL;
    if (tree_kind_is_head(tg.kind)) {
        tg.level = RTMC_SHAPE;
        if (tree_load_anim(t, &tg) == 0)
            a = rtmc_anim(tg.h);
    }
    if (a)
        visit(vctx, a->bones, a->nbones);
    tree_target_done(t, &tg);
    return a ? 0 : -1;
}

int tree_rootcheck_text(struct rtm_tree *t, struct tree_target *tg, struct rtm_buf *b,
                        struct timespec *when)
{
    *when = tg->st.st_mtim;
    return tree_states_check(t, b, when, bones_at, t);
}
