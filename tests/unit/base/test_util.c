/* test_util.c - buffers, the bounds-checked cursor, error values and
 * rtm_slurp (util.h). */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- rtm_buf ---------------------------------------------------------- */

/* Many small appends force several reallocations; every byte must survive
 * them in order, and cap must always cover len. */
static void buf_grows_and_keeps_bytes(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_null(b.p);
    assert_int_equal(b.len, 0);
    size_t last_cap = 0, cap_changes = 0;
    for (int i = 0; i < 100000; i++) {
        rtm_buf_putc(&b, (char)(i * 7));
        assert_true(b.cap >= b.len);
        cap_changes += b.cap != last_cap;
        last_cap = b.cap;
    }
    /* growth is geometric (amortised O(1) appends), not byte by byte */
    assert_true(cap_changes <= 20);
    assert_false(b.oom);
    assert_int_equal(b.len, 100000);
    for (int i = 0; i < 100000; i++)
        assert_int_equal((unsigned char)b.p[i], (unsigned char)(i * 7));
    /* one big append beyond the doubling step */
    static char big[300000];
    memset(big, 'z', sizeof big);
    rtm_buf_put(&b, big, sizeof big);
    assert_int_equal(b.len, 400000);
    assert_true(b.cap >= 400000);
    assert_int_equal(b.p[399999], 'z');
    assert_int_equal((unsigned char)b.p[99999], (unsigned char)(99999 * 7));
    rtm_buf_free(&b);
    assert_null(b.p);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
}

/* A zero-byte put is a no-op, and reserve makes room without changing len. */
static void buf_reserve_and_empty_put(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_put(&b, "x", 0);
    assert_int_equal(b.len, 0);
    assert_int_equal(rtm_buf_reserve(&b, 5000), 0);
    assert_int_equal(b.len, 0);
    assert_true(b.cap >= 5000);
    char *before = b.p;
    rtm_buf_put(&b, "abc", 3);
    assert_ptr_equal(b.p, before); /* no realloc needed within the reservation */
    assert_memory_equal(b.p, "abc", 3);
    /* an impossible reservation sets oom and later appends are ignored */
    assert_int_equal(rtm_buf_reserve(&b, SIZE_MAX), -1);
    assert_true(b.oom);
    rtm_buf_puts(&b, "more");
    rtm_buf_putc(&b, 'q');
    assert_int_equal(b.len, 3);
    rtm_buf_free(&b);
}

/* rtm_buf_take hands over the bytes and leaves an empty buffer behind. */
static void buf_take_empties(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "hello");
    rtm_buf_putc(&b, 0);
    size_t len = 0;
    char *p = rtm_buf_take(&b, &len);
    assert_int_equal(len, 6);
    assert_string_equal(p, "hello");
    assert_null(b.p);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    /* the buffer is reusable after the take */
    rtm_buf_puts(&b, "again");
    assert_int_equal(b.len, 5);
    assert_memory_equal(b.p, "again", 5);
    free(p);
    rtm_buf_free(&b);
    /* len may be NULL; an empty buffer gives NULL */
    assert_null(rtm_buf_take(&b, NULL));
}

/* printf appends (never overwrites) and handles output longer than any
 * initial capacity; no NUL is counted in len. */
static void buf_printf_appends(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "a=");
    rtm_buf_printf(&b, "%d,%s,%u", -42, "xy", 7u);
    assert_int_equal(b.len, strlen("a=-42,xy,7"));
    assert_memory_equal(b.p, "a=-42,xy,7", b.len);
    rtm_buf_printf(&b, "%s", "");
    assert_int_equal(b.len, strlen("a=-42,xy,7"));
    rtm_buf_printf(&b, "%0999d", 5);
    assert_int_equal(b.len, 10 + 999);
    assert_int_equal(b.p[10], '0');
    assert_int_equal(b.p[10 + 998], '5');
    rtm_buf_put_u32(&b, 0x04030201u);
    rtm_buf_put_f32(&b, -0.0f);
    assert_memory_equal(b.p + 1009, "\x01\x02\x03\x04\x00\x00\x00\x80", 8);
    rtm_buf_free(&b);
}

/* ---- cursor ----------------------------------------------------------- */

static const uint8_t CUR_DATA[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x00, 0x00, 0x80, 0x3f };

/* Reads inside the buffer advance pos; a read one byte too long fails at
 * the current position and leaves pos alone. */
