/* test_lzo.c - LZO1X encode/decode and finding where a stream ends (lzo.h).
 *
 * BMTR stores no compressed length, so rtm_lzo_decode must report exactly
 * how many input bytes the stream used, whatever follows it.  Inputs are
 * copied into exactly-sized heap blocks so that ASan sees any read past
 * them. */
#include "testutil.h"

#include "lzo.h"

static int setup(void **state)
{
    (void)state;
    return rtm_lzo_init();
}

enum data_kind { DATA_RANDOM, DATA_TEXT, DATA_ZEROS, DATA_MARKERS };

/* Test data: random bytes (stored as literals), repetitive text
 * (back-references), zeros (long runs) or random bytes salted with the end
 * marker 11 00 00 so that the literals in the stream contain it. */
static uint8_t *make_data(enum data_kind kind, size_t n, uint32_t seed)
{
    uint8_t *d = malloc(n ? n : 1);
    assert_non_null(d);
    lcg_state = seed;
    static const char words[] = "Pelvis Spine Spine1 LeftHand RightHand StepSound ";
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case DATA_RANDOM: d[i] = (uint8_t)lcg_next(); break;
        case DATA_TEXT: d[i] = (uint8_t)words[(i * 7 + i / 97) % (sizeof words - 1)]; break;
        case DATA_ZEROS: d[i] = 0; break;
        case DATA_MARKERS: d[i] = (uint8_t)lcg_next(); break;
        }
    }
    if (kind == DATA_MARKERS)
        for (size_t i = 0; i + 3 <= n; i += 3 + lcg_next() % 40)
            memcpy(d + i, "\x11\x00\x00", 3);
    return d;
}

static void encode(const uint8_t *d, size_t n, struct rtm_buf *b)
{
    rtm_buf_init(b);
    assert_int_equal(rtm_lzo_encode(d, n, b), 0);
    assert_false(b->oom);
    assert_true(b->len >= 3);
    /* every LZO1X stream ends with the end marker */
    assert_memory_equal(b->p + b->len - 3, "\x11\x00\x00", 3);
}

/* Counts end markers that start before the last three bytes. */
static size_t inner_markers(const struct rtm_buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i + 3 < b->len; i++)
        n += memcmp(b->p + i, "\x11\x00\x00", 3) == 0;
    return n;
}

/* Decodes stream + tail from an exactly-sized copy; returns the code. */
static int decode_with_tail(const struct rtm_buf *enc, const uint8_t *tail, size_t tail_len,
                            uint8_t *out, size_t out_len, size_t *used)
{
    size_t n = enc->len + tail_len;
    uint8_t *src = malloc(n);
    assert_non_null(src);
    memcpy(src, enc->p, enc->len);
    if (tail_len)
        memcpy(src + enc->len, tail, tail_len);
    int rc = rtm_lzo_decode(src, n, out, out_len, used);
    free(src);
    return rc;
}

static void round_trip_one(enum data_kind kind, size_t n, uint32_t seed)
{
    uint8_t *d = make_data(kind, n, seed);
    struct rtm_buf enc;
    encode(d, n, &enc);
    /* tails: nothing, random bytes, more end markers, a whole second stream */
    struct rtm_buf second;
    encode((const uint8_t *)"abcabcabcabcabcabc", 18, &second);
    const struct { const uint8_t *p; size_t n; } tails[] = {
        { NULL, 0 },
        { (const uint8_t *)"\x01\x02\x03\xff\xfe", 5 },
        { (const uint8_t *)"\x11\x00\x00\x11\x00\x00", 6 },
        { (const uint8_t *)"\x00\x00\x00\x00", 4 },
        { (const uint8_t *)second.p, second.len },
    };
    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        uint8_t *out = malloc(n ? n : 1);
        assert_non_null(out);
        size_t used = 0;
        int rc = decode_with_tail(&enc, tails[t].p, tails[t].n, out, n, &used);
        if (rc != 0)
            fail_msg("kind %d size %zu tail %zu: decode error %d (%s)", kind, n, t, rc,
                     rtm_lzo_strerror(rc));
        assert_int_equal(used, enc.len);
        if (n)
            assert_memory_equal(out, d, n);
        free(out);
    }
    rtm_buf_free(&second);
    rtm_buf_free(&enc);
    free(d);
}

