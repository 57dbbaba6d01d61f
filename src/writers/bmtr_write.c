/* bmtr_write.c - writes BMTR files (rtm(5), BMTR) from a spec. */
#include "bmtr_write.h"

#include <math.h>

#include "lzo.h"

uint16_t rtm_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
    if (ax >= 0x7f800000) /* inf or NaN */
        return (uint16_t)(sign | 0x7c00 | (ax > 0x7f800000 ? 0x200 : 0));
    if (ax >= 0x477ff000) /* rounds to >= 65520: overflow */
        return (uint16_t)(sign | 0x7c00);
    if (ax < 0x38800000) { /* subnormal half: scale exactly, round to even */
        float m = fabsf(f) * 0x1p24f;
        return (uint16_t)(sign | (uint32_t)nearbyintf(m));
    }
    uint32_t mant = ax & 0x7fffff, exp = (ax >> 23) - 127 + 15;
    uint32_t h = (exp << 10) | (mant >> 13), rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++; /* may carry into the exponent, which is right */
    return (uint16_t)(sign | h);
}

void rtm_pack_transform(uint8_t out[14], const float q[4], const float t[3])
{
    for (int i = 0; i < 4; i++) {
        float v = nearbyintf(q[i] * 16384.0f);
        int16_t s = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
        memcpy(out + 2 * i, &s, 2);
    }
    for (int i = 0; i < 3; i++) {
        uint16_t h = rtm_float_to_half(t[i]);
        memcpy(out + 8 + 2 * i, &h, 2);
    }
}

static void put_asciiz(struct rtm_buf *b, const char *s) { buf_put(b, s, strlen(s) + 1); }

static int put_array(struct rtm_buf *b, const struct bmtr_spec *s, const void *data,
                     uint32_t count, size_t elem)
{
    size_t size = (size_t)count * elem;
    buf_put_u32(b, count);
    int flags = s->version >= 5 || (s->version == 4 && s->v4_flags);
    int lzo;
    if (flags) {
        lzo = size > 0 && (s->compress == BMTR_COMPRESS_ALL ||
                           (s->compress == BMTR_COMPRESS_AUTO && size >= 1024));
        if (size > 0 || s->empty_flag)
            buf_putc(b, lzo ? 2 : 0);
    } else {
        lzo = size >= 1024;
    }
    if (!lzo) {
        buf_put(b, data, size);
        return 0;
    }
    return rtm_lzo_encode(data, size, b);
}

int rtm_write_bmtr(const struct bmtr_spec *s, struct rtm_buf *out)
{
    if (rtm_lzo_init())
        return -1;
    buf_put(out, "BMTR", 4);
    buf_put_u32(out, s->version);
    buf_putc(out, (char)s->byte8);
    buf_put(out, s->motion, sizeof s->motion);
    buf_put_u32(out, s->nframes);
    buf_put_u32(out, s->preload);
    buf_put_u32(out, s->nbones);
    buf_put_u32(out, s->nbones);
    for (uint32_t i = 0; i < s->nbones; i++)
        put_asciiz(out, s->names[i]);
    if (s->version >= 4) {
        buf_put_u32(out, s->nmeta);
        for (uint32_t i = 0; i < s->nmeta; i++)
            put_asciiz(out, s->meta[i]);
        buf_put_u32(out, s->nprops);
        for (uint32_t i = 0; i < s->nprops; i++) {
            buf_put(out, &s->props[i].type_id, 4);
            put_asciiz(out, s->props[i].name);
            buf_put_f32(out, s->props[i].phase);
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
