/* test_plain.c - the plain RTM reader and writer (rtm(5), PLAIN RTM).
 *
 * Files are built byte by byte here, independently of the project's sample
 * writer, so that the reader is checked against the layout in the spec. */
#include "testutil.h"

#include <math.h>

/* ---- building plain files -------------------------------------------- */

/* A 32-byte name field: n bytes of raw (which may hold a NUL and junk),
 * zero-padded. */
static void put_field(struct rtm_buf *b, const char *raw, size_t n)
{
    char f[32] = { 0 };
    assert_true(n <= 32);
    memcpy(f, raw, n);
    rtm_buf_put(b, f, 32);
}

static void put_header(struct rtm_buf *b, const float motion[3], uint32_t nf, uint32_t nb)
{
    rtm_buf_put(b, "RTM_0101", 8);
    for (int i = 0; i < 3; i++)
        rtm_buf_put_f32(b, motion[i]);
    rtm_buf_put_u32(b, nf);
    rtm_buf_put_u32(b, nb);
}

static void put_lascii(struct rtm_buf *b, const char *s, size_t n)
{
    assert_true(n <= 255);
    rtm_buf_putc(b, (char)n);
    rtm_buf_put(b, s, n);
}

static float bits_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A distinct, bit-pattern-rich matrix per (frame, bone): -0, a NaN with a
 * payload, infinities, a subnormal, and values that identify the cell. */
static void fill_matrix(float m[12], uint32_t f, uint32_t b)
{
    for (int k = 0; k < 12; k++)
        m[k] = (float)(f * 1000 + b * 10 + (uint32_t)k) + 0.25f;
    m[1] = -0.0f;
    m[4] = bits_f(0x7fc01234u + f);   /* NaN with a payload */
    m[5] = bits_f(0xff800000u);       /* -inf */
    m[7] = bits_f(0x00000001u + b);   /* subnormal */
}

/* The model's matrices must hold exactly the bytes that were written. */
static void check_matrices(const struct rtm_anim *a)
{
    for (uint32_t f = 0; f < a->nframes; f++)
        for (uint32_t b = 0; b < a->nbones; b++) {
            float m[12];
            fill_matrix(m, f, b);
            assert_memory_equal(rtm_matrix(a, f, b), m, sizeof m);
        }
}

/* Name fields used below: a clean one, one with junk after the NUL (the
 * remains of "LeftHand"), and a 32-byte field without any NUL. */
