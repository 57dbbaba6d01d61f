/* pivots.h - where the joints are: the rest-pose pivots of a skeleton,
 * estimated from animations, and the posed joint positions pivot · M.
 *
 * An RTM matrix M of bone b is a skinning transform: a point p of the model
 * in rest pose goes to p · M (row vector; rows 1-3 rotation R, row 4
 * translation t; rtm(5), Matrices).  Bone b meets its parent p at a joint
 * whose rest position j moves alike under both transforms in every frame:
 *
 *     j · R_b + t_b = j · R_p + t_p,   so   j · (R_b - R_p) = t_p - t_b
 *
 * three linear equations in j a frame.  Stacked over the frames of many
 * animations they give j by least squares.
 *
 * Contract:
 *  - struct rtm_pivots collects those equations for every bone of a
 *    skeleton whose parent is in the same animation (rtm_pivots_add), then
 *    fits each joint (rtm_pivots_solve).  It keeps the equations (96 bytes a
 *    frame and joint) and the skeleton pointer, which must outlive it.
 *  - The fit is trimmed least squares: fit, keep the frames whose distance
 *    (residual over the size of the frame's coefficients: how far that frame
 *    alone would put the joint) is within the best 80 % and at most 4 times
 *    the median (or within 1 mm), fit again, until the kept set stops
 *    changing.  Outlier frames, and files whose joint is
 *    elsewhere, so weigh nothing.
 *  - A joint is well determined when the kept equations constrain all three
 *    coordinates, the smallest singular value of their stacked coefficient
 *    matrix being at least RTM_PIVOT_MIN_SIGMA (the pivot's error is then at
 *    most about the residual), and the RMS residual is under
 *    RTM_PIVOT_MAX_RESIDUAL.
 *  - Every other bone is placed, in skeleton order (parents first), by the
 *    first rule that applies (enum rtm_pivot_how): the mirror (x -> -x) of
 *    its left/right twin when that is well determined; the parent's pivot
 *    moved only along the directions the equations do constrain (when their
 *    residual is under RTM_PIVOT_MAX_RESIDUAL); a root,
 *    the mean of its well-determined children; else 5 cm beyond the parent
 *    along the grandparent-to-parent direction (up when there is none).
 *  - No global state; errors are values.
 */
#ifndef RTM_PIVOTS_H
#define RTM_PIVOTS_H

#include <stddef.h>
#include <stdint.h>

#include "rtm.h"
#include "skeleton.h"

#define RTM_PIVOT_MIN_SIGMA 1.0         /* of the stacked, kept rows */
#define RTM_PIVOT_MAX_RESIDUAL 0.01     /* metres, RMS over kept frames */
#define RTM_PIVOT_KEEP 0.8              /* fraction of frames a trim keeps */

enum rtm_pivot_how {
    RTM_PIVOT_MEASURED,         /* well determined */
    RTM_PIVOT_MIRRORED,         /* the mirror of a well-determined twin */
    RTM_PIVOT_CONSTRAINED,      /* the parent's pivot, moved as far as the
                                   equations constrain it */
    RTM_PIVOT_ROOT,             /* a root: the mean of its measured children */
    RTM_PIVOT_OFFSET,           /* 5 cm beyond the parent */
};

struct rtm_pivot_fit {
    float pivot[3];
    enum rtm_pivot_how how;
    uint64_t frames;            /* equations' frames, all and kept */
    uint64_t kept;
    double residual;            /* RMS over kept frames, metres */
    double sigma;               /* smallest singular value, kept rows */
};

struct rtm_pivots;

struct rtm_pivots *rtm_pivots_new(const struct rtm_skeleton *s);
void rtm_pivots_free(struct rtm_pivots *e);
/* Adds the equations of every frame of a (which needs matrices, converted
 * with the same skeleton); frames where a matrix is not finite are left
 * out.  0, or -1 when out of memory (err says so). */
int rtm_pivots_add(struct rtm_pivots *e, const struct rtm_anim *a, struct rtm_error *err);
/* Fits and places every bone of the skeleton: out has s->nbones entries,
 * in skeleton order.  0, or -1 when out of memory. */
int rtm_pivots_solve(struct rtm_pivots *e, struct rtm_pivot_fit *out, struct rtm_error *err);
/* How each is placed, for reports: "measured", "mirrored", ... */
const char *rtm_pivot_how_name(enum rtm_pivot_how how);

/* The posed position of a point: p · M (M: 12 floats, rows 1-3 rotation,
 * row 4 translation). */
void rtm_point_times(const float p[3], const float *m, float out[3]);

/* Where the bones are: the joint positions of frame f of a, out[b] =
 * pivot(b) · M_b with the pivots a was parsed with (rtm.h), known[b] = 1;
 * known[b] = 0 (and out[b] 0 0 0) for a bone its skeleton lacks.  The one
 * function every view of joints uses.  -1 when a has no pivots or no
 * matrices, or f is no frame of it. */
int rtm_joints(const struct rtm_anim *a, uint32_t f, float (*out)[3], uint8_t *known);

#endif
