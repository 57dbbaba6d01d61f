/* test_pbo.c - the PBO reader (pbo.h) and the project's PBO writer.
 *
 * Archives come from pbo_write() (the fixture of pbo_testutil.h: stored,
 * "Cprs" and OFP-style entries, nested folders, a prefix property, the RTM
 * samples) and, when ../shared/corpus exists, hold every real .rtm file of
 * the corpus: read back whole and entry by entry, looked up ignoring case,
 * listed as a tree, and read from the head of the archive alone.  SHA-1 and
 * LZSS: test_pbo_lzss; archives broken on purpose: test_pbo_badinput. */
#include "testutil.h"
#include "pbo_testutil.h"

/* ---- helpers ------------------------------------------------------------- */

/* The content of entry i, read from its range only (a private copy). */
static uint8_t *entry_content(const struct pbo *p, const struct rtm_buf *b, size_t i,
                              size_t *len)
{
    const struct pbo_entry *e = &p->entries[i];
    assert_true(e->offset + e->data_size <= b->len);
    uint8_t *blob = malloc(e->data_size ? e->data_size : 1);
    assert_non_null(blob);
    memcpy(blob, b->p + e->offset, e->data_size);
    uint8_t *out = NULL;
    struct rtm_error err;
    if (pbo_entry_data(p, i, blob, e->data_size, &out, len, &err))
        fail_msg("entry %s: %s (at byte %llu)", e->name, err.msg,
                 (unsigned long long)err.offset);
    free(blob);
    assert_non_null(out);
    return out;
}

/* ---- archives ------------------------------------------------------------ */

static void archive_round_trip(void **state)
{
    (void)state;
    struct fixture f;
    pbo_fixture_build(&f, 0);
    struct pbo *p = parse_full(&f.pbo);
    assert_int_equal(p->nprops, 3);
    assert_string_equal(pbo_prop(p, "prefix"), "x\\walkmod\\addons\\anims");
    assert_string_equal(p->props[1].key, "product");
    assert_string_equal(p->props[2].value, "1.0");
    assert_null(pbo_prop(p, "Prefix"));
    assert_int_equal(p->nentries, 7);
    assert_string_equal(p->entries[1].name, "anims\\Walk.rtm");
    assert_string_equal(p->entries[1].path, "anims/Walk.rtm");
    assert_string_equal(p->entries[2].path, "a/b/c.rtm");
    assert_true(p->nentries <= 7);
    assert_int_equal(p->entries[0].timestamp, 1700000000);
    assert_int_equal(p->entries[1].method, PBO_METHOD_CPRS);
    assert_int_equal(p->entries[1].original_size, f.plain.len);
    assert_true(p->entries[1].data_size < f.plain.len);
    assert_int_equal(p->entries[4].method, 0);
    assert_true(pbo_entry_compressed(&p->entries[4]));
    assert_false(pbo_entry_compressed(&p->entries[2]));
    /* offsets: contiguous after the table */
    uint64_t off = p->table_bytes;
    for (size_t i = 0; i < p->nentries; i++) {
        assert_int_equal(p->entries[i].offset, off);
        off += p->entries[i].data_size;
    }
    assert_int_equal(p->data_end, off);
    /* the trailer: a zero byte and the SHA-1 of everything before it */
    assert_int_equal(p->trailer, PBO_TRAILER_SHA1);
    assert_int_equal(f.pbo.len, p->data_end + 21);
    uint8_t d[20];
    pbo_sha1((const uint8_t *)f.pbo.p, (size_t)p->data_end, d);
    assert_memory_equal(p->sha1, d, 20);
    /* contents */
    const struct { size_t i; const void *want; size_t len; } want[] = {
        { 0, f.text, f.text_len }, { 1, f.plain.p, f.plain.len },
        { 2, f.bmtr.p, f.bmtr.len }, { 3, f.bmtr.p, f.bmtr.len },
        { 4, f.text, f.text_len }, { 5, "", 0 }, { 6, "", 0 },
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        size_t n;
        uint8_t *c = entry_content(p, &f.pbo, want[k].i, &n);
        assert_int_equal(n, want[k].len);
        if (n)
            assert_memory_equal(c, want[k].want, n);
        if (strstr(p->entries[want[k].i].name, ".rtm")) {
            struct rtm_buf rb = { .p = (char *)c, .len = n, .cap = n };
            rtm_free(parse_ok(&rb, "ofp2"));
        }
        free(c);
    }
    /* the writer's other shapes */
    struct rtm_buf b;
    rtm_buf_init(&b);
    const struct pbo_write_entry one = { "x.rtm", (const uint8_t *)f.plain.p, f.plain.len,
                                         PBO_PACK_STORE, 0 };
    assert_int_equal(pbo_write(&one, 1, NULL, 0, PBO_WRITE_NO_VERS | PBO_WRITE_NO_TRAILER, &b), 0);
    struct pbo *q = parse_full(&b);
    assert_int_equal(q->nprops, 0);
    assert_int_equal(q->nentries, 1);
    assert_int_equal(q->trailer, PBO_TRAILER_NONE);
    assert_int_equal(q->table_bytes, 6 + 20 + 1 + 20);
    pbo_free(q);
    rtm_buf_free(&b);
    assert_int_equal(pbo_write(NULL, 0, NULL, 0, 0, &b), 0);
    q = parse_full(&b);
    assert_int_equal(q->nentries, 0);
    assert_int_equal(q->trailer, PBO_TRAILER_SHA1);
    assert_int_equal(pbo_find(q, "x"), -1);
    pbo_free(q);
    rtm_buf_free(&b);
    /* names the writer refuses */
    const struct pbo_write_entry noname = { "", NULL, 0, PBO_PACK_STORE, 0 };
    assert_int_equal(pbo_write(&noname, 1, NULL, 0, 0, &b), -1);
    rtm_buf_free(&b);
    pbo_free(p);
    pbo_fixture_free(&f);
}

