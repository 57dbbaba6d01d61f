/* test_timing.c - the game's time of one pass (timing.h): the rule for
 * positive, negative, zero and extreme speeds (the 0.05 s and 600 s
 * bounds), one-frame files, states that disagree or agree, unknown
 * speeds, no state (its sentence) and no config read (none); the timing of a game path from a table of configs (states.h);
 * the generation key: a config changed, added or removed changes
 * preview.svg and anim.bvh, and no other view; and what the two views
 * write: the SVG's dur and <desc>, the BVH's Frame Time (the mean step).
 * Through the tree (tree.h, with the loader and cache, no FUSE): a config
 * rewritten, added, removed changes states.txt, preview.svg and anim.bvh,
 * byte for byte as rendered under the timing, sizes exact at lookup, and
 * no other view; no config at all: the no-state sentence; -o
 * timing=frames keeps the file's own (no sentence). */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "cfg_testutil.h"
#include "tree_testutil.h"
#include "cache.h"
#include "loader.h"
#include "skeleton.h"
#include "tree.h"
#include "bvh.h"
#include "samples.h"
#include "states.h"
#include "timing.h"

static struct rtm_timing decide1(const char *speed, int known, double value, uint32_t nframes)
{
    struct rtm_timing_state s = { "CfgMovesMaleSdr/States/A", speed, known, value };
    struct rtm_timing t;
    rtm_timing_decide(&s, 1, nframes, &t);
    return t;
}

static const char NO_STATE[] =
    "Timing: 30 frames a second (the convention): no config state plays this file.";

/* No state: the convention, and the sentence says so (naming no game
 * path); no config read: the empty generation, no sentence. */
static void no_state_says_so(void **state)
{
    (void)state;
    struct rtm_timing t;
    rtm_timing_decide(NULL, 0, 10, &t);
    assert_string_equal(t.why, NO_STATE);
    assert_false(rtm_timing_empty(&t));
    assert_true(t.seconds == 0);
    rtm_timing_decide(NULL, 0, 1, &t);          /* one frame: still, no state all the same */
    assert_string_equal(t.why, NO_STATE);
    rtm_timing_alone(&t);
    assert_true(rtm_timing_empty(&t));
    assert_true(t.seconds == 0);
    assert_true(rtm_timing_empty(NULL));
    rtm_states_timing(NULL, "\\m\\walk.rtm", 10, &t);   /* no configs read */
    assert_true(rtm_timing_empty(&t));
}

static void positive_and_negative_speeds(void **state)
{
    (void)state;
    struct rtm_timing t = decide1("0.06", 1, 0.06, 41);
    assert_true(fabs(t.seconds - 1 / 0.06) < 1e-9);
    assert_string_equal(t.why, "Timing: one pass in 16.6667 s, from CfgMovesMaleSdr/States/A "
                               "(speed=0.06).");
    t = decide1("-8", 1, -8, 41);
    assert_true(t.seconds == 8);
    assert_string_equal(t.why, "Timing: one pass in 8 s, from CfgMovesMaleSdr/States/A (speed=-8).");
}

static void zero_keeps_the_convention(void **state)
{
    (void)state;
    struct rtm_timing t = decide1("0", 1, 0, 41);
    assert_true(t.seconds == 0);
    assert_string_equal(t.why, "Timing: 30 frames a second (the convention): "
                               "CfgMovesMaleSdr/States/A (speed=0) has no duration.");
}

static void extremes_play_at_the_bounds(void **state)
{
    (void)state;
    struct rtm_timing t = decide1("100000", 1, 100000, 2);
    assert_true(t.seconds == RTM_TIMING_MIN_S);
    assert_string_equal(t.why, "Timing: one pass in 0.05 s, the shortest played: "
                               "CfgMovesMaleSdr/States/A (speed=100000: 1e-05 s).");
    t = decide1("-1000", 1, -1000, 2);
    assert_true(t.seconds == RTM_TIMING_MAX_S);
    assert_string_equal(t.why, "Timing: one pass in 600 s, the longest played: "
                               "CfgMovesMaleSdr/States/A (speed=-1000: 1000 s).");
    /* on the bounds themselves: no note */
    t = decide1("20", 1, 20, 2);
    assert_true(t.seconds == 0.05);
    assert_non_null(strstr(t.why, "one pass in 0.05 s, from"));
    t = decide1("-600", 1, -600, 2);
    assert_true(t.seconds == 600);
    assert_non_null(strstr(t.why, "one pass in 600 s, from"));
}

