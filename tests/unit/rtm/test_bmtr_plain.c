/* test_bmtr_plain.c - plain.rtm of a BMTR file converted as it is written
 * (bmtr_plain.h, rtmcat's way) against the one a full parse's anim
 * writes (rtm_write_plain), byte for byte: every version, compression and
 * layout, both built-in skeletons, pieces of any size; phases out of
 * order, equal or NaN, infinite and NaN translations, names the skeleton
 * has twice or not at all; and the errors: a damaged file fails as the
 * parse fails, with its message, before a byte is handed out; a flush
 * that stops stops the writing; a source handed over is freed.  The real
 * files: test_corpus. */
#include "testutil.h"
#include "bmtr_testutil.h"

#include "bmtr_plain.h"
#include "samples.h"
#include "skeleton.h"

/* rtm_plain_flush_fn: the piece appended to the buffer ctx. */
static int keep_piece(void *ctx, struct rtm_buf *out)
{
    rtm_buf_put(ctx, out->p, out->len);
    out->len = 0;
    return 0;
}

/* plain.rtm of file b as a full parse's anim writes it with skel; -1
 * when the parse fails, with its error. */
static int written_whole(const struct rtm_buf *b, const char *skel, struct rtm_buf *out,
                         struct rtm_error *err)
{
    struct rtm_anim *a = NULL;
    rtm_buf_init(out);
    if (parse_with(b, skel, &a, err))
        return -1;
    assert_int_equal(rtm_write_plain(a, out), 0);
    rtm_free(a);
    return 0;
}

/* The same converted as written, in pieces of chunk bytes. */
static int written_streamed(const struct rtm_buf *b, const char *skel, size_t chunk,
                            struct rtm_buf *whole, struct rtm_error *err)
{
    struct rtm_skeleton *s = NULL;
    assert_int_equal(rtm_skeleton_open(skel, &s, err), 0);
    struct rtm_parse_opts o = { .skel = s };
    struct rtm_buf out;
    rtm_buf_init(&out);
    rtm_buf_init(whole);
    memset(err, 0, sizeof *err);
    int rc = rtm_bmtr_plain_each((const uint8_t *)b->p, b->len, &o, &out, chunk, keep_piece,
                                 whole, err);
    rtm_buf_free(&out);
    rtm_skeleton_free(s);
    return rc;
}

/* Both ways give the same bytes, with both skeletons and a few chunk
 * sizes (1: a flush after every frame). */
static void assert_same_bytes(const struct rtm_buf *b, const char *what)
{
    static const char *const skels[] = { "ofp2", "none" };
    static const size_t chunks[] = { 1, 1000, SIZE_MAX };
    for (size_t k = 0; k < 2; k++) {
        struct rtm_buf want, got;
        struct rtm_error err;
        if (written_whole(b, skels[k], &want, &err))
            fail_msg("%s: parse failed: %s", what, err.msg);
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            if (written_streamed(b, skels[k], chunks[c], &got, &err))
                fail_msg("%s (%s): streamed write failed: %s", what, skels[k], err.msg);
            assert_int_equal(got.len, want.len);
            if (memcmp(got.p, want.p, want.len) != 0)
                fail_msg("%s (%s, chunk %zu): bytes differ", what, skels[k], chunks[c]);
            rtm_buf_free(&got);
        }
        rtm_buf_free(&want);
    }
}

/* Samples of the first bones of ofp2 (composed with their parents) in
 * every version and compression, with properties and without. */
static void samples_match(void **state)
{
    (void)state;
    static const enum bmtr_compress modes[] = { BMTR_COMPRESS_AUTO, BMTR_COMPRESS_NONE,
                                                BMTR_COMPRESS_ALL };
    for (uint32_t v = 3; v <= 5; v++) {
        for (size_t m = 0; m < 3; m++) {
            if (v < 5 && modes[m] != BMTR_COMPRESS_AUTO)
                continue;               /* v3, v4 without flags: the size rule */
            struct sample_opts o = { 23, 70, 11 * v + (uint32_t)m, v >= 4 ? 3 : 0 };
            struct rtm_buf b;
            rtm_buf_init(&b);
            assert_int_equal(rtm_sample_bmtr(&o, v, modes[m], &b), 0);
            char what[64];
            snprintf(what, sizeof what, "v%u compression %zu", v, m);
            assert_same_bytes(&b, what);
            rtm_buf_free(&b);
        }
    }
}

/* No frames, no bones, and v4 with flag bytes on empty arrays. */
static void empty_match(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0, 4, 3);
    struct bmtr_spec s = spec_of(&fx, 4);
    s.v4_flags = 1;
    s.empty_flag = 1;
    struct rtm_buf b;
    write_spec(&s, &b);
    assert_same_bytes(&b, "no frames");
    rtm_buf_free(&b);
    fixture_free(&fx);
    fixture_init(&fx, 5, 0, 3);
    s = spec_of(&fx, 5);
    write_spec(&s, &b);
    assert_same_bytes(&b, "no bones");
    rtm_buf_free(&b);
    fixture_free(&fx);
}

/* Frames out of phase order (equal phases, a NaN), infinite and NaN
 * translations, and names ofp2 has twice (in another case) or lacks. */
