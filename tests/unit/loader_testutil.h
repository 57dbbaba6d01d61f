/* loader_testutil.h - a test's SOURCE: a fresh folder under /tmp, a loader
 * over it and a cache that loads through that loader, as rtmfs wires them.
 * Shared by the tests that read files through rtm_loader (test_loader,
 * test_light_read, test_parse_once).  The source owns its folder, its
 * descriptor and its cache; source_close() removes all three. */
#ifndef RTM_LOADER_TESTUTIL_H
#define RTM_LOADER_TESTUTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "loader.h"

struct test_source {
    char dir[64];
    int fd;
    struct rtm_loader l;
    struct rtmc *c;
};

/* Makes /tmp/rtmfs-TAG.XXXXXX and a cache of budget bytes over it. */
static inline void source_open(struct test_source *s, const char *tag, size_t budget)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/rtmfs-%s.XXXXXX", tag);
    assert_non_null(mkdtemp(s->dir));
    s->fd = open(s->dir, O_RDONLY | O_DIRECTORY);
    assert_true(s->fd >= 0);
    s->l = (struct rtm_loader){ .srcfd = s->fd, .digits = RTM_DIGITS_EXACT };
    s->c = s->l.cache = rtmc_new(budget, rtm_loader_load, &s->l);
    assert_non_null(s->c);
}

/* Writes n bytes as the file name in the source. */
static inline void source_write(struct test_source *s, const char *name, const void *p, size_t n)
{
    int fd = openat(s->fd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    close(fd);
}

/* Frees the cache and removes the folder with what is in it. */
static inline void source_close(struct test_source *s)
{
    char cmd[128];
    rtmc_free(s->c);
    close(s->fd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    assert_int_equal(system(cmd), 0);
}

#endif
