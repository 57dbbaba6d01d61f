/* test_pbo.c - the PBO reader (pbo.h) and the project's PBO writer.
 *
 * Archives come from pbo_write(): stored, "Cprs" and OFP-style entries,
 * nested folders, a prefix property, the RTM samples and, when
 * ../shared/corpus exists, every real .rtm file of the corpus.  LZSS streams
 * that the writer would never produce (references before the start, cut
 * streams, bad checksums, distance 0) are built by hand.
 *
 * Bad input: every truncation of a generated archive read as a whole file,
 * every prefix given to pbo_read_table() as the head of the full archive,
 * deterministic random byte flips (RTMFS_MUTANTS, default 2000), data ranges
 * past the end, absurd sizes and names without a NUL.  Each input is a
 * private heap copy of exactly its bytes, so ASan sees any over-read; each
 * parse is a clean error or a table whose entries all decode or fail cleanly.
 */
#include "testutil.h"

#include "pbo.h"
#include "pbo_write.h"

/* ---- helpers ------------------------------------------------------------- */

static void hex20(const uint8_t d[20], char out[41])
{
    for (int i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static struct pbo *parse_full(const struct rtm_buf *b)
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

static int decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
                  struct rtm_error *err)
{
    uint8_t *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    if (n)
        memcpy(copy, src, n);
    size_t used = 0;
    int rc = pbo_lzss_decode(copy, n, out, out_len, &used, 0, err);
    if (rc == 0)
        assert_true(used <= n);
    free(copy);
    return rc;
}

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

static uint8_t *text_bytes(size_t n, uint32_t seed)
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

static uint8_t *random_bytes(size_t n, uint32_t seed)
{
    uint8_t *t = malloc(n ? n : 1);
    assert_non_null(t);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        t[i] = (uint8_t)(seed >> 16);
    }
    return t;
}

/* ---- SHA-1 and LZSS ------------------------------------------------------ */

