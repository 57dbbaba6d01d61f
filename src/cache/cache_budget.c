/* cache_budget.c - the cache's byte budget (cache.h): what loads reserve
 * before they allocate, room made by evicting, the caller's bytes outside
 * the cache, and the counters.  It uses cache.c's eviction; cache.c uses
 * nothing of it. */
#include "cache_int.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

static struct timespec deadline(const struct rtmc *c)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long long ns = t.tv_nsec + (long long)(c->reserve_wait_ms % 1000) * 1000000;
    t.tv_sec += (time_t)(c->reserve_wait_ms / 1000 + ns / 1000000000);
    t.tv_nsec = (long)(ns % 1000000000);
    return t;
}

void rtmc_set_reserve_wait(struct rtmc *c, unsigned ms)
{
    pthread_mutex_lock(&c->lock);
    c->reserve_wait_ms = ms;
    pthread_mutex_unlock(&c->lock);
}

int rtmc_would_fit(const struct rtmc_reservation *r, uint64_t bytes, const char *what,
                   char *msg, size_t msglen)
{
    const struct rtmc *c = r->c;
    if (bytes <= c->budget && r->bytes + bytes <= c->budget)
        return 0;
    char need[32], have[32];
    rtm_format_size(bytes > c->budget ? bytes : r->bytes + bytes, need, sizeof need);
    rtm_format_size(c->budget, have, sizeof have);
    snprintf(msg, msglen, "needs %s%s%s, more than cache_size %s", need, *what ? " " : "",
             what, have);
    return -EFBIG;
}

int rtmc_reserve(struct rtmc_reservation *r, uint64_t bytes, const char *what, char *msg,
                 size_t msglen)
{
    struct rtmc *c = r->c;
    if (rtmc_would_fit(r, bytes, what, msg, msglen))
        return -EFBIG;
    pthread_mutex_lock(&c->lock);
    struct timespec until = deadline(c);
    int rc = 0;
    for (;;) {
        c->reserved += bytes;               /* counted, so that evict makes room */
        cache_evict(c);
        if (c->bytes + c->outside + c->reserved <= c->budget) {
            r->bytes += bytes;
            rc = 0;
            break;
        }
        c->reserved -= bytes;
        if (rc == ETIMEDOUT && !c->working) {
            rc = ENOMEM;
            break;
        }
        c->waiting++;
        rc = pthread_cond_timedwait(&c->room, &c->lock, &until);
        c->waiting--;
        if (rc == 0 || c->working)
            until = deadline(c);            /* something changed, or will: wait on */
    }
    pthread_mutex_unlock(&c->lock);
    return -rc;
}

void rtmc_make_room(struct rtmc *c, size_t bytes)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    c->reserved += bytes;               /* counted only while evicting */
    cache_evict(c);
    c->reserved -= bytes;
    pthread_mutex_unlock(&c->lock);
}

void rtmc_set_outside(struct rtmc *c, size_t bytes)
{
    pthread_mutex_lock(&c->lock);
    c->outside = bytes;
    cache_evict(c);
    pthread_mutex_unlock(&c->lock);
}

void rtmc_get_stats(struct rtmc *c, struct rtmc_stats *st)
{
    pthread_mutex_lock(&c->lock);
    *st = (struct rtmc_stats){ c->bytes, c->budget, c->entries, c->loads, c->renders,
                               c->sizings, c->hits, c->evictions, c->mismatches,
                               c->remembered, c->ahead, c->working };
    pthread_mutex_unlock(&c->lock);
}
