/* fbx_tree.c - assimp's node tree, flattened (fbx_tree.h). */
#include "fbx_tree.h"

#include <assimp/scene.h>
#include <stdlib.h>
#include <string.h>

void fbx_tree_free(struct fbx_tree *t)
{
    free(t->node);
    free(t->by_name);
    free(t->subtree);
    memset(t, 0, sizeof *t);
}

size_t fbx_name_len(const struct aiString *s)
{
    return s->length < MAXLEN ? s->length : MAXLEN - 1;
}

static int name_cmp(const struct aiString *a, const struct aiString *b)
{
    size_t la = fbx_name_len(a), lb = fbx_name_len(b);
    int c = memcmp(a->data, b->data, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

static int by_name_cmp(const void *x, const void *y, void *ctx)
{
    const struct fbx_tree *t = ctx;
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    int c = name_cmp(&t->node[i]->mName, &t->node[j]->mName);
    return c ? c : (i > j) - (i < j);
}

static int grow(void *pp, size_t *cap, size_t elem)
{
    void **p = pp;
    void *g = realloc(*p, 2 * *cap * elem);
    if (!g)
        return -1;
    *p = g;
    *cap *= 2;
    return 0;
}

static int walk(const struct aiNode *root, struct fbx_tree *t, struct rtm_error *err)
{
    size_t cap = 64, top = 0, tcap = 64;
    const struct aiNode **stack = malloc(cap * sizeof *stack);
    t->node = malloc(tcap * sizeof *t->node);
    if (!stack || !t->node)
        goto oom;
    stack[top++] = root;
    while (top > 0) {
        const struct aiNode *nd = stack[--top];
        if (t->n == FBX_MAX_NODES) {
            free(stack);
            rtm_err_nooff(err, "the node tree has more than %d nodes (or a cycle)", FBX_MAX_NODES);
            return -1;
        }
        if (t->n == tcap && grow(&t->node, &tcap, sizeof *t->node))
            goto oom;
        t->node[t->n++] = nd;
        if (nd->mNumChildren > 0 && !nd->mChildren) {
            free(stack);
            rtm_err_nooff(err, "node %zu has %u children and no list of them", t->n - 1, nd->mNumChildren);
            return -1;
        }
        for (unsigned i = nd->mNumChildren; i-- > 0;) {   /* the first child on top */
            if (top == cap && grow(&stack, &cap, sizeof *stack))
                goto oom;
            stack[top++] = nd->mChildren[i];
        }
    }
    free(stack);
    return 0;
oom:
    free(stack);
    rtm_err_oom(err, "out of memory for a tree of %zu nodes", t->n);
    return -1;
}

int fbx_tree_flatten(const struct aiNode *root, struct fbx_tree *t, struct rtm_error *err)
{
    memset(t, 0, sizeof *t);
    if (walk(root, t, err) != 0) {
        fbx_tree_free(t);
        return -1;
    }
    t->by_name = malloc(t->n * sizeof *t->by_name);
    t->subtree = malloc(t->n * sizeof *t->subtree);
    if (!t->by_name || !t->subtree) {
        rtm_err_oom(err, "out of memory for a tree of %zu nodes", t->n);
        fbx_tree_free(t);
        return -1;
    }
    for (size_t i = 0; i < t->n; i++)
        t->by_name[i] = i;
    qsort_r(t->by_name, t->n, sizeof *t->by_name, by_name_cmp, t);
    /* back to front: a node's children start right after it, each after
     * the subtree of the one before */
    for (size_t i = t->n; i-- > 0;) {
        size_t at = i + 1;
        for (unsigned c = 0; c < t->node[i]->mNumChildren; c++)
            at += t->subtree[at];
        t->subtree[i] = at - i;
    }
    return 0;
}

long fbx_tree_find(const struct fbx_tree *t, const struct aiString *name)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (name_cmp(&t->node[t->by_name[mid]]->mName, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->n && name_cmp(&t->node[t->by_name[lo]]->mName, name) == 0)
        return (long)t->by_name[lo];
    return -1;
}
