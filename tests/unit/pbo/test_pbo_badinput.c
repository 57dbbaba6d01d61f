/* test_pbo_badinput.c - the PBO reader (pbo.h) on broken archives: every
 * truncation of the fixture archive (pbo_testutil.h) read as a whole file
 * and as the head of the full one, deterministic random byte flips
 * (RTMFS_MUTANTS, default 2000), data ranges past the end, absurd sizes and
 * packing methods, and names without a NUL.  Each input is a private heap
 * copy of exactly its bytes, so ASan sees any over-read; each parse is a
 * clean error or a table whose entries all decode or fail cleanly.  Valid
 * archives: test_pbo; SHA-1 and LZSS: test_pbo_lzss. */
#include "testutil.h"
#include "pbo_testutil.h"

/* ---- helpers ------------------------------------------------------------- */

/* Hostile input: a clean error, or a table whose every entry decodes or
 * fails cleanly.  data is copied to exactly len heap bytes. */
static int exercise(const uint8_t *data, size_t len, uint64_t file_size)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, data, len);
    struct pbo *p = (struct pbo *)1;
    struct rtm_error err = { .msg = "" };
    int rc = pbo_read_table(copy, len, file_size, &p, &err);
    if (rc != 0) {
        assert_true(rc == -1 || (rc == PBO_NEED_MORE && len < file_size));
        assert_null(p);
        assert_true(err.msg[0] != 0);
        free(copy);
        return rc;
    }
    assert_true(p->data_end <= file_size);
    size_t ncut = 0;
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        assert_non_null(p->entries[i].path);
        /* a cut entry (past the end of the file) is never found */
        assert_int_equal(e->cut, e->offset + e->data_size > file_size);
        if (e->cut) {
            ncut++;
            assert_int_not_equal(pbo_find(p, e->path), (long)i);
            continue;
        }
        assert_true(e->offset + e->data_size <= p->data_end);
        if (e->offset + e->data_size > len)
            continue;   /* not among the bytes given */
        uint8_t *blob = malloc(e->data_size ? e->data_size : 1);
        assert_non_null(blob);
        memcpy(blob, copy + e->offset, e->data_size);
        uint8_t *out = NULL;
        size_t out_len = 0;
        err.msg[0] = 0;
        if (pbo_entry_data(p, i, blob, e->data_size, &out, &out_len, &err) == 0) {
            assert_non_null(out);
            if (pbo_entry_compressed(e))
                assert_int_equal(out_len, e->original_size);
            else
                assert_int_equal(out_len, e->data_size);
            free(out);
        } else {
            assert_null(out);
            assert_true(err.msg[0] != 0);
        }
        free(blob);
        pbo_find(p, e->name);
    }
    assert_int_equal(ncut, p->ncut);
    assert_int_equal(p->trailer == PBO_TRAILER_CUT, ncut > 0);
    pbo_free(p);
    free(copy);
    return 0;
}

/* ---- broken archives ----------------------------------------------------- */

static void truncation_every_byte(void **state)
{
    (void)state;
    for (unsigned flags = 0; flags < 2; flags++) {
        struct fixture f;
        pbo_fixture_build(&f, flags ? PBO_WRITE_NO_VERS : 0);
        size_t ok = 0, failed = 0;
        for (size_t len = 0; len <= f.pbo.len; len++) {
            /* a file cut at len bytes, read whole */
            if (exercise((const uint8_t *)f.pbo.p, len, len) == 0)
                ok++;
            else
                failed++;
            /* the head of the complete file */
            exercise((const uint8_t *)f.pbo.p, len, f.pbo.len);
        }
        /* cuts inside the table fail; cuts inside the data cut entries off;
         * cuts after the data only lose the trailer */
        struct pbo *full = parse_full(&f.pbo);
        assert_int_equal(failed, full->table_bytes);
        assert_int_equal(ok, f.pbo.len + 1 - full->table_bytes);
        pbo_free(full);
        pbo_fixture_free(&f);
    }
}

static void random_flips(void **state)
{
    (void)state;
    const char *env = getenv("RTMFS_MUTANTS");
    long mutants = env ? atol(env) : 2000;
    struct fixture f;
    pbo_fixture_build(&f, 0);
    uint8_t *m = malloc(f.pbo.len);
    uint32_t seed = 12345;
    size_t parsed = 0;
    for (long k = 0; k < mutants; k++) {
        memcpy(m, f.pbo.p, f.pbo.len);
        seed = seed * 1103515245u + 12345u;
        int flips = 1 + (int)((seed >> 16) % 4);
        for (int j = 0; j < flips; j++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % f.pbo.len;
            /* half the flips hit the table, where they matter most */
            if (k % 2)
                at %= 200;
            seed = seed * 1103515245u + 12345u;
            m[at] ^= (uint8_t)(1u << ((seed >> 16) % 8));
        }
        if (exercise(m, f.pbo.len, f.pbo.len) == 0)
            parsed++;
    }
    fprintf(stderr, "random_flips: %ld mutants, %zu parsed\n", mutants, parsed);
    free(m);
    pbo_fixture_free(&f);
}

