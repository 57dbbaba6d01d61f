/* pose.h - an animation's bones as a hierarchy of joints and, frame by
 * frame, each joint's pose relative to its parent's: what anim.bvh (bvh.h)
 * and anim.glb (glb_view.h) both carry, computed in one place so that the
 * two views always agree.
 *
 * Axes (bvh.h): Arma's left-handed model space (+X the character's left,
 * +Y up, facing -Z) to a right-handed, Y-up one: a position (x, y, z) is
 * (x, y, -z), a rotation R (column-vector form) S R S, S = diag(1,1,-1).
 * glTF's axes are that space's too (+Y up, +X left, the front facing +Z).
 *
 * Contract:
 *  - rtm_pose_init() builds the hierarchy of a, which needs matrices and
 *    pivots (rtm.h): each bone's parent (the skeleton's, -1 for none: the
 *    views' root), children in file order, and every bone in preorder
 *    (order[]).  It reads rot (motion.h; NULL: each frame's rotations are
 *    computed here), which, like a, must outlive p.  -1 when a has no
 *    pivots or matrices, or when out of memory (p is then freed).
 *  - rtm_pose_frame() poses frame f: for each bone whose and whose
 *    parent's matrices are usable (motion.h), fresh[b] = 1, offset[b] its
 *    joint's offset from its parent's, (j_b M_b - j_p M_p) in the parent's
 *    frame (its nearest rotation Q_p), and rel[b] the relative rotation
 *    Q_p^-1 Q_b (column form); every other bone keeps the values of the
 *    frame posed before (the rest pose, offset pivot_b - pivot_p and the
 *    identity, before the first), fresh[b] = 0.  Composed down the
 *    hierarchy they give every joint at pivot · M.
 *  - rtm_pose_root() is the views' root's position in frame f: the motion
 *    vector's share of it (motion x phase, converted), so that the
 *    character travels as the game moves it; -1 (and 0 0 0) when a has no
 *    motion, or one not finite.
 *  - p owns its arrays; no global state; one pose per thread.
 */
#ifndef RTM_POSE_H
#define RTM_POSE_H

#include <stdint.h>

#include "rtm.h"

struct rtm_rotations;

struct rtm_pose {
    const struct rtm_anim *a;
    const struct rtm_rotations *rot;    /* the nearest rotations made once, or NULL */
    int32_t *parent;            /* per bone: its parent here, or -1 (the root) */
    int32_t *first_child;       /* per bone, and [nbones] for the root */
    int32_t *next_sibling;
    uint32_t *order;            /* the bones in hierarchy order (preorder) */
    double (*offset)[3];        /* per bone: this frame's offset from the parent */
    double (*rel)[3][3];        /* per bone: this frame's rotation from the parent's */
    uint8_t *fresh;             /* per bone: whether this frame set them */
    double (*c)[3][3];          /* scratch: this frame's rotations, column form */
    float (*joint)[3];          /* scratch: this frame's joints (pivot . M) */
};

int rtm_pose_init(struct rtm_pose *p, const struct rtm_anim *a, const struct rtm_rotations *rot);
void rtm_pose_free(struct rtm_pose *p);
void rtm_pose_frame(struct rtm_pose *p, uint32_t f);
/* Back to the rest pose, as before the first frame (a second pass). */
void rtm_pose_rest(struct rtm_pose *p);
/* Bone b's rest offset from its parent's joint (the root's: the origin). */
void rtm_pose_rest_offset(const struct rtm_pose *p, uint32_t b, double out[3]);
int rtm_pose_root(const struct rtm_anim *a, uint32_t f, double out[3]);
/* A point of Arma's model space in the views' space: z flips. */
void rtm_pose_axes(const double in[3], double out[3]);

#endif
