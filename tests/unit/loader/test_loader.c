/* test_loader.c - reading one version of a file of SOURCE (loader.h),
 * through a real cache, from files the project's writers make. */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "testutil.h"
#include "cache.h"
#include "loader.h"
#include "tree_testutil.h"
#include "pbo.h"
#include "pbo_write.h"

/* Under a sanitizer (whose shadow memory takes terabytes of address space)
 * an address-space limit cannot be used; a large allocation returns NULL
 * instead, as malloc does out of memory. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RTM_TEST_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RTM_TEST_SANITIZER 1
#endif
#endif
#ifdef RTM_TEST_SANITIZER
#define SANITIZER_OPTIONS "allocator_may_return_null=1:max_allocation_size_mb=16"
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return SANITIZER_OPTIONS; }
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return SANITIZER_OPTIONS; }
#endif

struct env {
    struct tree_fixture src;
    struct rtm_buf plain, bmtr;
};

/* The key of name's current version. */
static struct rtmc_src src_of(struct env *e, const char *path, size_t archive_len,
                              enum rtmc_kind kind)
{
    struct stat st;
    char file[256];
    snprintf(file, sizeof file, "%.*s", (int)(archive_len ? archive_len : strlen(path)), path);
    assert_int_equal(fstatat(e->src.fd, file, &st, 0), 0);
    return (struct rtmc_src){ .path = path, .id = rtm_fileid_of(&st), .kind = kind,
                              .archive_len = archive_len };
}

static int get(struct env *e, const char *path, size_t archive_len, enum rtmc_kind kind,
               struct rtmc_entry **h)
{
    struct rtmc_src s = src_of(e, path, archive_len, kind);
    return rtmc_get(e->src.c, &s, h);
}

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    tree_fixture_open(&e->src, "loader");
    tree_fixture_mount(&e->src, 64u << 20);
    struct sample_opts po = { 6, 20, 1, 2 }, bo = { 5, 30, 2, 1 };
    assert_int_equal(rtm_sample_plain(&po, &e->plain), 0);
    assert_int_equal(rtm_sample_bmtr(&bo, 5, BMTR_COMPRESS_AUTO, &e->bmtr), 0);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->src);
    rtm_buf_free(&e->plain);
    rtm_buf_free(&e->bmtr);
    free(e);
    return 0;
}

static void loose_files(void **state)
{
    struct env *e = *state;
    struct rtmc_entry *h;
    tree_fixture_write(&e->src, "walk.rtm", e->plain.p, e->plain.len);
    assert_int_equal(get(e, "walk.rtm", 0, RTMC_ANIM, &h), 0);
    assert_int_equal(rtmc_anim(h)->nframes, 6);
    rtmc_put(e->src.c, h);
    /* a version that is not the file's any more */
    struct rtmc_src s = src_of(e, "walk.rtm", 0, RTMC_ANIM);
    s.id.mtime_ns++;
    assert_int_equal(rtmc_get(e->src.c, &s, &h), -ESTALE);
    tree_fixture_write(&e->src, "gone.rtm", e->plain.p, e->plain.len);
    s = src_of(e, "gone.rtm", 0, RTMC_ANIM);
    assert_int_equal(unlinkat(e->src.fd, "gone.rtm", 0), 0);
    assert_int_equal(rtmc_get(e->src.c, &s, &h), -ENOENT);
    /* a format error names the file and the byte */
    tree_fixture_write(&e->src, "cut.rtm", e->bmtr.p, 40);
    assert_int_equal(get(e, "cut.rtm", 0, RTMC_ANIM, &h), 0);
    assert_null(rtmc_anim(h));
    assert_non_null(strstr(rtmc_error(h), "cut.rtm: "));
    assert_non_null(strstr(rtmc_error(h), "(at byte "));
    rtmc_put(e->src.c, h);
}

static void write_archive(struct env *e, const char *name, uint8_t *cfg, size_t cfg_len)
{
    const struct pbo_write_entry en[] = {
        { "Anims\\Walk.rtm", (const uint8_t *)e->plain.p, e->plain.len, PBO_PACK_STORE, 0 },
        { "anims\\v5.rtm", (const uint8_t *)e->bmtr.p, e->bmtr.len, PBO_PACK_CPRS, 0 },
        { "config.cpp", cfg, cfg_len, PBO_PACK_CPRS, 0 },
    };
    struct pbo_write_prop prop = { "prefix", "x\\y" };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(en, 3, &prop, 1, 0, &b), 0);
    tree_fixture_write(&e->src, name, b.p, b.len);
    rtm_buf_free(&b);
}

