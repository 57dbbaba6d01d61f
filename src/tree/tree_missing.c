/* tree_missing.c - missing.txt at the mount's root (rtmfs-views(7)): where
 * it shows and what it is; its text is made in tree_states.c, with the
 * table of states it comes from.  Part of the tree layer (tree_int.h). */
#include "tree_int.h"

#include <errno.h>
#include <string.h>

int tree_missing_at_root(const struct tree_target *root)
{
    return root->kind == TK_DIR || root->kind == TK_PBO;
}

int tree_missing_resolve(struct rtm_tree *t, const char *path, struct tree_target *tg, int rc)
{
    struct tree_target root;
    if (rc != -ENOENT || strcmp(path, RTM_TREE_MISSING_NAME) != 0 ||
        tree_resolve(t, "", &RTM_FILEID_NONE, &root))
        return rc;                      /* SOURCE's own entry of that name wins */
    int shown = tree_missing_at_root(&root);
    tree_target_done(t, &root);
    if (!shown)
        return rc;
    struct stat dir;
    if (fstat(t->cfg.srcfd, &dir))
        return -errno;
    tree_target_done(t, tg);            /* what the failed resolution held */
    memset(tg, 0, sizeof *tg);
    tg->kind = TK_MISSING;
    tg->entry = -1;
    tg->rest = "";
    tg->st = dir;                       /* owner and mode of SOURCE's folder */
    tg->st.st_mode = S_IFREG | (dir.st_mode & 0444);
    strcpy(tg->src, RTM_TREE_MISSING_NAME);
    return 0;
}

int tree_configs_text(struct rtm_tree *t, const struct tree_target *tg, struct rtm_buf *b,
                      struct timespec *when)
{
    if (tg->kind == TK_STATES)
        return tree_states_text(t, tg, b, when);
    *when = tg->st.st_mtim;
    return tree_states_missing(t, b, when);
}
