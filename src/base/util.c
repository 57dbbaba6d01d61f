/* util.c - errors, buffers and the bounds-checked cursor. */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"

static void err_vset(struct rtm_error *err, int code, int has_off, uint64_t off,
                     const char *fmt, va_list ap)
{
    if (!err)
        return;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    err->offset = off;
    err->has_offset = has_off;
    err->code = code;
}

void rtm_err_set(struct rtm_error *err, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, 0, 1, offset, fmt, ap);
    va_end(ap);
}

void rtm_err_nooff(struct rtm_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, 0, 0, 0, fmt, ap);
    va_end(ap);
}

void rtm_err_oom(struct rtm_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, ENOMEM, 0, 0, fmt, ap);
    va_end(ap);
}

void rtm_err_sys(struct rtm_error *err, int code, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, code ? code : EIO, 1, offset, fmt, ap);
    va_end(ap);
}

void rtm_err_format(const struct rtm_error *err, char *out, size_t n)
{
    if (err->has_offset)
        snprintf(out, n, "%s (at byte %llu)", err->msg,
                 (unsigned long long)err->offset);
    else
        snprintf(out, n, "%s", err->msg);
}

void rtm_buf_init(struct rtm_buf *b) { memset(b, 0, sizeof *b); }

void rtm_buf_init_counting(struct rtm_buf *b, size_t window)
{
    rtm_buf_init(b);
    b->window = window;
}

/* A counting buffer forgets what it holds when the next write would take
 * it past its window. */
static void pass_on(struct rtm_buf *b, size_t extra)
{
    if (b->window && b->len && (extra > b->window || b->len > b->window - extra)) {
        b->passed += b->len;
        b->len = 0;
    }
}

void rtm_buf_free(struct rtm_buf *b)
{
    free(b->p);
    rtm_buf_init(b);
}

int rtm_buf_reserve(struct rtm_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    pass_on(b, extra);
    if (extra <= b->cap - b->len)
        return 0;
    size_t need = b->len + extra;
    if (need < b->len) {
        b->oom = 1;
        return -1;
    }
    void *p = b->p;
    if (rtm_array_grow(&p, &b->cap, need, 1, 256)) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    return 0;
}

