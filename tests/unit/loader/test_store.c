/* test_store.c - the loader's store (store.h) is an interface: a table in
 * memory, given to the loader in place of the SQLite index, sees every
 * recall and every remember (its kinds, its keys), a damaged record in it
 * is dropped, and a NULL store (rtmcat, -o noindex) loads the same from
 * SOURCE alone.  The index's own behaviour is test_index's. */
#include <pthread.h>
#include <sys/stat.h>

#include "testutil.h"
#include "cache.h"
#include "loader.h"
#include "pbo_write.h"
#include "store.h"
#include "tree_testutil.h"

/* ---- a store in memory ---- */

enum { FAKE_MAX = 64 };

struct fake_rec {
    struct rtm_store_key k;             /* k.render points to render */
    char render[512];
    void *val;
    size_t len;
};

struct fake {
    pthread_mutex_t lock;               /* the store is called from any thread */
    struct fake_rec rec[FAKE_MAX];
    size_t n;
    unsigned gets, hits, puts, drops;
};

static int same_key(const struct rtm_store_key *a, const struct rtm_store_key *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns &&
           a->entry_offset == b->entry_offset && a->entry_size == b->entry_size &&
           a->kind == b->kind && a->salt == b->salt && !strcmp(a->render, b->render);
}

static struct fake_rec *find(struct fake *f, const struct rtm_store_key *k)
{
    for (size_t i = 0; i < f->n; i++)
        if (same_key(&f->rec[i].k, k))
            return &f->rec[i];
    return NULL;
}

static int fake_get(void *ctx, const struct rtm_store_key *k, void **val, size_t *len)
{
    struct fake *f = ctx;
    pthread_mutex_lock(&f->lock);
    struct fake_rec *r = find(f, k);
    f->gets++;
    if (r && (*val = malloc(r->len ? r->len : 1))) {
        memcpy(*val, r->val, r->len);
        *len = r->len;
        f->hits++;
    }
    pthread_mutex_unlock(&f->lock);
    return r ? 0 : -1;
}

static void fake_put(void *ctx, const struct rtm_store_key *k, const void *val, size_t len)
{
    struct fake *f = ctx;
    pthread_mutex_lock(&f->lock);
    struct fake_rec *r = find(f, k);
    f->puts++;
    if (!r && f->n < FAKE_MAX) {
        r = &f->rec[f->n++];
        r->k = *k;
        snprintf(r->render, sizeof r->render, "%s", k->render);
        r->k.render = r->render;
    }
    if (r) {
        free(r->val);
        r->val = malloc(len ? len : 1);
        memcpy(r->val, val, len);
        r->len = len;
    }
    pthread_mutex_unlock(&f->lock);
}

static void fake_drop(void *ctx, const struct rtm_store_key *k)
{
    struct fake *f = ctx;
    pthread_mutex_lock(&f->lock);
    struct fake_rec *r = find(f, k);
    f->drops++;
    if (r) {
        struct fake_rec *last = &f->rec[--f->n];
        free(r->val);
        if (r != last) {
            *r = *last;
            r->k.render = r->render;
        }
        memset(last, 0, sizeof *last);
    }
    pthread_mutex_unlock(&f->lock);
}

/* The record of kind, or NULL. */
static struct fake_rec *of_kind(struct fake *f, uint32_t kind)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->rec[i].k.kind == kind)
            return &f->rec[i];
    return NULL;
}

/* ---- the loader over it ---- */

struct env {
    struct tree_fixture f;
    struct fake fake;
    struct rtm_store store;
    char said[256];                     /* the loader's last log line */
};

static void say(void *ctx, const char *msg)
{
    struct env *e = ctx;
    snprintf(e->said, sizeof e->said, "%s", msg);
}

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    struct sample_opts po = { 6, 20, 1, 2 };
    struct rtm_buf anim = { 0 }, pbo;
    pthread_mutex_init(&e->fake.lock, NULL);
    e->store = (struct rtm_store){ fake_get, fake_put, fake_drop, &e->fake };
    tree_fixture_open(&e->f, "store");
    tree_fixture_mount(&e->f, 64u << 20);
    e->f.l.store = &e->store;
    e->f.l.render = "test";
    e->f.l.log = say;
    e->f.l.log_ctx = e;
    assert_int_equal(rtm_sample_plain(&po, &anim), 0);
    tree_fixture_write(&e->f, "walk.rtm", anim.p, anim.len);
    const struct pbo_write_entry en = { "walk.rtm", (const uint8_t *)anim.p, anim.len,
                                        PBO_PACK_STORE, 0 };
    rtm_buf_init(&pbo);
    assert_int_equal(pbo_write(&en, 1, NULL, 0, 0, &pbo), 0);
    tree_fixture_write(&e->f, "x.pbo", pbo.p, pbo.len);
    rtm_buf_free(&anim);
    rtm_buf_free(&pbo);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    for (size_t i = 0; i < e->fake.n; i++)
        free(e->fake.rec[i].val);
    pthread_mutex_destroy(&e->fake.lock);
    free(e);
    return 0;
}

static struct rtmc_src src_of(struct env *e, const char *path, enum rtmc_kind kind)
{
    struct stat st;
    assert_int_equal(fstatat(e->f.fd, path, &st, 0), 0);
    return (struct rtmc_src){ .path = path, .id = rtm_fileid_of(&st), .kind = kind,
                              .level = RTMC_SHAPE };
}

/* Loads walk.rtm at RTMC_SHAPE and x.pbo's table; how many of those two
 * loads the store answered. */
