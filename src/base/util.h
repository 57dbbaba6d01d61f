/* util.h - little-endian reads, growable byte buffers and error values for the
 * rtmfs core.
 *
 * Contract:
 *  - struct rtm_error carries one human-readable message and, when known, the
 *    byte offset in the source where the problem was found, and says what
 *    kind of failure it is: code 0 when the bytes are bad (a format error:
 *    the same bytes always fail), or an errno when they are not to blame
 *    (ENOMEM, a read error; ESTALE for a file that changed while read), as
 *    libarchive's archive_set_error does.  Core functions that can fail
 *    return 0 on success and -1 on failure after filling *err.
 *  - struct rtm_buf owns its bytes (p).  On allocation failure it sets oom
 *    and later appends are ignored, so callers check once at the end.
 *  - The le_* helpers read unaligned little-endian values with memcpy.
 */
#ifndef RTM_UTIL_H
#define RTM_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "rtmfs reads little-endian files with memcpy on a little-endian host");

struct rtm_error {
    char msg[256];
    uint64_t offset;
    int has_offset;
    int code;               /* 0: a format error; else an errno */
};

/* Format errors, with and without an offset. */
void rtm_err_set(struct rtm_error *err, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rtm_err_nooff(struct rtm_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Out of memory (code ENOMEM). */
void rtm_err_oom(struct rtm_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A failure of the system, not of the bytes: code is its errno. */
void rtm_err_sys(struct rtm_error *err, int code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Writes "msg (at byte N)" or "msg" into out. */
void rtm_err_format(const struct rtm_error *err, char *out, size_t n);

/* Raw bytes of a name or property string: no NUL inside for names, any byte
 * for MDAT strings.  s is NUL-terminated for convenience. */
struct rtm_str {
    const char *s;
    uint32_t len;
};

struct rtm_buf {
    char *p;
    size_t len, cap;
    int oom;
    size_t window;              /* 0: keeps every byte.  Else a counting buffer */
    uint64_t passed;            /* (rtm_buf_init_counting): bytes dropped so far */
};

void rtm_buf_init(struct rtm_buf *b);
/* A buffer that only counts: it keeps about the last window bytes written
 * (every write lands whole in p, so code that writes in place still
 * works) and drops the rest; rtm_buf_total() is how many were written.  What
 * a view's size needs, in bounded memory. */
void rtm_buf_init_counting(struct rtm_buf *b, size_t window);
static inline uint64_t rtm_buf_total(const struct rtm_buf *b) { return b->passed + b->len; }
/* Whether b only counts, and n bytes written to it without their bytes
 * (a renderer that knows a text's length without making it). */
static inline int rtm_buf_counts(const struct rtm_buf *b) { return b->window != 0; }
static inline void rtm_buf_count(struct rtm_buf *b, uint64_t n) { b->passed += n; }
void rtm_buf_free(struct rtm_buf *b);
int rtm_buf_reserve(struct rtm_buf *b, size_t extra);
void rtm_buf_put(struct rtm_buf *b, const void *src, size_t n);
void rtm_buf_puts(struct rtm_buf *b, const char *s);
void rtm_buf_putc(struct rtm_buf *b, char c);
void rtm_buf_printf(struct rtm_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rtm_buf_put_u32(struct rtm_buf *b, uint32_t v);
void rtm_buf_put_f32(struct rtm_buf *b, float v);
/* Hands the bytes to the caller (who frees them) and empties b. */
char *rtm_buf_take(struct rtm_buf *b, size_t *len);

static inline uint16_t le_u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t le_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline float le_f32(const uint8_t *p) { float v; memcpy(&v, p, 4); return v; }

/* A bounds-checked cursor over source bytes.  Every read checks the bytes
 * that remain; a failed read fills err with the offset and returns -1. */
struct rtm_cursor {
    const uint8_t *data;
    size_t len, pos;
    struct rtm_error *err;
};

static inline size_t rtm_cur_left(const struct rtm_cursor *c) { return c->len - c->pos; }
int rtm_cur_need(struct rtm_cursor *c, uint64_t n, const char *what);
int rtm_cur_u8(struct rtm_cursor *c, uint8_t *v, const char *what);
int rtm_cur_u32(struct rtm_cursor *c, uint32_t *v, const char *what);
int rtm_cur_f32(struct rtm_cursor *c, float *v, const char *what);
/* NUL-terminated string of at most max bytes (without the NUL). */
int rtm_cur_asciiz(struct rtm_cursor *c, const uint8_t **s, uint32_t *len, uint32_t max,
                  const char *what);

/* ---- files and paths ---- */

/* Reads len bytes at off, retrying on EINTR and short reads: the count
 * read (less than len only at the end of the file), or -errno.  A read
 * that ends before off + len while the file is still that long is the
 * source's failure, not its end (a FUSE or network file system, a failing
 * disk): -EIO, so that no caller takes it for the file's end. */
ssize_t rtm_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* dir/name into out (n bytes; dir "" gives name alone; out may be dir,
 * to append in place): 0, or -ENAMETOOLONG when it does not fit, out
 * then unchanged. */
int rtm_path_join(char *out, size_t n, const char *dir, const char *name);

/* The one path rule of archives and game paths: in (len bytes) split on
 * '\\' and '/', empty, "." and ".." parts dropped (so nothing climbs out),
 * joined with sep, into out (n bytes, NUL-terminated): its length, or -1
 * when it does not fit (n = len + 1 always fits). */
long rtm_path_norm(const char *in, size_t len, char sep, char *out, size_t n);

/* Reads a whole file into a new buffer (the caller frees *data).  On
 * failure returns -1 with errno set. */
int rtm_slurp(const char *path, uint8_t **data, size_t *len);
/* The same for a regular file of at most max bytes (errno EFBIG past it,
 * EINVAL for anything but a regular file, which is never waited on). */
int rtm_slurp_max(const char *path, size_t max, uint8_t **data, size_t *len);

/* ASCII A-Z as a-z, every other byte as it is: how rtmfs folds names,
 * whatever the locale. */
static inline unsigned char rtm_ascii_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}
/* The n bytes of s with ASCII A-Z as a-z, a word at a time. */
void rtm_ascii_lower_bytes(char *s, size_t n);
/* FNV-1a over a string, with a final mix so that its low bits (bucket
 * indexes) depend on every byte: the one string hash of rtmfs. */
uint64_t rtm_hash_str(const char *s);
/* The same over n bytes; when fold, another hash of them ASCII-folded
 * first (rtm_ascii_lower), a word at a time: for tables in memory that
 * look names up case-insensitively (its values are kept nowhere). */
uint64_t rtm_hash_bytes(const char *p, size_t n, int fold);

/* "1.2 GiB", "256.0 MiB", "900 bytes": a size for a person. */
void rtm_format_size(uint64_t bytes, char *out, size_t n);
/* A count with thousands separators, "90,520", into out (n bytes). */
void rtm_format_count(uint64_t v, char *out, size_t n);

/* What a malloc'd block of n bytes costs, malloc's header and rounding
 * included, roughly: the one estimate every memory budget uses. */
static inline size_t rtm_heap_bytes(size_t n) { return n + 32; }

/* Whether the len bytes of name end in suffix (".rtm", ".pbo") after at
 * least one other byte, ASCII case-insensitively, as Arma matches names. */
int rtm_name_ends(const char *name, size_t len, const char *suffix);

/* Parses a size as options give it, "256M", "64k", "1G", "8MiB", "4096",
 * into bytes: 0, or -1 when malformed or too large. */
int rtm_parse_size(const char *s, size_t *out);
#endif