void rtm_buf_put(struct rtm_buf *b, const void *src, size_t n)
{
    if (b->window && n > b->window && !b->oom) {  /* counted, never held */
        b->passed += b->len + n;
        b->len = 0;
        return;
    }
    if (n == 0 || rtm_buf_reserve(b, n))
        return;
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

void rtm_buf_puts(struct rtm_buf *b, const char *s) { rtm_buf_put(b, s, strlen(s)); }

void rtm_buf_putc(struct rtm_buf *b, char c)
{
    if (rtm_buf_reserve(b, 1))
        return;
    b->p[b->len++] = c;
}

void rtm_buf_printf(struct rtm_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || rtm_buf_reserve(b, (size_t)n + 1))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void rtm_buf_put_u32(struct rtm_buf *b, uint32_t v) { rtm_buf_put(b, &v, 4); }
void rtm_buf_put_f32(struct rtm_buf *b, float v) { rtm_buf_put(b, &v, 4); }

char *rtm_buf_take(struct rtm_buf *b, size_t *len)
{
    char *p = b->p;
    if (len)
        *len = b->len;
    rtm_buf_init(b);
    return p;
}

int rtm_cur_need(struct rtm_cursor *c, uint64_t n, const char *what)
{
    if (n <= rtm_cur_left(c))
        return 0;
    rtm_err_set(c->err, c->pos,
                "file ends inside %s: %llu bytes needed, %llu left", what,
                (unsigned long long)n, (unsigned long long)rtm_cur_left(c));
    return -1;
}

int rtm_cur_u8(struct rtm_cursor *c, uint8_t *v, const char *what)
{
    if (rtm_cur_need(c, 1, what))
        return -1;
    *v = c->data[c->pos++];
    return 0;
}

int rtm_cur_u32(struct rtm_cursor *c, uint32_t *v, const char *what)
{
    if (rtm_cur_need(c, 4, what))
        return -1;
    *v = le_u32(c->data + c->pos);
    c->pos += 4;
    return 0;
}

int rtm_cur_f32(struct rtm_cursor *c, float *v, const char *what)
{
    if (rtm_cur_need(c, 4, what))
        return -1;
    *v = le_f32(c->data + c->pos);
    c->pos += 4;
    return 0;
}

int rtm_cur_asciiz(struct rtm_cursor *c, const uint8_t **s, uint32_t *len,
                   uint32_t max, const char *what)
{
    const uint8_t *start = c->data + c->pos;
    size_t left = rtm_cur_left(c);
    size_t scan = left < (size_t)max + 1 ? left : (size_t)max + 1;
    const uint8_t *nul = memchr(start, 0, scan);
    if (!nul) {
        if (left <= max)
            rtm_err_set(c->err, c->pos, "file ends inside %s (no NUL)", what);
        else
            rtm_err_set(c->err, c->pos, "%s longer than %u bytes", what, max);
        return -1;
    }
    *s = start;
    *len = (uint32_t)(nul - start);
    c->pos += *len + 1;
    return 0;
}

int rtm_slurp(const char *path, uint8_t **data, size_t *len)
{
    return rtm_slurp_max(path, SIZE_MAX, data, len);
}

/* Reads fd to its end into *data, failing with EFBIG past max bytes. */
static int slurp_fd(int fd, size_t max, uint8_t **data, size_t *len)
{
    struct stat st;
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < max)
        rtm_buf_reserve(&b, (size_t)st.st_size + 1);
    for (;;) {
        if (b.len > max) {
            errno = EFBIG;
            break;
        }
        if (b.len == b.cap && rtm_buf_reserve(&b, 65536)) {
            errno = ENOMEM;
            break;
        }
        ssize_t n = read(fd, b.p + b.len, b.cap - b.len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0) {
                *data = (uint8_t *)rtm_buf_take(&b, len);
                return 0;
            }
            break;
        }
        b.len += (size_t)n;
    }
    rtm_buf_free(&b);
    return -1;
}

int rtm_slurp_max(const char *path, size_t max, uint8_t **data, size_t *len)
{
    /* bounded: O_NONBLOCK, so that a FIFO cannot hang the open; it is
     * refused below with everything but regular files */
    int bounded = max != SIZE_MAX;
    int fd = open(path, O_RDONLY | O_CLOEXEC | (bounded ? O_NONBLOCK : 0));
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = -1;
    if (bounded && fstat(fd, &st))
        ;                               /* errno says why */
    else if (bounded && !S_ISREG(st.st_mode))
        errno = EINVAL;
    else
        rc = slurp_fd(fd, max, data, len);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

int rtm_name_ends(const char *name, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len > n && strncasecmp(name + len - n, suffix, n) == 0;
}

/* The ASCII capitals of a word's eight bytes made small (a byte above
 * 0x7f as it is): bit 7 of each byte's low seven bits plus 0x3f says
 * >= 'A', plus 0x25 says > 'Z', and no sum carries into the next byte. */
static inline uint64_t ascii_lower8(uint64_t w)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;
    uint64_t x = w & low7;
    uint64_t upper = (x + 0x3f3f3f3f3f3f3f3full) & ~(x + 0x2525252525252525ull) & ~w & high;
    return w | upper >> 2;
}

void rtm_ascii_lower_bytes(char *s, size_t n)
{
    for (uint64_t w; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        w = ascii_lower8(w);
        memcpy(s, &w, 8);
    }
    for (; n; s++, n--)
        *s = (char)rtm_ascii_lower((unsigned char)*s);
}

/* Folded: a name of 20 bytes costs three multiplications, not twenty
 * (member lookups hash every name a config's classes hold). */