static void odd_files_match(void **state)
{
    (void)state;
    static const char *const names[] = { "Spine1", "pelvis", "spine", "SPINE", "zig",
                                         "leftarm", "LeftShoulder" };
    enum { NB = 7, NF = 6 };
    static const float phases[NF] = { 0.5f, 0.25f, 0.5f, NAN, 0.0f, -0.0f };
    struct fixture fx;
    fixture_init(&fx, NF, NB, 99);
    static const uint16_t odd[] = { 0x7c00, 0xfc00, 0x7e01, 0xfd00, 0x0001, 0x8000 };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        memcpy(fx.tr + (i * 5 % (NF * NB)) * 14 + 8 + 2 * (i % 3), &odd[i], 2);
    struct bmtr_spec s = spec_of(&fx, 5);
    s.names = names;
    s.phases = phases;
    struct rtm_buf b;
    write_spec(&s, &b);
    assert_same_bytes(&b, "odd file");
    rtm_buf_free(&b);
    fixture_free(&fx);
}

/* Every cut of a file fails as the parse fails, with the same message,
 * and hands nothing to flush. */
static void cuts_fail_before_writing(void **state)
{
    (void)state;
    struct sample_opts o = { 4, 9, 5, 2 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &b), 0);
    size_t whole = b.len;
    for (size_t len = 0; len < whole; len++) {
        b.len = len;
        struct rtm_buf want, got;
        struct rtm_error werr, gerr;
        int wrc = written_whole(&b, "ofp2", &want, &werr);
        int grc = written_streamed(&b, "ofp2", 1, &got, &gerr);
        if (len >= 4)                   /* shorter is no BMTR file to either */
            assert_int_equal(grc, wrc);
        if (wrc && len >= 4) {
            assert_string_equal(gerr.msg, werr.msg);
            assert_int_equal(gerr.offset, werr.offset);
        }
        if (grc)
            assert_int_equal(got.len, 0);
        rtm_buf_free(&want);
        rtm_buf_free(&got);
    }
    b.len = whole;
    rtm_buf_free(&b);
}

/* rtm_plain_flush_fn that refuses every piece. */
static int refuse(void *ctx, struct rtm_buf *out)
{
    (*(int *)ctx)++;
    out->len = 0;
    return -1;
}

/* A flush that stops the writing gives -2 after its first piece; a file
 * that is no BMTR gives -1 without one. */
static void flush_stops_and_not_bmtr(void **state)
{
    (void)state;
    struct sample_opts o = { 30, 20, 1, 0 };
    struct rtm_buf b, out;
    rtm_buf_init(&b);
    rtm_buf_init(&out);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_parse_opts po = { 0 };
    struct rtm_error err;
    int calls = 0;
    assert_int_equal(rtm_bmtr_plain_each((const uint8_t *)b.p, b.len, &po, &out, 100, refuse,
                                         &calls, &err), -2);
    assert_int_equal(calls, 1);
    rtm_buf_free(&b);
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    calls = 0;
    assert_int_equal(rtm_bmtr_plain_each((const uint8_t *)b.p, b.len, &po, &out, 100, refuse,
                                         &calls, &err), -1);
    assert_int_equal(calls, 0);
    rtm_buf_free(&b);
    rtm_buf_free(&out);
}

/* A copy of b's bytes, for a parse that takes it over. */
static uint8_t *copy_of(const struct rtm_buf *b)
{
    uint8_t *d = malloc(b->len ? b->len : 1);
    assert_non_null(d);
    memcpy(d, b->p, b->len);
    return d;
}

/* With give_source the data is the writer's: freed once read, whether
 * the file parses or not (a leak or a double free shows under the
 * sanitizers and valgrind), and the bytes are the same. */
static void given_source_freed(void **state)
{
    (void)state;
    struct sample_opts o = { 12, 30, 4, 2 };
    struct rtm_buf b, out, got, want;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_error err;
    assert_int_equal(written_whole(&b, "none", &want, &err), 0);
    struct rtm_parse_opts po = { .give_source = 1 };
    rtm_buf_init(&out);
    rtm_buf_init(&got);
    assert_int_equal(rtm_bmtr_plain_each(copy_of(&b), b.len, &po, &out, 64, keep_piece, &got,
                                         &err), 0);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.p, want.p, want.len);
    b.len /= 2;
    assert_int_equal(rtm_bmtr_plain_each(copy_of(&b), b.len, &po, &out, 64, keep_piece, &got,
                                         &err), -1);
    assert_int_equal(rtm_bmtr_plain_each(copy_of(&b), 2, &po, &out, 64, keep_piece, &got,
                                         &err), -1);
    rtm_buf_free(&out);
    rtm_buf_free(&got);
    rtm_buf_free(&want);
    rtm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(samples_match),
        cmocka_unit_test(empty_match),
        cmocka_unit_test(odd_files_match),
        cmocka_unit_test(cuts_fail_before_writing),
        cmocka_unit_test(flush_stops_and_not_bmtr),
        cmocka_unit_test(given_source_freed),
    };
    return run_test_cases(tests, NULL, NULL);
}
