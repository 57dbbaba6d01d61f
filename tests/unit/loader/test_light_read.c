/* test_light_read.c - a listing reads the head a shape needs, not the file
 * (rtm_parse_head in rtm.h, the loader's head loads in loader.h): on every
 * prefix, for cut files, over the corpus, and counted in bytes read from
 * disk through the loader (loose files, stored and LZSS archive entries). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "cache.h"
#include "loader.h"
#include "tree_testutil.h"
#include "pbo.h"
#include "pbo_write.h"
#include "skeleton.h"

/* The head parse of the file data (len bytes) grown as it asks from a
 * page, as the loader grows it: its result, the anim, the bytes it took. */
static int head_parse(const uint8_t *data, size_t len, struct rtm_anim **a,
                      struct rtm_error *err, size_t *took)
{
    struct rtm_parse_opts o = { .skel = NULL };
    size_t n = len < 4096 ? len : 4096;
    uint64_t need;
    int rc;
    while ((rc = rtm_parse_head(data, n, len, &o, a, &need, err)) == RTM_PARSE_NEED_MORE) {
        assert_true(need > n && need <= len);
        n = (size_t)need;
    }
    *took = n;
    return rc;
}

/* What a listing shows of a: its counts, names and views. */
static void assert_same_shape(const struct rtm_anim *head, const struct rtm_anim *full)
{
    assert_int_equal(head->format, full->format);
    assert_int_equal(head->version, full->version);
    assert_int_equal(head->nframes, full->nframes);
    assert_int_equal(head->nbones, full->nbones);
    assert_int_equal(head->nprops, full->nprops);
    assert_int_equal(head->source_bytes, full->source_bytes);
    assert_int_equal(rtm_view_count(head), rtm_view_count(full));
    for (uint32_t b = 0; b < full->nbones; b++) {
        assert_int_equal(head->bones[b].len, full->bones[b].len);
        assert_memory_equal(head->bones[b].s, full->bones[b].s, full->bones[b].len);
    }
    size_t hl, fl;
    char *hb = render(head, (struct rtm_view){ .kind = RTM_VIEW_BONES }, &hl);
    char *fb = render(full, (struct rtm_view){ .kind = RTM_VIEW_BONES }, &fl);
    assert_int_equal(hl, fl);
    assert_memory_equal(hb, fb, fl);
    free(hb);
    free(fb);
}

/* The head parse of data agrees with the light parse: the same shape, or
 * (damage in the head) the same message; a file that parses light has a
 * head that parses.  Returns the bytes the head parse took. */
static size_t check_against_light(const uint8_t *data, size_t len)
{
    struct rtm_anim *full = NULL, *head = NULL;
    struct rtm_error fe = { .msg = "" }, he = { .msg = "" };
    size_t took;
    int frc = rtm_parse_flags(data, len, NULL, RTM_PARSE_NO_MATRICES, &full, &fe);
    int hrc = head_parse(data, len, &head, &he, &took);
    if (frc == 0) {
        assert_int_equal(hrc, 0);
        assert_same_shape(head, full);
    } else if (hrc) {
        assert_string_equal(he.msg, fe.msg);
        assert_int_equal(he.offset, fe.offset);
    }
    rtm_free(full);
    rtm_free(head);
    return took;
}

struct samples {
    struct rtm_buf b[5];
};

static void samples_make(struct samples *s, uint32_t nframes, uint32_t nbones)
{
    struct sample_opts plain = { nframes, nbones, 3, 4 }, bare = { nframes, nbones, 4, 0 };
    for (int i = 0; i < 5; i++)
        rtm_buf_init(&s->b[i]);
    assert_int_equal(rtm_sample_plain(&plain, &s->b[0]), 0);
    assert_int_equal(rtm_sample_plain(&bare, &s->b[1]), 0);
    assert_int_equal(rtm_sample_bmtr(&plain, 3, BMTR_COMPRESS_AUTO, &s->b[2]), 0);
    assert_int_equal(rtm_sample_bmtr(&plain, 4, BMTR_COMPRESS_AUTO, &s->b[3]), 0);
    assert_int_equal(rtm_sample_bmtr(&plain, 5, BMTR_COMPRESS_AUTO, &s->b[4]), 0);
}

static void samples_free(struct samples *s)
{
    for (int i = 0; i < 5; i++)
        rtm_buf_free(&s->b[i]);
}

/* Given any prefix as the head, it asks for more within the file, fails,
 * or gives the same shape as the whole file. */