static void one_frame_stays_still(void **state)
{
    (void)state;
    struct rtm_timing t = decide1("0.5", 1, 0.5, 1);
    assert_true(t.seconds == 0);
    assert_string_equal(t.why, "Timing: none, a still pose of 1 frame, played by "
                               "CfgMovesMaleSdr/States/A (speed=0.5).");
}

static void unknown_speed(void **state)
{
    (void)state;
    struct rtm_timing_state s[] = { { "C/States/A", "0.5", 1, 0.5 }, { "C/States/B", "?", 0, NAN } };
    struct rtm_timing t;
    rtm_timing_decide(s, 2, 10, &t);
    assert_true(t.seconds == 0);
    assert_string_equal(t.why, "Timing: 30 frames a second (the convention): the speed of "
                               "C/States/B (speed=?) is unknown.");
}

static void disagreement_and_agreement(void **state)
{
    (void)state;
    struct rtm_timing_state s[] = { { "C/States/A", "0.5", 1, 0.5 }, { "C/States/B", "-2", 1, -2 },
                                    { "C/States/C", "-3", 1, -3 } };
    struct rtm_timing t;
    rtm_timing_decide(s, 2, 10, &t);            /* 2 s and 2 s agree */
    assert_true(t.seconds == 2);
    assert_string_equal(t.why, "Timing: one pass in 2 s, from C/States/A (speed=0.5) and 1 more "
                               "state that agrees.");
    rtm_timing_decide(s, 3, 10, &t);
    assert_true(t.seconds == 0);
    assert_string_equal(t.why, "Timing: 30 frames a second (the convention): the 3 states that "
                               "play this file disagree: C/States/A (speed=0.5: 2 s), C/States/B "
                               "(speed=-2: 2 s), C/States/C (speed=-3: 3 s).");
    struct rtm_timing_state z[] = { { "C/States/A", "0", 1, 0 }, { "C/States/B", "-2", 1, -2 } };
    rtm_timing_decide(z, 2, 10, &t);            /* none and 2 s */
    assert_true(t.seconds == 0);
    assert_non_null(strstr(t.why, "disagree: C/States/A (speed=0: none), C/States/B"));
}

/* ---- from configs, and the views it changes ---- */

/* The timing of \m\walk.rtm (nframes frames) from the configs given. */
static struct rtm_timing timing_of(const char *const *texts, size_t n, uint32_t nframes)
{
    struct rtm_states *s = rtm_states_new();
    char rel[32];
    assert_non_null(s);
    for (size_t i = 0; i < n; i++) {
        snprintf(rel, sizeof rel, "m%zu/config.cpp", i);
        assert_int_equal(rtm_states_add(s, text_ok(texts[i]), rel), 0);
    }
    assert_int_equal(rtm_states_finish(s), 0);
    struct rtm_timing t;
    rtm_states_timing(s, "\\M\\Walk.rtm", nframes, &t);
    rtm_states_free(s);
    return t;
}

static char *render_timed(const struct rtm_anim *a, struct rtm_view v, const struct rtm_timing *t)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_view_render_timed(a, v, t, &b), 0);
    rtm_buf_putc(&b, 0);
    return rtm_buf_take(&b, NULL);
}

/* Whether every view of a but the timed ones (preview.svg, anim.bvh,
 * anim.glb) is the same under timings x and y, byte for byte (anim.glb is
 * binary); and how many of those differ. */
