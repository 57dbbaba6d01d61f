/* pbo_testutil.c - what pbo_testutil.h declares, compiled once into librtmtest.a. */
#include "pbo_testutil.h"


/* n bytes of config-like text, which compresses (deterministic in seed). */
uint8_t *text_bytes(size_t n, uint32_t seed)
{
    static const char *words[] = { "class ", "CfgMovesBasic", " {\n", "};\n",
                                   "file = \"", ".rtm\";\n", "speed = 0.5;", "  " };
    uint8_t *t = malloc(n ? n : 1);
    assert_non_null(t);
    size_t i = 0;
    while (i < n) {
        seed = seed * 1103515245u + 12345u;
        const char *w = words[(seed >> 16) % 8];
        for (; *w && i < n; w++)
            t[i++] = (uint8_t)*w;
    }
    return t;
}

/* The table of the whole archive b; asserts success. */
struct pbo *parse_full(const struct rtm_buf *b)
{
    struct pbo *p = NULL;
    struct rtm_error err;
    int rc = pbo_read_table((const uint8_t *)b->p, b->len, b->len, &p, &err);
    if (rc)
        fail_msg("pbo_read_table: %s (at byte %llu)", err.msg,
                 (unsigned long long)err.offset);
    assert_non_null(p);
    return p;
}

static const struct pbo_write_prop fixture_props[] = {
    { "prefix", "x\\walkmod\\addons\\anims" },
    { "product", "arma3" },
    { "version", "1.0" },
};

void pbo_fixture_build(struct fixture *f, unsigned flags)
{
    memset(f, 0, sizeof *f);
    struct sample_opts po = { 6, 20, 1, 2 }, bo = { 5, 30, 2, 1 };
    assert_int_equal(rtm_sample_plain(&po, &f->plain), 0);
    assert_int_equal(rtm_sample_bmtr(&bo, 5, BMTR_COMPRESS_AUTO, &f->bmtr), 0);
    f->text_len = 3000;
    f->text = text_bytes(f->text_len, 7);
    const struct pbo_write_entry e[] = {
        { "config.cpp", f->text, f->text_len, PBO_PACK_STORE, 1700000000 },
        { "anims\\Walk.rtm", (const uint8_t *)f->plain.p, f->plain.len, PBO_PACK_CPRS, 1 },
        { "a\\b\\c.rtm", (const uint8_t *)f->bmtr.p, f->bmtr.len, PBO_PACK_STORE, 2 },
        { "a\\b\\d.rtm", (const uint8_t *)f->bmtr.p, f->bmtr.len, PBO_PACK_CPRS, 3 },
        { "a\\ofp.txt", f->text, f->text_len, PBO_PACK_OFP, 4 },
        { "empty.txt", NULL, 0, PBO_PACK_STORE, 5 },
        { "empty_cprs.txt", NULL, 0, PBO_PACK_CPRS, 6 },
    };
    assert_int_equal(pbo_write(e, sizeof e / sizeof e[0], fixture_props, 3, flags, &f->pbo), 0);
}

void pbo_fixture_free(struct fixture *f)
{
    rtm_buf_free(&f->pbo);
    rtm_buf_free(&f->plain);
    rtm_buf_free(&f->bmtr);
    free(f->text);
}
