/* test_bmtr.c - the BMTR reader (rtm(5), BMTR), fed by the project's
 * writer (bmtr_write.h) and by hand-patched bytes: the layouts of versions
 * 3, 4 and 5 (v3's size rule, v4 with and without flag bytes, v5's flag per
 * array, empty arrays), checked on the bytes and read back whole; and the
 * errors (bad headers, names without a NUL, counts that do not match, cut
 * LZO streams, every cut of a valid file).  The values of the conversion
 * to matrices: test_bmtr_convert; the fixture and expected model both use:
 * bmtr_testutil.h. */
#include "testutil.h"
#include "bmtr_testutil.h"

#include "lzo.h"

/* Offset of the phase array: header, names and (v4+) the property block. */
static size_t arrays_at(const struct bmtr_spec *s)
{
    size_t n = 37;
    for (uint32_t i = 0; i < s->nbones; i++)
        n += strlen(s->names[i]) + 1;
    if (s->version >= 4) {
        n += 4;
        for (uint32_t i = 0; i < s->nmeta; i++)
            n += strlen(s->meta[i]) + 1;
        n += 4;
        for (uint32_t i = 0; i < s->nprops; i++)
            n += 4 + strlen(s->props[i].name) + 1 + 4 + strlen(s->props[i].value) + 1;
    }
    return n;
}

/* ---- versions and layouts --------------------------------------------- */

/* v3 has no flag byte: an array of 1024 bytes or more is LZO, smaller is
 * raw.  The layout is checked on the bytes, and a file that breaks the
 * rule in either direction is refused. */
static void v3_size_rule(void **state)
{
    (void)state;
    struct rtm_error err;
    struct rtm_anim *a = NULL;

    /* 256 phases = exactly 1024 bytes: LZO */
    struct fixture fx;
    fixture_init(&fx, 256, 1, 1);
    struct bmtr_spec s = spec_of(&fx, 3);
    struct rtm_buf b;
    a = round_trip(&s, &fx, &b);
    assert_int_equal(a->flag_bytes, 0);
    assert_int_equal(a->nprops, 0);
    rtm_free(a);
    size_t at = arrays_at(&s);
    assert_int_equal(le_u32((const uint8_t *)b.p + at), 256);
    const uint8_t *stream = (const uint8_t *)b.p + at + 4;
    assert_memory_not_equal(stream, fx.phases, 16);
    uint8_t dec[1024];
    size_t used = 0;
    assert_int_equal(rtm_lzo_decode(stream, b.len - at - 4, dec, 1024, &used), 0);
    assert_memory_equal(dec, fx.phases, 1024);
    /* the same file with the 1024 phase bytes stored raw is refused */
    struct rtm_buf raw;
    rtm_buf_init(&raw);
    rtm_buf_put(&raw, b.p, at + 4);
    rtm_buf_put(&raw, fx.phases, 1024);
    rtm_buf_put(&raw, stream + used, b.len - (at + 4 + used));
    assert_int_equal(parse_with(&raw, "none", &a, &err), -1);
    rtm_buf_free(&raw);
    rtm_buf_free(&b);
    fixture_free(&fx);

    /* 73 bones = 1022-byte frames: raw, so the file is the plain layout */
    fixture_init(&fx, 2, 73, 2);
    s = spec_of(&fx, 3);
    a = round_trip(&s, &fx, &b);
    rtm_free(a);
    at = arrays_at(&s);
    assert_int_equal(b.len, at + 4 + 8 + 2 * (4 + 1022));
    assert_memory_equal(b.p + at + 4, fx.phases, 8);
    assert_memory_equal(b.p + at + 12 + 4, fx.tr, 1022);
    assert_memory_equal(b.p + b.len - 1022, fx.tr + 1022, 1022);
    /* the same frames LZO-compressed are refused: 1022 bytes must be raw */
    rtm_buf_init(&raw);
    rtm_buf_put(&raw, b.p, at + 12);
    for (int f = 0; f < 2; f++) {
        rtm_buf_put_u32(&raw, 73);
        assert_int_equal(rtm_lzo_encode(fx.tr + f * 1022, 1022, &raw), 0);
    }
    assert_int_equal(parse_with(&raw, "none", &a, &err), -1);
    rtm_buf_free(&raw);
    rtm_buf_free(&b);
    fixture_free(&fx);

    /* 80 bones = 1120 bytes: LZO frames, and 128 bones (the Arma 2 size) */
    for (uint32_t nb = 80; nb <= 128; nb += 48) {
        fixture_init(&fx, 5, nb, nb);
        s = spec_of(&fx, 3);
        a = round_trip(&s, &fx, &b);
        rtm_free(a);
        /* 5 raw phases, then the first frame's count and its LZO stream */
        at = arrays_at(&s) + 4 + 20;
        assert_int_equal(le_u32((const uint8_t *)b.p + at), nb);
        uint8_t frame[128 * 14];
        assert_int_equal(rtm_lzo_decode((const uint8_t *)b.p + at + 4, b.len - at - 4,
                                        frame, nb * 14, &used), 0);
        assert_memory_equal(frame, fx.tr, nb * 14);
        rtm_buf_free(&b);
        fixture_free(&fx);
    }
}

