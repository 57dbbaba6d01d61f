/* make check: long (started first: tests/run.sh) */
/* test_views_agree.c - the views agree (views.h): rendering twice gives the
 * same bytes and appends; a light parse renders what it can as a full one
 * does; tracks/NAME.csv is cut from frames/NNN.csv; -o digits=N changes
 * the numbered views only; and rtm_view_sizes and rtm_view_timed_size give
 * the rendered lengths, on samples and, with ../shared, every corpus file.
 * Names and lookup: test_view_names; the bytes of each view: test_views. */
#include "testutil.h"
#include "views_testutil.h"

#include "numfmt.h"
#include "timing.h"

/* ---- rendering ---------------------------------------------------------- */

/* Rendering is deterministic and appends: twice gives the same bytes, and
 * rendering into a non-empty buffer keeps what was there. */
static void render_is_stable(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *anims[3];
    anims[0] = plain_anim(1, &src);
    anims[1] = bmtr_anim(3, 4, 128, 0);
    anims[2] = bmtr_anim(5, 3, 20, 1);
    for (int i = 0; i < 3; i++) {
        const struct rtm_anim *a = anims[i];
        for (size_t k = 0; k < rtm_view_count(a); k++) {
            struct rtm_view v = rtm_view_at(a, k);
            size_t l1, l2;
            char *r1 = render(a, v, &l1), *r2 = render(a, v, &l2);
            assert_int_equal(l1, l2);
            assert_memory_equal(r1, r2, l1);
            struct rtm_buf b;
            rtm_buf_init(&b);
            rtm_buf_puts(&b, "prefix");
            assert_int_equal(rtm_view_render(a, v, &b), 0);
            assert_int_equal(b.len, 6 + l1);
            assert_memory_equal(b.p, "prefix", 6);
            assert_memory_equal(b.p + 6, r1, l1);
            rtm_buf_free(&b);
            free(r1);
            free(r2);
        }
    }
    for (int i = 0; i < 3; i++)
        rtm_free(anims[i]);
    rtm_buf_free(&src);
}

/* A parse without matrices renders the other views byte for byte like a full
 * one, refuses the views that need matrices, and fails where it fails. */
static void light_parse_matches_full(void **state)
{
    (void)state;
    struct sample_opts o = { 7, 70, 5, 2 };
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    for (int k = 0; k < 3; k++) {
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(k == 0 ? rtm_sample_plain(&o, &b)
                                : rtm_sample_bmtr(&o, k == 1 ? 3 : 5, BMTR_COMPRESS_ALL, &b), 0);
        struct rtm_anim *full, *light;
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, sk, 0, &full, &err), 0);
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, sk, RTM_PARSE_NO_MATRICES,
                                         &light, &err), 0);
        assert_int_equal(full->depth, RTM_DEPTH_FULL);
        assert_int_equal(light->depth, RTM_DEPTH_LIGHT);
        for (size_t i = 0; i < rtm_view_count(full); i++) {
            struct rtm_view v = rtm_view_at(full, i);
            struct rtm_buf lb;
            rtm_buf_init(&lb);
            if (rtm_view_needs_matrices(v)) {
                assert_int_equal(rtm_view_render(light, v, &lb), -1);
            } else {
                char *want = render(full, v, NULL);
                assert_int_equal(rtm_view_render(light, v, &lb), 0);
                rtm_buf_putc(&lb, 0);
                assert_string_equal(lb.p, want);
                free(want);
            }
            rtm_buf_free(&lb);
        }
        /* the same error, at the same byte, for a cut file */
        struct rtm_error e1, e2;
        struct rtm_anim *x;
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len - 5, sk, 0, &x, &e1), -1);
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len - 5, sk, RTM_PARSE_NO_MATRICES,
                                         &x, &e2), -1);
        assert_string_equal(e1.msg, e2.msg);
        assert_int_equal(e1.offset, e2.offset);
        rtm_free(full);
        rtm_free(light);
        rtm_buf_free(&b);
    }
    rtm_skeleton_free(sk);
}

