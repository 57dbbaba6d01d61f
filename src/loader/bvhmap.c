/* bvhmap.c - the map file beside a BVH animation (bvhmap.h). */
#include "bvhmap.h"
#include "loader_int.h"
#include "modelcfg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int too_big(struct rtm_bvh_map_file *m, uint64_t size, char *msg, size_t msglen)
{
    snprintf(msg, msglen, "%s: %llu bytes, more than a map file holds (%d)", m->where,
             (unsigned long long)size, RTM_BVH_MAP_MAX);
    return 1;
}

/* A loose animation's: the file beside it, if any. */
static int loose(const struct rtm_loader *l, const struct rtmc_src *src,
                 struct rtm_bvh_map_file *m, char *msg, size_t msglen)
{
    struct stat st;
    char path[PATH_MAX];
    if (rtm_side_beside(RTM_SIDE_BVH_MAP, src->path, strlen(src->path), path, sizeof path))
        return 0;
    snprintf(m->where, sizeof m->where, "%s", rtm_side_file_name(path));
    int fd = rtm_work_openat(l->work, l->srcfd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
    int rc = fstat(fd, &st) ? -errno : !S_ISREG(st.st_mode) ? 0 : 2;
    if (rc == 2 && (uint64_t)st.st_size > RTM_BVH_MAP_MAX)
        rc = too_big(m, (uint64_t)st.st_size, msg, msglen);
    if (rc == 2) {
        m->id = rtm_fileid_of(&st);
        m->len = (size_t)st.st_size;
        ssize_t got = (m->text = malloc(m->len + 1)) ? rtm_work_pread(l->work, fd, m->text, m->len, 0)
                                                     : -ENOMEM;
        rc = got < 0 ? (int)got : (size_t)got == m->len ? 0 : -ESTALE;
    }
    close(fd);
    return rc;
}

/* An archive entry's: the entry bvh.map beside it, any case. */
static int in_archive(const struct rtm_loader *l, int fd, const struct rtmc_src *src,
                      struct rtm_bvh_map_file *m, char *msg, size_t msglen)
{
    const char *entry = src->path + src->archive_len + 1;
    char name[PBO_NAME_MAX + 16];
    struct rtmc_entry *t;
    long i;
    if (rtm_side_beside(RTM_SIDE_BVH_MAP, entry, strlen(entry), name, sizeof name))
        return 0;
    int rc = rtm_archive_beside(l, src, name, &t, &i);
    if (rc || i < 0) {
        if (!rc)
            rtmc_put(l->cache, t);
        return rc;
    }
    const struct pbo *p = rtmc_pbo(t);
    struct rtm_error err = { .msg = "" };
    uint64_t size = pbo_entry_content_size(&p->entries[i]);
    snprintf(m->where, sizeof m->where, "%s", rtm_side_file_name(p->entries[i].path));
    if (size > RTM_BVH_MAP_MAX)
        rc = too_big(m, size, msg, msglen);
    else if (pbo_load_entry(l->work, fd, p, (size_t)i, &m->text, &m->len, &err))
        rc = err.code ? -err.code : (snprintf(msg, msglen, "%s: %s", m->where, err.msg), 1);
    rtmc_put(l->cache, t);
    return rc;
}

int rtm_bvh_map_find(const struct rtm_loader *l, int fd, const struct rtmc_src *src,
                     struct rtm_bvh_map_file *m, char *msg, size_t msglen)
{
    *m = (struct rtm_bvh_map_file){ .text = NULL };
    if (src->kind != RTMC_ANIM || !rtm_side_wanted(RTM_SIDE_BVH_MAP, src->path, strlen(src->path), 0))
        return 0;
    int rc = src->archive_len ? in_archive(l, fd, src, m, msg, msglen)
                              : loose(l, src, m, msg, msglen);
    if (rc) {
        rtm_bvh_map_release(m);
        m->where[0] = 0;
    }
    return rc;
}

void rtm_bvh_map_release(struct rtm_bvh_map_file *m)
{
    free(m->text);
    m->text = NULL;
    m->len = 0;
    m->id = RTM_FILEID_NONE;
}
