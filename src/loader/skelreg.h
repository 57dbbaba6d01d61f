/* skelreg.h - the skeletons the configs under SOURCE chose, by identity:
 * how the tree hands the loader a skeleton for one request (the skeleton
 * rule's third step, rtmfs-views(7)) through a version's skel (fileid.h),
 * which is all the cache keeps of a request.
 *
 * Contract:
 *  - rtm_skelreg_put() keeps a copy of a skeleton under a name and gives
 *    its identity: a hash of its name and its bones, parents and pivots as
 *    a skeleton file writes them, never 0.  The same skeleton put again
 *    gives the same identity and keeps nothing more.
 *  - rtm_skelreg_get() gives the copy of an identity, or NULL when none was
 *    put.  A copy lives as long as the registry: nothing is ever taken out,
 *    so a load may use it without holding anything.  The registry holds at
 *    most RTM_SKELREG_MAX skeletons (the configs of one install name a few
 *    dozen); past that, put gives 0 (the loader's own rule then applies).
 *  - Thread-safe: put and get from any thread.  Made before the threads,
 *    freed after them.
 */
#ifndef RTM_SKELREG_H
#define RTM_SKELREG_H

#include <stdint.h>

#include "skeleton.h"

enum { RTM_SKELREG_MAX = 4096 };

struct rtm_skelreg;

struct rtm_skelreg *rtm_skelreg_new(void);
void rtm_skelreg_free(struct rtm_skelreg *r);
/* 0 when out of memory or full. */
uint64_t rtm_skelreg_put(struct rtm_skelreg *r, const struct rtm_skeleton *s, const char *name);
const struct rtm_skeleton *rtm_skelreg_get(const struct rtm_skelreg *r, uint64_t id);

#endif