static int timed_views_differing(const struct rtm_anim *a, const struct rtm_timing *x,
                                 const struct rtm_timing *y)
{
    int differ = 0;
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        struct rtm_buf p, q;
        rtm_buf_init(&p);
        rtm_buf_init(&q);
        assert_int_equal(rtm_view_render_timed(a, v, x, &p), 0);
        assert_int_equal(rtm_view_render_timed(a, v, y, &q), 0);
        int same = p.len == q.len && (!p.len || memcmp(p.p, q.p, p.len) == 0);
        if (rtm_view_timed(v.kind))
            differ += !same;
        else
            assert_true(same);
        rtm_buf_free(&p);
        rtm_buf_free(&q);
    }
    return differ;
}

static void generation_follows_the_configs(void **state)
{
    (void)state;
    static const char *const slow[] = {
        "class CfgMovesMaleSdr { class States { class Walk { file = \"m\\walk.rtm\"; speed = 0.25; }; }; };\n",
    };
    static const char *const fast[] = {
        "class CfgMovesMaleSdr { class States { class Walk { file = \"m\\walk.rtm\"; speed = -2; }; }; };\n",
    };
    static const char *const two[] = {
        slow[0],
        "class CfgGesturesMale { class States { class G { file = \"\\m/WALK.rtm\"; speed = 1; }; }; };\n",
    };
    static const char *const other[] = {
        "class CfgMovesMaleSdr { class States { class Run { file = \"m\\run.rtm\"; speed = 1; }; }; };\n",
    };
    struct rtm_anim *a = sample_figure(6);
    struct rtm_timing t_slow = timing_of(slow, 1, 6), t_fast = timing_of(fast, 1, 6),
                      t_two = timing_of(two, 2, 6), t_none = timing_of(other, 1, 6),
                      t_empty = timing_of(NULL, 0, 6), t_alone;
    rtm_timing_alone(&t_alone);
    assert_true(t_slow.seconds == 4 && t_fast.seconds == 2 && t_two.seconds == 0);
    assert_non_null(strstr(t_slow.why, "from CfgMovesMaleSdr/States/Walk (speed=0.25)"));
    assert_non_null(strstr(t_two.why, "the 2 states that play this file disagree"));
    assert_string_equal(t_none.why, NO_STATE);  /* no state names it */
    assert_string_equal(t_empty.why, NO_STATE); /* no config at all */
    /* changed, added, removed: the three timed views change, no other */
    assert_int_equal(timed_views_differing(a, &t_slow, &t_fast), 3);
    assert_int_equal(timed_views_differing(a, &t_slow, &t_two), 3);
    /* removed: the states no longer disagree, the convention stays: the
     * SVG's <desc> says why anew; the BVH and the GLB, of the convention
     * both times, are the same */
    assert_int_equal(timed_views_differing(a, &t_two, &t_none), 1);
    assert_int_equal(timed_views_differing(a, &t_slow, &t_none), 3);
    /* no state and the file alone differ by the <desc> only; the empty
     * generation renders what the file alone gives */
    assert_int_equal(timed_views_differing(a, &t_none, &t_alone), 1);
    assert_int_equal(timed_views_differing(a, &t_alone, NULL), 0);
    rtm_free(a);
}

static void what_the_views_write(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(6);
    struct rtm_timing t = decide1("0.06", 1, 0.06, a->nframes);
    char *svg = render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_PREVIEW }, &t);
    char *bvh = render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_BVH }, &t);
    char *plain = render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_PREVIEW }, NULL);
    assert_non_null(strstr(svg, " dur=\"16.667s\""));
    assert_non_null(strstr(plain, " dur=\"1s\""));     /* 6 frames: at least 1 s */
    assert_non_null(strstr(svg, "<desc>Timing: one pass in 16.6667 s, from "
                                "CfgMovesMaleSdr/States/A (speed=0.06).</desc>"));
    assert_null(strstr(plain, "<desc>"));
    /* the mean step: 5 steps make one pass */
    char want[64];
    snprintf(want, sizeof want, "\nFrame Time: %.6g\n", (1 / 0.06) / 5);
    assert_non_null(strstr(bvh, want));
    free(svg);
    free(bvh);
    free(plain);
    /* a speed written as a string is escaped in the SVG */
    struct rtm_timing_state s = { "C/States/<&>", "\"a<b\"", 0, NAN };
    rtm_timing_decide(&s, 1, a->nframes, &t);
    svg = render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_PREVIEW }, &t);
    assert_non_null(strstr(svg, "C/States/&lt;&amp;&gt; (speed=\"a&lt;b\") is unknown.</desc>"));
    assert_non_null(strstr(svg, " dur=\"1s\""));
    free(svg);
    /* one frame: still, and the BVH keeps the convention */
    rtm_free(a);
    a = sample_figure(1);
    t = decide1("0.5", 1, 0.5, a->nframes);
    svg = render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_PREVIEW }, &t);
    bvh = render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_BVH }, &t);
    assert_null(strstr(svg, "<animate"));
    assert_non_null(strstr(svg, "a still pose of 1 frame"));
    assert_non_null(strstr(bvh, "\nFrame Time: " RTM_BVH_FRAME_TIME "\n"));
    free(svg);
    free(bvh);
    rtm_free(a);
}

