/* test_badinput_shapes.c - the parser on odd input made by hand: plain
 * names of 32 bytes without a NUL, zero frames and zero bones in every
 * layout (and every cut of them), hostile LZO streams (end markers only,
 * short output, runs without an end, random bytes, a replaced end marker;
 * in bounded time), and odd headers (stubs, unknown versions, bone counts
 * that differ, a 1025-byte name, NaN and infinities, trailing junk).  The
 * contract each parse is checked against: badinput_testutil.h; valid files
 * broken every way a program can enumerate: test_badinput.
 *
 * Regression: zero frames or zero bones made bmtr.c read_array() call
 * memcpy(NULL, src, 0) (UBSan nonnull-attribute); see zero_frames_and_bones.
 */
#include "testutil.h"
#include "badinput_testutil.h"

#include <math.h>

/* ---- hand-made shapes -------------------------------------------------- */

static void plain_names_without_nul(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    struct gen_plain g = { 3, 40, 0, 1, 0, 21 };
    make_plain(&g, &b);
    struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
    assert_int_equal(a->nbones, 40);
    for (uint32_t i = 0; i < a->nbones; i++) {
        assert_int_equal(a->bones[i].len, 32);
        assert_int_equal(strlen(a->bones[i].s), 32);
    }
    assert_memory_equal(a->bones[0].s, "Pelvis", 6);
    render_all(a, 0);
    /* plain.rtm keeps all 32 bytes: the same file comes back */
    struct rtm_buf p;
    rtm_buf_init(&p);
    assert_int_equal(rtm_view_render(a, (struct rtm_view){ .kind = RTM_VIEW_PLAIN, .frame = 0 }, &p), 0);
    struct rtm_anim *again = parse_must((const uint8_t *)p.p, p.len, 0);
    for (uint32_t i = 0; i < a->nbones; i++)
        assert_memory_equal(again->bones[i].s, a->bones[i].s, 32);
    rtm_free(again);
    rtm_buf_free(&p);
    rtm_free(a);
    /* 32 bytes without NUL in the frames only, and one name of 31 + NUL */
    rtm_buf_free(&b);
    struct gen_plain g2 = { 2, 3, 0, 0, 0, 22 };
    make_plain(&g2, &b);
    memset(b.p + 28 + 64, 'x', 31);
    b.p[28 + 64 + 31] = 0;
    memset(b.p + 28 + 96 + 4, 'y', 32);
    a = parse_must((const uint8_t *)b.p, b.len, 1);
    assert_int_equal(a->bones[2].len, 31);
    render_all(a, 1);
    rtm_free(a);
    rtm_buf_free(&b);
}

static void zero_frames_and_bones(void **state)
{
    (void)state;
    static const uint32_t shapes[][2] = { { 0, 5 }, { 4, 0 }, { 0, 0 }, { 1, 1 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        uint32_t nf = shapes[s][0], nb = shapes[s][1];
        for (uint32_t props = 0; props <= 2; props += 2) {
            struct rtm_buf b;
            rtm_buf_init(&b);
            struct gen_plain g = { nf, nb, props, 0, 0, 30 };
            make_plain(&g, &b);
            struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
            assert_int_equal(a->nframes, nf);
            assert_int_equal(a->nbones, nb);
            assert_int_equal(a->nprops, props);
            assert_int_equal(a->trailing_bytes, 0);
            render_all(a, 0);
            rtm_free(a);
            rtm_buf_free(&b);
        }
        static const struct { uint32_t v; int v4_flags, empty_flag; enum bmtr_compress c; }
            layouts[] = {
                { 3, 0, 0, BMTR_COMPRESS_AUTO }, { 4, 0, 0, BMTR_COMPRESS_AUTO },
                { 4, 1, 0, BMTR_COMPRESS_ALL },  { 4, 1, 1, BMTR_COMPRESS_ALL },
                { 5, 0, 0, BMTR_COMPRESS_ALL },  { 5, 0, 1, BMTR_COMPRESS_ALL },
                { 5, 0, 1, BMTR_COMPRESS_NONE },
            };
        for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
            struct rtm_buf b;
            rtm_buf_init(&b);
            struct gen_bmtr g = { layouts[l].v, nf, nb, 1, 2, layouts[l].c,
                                  layouts[l].v4_flags, layouts[l].empty_flag, 31 };
            make_bmtr(&g, &b);
            for (int k = 0; k < 2; k++) {
                struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, k);
                assert_int_equal(a->nframes, nf);
                assert_int_equal(a->nbones, nb);
                assert_int_equal(a->nprops, layouts[l].v >= 4 ? 2 : 0);
                render_all(a, k);
                rtm_free(a);
            }
            /* a cut fails, except that cutting the flag bytes of empty arrays
             * leaves the other valid reading of the same animation */
            for (size_t cut = 0; cut < b.len; cut++) {
                struct rtm_error err;
                if (parse_check((const uint8_t *)b.p, cut, 0, &err) == 0) {
                    if (!layouts[l].empty_flag)
                        fail_msg("v%u (%u frames, %u bones) cut to %zu bytes parsed",
                                 layouts[l].v, nf, nb, cut);
                    struct rtm_anim *a = parse_must((const uint8_t *)b.p, cut, 0);
                    assert_int_equal(a->nframes, nf);
                    assert_int_equal(a->nbones, nb);
                    rtm_free(a);
                } else if (!err.has_offset || err.offset > cut) {
                    fail_msg("cut BMTR: '%s' has no offset in the file", err.msg);
                }
            }
            rtm_buf_free(&b);
        }
    }
}