static void every_prefix(void **state)
{
    (void)state;
    struct samples s;
    samples_make(&s, 12, 30);
    for (int i = 0; i < 5; i++) {
        const uint8_t *d = (const uint8_t *)s.b[i].p;
        size_t len = s.b[i].len;
        struct rtm_anim *full = NULL;
        struct rtm_error err = { .msg = "" };
        assert_int_equal(rtm_parse_flags(d, len, NULL, RTM_PARSE_NO_MATRICES, &full, &err), 0);
        for (size_t n = 0; n <= len; n++) {
            struct rtm_parse_opts o = { .skel = NULL };
            struct rtm_anim *a = NULL;
            uint64_t need = 0;
            int rc = rtm_parse_head(d, n, len, &o, &a, &need, &err);
            if (rc == RTM_PARSE_NEED_MORE) {
                assert_true(need > n && need <= len);
                continue;
            }
            assert_int_equal(rc, 0);
            assert_same_shape(a, full);
            rtm_free(a);
        }
        rtm_free(full);
    }
    samples_free(&s);
}

/* A file cut anywhere: damage in the head is told as the light parse
 * tells it; a plain file's cut frames are found from its header (its
 * counts against the file's size); BMTR's cut arrays are not looked at. */
static void cut_files(void **state)
{
    (void)state;
    struct samples s;
    samples_make(&s, 12, 30);
    for (int i = 0; i < 5; i++) {
        const uint8_t *d = (const uint8_t *)s.b[i].p;
        for (size_t n = 0; n < s.b[i].len; n++) {
            struct rtm_anim *a = NULL;
            struct rtm_error err = { .msg = "" };
            size_t took;
            check_against_light(d, n);
            int rc = head_parse(d, n, &a, &err, &took);
            /* plain: a cut file never passes; BMTR: only past the names */
            if (i < 2)
                assert_int_equal(rc, -1);
            rtm_free(a);
        }
    }
    samples_free(&s);
}

/* A BMTR whose frame count no bytes after its names could hold is refused
 * by the head parse, with where and why, before anything is made for its
 * frames (fuzz_rtm found a head asking for 7 GB). */
static void bmtr_frame_count_against_size(void **state)
{
    (void)state;
    struct samples s;
    samples_make(&s, 12, 30);
    for (int i = 2; i < 5; i++) {
        uint8_t *d = (uint8_t *)s.b[i].p;
        size_t len = s.b[i].len;
        static const uint8_t huge[4] = { 0xff, 0xff, 0xff, 0x7f };
        memcpy(d + 21, huge, 4);                /* the frame count */
        struct rtm_parse_opts o = { .skel = NULL };
        struct rtm_anim *a = NULL;
        struct rtm_error err = { .msg = "" };
        uint64_t need = 0;
        assert_int_equal(rtm_parse_head(d, len, len, &o, &a, &need, &err), -1);
        assert_null(a);
        assert_non_null(strstr(err.msg, "frames cannot fit"));
        assert_int_equal(err.offset, 21);
    }
    samples_free(&s);
}

/* Every corpus file: the head parse gives the names and counts the light
 * parse gives, from a small part of a large file. */
static void corpus_files(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no shared corpus (RTMFS_SHARED or ../shared)");
    uint64_t all = 0, taken = 0;
    for (size_t i = 0; i < c.n; i++) {
        uint8_t *data;
        size_t len;
        assert_int_equal(rtm_slurp(c.path[i], &data, &len), 0);
        size_t took = check_against_light(data, len);
        all += len;
        taken += took;
        free(data);
    }
    printf("corpus: %zu files, %llu bytes; their heads: %llu bytes\n", c.n,
           (unsigned long long)all, (unsigned long long)taken);
    assert_true(taken * 4 < all);
    corpus_free(&c);
}

/* ---- through the loader ---- */

static int setup(void **state)
{
    struct tree_fixture *e = calloc(1, sizeof *e);
    tree_fixture_open(e, "light");
    tree_fixture_mount(e, 256u << 20);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    tree_fixture_close(*state);
    free(*state);
    return 0;
}