static void archive_entries(void **state)
{
    struct env *e = *state;
    struct rtmc_entry *h, *t;
    uint8_t cfg[5000];
    for (size_t i = 0; i < sizeof cfg; i++)
        cfg[i] = (uint8_t)("class A {};\n"[i % 12]);
    mkdirat(e->src.fd, "addons", 0755);
    write_archive(e, "addons/x.pbo", cfg, sizeof cfg);
    size_t alen = strlen("addons/x.pbo");
    assert_int_equal(get(e, "addons/x.pbo/anims/v5.rtm", alen, RTMC_ANIM, &h), 0);
    assert_int_equal(rtmc_anim(h)->nframes, 5);
    assert_int_equal(rtmc_anim(h)->nbones, 30);
    rtmc_put(e->src.c, h);
    assert_int_equal(get(e, "addons/x.pbo/ANIMS/WALK.RTM", alen, RTMC_ANIM, &h), 0);
    assert_int_equal(rtmc_anim(h)->nframes, 6);
    rtmc_put(e->src.c, h);
    assert_int_equal(get(e, "addons/x.pbo/config.cpp", alen, RTMC_DATA, &h), 0);
    size_t len;
    const uint8_t *d = rtmc_data(h, &len);
    assert_int_equal(len, sizeof cfg);
    assert_memory_equal(d, cfg, sizeof cfg);
    rtmc_put(e->src.c, h);
    assert_int_equal(get(e, "addons/x.pbo/none.rtm", alen, RTMC_ANIM, &h), -ENOENT);
    /* the table was read once, and stays in the cache for the next lookups */
    assert_int_equal(get(e, "addons/x.pbo", 0, RTMC_TABLE, &t), 0);
    assert_string_equal(pbo_prop(rtmc_pbo(t), "prefix"), "x\\y");
    rtmc_put(e->src.c, t);
    struct rtmc_stats st;
    rtmc_get_stats(e->src.c, &st);
    assert_int_equal(st.loads, 5);      /* table, two anims, data, the missing one */
    /* data is read only from archives */
    tree_fixture_write(&e->src, "plain.bin", "x", 1);
    assert_int_equal(get(e, "plain.bin", 0, RTMC_DATA, &h), -EINVAL);
}

static void broken_archives(void **state)
{
    struct env *e = *state;
    struct rtmc_entry *h;
    uint8_t cfg[3000];
    memset(cfg, 'a', sizeof cfg);
    write_archive(e, "x.pbo", cfg, sizeof cfg);
    struct stat st;
    assert_int_equal(fstatat(e->src.fd, "x.pbo", &st, 0), 0);
    /* an archive cut after its table: the table reads, the entries past the
     * cut are not found */
    char path[128];
    snprintf(path, sizeof path, "%s/x.pbo", e->src.dir);
    assert_int_equal(truncate(path, 200), 0);
    assert_int_equal(get(e, "x.pbo", 0, RTMC_TABLE, &h), 0);
    assert_non_null(rtmc_pbo(h));
    assert_true(rtmc_pbo(h)->ncut > 0);
    rtmc_put(e->src.c, h);
    assert_int_equal(get(e, "x.pbo/anims/v5.rtm", 5, RTMC_ANIM, &h), -ENOENT);
    /* cut inside the table: the table's error, for the table and every entry */
    assert_int_equal(truncate(path, 30), 0);
    assert_int_equal(get(e, "x.pbo", 0, RTMC_TABLE, &h), 0);
    assert_null(rtmc_pbo(h));
    assert_non_null(strstr(rtmc_error(h), "x.pbo: file ends inside the PBO table"));
    rtmc_put(e->src.c, h);
    assert_int_equal(get(e, "x.pbo/anims/v5.rtm", 5, RTMC_ANIM, &h), 0);
    assert_null(rtmc_anim(h));
    assert_non_null(strstr(rtmc_error(h), "inside the PBO table"));
    rtmc_put(e->src.c, h);
    /* a corrupt LZSS stream: that entry's error, naming it */
    struct rtm_buf b;
    rtm_buf_init(&b);
    const struct pbo_write_entry en = { "bad.rtm", (const uint8_t *)e->bmtr.p, e->bmtr.len,
                                        PBO_PACK_CPRS, 0 };
    assert_int_equal(pbo_write(&en, 1, NULL, 0, 0, &b), 0);
    struct pbo *p;
    struct rtm_error err;
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), 0);
    b.p[p->entries[0].offset + p->entries[0].data_size - 1] ^= 0x55;   /* the checksum */
    pbo_free(p);
    tree_fixture_write(&e->src, "y.pbo", b.p, b.len);
    rtm_buf_free(&b);
    assert_int_equal(get(e, "y.pbo/bad.rtm", 5, RTMC_ANIM, &h), 0);
    assert_null(rtmc_anim(h));
    assert_non_null(strstr(rtmc_error(h), "y.pbo/bad.rtm: PBO entry 'bad.rtm'"));
    assert_non_null(strstr(rtmc_error(h), "checksum"));
    rtmc_put(e->src.c, h);
    /* a file that may not be read shows why (root reads everything) */
    if (geteuid() != 0) {
        assert_int_equal(fchmodat(e->src.fd, "y.pbo", 0, 0), 0);
        assert_int_equal(get(e, "y.pbo", 0, RTMC_TABLE, &h), 0);
        assert_string_equal(rtmc_error(h), "y.pbo: Permission denied");
        rtmc_put(e->src.c, h);
    } else {
        fprintf(stderr, "note: running as root; the unreadable-file case is left to "
                        "tests/mount/hostile.sh\n");
    }
}

