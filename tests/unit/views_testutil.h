/* views_testutil.h - the animations the view tests share (test_views,
 * test_view_names, test_views_agree): one with counts only, for naming and
 * lookup; a plain file written by hand with awkward bone names (a comma, a
 * quote, a backslash, a byte > 127, junk after a NUL), special numbers, an
 * optional MDAT block and trailing bytes; the writer's BMTR samples; and a
 * view rendered by its path. */
#ifndef RTM_VIEWS_TESTUTIL_H
#define RTM_VIEWS_TESTUTIL_H

#include <math.h>

#include "testutil.h"

/* An anim with only counts, for naming and lookup. */
static inline struct rtm_anim *counts_only(uint32_t nframes)
{
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, nframes, 0, 0, 0, 1);
    assert_non_null(a);
    return a;
}

static inline void put_field(struct rtm_buf *b, const char *raw, size_t n)
{
    char f[32] = { 0 };
    memcpy(f, raw, n);
    buf_put(b, f, 32);
}

/* Awkward bone names: a comma, a quote, a backslash, a byte > 127 and one
 * with junk after its NUL. */
static const char *const NAMES[] = { "Pelvis", "x,y", "say \"hi\"", "back\\slash\xe9",
                                     "Head\0junk" };
static const size_t NAME_LEN[] = { 6, 3, 8, 11, 9 };
enum { NB = 5, NF = 3 };

static inline float cell(uint32_t f, uint32_t b, int k)
{
    /* special values in a few cells, ordinary ones elsewhere */
    if (k == 1)
        return -0.0f;
    if (k == 2 && b == 0)
        return NAN;
    if (k == 3 && b == 1)
        return -(float)INFINITY;
    if (k == 4 && b == 2)
        return 1e-45f;
    if (k == 5 && b == 3)
        return 1e+30f;
    return (float)((f + 1) * 0.1 + b * 0.37 + k * 1e-3);
}

/* A plain file with an MDAT block (when props) and 5 trailing bytes. */
static inline void build_plain(struct rtm_buf *b, int props)
{
    buf_init(b);
    if (props) {
        buf_put(b, "RTM_MDAT", 8);
        buf_put_u32(b, 0);
        buf_put_u32(b, 3);
        buf_put_f32(b, 0.25f);
        buf_put(b, "\x04Step\x05Sound", 11);
        buf_put_f32(b, NAN);
        buf_put(b, "\x03q\"\\\x02\x01\n", 7);
        buf_put_f32(b, -0.0f);
        buf_put(b, "\x00\x00", 2);
    }
    buf_put(b, "RTM_0101", 8);
    buf_put_f32(b, 0.5f);
    buf_put_f32(b, 0.0f);
    buf_put_f32(b, -1.25f);
    buf_put_u32(b, NF);
    buf_put_u32(b, NB);
    for (uint32_t i = 0; i < NB; i++)
        put_field(b, NAMES[i], NAME_LEN[i]);
    for (uint32_t f = 0; f < NF; f++) {
        buf_put_f32(b, (float)f * 0.5f);
        for (uint32_t i = 0; i < NB; i++) {
            put_field(b, NAMES[i], NAME_LEN[i]);
            for (int k = 0; k < 12; k++)
                buf_put_f32(b, cell(f, i, k));
        }
    }
    buf_put(b, "trail", 5);
}

static inline struct rtm_anim *plain_anim(int props, struct rtm_buf *src)
{
    build_plain(src, props);
    return parse_ok(src, "none");
}

static inline struct rtm_anim *bmtr_anim(uint32_t version, uint32_t nframes, uint32_t nbones,
                                  uint32_t nprops)
{
    struct sample_opts o = { nframes, nbones, 9, nprops };
    struct rtm_buf b;
    buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, version, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    buf_free(&b);
    return a;
}

static inline char *render_path(const struct rtm_anim *a, const char *path, size_t *len)
{
    struct rtm_view v;
    if (rtm_view_lookup(a, path, &v))
        fail_msg("no view %s", path);
    return render(a, v, len);
}

#endif
