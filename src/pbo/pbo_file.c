/* pbo_file.c - reading an archive from a file descriptor: the header table,
 * then only the bytes of the one entry asked for, never the whole archive. */
#include "pbo.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "work.h"

enum { FIRST_READ = 64 * 1024 };

/* Reads exactly len bytes at off; 0, or -1 with err set. */
static int read_at(struct rtm_work *w, int fd, uint8_t *buf, size_t len, uint64_t off,
                   struct rtm_error *err)
{
    ssize_t n = rtm_work_pread(w, fd, buf, len, off);
    if (n < 0)
        rtm_err_sys(err, (int)-n, off, "read error: %s", strerror((int)-n));
    else if ((size_t)n < len)
        rtm_err_sys(err, ESTALE, off + (uint64_t)n, "archive ends early (did it change?)");
    return n >= 0 && (size_t)n == len ? 0 : -1;
}

int pbo_load_table(struct rtm_work *w, int fd, struct pbo **out, struct rtm_error *err)
{
    return pbo_load_table_first(w, fd, FIRST_READ, out, err);
}

int pbo_load_table_head(struct rtm_work *w, int fd, size_t first, struct pbo **out,
                        uint8_t **head, struct rtm_error *err)
{
    struct stat st;
    *out = NULL;
    *head = NULL;
    if (fstat(fd, &st)) {
        rtm_err_sys(err, errno, 0, "%s", strerror(errno));
        return -1;
    }
    uint64_t size = (uint64_t)st.st_size, cap = (uint64_t)PBO_TABLE_MAX + 4096;
    if (!first)
        first = 1;
    size_t len = size < first ? (size_t)size : first;
    for (;;) {
        uint8_t *h = malloc(len ? len : 1);
        if (!h) {
            rtm_err_oom(err, "out of memory");
            return -1;
        }
        int rc = read_at(w, fd, h, len, 0, err);
        if (rc == 0)
            rc = pbo_read_table(h, len, size, out, err);
        if (rc == 0) {
            *head = h;
            return 0;
        }
        free(h);
        if (rc != PBO_NEED_MORE)
            return -1;
        size_t more = len * 2 > size ? (size_t)size : len * 2;
        if (more > cap)
            more = (size_t)cap;
        if (more <= len) {
            rtm_err_set(err, len, "header table larger than %u bytes", (unsigned)PBO_TABLE_MAX);
            return -1;
        }
        len = more;
    }
}

int pbo_load_table_first(struct rtm_work *w, int fd, size_t first, struct pbo **out,
                         struct rtm_error *err)
{
    uint8_t *head;
    int rc = pbo_load_table_head(w, fd, first, out, &head, err);
    free(head);
    return rc;
}

long pbo_load_tail(struct rtm_work *w, int fd, const struct pbo *p, uint8_t tail[PBO_TAIL_MAX],
                   struct rtm_error *err)
{
    if (p->trailer != PBO_TRAILER_UNKNOWN)
        return 0;
    /* unknown: PBO_TAIL_MAX bytes follow the data (pbo_trailer_of) */
    return read_at(w, fd, tail, PBO_TAIL_MAX, p->data_end, err) ? -1 : PBO_TAIL_MAX;
}

int pbo_load_entry(struct rtm_work *w, int fd, const struct pbo *p, size_t i, uint8_t **out, size_t *len,
                   struct rtm_error *err)
{
    const struct pbo_entry *e = &p->entries[i];
    if (e->cut) {                       /* its size is no promise of bytes */
        rtm_err_set(err, e->offset, "entry %s goes past the end of the archive", e->path);
        return -1;
    }
    uint8_t *blob = malloc(e->data_size ? e->data_size : 1);
    if (!blob) {
        rtm_err_oom(err, "out of memory for entry %s", e->path);
        return -1;
    }
    int rc = read_at(w, fd, blob, e->data_size, e->offset, err);
    if (rc == 0 && !pbo_entry_compressed(e)) {
        /* stored: the bytes read are the entry's; a copy of them was a
         * second buffer of fresh pages for every animation a walk sizes */
        if (pbo_entry_readable(e, err))
            rc = -1;
        else {
            *out = blob;
            *len = e->data_size;
            return 0;
        }
    } else if (rc == 0) {
        rc = pbo_entry_data(p, i, blob, e->data_size, out, len, err);
    }
    free(blob);
    return rc;
}

int pbo_load_entry_head(struct rtm_work *w, int fd, const struct pbo *p, size_t i, uint8_t *out, size_t len,
                        struct rtm_error *err)
{
    const struct pbo_entry *e = &p->entries[i];
    if (pbo_entry_readable(e, err))
        return -1;
    if (len > pbo_entry_content_size(e)) {
        rtm_err_nooff(err, "PBO entry '%.200s': %zu bytes asked of %llu", e->name, len,
                      (unsigned long long)pbo_entry_content_size(e));
        return -1;
    }
    if (!pbo_entry_compressed(e))
        return read_at(w, fd, out, len, e->offset, err);
    size_t stored = pbo_lzss_src_max(len);
    if (stored > e->data_size)
        stored = e->data_size;
    uint8_t *blob = malloc(stored ? stored : 1);
    if (!blob) {
        rtm_err_oom(err, "out of memory for entry %s", e->path);
        return -1;
    }
    int rc = read_at(w, fd, blob, stored, e->offset, err);
    if (rc == 0)
        rc = pbo_lzss_decode_head(blob, stored, out, len, e->offset, err);
    free(blob);
    return rc;
}
