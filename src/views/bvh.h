/* bvh.h - an animation as Biovision Hierarchy (BVH) text, the interchange
 * format of motion capture that Blender imports without an add-on.
 *
 * Axes: Arma's model space is left-handed (+X the character's left, +Y up,
 * facing -Z); BVH is right-handed, Y up.  A position (x, y, z) is written
 * (x, y, -z) and a rotation R (column-vector form) S R S, S = diag(1,1,-1).
 * Blender's default import (forward -Z, up Y) then puts an Arma point
 * (x, y, z) at its world (x, z, y).
 *
 * This is the writer of the anim.bvh view (rtm_anim_bvh_*); the reader of
 * .bvh files as sources is src/rtm/mocap*.h (rtm_mocap_*, rtm_bvh_*).
 *
 * Contract:
 *  - rtm_anim_bvh_write_timed() appends the BVH of a, which needs matrices
 *    and pivots (rtm.h), timed by tm (NULL: the convention; the caller's, read
 *    during the call), to out; -1 when it has neither, or when out of
 *    memory.  rtm_anim_bvh_write() is it with tm NULL.
 *  - HIERARCHY: ROOT rtm_root at the origin, its 6 channels the motion
 *    vector's share of the frame (motion x phase as a position, no turn:
 *    the character travels as the game moves it), all 0 without one; under
 *    it every bone with no parent here (and every bone the skeleton lacks,
 *    whose pivot is the origin), and under each bone its children, in file
 *    order.  OFFSET is pivot_b - pivot_p (for rtm_root's children pivot_b);
 *    6 channels a joint, Xposition Yposition Zposition Zrotation Xrotation
 *    Yrotation; a leaf ends 5 cm beyond its joint along the parent-to-joint
 *    direction (up when that is 0).  Names are BVH tokens (RTM_NAMES_BVH).
 *  - MOTION: one line a frame in phase order (stable).  Frame Time 1/30 s
 *    (the convention), or, when a timing (timing.h) gives one pass s
 *    seconds and there are n >= 2 frames, s / (n - 1) ("%.6g"): the mean
 *    step, so the frames as they are, none resampled, last one pass from
 *    the first to the last (uneven phases play at an even pace).
 *    A joint's position channels are its joint's offset from its parent's,
 *    (j_b M_b - j_p M_p) in the parent's frame (its nearest rotation Q_p);
 *    its rotation channels the relative rotation Q_p^-1 Q_b as Z, X, Y Euler
 *    angles in degrees (R = Rz Rx Ry on column vectors).  Composed down the
 *    hierarchy they give every joint at pivot · M.  A frame where a bone's
 *    or its parent's matrix is not usable (motion.h) repeats that joint's
 *    channels from the frame before (its rest pose in the first).
 *    Positions to 0.01 mm, angles to 1e-5 degree.
 */
#ifndef RTM_BVH_H
#define RTM_BVH_H

#include "names.h"
#include "rtm.h"
#include "timing.h"

/* BVH tokens: whitespace escaped, names Blender keeps (63 bytes), and the
 * root's name taken. */
extern const struct rtm_name_rule RTM_NAMES_BVH;
#define RTM_BVH_ROOT "rtm_root"
#define RTM_BVH_FRAME_TIME "0.0333333"

int rtm_anim_bvh_write(const struct rtm_anim *a, struct rtm_buf *out);
int rtm_anim_bvh_write_timed(const struct rtm_anim *a, const struct rtm_timing *tm,
                             struct rtm_buf *out);
/* The Frame Time that BVH writes, as the number its text reads back to
 * (anim.glb's frames are that far apart). */
double rtm_anim_bvh_frame_time(const struct rtm_anim *a, const struct rtm_timing *tm);
/* The size of that BVH in *size from untimed, its size with tm NULL: a
 * timing changes the Frame Time line alone.  -1 when out of memory. */
int rtm_anim_bvh_timed_size(const struct rtm_anim *a, const struct rtm_timing *tm,
                            uint64_t untimed, uint64_t *size);
/* The same from a's nearest rotations made once (motion.h; NULL: computed
 * here), when moving.txt is rendered with them. */
struct rtm_rotations;
int rtm_anim_bvh_write_with(const struct rtm_anim *a, const struct rtm_rotations *rot,
                            const struct rtm_timing *tm, struct rtm_buf *out);

#endif
