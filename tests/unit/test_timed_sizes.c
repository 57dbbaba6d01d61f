/* test_timed_sizes.c - the sizes of preview.svg and anim.bvh under a timing
 * from their sizes in the empty generation (views.h's rtm_view_timed_size),
 * against the length of the timed views rendered: on the writer's samples
 * and, with ../shared, on every corpus file. */
#include "testutil.h"

#include "timing.h"

/* Timings as configs give them (timing.h), and a sentence with what XML
 * escapes and a speed far out of bounds. */
static void some_timings(const struct rtm_anim *a, struct rtm_timing t[4])
{
    struct rtm_timing_state st[2] = { { "Cfg/States/A", "0.06", 1, 0.06 },
                                      { "Cfg/States/B", "?", 0, 0 } };
    rtm_timing_decide(NULL, 0, a->nframes, &t[0]);
    rtm_timing_decide(st, 1, a->nframes, &t[1]);
    rtm_timing_decide(st, 2, a->nframes, &t[2]);
    t[3].seconds = 123456.789;
    strcpy(t[3].why, "Timing: a <pass> & \x80 of 123456.789 s.");
}

static void expect_timed_sizes(const struct rtm_anim *a, const char *what)
{
    size_t n = rtm_view_count(a);
    uint64_t *sizes = malloc((n + 1) * sizeof *sizes);
    assert_non_null(sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    struct rtm_timing t[4];
    some_timings(a, t);
    struct rtm_buf b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        struct rtm_view v = rtm_view_at(a, i);
        for (int k = 0; rtm_view_timed(v.kind) && k < 4; k++) {
            uint64_t size;
            b.len = 0;
            assert_int_equal(rtm_view_render_timed(a, v, &t[k], &b), 0);
            assert_int_equal(rtm_view_timed_size(a, v, &t[k], sizes[i], &size), 0);
            if (size != b.len)
                fail_msg("%s: %s timed by \"%s\" sized %llu, rendered %zu", what,
                         rtm_view_fixed_name(v.kind), t[k].why, (unsigned long long)size,
                         b.len);
        }
    }
    buf_free(&b);
    free(sizes);
}

/* Plain and BMTR samples, with pivots (ofp2) and without. */
static void samples(void **state)
{
    (void)state;
    struct sample_opts o = { 9, 70, 3, 2 };
    for (int k = 0; k < 4; k++) {
        struct rtm_buf b;
        buf_init(&b);
        assert_int_equal(k == 0 ? rtm_sample_plain(&o, &b)
                                : rtm_sample_bmtr(&o, (uint32_t)(2 + k), BMTR_COMPRESS_AUTO, &b), 0);
        for (int sk = 0; sk < 2; sk++) {
            struct rtm_anim *a = parse_ok(&b, sk ? "none" : "ofp2");
            expect_timed_sizes(a, "sample");
            rtm_free(a);
        }
        buf_free(&b);
    }
}

static void corpus(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        expect_timed_sizes(a, c.path[i]);
        rtm_free(a);
    }
    rtm_skeleton_free(s);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(samples),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
