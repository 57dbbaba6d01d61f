/* test_cache.c - the LRU of parsed animations, views, archive tables and
 * entries' content (cache.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "testutil.h"
#include "cache.h"
#include "pbo.h"
#include "pbo_write.h"
#include "timing.h"

/* A loader that makes plain samples: the key's size is the frame count,
 * paths starting "bad" fail to parse and "io" fail to read; a damaged
 * file's head can read where its full parse does not: "fullbad" fails to
 * parse full only, and "fewer" parses full into two frames fewer.  A table is an
 * archive with one entry named like the key; data is the key's path.  An
 * anim in an archive first gets the archive's table from cache c, as rtmfs's
 * loader does. */
struct loader {
    pthread_mutex_t lock;
    int loads;
    useconds_t delay;
    struct rtmc *c;
    uint64_t reserve;           /* "big" paths reserve this much */
    int inside, max_inside;     /* loads holding such a reservation at once */
};

static int fake_table(const struct rtmc_src *s, struct pbo **out)
{
    static const uint8_t x[] = "x";
    struct pbo_write_entry e = { s->path, x, 1, PBO_PACK_STORE, 0 };
    struct rtm_buf b;
    struct rtm_error err;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(&e, 1, NULL, 0, 0, &b), 0);
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, out, &err), 0);
    rtm_buf_free(&b);
    return 0;
}

static int fake_anim(void *ctx, const struct rtmc_src *s, struct rtm_anim **anim);

/* A "big" load reserves l->reserve bytes and holds them for a while. */
static int fake_big(struct loader *l, struct rtmc_reservation *r, char *msg, size_t msglen)
{
    int rc = rtmc_reserve(r, l->reserve, "", msg, msglen);
    if (rc == -EFBIG)
        return 0;                       /* msg says why: a kept error */
    if (rc)
        return rc;
    pthread_mutex_lock(&l->lock);
    if (++l->inside > l->max_inside)
        l->max_inside = l->inside;
    pthread_mutex_unlock(&l->lock);
    usleep(20000);
    pthread_mutex_lock(&l->lock);
    l->inside--;
    pthread_mutex_unlock(&l->lock);
    return 1;
}

static int fake_load(void *ctx, const struct rtmc_src *s, struct rtmc_reservation *r,
                     struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct loader *l = ctx;
    pthread_mutex_lock(&l->lock);
    l->loads++;
    pthread_mutex_unlock(&l->lock);
    if (strncmp(s->path, "big", 3) == 0) {
        int rc = fake_big(l, r, msg, msglen);
        if (rc <= 0)
            return rc;
    }
    if (l->delay)
        usleep(l->delay);
    if (strncmp(s->path, "io", 2) == 0)
        return -EIO;
    if (strncmp(s->path, "bad", 3) == 0) {
        snprintf(msg, msglen, "%s: broken (at byte 8)", s->path);
        return 0;
    }
    if (strncmp(s->path, "fullbad", 7) == 0 && s->level == RTMC_FULL) {
        snprintf(msg, msglen, "%s: matrices broken (at byte 900)", s->path);
        return 0;
    }
    if (s->kind == RTMC_TABLE)
        return fake_table(s, &out->pbo);
    if (s->kind == RTMC_DATA) {
        out->data = (uint8_t *)strdup(s->path);
        out->len = strlen(s->path);
        return 0;
    }
    return fake_anim(ctx, s, &out->anim);
}

static int fake_anim(void *ctx, const struct rtmc_src *s, struct rtm_anim **anim)
{
    struct loader *l = ctx;
    if (s->archive_len) {
        char archive[64];
        snprintf(archive, sizeof archive, "%.*s", (int)s->archive_len, s->path);
        struct rtmc_src t = { .path = archive, .id = s->id, .kind = RTMC_TABLE };
        struct rtmc_entry *h;
        assert_int_equal(rtmc_get(l->c, &t, &h), 0);
        assert_non_null(rtmc_pbo(h));
        rtmc_put(l->c, h);
    }
    int fewer = strncmp(s->path, "fewer", 5) == 0 && s->level == RTMC_FULL;
    struct sample_opts o = { (uint32_t)s->id.size - 2 * fewer, 66, (uint32_t)s->id.mtime_ns, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    struct rtm_error err;
    assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, NULL,
                                     s->level != RTMC_FULL ? RTM_PARSE_NO_MATRICES : 0, anim, &err), 0);
    rtm_buf_free(&b);
    return 0;
}

