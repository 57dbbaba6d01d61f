/* rtmcat_plain.c - plain.rtm of a loose BMTR file without the tree.
 *
 * Converting is what rtmcat is run for most, once a file by a script, so
 * this one view takes a shorter way than the tree's: the file is read as
 * a full parse reads it, but each frame is converted straight into the
 * piece of CHUNK bytes being written (rtm_bmtr_plain_each), so that the
 * matrices are never held, nor the skeleton's copy and the track names
 * that only other views need.  The bytes are the view's by construction:
 * the same reader, conversion and writer (bmtr_plain.h).  Anything else
 * (a file that does not parse, a plain RTM, an archive entry) goes the
 * tree's way, which also makes every message. */
#include "rtmcat_plain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bmtr_plain.h"
#include "rtm.h"
#include "rtmcat_config.h"
#include "sides.h"
#include "skeleton_cfg.h"
#include "views.h"

/* 16 KiB: the buffer is fresh memory, a page fault for every 4 KiB of it,
 * and most outputs pass 64 KiB, so a smaller one saves twelve faults a
 * run for a few more write calls on the largest files. */
enum { CHUNK = 1 << 14 };

/* The file's bytes when it may be a BMTR animation: 0, or -1. */
static int read_bmtr(int srcfd, const char *rel, uint8_t **data, size_t *len)
{
    struct stat st;
    if (!rtm_name_ends(rel, strlen(rel), ".rtm") ||
        fstatat(srcfd, rel, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
        return -1;
    int fd = openat(srcfd, rel, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = rtmcat_read_fd(fd, data, len);
    close(fd);
    if (!rc && (*len < 4 || memcmp(*data, "BMTR", 4))) {
        free(*data);
        rc = -1;
    }
    return rc ? -1 : 0;
}

/* Whether a model.cfg lies beside rel, whose classes then give its
 * skeleton (the tree's way). */
static int model_cfg_beside(int srcfd, const char *rel)
{
    char p[PATH_MAX];
    struct stat st;
    return rtm_side_beside(RTM_SIDE_MODEL_CFG, rel, strlen(rel), p, sizeof p) == 0 &&
           fstatat(srcfd, p, &st, 0) == 0;
}

/* rtm_plain_flush_fn: out's bytes to stdout; *ctx becomes the status. */
static int flush_out(void *ctx, struct rtm_buf *out)
{
    int *status = ctx;
    *status = rtmcat_write_out(out->p, out->len);
    out->len = 0;
    return *status ? -1 : 0;
}

int rtmcat_plain(int srcfd, const char *rel, const char *view,
                 const struct rtm_skeleton *skel, int skel_given, const char *file)
{
    enum rtm_view_kind kind;
    uint8_t *data;
    size_t len;
    if (rtm_view_name_kind(view, &kind) || kind != RTM_VIEW_PLAIN ||
        (!skel_given && model_cfg_beside(srcfd, rel)) || read_bmtr(srcfd, rel, &data, &len))
        return -1;
    struct rtm_parse_opts o = { .skel = skel, .give_source = 1 };   /* data is freed once read */
    struct rtm_error err = { .msg = "" };
    struct rtm_buf out;
    rtm_buf_init(&out);
    int status = 0;
    int rc = rtm_bmtr_plain_each(data, len, &o, &out, CHUNK, flush_out, &status, &err);
    rtm_buf_free(&out);
    if (rc == -1)
        return -1;                      /* nothing written: the tree's way says why */
    if (rc && !status) {
        fprintf(stderr, "rtmcat: %s: out of memory\n", file);
        status = 1;
    }
    return status;
}
