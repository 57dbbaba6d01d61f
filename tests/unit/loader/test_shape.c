/* test_shape.c - index records (shape.h): an anim's shape names, counts
 * and bones.txt as the parse does, with its sizes; an archive's table as
 * pbo_load_table reads it; damaged records are refused, never trusted. */
#include <stdio.h>
#include <unistd.h>

#include "testutil.h"
#include "names.h"
#include "pbo.h"
#include "pbo_write.h"
#include "samples.h"
#include "shape.h"
#include "views.h"

/* Every view path and bones.txt of a equal the shape's, and its sizes are
 * the ones encoded. */
static void check_shape(const struct rtm_anim *a, const uint64_t *sizes)
{
    struct rtm_buf rec;
    rtm_buf_init(&rec);
    assert_int_equal(rtm_shape_encode(a, sizes, "", &rec), 0);
    struct rtm_anim *s;
    uint64_t *got;
    char error[64];
    assert_int_equal(rtm_shape_decode(rec.p, rec.len, &s, &got, error, sizeof error), 0);
    assert_non_null(s);
    assert_int_equal(s->nframes, a->nframes);
    assert_int_equal(s->nbones, a->nbones);
    assert_int_equal(s->format, a->format);
    assert_int_equal(s->depth, RTM_DEPTH_SHAPE);
    size_t n = rtm_view_count(a);
    assert_int_equal(rtm_view_count(s), n);
    assert_int_equal(rtm_view_nfixed(s), rtm_view_nfixed(a));
    for (size_t i = 0; i < n; i++) {
        char pa[RTM_VIEW_PATH_MAX], ps[RTM_VIEW_PATH_MAX];
        rtm_view_path(a, rtm_view_at(a, i), pa);
        rtm_view_path(s, rtm_view_at(s, i), ps);
        assert_string_equal(pa, ps);
        struct rtm_view v;
        assert_int_equal(rtm_view_lookup(s, pa, &v), 0);
        assert_int_equal(rtm_view_index(s, v), i);
        assert_int_equal(got[i], sizes ? sizes[i] : UINT64_MAX);
    }
    size_t la, ls;
    char *ba = render(a, (struct rtm_view){ .kind = RTM_VIEW_BONES }, &la);
    char *bs = render(s, (struct rtm_view){ .kind = RTM_VIEW_BONES }, &ls);
    assert_int_equal(la, ls);
    assert_memory_equal(ba, bs, la);
    free(ba);
    free(bs);
    free(got);
    rtm_free(s);
    rtm_buf_free(&rec);
}

static void shapes_name_what_the_parse_names(void **state)
{
    (void)state;
    struct sample_opts o = { 1200, 40, 7, 3 };      /* 4-digit frame names */
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    const char *skels[] = { "ofp2", "none" };       /* with pivots and without */
    for (size_t k = 0; k < 2; k++) {
        struct rtm_anim *a = parse_ok(&b, skels[k]);
        assert_int_equal(!!a->pivot, k == 0);
        uint64_t *sizes = malloc(rtm_view_count(a) * sizeof *sizes);
        assert_int_equal(rtm_view_sizes(a, sizes), 0);
        check_shape(a, sizes);
        sizes[3] = UINT64_MAX;                      /* some not known */
        check_shape(a, sizes);
        check_shape(a, NULL);
        free(sizes);
        rtm_free(a);
    }
    rtm_buf_free(&b);
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 4, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    check_shape(a, NULL);
    rtm_free(a);
    rtm_buf_free(&b);
}

/* The corpus's real names and counts, with every size known. */
static void corpus_shapes(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        uint64_t *sizes = malloc((rtm_view_count(a) + 1) * sizeof *sizes);
        assert_int_equal(rtm_view_sizes(a, sizes), 0);
        check_shape(a, sizes);
        free(sizes);
        rtm_free(a);
    }
    rtm_skeleton_free(s);
    corpus_free(&c);
}

/* Bone names with bytes names.h must escape or set apart (a case-folded
 * twin) name the same tracks. */
static void odd_names_survive(void **state)
{
    (void)state;
    struct sample_opts o = { 3, 4, 1, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "none");
    static const char odd[] = "Left\nArm/\x01\xff";
    a->bones[1] = rtm_anim_str(a, odd, sizeof odd - 1);
    a->bones[2] = rtm_anim_str(a, "PELVIS", 6);
    a->bones[3] = rtm_anim_str(a, "pelvis", 6);
    rtm_names_free(a->tracks);
    a->tracks = rtm_names_make(a->bones, a->nbones, &RTM_NAMES_FILE);
    check_shape(a, NULL);
    rtm_free(a);
    rtm_buf_free(&b);
}

static void errors_round_trip(void **state)
{
    (void)state;
    struct rtm_buf rec;
    rtm_buf_init(&rec);
    assert_int_equal(rtm_shape_encode(NULL, NULL, "walk.rtm: cut short at byte 12", &rec), 0);
    struct rtm_anim *a;
    uint64_t *sizes;
    char error[128];
    assert_int_equal(rtm_shape_decode(rec.p, rec.len, &a, &sizes, error, sizeof error), 0);
    assert_null(a);
    assert_string_equal(error, "walk.rtm: cut short at byte 12");
    rtm_buf_free(&rec);
}

/* Every cut and every single-byte change of a record is refused or decodes
 * to a whole shape (checked by ASan in make check SANITIZE=1). */
