/* bmtr_write.c - writes BMTR files (rtm(5), BMTR) from a spec, and packs
 * transforms as binarise quantises them (bmtr_write.h). */
#include "bmtr_write.h"

#include <math.h>

#include "lzo.h"

int16_t rtm_bmtr_quat_q(double v)
{
    double s = nearbyint(v * 16384.0);
    if (!(s == s))                      /* NaN */
        return 0;
    return (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
}

uint16_t rtm_bmtr_half(double v)
{
    float f = (float)v;                 /* nearest float32 first */
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
    if (ax > 0x7f800000)                /* NaN */
        return 0;
    if (ax < 0x38800000)                /* below 2^-14: +0 */
        return 0;
    if (ax >= 0x47800000)               /* 65536 or more, inf */
        return (uint16_t)(sign | 0x7bff);
    return (uint16_t)(sign | ((ax >> 23) - 127 + 15) << 10 | (ax >> 13 & 0x3ff));
}

void rtm_pack_transform(uint8_t out[14], const float q[4], const float t[3])
{
    for (int i = 0; i < 4; i++) {
        uint16_t v = (uint16_t)rtm_bmtr_quat_q(q[i]);
        out[2 * i] = (uint8_t)(v & 0xff), out[2 * i + 1] = (uint8_t)(v >> 8);
    }
    for (int i = 0; i < 3; i++) {
        uint16_t h = rtm_bmtr_half(t[i]);
        out[8 + 2 * i] = (uint8_t)(h & 0xff), out[9 + 2 * i] = (uint8_t)(h >> 8);
    }
}

static void put_asciiz(struct rtm_buf *b, const char *s) { rtm_buf_put(b, s, strlen(s) + 1); }

static int put_array(struct rtm_buf *b, const struct bmtr_spec *s, const void *data,
                     uint32_t count, size_t elem)
{
    size_t size = (size_t)count * elem;
    rtm_buf_put_u32(b, count);
    int flags = s->version >= 5 || (s->version == 4 && s->v4_flags);
    int lzo;
    if (flags) {
        lzo = size > 0 && (s->compress == BMTR_COMPRESS_ALL ||
                           (s->compress == BMTR_COMPRESS_AUTO && size >= 1024));
        if (size > 0 || s->empty_flag)
            rtm_buf_putc(b, lzo ? 2 : 0);
    } else {
        lzo = size >= 1024;
    }
    if (!lzo) {
        rtm_buf_put(b, data, size);
        return 0;
    }
    return rtm_lzo_encode(data, size, b);
}

int rtm_write_bmtr(const struct bmtr_spec *s, struct rtm_buf *out)
{
    if (rtm_lzo_init())
        return -1;
    rtm_buf_put(out, "BMTR", 4);
    rtm_buf_put_u32(out, s->version);
    rtm_buf_putc(out, (char)s->byte8);
    rtm_buf_put(out, s->motion, sizeof s->motion);
    rtm_buf_put_u32(out, s->nframes);
    rtm_buf_put_u32(out, s->preload);
    rtm_buf_put_u32(out, s->nbones);
    rtm_buf_put_u32(out, s->nbones);
    for (uint32_t i = 0; i < s->nbones; i++)
        put_asciiz(out, s->names[i]);
    if (s->version >= 4) {
        rtm_buf_put_u32(out, s->nmeta);
        for (uint32_t i = 0; i < s->nmeta; i++)
            put_asciiz(out, s->meta[i]);
        rtm_buf_put_u32(out, s->nprops);
        for (uint32_t i = 0; i < s->nprops; i++) {
            rtm_buf_put(out, &s->props[i].type_id, 4);
            put_asciiz(out, s->props[i].name);
            rtm_buf_put_f32(out, s->props[i].phase);
            put_asciiz(out, s->props[i].value);
        }
    }
    if (put_array(out, s, s->phases, s->nframes, 4))
        return -1;
    size_t frame_bytes = (size_t)s->nbones * 14;
    for (uint32_t f = 0; f < s->nframes; f++)
        if (put_array(out, s, s->transforms + f * frame_bytes, s->nbones, 14))
            return -1;
    return out->oom ? -1 : 0;
}
