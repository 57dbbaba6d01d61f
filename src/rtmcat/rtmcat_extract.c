/* rtmcat_extract.c - an animation's views as files (rtmcat_extract.h). */
#include "rtmcat_extract.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtmcat_config.h"
#include "rtmcat_states.h"
#include "views.h"

struct extract {
    struct rtm_tree *t;
    const char *file;             /* FILE as given, for messages */
    int outfd;                    /* OUTDIR */
    char *piece;                  /* what one read of the tree gives */
};

enum { PIECE = 1 << 16 };

int rtmcat_lookup_view(struct rtm_tree *t, uint64_t ino, const char *view,
                       struct rtm_tree_entry *out)
{
    char name[NAME_MAX + 1];
    out->ino = ino;
    for (const char *p = view;; p++) {
        size_t n = strcspn(p, "/");
        if (n == 0 || n >= sizeof name)
            return -ENOENT;
        memcpy(name, p, n);
        name[n] = 0;
        if (!strcmp(name, ".") || !strcmp(name, ".."))
            return -ENOENT;             /* no view climbs (-o writes below OUTDIR) */
        int rc = rtm_tree_lookup(t, out->ino, name, out);
        if (rc)
            return rc == -ENAMETOOLONG ? -ENOENT : rc;
        if (!*(p += n))
            return 0;
    }
}

/* The folders of path below OUTDIR, made when missing: 0 or -errno. */
static int make_folders(const struct extract *x, const char *path)
{
    char sub[PATH_MAX];
    for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof sub)
            return -ENAMETOOLONG;
        memcpy(sub, path, n);
        sub[n] = 0;
        if (mkdirat(x->outfd, sub, 0755) && errno != EEXIST)
            return -errno;
    }
    return 0;
}

/* OUTDIR/path made ready for writing, its folders made: the file's
 * descriptor, or -1 after the message. */
