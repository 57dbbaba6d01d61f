/* fbx_anim.h - assimp's animations as glTF animations (the rules are
 * fbx_scene.h's: seconds, strictly increasing times, one LINEAR sampler a
 * channel, normalised rotations, finite values).
 *
 * Contract: reads the scene; appends to g (fbx_gltf.h).  base is added to
 * every node index of t (1 when a wrapper node comes first).  No global
 * state; any thread.
 */
#ifndef RTM_FBX_ANIM_H
#define RTM_FBX_ANIM_H

#include <stddef.h>

#include "fbx_gltf.h"
#include "fbx_tree.h"

struct aiScene;

/* assimp's ticks a second when an animation says 0 (its evaluator's). */
#define FBX_DEFAULT_TICKS 25.0

/* Whether a channel of any animation moves t's root node. */
int fbx_anim_moves_root(const struct aiScene *sc, const struct fbx_tree *t);
int fbx_add_animations(struct fbx_gltf *g, const struct aiScene *sc, const struct fbx_tree *t, size_t base,
                       struct rtm_error *err);

#endif