static uint64_t hash_folded(const char *p, size_t n)
{
    const uint64_t k = 0x9e3779b97f4a7c15ull;
    uint64_t h = 1469598103934665603ull ^ (n * k), w;
    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ ascii_lower8(w)) * k;
        h ^= h >> 29;
    }
    if (n) {
        w = 0;
        for (size_t i = 0; i < n; i++)
            w |= (uint64_t)(unsigned char)p[i] << (8 * i);
        h = (h ^ ascii_lower8(w)) * k;
        h ^= h >> 29;
    }
    return h ^ (h >> 32);
}

uint64_t rtm_hash_bytes(const char *p, size_t n, int fold)
{
    if (fold)
        return hash_folded(p, n);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

uint64_t rtm_hash_str(const char *s) { return rtm_hash_bytes(s, strlen(s), 0); }

void rtm_format_size(uint64_t bytes, char *out, size_t n)
{
    static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
    double v = (double)bytes;
    int u = -1;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(out, n, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(out, n, "%.1f %s", v, unit[u]);
}

void rtm_format_count(uint64_t v, char *out, size_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0 && o + 2 < n)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    if (n)
        out[o < n ? o : n - 1] = 0;
}

ssize_t rtm_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    struct stat st;
    if (got < len && fstat(fd, &st) == 0 && (uint64_t)st.st_size > off + got)
        return -EIO;                    /* an end before the file's: a failed read */
    return (ssize_t)got;
}

int rtm_path_join(char *out, size_t n, const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name), sep = dl > 0;
    if (dl + sep + nl >= n)
        return -ENAMETOOLONG;
    memmove(out, dir, dl);              /* out may be dir: appends in place */
    out[dl] = '/';
    memcpy(out + dl + sep, name, nl + 1);
    return 0;
}

int rtm_parse_size(const char *s, size_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end) {
        const char *units = "KMGT";
        const char *u = strchr(units, *end >= 'a' ? *end - 32 : *end);
        if (!u || (end[1] && strcasecmp(end + 1, "B") && strcasecmp(end + 1, "iB")))
            return -1;
        shift = 10 * (unsigned)(u - units + 1);
    }
    if (errno || end == s || (shift && v > (~0ull >> shift)))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* The first '\\' or '/' of p..e (e when none): eight bytes at a time, a
 * path's names being most of its bytes.  A has-zero-byte test on the
 * word xor each separator marks the first one exactly (a borrow only
 * marks bytes after it), its byte the lowest marked (little-endian
 * loads: memcpy into a word, read back in the machine's order). */
static const char *next_sep(const char *p, const char *e)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    for (uint64_t w; e - p >= 8; p += 8) {
        memcpy(&w, p, 8);
        uint64_t a = w ^ (ones * '\\'), b = w ^ (ones * '/');
        uint64_t hit = ((a - ones) & ~a & highs) | ((b - ones) & ~b & highs);
        if (hit && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
            return p + __builtin_ctzll(hit) / 8;
        if (hit)
            break;
    }
    while (p < e && *p != '\\' && *p != '/')
        p++;
    return p;
}

long rtm_path_norm(const char *in, size_t len, char sep, char *out, size_t n)
{
    size_t o = 0;
    if (n == 0)
        return -1;
    const char *p = len ? in : "", *e = p + len;     /* in may be NULL when empty */
    while (p < e) {
        const char *j = next_sep(p, e);
        size_t k = (size_t)(j - p);
        int skip = k == 0 || (k == 1 && p[0] == '.') || (k == 2 && p[0] == '.' && p[1] == '.');
        if (!skip) {
            if (o + (o > 0) + k + 1 > n)
                return -1;
            if (o > 0)
                out[o++] = sep;
            memcpy(out + o, p, k);
            o += k;
        }
        p = j + 1;
    }
    out[o] = 0;
    return (long)o;
}
