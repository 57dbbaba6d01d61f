/* rtmcat - print one view of an RTM animation, without mounting. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <lzo/lzoconf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "numfmt.h"
#include "pbo.h"
#include "rtm.h"
#include "skeleton.h"
#include "version.h"
#include "views.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rtmcat [-s SKELETON] FILE [VIEW]\n"
            "Print VIEW of the Arma animation FILE (.rtm, plain or BMTR), or list\n"
            "its views with their sizes in bytes when VIEW is omitted.  FILE may\n"
            "name an entry inside a PBO archive: ARCHIVE.pbo/path/in/archive.rtm.\n"
            "For FILE an archive (ARCHIVE.pbo), VIEW is pbo.txt (its header\n"
            "properties); without VIEW its entries are listed.\n\n"
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

/* ARCHIVE.pbo/inner: reads only that entry of the archive. */
static int load_member(const char *archive, const char *inner, uint8_t **data, size_t *len,
                       struct rtm_error *err)
{
    int fd = open(archive, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rtm_err_nooff(err, "%s: %s", archive, strerror(errno));
        return -1;
    }
    struct pbo *p = NULL;
    int rc = pbo_load_table(fd, &p, err);
    if (rc == 0) {
        long i = pbo_find(p, inner);
        if (i < 0) {
            rtm_err_nooff(err, "no entry '%s' in the archive", inner);
            rc = -1;
        } else {
            rc = pbo_load_entry(fd, p, (size_t)i, data, len, err);
        }
    }
    pbo_free(p);
    close(fd);
    return rc;
}

static int is_pbo_name(const char *s, size_t n)
{
    return rtm_name_ends(s, n, ".pbo");
}

/* The bytes of FILE: a file, or an entry of an archive on its path. */
static int load_source(const char *file, uint8_t **data, size_t *len, struct rtm_error *err)
{
    if (rtm_slurp(file, data, len) == 0)
        return 0;
    int e = errno;
    for (const char *slash = strchr(file, '/'); e != EISDIR && slash; slash = strchr(slash + 1, '/')) {
        size_t n = (size_t)(slash - file);
        struct stat st;
        char archive[4096];
        if (!is_pbo_name(file, n) || n >= sizeof archive)
            continue;
        memcpy(archive, file, n);
        archive[n] = 0;
        if (stat(archive, &st) == 0 && S_ISREG(st.st_mode))
            return load_member(archive, slash + 1, data, len, err);
    }
    rtm_err_nooff(err, "%s", strerror(e));
    return -1;
}

static int fail(const char *file, const char *msg)
{
    fprintf(stderr, "rtmcat: %s: %s\n", file, msg);
    return 1;
}

static int fail_err(const char *file, const struct rtm_error *err)
{
    char msg[320];
    rtm_err_format(err, msg, sizeof msg);
    return fail(file, msg);
}

/* Without a view: pbo.txt and every entry with its content's size, one a
 * line (names escaped as in the views, so a newline cannot split a line). */
static void list_archive(const struct pbo *p, struct rtm_buf *out)
{
    struct rtm_buf info;
    buf_init(&info);
    rtm_view_pbo_info(p, &info);
    buf_printf(out, "%10zu %s\n", info.len, RTM_PBO_INFO_NAME);
    buf_free(&info);
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        if (!*e->path)
            continue;
        buf_printf(out, "%10llu ", (unsigned long long)pbo_entry_content_size(e));
        rtm_put_name(out, (struct rtm_str){ e->path, (uint32_t)strlen(e->path) });
        buf_putc(out, '\n');
    }
}

/* FILE is an archive itself: its listing or its pbo.txt. */
static int cat_archive(const char *file, const char *view_path)
{
    if (view_path && strcmp(view_path, RTM_PBO_INFO_NAME)) {
        char msg[320];
        snprintf(msg, sizeof msg, "an archive has only the view %s; its entries are "
                 "ARCHIVE.pbo/path/in/archive", RTM_PBO_INFO_NAME);
        return fail(file, msg);
    }
    struct rtm_error err = { .msg = "" };
    struct pbo *p = NULL;
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(file, strerror(errno));
    int rc = pbo_load_table(fd, &p, &err);
    close(fd);
    if (rc)
        return fail_err(file, &err);
    struct rtm_buf out;
    buf_init(&out);
    if (view_path)
        rtm_view_pbo_info(p, &out);
    else
        list_archive(p, &out);
    pbo_free(p);
    int status = out.oom ? fail(file, "out of memory") : 0;
    if (!status && write_all(out.p ? out.p : "", out.len))
        status = fail("stdout", strerror(errno));
    buf_free(&out);
    return status;
}

static int is_archive(const char *file)
{
    struct stat st;
    return is_pbo_name(file, strlen(file)) && stat(file, &st) == 0 && S_ISREG(st.st_mode);
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
    if (is_archive(file))
        return cat_archive(file, view_path);
    struct rtm_error err = { .msg = "" };
    struct rtm_skeleton *skel = NULL;
    if (rtm_skeleton_open(skel_spec, &skel, &err)) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    if (load_source(file, &data, &len, &err)) {
        rtm_skeleton_free(skel);
        return fail_err(file, &err);
    }
    struct rtm_anim *a = NULL;
    int rc = rtm_parse(data, len, skel, &a, &err);
    free(data);
    rtm_skeleton_free(skel);
    if (rc)
        return fail_err(file, &err);
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
