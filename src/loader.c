/* loader.c - reading one version of a file of SOURCE for the cache. */
#include "loader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pbo.h"

static int same_version(int fd, const struct rtmc_src *src)
{
    struct stat st;
    if (fstat(fd, &st))
        return -errno;
    struct rtm_fileid now = rtm_fileid_of(&st);
    return rtm_fileid_same(&now, &src->id) ? 0 : -ESTALE;
}

static int read_all(int fd, uint8_t *p, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, p + got, len - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -ESTALE;   /* shorter: it changed */
        got += (size_t)n;
    }
    return 0;
}

/* A format error becomes the message (the cache keeps it); any other
 * failure (out of memory, a read error, a file that changed) is returned as
 * -errno, which the cache does not keep: the next access tries again. */
static int failed(char *msg, size_t msglen, const char *what, const struct rtm_error *err)
{
    if (err->code)
        return -err->code;
    char text[320];
    rtm_err_format(err, text, sizeof text);
    snprintf(msg, msglen, "%s: %s", what, text);
    return 0;
}

/* Reserves bytes for what is about to be read or decoded ("to read", "to
 * parse"); a load that could never fit becomes its message, kept as any
 * format error is. */
static int reserve(struct rtmc_reservation *r, uint64_t bytes, uint64_t full,
                   const char *what, struct rtm_error *err)
{
    char text[128];
    int rc = rtmc_would_fit(r, full, what, text, sizeof text);
    if (!rc)
        rc = rtmc_reserve(r, bytes, what, text, sizeof text);
    if (rc == -EFBIG)
        rtm_err_nooff(err, "%s", text);
    else if (rc)
        rtm_err_sys(err, -rc, 0, "no memory free to %s it", what);
    return rc ? -1 : 0;
}

/* A light parse is refused too when a full one could never fit: the
 * folder then shows why, rather than views that cannot be read. */
static int reserve_parse(void *ctx, uint64_t bytes, uint64_t full, struct rtm_error *err)
{
    return reserve(ctx, bytes, full, "to parse", err);
}

/* Parses data (malloc'd, handed over: the anim may keep it as its source;
 * freed here otherwise). */
static int parse(const struct rtm_loader *l, const struct rtmc_src *src,
                 struct rtmc_reservation *r, uint8_t *data, size_t len,
                 struct rtm_anim **anim, char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    struct rtm_parse_opts o = { .skel = l->skel, .reserve = reserve_parse, .reserve_ctx = r,
                                .flags = src->light ? RTM_PARSE_NO_MATRICES : 0,
                                .give_source = 1 };
    int rc = rtm_parse_opts(data, len, &o, anim, &err) ? failed(msg, msglen, src->path, &err) : 0;
    if (*anim)
        (*anim)->digits = l->digits;
    if (!*anim || (*anim)->source != data)
        free(data);
    return rc;
}

static int load_file(const struct rtm_loader *l, int fd, const struct rtmc_src *src,
                     struct rtmc_reservation *r, struct rtmc_loaded *out, char *msg,
                     size_t msglen)
{
    size_t size = (size_t)src->id.size;
    struct rtm_error err = { .msg = "" };
    if (reserve(r, size, size, "to read", &err))
        return failed(msg, msglen, src->path, &err);
    uint8_t *data = malloc(size ? size : 1);
    if (!data)
        return -ENOMEM;
    int rc = read_all(fd, data, size);
    if (rc) {
        free(data);
        return rc;
    }
    return parse(l, src, r, data, size, &out->anim, msg, msglen);
}

static int load_table(int fd, const struct rtmc_src *src, struct rtmc_loaded *out,
                      char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    if (pbo_load_table(fd, &out->pbo, &err))
        return failed(msg, msglen, src->path, &err);
    return 0;
}

/* What reading an entry holds: its stored bytes and its content. */
static uint64_t entry_bytes(const struct pbo_entry *e)
{
    return e->data_size + pbo_entry_content_size(e);
}

/* An entry: through the archive's table (a cache entry of the same version). */
static int load_entry(const struct rtm_loader *l, int fd, const char *archive,
                      const struct rtmc_src *src, struct rtmc_reservation *r,
                      struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtmc_src ts = { .path = archive, .id = src->id, .kind = RTMC_TABLE };
    struct rtmc_entry *t;
    int rc = rtmc_get(l->cache, &ts, &t);
    if (rc)
        return rc;
    const struct pbo *p = rtmc_pbo(t);
    long i = p ? pbo_find(p, src->path + src->archive_len + 1) : -1;
    uint8_t *data = NULL;
    size_t len = 0;
    struct rtm_error err = { .msg = "" };
    if (!p)
        snprintf(msg, msglen, "%s", rtmc_error(t));
    else if (i < 0)
        rc = -ENOENT;
    else if (reserve(r, entry_bytes(&p->entries[i]), entry_bytes(&p->entries[i]), "to read",
                     &err) ||
             pbo_load_entry(fd, p, (size_t)i, &data, &len, &err))
        rc = failed(msg, msglen, src->path, &err);
    else if (src->kind == RTMC_ANIM)
        rc = parse(l, src, r, data, len, &out->anim, msg, msglen);
    else {
        out->data = data;
        out->len = len;
    }
    rtmc_put(l->cache, t);
    return rc;
}

static void loaded_free(struct rtmc_loaded *out)
{
    rtm_free(out->anim);
    pbo_free(out->pbo);
    free(out->data);
    *out = (struct rtmc_loaded){ NULL, NULL, NULL, 0 };
}

int rtm_loader_load(void *ctx, const struct rtmc_src *src, struct rtmc_reservation *r,
                    struct rtmc_loaded *out, char *msg, size_t msglen)
{
    const struct rtm_loader *l = ctx;
    char file[PATH_MAX];
    size_t n = src->archive_len ? src->archive_len : strlen(src->path);
    if (n >= sizeof file)
        return -ENAMETOOLONG;
    memcpy(file, src->path, n);
    file[n] = 0;
    int fd = openat(l->srcfd, file, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
        /* shown as error.txt, like rtmcat; a chmod in SOURCE invalidates it */
        snprintf(msg, msglen, "%s: %s", file, strerror(errno));
        return 0;
    }
    if (fd < 0)
        return -errno;
    int rc = same_version(fd, src);
    /* Archives are read an entry at a time: readahead would read the
     * neighbours (textures, mostly) that nobody asked for. */
    if (src->archive_len || src->kind == RTMC_TABLE)
        posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    if (!rc && src->archive_len)
        rc = load_entry(l, fd, file, src, r, out, msg, msglen);
    else if (!rc && src->kind == RTMC_TABLE)
        rc = load_table(fd, src, out, msg, msglen);
    else if (!rc && src->kind == RTMC_ANIM)
        rc = load_file(l, fd, src, r, out, msg, msglen);
    else if (!rc)
        rc = -EINVAL;                   /* data is only read from archives */
    if (!rc)
        rc = same_version(fd, src);     /* what was read is of one version */
    close(fd);
    if (rc) {
        loaded_free(out);
        msg[0] = 0;
    }
    return rc;
}