static const char JUNK_FIELD[] = "Head\0and\0\x7f\xff";
static const char FULL_FIELD[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

static const float MOTION[3] = { 1.0f, 3.0f, -2.5f };

/* Three bones, nf frames; header and per-frame names may carry junk. */
static void build_three_bones(struct rtm_buf *b, uint32_t nf, int junk)
{
    put_header(b, MOTION, nf, 3);
    put_field(b, "Pelvis", 6);
    if (junk)
        put_field(b, JUNK_FIELD, sizeof JUNK_FIELD - 1);
    else
        put_field(b, "Head", 4);
    put_field(b, FULL_FIELD, 32);
    for (uint32_t f = 0; f < nf; f++) {
        rtm_buf_put_f32(b, (float)f / 4.0f);
        for (uint32_t bone = 0; bone < 3; bone++) {
            if (bone == 0)
                put_field(b, junk ? "Pelvis\0xyz" : "Pelvis", junk ? 10 : 6);
            else if (bone == 1)
                put_field(b, "Head", 4);
            else
                put_field(b, FULL_FIELD, 32);
            float m[12];
            fill_matrix(m, f, bone);
            rtm_buf_put(b, m, sizeof m);
        }
    }
}

static int parse_err(const struct rtm_buf *b, struct rtm_error *err)
{
    static struct rtm_anim sentinel;
    struct rtm_anim *a = &sentinel; /* must become NULL */
    memset(err, 0, sizeof *err);
    int rc = rtm_parse((const uint8_t *)b->p, b->len, NULL, &a, err);
    assert_null(a);
    return rc;
}

/* ---- reader ----------------------------------------------------------- */

static void reads_model(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    build_three_bones(&b, 4, 1);
    struct rtm_anim *a = parse_ok(&b, "none");
    assert_int_equal(a->format, RTM_FORMAT_PLAIN);
    assert_int_equal(a->version, 0);
    assert_memory_equal(a->motion, MOTION, sizeof MOTION);
    assert_int_equal(a->nframes, 4);
    assert_int_equal(a->nbones, 3);
    assert_int_equal(a->nprops, 0);
    assert_false(a->has_mdat);
    assert_int_equal(a->trailing_bytes, 0);
    assert_int_equal(a->source_bytes, b.len);
    assert_memory_equal(a->source, b.p, b.len);
    /* names: cut at the first NUL; a field without NUL is all 32 bytes */
    assert_string_equal(a->bones[0].s, "Pelvis");
    assert_int_equal(a->bones[0].len, 6);
    assert_string_equal(a->bones[1].s, "Head");
    assert_int_equal(a->bones[1].len, 4);
    assert_int_equal(a->bones[2].len, 32);
    assert_memory_equal(a->bones[2].s, FULL_FIELD, 32);
    assert_int_equal(a->bones[2].s[32], 0);
    for (uint32_t f = 0; f < 4; f++)
        assert_true(a->phases[f] == (float)f / 4.0f);
    check_matrices(a);
    rtm_free(a);

    /* bytes after the last frame are tolerated and counted */
    rtm_buf_put(&b, "\0\1\2\3\4", 5);
    a = parse_ok(&b, "none");
    assert_int_equal(a->trailing_bytes, 5);
    assert_int_equal(a->nframes, 4);
    assert_int_equal(a->source_bytes, b.len);
    check_matrices(a);
    rtm_free(a);
    rtm_buf_free(&b);
}

static void zero_frames_and_zero_bones(void **state)
{
    (void)state;
    struct rtm_buf b;
    /* no frames, three bones */
    rtm_buf_init(&b);
    build_three_bones(&b, 0, 0);
    struct rtm_anim *a = parse_ok(&b, "none");
    assert_int_equal(a->nframes, 0);
    assert_int_equal(a->nbones, 3);
    assert_string_equal(a->bones[1].s, "Head");
    rtm_free(a);
    rtm_buf_free(&b);
    /* frames of no bones: each frame is just its phase */
    rtm_buf_init(&b);
    put_header(&b, MOTION, 2, 0);
    rtm_buf_put_f32(&b, 0.0f);
    rtm_buf_put_f32(&b, 1.0f);
    a = parse_ok(&b, "none");
    assert_int_equal(a->nframes, 2);
    assert_int_equal(a->nbones, 0);
    assert_true(a->phases[1] == 1.0f);
    assert_int_equal(a->trailing_bytes, 0);
    rtm_free(a);
    rtm_buf_free(&b);
    /* nothing at all */
    rtm_buf_init(&b);
    put_header(&b, MOTION, 0, 0);
    a = parse_ok(&b, "none");
    assert_int_equal(a->nframes, 0);
    assert_int_equal(a->nbones, 0);
    assert_int_equal(a->source_bytes, 28);
    rtm_free(a);
    rtm_buf_free(&b);
}

/* A cut anywhere before the end of the last frame is an error whose offset
 * lies inside the file. */
static void every_cut_fails(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    build_three_bones(&b, 2, 1);
    size_t full = b.len;
    for (size_t cut = 0; cut < full; cut++) {
        struct rtm_buf c;
        rtm_buf_init(&c);
        rtm_buf_put(&c, b.p, cut);
        struct rtm_error err;
        if (parse_err(&c, &err) != -1)
            fail_msg("cut at %zu of %zu parsed", cut, full);
        assert_true(err.offset <= cut);
        assert_true(err.msg[0] != 0);
        rtm_buf_free(&c);
    }
    rtm_buf_free(&b);
}

/* Absurd counts fail before any allocation (ASan would report a huge one). */
static void huge_counts_fail(void **state)
{
    (void)state;
    static const uint32_t counts[][2] = {
        { 0xffffffffu, 0xffffffffu }, { 1, 0xffffffffu }, { 0xffffffffu, 0 },
        { 0x10000000u, 1 }, { 2, 1 },
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        struct rtm_buf b;
        rtm_buf_init(&b);
        put_header(&b, MOTION, counts[i][0], counts[i][1]);
        put_field(&b, "Pelvis", 6);
        rtm_buf_put_f32(&b, 0.0f); /* not enough for even one frame of one bone */
        struct rtm_error err;
        assert_int_equal(parse_err(&b, &err), -1);
        assert_true(err.has_offset);
        assert_true(strstr(err.msg, "claims") != NULL);
        rtm_buf_free(&b);
    }
}

/* MDAT with odd strings: an empty name, a NUL, bytes > 127, quotes, a
 * backslash and a 255-byte value. */
static void mdat_properties(void **state)
{
    (void)state;
    char long_value[255];
    for (int i = 0; i < 255; i++)
        long_value[i] = (char)('a' + i % 26);
    static const char odd[] = "a\0b\"c\\d\xff\x01";
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_put(&b, "RTM_MDAT", 8);
    rtm_buf_put_u32(&b, 0);
    rtm_buf_put_u32(&b, 3);
    rtm_buf_put_f32(&b, 0.2105f);
    put_lascii(&b, "Step", 4);
    put_lascii(&b, "Sound", 5);
    rtm_buf_put_f32(&b, -0.0f);
    put_lascii(&b, "", 0);
    put_lascii(&b, odd, sizeof odd - 1);
    rtm_buf_put_f32(&b, 0.4737f);
    put_lascii(&b, odd, sizeof odd - 1);
    put_lascii(&b, long_value, 255);
    size_t mdat_len = b.len;
    build_three_bones(&b, 2, 0);
    struct rtm_anim *a = parse_ok(&b, "none");
    assert_true(a->has_mdat);
    assert_int_equal(a->nprops, 3);
    assert_int_equal(a->nframes, 2);
    assert_int_equal(a->nbones, 3);
    check_matrices(a);
    const struct rtm_prop *p = a->props;
    for (int i = 0; i < 3; i++)
        assert_int_equal(p[i].type_id, -1);
    assert_true(p[0].phase == 0.2105f);
    assert_string_equal(p[0].name.s, "Step");
    assert_string_equal(p[0].value.s, "Sound");
    assert_true(p[1].phase == 0 && signbit(p[1].phase));
    assert_int_equal(p[1].name.len, 0);
    assert_int_equal(p[1].value.len, sizeof odd - 1);
    assert_memory_equal(p[1].value.s, odd, sizeof odd - 1); /* NUL kept inside */
    assert_int_equal(p[2].name.len, sizeof odd - 1);
    assert_int_equal(p[2].value.len, 255);
    assert_memory_equal(p[2].value.s, long_value, 255);
    assert_int_equal(a->source_bytes, b.len);
    assert_true(b.len > mdat_len);
    rtm_free(a);

    /* MDAT followed by anything but RTM_0101: the offset is where the
     * second signature should be */
    struct rtm_buf c;
    rtm_buf_init(&c);
    rtm_buf_put(&c, b.p, mdat_len);
    rtm_buf_put(&c, "RTM_0102", 8);
    rtm_buf_put(&c, b.p + mdat_len + 8, b.len - mdat_len - 8);
    struct rtm_error err;
    assert_int_equal(parse_err(&c, &err), -1);
    assert_true(err.has_offset);
    assert_int_equal(err.offset, mdat_len);
    assert_int_equal(err.offset, 8 + 4 + 4 + (4 + 5 + 6) + (4 + 1 + 10) + (4 + 10 + 256));
    assert_non_null(strstr(err.msg, "RTM_0101"));
    rtm_buf_free(&c);

    /* MDAT ending right after its properties */
    rtm_buf_init(&c);
    rtm_buf_put(&c, b.p, mdat_len);
    assert_int_equal(parse_err(&c, &err), -1);
    assert_int_equal(err.offset, mdat_len);
    rtm_buf_free(&c);
    rtm_buf_free(&b);
}

static void mdat_errors(void **state)
{
    (void)state;
    struct rtm_error err;
    struct rtm_buf b;
    /* more properties than bytes */
    rtm_buf_init(&b);
    rtm_buf_put(&b, "RTM_MDAT", 8);
    rtm_buf_put_u32(&b, 0);
    rtm_buf_put_u32(&b, 0x40000000u);
    build_three_bones(&b, 1, 0);
    assert_int_equal(parse_err(&b, &err), -1);
    assert_int_equal(err.offset, 12);
    assert_non_null(strstr(err.msg, "properties"));
    rtm_buf_free(&b);
    /* a string length past the end of the file */
    rtm_buf_init(&b);
    rtm_buf_put(&b, "RTM_MDAT", 8);
    rtm_buf_put_u32(&b, 0);
    rtm_buf_put_u32(&b, 1);
    rtm_buf_put_f32(&b, 0.5f);
    put_lascii(&b, "Step", 4);
    rtm_buf_putc(&b, (char)200);
    rtm_buf_put(&b, "short", 5);
    assert_int_equal(parse_err(&b, &err), -1);
    assert_non_null(strstr(err.msg, "property value"));
    assert_int_equal(err.offset, 8 + 4 + 4 + 4 + 5 + 1);
    rtm_buf_free(&b);
    /* a header cut inside MDAT */
    rtm_buf_init(&b);
    rtm_buf_put(&b, "RTM_MDAT\0\0", 10);
    assert_int_equal(parse_err(&b, &err), -1);
    assert_int_equal(err.offset, 8);
    rtm_buf_free(&b);
}

static void not_rtm(void **state)
{
    (void)state;
    struct rtm_error err;
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(parse_err(&b, &err), -1);
    assert_non_null(strstr(err.msg, "empty"));
    rtm_buf_puts(&b, "RTM_0100 and more bytes than a header has");
    assert_int_equal(parse_err(&b, &err), -1);
    assert_non_null(strstr(err.msg, "not an RTM"));
    assert_int_equal(err.offset, 0);
    rtm_buf_free(&b);
}

/* ---- writer ----------------------------------------------------------- */

static void write_of(const struct rtm_anim *a, struct rtm_buf *out)
{
    rtm_buf_init(out);
    assert_int_equal(rtm_write_plain(a, out), 0);
    assert_false(out->oom);
}

/* Without junk in any name field the writer reproduces the source bytes;
 * with junk it zeroes what follows each NUL and nothing else changes. */
static void write_reproduces_source(void **state)
{
    (void)state;
    for (int junk = 0; junk <= 1; junk++) {
        struct rtm_buf src, out, expect;
        rtm_buf_init(&src);
        build_three_bones(&src, 3, junk);
        struct rtm_anim *a = parse_ok(&src, "none");
        write_of(a, &out);
        rtm_buf_init(&expect);
        build_three_bones(&expect, 3, 0);
        assert_int_equal(out.len, expect.len);
        assert_memory_equal(out.p, expect.p, expect.len);
        /* and the model survives the round trip */
        struct rtm_anim *a2 = parse_ok(&out, "none");
        assert_int_equal(a2->nframes, 3);
        assert_int_equal(a2->nbones, 3);
        assert_memory_equal(a2->motion, a->motion, sizeof a->motion);
        for (uint32_t i = 0; i < 3; i++) {
            assert_int_equal(a2->bones[i].len, a->bones[i].len);
            assert_memory_equal(a2->bones[i].s, a->bones[i].s, a->bones[i].len);
        }
        assert_memory_equal(a2->phases, a->phases, 3 * sizeof(float));
        check_matrices(a2);
        rtm_free(a2);
        rtm_free(a);
        rtm_buf_free(&expect);
        rtm_buf_free(&out);
        rtm_buf_free(&src);
    }
}

/* A file with MDAT, sorted phases and clean names is written back byte
 * for byte, MDAT included. */
static void write_reproduces_mdat(void **state)
{
    (void)state;
    struct rtm_buf src, out;
    rtm_buf_init(&src);
    rtm_buf_put(&src, "RTM_MDAT", 8);
    rtm_buf_put_u32(&src, 0);
    rtm_buf_put_u32(&src, 2);
    rtm_buf_put_f32(&src, 0.25f);
    put_lascii(&src, "Step", 4);
    put_lascii(&src, "So\xffund", 6);
    rtm_buf_put_f32(&src, 0.5f);
    put_lascii(&src, "Test", 4);
    put_lascii(&src, "", 0);
    build_three_bones(&src, 2, 0);
    struct rtm_anim *a = parse_ok(&src, "none");
    write_of(a, &out);
    assert_int_equal(out.len, src.len);
    assert_memory_equal(out.p, src.p, src.len);
    rtm_free(a);
    rtm_buf_free(&out);
    rtm_buf_free(&src);
}

/* Frames and properties come out stably sorted by phase: equal phases
 * (including 0 and -0, which compare equal) keep their file order. */
static void write_sorts_stably(void **state)
{
    (void)state;
    static const float phases[] = { 0.5f, 0.1f, 0.5f, 0.0f, 0.1f, -0.0f, 1.0f };
    enum { NF = sizeof phases / sizeof phases[0] };
    static const uint32_t order[NF] = { 3, 5, 1, 4, 0, 2, 6 };
    static const float pphase[] = { 0.9f, 0.1f, 0.9f, 0.1f };
    static const uint32_t porder[] = { 1, 3, 0, 2 };
    struct rtm_buf src;
    rtm_buf_init(&src);
    rtm_buf_put(&src, "RTM_MDAT", 8);
    rtm_buf_put_u32(&src, 0);
    rtm_buf_put_u32(&src, 4);
    for (int i = 0; i < 4; i++) {
        char name[2] = { (char)('A' + i), 0 };
        rtm_buf_put_f32(&src, pphase[i]);
        put_lascii(&src, name, 1);
        put_lascii(&src, "v", 1);
    }
    put_header(&src, MOTION, NF, 2);
    put_field(&src, "a", 1);
    put_field(&src, "b", 1);
    for (uint32_t f = 0; f < NF; f++) {
        rtm_buf_put_f32(&src, phases[f]);
        for (uint32_t bone = 0; bone < 2; bone++) {
            put_field(&src, bone ? "b" : "a", 1);
            float m[12];
            fill_matrix(m, f, bone);
            rtm_buf_put(&src, m, sizeof m);
        }
    }
    struct rtm_anim *a = parse_ok(&src, "none");
    /* the reader keeps file order */
    assert_memory_equal(a->phases, phases, sizeof phases);
    struct rtm_buf out;
    write_of(a, &out);
    struct rtm_anim *w = parse_ok(&out, "none");
    assert_int_equal(w->nframes, NF);
    for (uint32_t i = 0; i < NF; i++) {
        uint32_t f = order[i];
        assert_memory_equal(&w->phases[i], &phases[f], sizeof(float)); /* -0 stays -0 */
        for (uint32_t bone = 0; bone < 2; bone++) {
            float m[12];
            fill_matrix(m, f, bone);
            assert_memory_equal(rtm_matrix(w, i, bone), m, sizeof m);
        }
    }
    assert_int_equal(w->nprops, 4);
    for (uint32_t i = 0; i < 4; i++) {
        assert_true(w->props[i].phase == pphase[porder[i]]);
        assert_int_equal(w->props[i].name.s[0], 'A' + (int)porder[i]);
    }
    rtm_free(w);
    rtm_free(a);
    rtm_buf_free(&out);
    rtm_buf_free(&src);
}

/* The same with many frames and only three distinct phases, so that an
 * unstable sort (introsort, heapsort) would show. */
static void write_sorts_stably_many(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, N, 1, 0, 8, RTM_DEPTH_FULL);
    assert_non_null(a);
    a->bones[0] = rtm_anim_str(a, "b", 1);
    for (uint32_t f = 0; f < N; f++) {
        a->phases[f] = (float)((f * 7u + f / 5u) % 3u) / 2.0f;
        for (int k = 0; k < 12; k++)
            a->matrices[f * 12 + (uint32_t)k] = (float)f;
    }
    struct rtm_buf out;
    write_of(a, &out);
    struct rtm_anim *w = parse_ok(&out, "none");
    assert_int_equal(w->nframes, N);
    for (uint32_t i = 1; i < N; i++) {
        float p0 = w->phases[i - 1], p1 = w->phases[i];
        float f0 = rtm_matrix(w, i - 1, 0)[0], f1 = rtm_matrix(w, i, 0)[0];
        assert_true(p0 <= p1);
        if (p0 == p1 && !(f0 < f1))
            fail_msg("frames %g and %g of equal phase %g swapped", (double)f0,
                     (double)f1, (double)p0);
    }
    rtm_free(w);
    rtm_free(a);
    rtm_buf_free(&out);
}

