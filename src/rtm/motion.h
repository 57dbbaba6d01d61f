/* motion.h - how bones move: the nearest rotation of a matrix, and the
 * measure moving.txt lists.
 *
 * Matrices are RTM's (rtm.h): 12 floats, rows 1-3 the 3x3 part R, row 4
 * the translation, acting on row vectors (p · M).  Real matrices carry float
 * noise, and a few files scale bones, so angles are measured between nearest
 * rotations (polar factors), never read off R itself.
 *
 * Contract:
 *  - A matrix is usable when all 12 numbers are finite and det R > 0; the
 *    measure leaves out every other one.
 *  - rtm_motion_measure() gives each bone of a (which needs matrices):
 *      rotation: the largest angle between Q_b · Q_p^T of any frame and of
 *        the first frame (file order) where both are usable; Q the nearest
 *        rotations, p the bone's parent in the skeleton a was read with,
 *        none (model space) when it has no parent there;
 *      translation: when the bone has a pivot j, the largest change of its
 *        joint's drift from the parent, (j · M_b - j · M_p) · Q_p^T, in
 *        metres (without a parent: j · M_b); else not measured.
 *    A bone that only turns about its joint has translation 0.
 *  - No state; -1 only when out of memory or a has no matrices.
 */
#ifndef RTM_MOTION_H
#define RTM_MOTION_H

#include <stdint.h>

#include "rtm.h"

#define RTM_MOVE_MIN_DEG 0.1        /* a bone moves when it turns more, */
#define RTM_MOVE_MIN_M 0.001        /* or drifts more (metres) */

int rtm_matrix_usable(const float *m);

/* What a parse tallies of each matrix (rtm.h: unusable, scaled_bones): a
 * usable matrix is scaled when R R^T differs from I by more than
 * RTM_SCALE_TOL in a term (float noise stays 100 times below). */
#define RTM_SCALE_TOL 1e-3
enum rtm_matrix_kind { RTM_MATRIX_ROTATION, RTM_MATRIX_SCALED, RTM_MATRIX_UNUSABLE };
enum rtm_matrix_kind rtm_matrix_kind(const float *m);
/* q = the rotation nearest to m's 3x3 part (q[row][col]); -1 when m is
 * not usable. */
int rtm_nearest_rotation(const float *m, double q[3][3]);

struct rtm_bone_motion {
    double rotation_deg;
    double translation_m;       /* when has_translation */
    int has_translation;
    uint32_t frames;            /* frames measured (both matrices usable) */
};

int rtm_motion_measure(const struct rtm_anim *a, struct rtm_bone_motion *out);

/* The nearest rotation of every matrix of a, frame by frame (q and ok of
 * frame f, bone b at f * nbones + b; ok 0 where the matrix is not usable):
 * what moving.txt and anim.bvh both need, made once when both are rendered
 * together (every view sized at once, views.h).  The caller owns it. */
struct rtm_rotations {
    double (*q)[3][3];
    uint8_t *ok;
};
/* Bytes rtm_rotations_make() allocates for a. */
uint64_t rtm_rotations_bytes(const struct rtm_anim *a);
/* 0, or -1 when out of memory or a has no matrices (r is then empty). */
int rtm_rotations_make(const struct rtm_anim *a, struct rtm_rotations *r);
void rtm_rotations_free(struct rtm_rotations *r);
/* rtm_motion_measure() from rotations r made of a (NULL: computed here). */
int rtm_motion_measure_with(const struct rtm_anim *a, const struct rtm_rotations *r,
                            struct rtm_bone_motion *out);
int rtm_bone_moves(const struct rtm_bone_motion *m);

#endif
