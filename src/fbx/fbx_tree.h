/* fbx_tree.h - an assimp node tree flattened depth first, each node's
 * children after it in order, each child after its brother's whole
 * subtree; and its nodes found by name (the first of the order when
 * several share one, as bones and channels name nodes).
 *
 * Contract: fbx_tree_flatten() walks with a stack of its own (a deep tree
 * does not exhaust the C stack) and refuses more than FBX_MAX_NODES nodes
 * (so a cycle ends too) or a node whose children list is missing, with
 * err.  struct fbx_tree owns its two arrays, not the nodes (assimp's
 * scene); fbx_tree_free() frees them.  No global state; any thread.
 */
#ifndef RTM_FBX_TREE_H
#define RTM_FBX_TREE_H

#include <stddef.h>

#include "util.h"

struct aiNode;
struct aiString;

enum { FBX_MAX_NODES = 1 << 20 };

struct fbx_tree {
    const struct aiNode **node;     /* depth first; node[0] is the root */
    size_t n;
    size_t *by_name;                /* indices into node, sorted by name */
    size_t *subtree;                /* subtree[i]: nodes in i's subtree, i too */
};

int fbx_tree_flatten(const struct aiNode *root, struct fbx_tree *t, struct rtm_error *err);
void fbx_tree_free(struct fbx_tree *t);
/* The bytes of an assimp name, never past its array (a bad length is
 * cut there). */
size_t fbx_name_len(const struct aiString *s);
/* The index of the first node named name, or -1. */
long fbx_tree_find(const struct fbx_tree *t, const struct aiString *name);

#endif
