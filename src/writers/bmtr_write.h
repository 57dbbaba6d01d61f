/* bmtr_write.h - the project's own BMTR writer, for test fixtures, samples
 * and fuzz seeds.  It writes every layout the reader accepts.
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

/* Packs a quaternion (x, y, z, w; rounded to v*16384) and a translation
 * (to IEEE half, round to nearest even) into a 14-byte BMTR transform. */
void rtm_pack_transform(uint8_t out[14], const float q[4], const float t[3]);
uint16_t rtm_float_to_half(float f);

#endif