/* Phases that already ascend keep file order, equal ones (-0 and 0
 * too) included; a NaN among them still goes last. */
static void phase_order_sorted(void **state)
{
    (void)state;
    static const float sorted[] = { -1.0f, -0.0f, 0.0f, 0.0f, 0.5f, 0.5f, 1.0f };
    static const float nan_in[] = { 0.0f, NAN, 0.5f, 1.0f };
    static const uint32_t nan_last[] = { 0, 2, 3, 1 };
    enum { NS = sizeof sorted / sizeof sorted[0], NN = sizeof nan_in / sizeof nan_in[0] };
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, NS, 0, 0, 1, RTM_DEPTH_LIGHT);
    assert_non_null(a);
    memcpy(a->phases, sorted, sizeof sorted);
    uint32_t *o = rtm_phase_order(a);
    assert_non_null(o);
    for (uint32_t i = 0; i < NS; i++)
        assert_int_equal(o[i], i);
    free(o);
    memcpy(a->phases, nan_in, sizeof nan_in);
    a->nframes = NN;
    o = rtm_phase_order(a);
    assert_non_null(o);
    assert_memory_equal(o, nan_last, sizeof nan_last);
    free(o);
    rtm_free(a);
}

/* An anim built in memory: a name longer than 32 bytes is cut to 32, an
 * MDAT string longer than 255 to 255, and zero frames write a file that
 * reads back (the reference refuses it; we keep the header). */
