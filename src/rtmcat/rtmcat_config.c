/* rtmcat_config.c - rtmcat on rapified configs (their text, as the core
 * writes it: config.h) and rtmcat --raw (a file's or an archive entry's
 * bytes as they are).  rtmcat.c finds the file; this prints it. */
#include "rtmcat_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "config.h"
#include "fileid.h"
#include "util.h"

void rtmcat_config_usage(FILE *f)
{
    fprintf(f,
            "\nA rapified config (\\0raP) prints as its text and has no views; only\n"
            "files named *config.bin, *.rvmat, *.bisurf, *.sqm or model.cfg are\n"
            "looked at.  --raw prints a file or an archive entry as it is.\n");
}

int rtmcat_vfailf(const char *file, const char *fmt, va_list ap)
{
    fprintf(stderr, "rtmcat: %s: ", file);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return 1;
}

int rtmcat_failf(const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rtmcat_vfailf(file, fmt, ap);
    va_end(ap);
    return 1;
}

int rtmcat_fail_no_view(const char *file, const char *view)
{
    return rtmcat_failf(file, "no view called '%s' (run 'rtmcat %s' for the list)", view, file);
}

static int fail(const char *file, const char *what)
{
    return rtmcat_failf(file, "%s", what);
}

int rtmcat_write_fd(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -errno;
        if (w == 0)
            return -EIO;                /* nothing written: it would loop */
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int rtmcat_write_out(const void *data, size_t len)
{
    int rc = rtmcat_write_fd(STDOUT_FILENO, data, len);
    if (rc)
        fprintf(stderr, "rtmcat: stdout: %s\n", strerror(-rc));
    return rc != 0;
}

/* The bytes of a file or entry found: printed raw, or as a config's text,
 * or -1 when they are no rapified config (and raw is not set). */
static int show(const char *file, const char *view, const uint8_t *data, size_t len, int raw)
{
    if (raw)
        return rtmcat_write_out(data, len);
    if (!rap_is_rapified(data, len))
        return -1;
    if (view) {
        fprintf(stderr, "rtmcat: %s: a rapified config has no views; 'rtmcat %s' prints "
                "its text\n", file, file);
        return 1;
    }
    struct rtm_error err = { .msg = "" };
    struct cfg *c;
    if (rap_read(data, len, &c, &err)) {
        char msg[sizeof err.msg + 32];
        rtm_err_format(&err, msg, sizeof msg);
        return fail(file, msg);
    }
    struct rtm_buf b;
    rtm_buf_init(&b);
    cfg_print_text(c, &b);
    cfg_free(c);
    int status = b.oom ? fail(file, "out of memory") : rtmcat_write_out(b.p ? b.p : "", b.len);
    rtm_buf_free(&b);
    return status;
}

int rtmcat_read_fd(int fd, uint8_t **data, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st))
        return errno;
    /* first the file's size and a byte more, so that its end needs no growth */
    size_t first = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, cap = 0, n = 0;
    uint8_t *p = NULL;
    for (ssize_t r = 1; r > 0;) {
        void *q = p;
        if (rtm_array_grow(&q, &cap, n + 1, 1, first))
            break;
        p = q;
        r = read(fd, p + n, cap - n);
        if (r < 0 && errno == EINTR)
            r = 1;
        else if (r < 0) {
            int e = errno;
            free(p);
            return e;
        } else
            n += (size_t)r;
    }
    if (!p || n == cap) {
        free(p);
        return ENOMEM;
    }
    *data = p;
    *len = n;
    return 0;
}

int rtmcat_config_loose(int srcfd, const char *rel, const char *file, const char *view,
                        int raw)
{
    if (!raw && !cfg_is_candidate_name(rel, strlen(rel)))
        return -1;
    int fd = openat(srcfd, rel, O_RDONLY | O_CLOEXEC);
    uint8_t *data = NULL;
    size_t len = 0;
    int e = fd < 0 ? errno : rtmcat_read_fd(fd, &data, &len);
    if (fd >= 0)
        close(fd);
    if (e)  /* not raw: rtmcat reads it as an animation, which says why */
        return raw ? fail(file, strerror(e)) : -1;
    int status = show(file, view, data, len, raw);
    free(data);
    return status;
}

int rtmcat_config_entry(struct rtmc *cache, const char *key, size_t archive_len,
                        const struct stat *st, const char *file, size_t dlen,
                        const char *view, int raw)
{
    if (!raw && !cfg_is_candidate_name(key, strlen(key)))
        return -1;
    struct rtmc_src s = { .path = key, .id = rtm_fileid_of(st), .kind = RTMC_DATA,
                          .archive_len = archive_len };
    struct rtmc_entry *h;
    int rc = rtmc_get(cache, &s, &h);
    if (rc)
        return fail(file, strerror(-rc));
    size_t len = 0;
    const uint8_t *data = rtmc_data(h, &len);
    int status;
    if (data) {
        status = show(file, view, data, len, raw);
    } else {    /* the loader's message names the entry from D */
        const char *msg = rtmc_error(h);
        size_t n = strlen(msg);
        n -= n && msg[n - 1] == '\n';
        fprintf(stderr, "rtmcat: %.*s%.*s\n", (int)dlen, file, (int)n, msg);
        status = 1;
    }
    rtmc_put(cache, h);
    return status;
}
