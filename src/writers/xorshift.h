/* xorshift.h - the generators' random numbers: xorshift64, so that a seed
 * gives the same trees on every run and machine (rtmgen's, the damaged
 * trees of damaged.h).  The state is the caller's; never seed it with 0,
 * which xorshift never leaves. */
#ifndef RTM_XORSHIFT_H
#define RTM_XORSHIFT_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* A number in [lo, hi]. */
static inline uint32_t rng_range(uint64_t *s, uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(rng_next(s) % ((uint64_t)hi - lo + 1));
}

#endif