static struct loader L;

static int setup(void **state)
{
    (void)state;
    pthread_mutex_init(&L.lock, NULL);
    L.loads = 0;
    L.delay = 0;
    return 0;
}

static struct rtmc_src key(const char *path, uint64_t frames, int64_t mtime)
{
    return (struct rtmc_src){ .path = path, .id = { .dev = 1, .ino = 2, .size = frames, .mtime_ns = mtime },
                              .kind = RTMC_ANIM };
}

static struct rtmc_entry *get_kind(struct rtmc *c, const char *path, enum rtmc_kind kind,
                                   size_t archive_len)
{
    struct rtmc_src s = { .path = path, .id = { .dev = 1, .ino = 2, .size = 10, .mtime_ns = 1 },
                          .kind = kind, .archive_len = archive_len };
    struct rtmc_entry *h = NULL;
    assert_int_equal(rtmc_get(c, &s, &h), 0);
    return h;
}

static struct rtmc_entry *get(struct rtmc *c, const char *path, uint64_t frames, int64_t mtime)
{
    struct rtmc_src s = key(path, frames, mtime);
    struct rtmc_entry *h = NULL;
    assert_int_equal(rtmc_get(c, &s, &h), 0);
    assert_non_null(h);
    return h;
}

/* Loads and releases one key; returns how many loads that took (0 or 1). */
static int touch(struct rtmc *c, const char *path)
{
    int before = L.loads;
    rtmc_put(c, get(c, path, 10, 1));
    return L.loads - before;
}

static size_t entry_bytes(void)
{
    struct rtmc *c = rtmc_new(1u << 30, fake_load, &L);
    struct rtmc_stats st;
    touch(c, "probe");
    rtmc_get_stats(c, &st);
    rtmc_free(c);
    L.loads = 0;
    return st.bytes;
}

static void hit_after_load(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    struct rtmc_entry *a = get(c, "a.rtm", 10, 1), *b = get(c, "a.rtm", 10, 1);
    assert_ptr_equal(a, b);
    assert_int_equal(L.loads, 1);
    assert_int_equal(rtmc_anim(a)->nframes, 10);
    assert_string_equal(rtmc_error(a), "");
    struct rtmc_entry *v2 = get(c, "a.rtm", 12, 2);   /* a new version */
    assert_ptr_not_equal(v2, a);
    assert_int_equal(rtmc_anim(v2)->nframes, 12);
    assert_int_equal(L.loads, 2);
    rtmc_put(c, a);
    rtmc_put(c, b);
    rtmc_put(c, v2);
    rtmc_free(c);
}

static void parse_error_is_cached_io_error_is_not(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    struct rtmc_entry *h = get(c, "bad.rtm", 10, 1);
    assert_null(rtmc_anim(h));
    assert_string_equal(rtmc_error(h), "bad.rtm: broken (at byte 8)");
    rtmc_put(c, h);
    rtmc_put(c, get(c, "bad.rtm", 10, 1));
    assert_int_equal(L.loads, 1);
    struct rtmc_src s = key("io.rtm", 10, 1);
    assert_int_equal(rtmc_get(c, &s, &h), -EIO);
    assert_null(h);
    assert_int_equal(rtmc_get(c, &s, &h), -EIO);
    assert_int_equal(L.loads, 3);
    rtmc_free(c);
}