#ifndef RTM_TEST_SANITIZER
/* The process's address space now, in bytes. */
static size_t vm_size(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    return pages * (size_t)sysconf(_SC_PAGESIZE);
}
#endif

/* Out of memory while decoding an entry is no property of the archive: it
 * is returned as -ENOMEM, not kept, and the next access tries again. */
static void out_of_memory_is_not_kept(void **state)
{
    struct env *e = *state;
    enum { N = 2 << 20 };
    uint8_t *noise = malloc(N);
    uint32_t x = 12345;
    for (size_t i = 0; i < N; i++)
        noise[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 24);
    const struct pbo_write_entry en = { "big.bin", noise, N, PBO_PACK_CPRS, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(&en, 1, NULL, 0, 0, &b), 0);
    free(noise);
    /* claim 8 times the stored size (about 18 MB): decoding allocates it first */
    struct pbo *p;
    struct rtm_error err;
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), 0);
    uint32_t claim = 8 * p->entries[0].data_size;
    pbo_free(p);
    char *at = memmem(b.p, b.len, "big.bin", 8);
    memcpy(at + 8 + 4, &claim, 4);
    tree_fixture_write(&e->src, "big.pbo", b.p, b.len);
    rtm_buf_free(&b);
#ifndef RTM_TEST_SANITIZER
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)(vm_size() + (12u << 20));
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
#endif
    struct rtmc_entry *h;
    struct rtmc_stats st0, st1;
    rtmc_get_stats(e->src.c, &st0);
    int rc1 = get(e, "big.pbo/big.bin", 7, RTMC_DATA, &h);
    int rc2 = get(e, "big.pbo/big.bin", 7, RTMC_DATA, &h);
    rtmc_get_stats(e->src.c, &st1);
#ifndef RTM_TEST_SANITIZER
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
#endif
    assert_int_equal(rc1, -ENOMEM);
    assert_int_equal(rc2, -ENOMEM);
    assert_int_equal(st1.loads - st0.loads, 3);     /* the table once, the entry twice */
#ifndef RTM_TEST_SANITIZER
    /* with memory again, the entry decodes, and what is wrong with it is kept */
    assert_int_equal(get(e, "big.pbo/big.bin", 7, RTMC_DATA, &h), 0);
    assert_null(rtmc_data(h, &(size_t){ 0 }));
    assert_non_null(strstr(rtmc_error(h), "big.bin"));
    rtmc_put(e->src.c, h);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(loose_files, setup, teardown),
        cmocka_unit_test_setup_teardown(archive_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(broken_archives, setup, teardown),
        cmocka_unit_test_setup_teardown(out_of_memory_is_not_kept, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