static void sha1_vectors(void **state)
{
    (void)state;
    uint8_t d[20];
    char hex[41];
    pbo_sha1((const uint8_t *)"abc", 3, d);
    hex20(d, hex);
    assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
    pbo_sha1((const uint8_t *)"", 0, d);
    hex20(d, hex);
    assert_string_equal(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    pbo_sha1((const uint8_t *)two, sizeof two - 1, d);
    hex20(d, hex);
    assert_string_equal(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    uint8_t *m = malloc(1000000);
    assert_non_null(m);
    memset(m, 'a', 1000000);
    pbo_sha1(m, 1000000, d);
    hex20(d, hex);
    assert_string_equal(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(m);
}

static void lzss_round_trips(void **state)
{
    (void)state;
    static const size_t sizes[] = { 0, 1, 2, 3, 7, 8, 9, 17, 64, 4095, 4096, 4097, 20000, 100000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int kind = 0; kind < 3; kind++) {
            size_t n = sizes[s];
            uint8_t *src = kind == 0 ? text_bytes(n, (uint32_t)n)
                         : kind == 1 ? random_bytes(n, (uint32_t)n) : calloc(n ? n : 1, 1);
            assert_non_null(src);
            struct rtm_buf b;
            buf_init(&b);
            assert_int_equal(pbo_lzss_encode(src, n, &b), 0);
            if ((kind == 2 && n >= 64) || (kind == 0 && n >= 4096))
                assert_true(b.len < n / 2);    /* back-references were used */
            uint8_t *out = malloc(n ? n : 1);
            struct rtm_error err;
            if (decode((const uint8_t *)b.p, b.len, out, n, &err))
                fail_msg("size %zu kind %d: %s", n, kind, err.msg);
            if (n)
                assert_memory_equal(out, src, n);
            free(out);
            free(src);
            buf_free(&b);
        }
    }
}

/* Streams the writer never produces, decoded by the rule in pbo.c. */
static void lzss_hand_streams(void **state)
{
    (void)state;
    uint8_t out[32];
    struct rtm_error err;
    /* literal 'A', then rpos 3 rlen 5 from position 1: two spaces before the
     * start, then 'A', ' ', ' ' copied from the output itself */
    static const uint8_t before[] = { 0x01, 'A', 0x03, 0x02,
                                      0x02, 0x01, 0, 0 };   /* 2 * 'A' + 4 * ' ' */
    assert_int_equal(decode(before, sizeof before, out, 6, &err), 0);
    assert_memory_equal(out, "A  A  ", 6);
    /* a reference entirely before the start: spaces only */
    static const uint8_t spaces[] = { 0x00, 0xFF, 0xFF, 0x40, 0x02, 0, 0 };   /* 18 * ' ' */
    assert_int_equal(decode(spaces, sizeof spaces, out, 18, &err), 0);
    for (int i = 0; i < 18; i++)
        assert_int_equal(out[i], ' ');
    /* an overlapping run: 'a' then rpos 1 rlen 18 */
    static const uint8_t run[] = { 0x01, 'a', 0x01, 0x0F, (19 * 'a') & 0xFF, (19 * 'a') >> 8, 0, 0 };
    assert_int_equal(decode(run, sizeof run, out, 19, &err), 0);
    for (int i = 0; i < 19; i++)
        assert_int_equal(out[i], 'a');
    /* output ends inside a reference: the checksum follows the reference */
    static const uint8_t stop[] = { 0x01, 'a', 0x01, 0x0F, (5 * 'a') & 0xFF, (5 * 'a') >> 8, 0, 0 };
    assert_int_equal(decode(stop, sizeof stop, out, 5, &err), 0);
    assert_memory_equal(out, "aaaaa", 5);
    /* every cut of a valid stream is an error, never an over-read */
    for (size_t cut = 0; cut < sizeof before; cut++) {
        assert_int_equal(decode(before, cut, out, 6, &err), -1);
        assert_true(err.has_offset && err.offset <= cut);
    }
    /* a wrong checksum */
    uint8_t bad[sizeof before];
    memcpy(bad, before, sizeof bad);
    bad[4] ^= 1;
    assert_int_equal(decode(bad, sizeof bad, out, 6, &err), -1);
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    /* distance 0 */
    static const uint8_t zero[] = { 0x00, 0x00, 0x00, 0, 0, 0, 0 };
    assert_int_equal(decode(zero, sizeof zero, out, 3, &err), -1);
    assert_non_null(strstr(err.msg, "distance 0"));
    /* an empty output is just the checksum 0 */
    static const uint8_t empty[] = { 0, 0, 0, 0 };
    assert_int_equal(decode(empty, sizeof empty, out, 0, &err), 0);
    assert_int_equal(decode(empty, 3, out, 0, &err), -1);
}

/* ---- archives ------------------------------------------------------------ */

struct fixture {
    struct rtm_buf pbo;
    struct rtm_buf plain, bmtr;
    uint8_t *text;
    size_t text_len;
};

static const struct pbo_write_prop fixture_props[] = {
    { "prefix", "x\\walkmod\\addons\\anims" },
    { "product", "arma3" },
    { "version", "1.0" },
};

static void fixture_build(struct fixture *f, unsigned flags)
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

static void fixture_free(struct fixture *f)
{
    buf_free(&f->pbo);
    buf_free(&f->plain);
    buf_free(&f->bmtr);
    free(f->text);
}

static void archive_round_trip(void **state)
{
    (void)state;
    struct fixture f;
    fixture_build(&f, 0);
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
    buf_init(&b);
    const struct pbo_write_entry one = { "x.rtm", (const uint8_t *)f.plain.p, f.plain.len,
                                         PBO_PACK_STORE, 0 };
    assert_int_equal(pbo_write(&one, 1, NULL, 0, PBO_WRITE_NO_VERS | PBO_WRITE_NO_TRAILER, &b), 0);
    struct pbo *q = parse_full(&b);
    assert_int_equal(q->nprops, 0);
    assert_int_equal(q->nentries, 1);
    assert_int_equal(q->trailer, PBO_TRAILER_NONE);
    assert_int_equal(q->table_bytes, 6 + 20 + 1 + 20);
    pbo_free(q);
    buf_free(&b);
    assert_int_equal(pbo_write(NULL, 0, NULL, 0, 0, &b), 0);
    q = parse_full(&b);
    assert_int_equal(q->nentries, 0);
    assert_int_equal(q->trailer, PBO_TRAILER_SHA1);
    assert_int_equal(pbo_find(q, "x"), -1);
    pbo_free(q);
    buf_free(&b);
    /* names the writer refuses */
    const struct pbo_write_entry noname = { "", NULL, 0, PBO_PACK_STORE, 0 };
    assert_int_equal(pbo_write(&noname, 1, NULL, 0, 0, &b), -1);
    buf_free(&b);
    pbo_free(p);
    fixture_free(&f);
}

static void lookup_case_insensitive(void **state)
{
    (void)state;
    struct fixture f;
    fixture_build(&f, 0);
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
    fixture_free(&f);

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
    buf_init(&b);
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
    buf_free(&b);
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
        { "CONFIG.cpp", x, 1, PBO_PACK_STORE, 0 },      /* a duplicate: listed once */
        { "both", x, 1, PBO_PACK_STORE, 0 },            /* a file and a folder: the file */
        { "both\\hidden.rtm", x, 1, PBO_PACK_STORE, 0 },
        { "\\\\", x, 1, PBO_PACK_STORE, 0 },            /* no name at all: not listed */
    };
    struct rtm_buf b;
    buf_init(&b);
    assert_int_equal(pbo_write(e, sizeof e / sizeof e[0], NULL, 0, 0, &b), 0);
    struct pbo *p = parse_full(&b);
    struct listing l;
    /* in path order; a folder is spelt as its first path in that order spells it */
    assert_string_equal(list(p, "", &l), "anims-x.txt anims/ both config.cpp ");
    assert_string_equal(list(p, "anims", &l), "b/ Walk.rtm ");
    assert_string_equal(list(p, "ANIMS\\B", &l), "c.rtm d.rtm ");
    assert_string_equal(list(p, "/anims//b/", &l), "c.rtm d.rtm ");
    assert_string_equal(list(p, "anims/walk.rtm", &l), "(not a dir)");
    assert_string_equal(list(p, "both", &l), "(not a dir)");
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
    assert_int_equal(pbo_lookup(p, "both", &i), PBO_FILE);
    assert_int_equal(pbo_lookup(p, "both/hidden.rtm", &i), PBO_FILE);   /* by its full name */
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
    buf_free(&b);
}

/* A caller that reads the head of a big archive: every prefix shorter than
 * the table asks for more, every longer one gives the same table. */
static void table_from_head(void **state)
{
    (void)state;
    struct fixture f;
    fixture_build(&f, 0);
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
    fixture_free(&f);
}

static void truncation_every_byte(void **state)
{
    (void)state;
    for (unsigned flags = 0; flags < 2; flags++) {
        struct fixture f;
        fixture_build(&f, flags ? PBO_WRITE_NO_VERS : 0);
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
        fixture_free(&f);
    }
}

static void random_flips(void **state)
{
    (void)state;
    const char *env = getenv("RTMFS_MUTANTS");
    long mutants = env ? atol(env) : 2000;
    struct fixture f;
    fixture_build(&f, 0);
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
    fixture_free(&f);
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
    fixture_build(&f, 0);
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
    fixture_free(&f);
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
    buf_init(&b);
    buf_put(&b, "", 1);
    buf_put_u32(&b, PBO_METHOD_VERS);
    for (int i = 0; i < 4; i++)
        buf_put_u32(&b, 0);
    buf_put(&b, "prefix\0abc", 11);
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), -1);
    for (int i = 0; i < 2000; i++)
        buf_putc(&b, 'k');
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), -1);
    assert_non_null(strstr(err.msg, "property key longer"));
    buf_free(&b);

    /* many tiny entries: counts come from the bytes, parsing stays linear */
    buf_init(&b);
    for (int i = 0; i < 100000; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        buf_put(&b, name, strlen(name) + 1);
        for (int k = 0; k < 5; k++)
            buf_put_u32(&b, 0);
    }
    buf_put(&b, "", 1);
    for (int k = 0; k < 5; k++)
        buf_put_u32(&b, 0);
    assert_int_equal(pbo_read_table((uint8_t *)b.p, b.len, b.len, &p, &err), 0);
    assert_int_equal(p->nentries, 100000);
    assert_int_equal(pbo_find(p, "F99999"), 99999);
    assert_int_equal(pbo_find(p, "f0"), 0);
    pbo_free(p);
    buf_free(&b);

    /* an archive that is only the Vers header, with no end entry */
    static const uint8_t vers[] = { 0, 's', 'r', 'e', 'V', 0, 0, 0, 0, 0, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0, 0 };
    assert_int_equal(pbo_read_table(vers, sizeof vers, sizeof vers, &p, &err), -1);
    assert_int_equal(exercise(vers, 0, 0), -1);
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
    buf_init(&b);
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
    buf_free(&b);
    for (size_t i = 0; i < n; i++) {
        buf_free(&files[i]);
        free(names[i]);
    }
    free(text);
    free(man);
}