/* v4 is read without flag bytes first; the metadata strings are counted
 * and the keystones kept. */
static void v4_without_flags(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 6, 90, 3);   /* 1260-byte frames: LZO by the size rule */
    struct bmtr_spec s = spec_of(&fx, 4);
    struct rtm_buf b;
    struct rtm_anim *a = round_trip(&s, &fx, &b);
    assert_int_equal(a->flag_bytes, 0);
    assert_int_equal(a->nmeta, 2);
    assert_int_equal(a->nprops, 3);
    assert_int_equal(a->props[0].type_id, -1);
    assert_string_equal(a->props[0].name.s, "Step");
    assert_string_equal(a->props[0].value.s, "Sound");
    assert_true(a->props[0].phase == 0.25f);
    assert_int_equal(a->props[1].type_id, 0);
    assert_int_equal(a->props[1].name.len, 0);
    assert_true(signbit(a->props[1].phase));
    assert_memory_equal(a->props[2].name.s, "odd\x01\xff\"", 6);
    rtm_free(a);
    rtm_buf_free(&b);
    fixture_free(&fx);
}

/* v4 written with flag bytes (what armaio would write): the no-flag
 * reading fails and the reader falls back to flags. */
static void v4_with_flags(void **state)
{
    (void)state;
    static const enum bmtr_compress modes[] = { BMTR_COMPRESS_NONE, BMTR_COMPRESS_ALL,
                                                BMTR_COMPRESS_AUTO };
    for (size_t m = 0; m < 3; m++) {
        struct fixture fx;
        fixture_init(&fx, 7, 80, 4);
        struct bmtr_spec s = spec_of(&fx, 4);
        s.v4_flags = 1;
        s.compress = modes[m];
        struct rtm_buf b;
        struct rtm_anim *a = round_trip(&s, &fx, &b);
        assert_int_equal(a->flag_bytes, 1);
        /* the first flag byte sits right after the phase count */
        uint8_t flag = (uint8_t)b.p[arrays_at(&s) + 4];
        assert_int_equal(flag, modes[m] == BMTR_COMPRESS_ALL ? 2 : 0);
        rtm_free(a);
        rtm_buf_free(&b);
        fixture_free(&fx);
    }
}

/* v5: every array has its own flag, whatever its size. */
static void v5_raw_lzo_mixed(void **state)
{
    (void)state;
    static const enum bmtr_compress modes[] = { BMTR_COMPRESS_NONE, BMTR_COMPRESS_ALL,
                                                BMTR_COMPRESS_AUTO };
    for (size_t m = 0; m < 3; m++) {
        struct fixture fx;
        fixture_init(&fx, 4, 80, 5);  /* phases 16 bytes, frames 1120 bytes */
        struct bmtr_spec s = spec_of(&fx, 5);
        s.compress = modes[m];
        s.byte8 = 0;                  /* kept as read, not checked */
        s.preload = 7;
        struct rtm_buf b;
        struct rtm_anim *a = round_trip(&s, &fx, &b);
        assert_int_equal(a->flag_bytes, 1);
        size_t at = arrays_at(&s);
        uint8_t phase_flag = (uint8_t)b.p[at + 4];
        assert_int_equal(phase_flag, modes[m] == BMTR_COMPRESS_ALL ? 2 : 0);
        if (modes[m] != BMTR_COMPRESS_ALL) {
            /* raw phases, then the first frame's count and flag */
            assert_memory_equal(b.p + at + 5, fx.phases, 16);
            assert_int_equal(le_u32((const uint8_t *)b.p + at + 21), 80);
            assert_int_equal((uint8_t)b.p[at + 25], modes[m] == BMTR_COMPRESS_NONE ? 0 : 2);
        }
        if (modes[m] == BMTR_COMPRESS_NONE)
            assert_int_equal(b.len, at + 5 + 16 + 4 * (5 + 1120));
        rtm_free(a);
        rtm_buf_free(&b);
        fixture_free(&fx);
    }
    /* small arrays compressed (the corpus has LZO arrays below 1024 bytes) */
    struct fixture fx;
    fixture_init(&fx, 3, 2, 6);
    struct bmtr_spec s = spec_of(&fx, 5);
    s.compress = BMTR_COMPRESS_ALL;
    struct rtm_buf b;
    rtm_free(round_trip(&s, &fx, &b));
    rtm_buf_free(&b);
    fixture_free(&fx);
}