static void views_match_render_and_are_cached(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    struct rtmc_entry *h = get(c, "a.rtm", 10, 1);
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
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    struct rtmc_entry *h = get(c, "a.rtm", 10, 1);
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
    struct rtmc *c2 = rtmc_new(64u << 20, fake_load, &L);
    struct rtmc_src light = key("a.rtm", 10, 1);
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
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    static const char *const paths[] = { "fewer.rtm", "fullbad.rtm" };
    for (int i = 0; i < 2; i++) {
        struct rtmc_src light = key(paths[i], 10, 1);
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

static void budget_evicts_least_recent(void **state)
{
    (void)state;
    size_t one = entry_bytes();
    struct rtmc *c = rtmc_new(one * 5 / 2, fake_load, &L);   /* room for two */
    assert_int_equal(touch(c, "a"), 1);
    assert_int_equal(touch(c, "b"), 1);
    assert_int_equal(touch(c, "a"), 0);         /* a is now the most recent */
    assert_int_equal(touch(c, "c"), 1);         /* evicts b, not a */
    assert_int_equal(touch(c, "a"), 0);
    assert_int_equal(touch(c, "b"), 1);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_true(st.bytes <= st.budget);
    assert_true(st.evictions >= 2);
    assert_int_equal(st.entries, 2);
    rtmc_free(c);
}

static int trims;
static void count_trim(void) { trims++; }

/* The trim hook runs once evictions have freed `every` bytes, not before. */
static void evictions_trim_the_heap(void **state)
{
    (void)state;
    size_t one = entry_bytes();
    struct rtmc *c = rtmc_new(one * 3 / 2, fake_load, &L);   /* room for one */
    rtmc_set_trim(c, count_trim, one * 2);
    trims = 0;
    touch(c, "a");
    touch(c, "b");                      /* evicts a: one entry's bytes freed */
    assert_int_equal(trims, 0);
    touch(c, "c");                      /* evicts b: two */
    assert_int_equal(trims, 1);
    touch(c, "d");
    assert_int_equal(trims, 1);
    touch(c, "d");                      /* a hit evicts nothing */
    assert_int_equal(trims, 1);
    touch(c, "e");
    assert_int_equal(trims, 2);
    rtmc_free(c);
}

/* rtmc_make_room drops the least recent entries until the bytes asked
 * fit beside the rest, and counts nothing after; rtmc_trim calls the hook. */
static void make_room_and_trim(void **state)
{
    (void)state;
    size_t one = entry_bytes();
    struct rtmc *c = rtmc_new(one * 7 / 2, fake_load, &L);   /* room for three */
    rtmc_set_trim(c, count_trim, 1u << 30);
    trims = 0;
    touch(c, "a");
    touch(c, "b");
    touch(c, "c");
    rtmc_make_room(c, one);             /* 3.5 - 1: two stay, a goes */
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 2);
    assert_int_equal(touch(c, "b"), 0);
    assert_int_equal(touch(c, "a"), 1);
    assert_int_equal(touch(c, "d"), 1);         /* three fit again: none is held */
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 3);
    assert_int_equal(trims, 0);
    rtmc_trim(c);
    assert_int_equal(trims, 1);
    rtmc_make_room(NULL, one);          /* no cache: nothing to do */
    rtmc_trim(NULL);
    rtmc_free(c);
}

static void views_count_against_the_budget(void **state)
{
    (void)state;
    size_t one = entry_bytes();
    struct rtmc *c = rtmc_new(one + 4096, fake_load, &L);
    struct rtmc_entry *h = get(c, "a", 10, 1);
    struct rtm_view plain = { .kind = RTM_VIEW_PLAIN, .frame = 0 };
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, h, plain, &v), 0);   /* bigger than 4096 */
    rtmc_view_put(c, v);
    rtmc_put(c, h);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_true(st.bytes <= st.budget);
    assert_true(st.evictions >= 1);
    rtmc_free(c);
}

static void referenced_entries_survive(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(0, fake_load, &L);
    struct rtmc_entry *a = get(c, "a", 10, 1);
    struct rtm_view hdr = { .kind = RTM_VIEW_HEADER, .frame = 0 };
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, a, hdr, &v), 0);
    rtmc_put(c, get(c, "b", 11, 1));       /* evicts b at once */
    assert_int_equal(rtmc_anim(a)->nframes, 10);
    size_t len;
    assert_memory_equal(rtmc_view_data(v, &len), "format: plain\n", 14);
    rtmc_view_put(c, v);
    rtmc_put(c, a);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.bytes, 0);
    assert_int_equal(st.entries, 0);
    rtmc_free(c);
}