static void lookup_case_insensitive(void **state)
{
    (void)state;
    struct fixture f;
    pbo_fixture_build(&f, 0);
    struct pbo *p = parse_full(&f.pbo);
    assert_int_equal(pbo_find(p, "anims/walk.rtm"), 1);
    assert_int_equal(pbo_find(p, "ANIMS\\WALK.RTM"), 1);
    assert_int_equal(pbo_find(p, "/anims//./Walk.rtm"), 1);
    assert_int_equal(pbo_find(p, "A/B/C.RTM"), 2);
    assert_int_equal(pbo_find(p, "a\\b\\d.rtm"), 3);
    assert_int_equal(pbo_find(p, "CONFIG.CPP"), 0);
    assert_int_equal(pbo_find(p, "a/b"), -1);        /* a folder, not an entry */
    assert_int_equal(pbo_find(p, "a/b/c.rt"), -1);
    assert_int_equal(pbo_find(p, "a/b/c.rtmx"), -1);
    assert_int_equal(pbo_find(p, ""), -1);
    assert_int_equal(pbo_find(p, "zzz"), -1);
    pbo_free(p);
    pbo_fixture_free(&f);

    /* duplicates (any case) give the first; odd names are normalised */
    static const uint8_t x[] = "x";
    const struct pbo_write_entry e[] = {
        { "Dup.rtm", x, 1, PBO_PACK_STORE, 0 },
        { "dup.RTM", x, 1, PBO_PACK_STORE, 0 },
        { "\\lead\\..\\.\\odd.txt", x, 1, PBO_PACK_STORE, 0 },
        { "..", x, 1, PBO_PACK_STORE, 0 },
        { "m/ixed\\seps", x, 1, PBO_PACK_STORE, 0 },
    };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(e, 5, NULL, 0, 0, &b), 0);
    p = parse_full(&b);
    assert_int_equal(pbo_find(p, "DUP.rtm"), 0);
    assert_string_equal(p->entries[2].path, "lead/odd.txt");
    assert_int_equal(pbo_find(p, "lead/odd.txt"), 2);
    assert_string_equal(p->entries[3].path, "");
    assert_int_equal(pbo_find(p, ".."), -1);
    assert_string_equal(p->entries[4].path, "m/ixed/seps");
    char big[PBO_NAME_MAX + 10];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    assert_int_equal(pbo_find(p, big), -1);
    pbo_free(p);
    rtm_buf_free(&b);
}