/* Empty arrays: with zero frames the phase array is empty, with zero bones
 * every frame array is; either may carry a flag byte or not. */
static void empty_arrays(void **state)
{
    (void)state;
    static const uint32_t shapes[][2] = { { 0, 5 }, { 3, 0 }, { 0, 0 } };
    for (size_t sh = 0; sh < 3; sh++)
        for (uint32_t version = 4; version <= 5; version++)
            for (int empty_flag = 0; empty_flag <= 1; empty_flag++)
                for (int v4_flags = 0; v4_flags <= (version == 4); v4_flags++) {
                    struct fixture fx;
                    fixture_init(&fx, shapes[sh][0], shapes[sh][1], 7);
                    struct bmtr_spec s = spec_of(&fx, version);
                    s.empty_flag = empty_flag;
                    s.v4_flags = v4_flags;
                    s.compress = BMTR_COMPRESS_ALL;
                    struct rtm_buf b;
                    struct rtm_anim *a = round_trip(&s, &fx, &b);
                    assert_int_equal(a->nframes, shapes[sh][0]);
                    assert_int_equal(a->nbones, shapes[sh][1]);
                    rtm_free(a);
                    rtm_buf_free(&b);
                    fixture_free(&fx);
                }
    /* and v3 with no frames / no bones */
    for (size_t sh = 0; sh < 3; sh++) {
        struct fixture fx;
        fixture_init(&fx, shapes[sh][0], shapes[sh][1], 8);
        struct bmtr_spec s = spec_of(&fx, 3);
        struct rtm_buf b;
        rtm_free(round_trip(&s, &fx, &b));
        rtm_buf_free(&b);
        fixture_free(&fx);
    }
}

/* ---- errors ------------------------------------------------------------ */

/* Parses and expects failure with word in the message (and the offset
 * when off is not -1). */
static void expect_error(const struct rtm_buf *b, const char *word, long long off)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (parse_with(b, "ofp2", &a, &err) == 0) {
        rtm_free(a);
        fail_msg("parsed, but expected an error with \"%s\"", word);
    }
    if (!strstr(err.msg, word))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, word);
    if (off >= 0) {
        assert_true(err.has_offset);
        if (err.offset != (uint64_t)off)
            fail_msg("\"%s\" at byte %llu, expected %lld", err.msg,
                     (unsigned long long)err.offset, off);
    }
}

static void patch_u32(struct rtm_buf *b, size_t at, uint32_t v) { memcpy(b->p + at, &v, 4); }

static void header_errors(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 3, 4, 12);
    struct bmtr_spec s = spec_of(&fx, 5);
    struct rtm_buf b;
    write_spec(&s, &b);
    for (uint32_t v = 0; v < 10; v++) {
        if (v >= 3 && v <= 5)
            continue;
        patch_u32(&b, 4, v);
        expect_error(&b, "version", 4);
    }
    patch_u32(&b, 4, 5);
    /* bone counts A != B */
    patch_u32(&b, 33, 5);
    expect_error(&b, "differ", 33);
    patch_u32(&b, 29, 5);
    /* both say 5: the fifth name runs into the property block and on */
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    assert_int_equal(parse_with(&b, "none", &a, &err), -1);
    /* more bones than bytes */
    patch_u32(&b, 29, 0x7fffffff);
    patch_u32(&b, 33, 0x7fffffff);
    expect_error(&b, "bones", 29);
    rtm_buf_free(&b);

    /* a header cut short */
    rtm_buf_init(&b);
    rtm_buf_put(&b, "BMTR\x05\0\0\0\x01", 9);
    expect_error(&b, "motion", 9);
    rtm_buf_free(&b);
    rtm_buf_init(&b);
    rtm_buf_put(&b, "BMTR\x05\0", 6);
    expect_error(&b, "version", 4);
    rtm_buf_free(&b);
    fixture_free(&fx);
}