/* A head of n bytes needs at most pbo_lzss_src_max(n) stored bytes, also
 * when its last item is a reference of which one byte is wanted (a stream
 * that starts with one needs 3 bytes for its first byte; fuzz_pbo found
 * the bound said 2). */
static void lzss_head_bound(void **state)
{
    (void)state;
    /* flags: 1 reference (distance 1, 3 bytes: spaces), then 7 literals */
    static const uint8_t stream[] = { 0xFE, 0x01, 0x00, 'a', 'b', 'c', 'd', 'e', 'f', 'g',
                                      0x00, 0x03, 0x00 };
    static const char content[] = "   abcdefgefg";
    uint8_t out[16];
    for (size_t n = 0; n <= sizeof content - 1; n++) {
        struct rtm_error err = { .msg = "" };
        size_t src = pbo_lzss_src_max(n);
        assert_true(src >= (n ? 3 : 0));
        if (src > sizeof stream)
            src = sizeof stream;
        assert_int_equal(pbo_lzss_decode_head(stream, src, out, n, 0, &err), 0);
        assert_memory_equal(out, content, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha1_vectors),
        cmocka_unit_test(lzss_round_trips),
        cmocka_unit_test(lzss_hand_streams),
        cmocka_unit_test(archive_round_trip),
        cmocka_unit_test(lookup_case_insensitive),
        cmocka_unit_test(tree_lookup_and_list),
        cmocka_unit_test(table_from_head),
        cmocka_unit_test(truncation_every_byte),
        cmocka_unit_test(random_flips),
        cmocka_unit_test(bad_sizes),
        cmocka_unit_test(bad_names),
        cmocka_unit_test(corpus_inside),
        cmocka_unit_test(lzss_head_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