/* ---- through the tree ---- */

struct env {
    struct tree_fixture f;      /* SOURCE, the figure's skeleton, loader, cache, tree */
    struct rtm_anim *a;         /* the figure, parsed here */
};

/* What the kernel would be told of a change: nothing here. */
static void forget_entry(void *ctx, uint64_t parent, const char *name)
{
    (void)ctx, (void)parent, (void)name;
}
static void forget_inode(void *ctx, uint64_t ino)
{
    (void)ctx, (void)ino;
}
static const struct rtm_tree_notify QUIET = { NULL, forget_entry, forget_inode };

/* A config in folder (a $PBOPREFIX$ addon) that plays \m\walk.rtm at speed. */
static void put_config(struct env *e, const char *folder, const char *speed)
{
    char path[128], text[256];
    snprintf(path, sizeof path, "%s/config.cpp", folder);
    int n = snprintf(text, sizeof text, "class CfgMovesMaleSdr { class States { class W_%s {"
                     " file = \"\\m\\walk.rtm\"; speed = %s; }; }; };\n", folder, speed);
    put_file(e->f.fd, path, text, (size_t)n);
    rtm_tree_changed(e->f.t, folder, "config.cpp", &QUIET);
}

static int tree_setup(void **state, int frames_only)
{
    struct env *e = calloc(1, sizeof *e);
    struct rtm_buf rtm, skel;
    struct rtm_error err;
    tree_fixture_open(&e->f, "timing");
    assert_int_equal(mkdirat(e->f.fd, "m", 0755) || mkdirat(e->f.fd, "b", 0755), 0);
    put_file(e->f.fd, "m/$PBOPREFIX$", "m", 1);
    put_file(e->f.fd, "b/$PBOPREFIX$", "b", 1);
    rtm_buf_init(&rtm);
    rtm_buf_init(&skel);
    assert_int_equal(rtm_sample_figure(6, &rtm, &skel), 0);
    put_file(e->f.fd, "m/walk.rtm", rtm.p, rtm.len);
    assert_int_equal(rtm_skeleton_parse(skel.p, skel.len, "figure", &e->f.skel, &err), 0);
    assert_int_equal(rtm_parse((const uint8_t *)rtm.p, rtm.len, e->f.skel, &e->a, &err), 0);
    rtm_buf_free(&rtm);
    rtm_buf_free(&skel);
    tree_fixture_mount(&e->f, 64u << 20);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .timing_frames = frames_only });
    *state = e;
    return 0;
}
static int setup_game(void **state) { return tree_setup(state, 0); }
static int setup_frames(void **state) { return tree_setup(state, 1); }

static int tree_teardown(void **state)
{
    struct env *e = *state;
    rtm_free(e->a);
    tree_fixture_close(&e->f);
    free(e);
    return 0;
}

/* m/walk.rtm/VIEW looked up and read whole, its size at lookup checked:
 * a new string. */
