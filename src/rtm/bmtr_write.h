/* bmtr_write.h - the project's one BMTR writer: bmtr.rtm (binarise.h)
 * writes through it, and so do the test fixtures, samples and fuzz seeds,
 * in every layout the reader accepts.
 *
 * Contract: the spec's arrays are borrowed for the call; bytes are appended
 * to the caller's buffer.  Returns -1 only when out of memory or when LZO
 * compression fails.
 */
#ifndef RTM_BMTR_WRITE_H
#define RTM_BMTR_WRITE_H

#include <stdint.h>

#include "util.h"

struct bmtr_keystone {
    int32_t type_id;
    const char *name;
    float phase;
    const char *value;
};

enum bmtr_compress {
    BMTR_COMPRESS_AUTO,   /* LZO for arrays of 1024 bytes or more */
    BMTR_COMPRESS_NONE,   /* flag byte 0 everywhere (v5, or v4 with flags) */
    BMTR_COMPRESS_ALL,    /* flag byte 2 on every non-empty array */
};

struct bmtr_spec {
    uint32_t version;               /* 3, 4 or 5 */
    uint8_t byte8;                  /* normally 1 */
    float motion[3];
    uint32_t preload;
    uint32_t nbones;
    const char *const *names;
    uint32_t nframes;
    const float *phases;
    const uint8_t *transforms;      /* nframes * nbones * 14 bytes */
    uint32_t nmeta;
    const char *const *meta;
    uint32_t nprops;
    const struct bmtr_keystone *props;
    enum bmtr_compress compress;    /* v3/v4 without flags: always the size rule */
    int v4_flags;                   /* v4 written with flag bytes */
    int empty_flag;                 /* a flag byte on empty arrays too */
};

int rtm_write_bmtr(const struct bmtr_spec *s, struct rtm_buf *out);

/* binarise's quantisers (rtm(5), Writing BMTR): a quaternion component
 * is v * 16384 rounded to the nearest integer (ties to even), clamped to
 * int16 (NaN: 0); a translation is rounded to float32, then its mantissa
 * cut to the half's 10 bits (toward zero), below 2^-14 in magnitude +0
 * (no subnormal halves, no -0), 65536 or more (inf too) the largest
 * finite half (65504) of its sign, NaN +0. */
int16_t rtm_bmtr_quat_q(double v);
uint16_t rtm_bmtr_half(double v);
/* Packs a quaternion (x, y, z, w) and a translation so into a 14-byte
 * BMTR transform, little-endian. */
void rtm_pack_transform(uint8_t out[14], const float q[4], const float t[3]);

#endif
