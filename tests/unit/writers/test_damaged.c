/* test_damaged.c - the damaged trees (damaged.h, rtmgen -D): the same seed
 * gives the same files and manifest, another seed others; every kind and
 * every damage is there; and each animation's kind is what the parser
 * says of its bytes, among them files whose head reads and whose full
 * parse fails. */
#include "testutil.h"

#include "damaged.h"
#include "pbo_tricks.h"

#include "corpus_mix.h"

/* What one run handed out: a digest of everything, and the counts. */
struct seen {
    uint64_t hash;
    unsigned kinds[DMG_KINDS], rows, damaged, files;
    unsigned checked;               /* loose animations re-classified here */
    unsigned loose_full_fails;
    char tags[32][16];              /* the damages met ("cut", "lzo", ...) */
    unsigned ntags;
    struct rtm_skeleton *skel;
    /* the last loose animation's bytes, for its row (rows follow files) */
    uint8_t *last;
    size_t last_len;
    char last_path[512];
};

static void fnv(uint64_t *h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ b[i]) * 0x100000001b3u;
}

static int on_file(void *ctx, const char *path, const uint8_t *data, size_t len)
{
    struct seen *s = ctx;
    fnv(&s->hash, path, strlen(path) + 1);
    fnv(&s->hash, data, len);
    s->files++;
    free(s->last);
    s->last = malloc(len ? len : 1);
    assert_non_null(s->last);
    memcpy(s->last, data, len);
    s->last_len = len;
    snprintf(s->last_path, sizeof s->last_path, "%s", path);
    return 0;
}

/* The kind a loose animation's bytes have, asked of the parser here. */
static enum damaged_kind kind_of(const struct seen *s, const char *what)
{
    struct rtm_parse_opts o = { .skel = s->skel };
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    uint64_t need;
    if (rtm_parse_head(s->last, s->last_len, s->last_len, &o, &a, &need, &err)) {
        assert_null(a);
        return DMG_HEAD_FAILS;
    }
    rtm_free(a);
    a = NULL;
    int full = rtm_parse(s->last, s->last_len, s->skel, &a, &err);
    rtm_free(a);
    return full ? DMG_FULL_FAILS : strncmp(what, "none:", 5) ? DMG_PARSES : DMG_GOOD;
}

static int on_note(void *ctx, const char *path, enum damaged_kind kind, const char *what)
{
    struct seen *s = ctx;
    fnv(&s->hash, path, strlen(path) + 1);
    fnv(&s->hash, &kind, sizeof kind);
    fnv(&s->hash, what, strlen(what) + 1);
    assert_true((unsigned)kind < DMG_KINDS);
    assert_null(strpbrk(what, "\t\n"));
    s->kinds[kind]++;
    s->rows++;
    s->damaged += strncmp(what, "none:", 5) != 0;
    size_t tag = strcspn(what, ":");
    assert_true(tag > 0 && tag < 16 && what[tag] == ':');
    unsigned t = 0;
    while (t < s->ntags && (strncmp(s->tags[t], what, tag) || s->tags[t][tag]))
        t++;
    if (t == s->ntags && t < 32)
        snprintf(s->tags[s->ntags++], 16, "%.*s", (int)tag, what);
    /* a loose animation's row follows its file: its kind is checked here */
    size_t n = strlen(path);
    if (!strstr(path, ".pbo/") && n > 4 && !strcmp(path + n - 4, ".rtm")) {
        assert_string_equal(path, s->last_path);
        enum damaged_kind want = kind_of(s, what);
        if (want != kind)
            fail_msg("%s: noted %s, the parser says %s (%s)", path, damaged_kind_name(kind),
                     damaged_kind_name(want), what);
        s->checked++;
        s->loose_full_fails += kind == DMG_FULL_FAILS;
    }
    return 0;
}

static void run(struct seen *s, unsigned n, uint64_t seed, int real_mix)
{
    static struct damaged_mix mix[sizeof CORPUS_MIX / sizeof CORPUS_MIX[0]];
    size_t nmix = sizeof CORPUS_MIX / sizeof CORPUS_MIX[0];
    for (size_t i = 0; i < nmix; i++)
        mix[i] = (struct damaged_mix){ CORPUS_MIX[i].version, CORPUS_MIX[i].frames,
                                       CORPUS_MIX[i].bones };
    struct rtm_error err;
    memset(s, 0, sizeof *s);
    s->hash = 0xcbf29ce484222325u;
    assert_int_equal(rtm_skeleton_open("ofp2", &s->skel, &err), 0);
    struct damaged_opts o = { .n = n, .seed = seed, .mix = real_mix ? mix : NULL, .nmix = nmix,
                              .max_frames = 12 };
    struct damaged_out out = { on_file, on_note, s };
    int rc = damaged_tree(&o, &out, &err);
    if (rc)
        fail_msg("damaged_tree: %s", err.msg);
    rtm_skeleton_free(s->skel);
    free(s->last);
    s->last = NULL;
}

static void same_seed_same_tree(void **state)
{
    (void)state;
    struct seen a, b, c;
    run(&a, 80, 7, 1);
    run(&b, 80, 7, 1);
    run(&c, 80, 8, 1);
    assert_true(a.hash == b.hash);
    assert_int_equal(a.rows, b.rows);
    assert_int_equal(a.files, b.files);
    assert_true(a.hash != c.hash);
}

static void at_least_n_damaged(void **state)
{
    (void)state;
    static const unsigned N[] = { 1, 50, 333 };
    for (size_t i = 0; i < sizeof N / sizeof N[0]; i++) {
        struct seen s;
        run(&s, N[i], 3, 0);
        assert_true(s.damaged >= N[i]);
        assert_true(s.kinds[DMG_GOOD] > 0);
    }
}

/* Every kind and every damage, in a tree of 150 from the real mix. */
static void every_kind_and_damage(void **state)
{
    (void)state;
    static const char *const TAGS[] = { "none", "cut", "flip", "frames", "bones", "array", "lzo",
                                        "cut-class", "cut-table", "cut-data", "lzss",
                                        "entry-size", "trick", "archive" };
    struct seen s;
    run(&s, 150, 1, 1);
    for (int k = 0; k < DMG_KINDS; k++)
        if (!s.kinds[k])
            fail_msg("no %s in %u rows", damaged_kind_name((enum damaged_kind)k), s.rows);
    for (size_t t = 0; t < sizeof TAGS / sizeof *TAGS; t++) {
        unsigned i = 0;
        while (i < s.ntags && strcmp(s.tags[i], TAGS[t]))
            i++;
        if (i == s.ntags)
            fail_msg("no damage '%s'", TAGS[t]);
    }
    assert_int_equal(s.kinds[DMG_PBO_TRICKS], PBO_TRICKS);
}

/* Loose files whose head reads and whose full parse fails, checked by
 * on_note against the parser, are a good share of the tree. */
static void head_ok_full_fails(void **state)
{
    (void)state;
    struct seen s;
    run(&s, 200, 11, 1);
    assert_true(s.checked >= 150);
    assert_true(s.loose_full_fails >= 20);
    assert_true(s.kinds[DMG_FULL_FAILS] >= s.loose_full_fails);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_tree),
        cmocka_unit_test(at_least_n_damaged),
        cmocka_unit_test(every_kind_and_damage),
        cmocka_unit_test(head_ok_full_fails),
    };
    return run_test_cases(tests, NULL, NULL);
}
