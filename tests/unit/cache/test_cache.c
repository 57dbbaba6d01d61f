/* test_cache.c - the LRU of parsed animations, views, archive tables and
 * entries' content (cache.h): loads, hits, errors kept or not, views and
 * sizes as rendered, versions and invalidation, levels, concurrent gets.
 * Its budget is test_cache_budget.c's. */
#include <pthread.h>
#include <unistd.h>

#include "testutil.h"
#include "cache_testutil.h"
#include "pbo.h"
#include "timing.h"

static void hit_after_load(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    struct rtmc_entry *a = cache_get(c, "a.rtm", 10, 1), *b = cache_get(c, "a.rtm", 10, 1);
    assert_ptr_equal(a, b);
    assert_int_equal(fake.loads, 1);
    assert_int_equal(rtmc_anim(a)->nframes, 10);
    assert_string_equal(rtmc_error(a), "");
    struct rtmc_entry *v2 = cache_get(c, "a.rtm", 12, 2);   /* a new version */
    assert_ptr_not_equal(v2, a);
    assert_int_equal(rtmc_anim(v2)->nframes, 12);
    assert_int_equal(fake.loads, 2);
    rtmc_put(c, a);
    rtmc_put(c, b);
    rtmc_put(c, v2);
    rtmc_free(c);
}

static void parse_error_is_cached_io_error_is_not(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    struct rtmc_entry *h = cache_get(c, "bad.rtm", 10, 1);
    assert_null(rtmc_anim(h));
    assert_string_equal(rtmc_error(h), "bad.rtm: broken (at byte 8)");
    rtmc_put(c, h);
    rtmc_put(c, cache_get(c, "bad.rtm", 10, 1));
    assert_int_equal(fake.loads, 1);
    struct rtmc_src s = cache_key("io.rtm", 10, 1);
    assert_int_equal(rtmc_get(c, &s, &h), -EIO);
    assert_null(h);
    assert_int_equal(rtmc_get(c, &s, &h), -EIO);
    assert_int_equal(fake.loads, 3);
    rtmc_free(c);
}

static void views_match_render_and_are_cached(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    struct rtmc_entry *h = cache_get(c, "a.rtm", 10, 1);
    const struct rtm_anim *a = rtmc_anim(h);
    /* the first size asked: that view alone rendered (and kept for its
     * read); a second one: every view sized at once, none rendered */
    uint64_t last, first;
    struct rtmc_stats st;
    assert_int_equal(rtmc_view_size(c, h, rtm_view_at(a, rtm_view_count(a) - 1), &last), 0);
    rtmc_get_stats(c, &st);
    assert_int_equal(st.sizings, 0);
    assert_int_equal(st.renders, 1);
    assert_int_equal(rtmc_view_size(c, h, rtm_view_at(a, 0), &first), 0);
    rtmc_get_stats(c, &st);
    assert_int_equal(st.sizings, 1);
    assert_int_equal(st.renders, 1);
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        size_t want_len, len;
        char *want = render(a, v, &want_len);
        uint64_t size;
        assert_int_equal(rtmc_view_size(c, h, v, &size), 0);
        assert_int_equal(size, want_len);
        struct rtmc_view *cv;
        assert_int_equal(rtmc_view_get(c, h, v, &cv), 0);
        const char *data = rtmc_view_data(cv, &len);
        assert_int_equal(len, want_len);
        assert_memory_equal(data, want, len);
        rtmc_view_put(c, cv);
        free(want);
    }
    rtmc_get_stats(c, &st);
    assert_int_equal(st.renders, rtm_view_count(a));   /* each view once: sized or read */
    assert_int_equal(st.sizings, 1);
    rtmc_put(c, h);
    rtmc_free(c);
}

/* Under a timing (as rtmcat lists a file), once a view is sized: a view
 * no timing changes is sized as without a timing (the second view asked
 * sizes every view at once); preview.svg then from its untimed size, with
 * nothing rendered or sized again; both as rendering them says. */