/* ---- tracks and digits -------------------------------------------------- */

/* Each row of tracks/NAME.csv is "frame,phase" and then exactly the numbers
 * of that bone's row in frames/NNN.csv. */
static void expect_tracks_cut_from_frames(const struct rtm_anim *a)
{
    assert_int_equal(rtm_view_folder_size(a, RTM_VIEW_TRACK), a->nbones);
    for (uint32_t b = 0; b < a->nbones; b++) {
        char *track = render(a, (struct rtm_view){ .kind = RTM_VIEW_TRACK, .bone = b }, NULL);
        char *line = strchr(track, '\n') + 1;
        assert_memory_equal(track, "frame,phase,m11,", 16);
        for (uint32_t f = 0; f < a->nframes; f++) {
            char *frame = render(a, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = f }, NULL);
            char *row = frame;
            for (uint32_t k = 0; k <= b; k++)
                row = strchr(row, '\n') + 1;
            struct rtm_buf name, head;
            rtm_buf_init(&name);
            rtm_buf_init(&head);
            rtm_put_csv_name(&name, a->bones[b]);
            rtm_buf_printf(&head, "%u,", f);
            rtm_put_num(&head, a->phases[f], a->digits);
            assert_memory_equal(row, name.p, name.len);
            assert_memory_equal(line, head.p, head.len);
            size_t n = strcspn(row + name.len, "\n") + 1;
            assert_memory_equal(line + head.len, row + name.len, n);
            line += head.len + n;
            rtm_buf_free(&name);
            rtm_buf_free(&head);
            free(frame);
        }
        assert_int_equal(*line, 0);
        free(track);
    }
}

static void tracks_cut_from_frames(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(1, &src);
    expect_tracks_cut_from_frames(a);
    a->digits = 2;
    expect_tracks_cut_from_frames(a);
    rtm_free(a);
    rtm_buf_free(&src);
    a = bmtr_anim(5, 12, 30, 2);
    expect_tracks_cut_from_frames(a);
    a->digits = 4;
    expect_tracks_cut_from_frames(a);
    rtm_free(a);
}

/* Whether every number of s (a csv or json text) has at most d decimals
 * and no exponent, and no "-0" stands alone. */
static void expect_fixed(const char *s, int d, const char *what)
{
    for (const char *p = s; *p; p++) {
        if (*p == 'e' && p > s && p[-1] >= '0' && p[-1] <= '9')
            fail_msg("%s: an exponent at '%.20s'", what, p - 1);
        if (*p == '.' && p > s && p[-1] >= '0' && p[-1] <= '9') {
            int n = (int)strspn(p + 1, "0123456789");
            if (n > d || (n && p[n] == '0'))
                fail_msg("%s: '%.20s' has %d decimals", what, p, n);
        }
        if (p[0] == '-' && p[1] == '0' && !(p[2] == '.'))
            fail_msg("%s: -0 at '%.20s'", what, p);
    }
}

/* -o digits=N changes frames, tracks, joints, phases and props only;
 * plain.rtm and the summaries keep their bytes. */
