/* fbx_scene.h - an imported assimp scene as glTF 2.0 binary: what a glTF
 * reader needs of an FBX animation.
 *
 *  - Every node of the tree, depth first (glTF index = that order, one
 *    more when a wrapper is needed, below), with its rest transform as
 *    translation, rotation and scale.  The change to glTF's axes and
 *    metres (fbx_axes.h) is baked into the root's transform; when an
 *    animation moves the root itself, a node "rtmfs-fbx axes" above it
 *    holds the change instead.
 *  - A skin for each mesh with bones (the bones' nodes as joints, their
 *    offset matrices as the inverse bind matrices, in the mesh's space);
 *    no mesh itself: its geometry is of no use to an animation.
 *  - Every animation (an FBX animation stack) as a glTF animation of the
 *    same name, a LINEAR sampler a channel: times in seconds (mTime /
 *    mTicksPerSecond, 25 ticks a second when that is 0, as assimp's own
 *    evaluator takes it), shifted so that none is negative; a key whose
 *    time does not pass the one before is dropped (glTF wants them
 *    strictly increasing); rotations normalised.  An animation with no
 *    key left has no glTF counterpart (glTF forbids an empty one).
 *
 * Refused, with err saying where: a tree of more than FBX_MAX_NODES nodes
 * (or a cycle), a bone or a channel naming no node, a value that is not
 * finite.
 *
 * Contract: reads the scene only (types, no assimp function: the unit
 * tests build scenes by hand); the GLB is appended to out, the caller's.
 * No global state; any thread.
 */
#ifndef RTM_FBX_SCENE_H
#define RTM_FBX_SCENE_H

#include "fbx_axes.h"
#include "fbx_tree.h"
#include "util.h"

struct aiScene;

int fbx_scene_to_glb(const struct aiScene *sc, const struct fbx_axes *axes, struct rtm_buf *out,
                     struct rtm_error *err);

#endif
