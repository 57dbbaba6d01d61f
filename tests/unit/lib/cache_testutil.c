/* cache_testutil.c - a loader of made-up sources for the cache's tests
 * (cache_testutil.h). */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "testutil.h"
#include "cache_testutil.h"
#include "pbo.h"
#include "pbo_write.h"


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
static int fake_big(struct fake_loader *l, struct rtmc_reservation *r, char *msg, size_t msglen)
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

int fake_load(void *ctx, const struct rtmc_src *s, struct rtmc_reservation *r,
                     struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct fake_loader *l = ctx;
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
    struct fake_loader *l = ctx;
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

struct fake_loader fake;

int cache_setup(void **state)
{
    (void)state;
    pthread_mutex_init(&fake.lock, NULL);
    fake.loads = 0;
    fake.delay = 0;
    return 0;
}

struct rtmc_src cache_key(const char *path, uint64_t frames, int64_t mtime)
{
    return (struct rtmc_src){ .path = path, .id = { .dev = 1, .ino = 2, .size = frames, .mtime_ns = mtime },
                              .kind = RTMC_ANIM };
}

struct rtmc_entry *cache_get_kind(struct rtmc *c, const char *path, enum rtmc_kind kind,
                                   size_t archive_len)
{
    struct rtmc_src s = { .path = path, .id = { .dev = 1, .ino = 2, .size = 10, .mtime_ns = 1 },
                          .kind = kind, .archive_len = archive_len };
    struct rtmc_entry *h = NULL;
    assert_int_equal(rtmc_get(c, &s, &h), 0);
    return h;
}

struct rtmc_entry *cache_get(struct rtmc *c, const char *path, uint64_t frames, int64_t mtime)
{
    struct rtmc_src s = cache_key(path, frames, mtime);
    struct rtmc_entry *h = NULL;
    assert_int_equal(rtmc_get(c, &s, &h), 0);
    assert_non_null(h);
    return h;
}

/* Loads and releases one key; returns how many loads that took (0 or 1). */
int cache_touch(struct rtmc *c, const char *path)
{
    int before = fake.loads;
    rtmc_put(c, cache_get(c, path, 10, 1));
    return fake.loads - before;
}

size_t cache_entry_bytes(void)
{
    struct rtmc *c = rtmc_new(1u << 30, fake_load, &fake);
    struct rtmc_stats st;
    cache_touch(c, "probe");
    rtmc_get_stats(c, &st);
    rtmc_free(c);
    fake.loads = 0;
    return st.bytes;
}