/* The offset of entry i's five u32 in a writer's archive. */
static size_t fields_at(const struct pbo *p, size_t i)
{
    return (size_t)p->entries[i].header_offset + p->entries[i].name_len + 1;
}

static void bad_sizes(void **state)
{
    (void)state;
    struct fixture f;
    pbo_fixture_build(&f, 0);
    struct pbo *p = parse_full(&f.pbo);
    struct rtm_error err;
    struct pbo *q = NULL;
    uint8_t *m = malloc(f.pbo.len);

    /* a data range past the end of the file (a data size of 2^32 - 1, and one
     * only a byte too long, counting the trailer as data): that entry and
     * every one after it are cut, and none of them is found */
    static const uint32_t sizes[] = { 0xFFFFFFFFu, 0x80000000u };
    for (size_t s = 0; s < 2; s++) {
        memcpy(m, f.pbo.p, f.pbo.len);
        memcpy(m + fields_at(p, 0) + 16, &sizes[s], 4);
        assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
        assert_int_equal(q->ncut, q->nentries);
        assert_int_equal(q->trailer, PBO_TRAILER_CUT);
        assert_int_equal(pbo_find(q, p->entries[0].path), -1);
        long e;
        assert_int_equal(pbo_lookup(q, p->entries[0].path, &e), PBO_NONE);
        pbo_free(q);
        /* from a file: the entry's 4 GiB are refused before any is
         * allocated (fuzz_tree found the 2 GiB malloc) */
        FILE *tf = tmpfile();
        assert_non_null(tf);
        assert_int_equal(fwrite(m, 1, f.pbo.len, tf), f.pbo.len);
        assert_int_equal(fflush(tf), 0);
        uint8_t *data = NULL;
        size_t len;
        assert_int_equal(pbo_load_table(NULL, fileno(tf), &q, &err), 0);
        assert_int_equal(pbo_load_entry(NULL, fileno(tf), q, 0, &data, &len, &err), -1);
        assert_non_null(strstr(err.msg, "goes past the end of the archive"));
        assert_null(data);
        pbo_free(q);
        fclose(tf);
    }
    memcpy(m, f.pbo.p, f.pbo.len);
    uint32_t grow = p->entries[6].data_size + 22;
    memcpy(m + fields_at(p, 6) + 16, &grow, 4);
    assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
    assert_int_equal(q->ncut, q->nentries - 6);
    assert_true(q->entries[6].cut && !q->entries[5].cut);
    assert_int_equal(q->data_end, q->entries[6].offset);
    pbo_free(q);
    grow -= 1;     /* exactly to the end: valid, no trailer left */
    memcpy(m + fields_at(p, 6) + 16, &grow, 4);
    assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
    assert_int_equal(q->trailer, PBO_TRAILER_NONE);
    pbo_free(q);

    /* absurd original sizes of compressed entries: refused before allocating */
    memcpy(m, f.pbo.p, f.pbo.len);
    uint32_t huge = 0xFFFFFFFFu;
    memcpy(m + fields_at(p, 1) + 4, &huge, 4);
    assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
    uint8_t *out = (uint8_t *)1;
    size_t out_len = 7;
    const struct pbo_entry *e = &q->entries[1];
    assert_int_equal(pbo_entry_data(q, 1, m + e->offset, e->data_size, &out, &out_len, &err), -1);
    assert_null(out);
    assert_int_equal(out_len, 0);
    assert_non_null(strstr(err.msg, "cannot come from"));
    /* an original size one larger than the stream: it ends early */
    uint32_t more = (uint32_t)f.plain.len + 1;
    memcpy(m + fields_at(p, 1) + 4, &more, 4);
    pbo_free(q);
    assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
    e = &q->entries[1];
    assert_int_equal(pbo_entry_data(q, 1, m + e->offset, e->data_size, &out, &out_len, &err), -1);
    assert_true(err.has_offset && err.offset >= e->offset &&
                err.offset <= e->offset + e->data_size);
    /* one smaller: the checksum no longer matches */
    more -= 2;
    memcpy(m + fields_at(p, 1) + 4, &more, 4);
    pbo_free(q);
    assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
    e = &q->entries[1];
    assert_int_equal(pbo_entry_data(q, 1, m + e->offset, e->data_size, &out, &out_len, &err), -1);
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    assert_non_null(strstr(err.msg, "anims\\Walk.rtm"));
    /* a wrong blob length and a wrong index */
    assert_int_equal(pbo_entry_data(q, 1, m + e->offset, e->data_size - 1, &out, &out_len, &err), -1);
    assert_int_equal(pbo_entry_data(q, 99, m, 0, &out, &out_len, &err), -1);
    pbo_free(q);

    /* encrypted and unknown methods: the table reads, the entry does not */
    static const uint32_t methods[] = { PBO_METHOD_ENCR, 0x12345678u };
    for (size_t s = 0; s < 2; s++) {
        memcpy(m, f.pbo.p, f.pbo.len);
        memcpy(m + fields_at(p, 0), &methods[s], 4);
        assert_int_equal(pbo_read_table(m, f.pbo.len, f.pbo.len, &q, &err), 0);
        e = &q->entries[0];
        assert_int_equal(pbo_entry_data(q, 0, m + e->offset, e->data_size, &out, &out_len, &err), -1);
        assert_non_null(strstr(err.msg, "not supported"));
        pbo_free(q);
    }
    free(m);
    pbo_free(p);
    pbo_fixture_free(&f);
}

