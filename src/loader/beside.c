/* beside.c - the files beside a source: finding one beside an archive's
 * entry (rtm_archive_beside: a model.cfg, a bvh.map, a buffer); and those
 * its own bytes name (a .gltf's buffers: format_table.h, files), read for
 * its parse through
 * rtm_parse_opts.read_beside: from its folder in SOURCE, or from the
 * entries of its archive beside its entry (found in any case, as the
 * game finds names: pbo_find).  Their versions are part of a loose
 * file's (the tree's salt); an entry's are its archive's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format_table.h"
#include "loader_int.h"

/* "DIR/NAME" for the source at path "DIR/FILE" ("NAME" for "FILE"). */
static int join_beside(const char *path, const char *name, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path) : 0;
    int len = snprintf(out, n, "%.*s%s%s", dl, path, slash ? "/" : "", name);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

static int reserve_read(struct rtmc_reservation *r, uint64_t size, const char *name,
                        struct rtm_error *err)
{
    char text[160];
    int rc = rtmc_would_fit(r, size, "to read", text, sizeof text);
    if (!rc)
        rc = rtmc_reserve(r, size, "to read", text, sizeof text);
    if (rc == -EFBIG)
        rtm_err_nooff(err, "%s: %s", name, text);
    else if (rc)
        rtm_err_sys(err, -rc, 0, "no memory free to read %s", name);
    return rc ? -1 : 0;
}

int rtm_archive_beside(const struct rtm_loader *l, const struct rtmc_src *src,
                       const char *name, struct rtmc_entry **table, long *i)
{
    char archive[PATH_MAX];
    snprintf(archive, sizeof archive, "%.*s", (int)src->archive_len, src->path);
    struct rtmc_src ts = { .path = archive, .id = rtm_fileid_file(src->id), .kind = RTMC_TABLE,
                           .level = RTMC_FULL };
    int rc = rtmc_get(l->cache, &ts, table);
    if (rc)
        return rc;
    const struct pbo *p = rtmc_pbo(*table);
    *i = p ? pbo_find(p, name) : -1;
    return 0;
}

/* The file beside a loose source. */
static int read_loose(const struct rtm_beside *b, const char *name, uint8_t **data,
                      size_t *len, struct rtm_error *err)
{
    char path[PATH_MAX];
    struct stat st;
    if (join_beside(b->src->path, name, path, sizeof path)) {
        rtm_err_nooff(err, "%s: the name is too long", name);
        return -1;
    }
    int fd = rtm_work_openat(b->l->work, b->l->srcfd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : S_ISREG(st.st_mode) ? errno : EISDIR;
        if (fd >= 0)
            close(fd);
        if (e == ENOENT || e == ENOTDIR || e == EISDIR)
            rtm_err_nooff(err, "%s: no such file beside it", name);   /* the file's fault */
        else
            rtm_err_sys(err, e, 0, "%s: %s", name, strerror(e));
        return -1;
    }
    int rc = reserve_read(b->r, (uint64_t)st.st_size, name, err);
    *len = (size_t)st.st_size;
    *data = rc ? NULL : malloc(*len ? *len : 1);
    ssize_t got = rc ? -1 : !*data ? -ENOMEM : rtm_work_pread(b->l->work, fd, *data, *len, 0);
    close(fd);
    if (!rc && (got < 0 || (size_t)got != *len)) {
        rtm_err_sys(err, got < 0 ? (int)-got : ESTALE, 0, "%s: %s", name,
                    got < 0 ? strerror((int)-got) : "changed while read");
        rc = -1;
    }
    if (rc) {
        free(*data);
        *data = NULL;
    }
    return rc;
}

/* The entry beside an archive's entry. */
static int read_entry(const struct rtm_beside *b, const char *name, uint8_t **data,
                      size_t *len, struct rtm_error *err)
{
    char entry[PATH_MAX];
    struct rtmc_entry *t;
    long i;
    if (join_beside(b->src->path + b->src->archive_len + 1, name, entry, sizeof entry)) {
        rtm_err_nooff(err, "%s: the name is too long", name);
        return -1;
    }
    int rc = rtm_archive_beside(b->l, b->src, entry, &t, &i);
    if (rc) {
        rtm_err_sys(err, -rc, 0, "%s: %s", name, strerror(-rc));
        return -1;
    }
    const struct pbo *p = rtmc_pbo(t);
    if (i < 0)
        rtm_err_nooff(err, "%s: no such entry beside it in the archive", name);
    else if (reserve_read(b->r, pbo_entry_content_size(&p->entries[i]), name, err) == 0 &&
             pbo_load_entry(b->l->work, b->fd, p, (size_t)i, data, len, err) == 0)
        rc = 1;
    rtmc_put(b->l->cache, t);
    return rc == 1 ? 0 : -1;
}

int rtm_loader_read_beside(void *ctx, const char *name, uint8_t **data, size_t *len,
                           struct rtm_error *err)
{
    const struct rtm_beside *b = ctx;
    *data = NULL;
    *len = 0;
    return b->src->archive_len ? read_entry(b, name, data, len, err)
                               : read_loose(b, name, data, len, err);
}

/* ---- the versions of the files a source names ---- */

/* The bytes of the file at name (relative to dfd), when it is regular and
 * at most max bytes: 0; -ENOMEM; or 1 when it cannot be had (its load then
 * says why). */
static int read_small(struct rtm_work *w, int dfd, const char *name, size_t max, uint8_t **data,
                      size_t *len)
{
    struct stat st;
    int fd = rtm_work_openat(w, dfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 1;
    int rc = fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max ? 1 : 0;
    *len = rc ? 0 : (size_t)st.st_size;
    *data = rc ? NULL : malloc(*len ? *len : 1);
    if (!rc && !*data)
        rc = -ENOMEM;
    else if (!rc && rtm_work_pread(w, fd, *data, *len, 0) != (ssize_t)*len)
        rc = 1;
    close(fd);
    if (rc) {
        free(*data);
        *data = NULL;
    }
    return rc;
}

/* A .gltf bigger than this names no file as part of its version: its
 * JSON would be read at every lookup (a buffer that big is inline). */
enum { NAMED_FILES_MAX = 16 << 20 };

int rtm_loader_named_salt(struct rtm_work *w, int dfd, const char *name, uint64_t *out)
{
    const struct rtm_format_row *f = rtm_format_naming_files(name, strlen(name));
    uint8_t *data;
    size_t len;
    char **files;
    uint32_t n;
    struct rtm_error err = { .msg = "" };
    *out = 0;
    int rc = f ? read_small(w, dfd, name, NAMED_FILES_MAX, &data, &len) : 1;
    if (rc)
        return rc < 0 ? rc : 0;
    rc = f->files(data, len, &files, &n, &err);
    free(data);
    if (rc && err.code == ENOMEM)
        return -ENOMEM;
    uint64_t salt = 0;
    const char *slash = strrchr(name, '/');
    int dl = slash ? (int)(slash - name) + 1 : 0;
    for (uint32_t i = 0; !rc && i < n; i++) {
        char p[PATH_MAX];
        if (snprintf(p, sizeof p, "%.*s%s", dl, name, files[i]) >= (int)sizeof p)
            continue;
        struct stat st;
        struct rtm_fileid id = fstatat(dfd, p, &st, 0) || !S_ISREG(st.st_mode)
                                   ? RTM_FILEID_NONE : rtm_fileid_of(&st);
        salt += rtm_fileid_hash(&id) * (2 * (uint64_t)i + 0x9e3779b97f4a7c15ull);
    }
    if (!rc)
        free(files);
    *out = salt;
    return 0;
}

