/* test_pbo_lzss.c - the PBO layer's checksums and compression (pbo.h):
 * SHA-1 on the standard vectors; LZSS round trips through the project's
 * encoder for text, random and zero bytes of many sizes; streams the
 * writer never produces (references before the start, overlapping runs,
 * cut streams, bad checksums, distance 0) built by hand and decoded by the
 * rule in pbo.c; and the bound on the stored bytes a decoded head needs.
 * Every stream is decoded from a private heap copy of exactly its bytes,
 * so ASan sees any over-read.  Archives: test_pbo; archives broken on
 * purpose: test_pbo_badinput. */
#include "testutil.h"
#include "pbo_testutil.h"

/* ---- helpers ------------------------------------------------------------- */

static void hex20(const uint8_t d[20], char out[41])
{
    for (int i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
                  struct rtm_error *err)
{
    uint8_t *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    if (n)
        memcpy(copy, src, n);
    size_t used = 0;
    int rc = pbo_lzss_decode(copy, n, out, out_len, &used, 0, err);
    if (rc == 0)
        assert_true(used <= n);
    free(copy);
    return rc;
}

static uint8_t *random_bytes(size_t n, uint32_t seed)
{
    uint8_t *t = malloc(n ? n : 1);
    assert_non_null(t);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        t[i] = (uint8_t)(seed >> 16);
    }
    return t;
}

/* ---- SHA-1 and LZSS ------------------------------------------------------ */

static void sha1_vectors(void **state)
{
    (void)state;
    uint8_t d[20];
    char hex[41];
    pbo_sha1((const uint8_t *)"abc", 3, d);
    hex20(d, hex);
    assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
    pbo_sha1((const uint8_t *)"", 0, d);
    hex20(d, hex);
    assert_string_equal(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    pbo_sha1((const uint8_t *)two, sizeof two - 1, d);
    hex20(d, hex);
    assert_string_equal(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    uint8_t *m = malloc(1000000);
    assert_non_null(m);
    memset(m, 'a', 1000000);
    pbo_sha1(m, 1000000, d);
    hex20(d, hex);
    assert_string_equal(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(m);
}

static void lzss_round_trips(void **state)
{
    (void)state;
    static const size_t sizes[] = { 0, 1, 2, 3, 7, 8, 9, 17, 64, 4095, 4096, 4097, 20000, 100000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int kind = 0; kind < 3; kind++) {
            size_t n = sizes[s];
            uint8_t *src = kind == 0 ? text_bytes(n, (uint32_t)n)
                         : kind == 1 ? random_bytes(n, (uint32_t)n) : calloc(n ? n : 1, 1);
            assert_non_null(src);
            struct rtm_buf b;
            rtm_buf_init(&b);
            assert_int_equal(pbo_lzss_encode(src, n, &b), 0);
            if ((kind == 2 && n >= 64) || (kind == 0 && n >= 4096))
                assert_true(b.len < n / 2);    /* back-references were used */
            uint8_t *out = malloc(n ? n : 1);
            struct rtm_error err;
            if (decode((const uint8_t *)b.p, b.len, out, n, &err))
                fail_msg("size %zu kind %d: %s", n, kind, err.msg);
            if (n)
                assert_memory_equal(out, src, n);
            free(out);
            free(src);
            rtm_buf_free(&b);
        }
    }
}

/* Streams the writer never produces, decoded by the rule in pbo.c. */
static void lzss_hand_streams(void **state)
{
    (void)state;
    uint8_t out[32];
    struct rtm_error err;
    /* literal 'A', then rpos 3 rlen 5 from position 1: two spaces before the
     * start, then 'A', ' ', ' ' copied from the output itself */
    static const uint8_t before[] = { 0x01, 'A', 0x03, 0x02,
                                      0x02, 0x01, 0, 0 };   /* 2 * 'A' + 4 * ' ' */
    assert_int_equal(decode(before, sizeof before, out, 6, &err), 0);
    assert_memory_equal(out, "A  A  ", 6);
    /* a reference entirely before the start: spaces only */
    static const uint8_t spaces[] = { 0x00, 0xFF, 0xFF, 0x40, 0x02, 0, 0 };   /* 18 * ' ' */
    assert_int_equal(decode(spaces, sizeof spaces, out, 18, &err), 0);
    for (int i = 0; i < 18; i++)
        assert_int_equal(out[i], ' ');
    /* an overlapping run: 'a' then rpos 1 rlen 18 */
    static const uint8_t run[] = { 0x01, 'a', 0x01, 0x0F, (19 * 'a') & 0xFF, (19 * 'a') >> 8, 0, 0 };
    assert_int_equal(decode(run, sizeof run, out, 19, &err), 0);
    for (int i = 0; i < 19; i++)
        assert_int_equal(out[i], 'a');
    /* output ends inside a reference: the checksum follows the reference */
    static const uint8_t stop[] = { 0x01, 'a', 0x01, 0x0F, (5 * 'a') & 0xFF, (5 * 'a') >> 8, 0, 0 };
    assert_int_equal(decode(stop, sizeof stop, out, 5, &err), 0);
    assert_memory_equal(out, "aaaaa", 5);
    /* every cut of a valid stream is an error, never an over-read */
    for (size_t cut = 0; cut < sizeof before; cut++) {
        assert_int_equal(decode(before, cut, out, 6, &err), -1);
        assert_true(err.has_offset && err.offset <= cut);
    }
    /* a wrong checksum */
    uint8_t bad[sizeof before];
    memcpy(bad, before, sizeof bad);
    bad[4] ^= 1;
    assert_int_equal(decode(bad, sizeof bad, out, 6, &err), -1);
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    /* distance 0 */
    static const uint8_t zero[] = { 0x00, 0x00, 0x00, 0, 0, 0, 0 };
    assert_int_equal(decode(zero, sizeof zero, out, 3, &err), -1);
    assert_non_null(strstr(err.msg, "distance 0"));
    /* an empty output is just the checksum 0 */
    static const uint8_t empty[] = { 0, 0, 0, 0 };
    assert_int_equal(decode(empty, sizeof empty, out, 0, &err), 0);
    assert_int_equal(decode(empty, 3, out, 0, &err), -1);
}

/* A head of n bytes needs at most pbo_lzss_src_max(n) stored bytes, also
 * when its last item is a reference of which one byte is wanted (a stream
 * that starts with one needs 3 bytes for its first byte; fuzz_pbo found
 * the bound said 2). */
static void lzss_head_bound(void **state)
{
    (void)state;
    /* flags: 1 reference (distance 1, 3 bytes: spaces), then 7 literals */
    static const uint8_t stream[] = { 0xFE, 0x01, 0x00, 'a', 'b', 'c', 'd', 'e', 'f', 'g',
                                      0x00, 0x03, 0x00 };
    static const char content[] = "   abcdefgefg";
    uint8_t out[16];
    for (size_t n = 0; n <= sizeof content - 1; n++) {
        struct rtm_error err = { .msg = "" };
        size_t src = pbo_lzss_src_max(n);
        assert_true(src >= (n ? 3 : 0));
        if (src > sizeof stream)
            src = sizeof stream;
        assert_int_equal(pbo_lzss_decode_head(stream, src, out, n, 0, &err), 0);
        assert_memory_equal(out, content, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha1_vectors),
        cmocka_unit_test(lzss_round_trips),
        cmocka_unit_test(lzss_hand_streams),
        cmocka_unit_test(lzss_head_bound),
    };
    return run_test_cases(tests, NULL, NULL);
}