static void round_trips(void **state)
{
    (void)state;
    static const size_t sizes[] = { 0, 1, 2, 3, 4, 15, 16, 17, 100, 255, 1023, 1024,
                                    1792, 4096, 65535, 65536, 100000 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int k = DATA_RANDOM; k <= DATA_MARKERS; k++)
            round_trip_one((enum data_kind)k, sizes[i], (uint32_t)(i * 10 + (size_t)k));
}

/* The marker-salted data really puts markers inside the stream, more than
 * the decoder tries one by one, so its fallback search is exercised. */
static void markers_inside_stream(void **state)
{
    (void)state;
    for (size_t n = 64; n <= 20000; n *= 5) {
        uint8_t *d = make_data(DATA_MARKERS, n, (uint32_t)n);
        struct rtm_buf enc;
        encode(d, n, &enc);
        assert_true(inner_markers(&enc) >= (n >= 320 ? 5u : 1u));
        rtm_buf_free(&enc);
        free(d);
        round_trip_one(DATA_MARKERS, n, (uint32_t)n);
    }
}

/* Every cut before the end is an error, never a crash or a bogus success. */
static void every_cut_is_an_error(void **state)
{
    (void)state;
    static const struct { enum data_kind kind; size_t n; } cases[] = {
        { DATA_TEXT, 3000 }, { DATA_MARKERS, 1500 }, { DATA_RANDOM, 600 },
        { DATA_ZEROS, 5000 }, { DATA_RANDOM, 0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n;
        uint8_t *d = make_data(cases[c].kind, n, 99);
        struct rtm_buf enc;
        encode(d, n, &enc);
        uint8_t *out = malloc(n ? n : 1);
        assert_non_null(out);
        for (size_t cut = 0; cut < enc.len; cut++) {
            uint8_t *src = malloc(cut ? cut : 1);
            assert_non_null(src);
            memcpy(src, enc.p, cut);
            size_t used = 12345;
            int rc = rtm_lzo_decode(src, cut, out, n, &used);
            if (rc == 0)
                fail_msg("case %zu: stream of %zu bytes cut at %zu decoded (used %zu)",
                         c, enc.len, cut, used);
            assert_true(rc < 0);
            assert_non_null(rtm_lzo_strerror(rc));
            free(src);
        }
        free(out);
        rtm_buf_free(&enc);
        free(d);
    }
}

/* The expected size is part of the contract: a stream that decodes to more
 * or fewer bytes than out_len fails, and nothing is written past out_len. */
static void wrong_out_len(void **state)
{
    (void)state;
    static const enum data_kind kinds[] = { DATA_TEXT, DATA_RANDOM, DATA_MARKERS };
    for (size_t k = 0; k < 3; k++) {
        size_t n = 2000;
        uint8_t *d = make_data(kinds[k], n, 7);
        struct rtm_buf enc;
        encode(d, n, &enc);
        static const long deltas[] = { -2000, -1000, -1, 1, 2, 1000 };
        for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
            size_t m = (size_t)((long)n + deltas[i]);
            uint8_t *out = malloc(m ? m : 1);
            assert_non_null(out);
            size_t used = 0;
            int rc = decode_with_tail(&enc, (const uint8_t *)"\x11\x00\x00zz", 5, out, m, &used);
            if (rc == 0)
                fail_msg("kind %d: %zu-byte stream accepted for out_len %zu", kinds[k], n, m);
            if (deltas[i] > 0)
                assert_int_equal(rc, RTM_LZO_SHORT);
            free(out);
        }
        rtm_buf_free(&enc);
        free(d);
    }
}

