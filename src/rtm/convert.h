/* convert.h - BMTR parent-relative transforms to plain model-space matrices
 * (rtm(5), CONVERSION), bit for bit as the reference converter.
 *
 * Contract:
 *  - rtm_plan_make() matches an animation's bones against a skeleton (NULL:
 *    none) once;
 *    the plan owns its arrays and is released with rtm_plan_free().
 *  - rtm_convert_frame() turns one frame of nbones 14-byte transforms into
 *    nbones*12 floats.  It needs a caller-owned scratch of nbones*12 doubles.
 *  - Build with -ffp-contract=off: the arithmetic must round exactly as
 *    written for the results to match byte for byte.
 */
#ifndef RTM_CONVERT_H
#define RTM_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "rtm.h"
#include "skeleton.h"

enum { RTM_TRANSFORM_BYTES = 14 };

struct rtm_plan {
    uint32_t nbones;
    uint32_t *order;    /* bones in skeleton order (parents first), then the rest */
    int32_t *parent;    /* per bone: index of the bone it composes with, or -1 */
    uint32_t composed;  /* bones with parent >= 0 */
};

int rtm_plan_make(const struct rtm_skeleton *skel, const struct rtm_str *bones,
                  uint32_t nbones, struct rtm_plan *plan);
void rtm_plan_free(struct rtm_plan *plan);
void rtm_convert_frame(const struct rtm_plan *plan, const uint8_t *transforms,
                       double *scratch, float *out);
/* The same with bone b's 12 floats at out + b * stride bytes (any
 * alignment): straight into a plain file's frame, between its names. */
void rtm_convert_frame_at(const struct rtm_plan *plan, const uint8_t *transforms,
                          double *scratch, uint8_t *out, size_t stride);
float rtm_half_to_float(uint16_t h);
/* Whether the processor runs the AVX2 converter, which the two above use
 * when it does: the same bytes, fewer instructions. */
int rtm_convert_avx2(void);
/* rtm_convert_frame_at with the AVX2 converter (avx2 nonzero: only where
 * rtm_convert_avx2() says so) or the generic one: for the tests that
 * compare them. */
void rtm_convert_frame_with(int avx2, const struct rtm_plan *plan, const uint8_t *transforms,
                            double *scratch, uint8_t *out, size_t stride);

#endif