static char *cat(struct env *e, const char *view)
{
    char path[RTM_VIEW_PATH_MAX + 16];
    struct rtm_tree_entry te;
    struct rtm_buf b;
    snprintf(path, sizeof path, "m/walk.rtm/%s", view);
    assert_int_equal(tree_walk(e->f.t, path, &te), 0);
    rtm_buf_init(&b);
    ssize_t got;
    assert_int_equal(rtm_buf_reserve(&b, (size_t)te.st.st_size + 4096), 0);
    while ((got = rtm_tree_read(e->f.t, te.ino, b.p + b.len, 4096, (off_t)b.len)) > 0) {
        b.len += (size_t)got;
        assert_int_equal(rtm_buf_reserve(&b, 4096), 0);
    }
    assert_int_equal(got, 0);
    assert_int_equal(b.len, (size_t)te.st.st_size);
    rtm_buf_putc(&b, 0);
    return rtm_buf_take(&b, NULL);
}

/* Every view of the figure but the three that follow the configs, read
 * through the tree, as one string. */
static char *others(struct env *e)
{
    struct rtm_buf all;
    rtm_buf_init(&all);
    for (size_t i = 0; i < rtm_view_count(e->a); i++) {
        char name[RTM_VIEW_PATH_MAX];
        struct rtm_view v = rtm_view_at(e->a, i);
        if (rtm_view_timed(v.kind))
            continue;
        rtm_view_path(e->a, v, name);
        char *text = cat(e, name);
        rtm_buf_printf(&all, "== %s\n%s", name, text);
        free(text);
    }
    rtm_buf_putc(&all, 0);
    return rtm_buf_take(&all, NULL);
}

/* Whether preview.svg and anim.bvh read through the tree are the figure's
 * rendered under timing t. */
static void expect_views(struct env *e, const struct rtm_timing *t)
{
    static const enum rtm_view_kind KINDS[] = { RTM_VIEW_PREVIEW, RTM_VIEW_BVH };
    for (int k = 0; k < 2; k++) {
        struct rtm_view v = { .kind = KINDS[k] };
        char *want = render_timed(e->a, v, t), *got = cat(e, rtm_view_fixed_name(v.kind));
        assert_string_equal(got, want);
        free(want);
        free(got);
    }
}

/* The same under the timing of the states given, and states.txt names
 * them. */
static void expect_timed(struct env *e, const struct rtm_timing_state *st, size_t n)
{
    struct rtm_timing t;
    rtm_timing_decide(st, n, e->a->nframes, &t);
    char *states = cat(e, "states.txt");
    for (size_t i = 0; i < n; i++)
        assert_non_null(strstr(states, st[i].state));
    free(states);
    expect_views(e, &t);
}

static void tree_follows_the_configs(void **state)
{
    struct env *e = *state;
    char *before = others(e);
    expect_timed(e, NULL, 0);                   /* no config: no state, and says so */
    char *svg = cat(e, "preview.svg");
    assert_non_null(strstr(svg, NO_STATE));
    free(svg);
    put_config(e, "m", "0.25");
    struct rtm_timing_state slow = { "CfgMovesMaleSdr/States/W_m", "0.25", 1, 0.25 };
    expect_timed(e, &slow, 1);
    put_config(e, "m", "-2");                   /* changed */
    struct rtm_timing_state fast = { "CfgMovesMaleSdr/States/W_m", "-2", 1, -2 };
    expect_timed(e, &fast, 1);
    put_config(e, "b", "1");                    /* added: they disagree */
    struct rtm_timing_state two[] = { { "CfgMovesMaleSdr/States/W_b", "1", 1, 1 }, fast };
    expect_timed(e, two, 2);
    assert_int_equal(unlinkat(e->f.fd, "m/config.cpp", 0), 0);       /* removed */
    rtm_tree_changed(e->f.t, "m", "config.cpp", &QUIET);
    expect_timed(e, two, 1);
    assert_int_equal(unlinkat(e->f.fd, "b/config.cpp", 0), 0);
    rtm_tree_changed(e->f.t, "b", "config.cpp", &QUIET);
    expect_timed(e, NULL, 0);
    char *after = others(e);
    assert_string_equal(after, before);         /* and no other view moved */
    free(before);
    free(after);
}

