/* rtmcat_states.c - which configs rtmcat's states.txt reads, and
 * preview.svg and anim.bvh take their timing from (rtmcat_states.h).  rtmcat's tree is rooted at FILE's folder, which is
 * rarely where the addon's config lies: the game reads an animation
 * through the configs of its addon, so rtmcat reads those (or -C's). */
#include "rtmcat_states.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "gamepath.h"
#include "timing.h"
#include "util.h"
#include "views.h"

void rtmcat_states_usage(FILE *f)
{
    fprintf(f, "\n"
               "states.txt (which config states play FILE), and the timing of preview.svg\n"
               "and anim.bvh (one pass as those states time it), read the configs of the\n"
               "addon FILE is in (its archive, or the folder of its $PBOPREFIX$), or with\n"
               "  -C DIR               every config.bin and config.cpp under DIR\n");
}

/* The first archive on path (a name ending in .pbo that is a regular
 * file), into out: 0, or -1 when there is none. */
static int archive_on(const char *path, char *out, size_t n)
{
    size_t len = strlen(path);
    for (size_t i = 1; i <= len && i < n; i++) {
        struct stat st;
        if ((path[i] != '/' && path[i]) || !rtm_name_ends(path, i, ".pbo"))
            continue;
        memcpy(out, path, i);
        out[i] = 0;
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return 0;
    }
    return -1;
}

int rtmcat_states_from(const char *cdir, const char *file, char *out, size_t n)
{
    char gp[PATH_MAX];
    int rc;
    if (cdir)
        rc = snprintf(out, n, "%s", cdir) < (int)n ? 0 : -1;
    else if ((rc = archive_on(file, out, n)))
        rc = gamepath_loose(file, gp, sizeof gp, out, n);
    if (rc && n)
        out[0] = 0;
    return rc;
}

int rtmcat_render_unlisted(struct rtmc *cache, struct rtmc_entry *h, const struct rtm_view *v,
                           struct rtm_buf *out)
{
    const struct rtm_anim *a = rtmc_anim(h);
    struct rtm_timing tm;
    struct rtmc_view *cv;
    size_t len;
    rtm_timing_decide(NULL, 0, a->nframes, &tm);
    if (v) {
        int rc = rtmc_timed_view_get(cache, h, *v, &tm, &cv);
        if (rc == 0) {
            const char *data = rtmc_view_data(cv, &len);
            rtm_buf_put(out, data, len);
            rtmc_view_put(cache, cv);
        }
        return rc;
    }
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        char path[RTM_VIEW_PATH_MAX];
        uint64_t size;
        int rc = rtmc_timed_view_size(cache, h, rtm_view_at(a, i), &tm, &size);
        if (rc)
            return rc;
        rtm_view_path(a, rtm_view_at(a, i), path);
        rtm_buf_printf(out, "%10zu %s\n", (size_t)size, path);
    }
    return 0;
}
