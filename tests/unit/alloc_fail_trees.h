/* alloc_fail_trees.h - the SOURCE trees test_alloc_fail sweeps, written
 * into a test's fixture folder with the project's writers (assertions fail
 * the test when a write does):
 *  - af_put_tree: animations plain and BMTR in a/ (with their game path),
 *    the same in an archive with a prefix and a rapified config, a
 *    config.cpp in cfg/ and a config.bin in bin/ whose states play them;
 *  - af_put_gltf: a .gltf of two clips reading its buffer from arm.bin
 *    beside it. */
#ifndef RTM_ALLOC_FAIL_TREES_H
#define RTM_ALLOC_FAIL_TREES_H

#include "tree_testutil.h"

void af_put_tree(struct tree_fixture *f);
void af_put_gltf(struct tree_fixture *f);

#endif