/* A name with no NUL before the end of the file. */
static void name_without_nul(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_put(&b, "BMTR", 4);
    rtm_buf_put_u32(&b, 3);
    rtm_buf_putc(&b, 1);
    for (int i = 0; i < 3; i++)
        rtm_buf_put_f32(&b, 0.0f);
    rtm_buf_put_u32(&b, 1);
    rtm_buf_put_u32(&b, 0);
    rtm_buf_put_u32(&b, 2);
    rtm_buf_put_u32(&b, 2);
    rtm_buf_put(&b, "pelvis\0spine", 12);
    expect_error(&b, "no NUL", 37 + 7);
    rtm_buf_free(&b);
}

/* Count mismatches, trailing bytes and a truncated LZO stream, for each
 * version. */
static void array_errors(void **state)
{
    (void)state;
    for (uint32_t v = 3; v <= 5; v++) {
        struct fixture fx;
        fixture_init(&fx, 3, 80, 13);   /* 1120-byte frames: LZO in every version */
        struct bmtr_spec s = spec_of(&fx, v);
        s.compress = BMTR_COMPRESS_ALL;
        struct rtm_buf b;
        write_spec(&s, &b);
        size_t at = arrays_at(&s);
        size_t frames_at = at + 4 + (v == 5 ? 1 : 0) + 12;
        if (v == 5) { /* phases are LZO too: find where they end */
            size_t used;
            float ph[3];
            assert_int_equal(rtm_lzo_decode((const uint8_t *)b.p + at + 5, b.len - at - 5,
                                            (uint8_t *)ph, 12, &used), 0);
            frames_at = at + 5 + used;
        }
        assert_int_equal(le_u32((const uint8_t *)b.p + frames_at), 80);

        /* phase count != nframes */
        patch_u32(&b, at, 2);
        expect_error(&b, "phase array holds 2", (long long)at);
        patch_u32(&b, at, 3);
        /* frame count != nbones */
        patch_u32(&b, frames_at, 79);
        expect_error(&b, "frame 0 holds 79", (long long)frames_at);
        patch_u32(&b, frames_at, 80);
        /* trailing bytes */
        rtm_buf_put(&b, "\0\0\0", 3);
        expect_error(&b, "3 bytes follow the last frame", (long long)(b.len - 3));
        b.len -= 3;
        /* truncated LZO stream in the last frame */
        b.len -= 5;
        expect_error(&b, "LZO", -1);
        expect_error(&b, "frame 2", -1);
        b.len += 5;
        /* intact again */
        struct rtm_anim *a = NULL;
        struct rtm_error err;
        assert_int_equal(parse_with(&b, "none", &a, &err), 0);
        rtm_free(a);
        rtm_buf_free(&b);
        fixture_free(&fx);
    }
}

/* A v4 file that neither reading can parse reports the preferred
 * (no-flag) reading's error. */
static void v4_unparseable(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 2, 3, 14);
    struct bmtr_spec s = spec_of(&fx, 4);
    struct rtm_buf b;
    write_spec(&s, &b);
    rtm_buf_put(&b, "junk", 4);
    expect_error(&b, "follow the last frame", (long long)(b.len - 4));
    rtm_buf_free(&b);
    fixture_free(&fx);
}

/* Every cut of a valid file is an error, never a crash. */
static void every_cut_fails(void **state)
{
    (void)state;
    for (uint32_t v = 3; v <= 5; v++) {
        struct fixture fx;
        fixture_init(&fx, 3, 80, 15);
        struct bmtr_spec s = spec_of(&fx, v);
        struct rtm_buf b;
        write_spec(&s, &b);
        struct rtm_skeleton *none = NULL;
        struct rtm_error err;
        assert_int_equal(rtm_skeleton_open("none", &none, &err), 0);
        for (size_t cut = 0; cut < b.len; cut++) {
            uint8_t *p = malloc(cut ? cut : 1);
            assert_non_null(p);
            memcpy(p, b.p, cut);
            struct rtm_anim *a = NULL;
            if (rtm_parse(p, cut, none, &a, &err) == 0)
                fail_msg("v%u cut at %zu of %zu parsed", v, cut, b.len);
            assert_null(a);
            free(p);
        }
        rtm_skeleton_free(none);
        rtm_buf_free(&b);
        fixture_free(&fx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(v3_size_rule),
        cmocka_unit_test(v4_without_flags),
        cmocka_unit_test(v4_with_flags),
        cmocka_unit_test(v5_raw_lzo_mixed),
        cmocka_unit_test(empty_arrays),
        cmocka_unit_test(header_errors),
        cmocka_unit_test(name_without_nul),
        cmocka_unit_test(array_errors),
        cmocka_unit_test(v4_unparseable),
        cmocka_unit_test(every_cut_fails),
    };
    return run_test_cases(tests, NULL, NULL);
}
