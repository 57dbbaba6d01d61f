/* test_samples.c - the sample writers produce files the reader accepts. */
#include "testutil.h"

static void plain_sample_parses(void **state)
{
    (void)state;
    struct sample_opts o = { 10, 66, 1, 2 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    assert_int_equal(a->format, RTM_FORMAT_PLAIN);
    assert_int_equal(a->nframes, 10);
    assert_int_equal(a->nbones, 66);
    assert_int_equal(a->nprops, 2);
    assert_true(a->has_mdat);
    assert_string_equal(a->bones[0].s, "Pelvis");
    rtm_free(a);
    rtm_buf_free(&b);
}

static void bmtr_samples_parse(void **state)
{
    (void)state;
    static const struct { uint32_t version; enum bmtr_compress c; } cases[] = {
        { 3, BMTR_COMPRESS_AUTO }, { 4, BMTR_COMPRESS_AUTO },
        { 5, BMTR_COMPRESS_NONE }, { 5, BMTR_COMPRESS_ALL }, { 5, BMTR_COMPRESS_AUTO },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sample_opts o = { 12, 80, 3, 2 };
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(rtm_sample_bmtr(&o, cases[i].version, cases[i].c, &b), 0);
        struct rtm_anim *a = parse_ok(&b, "ofp2");
        assert_int_equal(a->format, RTM_FORMAT_BMTR);
        assert_int_equal(a->version, cases[i].version);
        assert_int_equal(a->nframes, 12);
        assert_int_equal(a->nbones, 80);
        assert_int_equal(a->nprops, cases[i].version >= 4 ? 2 : 0);
        assert_string_equal(a->bones[0].s, "pelvis");
        rtm_free(a);
        rtm_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_sample_parses),
        cmocka_unit_test(bmtr_samples_parse),
    };
    return run_test_cases(tests, NULL, NULL);
}
