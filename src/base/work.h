/* work.h - counts of the work a mount or a program does on SOURCE: files
 * opened, reads and bytes read, archive tables read, configs read and parsed,
 * states checked and states.txt lines made, animations parsed (by depth),
 * stale notifications and the kernel's lookups.  They are what
 * the tests' budgets assert (a walk may open at most N files) and what
 * RTMFS_STATS reports; they never change what is shown.
 *
 * Contract:
 *  - A struct rtm_work belongs to its caller (rtmfs, rtmcat, a test),
 *    zeroed before use, and outlives whatever counts into it; the core
 *    keeps no counter of its own (no global state).
 *  - Every counting function takes NULL for "count nothing", so a caller
 *    that does not care passes NULL.
 *  - Thread-safe: counts are relaxed atomics, added from any thread; a read
 *    while others count sees some recent value of each.
 *  - rtm_work_openat and rtm_work_pread are openat(2) and rtm_pread_full
 *    (util.h) with their results counted: an open that succeeds, and a
 *    read that returns bytes, and those bytes. */
#ifndef RTM_WORK_H
#define RTM_WORK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The axis that grows: a new counter is a row here and a name in
 * rtm_work_names (work.c), which RTMFS_STATS prints in this order. */
enum rtm_work_counter {
    RTM_WORK_OPENED,            /* files opened in SOURCE (folders not counted) */
    RTM_WORK_BYTES,             /* bytes read from SOURCE's files */
    RTM_WORK_READS,             /* reads of SOURCE's files that returned bytes:
                                   each one cold is a request the disk serves */
    RTM_WORK_TABLES,            /* archive header tables read from an archive */
    RTM_WORK_CONFIGS_READ,      /* configs read from SOURCE (files or entries) */
    RTM_WORK_CONFIGS_PARSED,    /* configs whose classes were parsed */
    RTM_WORK_STATES_CHECKED,    /* states the root check.txt's findings were
                                   collected for (a states table's states) */
    RTM_WORK_STATES_LINES,      /* states.txt lines made from configs (a table
                                   not remembered makes them at their first
                                   need: states.txt, missing.txt, timing) */
    RTM_WORK_PARSE_HEAD,        /* animations parsed from their head only */
    RTM_WORK_PARSE_FULL,        /* animations parsed whole */
    RTM_WORK_STALE,             /* notifications that the kernel forget something */
    RTM_WORK_LOOKUPS,           /* names the kernel looked up: a walk that stats
                                   makes one for each it was not listed with
                                   (rtm_tree_listed_entries) */
    RTM_WORK_N
};

struct rtm_work {
    _Atomic uint64_t n[RTM_WORK_N];
};

/* The counters' names as RTMFS_STATS prints them ("opened", ...). */
const char *rtm_work_name(enum rtm_work_counter c);

static inline void rtm_work_add(struct rtm_work *w, enum rtm_work_counter c, uint64_t v)
{
    if (w)
        atomic_fetch_add_explicit(&w->n[c], v, memory_order_relaxed);
}

static inline uint64_t rtm_work_get(const struct rtm_work *w, enum rtm_work_counter c)
{
    return w ? atomic_load_explicit(&w->n[c], memory_order_relaxed) : 0;
}

/* Zero every counter. */
void rtm_work_reset(struct rtm_work *w);

int rtm_work_openat(struct rtm_work *w, int dfd, const char *path, int flags);
ssize_t rtm_work_pread(struct rtm_work *w, int fd, void *buf, size_t len, uint64_t off);
/* rtm_slurp_max (util.h), the file and its bytes counted. */
int rtm_work_slurp_max(struct rtm_work *w, const char *path, size_t max, uint8_t **data,
                       size_t *len);

#endif