static void cursor_reads_at_bounds(void **state)
{
    (void)state;
    struct rtm_error err;
    memset(&err, 0, sizeof err);
    struct rtm_cursor c = { CUR_DATA, sizeof CUR_DATA, 0, &err };
    uint8_t u8;
    uint32_t u32;
    float f;
    assert_int_equal(rtm_cur_u8(&c, &u8, "a byte"), 0);
    assert_int_equal(u8, 1);
    assert_int_equal(rtm_cur_u32(&c, &u32, "a word"), 0);
    assert_int_equal(u32, 0x05040302u);
    assert_int_equal(c.pos, 5);
    /* exactly 4 bytes left: the f32 read fits */
    assert_int_equal(rtm_cur_left(&c), 4);
    assert_int_equal(rtm_cur_f32(&c, &f, "a float"), 0);
    assert_true(f == 1.0f);
    assert_int_equal(rtm_cur_left(&c), 0);
    assert_int_equal(rtm_cur_need(&c, 0, "nothing"), 0);
    /* at the end: every read fails with the offset of the end */
    assert_int_equal(rtm_cur_u8(&c, &u8, "the last byte"), -1);
    assert_true(err.has_offset);
    assert_int_equal(err.offset, 9);
    assert_non_null(strstr(err.msg, "the last byte"));
    assert_int_equal(c.pos, 9);
}

static void cursor_overrun_reports_offset(void **state)
{
    (void)state;
    struct rtm_error err;
    memset(&err, 0, sizeof err);
    struct rtm_cursor c = { CUR_DATA, sizeof CUR_DATA, 6, &err };
    uint32_t u32;
    float f;
    /* 3 bytes left, 4 needed */
    assert_int_equal(rtm_cur_u32(&c, &u32, "the frame count"), -1);
    assert_int_equal(err.offset, 6);
    assert_true(err.has_offset);
    assert_non_null(strstr(err.msg, "the frame count"));
    assert_non_null(strstr(err.msg, "4 bytes needed, 3 left"));
    assert_int_equal(c.pos, 6);
    assert_int_equal(rtm_cur_f32(&c, &f, "x"), -1);
    /* huge requests must not wrap around */
    assert_int_equal(rtm_cur_need(&c, UINT64_MAX, "everything"), -1);
    assert_int_equal(rtm_cur_need(&c, 3, "the rest"), 0);
    /* a NULL err is allowed */
    struct rtm_cursor c2 = { CUR_DATA, 2, 0, NULL };
    assert_int_equal(rtm_cur_u32(&c2, &u32, "x"), -1);
}

static void cursor_asciiz(void **state)
{
    (void)state;
    struct rtm_error err;
    memset(&err, 0, sizeof err);
    static const uint8_t d[] = "ab\0cdef\0ghij";   /* ends without a NUL after ghij */
    struct rtm_cursor c = { d, sizeof d - 1, 0, &err };
    const uint8_t *s;
    uint32_t len;
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 10, "a name"), 0);
    assert_int_equal(len, 2);
    assert_memory_equal(s, "ab", 2);
    assert_int_equal(c.pos, 3);
    /* "cdef" is 4 bytes: a max of 4 is enough, 3 is too small */
    size_t save = c.pos;
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 3, "a name"), -1);
    assert_non_null(strstr(err.msg, "longer than 3"));
    assert_int_equal(err.offset, 3);
    assert_int_equal(c.pos, save);
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 4, "a name"), 0);
    assert_int_equal(len, 4);
    assert_int_equal(c.pos, 8);
    /* "ghij" runs to the end with no NUL: an unterminated string, not a
     * long one, also when exactly max bytes remain */
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 100, "a bone name"), -1);
    assert_non_null(strstr(err.msg, "no NUL"));
    assert_non_null(strstr(err.msg, "a bone name"));
    assert_int_equal(err.offset, 8);
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 4, "a bone name"), -1);
    assert_non_null(strstr(err.msg, "no NUL"));
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 3, "a bone name"), -1);
    assert_non_null(strstr(err.msg, "longer than 3"));
    assert_int_equal(c.pos, 8);
    /* at the very end: nothing left at all */
    c.pos = c.len;
    assert_int_equal(rtm_cur_asciiz(&c, &s, &len, 100, "x"), -1);
    assert_non_null(strstr(err.msg, "no NUL"));
    /* an empty string is fine */
    static const uint8_t e[] = { 0 };
    struct rtm_cursor c3 = { e, 1, 0, &err };
    assert_int_equal(rtm_cur_asciiz(&c3, &s, &len, 0, "x"), 0);
    assert_int_equal(len, 0);
    assert_int_equal(c3.pos, 1);
}

/* ---- errors ----------------------------------------------------------- */