static void damaged_records_are_refused(void **state)
{
    (void)state;
    struct sample_opts o = { 30, 12, 3, 0 };
    struct rtm_buf b, rec;
    rtm_buf_init(&b);
    rtm_buf_init(&rec);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    uint64_t *sizes = malloc(rtm_view_count(a) * sizeof *sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    assert_int_equal(rtm_shape_encode(a, sizes, "", &rec), 0);
    uint8_t *copy = malloc(rec.len);
    char error[64];
    for (size_t cut = 0; cut < rec.len; cut++) {
        struct rtm_anim *s;
        uint64_t *got;
        memcpy(copy, rec.p, cut);
        assert_int_equal(rtm_shape_decode(copy, cut, &s, &got, error, sizeof error), -1);
        assert_null(s);
    }
    for (size_t i = 0; i < rec.len; i++)
        for (int bit = 0; bit < 8; bit++) {
            struct rtm_anim *s;
            uint64_t *got;
            memcpy(copy, rec.p, rec.len);
            copy[i] ^= (uint8_t)(1u << bit);
            if (rtm_shape_decode(copy, rec.len, &s, &got, error, sizeof error) == 0 && s) {
                size_t n = rtm_view_count(s);
                for (size_t k = 0; k < n; k++)
                    (void)got[k];       /* as many sizes as views */
                free(got);
                rtm_free(s);
            }
        }
    /* counts no bytes could carry: refused before anything is allocated */
    static const uint8_t huge[] = { 'A', 0, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 0, 0 };
    struct rtm_anim *s;
    uint64_t *got;
    assert_int_equal(rtm_shape_decode(huge, sizeof huge, &s, &got, error, sizeof error), -1);
    static const uint8_t bones[] = { 'A', 0, 1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0 };
    assert_int_equal(rtm_shape_decode(bones, sizeof bones, &s, &got, error, sizeof error), -1);
    free(copy);
    free(sizes);
    rtm_free(a);
    rtm_buf_free(&b);
    rtm_buf_free(&rec);
}

/* An archive written by pbo_write, loaded from a file as the mount does. */
static struct pbo *load_archive(const struct rtm_buf *arch, uint64_t size, int *fd_out)
{
    char path[] = "/tmp/rtmfs-test-shape-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    assert_int_equal(write(fd, arch->p, (size_t)size), (ssize_t)size);
    struct pbo *p;
    struct rtm_error err;
    assert_int_equal(pbo_load_table(NULL, fd, &p, &err), 0);
    *fd_out = fd;
    return p;
}

static void check_table(const struct rtm_buf *arch, uint64_t size)
{
    int fd;
    struct pbo *p = load_archive(arch, size, &fd);
    uint8_t tail[21];
    size_t tail_len = size > p->data_end ? (size_t)(size - p->data_end) : 0;
    tail_len = tail_len < sizeof tail ? tail_len : sizeof tail;
    memcpy(tail, arch->p + p->data_end, tail_len);
    struct rtm_buf rec;
    rtm_buf_init(&rec);
    assert_int_equal(rtm_shape_encode_table((const uint8_t *)arch->p, (size_t)p->table_bytes,
                                            tail, tail_len, &rec), 0);
    struct pbo *q;
    assert_int_equal(rtm_shape_decode_table(rec.p, rec.len, size, &q), 0);
    assert_int_equal(q->nentries, p->nentries);
    assert_int_equal(q->ncut, p->ncut);
    assert_int_equal(q->nprops, p->nprops);
    assert_int_equal(q->trailer, p->trailer);
    assert_int_equal(q->data_end, p->data_end);
    assert_memory_equal(q->sha1, p->sha1, sizeof p->sha1);
    for (size_t i = 0; i < p->nentries; i++) {
        assert_string_equal(q->entries[i].path, p->entries[i].path);
        assert_int_equal(q->entries[i].offset, p->entries[i].offset);
        assert_int_equal(q->entries[i].data_size, p->entries[i].data_size);
        assert_int_equal(q->entries[i].cut, p->entries[i].cut);
    }
    for (size_t i = 0; i < p->nprops; i++)
        assert_string_equal(q->props[i].value, p->props[i].value);
    /* another file size is another archive: refused or re-cut, never this */
    struct pbo *r = NULL;
    if (rtm_shape_decode_table(rec.p, rec.len - 1, size, &r) == 0)
        fail_msg("a cut record decoded");
    pbo_free(q);
    pbo_free(p);
    close(fd);
    rtm_buf_free(&rec);
}

static void tables_round_trip(void **state)
{
    (void)state;
    static uint8_t data[3][5000];
    for (size_t i = 0; i < sizeof data; i++)
        ((uint8_t *)data)[i] = (uint8_t)(i * 7 % 13);
    struct pbo_write_entry e[] = {
        { "anims\\walk.rtm", data[0], 5000, PBO_PACK_STORE, 100 },
        { "anims\\run.rtm", data[1], 4000, PBO_PACK_CPRS, 200 },
        { "config.cpp", data[2], 300, PBO_PACK_OFP, 0 },
    };
    struct pbo_write_prop props[] = { { "prefix", "x\\y" }, { "version", "1.2" } };
    unsigned flags[] = { 0, PBO_WRITE_NO_TRAILER, PBO_WRITE_NO_VERS };
    for (size_t f = 0; f < 3; f++) {
        struct rtm_buf arch;
        rtm_buf_init(&arch);
        assert_int_equal(pbo_write(e, 3, props, 2, flags[f], &arch), 0);
        check_table(&arch, arch.len);
        check_table(&arch, arch.len - 3000);          /* cut short */
        rtm_buf_free(&arch);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shapes_name_what_the_parse_names),
        cmocka_unit_test(odd_names_survive),
        cmocka_unit_test(corpus_shapes),
        cmocka_unit_test(errors_round_trip),
        cmocka_unit_test(damaged_records_are_refused),
        cmocka_unit_test(tables_round_trip),
    };
    return run_test_cases(tests, NULL, NULL);
}