static void write_limits(void **state)
{
    (void)state;
    char long_name[40], long_value[300];
    memset(long_name, 'n', sizeof long_name);
    memset(long_value, 'v', sizeof long_value);
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, 0, 1, 1,
                                        sizeof long_name + sizeof long_value + 8, RTM_DEPTH_FULL);
    assert_non_null(a);
    a->bones[0] = rtm_anim_str(a, long_name, sizeof long_name);
    a->props[0].phase = 0.5f;
    a->props[0].name = rtm_anim_str(a, "k", 1);
    a->props[0].value = rtm_anim_str(a, long_value, sizeof long_value);
    a->props[0].type_id = 0;
    struct rtm_buf out;
    write_of(a, &out);
    struct rtm_anim *w = parse_ok(&out, "none");
    assert_int_equal(w->nframes, 0);
    assert_int_equal(w->nbones, 1);
    assert_int_equal(w->bones[0].len, 32);
    assert_memory_equal(w->bones[0].s, long_name, 32);
    assert_int_equal(w->nprops, 1);
    assert_int_equal(w->props[0].value.len, 255);
    assert_memory_equal(w->props[0].value.s, long_value, 255);
    assert_int_equal(out.len, 8 + 4 + 4 + 4 + 2 + 256 + 28 + 32);
    rtm_free(w);
    rtm_free(a);
    rtm_buf_free(&out);
}