static void timed_sizes_match_render(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    struct rtmc_entry *h = cache_get(c, "a.rtm", 10, 1);
    const struct rtm_anim *a = rtmc_anim(h);
    struct rtm_timing tm;
    rtm_timing_decide(NULL, 0, a->nframes, &tm);
    uint64_t size;
    assert_int_equal(rtmc_view_size(c, h, (struct rtm_view){ .kind = RTM_VIEW_BONES }, &size), 0);
    struct rtm_view views[2] = { { .kind = RTM_VIEW_HEADER }, { .kind = RTM_VIEW_PREVIEW } };
    for (int i = 0; i < 2; i++) {
        struct rtmc_stats before, after;
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(rtm_view_render_timed(a, views[i], &tm, &b), 0);
        rtmc_get_stats(c, &before);
        assert_int_equal(rtmc_timed_view_size(c, h, views[i], &tm, &size), 0);
        rtmc_get_stats(c, &after);
        assert_int_equal(size, b.len);
        assert_int_equal(after.renders - before.renders, 0);
        assert_int_equal(after.sizings - before.sizings, i == 0);
        rtm_buf_free(&b);
    }
    /* A view no timing changes, asked under a timing of an entry too light
     * for it (rtmcat asks every view so), is sized untimed: such a view
     * has no timed slot to keep its size in. */
    struct rtmc *c2 = rtmc_new(64u << 20, fake_load, &fake);
    struct rtmc_src light = cache_key("a.rtm", 10, 1);
    light.level = RTMC_LIGHT;
    struct rtmc_entry *hl;
    struct rtm_view frame = { .kind = RTM_VIEW_FRAME, .frame = 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_view_render(a, frame, &b), 0);
    assert_int_equal(rtmc_get(c2, &light, &hl), 0);
    assert_int_equal(rtmc_timed_view_size(c2, hl, frame, &tm, &size), 0);
    assert_int_equal(size, b.len);
    rtm_buf_free(&b);
    rtmc_put(c2, hl);
    rtmc_free(c2);
    rtmc_put(c, h);
    rtmc_free(c);
}

/* A worker sizes ahead from a light entry (what a listing loads) whose
 * version's full parse fails, or gives fewer views than the head: each is
 * -EIO, with the entry's sizes still unknown and its light views still
 * sized; nothing is read from the full entry's missing or shorter sizes
 * (the first crashed rtmfs; the second read past them, which only
 * AddressSanitizer sees). */
static void size_ahead_when_full_parse_differs(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    static const char *const paths[] = { "fewer.rtm", "fullbad.rtm" };
    for (int i = 0; i < 2; i++) {
        struct rtmc_src light = cache_key(paths[i], 10, 1);
        light.level = RTMC_LIGHT;
        struct rtmc_entry *h;
        uint64_t size;
        assert_int_equal(rtmc_get(c, &light, &h), 0);
        assert_non_null(rtmc_anim(h));
        assert_int_equal(rtmc_size_ahead(c, h), -EIO);
        struct rtm_view frame = { .kind = RTM_VIEW_FRAME, .frame = 0 };
        assert_int_equal(rtmc_view_size_known(c, h, frame, &size), -EAGAIN);
        assert_int_equal(rtmc_view_size(c, h, frame, &size), -EIO);
        assert_int_equal(rtmc_size_ahead(c, h), -EIO);          /* again: the same */
        assert_int_equal(rtmc_view_size(c, h, (struct rtm_view){ .kind = RTM_VIEW_BONES }, &size), 0);
        assert_true(size > 0);
        rtmc_put(c, h);
    }
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.ahead, 0);
    rtmc_free(c);
}

static void invalidate_drops_every_version(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    rtmc_put(c, cache_get(c, "a", 10, 1));
    struct rtmc_entry *h = cache_get(c, "a", 12, 2);
    struct rtm_view hdr = { .kind = RTM_VIEW_HEADER, .frame = 0 };
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, h, hdr, &v), 0);
    rtmc_invalidate(c, "a");
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 0);
    size_t len;
    assert_non_null(rtmc_view_data(v, &len));    /* still readable while held */
    assert_int_equal(rtmc_anim(h)->nframes, 12);
    rtmc_view_put(c, v);
    rtmc_put(c, h);
    assert_int_equal(cache_touch(c, "a"), 1);          /* gone from the index */
    rtmc_free(c);
}

/* Tables and data live beside anims, keyed by kind too; invalidating an
 * archive drops what came from it and nothing else. */
static void archives_tables_and_data(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    fake.c = c;
    struct rtmc_entry *a = cache_get_kind(c, "x.pbo/a.rtm", RTMC_ANIM, 5);   /* loads the table */
    assert_int_equal(fake.loads, 2);
    assert_int_equal(rtmc_anim(a)->nframes, 10);
    assert_null(rtmc_pbo(a));
    struct rtmc_entry *t = cache_get_kind(c, "x.pbo", RTMC_TABLE, 0);         /* a hit */
    assert_int_equal(fake.loads, 2);
    assert_int_equal(rtmc_pbo(t)->nentries, 1);
    assert_string_equal(rtmc_pbo(t)->entries[0].path, "x.pbo");
    assert_null(rtmc_anim(t));
    struct rtmc_entry *d = cache_get_kind(c, "x.pbo/c.bin", RTMC_DATA, 5);
    size_t len;
    assert_memory_equal(rtmc_data(d, &len), "x.pbo/c.bin", 11);
    assert_int_equal(len, 11);
    /* the same key, another kind */
    struct rtmc_entry *d2 = cache_get_kind(c, "x.pbo", RTMC_DATA, 0);
    assert_ptr_not_equal(d2, t);
    assert_int_equal(fake.loads, 4);
    struct rtmc_entry *bad = cache_get_kind(c, "bad.pbo", RTMC_TABLE, 0);
    assert_null(rtmc_pbo(bad));
    assert_string_equal(rtmc_error(bad), "bad.pbo: broken (at byte 8)");
    rtmc_put(c, cache_get_kind(c, "x.pbox", RTMC_TABLE, 0));
    rtmc_put(c, cache_get_kind(c, "x.pb", RTMC_TABLE, 0));
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 7);
    assert_true(st.bytes > 7 * 100);
    rtmc_invalidate(c, "x.pbo");
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 3);                /* bad.pbo, x.pbox, x.pb */
    assert_int_equal(rtmc_pbo(t)->nentries, 1);     /* still valid while held */
    rtmc_put(c, a);
    rtmc_put(c, t);
    rtmc_put(c, d);
    rtmc_put(c, d2);
    rtmc_put(c, bad);
    int before = fake.loads;
    rtmc_put(c, cache_get_kind(c, "x.pbo", RTMC_TABLE, 0));
    rtmc_put(c, cache_get_kind(c, "x.pbox", RTMC_TABLE, 0));
    assert_int_equal(fake.loads, before + 1);          /* only x.pbo was dropped */
    rtmc_free(c);
    fake.c = NULL;
}

