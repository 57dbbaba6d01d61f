/* rtmcat - print one view of an RTM animation, without mounting. */
#include <errno.h>
#include <getopt.h>
#include <lzo/lzoconf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtm.h"
#include "skeleton.h"
#include "version.h"
#include "views.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rtmcat [-s SKELETON] FILE [VIEW]\n"
            "Print VIEW of the Arma animation FILE (.rtm, plain or BMTR), or list\n"
            "its views with their sizes in bytes when VIEW is omitted.\n\n"
            "Views: header.txt bones.txt phases.csv props.json plain.rtm frames/NNN.csv\n\n"
            "  -s, --skeleton=SKEL  ofp2 (default), none, or a skeleton file\n"
            "  -h, --help           show this help\n"
            "  -V, --version        show the version\n");
}

static int write_all(const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int list_views(const struct rtm_anim *a, struct rtm_buf *out)
{
    struct rtm_buf v;
    char path[RTM_VIEW_PATH_MAX];
    buf_init(&v);
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view view = rtm_view_at(a, i);
        v.len = 0;
        if (rtm_view_render(a, view, &v))
            break;
        rtm_view_path(a, view, path);
        buf_printf(out, "%10zu %s\n", v.len, path);
    }
    int oom = v.oom;
    buf_free(&v);
    return oom ? -1 : 0;
}

static int fail(const char *file, const char *msg)
{
    fprintf(stderr, "rtmcat: %s: %s\n", file, msg);
    return 1;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "skeleton", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *skel_spec = "ofp2";
    int c;
    while ((c = getopt_long(argc, argv, "s:hV", opts, NULL)) != -1) {
        switch (c) {
        case 's': skel_spec = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V':
            printf("rtmcat %s (LZO %s)\n", RTMFS_VERSION, lzo_version_string());
            return 0;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind < 1 || argc - optind > 2) {
        usage(stderr);
        return 2;
    }
    const char *file = argv[optind], *view_path = argv[optind + 1];
    struct rtm_error err = { "", 0, 0 };
    struct rtm_skeleton *skel = NULL;
    if (rtm_skeleton_open(skel_spec, &skel, &err)) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    if (rtm_slurp(file, &data, &len)) {
        rtm_skeleton_free(skel);
        return fail(file, strerror(errno));
    }
    struct rtm_anim *a = NULL;
    int rc = rtm_parse(data, len, skel, &a, &err);
    free(data);
    rtm_skeleton_free(skel);
    if (rc) {
        char msg[320];
        rtm_err_format(&err, msg, sizeof msg);
        return fail(file, msg);
    }
    struct rtm_buf out;
    buf_init(&out);
    struct rtm_view view;
    int status = 0;
    if (!view_path) {
        rc = list_views(a, &out);
    } else if (rtm_view_lookup(a, view_path, &view)) {
        char msg[320];
        snprintf(msg, sizeof msg, "no view called '%s' (run 'rtmcat %s' for the list)",
                 view_path, file);
        status = fail(file, msg);
        rc = 0;
    } else {
        rc = rtm_view_render(a, view, &out);
    }
    if (rc)
        status = fail(file, "out of memory");
    else if (!status && write_all(out.p ? out.p : "", out.len))
        status = fail("stdout", strerror(errno));
    buf_free(&out);
    rtm_free(a);
    return status;
}