/* What write_in_pieces' flush gets: every piece, and how many. */
struct pieces {
    struct rtm_buf got;
    int calls, fail_at;             /* the call that fails (0: none) */
};

static int take_piece(void *ctx, struct rtm_buf *out)
{
    struct pieces *p = ctx;
    p->calls++;
    rtm_buf_put(&p->got, out->p, out->len);
    out->len = 0;
    return p->calls == p->fail_at ? -1 : 0;
}

/* rtm_write_plain_each hands out the bytes rtm_write_plain writes, in
 * pieces of chunk bytes or more (the last excepted) holding about a piece
 * and a frame; a flush that fails stops it; a counting buffer counts the
 * file holding about a frame, not the file. */
static void write_in_pieces(void **state)
{
    (void)state;
    struct rtm_buf src, whole;
    rtm_buf_init(&src);
    build_three_bones(&src, 5, 1);
    struct rtm_anim *a = parse_ok(&src, "none");
    write_of(a, &whole);
    static const size_t chunks[] = { 1, 100, 300, SIZE_MAX };
    static const int calls[] = { 5, 5, 3, 1 };
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        struct pieces p = { .fail_at = 0 };
        struct rtm_buf out;
        rtm_buf_init(&p.got);
        rtm_buf_init(&out);
        assert_int_equal(rtm_write_plain_each(a, &out, chunks[i], take_piece, &p), 0);
        assert_int_equal(p.got.len, whole.len);
        assert_memory_equal(p.got.p, whole.p, whole.len);
        assert_int_equal(p.calls, calls[i]);
        if (chunks[i] == 1)
            assert_true(out.cap < whole.len);
        rtm_buf_free(&out);
        rtm_buf_free(&p.got);
    }
    struct pieces p = { .fail_at = 2 };
    struct rtm_buf out;
    rtm_buf_init(&p.got);
    rtm_buf_init(&out);
    assert_int_equal(rtm_write_plain_each(a, &out, 1, take_piece, &p), -1);
    assert_int_equal(p.calls, 2);
    rtm_buf_free(&out);
    rtm_buf_free(&p.got);
    rtm_buf_init_counting(&out, 64);
    assert_int_equal(rtm_write_plain(a, &out), 0);
    assert_int_equal(rtm_buf_total(&out), whole.len);
    assert_true(out.cap < whole.len);
    rtm_buf_free(&out);
    rtm_free(a);
    rtm_buf_free(&whole);
    rtm_buf_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_model),
        cmocka_unit_test(zero_frames_and_zero_bones),
        cmocka_unit_test(every_cut_fails),
        cmocka_unit_test(huge_counts_fail),
        cmocka_unit_test(mdat_properties),
        cmocka_unit_test(mdat_errors),
        cmocka_unit_test(not_rtm),
        cmocka_unit_test(write_reproduces_source),
        cmocka_unit_test(write_reproduces_mdat),
        cmocka_unit_test(write_sorts_stably),
        cmocka_unit_test(write_sorts_stably_many),
        cmocka_unit_test(phase_order_sorted),
        cmocka_unit_test(write_limits),
        cmocka_unit_test(write_in_pieces),
    };
    return run_test_cases(tests, NULL, NULL);
}