/* Random bytes are not a stream of the asked size: always an error. */
static void garbage_is_an_error(void **state)
{
    (void)state;
    lcg_state = 31337;
    uint8_t out[1000];
    for (int i = 0; i < 3000; i++) {
        size_t n = 1 + lcg_next() % 400;
        uint8_t *src = malloc(n);
        assert_non_null(src);
        for (size_t k = 0; k < n; k++)
            src[k] = (uint8_t)lcg_next();
        /* salt some of them with markers so the search has candidates */
        if (i % 2)
            for (size_t k = lcg_next() % 8; k + 3 <= n; k += 5 + lcg_next() % 30)
                memcpy(src + k, "\x11\x00\x00", 3);
        size_t used = 0;
        int rc = rtm_lzo_decode(src, n, out, sizeof out, &used);
        if (rc == 0)
            fail_msg("garbage %d of %zu bytes decoded to %zu bytes", i, n, sizeof out);
        free(src);
    }
    /* edge cases: empty input, a lone marker for a non-empty output,
     * an all-zero input, a lookbehind before the start */
    size_t used;
    assert_int_not_equal(rtm_lzo_decode((const uint8_t *)"", 0, out, 10, &used), 0);
    assert_int_not_equal(rtm_lzo_decode((const uint8_t *)"\x11\x00\x00", 3, out, 10, &used), 0);
    static const uint8_t zeros[64];
    assert_int_not_equal(rtm_lzo_decode(zeros, sizeof zeros, out, 10, &used), 0);
    /* 2 literals "ab", then a 3-byte match (64..255 form) at distance 1017:
     * a lookbehind before the start of the output */
    static const uint8_t behind[] = { 17 + 2, 'a', 'b', 0x40, 0x7f, 0x11, 0x00, 0x00 };
    assert_int_not_equal(rtm_lzo_decode(behind, sizeof behind, out, 5, &used), 0);
    /* the lone marker is a valid stream for an empty output */
    assert_int_equal(rtm_lzo_decode((const uint8_t *)"\x11\x00\x00", 3, out, 0, &used), 0);
    assert_int_equal(used, 3);
}

/* rtm_lzo_decode_exact: a stream of known length (the index's records)
 * in one pass: every kind of data round-trips, markers inside or not; a
 * byte more or less of input, or another output length, is an error. */
static void exact_length(void **state)
{
    (void)state;
    static const size_t sizes[] = { 0, 1, 17, 1024, 100000 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int k = DATA_RANDOM; k <= DATA_MARKERS; k++) {
            size_t n = sizes[i];
            uint8_t *d = make_data((enum data_kind)k, n, (uint32_t)(i + 7 * (size_t)k));
            uint8_t *out = malloc(n + 1);
            struct rtm_buf enc;
            assert_non_null(out);
            encode(d, n, &enc);
            uint8_t *src = malloc(enc.len + 1);     /* exactly sized, and one more */
            assert_non_null(src);
            memcpy(src, enc.p, enc.len);
            src[enc.len] = 0;
            assert_int_equal(rtm_lzo_decode_exact(src, enc.len, out, n), 0);
            if (n)
                assert_memory_equal(out, d, n);
            assert_true(rtm_lzo_decode_exact(src, enc.len - 1, out, n) < 0);
            assert_true(rtm_lzo_decode_exact(src, enc.len + 1, out, n) < 0);
            assert_true(rtm_lzo_decode_exact(src, enc.len, out, n + 1) < 0);
            if (n)
                assert_true(rtm_lzo_decode_exact(src, enc.len, out, n - 1) < 0);
            free(src);
            free(out);
            rtm_buf_free(&enc);
            free(d);
        }
}

static void strerror_texts(void **state)
{
    (void)state;
    static const int codes[] = { -4, -5, -6, -7, -8, RTM_LZO_SHORT };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = rtm_lzo_strerror(codes[i]);
        assert_non_null(s);
        assert_non_null(strstr(s, "LZO"));
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, rtm_lzo_strerror(codes[j]));
    }
    assert_non_null(strstr(rtm_lzo_strerror(-1), "corrupt"));
    assert_non_null(strstr(rtm_lzo_strerror(RTM_LZO_SHORT), "fewer"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips),
        cmocka_unit_test(markers_inside_stream),
        cmocka_unit_test(every_cut_is_an_error),
        cmocka_unit_test(wrong_out_len),
        cmocka_unit_test(garbage_is_an_error),
        cmocka_unit_test(exact_length),
        cmocka_unit_test(strerror_texts),
    };
    return run_test_cases(tests, setup, NULL);
}