static int open_out(const struct extract *x, const char *path)
{
    int rc = make_folders(x, path);
    if (rc) {
        rtmcat_failf(x->file, "%s: cannot make its folder: %s", path, strerror(-rc));
        return -1;
    }
    int fd = openat(x->outfd, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        rtmcat_failf(x->file, "%s: cannot write it: %s", path, strerror(errno));
    return fd;
}

/* Closes fd, written with rc (0 or -errno): rtmcat's exit status. */
static int close_out(const struct extract *x, int fd, int rc, const char *path)
{
    if (close(fd) && !rc)
        rc = -errno;
    return rc ? rtmcat_failf(x->file, "%s: cannot write it: %s", path, strerror(-rc)) : 0;
}

/* File ino, the view called path, to OUTDIR/path: rtmcat's exit status. */
static int write_view(struct extract *x, uint64_t ino, const char *path)
{
    int fd = open_out(x, path), rc = 0;
    if (fd < 0)
        return 1;
    ssize_t n = 1;
    for (off_t at = 0; n > 0 && !rc; at += n) {
        n = rtm_tree_read(x->t, ino, x->piece, PIECE, at);
        if (n > 0)
            rc = rtmcat_write_fd(fd, x->piece, (size_t)n);
    }
    if (n < 0) {
        close(fd);
        return rtmcat_failf(x->file, "%s: %s", path, strerror((int)-n));
    }
    return close_out(x, fd, rc, path);
}

/* Every file of folder ino, as PREFIXNAME, its folders' too. */
static int write_folder(struct extract *x, uint64_t ino, const char *prefix)
{
    struct rtm_dirlist *d;
    int rc = rtm_tree_listing(x->t, ino, 0, &d), status = 0;
    if (rc)
        return rtmcat_failf(x->file, "%s: %s", *prefix ? prefix : ".", strerror(-rc));
    for (size_t i = 0; !status && i < d->n; i++) {
        const char *name = d->e[i].name;
        struct rtm_tree_entry e;
        char path[PATH_MAX];
        if (!strcmp(name, ".") || !strcmp(name, ".."))
            continue;
        if (snprintf(path, sizeof path, "%s%s", prefix, name) >= (int)sizeof path - 1)
            status = rtmcat_failf(x->file, "%s%s: a name too long", prefix, name);
        else if ((rc = rtm_tree_lookup(x->t, ino, name, &e)))
            status = rtmcat_failf(x->file, "%s: %s", path, strerror(-rc));
        else if (S_ISDIR(e.st.st_mode))
            status = write_folder(x, e.ino, strcat(path, "/"));
        else
            status = write_view(x, e.ino, path);
    }
    rtm_tree_listing_put(x->t, d);
    return status;
}

/* The views named, each a file (a folder's name: -EISDIR's message). */
static int write_named(struct extract *x, uint64_t ino, char *const *views, int n)
{
    int status = 0;
    for (int i = 0; !status && i < n; i++) {
        struct rtm_tree_entry e;
        int rc = rtmcat_lookup_view(x->t, ino, views[i], &e);
        if (rc == -ENOENT)
            status = rtmcat_fail_no_view(x->file, views[i]);
        else if (rc)
            status = rtmcat_failf(x->file, "%s: %s", views[i], strerror(-rc));
        else if (S_ISDIR(e.st.st_mode))
            status = rtmcat_failf(x->file, "%s: %s", views[i], strerror(EISDIR));
        else
            status = write_view(x, e.ino, views[i]);
    }
    return status;
}

/* OUTDIR made when missing, and opened: 0, or 1 after the message. */
static int open_outdir(struct extract *x, const char *outdir)
{
    if (mkdir(outdir, 0755) && errno != EEXIST)
        return rtmcat_failf(x->file, "-o %s: %s", outdir, strerror(errno));
    if ((x->outfd = open(outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return rtmcat_failf(x->file, "-o %s: %s", outdir, strerror(errno));
    return 0;
}

static void close_outdir(struct extract *x)
{
    if (x->outfd >= 0)
        close(x->outfd);
    free(x->piece);
}

int rtmcat_extract(struct rtm_tree *t, uint64_t ino, const char *file, const char *outdir,
                   char *const *views, int n)
{
    struct extract x = { t, file, -1, malloc(PIECE) };
    int status = x.piece ? open_outdir(&x, outdir) : rtmcat_failf(file, "%s", strerror(ENOMEM));
    if (!status)
        status = n ? write_named(&x, ino, views, n) : write_folder(&x, ino, "");
    close_outdir(&x);
    return status;
}

/* View v of the unlisted entry h to OUTDIR/path. */
static int write_unlisted(struct extract *x, struct rtmc *cache, struct rtmc_entry *h,
                          const struct rtm_view *v, const char *path)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    int rc = rtmcat_render_unlisted(cache, h, v, &b), fd = -1;
    if (!rc && b.oom)
        rc = -ENOMEM;
    if (rc)
        rtmcat_failf(x->file, "%s: %s", path, strerror(-rc));
    else if ((fd = open_out(x, path)) >= 0)
        rc = close_out(x, fd, rtmcat_write_fd(fd, b.p ? b.p : "", b.len), path);
    rtm_buf_free(&b);
    return rc || fd < 0;
}

int rtmcat_extract_unlisted(struct rtmc *cache, struct rtmc_entry *h, const char *file,
                            const char *outdir, char *const *views, int n)
{
    struct extract x = { NULL, file, -1, NULL };   /* rendered whole: no pieces */
    const struct rtm_anim *a = rtmc_anim(h);
    int status = open_outdir(&x, outdir);
    size_t count = n ? (size_t)n : rtm_view_count(a);
    for (size_t i = 0; !status && i < count; i++) {
        struct rtm_view v;
        char path[RTM_VIEW_PATH_MAX];
        if (!n) {
            v = rtm_view_at(a, i);
            rtm_view_path(a, v, path);
        } else if (rtm_view_lookup(a, views[i], &v)) {
            status = rtmcat_fail_no_view(file, views[i]);
            break;
        } else {
            snprintf(path, sizeof path, "%s", views[i]);
        }
        status = write_unlisted(&x, cache, h, &v, path);
    }
    close_outdir(&x);
    return status;
}
