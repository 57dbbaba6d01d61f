/* rtmcat_noindex.c - index.h for rtmcat, which opens no index: one run
 * reads one file, so there is nothing to remember across runs.  The tree
 * and loader call these only when given an index, which rtmcat never
 * gives them; linking these instead of index.c keeps SQLite out of
 * rtmcat, whose start-up then maps and relocates one library less. */
#include "index.h"

int rtm_index_get(struct rtm_index *ix, const struct rtm_index_key *k, void **val, size_t *len)
{
    (void)ix, (void)k, (void)val, (void)len;
    return -1;                          /* not known */
}

void rtm_index_put(struct rtm_index *ix, const struct rtm_index_key *k, const void *val,
                   size_t len)
{
    (void)ix, (void)k, (void)val, (void)len;
}

void rtm_index_drop(struct rtm_index *ix, const struct rtm_index_key *k)
{
    (void)ix, (void)k;
}