static void invalidate_drops_every_version(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    rtmc_put(c, get(c, "a", 10, 1));
    struct rtmc_entry *h = get(c, "a", 12, 2);
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
    assert_int_equal(touch(c, "a"), 1);          /* gone from the index */
    rtmc_free(c);
}

/* Tables and data live beside anims, keyed by kind too; invalidating an
 * archive drops what came from it and nothing else. */
static void archives_tables_and_data(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    L.c = c;
    struct rtmc_entry *a = get_kind(c, "x.pbo/a.rtm", RTMC_ANIM, 5);   /* loads the table */
    assert_int_equal(L.loads, 2);
    assert_int_equal(rtmc_anim(a)->nframes, 10);
    assert_null(rtmc_pbo(a));
    struct rtmc_entry *t = get_kind(c, "x.pbo", RTMC_TABLE, 0);         /* a hit */
    assert_int_equal(L.loads, 2);
    assert_int_equal(rtmc_pbo(t)->nentries, 1);
    assert_string_equal(rtmc_pbo(t)->entries[0].path, "x.pbo");
    assert_null(rtmc_anim(t));
    struct rtmc_entry *d = get_kind(c, "x.pbo/c.bin", RTMC_DATA, 5);
    size_t len;
    assert_memory_equal(rtmc_data(d, &len), "x.pbo/c.bin", 11);
    assert_int_equal(len, 11);
    struct rtmc_entry *d2 = get_kind(c, "x.pbo", RTMC_DATA, 0);        /* same key, other kind */
    assert_ptr_not_equal(d2, t);
    assert_int_equal(L.loads, 4);
    struct rtmc_entry *bad = get_kind(c, "bad.pbo", RTMC_TABLE, 0);
    assert_null(rtmc_pbo(bad));
    assert_string_equal(rtmc_error(bad), "bad.pbo: broken (at byte 8)");
    rtmc_put(c, get_kind(c, "x.pbox", RTMC_TABLE, 0));
    rtmc_put(c, get_kind(c, "x.pb", RTMC_TABLE, 0));
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
    int before = L.loads;
    rtmc_put(c, get_kind(c, "x.pbo", RTMC_TABLE, 0));
    rtmc_put(c, get_kind(c, "x.pbox", RTMC_TABLE, 0));
    assert_int_equal(L.loads, before + 1);          /* only x.pbo was dropped */
    rtmc_free(c);
    L.c = NULL;
}

struct racer {
    struct rtmc *c;
    struct rtmc_entry *h;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    struct rtmc_src s = key("same.rtm", 10, 1);
    if (rtmc_get(r->c, &s, &r->h))
        r->h = NULL;
    return NULL;
}

static void concurrent_gets_parse_once(void **state)
{
    (void)state;
    enum { N = 8 };
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    pthread_t t[N];
    struct racer r[N];
    L.delay = 50000;
    for (int i = 0; i < N; i++) {
        r[i].c = c;
        assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(L.loads, 1);
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
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    struct rtmc_src light = key("a.rtm", 10, 1), full = key("a.rtm", 10, 1);
    light.level = RTMC_LIGHT;
    struct rtmc_entry *hl, *hf, *h2;
    assert_int_equal(rtmc_get(c, &light, &hl), 0);
    assert_int_equal(L.loads, 1);
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, hl, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = 0 }, &v), -EINVAL);
    assert_int_equal(rtmc_view_get(c, hl, (struct rtm_view){ .kind = RTM_VIEW_BONES, .frame = 0 }, &v), 0);
    rtmc_view_put(c, v);
    assert_int_equal(rtmc_get(c, &full, &hf), 0);
    assert_int_equal(L.loads, 2);
    assert_int_equal(rtmc_view_get(c, hf, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = 0 }, &v), 0);
    rtmc_view_put(c, v);
    rtmc_put(c, hl);
    rtmc_invalidate(c, "a.rtm");                 /* drops both */
    rtmc_put(c, hf);
    assert_int_equal(rtmc_get(c, &full, &hf), 0);
    assert_int_equal(rtmc_get(c, &light, &h2), 0);
    assert_int_equal(L.loads, 3);                /* the full entry served the light get */
    assert_ptr_equal(hf, h2);
    rtmc_put(c, hf);
    rtmc_put(c, h2);
    rtmc_free(c);
}