static uint64_t load_both(struct env *e)
{
    struct rtmc_src a = src_of(e, "walk.rtm", RTMC_ANIM), t = src_of(e, "x.pbo", RTMC_TABLE);
    struct rtmc_stats before, after;
    struct rtmc_entry *h;
    rtmc_get_stats(e->f.c, &before);
    assert_int_equal(rtmc_get(e->f.c, &a, &h), 0);
    assert_int_equal(rtmc_anim(h)->nframes, 6);
    assert_int_equal(rtmc_anim(h)->nbones, 20);
    rtmc_put(e->f.c, h);
    assert_int_equal(rtmc_get(e->f.c, &t, &h), 0);
    assert_non_null(rtmc_pbo(h));
    assert_int_equal(rtmc_pbo(h)->nentries, 1);
    rtmc_put(e->f.c, h);
    rtmc_get_stats(e->f.c, &after);
    rtmc_invalidate(e->f.c, "");        /* the next load is a later mount's */
    return after.remembered - before.remembered;
}

/* The numbers are in users' index files. */
static void kinds_keep_their_numbers(void **state)
{
    (void)state;
    assert_int_equal(RTM_STORE_SHAPE, 1);
    assert_int_equal(RTM_STORE_TABLE, 2);
    assert_int_equal(RTM_STORE_TIMED, 3);
    assert_int_equal(RTM_STORE_PREFIX, 0x58465047);     /* "GPFX" */
    assert_int_equal(RTM_STORE_STATES, 0x53544154);     /* "STAT" */
}

/* A first load remembers through the store, a later one recalls. */
static void remembers_then_recalls(void **state)
{
    struct env *e = *state;
    struct stat st;
    assert_int_equal(load_both(e), 0);
    assert_int_equal(e->fake.n, 2);
    struct fake_rec *shape = of_kind(&e->fake, RTM_STORE_SHAPE);
    struct fake_rec *table = of_kind(&e->fake, RTM_STORE_TABLE);
    assert_non_null(shape);
    assert_non_null(table);
    assert_string_equal(shape->k.render, "test");      /* the views' rendering key */
    assert_string_equal(table->k.render, "");          /* a table renders nothing */
    assert_int_equal(fstatat(e->f.fd, "walk.rtm", &st, 0), 0);
    assert_true(shape->k.ino == st.st_ino && shape->k.size == (uint64_t)st.st_size);
    unsigned puts = e->fake.puts;
    assert_int_equal(load_both(e), 2);  /* both from the store, no file read */
    assert_int_equal(e->fake.puts, puts);
    assert_true(e->fake.hits >= 2);
    assert_int_equal(e->fake.drops, 0);
}

/* A record that does not decode is dropped, said, and the file read. */
static void a_damaged_record_is_dropped(void **state)
{
    struct env *e = *state;
    load_both(e);
    struct fake_rec *shape = of_kind(&e->fake, RTM_STORE_SHAPE);
    assert_non_null(shape);
    memset(shape->val, 0xff, shape->len);
    assert_int_equal(load_both(e), 1);  /* the table alone */
    assert_int_equal(e->fake.drops, 1);
    assert_non_null(strstr(e->said, "walk.rtm: a damaged record; forgotten"));
    assert_non_null(of_kind(&e->fake, RTM_STORE_SHAPE));   /* remembered anew */
    assert_int_equal(load_both(e), 2);
}

/* A timed view's size goes to the store and back, as 8 bytes. */
static void timed_sizes_through_the_store(void **state)
{
    struct env *e = *state;
    struct rtmc_src a = src_of(e, "walk.rtm", RTMC_ANIM);
    struct rtm_view v = { .kind = RTM_VIEW_BONES };
    uint64_t size = 123456789012345ull, back = 0;
    assert_int_equal(rtm_loader_timed(&e->f.l, &a, v, "30 fps", &back, 0), -1);
    assert_int_equal(rtm_loader_timed(&e->f.l, &a, v, "30 fps", &size, 1), 0);
    struct fake_rec *r = of_kind(&e->fake, RTM_STORE_TIMED);
    assert_non_null(r);
    assert_int_equal(r->len, 8);
    assert_int_equal(rtm_loader_timed(&e->f.l, &a, v, "30 fps", &back, 0), 0);
    assert_true(back == size);
    assert_int_equal(rtm_loader_timed(&e->f.l, &a, v, "24 fps", &back, 0), -1);
}

/* Without a store the same loads read SOURCE every time. */
static void no_store_reads_source(void **state)
{
    struct env *e = *state;
    struct rtmc_src a = src_of(e, "walk.rtm", RTMC_ANIM);
    struct rtm_view v = { .kind = RTM_VIEW_BONES };
    uint64_t size = 1;
    e->f.l.store = NULL;
    assert_int_equal(load_both(e), 0);
    assert_int_equal(load_both(e), 0);
    assert_int_equal(rtm_loader_timed(&e->f.l, &a, v, "30 fps", &size, 1), -1);
    assert_int_equal(e->fake.gets + e->fake.puts + e->fake.drops, 0);
    const struct rtm_store *none = NULL;
    struct rtm_store_key k = { .kind = RTM_STORE_SHAPE, .render = "" };
    void *val = NULL;
    size_t len = 0;
    assert_int_equal(rtm_store_get(none, &k, &val, &len), -1);
    rtm_store_put(none, &k, "x", 1);    /* nothing, and no crash */
    rtm_store_drop(none, &k);
    assert_null(val);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds_keep_their_numbers),
        cmocka_unit_test_setup_teardown(remembers_then_recalls, setup, teardown),
        cmocka_unit_test_setup_teardown(a_damaged_record_is_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(timed_sizes_through_the_store, setup, teardown),
        cmocka_unit_test_setup_teardown(no_store_reads_source, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