struct racer {
    struct rtmc *c;
    struct rtmc_entry *h;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    struct rtmc_src s = cache_key("same.rtm", 10, 1);
    if (rtmc_get(r->c, &s, &r->h))
        r->h = NULL;
    return NULL;
}

static void concurrent_gets_parse_once(void **state)
{
    (void)state;
    enum { N = 8 };
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    pthread_t t[N];
    struct racer r[N];
    fake.delay = 50000;
    for (int i = 0; i < N; i++) {
        r[i].c = c;
        assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(fake.loads, 1);
    for (int i = 0; i < N; i++) {
        assert_non_null(r[i].h);
        assert_ptr_equal(r[i].h, r[0].h);
        rtmc_put(c, r[i].h);
    }
    rtmc_free(c);
}

/* The one depth rule: bones.txt from a shape, the views with numbers
 * from a full parse, the rest from a light one. */
static void view_levels(void **state)
{
    (void)state;
    for (int k = 0; k <= RTM_VIEW_TRACK; k++) {
        struct rtm_view v = { .kind = (enum rtm_view_kind)k };
        enum rtmc_level want = rtm_view_needs_matrices(v) ? RTMC_FULL
                               : k == RTM_VIEW_BONES      ? RTMC_SHAPE
                                                          : RTMC_LIGHT;
        assert_int_equal(rtmc_view_level(v), want);
    }
    assert_int_equal(rtmc_view_level((struct rtm_view){ .kind = RTM_VIEW_PHASES }), RTMC_LIGHT);
    assert_int_equal(rtmc_view_level((struct rtm_view){ .kind = RTM_VIEW_FRAME }), RTMC_FULL);
}

/* A light request is served by a full entry of the same version; a full
 * request is not served by a light one; a light entry refuses frames. */
static void light_and_full_entries(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    struct rtmc_src light = cache_key("a.rtm", 10, 1), full = cache_key("a.rtm", 10, 1);
    light.level = RTMC_LIGHT;
    struct rtmc_entry *hl, *hf, *h2;
    assert_int_equal(rtmc_get(c, &light, &hl), 0);
    assert_int_equal(fake.loads, 1);
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, hl, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = 0 }, &v), -EINVAL);
    assert_int_equal(rtmc_view_get(c, hl, (struct rtm_view){ .kind = RTM_VIEW_BONES, .frame = 0 }, &v), 0);
    rtmc_view_put(c, v);
    assert_int_equal(rtmc_get(c, &full, &hf), 0);
    assert_int_equal(fake.loads, 2);
    assert_int_equal(rtmc_view_get(c, hf, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = 0 }, &v), 0);
    rtmc_view_put(c, v);
    rtmc_put(c, hl);
    rtmc_invalidate(c, "a.rtm");                 /* drops both */
    rtmc_put(c, hf);
    assert_int_equal(rtmc_get(c, &full, &hf), 0);
    assert_int_equal(rtmc_get(c, &light, &h2), 0);
    assert_int_equal(fake.loads, 3);                /* the full entry served the light get */
    assert_ptr_equal(hf, h2);
    rtmc_put(c, hf);
    rtmc_put(c, h2);
    rtmc_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(view_levels),
        cmocka_unit_test_setup(light_and_full_entries, cache_setup),
        cmocka_unit_test_setup(hit_after_load, cache_setup),
        cmocka_unit_test_setup(parse_error_is_cached_io_error_is_not, cache_setup),
        cmocka_unit_test_setup(views_match_render_and_are_cached, cache_setup),
        cmocka_unit_test_setup(timed_sizes_match_render, cache_setup),
        cmocka_unit_test_setup(size_ahead_when_full_parse_differs, cache_setup),
        cmocka_unit_test_setup(invalidate_drops_every_version, cache_setup),
        cmocka_unit_test_setup(archives_tables_and_data, cache_setup),
        cmocka_unit_test_setup(concurrent_gets_parse_once, cache_setup),
    };
    return run_test_cases(tests, NULL, NULL);
}