static void tree_timing_frames(void **state)
{
    struct env *e = *state;
    put_config(e, "m", "0.25");
    char *states = cat(e, "states.txt");
    assert_non_null(strstr(states, "W_m speed=0.25"));     /* states.txt still reads them */
    free(states);
    struct rtm_timing alone;
    rtm_timing_alone(&alone);
    expect_views(e, &alone);                    /* the file's own: no sentence */
}

/* A mount over the same SOURCE with the index beside it, as rtmfs makes
 * one: the figure's skeleton, sizes and timed sizes remembered. */
static void mount_indexed(struct env *e)
{
    struct rtm_buf rtm, skel;
    struct rtm_error err;
    tree_fixture_unmount(&e->f);
    rtm_buf_init(&rtm);
    rtm_buf_init(&skel);
    assert_int_equal(rtm_sample_figure(6, &rtm, &skel), 0);
    assert_int_equal(rtm_skeleton_parse(skel.p, skel.len, "figure", &e->f.skel, &err), 0);
    rtm_buf_free(&rtm);
    rtm_buf_free(&skel);
    assert_non_null(e->f.ix = rtm_index_open(e->f.index, 64u << 20, tree_quiet, NULL));
    tree_fixture_mount(&e->f, 64u << 20);
    e->f.l.render = "timing";
    e->f.l.log = tree_quiet;
    rtmc_set_store(e->f.c, rtm_loader_store);
    rtmc_set_timed(e->f.c, rtm_loader_timed);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .store = &e->f.store });
}

/* A later mount lists the views the configs time, and states.txt, with
 * their sizes once its table is there: the index remembers the views'
 * sizes, states.txt is made of the table, and a walk that stats (du,
 * ls -l) is not made to look up each one of every animation. */
static void later_listing_gives_timed_sizes(void **state)
{
    struct env *e = *state;
    static const char *const TIMED[] = { "preview.svg", "anim.bvh", "states.txt" };
    enum { N = sizeof TIMED / sizeof *TIMED };
    uint64_t sizes[N];
    put_config(e, "m", "0.25");
    mount_indexed(e);
    for (int i = 0; i < N; i++) {
        char *text = cat(e, TIMED[i]);          /* sized under the timing: remembered */
        sizes[i] = strlen(text);
        free(text);
    }
    mount_indexed(e);
    char *states = cat(e, "states.txt");        /* the table, from the index */
    free(states);
    struct rtm_tree_entry dir;
    struct rtm_dirlist *d;
    assert_int_equal(tree_walk(e->f.t, "m/walk.rtm", &dir), 0);
    assert_int_equal(rtm_tree_listing(e->f.t, dir.ino, 0, &d), 0);
    struct rtm_tree_entry *te = calloc(d->n, sizeof *te);
    assert_non_null(te);
    rtm_tree_listed_entries(e->f.t, dir.ino, d, 0, d->n, te);
    int given = 0;
    for (size_t k = 2; k < d->n; k++)
        for (int i = 0; i < N; i++)
            if (!strcmp(d->e[k].name, TIMED[i])) {
                assert_true(te[k].ino != 0);
                assert_int_equal(te[k].st.st_size, sizes[i]);
                rtm_tree_forget(e->f.t, te[k].ino, 1);
                given++;
            }
    assert_int_equal(given, N);
    free(te);
    rtm_tree_listing_put(e->f.t, d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_state_says_so),
        cmocka_unit_test(positive_and_negative_speeds),
        cmocka_unit_test(zero_keeps_the_convention),
        cmocka_unit_test(extremes_play_at_the_bounds),
        cmocka_unit_test(one_frame_stays_still),
        cmocka_unit_test(unknown_speed),
        cmocka_unit_test(disagreement_and_agreement),
        cmocka_unit_test(generation_follows_the_configs),
        cmocka_unit_test(what_the_views_write),
        cmocka_unit_test_setup_teardown(tree_follows_the_configs, setup_game, tree_teardown),
        cmocka_unit_test_setup_teardown(tree_timing_frames, setup_frames, tree_teardown),
        cmocka_unit_test_setup_teardown(later_listing_gives_timed_sizes, setup_game,
                                        tree_teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
