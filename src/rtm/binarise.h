/* binarise.h - an animation as Bohemia's binarise writes it: BMTR version 5
 * (rtm(5), Writing BMTR; the view bmtr.rtm, rtmfs-views(7)).
 *
 * What is stored, from a plain animation's model-space matrices and the
 * skeleton it was read with (a->skel_parent, taken at parse time):
 *  - the header: version 5, the byte after it 1, the motion as read, the
 *    engine's preload count 0, the bone count twice;
 *  - the bone names in file order, ASCII lower case, NUL-terminated;
 *  - no metadata strings, then one keystone a property in file order:
 *    type id -1, name, phase, value (each string cut at a NUL byte);
 *  - the frame times in file order, then one array of transforms a frame:
 *    each bone's rotation and translation relative to its parent in the
 *    skeleton (rtm_binarise_local), or, for a bone without a parent in
 *    the animation (a root, or a bone the skeleton lacks), to the model:
 *    what the reader composes such a bone with, so reading the bytes back
 *    with the same skeleton gives the same animation, to the quantisation;
 *  - every array raw (flag byte 0), which the game reads as it reads LZO
 *    ones: the size follows from the counts and names alone
 *    (rtm_binarise_size), so a listing knows it without encoding.
 *
 * The rotation of a transform, by one of two rules (rtm(5), Writing
 * BMTR): binarise's, the quaternion by the largest diagonal term of the
 * rotation with its rows made unit length, for a matrix from an author's
 * tool; or, for a matrix of the form (1 - k^2)I + k^2 R with k away from
 * 1, which the BMTR reader makes of a stored quaternion of length k
 * (older files), that quaternion read back, so that a BMTR file's
 * plain.rtm binarised again gives its rotations back.
 *
 * Quantisation (bmtr_write.h's rtm_bmtr_quat_q and rtm_bmtr_half), as
 * the shared pairs of binarise's input and output show (rtm(5) says which
 * file showed what): the quaternion is made unit length and w >= 0 (-q
 * otherwise) before its components are quantised; a translation below
 * 2^-14 m is stored as +0.
 *
 * Contract: pure functions; the anim is only read, so threads may encode
 * one anim at once.  Bytes are appended to the caller's buffer; -1 only
 * when out of memory or when the anim has no matrices.
 */
#ifndef RTM_BINARISE_H
#define RTM_BINARISE_H

#include <stdint.h>

#include "rtm.h"

/* The bytes rtm_binarise() appends for a: from its counts, names and
 * properties (a light parse has them). */
uint64_t rtm_binarise_size(const struct rtm_anim *a);
int rtm_binarise(const struct rtm_anim *a, struct rtm_buf *out);

/* One bone's stored transform: its model-space matrix m (12 floats, rows
 * of a row-vector matrix) relative to its parent's p (NULL: a root), as
 * the 14 bytes BMTR stores (quaternion x y z w as int16, translation as
 * three halves).  A parent whose rotation has no inverse (determinant 0,
 * NaN or infinite) counts as none.  Non-finite results store the identity
 * rotation or a zero translation. */
void rtm_binarise_transform(const float m[12], const float *p, uint8_t out[14]);
/* The same before quantising: the unit quaternion (w >= 0) and the
 * translation, in double precision; returns the rule that gave the
 * rotation (rtm(5), Writing BMTR): RTM_BINARISE_AUTHOR, binarise's own,
 * or RTM_BINARISE_READER, for a matrix the BMTR reader made of a
 * quaternion that is not of unit length. */
enum { RTM_BINARISE_AUTHOR = 0, RTM_BINARISE_READER = 1 };
int rtm_binarise_values(const float m[12], const float *p, double q[4], double t[3]);

#endif
