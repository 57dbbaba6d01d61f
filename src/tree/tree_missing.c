/* tree_missing.c - missing.txt and check.txt at the mount's root
 * (rtmfs-views(7)): where they show, and the targets they are.  A leaf of
 * the resolver (tree_resolve.c), tier 3 of the tree (tree_int.h); their
 * texts are made in tree_states.c, with the table of states they come
 * from (check.txt's by tree_rootcheck.c, which reads animations too). */
#include "tree_int.h"

#include <errno.h>
#include <string.h>

int tree_missing_shown(struct rtm_tree *t)
{
    if (t->game)
        return 1;                       /* the game's root: a folder made up */
    struct tree_target root = { .entry = -1, .rest = "", .level = RTMC_SHAPE };
    strcpy(root.src, t->file ? t->file : "");   /* its length was checked */
    int k = tree_classify_target(t, &root);
    int shown = k == RTM_SRC_DIR && !t->file;
    if (k == RTM_SRC_PBO && t->file)    /* an archive whose table reads */
        shown = tree_resolve_archive(t, &root, "") == 0;
    tree_target_done(t, &root);
    return shown;
}

int tree_missing_resolve(struct rtm_tree *t, const char *path, struct tree_target *tg, int rc)
{
    int check = strcmp(path, RTM_TREE_CHECK_NAME) == 0;
    if (rc != -ENOENT || (!check && strcmp(path, RTM_TREE_MISSING_NAME) != 0) ||
        !tree_missing_shown(t))
        return rc;                      /* SOURCE's own entry of that name wins */
    struct stat dir;
    if (fstat(t->cfg.srcfd, &dir))
        return -errno;
    tree_target_done(t, tg);            /* what the failed resolution held */
    memset(tg, 0, sizeof *tg);
    tg->kind = check ? TK_ROOTCHECK : TK_MISSING;
    tg->entry = -1;
    tg->rest = "";
    tg->st = dir;                       /* owner and mode of SOURCE's folder */
    tg->st.st_mode = S_IFREG | (dir.st_mode & 0444);
    strcpy(tg->src, path);
    return 0;
}

int tree_missing_text(struct rtm_tree *t, struct tree_target *tg, struct rtm_buf *b,
                      struct timespec *when)
{
    *when = tg->st.st_mtim;
    return tree_states_missing(t, b, when);
}