/* ---- the archive as a tree ---------------------------------------------- */

struct listing {
    char text[512];
};

static int add_child(void *arg, const char *name, size_t len, long entry)
{
    struct listing *l = arg;
    size_t n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, "%.*s%s ", (int)len, name, entry < 0 ? "/" : "");
    return 0;
}

static const char *list(const struct pbo *p, const char *dir, struct listing *l)
{
    l->text[0] = 0;
    return pbo_list(p, dir, add_child, l) ? "(not a dir)" : l->text;
}

static int stop_at_two(void *arg, const char *name, size_t len, long entry)
{
    (void)name, (void)len, (void)entry;
    return ++*(int *)arg == 2 ? 7 : 0;
}

static void tree_lookup_and_list(void **state)
{
    (void)state;
    static const uint8_t x[] = "x";
    const struct pbo_write_entry e[] = {
        { "Anims\\Walk.rtm", x, 1, PBO_PACK_STORE, 0 },
        { "anims\\b\\c.rtm", x, 1, PBO_PACK_STORE, 0 },
        { "ANIMS\\B\\d.rtm", x, 1, PBO_PACK_STORE, 0 },
        { "anims-x.txt", x, 1, PBO_PACK_STORE, 0 },     /* sorts between anims and anims/ */
        { "config.cpp", x, 1, PBO_PACK_STORE, 0 },
        { "CONFIG.cpp", x, 1, PBO_PACK_STORE, 0 },      /* a duplicate: CONFIG~6.cpp */
        { "both", x, 1, PBO_PACK_STORE, 0 },            /* a file and a folder: both~7 */
        { "both\\hidden.rtm", x, 1, PBO_PACK_STORE, 0 },
        { "\\\\", x, 1, PBO_PACK_STORE, 0 },            /* no name at all: not listed */
    };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(e, sizeof e / sizeof e[0], NULL, 0, 0, &b), 0);
    struct pbo *p = parse_full(&b);
    struct listing l;
    /* in path order; a folder is spelt as its first path in that order spells it */
    assert_string_equal(list(p, "", &l), "anims-x.txt anims/ both/ both~7 config.cpp CONFIG~6.cpp ");
    assert_string_equal(list(p, "anims", &l), "b/ Walk.rtm ");
    assert_string_equal(list(p, "ANIMS\\B", &l), "c.rtm d.rtm ");
    assert_string_equal(list(p, "/anims//b/", &l), "c.rtm d.rtm ");
    assert_string_equal(list(p, "anims/walk.rtm", &l), "(not a dir)");
    assert_string_equal(list(p, "both", &l), "hidden.rtm ");
    assert_string_equal(list(p, "nope", &l), "(not a dir)");
    assert_string_equal(list(p, "anim", &l), "(not a dir)");
    long i;
    assert_int_equal(pbo_lookup(p, "", &i), PBO_DIR);
    assert_int_equal(i, -1);
    assert_int_equal(pbo_lookup(p, "anims", &i), PBO_DIR);
    assert_int_equal(pbo_lookup(p, "Anims/B", &i), PBO_DIR);
    assert_int_equal(pbo_lookup(p, "anims/b/D.RTM", &i), PBO_FILE);
    assert_int_equal(i, 2);
    assert_int_equal(pbo_lookup(p, "config.cpp", &i), PBO_FILE);
    assert_int_equal(i, 4);
    assert_int_equal(pbo_lookup(p, "both", &i), PBO_DIR);
    assert_int_equal(pbo_lookup(p, "both~7", &i), PBO_FILE);
    assert_int_equal(i, 6);
    assert_int_equal(pbo_lookup(p, "config~6.CPP", &i), PBO_FILE);
    assert_int_equal(i, 5);
    assert_int_equal(pbo_lookup(p, "both/hidden.rtm", &i), PBO_FILE);
    assert_int_equal(pbo_lookup(p, "anims/b/c", &i), PBO_NONE);
    assert_int_equal(pbo_lookup(p, "anim", &i), PBO_NONE);
    assert_int_equal(pbo_lookup(p, "anims/walk.rtm/x", &i), PBO_NONE);
    int calls = 0;
    assert_int_equal(pbo_list(p, "", stop_at_two, &calls), 7);
    assert_int_equal(calls, 2);
    pbo_free(p);

    /* an empty archive is an empty root */
    b.len = 0;
    assert_int_equal(pbo_write(NULL, 0, NULL, 0, 0, &b), 0);
    p = parse_full(&b);
    assert_string_equal(list(p, "", &l), "");
    assert_int_equal(pbo_lookup(p, "x", &i), PBO_NONE);
    pbo_free(p);
    rtm_buf_free(&b);
}