static void digits_change_the_numbered_views(void **state)
{
    (void)state;
    struct rtm_anim *a = bmtr_anim(5, 12, 30, 2);
    assert_non_null(a->pivot);
    size_t n = rtm_view_count(a);
    char **exact = calloc(n, sizeof *exact);
    for (size_t i = 0; i < n; i++)
        exact[i] = render(a, rtm_view_at(a, i), NULL);
    a->digits = 3;
    int changed[RTM_VIEW_TRACK + 1] = { 0 };
    for (size_t i = 0; i < n; i++) {
        struct rtm_view v = rtm_view_at(a, i);
        char path[RTM_VIEW_PATH_MAX];
        size_t len;
        char *fixed = render(a, v, &len);
        rtm_view_path(a, v, path);
        int same = strcmp(fixed, exact[i]) == 0;
        switch (v.kind) {
        case RTM_VIEW_FRAME: case RTM_VIEW_TRACK: case RTM_VIEW_JOINTS:
        case RTM_VIEW_PHASES: case RTM_VIEW_PROPS:
            changed[v.kind] += !same;
            expect_fixed(fixed, 3, path);
            break;
        default:
            if (!same)
                fail_msg("%s changed with digits", path);
        }
        free(fixed);
        free(exact[i]);
    }
    free(exact);
    assert_int_equal(changed[RTM_VIEW_FRAME], 12);
    assert_int_equal(changed[RTM_VIEW_JOINTS], 12);
    assert_int_equal(changed[RTM_VIEW_TRACK], 30);
    assert_int_equal(changed[RTM_VIEW_PHASES], 1);
    assert_int_equal(changed[RTM_VIEW_PROPS], 1);
    rtm_free(a);
}

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

/* rtm_view_timed_size gives the timed views' rendered length from their
 * sizes in the empty generation. */
static void expect_timed_sizes(const struct rtm_anim *a, const uint64_t *sizes,
                               const char *what)
{
    struct rtm_timing t[4];
    some_timings(a, t);
    struct rtm_buf b;
    rtm_buf_init(&b);
    for (size_t i = 0; i < rtm_view_count(a); i++) {
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
    rtm_buf_free(&b);
}

/* rtm_view_sizes gives every view's rendered length. */
static void expect_sizes(const struct rtm_anim *a, const char *what)
{
    size_t n = rtm_view_count(a);
    uint64_t *sizes = malloc((n + 1) * sizeof *sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    struct rtm_buf b;
    rtm_buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        b.len = 0;
        assert_int_equal(rtm_view_render(a, rtm_view_at(a, i), &b), 0);
        if (sizes[i] != b.len) {
            char path[RTM_VIEW_PATH_MAX];
            rtm_view_path(a, rtm_view_at(a, i), path);
            fail_msg("%s, digits %d: %s sized %llu, rendered %zu", what, a->digits, path,
                     (unsigned long long)sizes[i], b.len);
        }
    }
    rtm_buf_free(&b);
    expect_timed_sizes(a, sizes, what);
    free(sizes);
}

/* On the writer's samples (both skeletons, every format, exact and fixed
 * numbers) and, with ../shared, every corpus file, timed too; a light
 * parse has no sizes to give. */
static void sizes_in_one_pass(void **state)
{
    (void)state;
    struct sample_opts o = { 9, 70, 3, 2 };
    for (int k = 0; k < 4; k++) {
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(k == 0 ? rtm_sample_plain(&o, &b)
                                : rtm_sample_bmtr(&o, (uint32_t)(2 + k), BMTR_COMPRESS_AUTO, &b), 0);
        for (int sk = 0; sk < 2; sk++) {
            struct rtm_anim *a = parse_ok(&b, sk ? "none" : "ofp2");
            for (int d = -1; d <= 3; d += 2) {
                a->digits = d;
                expect_sizes(a, "sample");
            }
            rtm_free(a);
        }
        struct rtm_anim *light;
        struct rtm_error err;
        assert_int_equal(rtm_parse_flags((const uint8_t *)b.p, b.len, NULL,
                                         RTM_PARSE_NO_MATRICES, &light, &err), 0);
        uint64_t sizes[64];
        assert_int_equal(rtm_view_sizes(light, sizes), -1);
        rtm_free(light);
        rtm_buf_free(&b);
    }
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        expect_sizes(a, c.path[i]);
        a->digits = 3;
        expect_sizes(a, c.path[i]);
        rtm_free(a);
    }
    rtm_skeleton_free(s);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(light_parse_matches_full),
        cmocka_unit_test(render_is_stable),
        cmocka_unit_test(tracks_cut_from_frames),
        cmocka_unit_test(digits_change_the_numbered_views),
        cmocka_unit_test(sizes_in_one_pass),
    };
    return run_test_cases(tests, NULL, NULL);
}
