/* rtmcat_gltf.c - a loose glTF, GLB or FBX file's view, read with the
 * files beside it (rtmcat_gltf.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format_table.h"
#include "rtmcat_gltf.h"
#include "rtmcat_config.h"
#include "views.h"

struct beside {
    int srcfd;
    const char *rel;
};

static int read_at(int srcfd, const char *path, uint8_t **data, size_t *len)
{
    int fd = openat(srcfd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = rtmcat_read_fd(fd, data, len);
    int e = errno;
    close(fd);
    errno = e;
    return rc ? -1 : 0;
}

/* rtm_parse_opts.read_beside: name in rel's folder. */
static int read_beside(void *ctx, const char *name, uint8_t **data, size_t *len,
                       struct rtm_error *err)
{
    const struct beside *b = ctx;
    const char *slash = strrchr(b->rel, '/');
    int dir = slash ? (int)(slash - b->rel) : 0;
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s%s%s", dir, b->rel, slash ? "/" : "", name);
    if (n < 0 || (size_t)n >= sizeof path) {
        rtm_err_nooff(err, "%s: the name is too long", name);
        return -1;
    }
    if (read_at(b->srcfd, path, data, len)) {
        rtm_err_nooff(err, "%s (beside the source): %s", name, strerror(errno));
        return -1;
    }
    return 0;
}

static int is_ours(const char *rel)
{
    size_t n = strlen(rel);
    static const enum rtm_format F[] = { RTM_FORMAT_GLTF, RTM_FORMAT_GLB, RTM_FORMAT_FBX };
    for (size_t k = 0; k < sizeof F / sizeof *F; k++)
        if (rtm_name_ends(rel, n, rtm_format_by_id(F[k])->ext))
            return 1;
    return 0;
}

int rtmcat_gltf(int srcfd, const char *rel, const char *view, const struct rtm_skeleton *skel,
                const struct rtm_mocap_opts *mocap, uint32_t clip, const char *file)
{
    struct stat st;
    uint8_t *data;
    size_t len;
    if (!view || !is_ours(rel) || fstatat(srcfd, rel, &st, 0) || !S_ISREG(st.st_mode) ||
        read_at(srcfd, rel, &data, &len))
        return -1;
    struct beside b = { srcfd, rel };
    struct rtm_parse_opts o = { .skel = skel, .mocap = mocap, .clip = clip,
                                .read_beside = read_beside, .beside_ctx = &b };
    struct rtm_error err = { .msg = "" };
    struct rtm_anim *a = NULL;
    struct rtm_view v;
    int rc = rtm_parse_opts(data, len, &o, &a, &err);
    free(data);
    if (rc) {
        char msg[sizeof err.msg + 64];
        rtm_err_format(&err, msg, sizeof msg);
        fprintf(stderr, "rtmcat: %s: %s\n", file, msg);
        return 1;
    }
    if (rtm_view_lookup(a, view, &v)) {
        fprintf(stderr, "rtmcat: %s: no view %s\n", file, view);
        rtm_free(a);
        return 1;
    }
    struct rtm_buf out;
    rtm_buf_init(&out);
    int status = 0;
    if (rtm_view_render(a, v, &out) || out.oom) {
        fprintf(stderr, "rtmcat: %s: out of memory\n", file);
        status = 1;
    } else {
        status = rtmcat_write_out(out.p, out.len);
    }
    rtm_buf_free(&out);
    rtm_free(a);
    return status;
}