/* A caller that reads the head of a big archive: every prefix shorter than
 * the table asks for more, every longer one gives the same table. */
static void table_from_head(void **state)
{
    (void)state;
    struct fixture f;
    pbo_fixture_build(&f, 0);
    struct pbo *full = parse_full(&f.pbo);
    for (size_t len = 0; len <= f.pbo.len; len++) {
        struct pbo *p = NULL;
        struct rtm_error err;
        uint8_t *copy = malloc(len ? len : 1);
        memcpy(copy, f.pbo.p, len);
        int rc = pbo_read_table(copy, len, f.pbo.len, &p, &err);
        if (len < full->table_bytes) {
            assert_int_equal(rc, PBO_NEED_MORE);
            assert_null(p);
            assert_non_null(strstr(err.msg, "need more bytes"));
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(p->nentries, full->nentries);
            assert_int_equal(p->nprops, full->nprops);
            assert_int_equal(p->data_end, full->data_end);
            assert_int_equal(p->trailer, len == f.pbo.len ? PBO_TRAILER_SHA1
                                                          : PBO_TRAILER_UNKNOWN);
            if (len == full->table_bytes) {
                /* a caller that reads the trailer itself */
                pbo_set_trailer(p, (const uint8_t *)f.pbo.p + p->data_end, 21);
                assert_int_equal(p->trailer, PBO_TRAILER_SHA1);
                assert_memory_equal(p->sha1, full->sha1, 20);
            }
            pbo_free(p);
        }
        free(copy);
    }
    /* more bytes than the file: a caller's mistake, refused */
    struct pbo *p = NULL;
    struct rtm_error err;
    assert_int_equal(pbo_read_table((const uint8_t *)f.pbo.p, f.pbo.len, f.pbo.len - 1,
                                    &p, &err), -1);
    pbo_free(full);
    pbo_fixture_free(&f);
}

/* The table from a file whatever the first read's size (1 byte, 4 KiB,
 * the whole file and more): the same entries as pbo_load_table's; the
 * bytes read grow with what the table needs, not with the file.  The
 * trailer is read only when the table's reads reach it, else by
 * pbo_load_tail, which reads its 21 bytes and nothing once it is known. */
static void table_from_file_any_first_read(void **state)
{
    (void)state;
    struct fixture f;
    pbo_fixture_build(&f, 0);
    struct pbo *full = parse_full(&f.pbo);
    FILE *tf = tmpfile();
    assert_non_null(tf);
    assert_int_equal(fwrite(f.pbo.p, 1, f.pbo.len, tf), f.pbo.len);
    assert_int_equal(fflush(tf), 0);
    const size_t firsts[] = { 0, 1, 7, 4096, f.pbo.len, f.pbo.len + 100 };
    for (size_t k = 0; k < sizeof firsts / sizeof *firsts; k++) {
        struct pbo *p = NULL;
        struct rtm_error err = { .msg = "" };
        struct rtm_work work = { 0 };
        assert_int_equal(pbo_load_table_first(&work, fileno(tf), firsts[k], &p, &err), 0);
        assert_int_equal(p->nentries, full->nentries);
        assert_int_equal(p->table_bytes, full->table_bytes);
        for (size_t i = 0; i < p->nentries; i++)
            assert_string_equal(p->entries[i].path, full->entries[i].path);
        uint64_t read = rtm_work_get(&work, RTM_WORK_BYTES);
        if (firsts[k] && firsts[k] < full->table_bytes)   /* doubled until whole */
            assert_true(read < 4 * full->table_bytes + 4 * firsts[k]);
        int whole = firsts[k] >= f.pbo.len;
        assert_int_equal(p->trailer, whole ? PBO_TRAILER_SHA1 : PBO_TRAILER_UNKNOWN);
        uint8_t tail[PBO_TAIL_MAX], sha1[20];
        long n = pbo_load_tail(&work, fileno(tf), p, tail, &err);
        assert_int_equal(n, whole ? 0 : PBO_TAIL_MAX);
        assert_int_equal(rtm_work_get(&work, RTM_WORK_BYTES), read + (uint64_t)n);
        assert_int_equal(whole ? p->trailer : pbo_trailer_of(p, tail, (size_t)n, sha1),
                         PBO_TRAILER_SHA1);
        assert_memory_equal(whole ? p->sha1 : sha1, full->sha1, 20);
        pbo_free(p);
    }
    fclose(tf);
    pbo_free(full);
    pbo_fixture_free(&f);
}