/* An LZO payload, wrapped as the only frame of a v5 file with 1 bone. */
static void v5_one_frame(struct rtm_buf *b, uint32_t nbones, const uint8_t *payload,
                         size_t n)
{
    rtm_buf_put(b, "BMTR", 4);
    rtm_buf_put_u32(b, 5);
    rtm_buf_putc(b, 1);
    float motion[3] = { 0, 0, 0 };
    rtm_buf_put(b, motion, sizeof motion);
    rtm_buf_put_u32(b, 1);
    rtm_buf_put_u32(b, 0);
    rtm_buf_put_u32(b, nbones);
    rtm_buf_put_u32(b, nbones);
    for (uint32_t i = 0; i < nbones; i++)
        rtm_buf_put(b, "b", 2);
    rtm_buf_put_u32(b, 0);  /* metadata */
    rtm_buf_put_u32(b, 0);  /* properties */
    rtm_buf_put_u32(b, 1);  /* phases: raw */
    rtm_buf_putc(b, 0);
    rtm_buf_put_f32(b, 0);
    rtm_buf_put_u32(b, nbones);
    rtm_buf_putc(b, 2);
    rtm_buf_put(b, payload, n);
}

static void lzo_hostile(void **state)
{
    (void)state;
    enum { BIG = 1 << 16 };
    uint8_t *p = malloc(BIG);
    assert_non_null(p);
    struct rtm_buf b;
    /* nothing but end markers: each try is a short stream */
    for (size_t i = 0; i + 3 <= BIG; i += 3)
        memcpy(p + i, "\x11\x00\x00", 3);
    rtm_buf_init(&b);
    v5_one_frame(&b, 1000, p, BIG / 3 * 3);
    double t0 = now();
    parse_fail((const uint8_t *)b.p, b.len, "LZO markers only");
    rtm_buf_free(&b);
    /* a literal run, then markers: a valid stream decodes to too few bytes */
    p[0] = 17 + 4;
    memcpy(p + 1, "abcd", 4);
    rtm_buf_init(&b);
    v5_one_frame(&b, 1, p, BIG / 3 * 3);
    parse_fail((const uint8_t *)b.p, b.len, "LZO short output");
    rtm_buf_free(&b);
    /* a long run of zero length bytes (extended lengths), no end */
    memset(p, 0, BIG);
    p[0] = 17 + 3;
    memcpy(p + 1, "abc", 3);
    rtm_buf_init(&b);
    v5_one_frame(&b, 3000, p, BIG);
    parse_fail((const uint8_t *)b.p, b.len, "LZO zero run");
    rtm_buf_free(&b);
    /* random bytes with markers sprinkled in */
    rng_state = 77;
    for (size_t i = 0; i < BIG; i++)
        p[i] = (uint8_t)rng();
    for (size_t i = 0; i + 3 < BIG; i += 1 + rng() % 200)
        memcpy(p + i, "\x11\x00\x00", 3);
    for (uint32_t nb = 1; nb < 5000; nb = nb * 3 + 1) {
        rtm_buf_init(&b);
        v5_one_frame(&b, nb, p, BIG);
        struct rtm_error err;
        parse_check((const uint8_t *)b.p, b.len, 0, &err);
        rtm_buf_free(&b);
    }
    /* an empty stream where 14 bytes are due, and a cut one */
    rtm_buf_init(&b);
    v5_one_frame(&b, 1, (const uint8_t *)"\x11\x00\x00", 3);
    parse_fail((const uint8_t *)b.p, b.len, "empty LZO stream");
    rtm_buf_free(&b);
    /* a real stream with its end marker cut off, more bytes following */
    uint8_t raw[14 * 100];
    for (size_t i = 0; i < sizeof raw; i++)
        raw[i] = (uint8_t)(i % 37);
    struct rtm_buf z;
    rtm_buf_init(&z);
    assert_int_equal(rtm_lzo_encode(raw, sizeof raw, &z), 0);
    assert_true(z.len > 3);
    memcpy(p, z.p, z.len - 3);
    memset(p + z.len - 3, 0xAA, 64);
    rtm_buf_init(&b);
    v5_one_frame(&b, 100, p, z.len - 3 + 64);
    parse_fail((const uint8_t *)b.p, b.len, "LZO end marker replaced");
    rtm_buf_free(&b);
    rtm_buf_init(&b); /* and the intact stream parses */
    v5_one_frame(&b, 100, (const uint8_t *)z.p, z.len);
    struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
    render_all(a, 0);
    rtm_free(a);
    rtm_buf_free(&b);
    rtm_buf_free(&z);
    free(p);
    double dt = now() - t0;
    printf("hostile LZO: %.3f s\n", dt);
    assert_true(dt < 30);
}

