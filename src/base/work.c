/* work.c - counts of the work done on SOURCE (work.h). */
#include "work.h"

#include <fcntl.h>

#include "util.h"

static const char *const NAMES[RTM_WORK_N] = {
    [RTM_WORK_OPENED] = "opened",
    [RTM_WORK_BYTES] = "bytes_read",
    [RTM_WORK_READS] = "reads",
    [RTM_WORK_TABLES] = "archive_tables",
    [RTM_WORK_CONFIGS_READ] = "configs_read",
    [RTM_WORK_CONFIGS_PARSED] = "configs_parsed",
    [RTM_WORK_STATES_CHECKED] = "states_checked",
    [RTM_WORK_STATES_LINES] = "states_lines",
    [RTM_WORK_PARSE_HEAD] = "parses_head",
    [RTM_WORK_PARSE_FULL] = "parses_full",
    [RTM_WORK_STALE] = "stale_notes",
    [RTM_WORK_LOOKUPS] = "lookups",
};

const char *rtm_work_name(enum rtm_work_counter c)
{
    return c < RTM_WORK_N && NAMES[c] ? NAMES[c] : "?";
}

void rtm_work_reset(struct rtm_work *w)
{
    for (int c = 0; c < RTM_WORK_N; c++)
        atomic_store_explicit(&w->n[c], 0, memory_order_relaxed);
}

int rtm_work_openat(struct rtm_work *w, int dfd, const char *path, int flags)
{
    int fd = openat(dfd, path, flags);
    if (fd >= 0)
        rtm_work_add(w, RTM_WORK_OPENED, 1);
    return fd;
}

ssize_t rtm_work_pread(struct rtm_work *w, int fd, void *buf, size_t len, uint64_t off)
{
    ssize_t n = rtm_pread_full(fd, buf, len, off);
    if (n > 0) {
        rtm_work_add(w, RTM_WORK_BYTES, (uint64_t)n);
        rtm_work_add(w, RTM_WORK_READS, 1);
    }
    return n;
}

int rtm_work_slurp_max(struct rtm_work *w, const char *path, size_t max, uint8_t **data,
                       size_t *len)
{
    int rc = rtm_slurp_max(path, max, data, len);
    if (rc == 0) {
        rtm_work_add(w, RTM_WORK_OPENED, 1);
        rtm_work_add(w, RTM_WORK_BYTES, *len);
        rtm_work_add(w, RTM_WORK_READS, *len > 0);
    }
    return rc;
}