/* Real animations inside archives, when the corpus is present. */
static void corpus_inside(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    char path[4096];
    if (snprintf(path, sizeof path, "%s/corpus/MANIFEST.tsv", dir) >= (int)sizeof path)
        fail_msg("path too long");
    uint8_t *man;
    size_t man_len;
    assert_int_equal(rtm_slurp(path, &man, &man_len), 0);
    enum { MAXF = 1024 };
    struct rtm_buf files[MAXF];
    char *names[MAXF];
    struct pbo_write_entry e[MAXF];
    size_t n = 0;
    char *save = NULL, *text = malloc(man_len + 1);
    memcpy(text, man, man_len);
    text[man_len] = 0;
    for (char *line = strtok_r(text, "\n", &save); line && n < MAXF;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (!tab || strncmp(line, "file\t", 5) == 0)
            continue;
        *tab = 0;
        if (snprintf(path, sizeof path, "%s/corpus/%s", dir, line) >= (int)sizeof path)
            fail_msg("path too long");
        uint8_t *data;
        size_t len;
        if (rtm_slurp(path, &data, &len) != 0)
            fail_msg("cannot read %s", path);
        files[n] = (struct rtm_buf){ .p = (char *)data, .len = len, .cap = len };
        names[n] = strdup(line);
        for (char *c = names[n]; *c; c++)
            if (*c == '/')
                *c = '\\';
        e[n] = (struct pbo_write_entry){ names[n], data, len,
                                         n % 3 == 0 ? PBO_PACK_STORE : PBO_PACK_CPRS, 0 };
        n++;
    }
    assert_true(n > 0);
    static const struct pbo_write_prop pr[] = { { "prefix", "corpus" } };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(e, n, pr, 1, 0, &b), 0);
    struct pbo *p = parse_full(&b);
    assert_int_equal(p->nentries, n);
    for (size_t i = 0; i < n; i++) {
        char lower[1100];
        snprintf(lower, sizeof lower, "%s", names[i]);
        for (char *c = lower; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        long k = pbo_find(p, lower);
        assert_true(k >= 0);
        size_t len;
        uint8_t *c = entry_content(p, &b, (size_t)k, &len);
        assert_int_equal(len, files[i].len);
        assert_memory_equal(c, files[i].p, len);
        struct rtm_buf rb = { .p = (char *)c, .len = len, .cap = len };
        rtm_free(parse_ok(&rb, "ofp2"));
        free(c);
    }
    fprintf(stderr, "corpus_inside: %zu real files in a %zu-byte archive\n", n, b.len);
    pbo_free(p);
    rtm_buf_free(&b);
    for (size_t i = 0; i < n; i++) {
        rtm_buf_free(&files[i]);
        free(names[i]);
    }
    free(text);
    free(man);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(archive_round_trip),
        cmocka_unit_test(lookup_case_insensitive),
        cmocka_unit_test(tree_lookup_and_list),
        cmocka_unit_test(table_from_head),
        cmocka_unit_test(table_from_file_any_first_read),
        cmocka_unit_test(corpus_inside),
    };
    return run_test_cases(tests, NULL, NULL);
}