/* The bytes this process has read with read() and pread() (rchar). */
static uint64_t bytes_read(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    unsigned long long n = 0;
    char line[128];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %llu", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

/* Gets path (archive_len as rtmc_src's) at level; returns the bytes read. */
static uint64_t get_kind(struct tree_fixture *e, const char *path, size_t archive_len,
                         enum rtmc_kind kind, enum rtmc_level level, struct rtmc_entry **h)
{
    struct stat st;
    char file[256];
    snprintf(file, sizeof file, "%.*s", (int)(archive_len ? archive_len : strlen(path)), path);
    assert_int_equal(fstatat(e->fd, file, &st, 0), 0);
    struct rtmc_src s = { .path = path, .id = rtm_fileid_of(&st), .kind = kind,
                          .archive_len = archive_len, .level = level };
    uint64_t before = bytes_read();
    assert_int_equal(rtmc_get(e->c, &s, h), 0);
    return bytes_read() - before;
}

static uint64_t get_counted(struct tree_fixture *e, const char *path, size_t archive_len,
                            enum rtmc_level level, struct rtmc_entry **h)
{
    return get_kind(e, path, archive_len, RTMC_ANIM, level, h);
}

/* A listing of a large file (a shape) reads its head only: a loose plain
 * file, a loose BMTR file, the same stored in an archive and LZSS-packed
 * in one.  A full view then reads it whole. */
static void large_files_read_their_head(void **state)
{
    struct tree_fixture *e = *state;
    if (!bytes_read())
        skip_because("no /proc/self/io to count the bytes read");
    struct samples s;
    samples_make(&s, 2000, 60);
    const struct rtm_buf *plain = &s.b[1], *bmtr = &s.b[4];
    tree_fixture_write(e, "big.rtm", plain->p, plain->len);
    tree_fixture_write(e, "big_v5.rtm", bmtr->p, bmtr->len);
    const struct pbo_write_entry en[] = {
        { "stored.rtm", (const uint8_t *)plain->p, plain->len, PBO_PACK_STORE, 0 },
        { "packed.rtm", (const uint8_t *)plain->p, plain->len, PBO_PACK_CPRS, 0 },
    };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(en, 2, NULL, 0, 0, &b), 0);
    tree_fixture_write(e, "a.pbo", b.p, b.len);
    rtm_buf_free(&b);
    struct rtmc_entry *t;
    get_kind(e, "a.pbo", 0, RTMC_TABLE, RTMC_FULL, &t);   /* the table, before counting */
    rtmc_put(e->c, t);
    struct {
        const char *path;
        size_t archive_len, size;
    } f[] = {
        { "big.rtm", 0, plain->len },
        { "big_v5.rtm", 0, bmtr->len },
        { "a.pbo/stored.rtm", 5, plain->len },
        { "a.pbo/packed.rtm", 5, plain->len },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        struct rtmc_entry *h, *full;
        uint64_t n = get_counted(e, f[i].path, f[i].archive_len, RTMC_SHAPE, &h);
        printf("%s: %zu bytes; a listing read %llu\n", f[i].path, f[i].size,
               (unsigned long long)n);
        assert_non_null(rtmc_anim(h));
        assert_int_equal(rtmc_level(h), RTMC_SHAPE);
        assert_int_equal(rtmc_anim(h)->nframes, 2000);
        assert_true(n > 0 && n * 100 < f[i].size);
        uint64_t whole = get_counted(e, f[i].path, f[i].archive_len, RTMC_FULL, &full);
        assert_true(whole >= f[i].size / 2);    /* LZSS: the packed bytes */
        assert_same_shape(rtmc_anim(h), rtmc_anim(full));
        rtmc_put(e->c, full);
        rtmc_put(e->c, h);
    }
    samples_free(&s);
}

/* A BMTR file cut in its arrays lists (a shape), fails its first full
 * read, and from then on shows its message (error.txt) at every level. */
static void cut_bmtr_lists_then_fails(void **state)
{
    struct tree_fixture *e = *state;
    struct samples s;
    samples_make(&s, 200, 40);
    tree_fixture_write(e, "cut.rtm", s.b[4].p, s.b[4].len - 100);
    struct rtmc_entry *h, *full, *again;
    get_counted(e, "cut.rtm", 0, RTMC_SHAPE, &h);
    assert_non_null(rtmc_anim(h));
    assert_int_equal(rtmc_anim(h)->nbones, 40);
    uint64_t size;
    assert_int_equal(rtmc_view_size(e->c, h, (struct rtm_view){ .kind = RTM_VIEW_HEADER },
                                    &size), -EIO);
    get_counted(e, "cut.rtm", 0, RTMC_FULL, &full);
    assert_null(rtmc_anim(full));
    assert_non_null(strstr(rtmc_error(full), "cut.rtm: "));
    get_counted(e, "cut.rtm", 0, RTMC_SHAPE, &again);
    assert_null(rtmc_anim(again));
    assert_string_equal(rtmc_error(again), rtmc_error(full));
    rtmc_put(e->c, again);
    rtmc_put(e->c, full);
    rtmc_put(e->c, h);
    samples_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_prefix),
        cmocka_unit_test(cut_files),
        cmocka_unit_test(bmtr_frame_count_against_size),
        cmocka_unit_test(corpus_files),
        cmocka_unit_test_setup_teardown(large_files_read_their_head, setup, teardown),
        cmocka_unit_test_setup_teardown(cut_bmtr_lists_then_fails, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