static void bad_names(void **state)
{
    (void)state;
    struct rtm_error err;
    struct pbo *p = NULL;
    /* a name without a NUL, longer than the cap: an error even with more bytes */
    size_t n = PBO_NAME_MAX + 100;
    uint8_t *m = malloc(n);
    memset(m, 'a', n);
    assert_int_equal(pbo_read_table(m, n, n, &p, &err), -1);
    assert_non_null(strstr(err.msg, "longer than"));
    assert_int_equal(pbo_read_table(m, n, (uint64_t)n * 10, &p, &err), -1);
    /* shorter than the cap: the file ends inside it, or more bytes are needed */
    assert_int_equal(pbo_read_table(m, 100, 100, &p, &err), -1);
    assert_non_null(strstr(err.msg, "ends inside"));
    assert_int_equal(pbo_read_table(m, 100, 1000, &p, &err), PBO_NEED_MORE);
    /* a name of exactly the cap is fine */
    m[PBO_NAME_MAX] = 0;
    memset(m + PBO_NAME_MAX + 1, 0, 20);
    m[PBO_NAME_MAX + 21] = 0;
    memset(m + PBO_NAME_MAX + 22, 0, 20);
    assert_int_equal(pbo_read_table(m, PBO_NAME_MAX + 42, PBO_NAME_MAX + 42, &p, &err), 0);
    assert_int_equal(p->nentries, 1);
    assert_int_equal(p->entries[0].name_len, PBO_NAME_MAX);
    pbo_free(p);
    free(m);

    /* a property list without its end, and a key over the cap */
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_put(&b, "", 1);
    rtm_buf_put_u32(&b, PBO_METHOD_VERS);
    for (int i = 0; i < 4; i++)
        rtm_buf_put_u32(&b, 0);
    rtm_buf_put(&b, "prefix\0abc", 11);
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), -1);
    for (int i = 0; i < 2000; i++)
        rtm_buf_putc(&b, 'k');
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), -1);
    assert_non_null(strstr(err.msg, "property key longer"));
    rtm_buf_free(&b);

    /* many tiny entries: counts come from the bytes, parsing stays linear */
    rtm_buf_init(&b);
    for (int i = 0; i < 100000; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        rtm_buf_put(&b, name, strlen(name) + 1);
        for (int k = 0; k < 5; k++)
            rtm_buf_put_u32(&b, 0);
    }
    rtm_buf_put(&b, "", 1);
    for (int k = 0; k < 5; k++)
        rtm_buf_put_u32(&b, 0);
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), 0);
    assert_int_equal(p->nentries, 100000);
    assert_int_equal(pbo_find(p, "F99999"), 99999);
    assert_int_equal(pbo_find(p, "f0"), 0);
    pbo_free(p);
    rtm_buf_free(&b);

    /* an archive that is only the Vers header, with no end entry */
    static const uint8_t vers[] = { 0, 's', 'r', 'e', 'V', 0, 0, 0, 0, 0, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0, 0 };
    assert_int_equal(pbo_read_table(vers, sizeof vers, sizeof vers, &p, &err), -1);
    assert_int_equal(exercise(vers, 0, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(truncation_every_byte),
        cmocka_unit_test(random_flips),
        cmocka_unit_test(bad_sizes),
        cmocka_unit_test(bad_names),
    };
    return run_test_cases(tests, NULL, NULL);
}
