/* tree_archive.c - a path inside an archive: its own files (pbo.txt,
 * error.txt), its folders, its animations and its other entries.  A leaf
 * of the resolver (tree_resolve.c), tier 3 of the tree (tree_int.h). */
#include "tree_int.h"

#include <errno.h>
#include <string.h>

#include "pbo.h"

/* Resolves inner, a path below the folders of archive tg->src whose table
 * is p, one component at a time. */
static int resolve_member(struct rtm_tree *t, struct tree_target *tg, const struct pbo *p,
                          const char *inner)
{
    char q[PATH_MAX];
    for (const char *end = inner;; end++) {
        if (*end && *end != '/')
            continue;
        size_t n = (size_t)(end - inner);
        memcpy(q, inner, n);
        q[n] = 0;
        enum pbo_node node = pbo_lookup(p, q, &tg->entry);
        if (node == PBO_DIR && !*end) {
            tg->kind = TK_PDIR;
            tg->rest = inner;
            return tree_archive_below(t, tg, inner, &tg->newest) ? 0 : -ENOENT;
        }
        if (node == PBO_FILE && tree_is_anim_name(q, n)) {
            tg->kind = TK_ANIM;
            tg->rest = end + (*end != 0);
            return *end ? tree_resolve_inner(t, tg) : 0;
        }
        if ((node == PBO_FILE || node == PBO_NONE) && !*end && t->cfg.show_other)
            return tree_config_entry(t, tg, inner, node);   /* as it is, or as text */
        if (node != PBO_DIR)
            return -ENOENT;
    }
}

/* Resolves inner, a path inside archive tg->src ("" for the archive
 * itself): a broken archive holds only error.txt, a good one pbo.txt and
 * its tree. */
int tree_resolve_archive(struct rtm_tree *t, struct tree_target *tg, const char *inner)
{
    tg->kind = TK_PBO;
    tg->rest = "";
    int rc = tree_get_entry(t, tg, tg->src, RTMC_TABLE, &tg->table);
    const struct pbo *p = rc ? NULL : rtmc_pbo(tg->table);
    if (rc || !*inner)
        return rc;
    if (!p && strcmp(inner, RTM_TREE_ERROR_NAME) == 0) {
        tg->kind = TK_ERROR;
        tg->h = tg->table;
        tg->table = NULL;
        return 0;
    }
    if (!p)
        return -ENOENT;
    if (strcmp(inner, RTM_PBO_INFO_NAME) == 0) {
        tg->kind = TK_PINFO;
        return 0;
    }
    if (p->ncut && strcmp(inner, RTM_TREE_ERROR_NAME) == 0) {
        tg->kind = TK_ERROR;             /* says what the cut took */
        return 0;
    }
    return resolve_member(t, tg, p, inner);
}