static void err_format_with_and_without_offset(void **state)
{
    (void)state;
    struct rtm_error err;
    char out[300];
    rtm_err_set(&err, 1234, "bad %s %d", "thing", 5);
    assert_true(err.has_offset);
    rtm_err_format(&err, out, sizeof out);
    assert_string_equal(out, "bad thing 5 (at byte 1234)");
    rtm_err_nooff(&err, "no offset %u", 9u);
    assert_false(err.has_offset);
    rtm_err_format(&err, out, sizeof out);
    assert_string_equal(out, "no offset 9");
    /* offsets beyond 32 bits print in full */
    rtm_err_set(&err, 0x100000000ull, "big");
    rtm_err_format(&err, out, sizeof out);
    assert_string_equal(out, "big (at byte 4294967296)");
    /* a small output buffer truncates but stays NUL-terminated */
    char small[6];
    rtm_err_format(&err, small, sizeof small);
    assert_string_equal(small, "big (");
    /* an over-long message is cut to the field, NUL-terminated */
    char longmsg[600];
    memset(longmsg, 'm', sizeof longmsg - 1);
    longmsg[sizeof longmsg - 1] = 0;
    rtm_err_nooff(&err, "%s", longmsg);
    assert_int_equal(strlen(err.msg), sizeof err.msg - 1);
    /* a NULL err is allowed by the setters */
    rtm_err_set(NULL, 1, "x");
    rtm_err_nooff(NULL, "x");
}

/* ---- rtm_slurp -------------------------------------------------------- */

static void slurp_temp_file(void **state)
{
    (void)state;
    char path[] = "/tmp/rtm_test_util_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    /* larger than the 64 KiB read chunk, with NUL bytes inside */
    size_t n = 200001;
    uint8_t *src = malloc(n);
    assert_non_null(src);
    for (size_t i = 0; i < n; i++)
        src[i] = (uint8_t)(i * 31 + (i >> 8));
    assert_int_equal(write(fd, src, n), (ssize_t)n);
    close(fd);
    uint8_t *data = NULL;
    size_t len = 0;
    assert_int_equal(rtm_slurp(path, &data, &len), 0);
    assert_int_equal(len, n);
    assert_memory_equal(data, src, n);
    free(data);
    /* an empty file reads as zero bytes */
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    close(fd);
    data = NULL;
    len = 99;
    assert_int_equal(rtm_slurp(path, &data, &len), 0);
    assert_int_equal(len, 0);
    free(data);
    unlink(path);
    free(src);
}

/* A bounded read: a file up to the bound reads, one past it is EFBIG, and
 * a FIFO (nobody writing) is refused at once instead of waited on. */
static void slurp_bounded(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtm_slurp_XXXXXX", path[64], fifo[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f", dir);
    snprintf(fifo, sizeof fifo, "%s/p", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("0123456789", f);
    fclose(f);
    uint8_t *data = NULL;
    size_t len = 0;
    assert_int_equal(rtm_slurp_max(path, 10, &data, &len), 0);
    assert_int_equal(len, 10);
    free(data);
    errno = 0;
    assert_int_equal(rtm_slurp_max(path, 9, &data, &len), -1);
    assert_int_equal(errno, EFBIG);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    errno = 0;
    assert_int_equal(rtm_slurp_max(fifo, 1024, &data, &len), -1);
    assert_int_equal(errno, EINVAL);
    unlink(fifo);
    unlink(path);
    rmdir(dir);
}

static void slurp_missing_file(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t len = 0;
    errno = 0;
    assert_int_equal(rtm_slurp("/nonexistent/dir/rtm_nope.rtm", &data, &len), -1);
    assert_int_equal(errno, ENOENT);
    /* a directory is not a readable file */
    errno = 0;
    assert_int_equal(rtm_slurp("/tmp", &data, &len), -1);
    assert_int_equal(errno, EISDIR);
}

static void name_suffixes(void **state)
{
    (void)state;
    assert_true(rtm_name_ends("walk.rtm", 8, ".rtm"));
    assert_true(rtm_name_ends("WALK.RTM", 8, ".rtm"));
    assert_true(rtm_name_ends("Anims.Pbo", 9, ".pbo"));
    assert_false(rtm_name_ends(".rtm", 4, ".rtm"));          /* nothing before it */
    assert_false(rtm_name_ends("walk.rtm.bak", 12, ".rtm"));
    assert_true(rtm_name_ends("walk.rtm/x", 8, ".rtm"));     /* only len bytes count */
    assert_false(rtm_name_ends("rtm", 3, ".rtm"));
}

