/* glb_view.h - an animation as glTF 2.0 binary (GLB): the anim.glb view,
 * which Blender, Godot, three.js and every other modern tool import.
 *
 * What it holds (rtmfs-views(7), anim.glb):
 *  - nodes: node 0 is rtm_root at the origin, which carries the motion;
 *    node 1 + b is bone b (its anim.bvh name, RTM_NAMES_BVH), the same
 *    hierarchy as anim.bvh (pose.h): under rtm_root every bone with no
 *    parent here, under each bone its children in file order.  A bone's
 *    rest translation is pivot_b - pivot_p (rtm_root's children: pivot_b),
 *    its rest rotation the identity.  One scene, whose root is node 0.
 *  - a skin whose joints are every node (skeleton rtm_root), its inverse
 *    bind matrices the rest pose's world matrices inverted: a translation
 *    by -pivot_b (identity for rtm_root).  No mesh uses it.
 *  - one animation (when there are frames), LINEAR samplers over frame
 *    i at i x the Frame Time anim.bvh writes (bvh.h: one pass timed by tm
 *    from the first frame to the last), frames in phase order:
 *      rtm_root's translation: the motion vector's share of each frame
 *        (pose.h; 0 0 0 without motion), as anim.bvh's root channels;
 *      each bone's rotation: Q_p^-1 Q_b as a unit quaternion (x, y, z, w),
 *        signs chosen so that neighbouring frames agree (dot >= 0);
 *      each bone's translation, only when its offset from its parent's
 *        joint (pose.h) leaves the rest offset by more than
 *        RTM_GLB_STILL_M in some frame: anim.bvh's position channels,
 *        whose rounding (0.01 mm) is that.
 *    A frame whose matrix is not usable repeats the one before (pose.h).
 *    Input times are strictly increasing: a float time that would not pass
 *    the one before (a pass too short for its frame count) is taken as
 *    the next float after it.
 *  - Axes: glTF's right-handed, +Y up, front +Z (pose.h): an Arma point
 *    (x, y, z) is (x, y, -z); Blender's importer puts it at (x, z, y).
 *  - Layout: one buffer (the GLB's BIN chunk), one buffer view an
 *    accessor, all FLOAT, every offset a multiple of 4; the input accessor
 *    has min and max.  The JSON's length does not depend on the timing
 *    (times' max is written in a fixed width), so the timed size is the
 *    untimed one.
 *
 * Contract:
 *  - rtm_anim_glb_write() appends the GLB of a, which needs matrices and
 *    pivots (rtm.h), timed by tm (NULL: the convention), to out; with out
 *    a counting buffer (util.h) it counts the bytes without making the
 *    binary part.  rot: a's nearest rotations made once (motion.h; NULL:
 *    computed here).  -1 when a lacks matrices or pivots, when out of
 *    memory, or when the file would pass GLB's 4 GiB.
 *  - No global state; any thread; reads a, rot and tm only during the call.
 */
#ifndef RTM_GLB_VIEW_H
#define RTM_GLB_VIEW_H

#include <stdint.h>

#include "rtm.h"
#include "timing.h"

#define RTM_GLB_STILL_M 1e-5            /* metres: a drift below it is rounding */
#define RTM_GLB_GENERATOR "rtmfs anim.glb"

struct rtm_rotations;
int rtm_anim_glb_write(const struct rtm_anim *a, const struct rtm_rotations *rot,
                       const struct rtm_timing *tm, struct rtm_buf *out);
/* anim.glb's size timed by tm, from its untimed size: the same number. */
int rtm_anim_glb_timed_size(const struct rtm_anim *a, const struct rtm_timing *tm,
                            uint64_t untimed, uint64_t *size);

#endif