static void odd_headers(void **state)
{
    (void)state;
    static const char *const stubs[] = { "", "B", "BMTR", "BMTR\x05", "RTM_", "RTM_0101",
                                         "RTM_MDAT", "RTM_0102", "RTM_MDAT\0\0\0\0\0\0\0\0",
                                         "RTM_MDAT\0\0\0\0\0\0\0\0RTM_0100" };
    static const size_t stub_len[] = { 0, 1, 4, 5, 4, 8, 8, 8, 16, 24 };
    for (size_t i = 0; i < sizeof stubs / sizeof stubs[0]; i++)
        parse_fail((const uint8_t *)stubs[i], stub_len[i], stubs[i]);

    struct rtm_buf b;
    struct sample_opts o = { 2, 10, 5, 1 };
    static const uint32_t versions[] = { 0, 1, 2, 6, 0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        rtm_buf_init(&b);
        assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_NONE, &b), 0);
        put_u32_at((uint8_t *)b.p, 4, versions[i]);
        parse_fail((const uint8_t *)b.p, b.len, "unknown version");
        rtm_buf_free(&b);
    }
    /* the two bone counts differ */
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 3, BMTR_COMPRESS_AUTO, &b), 0);
    put_u32_at((uint8_t *)b.p, 33, 9);
    parse_fail((const uint8_t *)b.p, b.len, "bone counts differ");
    rtm_buf_free(&b);
    /* a bone name of 1024 bytes is taken, 1025 is refused */
    for (size_t n = 1024; n <= 1025; n++) {
        char *name = malloc(n + 1);
        assert_non_null(name);
        memset(name, 'n', n);
        name[n] = 0;
        const char *names[2] = { "pelvis", name };
        float phases[1] = { 0 };
        uint8_t tr[28] = { 0 };
        struct bmtr_spec s = { .version = 3, .byte8 = 1, .nbones = 2, .names = names,
                               .nframes = 1, .phases = phases, .transforms = tr };
        rtm_buf_init(&b);
        assert_int_equal(rtm_write_bmtr(&s, &b), 0);
        struct rtm_error err;
        int rc = parse_check((const uint8_t *)b.p, b.len, 0, &err);
        assert_int_equal(rc, n == 1024 ? 0 : -1);
        rtm_buf_free(&b);
        free(name);
    }
    /* NaN, infinities and extreme values everywhere */
    {
        const char *names[3] = { "pelvis", "spine", "\x01\xff\"\\,odd" };
        float phases[3] = { NAN, -INFINITY, 0.5f };
        uint8_t tr[3 * 3 * 14];
        for (size_t i = 0; i < sizeof tr; i++)
            tr[i] = (uint8_t)(i % 3 == 0 ? 0xFF : i % 3 == 1 ? 0x7C : 0x80);
        struct bmtr_keystone props[2] = { { 7, "a,\"b\"", NAN, "\x7f\x01" },
                                          { -1, "", INFINITY, "" } };
        const char *meta[1] = { "m" };
        struct bmtr_spec s = { .version = 5, .byte8 = 0, .motion = { NAN, INFINITY, -0.0f },
                               .preload = 0xFFFFFFFFu, .nbones = 3, .names = names,
                               .nframes = 3, .phases = phases, .transforms = tr,
                               .nmeta = 1, .meta = meta, .nprops = 2, .props = props,
                               .compress = BMTR_COMPRESS_ALL };
        rtm_buf_init(&b);
        assert_int_equal(rtm_write_bmtr(&s, &b), 0);
        for (int k = 0; k < 2; k++) {
            struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, k);
            render_all(a, k);
            rtm_free(a);
        }
        rtm_buf_free(&b);
    }
    /* a plain file with trailing junk parses; its plain.rtm is the source */
    rtm_buf_init(&b);
    struct gen_plain g = { 3, 4, 1, 0, 100, 40 };
    make_plain(&g, &b);
    struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
    assert_int_equal(a->trailing_bytes, 100);
    render_all(a, 0);
    rtm_free(a);
    rtm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_names_without_nul),
        cmocka_unit_test(zero_frames_and_bones),
        cmocka_unit_test(odd_headers),
        cmocka_unit_test(lzo_hostile),
    };
    return run_test_cases(tests, badinput_setup, badinput_teardown);
}