static void counts_with_separators(void **state)
{
    (void)state;
    static const struct { uint64_t v; const char *s; } cases[] = {
        { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 90520, "90,520" },
        { 123456789, "123,456,789" }, { UINT64_MAX, "18,446,744,073,709,551,615" },
    };
    char out[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rtm_format_count(cases[i].v, out, sizeof out);
        assert_string_equal(out, cases[i].s);
    }
    rtm_format_count(1234567, out, 4);      /* cut, but terminated */
    assert_int_equal(strlen(out), 3);
}

/* A counting buffer counts every byte and holds about its window. */
static void counting_buffer(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init_counting(&b, 1024);
    uint64_t want = 0;
    char chunk[300];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 10000; i++) {
        size_t n = (size_t)(i * 7919) % sizeof chunk;
        rtm_buf_put(&b, chunk, n);
        rtm_buf_putc(&b, 'y');
        rtm_buf_printf(&b, "%d,", i);
        want += n + 1 + (size_t)snprintf(NULL, 0, "%d,", i);
        assert_true(b.len <= 1024 + sizeof chunk);
    }
    static char big[100000];
    rtm_buf_put(&b, big, sizeof big);               /* over the window: counted only */
    want += sizeof big;
    assert_int_equal(rtm_buf_total(&b), want);
    assert_true(b.cap <= 4096);
    assert_false(b.oom);
    rtm_buf_free(&b);
}