static void *get_thread(void *path)
{
    struct rtmc_entry *h = get(L.c, path, 10, 1);
    assert_non_null(rtmc_anim(h));
    rtmc_put(L.c, h);
    return NULL;
}

/* A load that could never fit is refused with what it needs; loads that
 * each need most of the budget run one at a time, waiting for room. */
static void reservations(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(10u << 20, fake_load, &L);
    L.c = c;
    L.reserve = 20u << 20;
    struct rtmc_entry *h = get(c, "big_huge.rtm", 10, 1);
    assert_null(rtmc_anim(h));
    assert_string_equal(rtmc_error(h), "needs 20.0 MiB, more than cache_size 10.0 MiB");
    rtmc_put(c, h);
    L.reserve = 9u << 20;
    L.max_inside = 0;
    pthread_t th[4];
    const char *paths[4] = { "big0.rtm", "big1.rtm", "big2.rtm", "big3.rtm" };
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, get_thread, (void *)paths[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(L.max_inside, 1);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_true(st.bytes <= st.budget);
    rtmc_free(c);
    L.c = NULL;
}

static atomic_int sized;

static void *size_and_put(void *h)
{
    assert_int_equal(rtmc_size_ahead(L.c, h), 0);
    atomic_store(&sized, 1);
    rtmc_put(L.c, h);
    return NULL;
}

/* Until the sizing has begun (or ended: the load then finds room). */
static void sizing_begun(struct rtmc *c)
{
    struct rtmc_stats st;
    for (rtmc_get_stats(c, &st); !st.working && !atomic_load(&sized); rtmc_get_stats(c, &st))
        nanosleep(&(struct timespec){ 0, 100 * 1000 }, NULL);
}

/* A sizing pins its anim however long it takes: a load that needs that
 * memory waits for it past the patience it has while nothing happens,
 * rather than fail with -ENOMEM (a walk's stat on a loaded machine, where
 * a worker sizing ahead ran slowly).  The patience here is 5 ms, and
 * sizing 3,000 frames takes longer.  The load starts once the sizing has
 * (a thread not yet running sizes nothing, and the rule rightly gives up
 * on memory that no sizing is about to let go). */
static void load_waits_for_a_sizing(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &L);
    L.c = c;
    rtmc_set_reserve_wait(c, 5);
    struct rtmc_entry *h = get(c, "slow.rtm", 3000, 1);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    L.reserve = st.budget - st.bytes / 2;       /* fits once h is let go */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th;
    atomic_store(&sized, 0);
    pthread_create(&th, NULL, size_and_put, h);
    sizing_begun(c);
    struct rtmc_entry *b = get(c, "big_after_sizing.rtm", 10, 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(rtmc_anim(b));
    rtmc_put(c, b);
    pthread_join(th, NULL);
    print_message("the load waited %.0f ms\n",
                  (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    rtmc_free(c);
    L.c = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(view_levels),
        cmocka_unit_test_setup(light_and_full_entries, setup),
        cmocka_unit_test_setup(hit_after_load, setup),
        cmocka_unit_test_setup(parse_error_is_cached_io_error_is_not, setup),
        cmocka_unit_test_setup(views_match_render_and_are_cached, setup),
        cmocka_unit_test_setup(timed_sizes_match_render, setup),
        cmocka_unit_test_setup(size_ahead_when_full_parse_differs, setup),
        cmocka_unit_test_setup(budget_evicts_least_recent, setup),
        cmocka_unit_test_setup(load_waits_for_a_sizing, setup),
        cmocka_unit_test_setup(evictions_trim_the_heap, setup),
        cmocka_unit_test_setup(make_room_and_trim, setup),
        cmocka_unit_test_setup(views_count_against_the_budget, setup),
        cmocka_unit_test_setup(referenced_entries_survive, setup),
        cmocka_unit_test_setup(invalidate_drops_every_version, setup),
        cmocka_unit_test_setup(archives_tables_and_data, setup),
        cmocka_unit_test_setup(concurrent_gets_parse_once, setup),
        cmocka_unit_test_setup(reservations, setup),
    };
    return run_test_cases(tests, NULL, NULL);
}
