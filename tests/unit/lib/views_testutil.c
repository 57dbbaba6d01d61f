/* views_testutil.c - what views_testutil.h declares, compiled once into librtmtest.a. */
#include "views_testutil.h"


/* An anim with only counts, for naming and lookup. */
struct rtm_anim *counts_only(uint32_t nframes)
{
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, nframes, 0, 0, 0, RTM_DEPTH_FULL);
    assert_non_null(a);
    return a;
}

void put_field(struct rtm_buf *b, const char *raw, size_t n)
{
    char f[32] = { 0 };
    memcpy(f, raw, n);
    rtm_buf_put(b, f, 32);
}

/* Awkward bone names: a comma, a quote, a backslash, a byte > 127 and one
 * with junk after its NUL. */
const char *const NAMES[] = { "Pelvis", "x,y", "say \"hi\"", "back\\slash\xe9",
                                     "Head\0junk" };
static const size_t NAME_LEN[] = { 6, 3, 8, 11, 9 };

float cell(uint32_t f, uint32_t b, int k)
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
static void build_plain(struct rtm_buf *b, int props)
{
    rtm_buf_init(b);
    if (props) {
        rtm_buf_put(b, "RTM_MDAT", 8);
        rtm_buf_put_u32(b, 0);
        rtm_buf_put_u32(b, 3);
        rtm_buf_put_f32(b, 0.25f);
        rtm_buf_put(b, "\x04Step\x05Sound", 11);
        rtm_buf_put_f32(b, NAN);
        rtm_buf_put(b, "\x03q\"\\\x02\x01\n", 7);
        rtm_buf_put_f32(b, -0.0f);
        rtm_buf_put(b, "\x00\x00", 2);
    }
    rtm_buf_put(b, "RTM_0101", 8);
    rtm_buf_put_f32(b, 0.5f);
    rtm_buf_put_f32(b, 0.0f);
    rtm_buf_put_f32(b, -1.25f);
    rtm_buf_put_u32(b, NF);
    rtm_buf_put_u32(b, NB);
    for (uint32_t i = 0; i < NB; i++)
        put_field(b, NAMES[i], NAME_LEN[i]);
    for (uint32_t f = 0; f < NF; f++) {
        rtm_buf_put_f32(b, (float)f * 0.5f);
        for (uint32_t i = 0; i < NB; i++) {
            put_field(b, NAMES[i], NAME_LEN[i]);
            for (int k = 0; k < 12; k++)
                rtm_buf_put_f32(b, cell(f, i, k));
        }
    }
    rtm_buf_put(b, "trail", 5);
}

struct rtm_anim *plain_anim(int props, struct rtm_buf *src)
{
    build_plain(src, props);
    return parse_ok(src, "none");
}

struct rtm_anim *bmtr_anim(uint32_t version, uint32_t nframes, uint32_t nbones,
                           uint32_t nprops)
{
    struct sample_opts o = { nframes, nbones, 9, nprops };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, version, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    rtm_buf_free(&b);
    return a;
}

char *render_path(const struct rtm_anim *a, const char *path, size_t *len)
{
    struct rtm_view v;
    if (rtm_view_lookup(a, path, &v))
        fail_msg("no view %s", path);
    return render(a, v, len);
}
