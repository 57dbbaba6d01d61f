/* cache_testutil.h - what test_cache.c and test_cache_budget.c share: a
 * loader of made-up sources for the cache (cache.h), and getting through
 * it.  Defined in lib/cache_testutil.c.
 *
 * The loader makes plain samples: the key's size is the frame count,
 * paths starting "bad" fail to parse and "io" fail to read; a damaged
 * file's head can read where its full parse does not: "fullbad" fails to
 * parse full only, and "fewer" parses full into two frames fewer.  A
 * table is an archive with one entry named like the key; data is the
 * key's path.  An anim in an archive first gets the archive's table from
 * cache fake.c, as rtmfs's loader does.  A "big" path reserves
 * fake.reserve bytes and holds them 20 ms.  Its state is one global
 * (fake): a test program runs its tests one at a time. */
#ifndef CACHE_TESTUTIL_H
#define CACHE_TESTUTIL_H

#include <pthread.h>
#include <sys/types.h>

#include "cache.h"

struct fake_loader {
    pthread_mutex_t lock;
    int loads;
    useconds_t delay;
    struct rtmc *c;
    uint64_t reserve;           /* "big" paths reserve this much */
    int inside, max_inside;     /* loads holding such a reservation at once */
};
extern struct fake_loader fake;

/* The cache's load function (rtmc_load_fn), with ctx &fake. */
int fake_load(void *ctx, const struct rtmc_src *s, struct rtmc_reservation *r,
              struct rtmc_loaded *out, char *msg, size_t msglen);
/* A cmocka setup: fake's lock made, its counts zeroed. */
int cache_setup(void **state);
/* The key of an animation at path of frames frames, modified at mtime. */
struct rtmc_src cache_key(const char *path, uint64_t frames, int64_t mtime);
/* An entry of kind through c (archive_len: the archive's part of path). */
struct rtmc_entry *cache_get_kind(struct rtmc *c, const char *path, enum rtmc_kind kind,
                                  size_t archive_len);
/* An animation's entry through c, never NULL. */
struct rtmc_entry *cache_get(struct rtmc *c, const char *path, uint64_t frames, int64_t mtime);
/* Loads and releases one key: how many loads that took (0 or 1). */
int cache_touch(struct rtmc *c, const char *path);
/* The bytes one 10-frame entry takes in a cache. */
size_t cache_entry_bytes(void);

#endif