static void sizes_parse(void **state)
{
    (void)state;
    size_t v;
    assert_int_equal(rtm_parse_size("256M", &v), 0);
    assert_int_equal(v, 256u << 20);
    assert_int_equal(rtm_parse_size("4k", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(rtm_parse_size("1G", &v), 0);
    assert_int_equal(v, 1u << 30);
    assert_int_equal(rtm_parse_size("12", &v), 0);
    assert_int_equal(v, 12);
    assert_int_equal(rtm_parse_size("8MiB", &v), 0);
    assert_int_equal(v, 8u << 20);
    assert_int_equal(rtm_parse_size("x", &v), -1);
    assert_int_equal(rtm_parse_size("-1", &v), -1);
    assert_int_equal(rtm_parse_size("5Q", &v), -1);
    assert_int_equal(rtm_parse_size("", &v), -1);
}

/* dir/name, in a buffer of its own or in place; too long is refused and
 * leaves the buffer as it was. */
static void paths_join(void **state)
{
    (void)state;
    char out[16];
    assert_int_equal(rtm_path_join(out, sizeof out, "a/b", "c.rtm"), 0);
    assert_string_equal(out, "a/b/c.rtm");
    assert_int_equal(rtm_path_join(out, sizeof out, "", "c.rtm"), 0);
    assert_string_equal(out, "c.rtm");
    strcpy(out, "dir");
    assert_int_equal(rtm_path_join(out, sizeof out, out, "name"), 0);
    assert_string_equal(out, "dir/name");
    assert_int_equal(rtm_path_join(out, sizeof out, out, "toolongname"), -ENAMETOOLONG);
    assert_string_equal(out, "dir/name");
    assert_int_equal(rtm_path_join(out, sizeof out, "", "exactly16bytes__"), -ENAMETOOLONG);
}

/* One path rule for archives and game paths: separators either way,
 * empty, "." and ".." parts dropped, joined with the separator asked for. */
static void paths_normalised(void **state)
{
    (void)state;
    char out[32];
    const char *in = "\\a\\.\\b\\..\\c.rtm";
    assert_int_equal(rtm_path_norm(in, strlen(in), '/', out, sizeof out), 9);
    assert_string_equal(out, "a/b/c.rtm");
    assert_int_equal(rtm_path_norm("z//ace/", 7, '\\', out, sizeof out), 5);
    assert_string_equal(out, "z\\ace");
    assert_int_equal(rtm_path_norm("../..", 5, '/', out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(rtm_path_norm("abc/def", 7, '/', out, 7), -1);
    assert_int_equal(rtm_path_norm("abc/def", 7, '/', out, 8), 7);
}

/* The rule as first written, a byte at a time: what the word-at-a-time
 * scan must agree with. */
static long path_norm_bytewise(const char *in, size_t len, char sep, char *out, size_t n)
{
    size_t o = 0, i = 0;
    if (n == 0)
        return -1;
    while (i < len) {
        size_t j = i;
        while (j < len && in[j] != '\\' && in[j] != '/')
            j++;
        size_t k = j - i;
        if (!(k == 0 || (k == 1 && in[i] == '.') || (k == 2 && in[i] == '.' && in[i + 1] == '.'))) {
            if (o + (o > 0) + k + 1 > n)
                return -1;
            if (o > 0)
                out[o++] = sep;
            memcpy(out + o, in + i, k);
            o += k;
        }
        i = j + 1;
    }
    out[o] = 0;
    return (long)o;
}

/* Random paths of separators, dots and long and short names (a separator
 * at every place of an eight-byte word), every output size. */
static void paths_normalised_as_bytewise(void **state)
{
    (void)state;
    static const char alphabet[] = "ab.\\/\x5c\x2f\xdc\xaf";
    uint32_t seed = 12345;
    for (int round = 0; round < 20000; round++) {
        char in[48], a[64], b[64];
        size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 31;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            in[i] = (seed >> 16) % 5 < 3 ? 'x' : alphabet[(seed >> 20) % (sizeof alphabet - 1)];
        }
        size_t n = 1 + ((seed >> 8) % 40);
        long x = rtm_path_norm(in, len, '/', a, n), y = path_norm_bytewise(in, len, '/', b, n);
        assert_int_equal(x, y);
        if (x >= 0)
            assert_string_equal(a, b);
    }
}

/* Every byte asked for, short only at the end of the file. */
static void pread_whole(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite("0123456789", 1, 10, f), 10);
    fflush(f);
    char buf[16];
    int fd = fileno(f);
    assert_int_equal(rtm_pread_full(fd, buf, 4, 3), 4);
    assert_memory_equal(buf, "3456", 4);
    assert_int_equal(rtm_pread_full(fd, buf, 16, 6), 4);
    assert_int_equal(rtm_pread_full(fd, buf, 4, 10), 0);
    assert_int_equal(rtm_pread_full(-1, buf, 4, 0), -EBADF);
    fclose(f);
}

/* The folded hash is the same for names that differ in ASCII case alone
 * (every byte, at every place of a word and of a tail), and tells apart
 * what folding does not join: bytes above 0x7f, and the six between 'Z'
 * and 'a'. */
static void hash_folds_ascii_case(void **state)
{
    (void)state;
    for (size_t len = 1; len <= 19; len++)
        for (size_t at = 0; at < len; at++)
            for (int b = 1; b < 256; b++) {
                char x[20], y[20];
                memset(x, 'q', len);
                memcpy(y, x, len);
                x[at] = (char)b;
                y[at] = (char)rtm_ascii_lower((unsigned char)b);
                assert_true(rtm_hash_bytes(x, len, 1) == rtm_hash_bytes(y, len, 1));
                y[at] = (char)(b ^ 0x80);
                assert_true(rtm_hash_bytes(x, len, 1) != rtm_hash_bytes(y, len, 1));
                if (b >= 'A' && b <= 'Z') {
                    y[at] = (char)(b + 1);      /* '[' after 'Z' */
                    assert_true(rtm_hash_bytes(x, len, 1) != rtm_hash_bytes(y, len, 1));
                }
            }
    assert_true(rtm_hash_bytes("Zz[", 3, 1) != rtm_hash_bytes("zz{", 3, 1));
    /* and made small as rtm_ascii_lower makes each byte */
    char all[256], want[256];
    for (int b = 0; b < 256; b++) {
        all[b] = (char)(b + 1);
        want[b] = (char)rtm_ascii_lower((unsigned char)(b + 1));
    }
    for (size_t from = 0; from < 9; from++) {
        char t[256];
        memcpy(t, all, sizeof t);
        rtm_ascii_lower_bytes(t + from, sizeof t - from);
        assert_memory_equal(t + from, want + from, sizeof t - from);
        assert_memory_equal(t, all, from);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counting_buffer),
        cmocka_unit_test(buf_grows_and_keeps_bytes),
        cmocka_unit_test(buf_reserve_and_empty_put),
        cmocka_unit_test(buf_take_empties),
        cmocka_unit_test(buf_printf_appends),
        cmocka_unit_test(cursor_reads_at_bounds),
        cmocka_unit_test(cursor_overrun_reports_offset),
        cmocka_unit_test(cursor_asciiz),
        cmocka_unit_test(err_format_with_and_without_offset),
        cmocka_unit_test(slurp_temp_file),
        cmocka_unit_test(slurp_missing_file),
        cmocka_unit_test(slurp_bounded),
        cmocka_unit_test(name_suffixes),
        cmocka_unit_test(counts_with_separators),
        cmocka_unit_test(sizes_parse),
        cmocka_unit_test(paths_join),
        cmocka_unit_test(paths_normalised), cmocka_unit_test(paths_normalised_as_bytewise),
        cmocka_unit_test(hash_folds_ascii_case),
        cmocka_unit_test(pread_whole),
    };
    return run_test_cases(tests, NULL, NULL);
}
