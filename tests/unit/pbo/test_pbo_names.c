/* test_pbo_names.c - one name for every entry (pbo_names.c, rtm(5) PBO
 * paths): archives by the project's writer with each collision and each
 * name that cannot be shown as it is; every entry stays reachable by
 * pbo_lookup() and pbo_list() under the name the rule gives it. */
#include "testutil.h"
#include "pbo_testutil.h"
#include "pbo_int.h"

static const uint8_t data[] = "RTM_0101";

/* An archive by the project's writer of n entries named so (at most
 * 64), each holding data, read back whole. */
static struct pbo *archive_n(const char *const *names, size_t n, struct rtm_buf *b)
{
    struct pbo_write_entry e[64];
    assert_true(n <= 64);
    for (size_t i = 0; i < n; i++)
        e[i] = (struct pbo_write_entry){ names[i], data, sizeof data - 1, PBO_PACK_STORE, 0 };
    rtm_buf_init(b);
    assert_int_equal(pbo_write(e, n, NULL, 0, 0, b), 0);
    return parse_full(b);
}

/* The same of names, NULL-terminated. */
static struct pbo *archive(const char *const *names, struct rtm_buf *b)
{
    size_t n = 0;
    while (names[n])
        n++;
    return archive_n(names, n, b);
}

/* Entry i is a file at path, and its folder lists it under its last part. */
struct seen { const char *name; long entry; int found; };
static int saw(void *arg, const char *name, size_t len, long entry)
{
    struct seen *s = arg;
    if (strlen(s->name) == len && memcmp(s->name, name, len) == 0 && entry == s->entry)
        s->found++;
    return 0;
}

static void reachable(const struct pbo *p, long i, const char *path)
{
    long e;
    if (pbo_lookup(p, path, &e) != PBO_FILE || e != i)
        fail_msg("%s is not entry %ld (%ld)", path, i + 1, e + 1);
    assert_string_equal(p->entries[i].path, path);
    char dir[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *last = slash ? path + (slash - dir) + 1 : path;
    if (slash)
        *slash = 0;
    else
        dir[0] = 0;
    struct seen s = { last, i, 0 };
    assert_int_equal(pbo_list(p, dir, saw, &s), 0);
    assert_int_equal(s.found, 1);
}

static void same_path_twice(void **state)
{
    (void)state;
    struct rtm_buf b;
    const char *const n[] = { "a\\walk.rtm", "a\\walk.rtm", "a\\walk.rtm", NULL };
    struct pbo *p = archive(n, &b);
    reachable(p, 0, "a/walk.rtm");
    reachable(p, 1, "a/walk~2.rtm");
    reachable(p, 2, "a/walk~3.rtm");
    assert_int_equal(p->entries[1].renamed, PBO_RENAMED_DUP);
    assert_int_equal(p->entries[1].renamed_other, 0);
    pbo_free(p);
    rtm_buf_free(&b);
}

static void differ_in_case(void **state)
{
    (void)state;
    struct rtm_buf b;
    const char *const n[] = { "Anims\\Walk.RTM", "anims\\walk.rtm", NULL };
    struct pbo *p = archive(n, &b);
    reachable(p, 0, "Anims/Walk.RTM");
    reachable(p, 1, "anims/walk~2.rtm");
    pbo_free(p);
    rtm_buf_free(&b);
}

static void file_and_folder(void **state)
{
    (void)state;
    struct rtm_buf b;
    const char *const n[] = { "anims", "anims\\walk.rtm", "x.rtm\\y.rtm", "x.rtm", NULL };
    struct pbo *p = archive(n, &b);
    long e;
    assert_int_equal(pbo_lookup(p, "anims", &e), PBO_DIR);
    reachable(p, 0, "anims~1");
    reachable(p, 1, "anims/walk.rtm");
    reachable(p, 2, "x.rtm/y.rtm");
    reachable(p, 3, "x~4.rtm");
    assert_int_equal(p->entries[0].renamed, PBO_RENAMED_FOLDER);
    pbo_free(p);
    rtm_buf_free(&b);
}

static void new_name_taken(void **state)
{
    (void)state;
    struct rtm_buf b;
    const char *const n[] = { "w.rtm", "w~3.rtm", "w.rtm", NULL };
    struct pbo *p = archive(n, &b);
    reachable(p, 0, "w.rtm");
    reachable(p, 1, "w~3.rtm");
    reachable(p, 2, "w~3~3.rtm");
    pbo_free(p);
    rtm_buf_free(&b);
    /* an entry's own name beats a new one, even from an earlier entry */
    const char *const m[] = { "anims", "anims\\walk.rtm", "anims~1", NULL };
    p = archive(m, &b);
    reachable(p, 0, "anims~1~1");
    reachable(p, 1, "anims/walk.rtm");
    reachable(p, 2, "anims~1");
    pbo_free(p);
    rtm_buf_free(&b);
}

static void long_parts(void **state)
{
    (void)state;
    char dir[301], a[700], c[700];
    memset(dir, 'd', 300);
    dir[300] = 0;
    snprintf(a, sizeof a, "%s\\walk.rtm", dir);
    snprintf(c, sizeof c, "%s\\run.rtm", dir);
    struct rtm_buf b;
    const char *const n[] = { a, c, NULL };
    struct pbo *p = archive(n, &b);
    const char *pa = p->entries[0].path, *pc = p->entries[1].path;
    const char *sa = strchr(pa, '/'), *sc = strchr(pc, '/');
    assert_non_null(sa);
    assert_int_equal(sa - pa, 209);              /* 200 bytes, ~, 8 hex digits */
    assert_int_equal(sa - pa, sc - pc);
    assert_memory_equal(pa, pc, 209);           /* one folder for both */
    reachable(p, 0, pa);
    reachable(p, 1, pc);
    /* a long file name keeps its extension */
    char f[400];
    memset(f, 'f', 300);
    memcpy(f + 300, ".rtm", 5);
    const char *const m[] = { f, NULL };
    struct rtm_buf b2;
    struct pbo *q = archive(m, &b2);
    size_t len = strlen(q->entries[0].path);
    assert_int_equal(len, 213);
    assert_string_equal(q->entries[0].path + len - 4, ".rtm");
    reachable(q, 0, q->entries[0].path);
    pbo_free(q);
    rtm_buf_free(&b2);
    pbo_free(p);
    rtm_buf_free(&b);
}

static void stable(void **state)
{
    (void)state;
    struct rtm_buf b1, b2;
    const char *const n[] = { "a", "a\\b.rtm", "A\\B.rtm", "a\\b.rtm", NULL };
    struct pbo *p = archive(n, &b1), *q = archive(n, &b2);
    for (size_t i = 0; i < p->nentries; i++)
        assert_string_equal(p->entries[i].path, q->entries[i].path);
    reachable(p, 0, "a~1");
    reachable(p, 1, "a/b.rtm");
    reachable(p, 2, "A/B~3.rtm");
    reachable(p, 3, "a/b~4.rtm");
    pbo_free(p);
    pbo_free(q);
    rtm_buf_free(&b1);
    rtm_buf_free(&b2);
}

/* pbo_each_below's first entry, as name_entries asked it before. */
static int first_of(void *arg, long entry)
{
    *(long *)arg = entry;
    return 1;
}

/* The folder check name_entries makes (pbo_index_first_below) finds what
 * a search from the root finds, for every entry of tables of names that
 * sort between a folder and what lies below it (" ", "!", "-", ".": below
 * '/'), in any case, more of them than it steps over. */
static void folder_check_as_search(void **state)
{
    (void)state;
    static const char alphabet[] = "aA .!-/\\b";
    enum { ROUNDS = 300, ENTRIES = 40 };
    char names[ENTRIES][8];
    const char *named[ENTRIES];
    lcg_state = 12345;
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < ENTRIES; i++) {
            size_t len = 1 + lcg_next() % 5;
            for (size_t j = 0; j < len; j++)
                names[i][j] = alphabet[lcg_next() & 7];
            names[i][0] = 'a';          /* a common start: long runs of steppers */
            names[i][len] = 0;
            named[i] = names[i];
        }
        struct rtm_buf b;
        struct pbo *p = archive_n(named, ENTRIES, &b);
        for (size_t k = 0; k < p->nindex; k++) {
            long want = -1;
            if (p->by_path[k].path[0])
                pbo_each_below(p, p->by_path[k].path, first_of, &want);
            if (p->by_path[k].path[0])
                assert_int_equal(pbo_index_first_below(p, k), want);
        }
        pbo_free(p);
        rtm_buf_free(&b);
    }
}

/* The index is in pbo_path_cmp's order, which it sorts by skipping the
 * words two paths share: paths with a long common start, then bytes
 * that differ in case alone on either side of a word's end. */
static void index_in_path_order(void **state)
{
    (void)state;
    static const char alphabet[] = "aAbB/_.z";
    enum { ROUNDS = 200, ENTRIES = 40, START = 13 };
    char names[ENTRIES][START + 24];
    const char *named[ENTRIES];
    lcg_state = 777;
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < ENTRIES; i++) {
            size_t len = START + lcg_next() % 20;
            memcpy(names[i], round % 2 ? "anims/charsAB" : "ANIMS/CHARSab", START);
            for (size_t j = START; j < len; j++)
                names[i][j] = alphabet[lcg_next() & 7];
            names[i][len - 1] = 'x';    /* no empty last part */
            names[i][len] = 0;
            named[i] = names[i];
        }
        struct rtm_buf b;
        struct pbo *p = archive_n(named, ENTRIES, &b);
        for (size_t k = 1; k < p->nindex; k++)
            if (pbo_path_cmp(p->by_path[k - 1].path, p->by_path[k].path) > 0)
                fail_msg("%s before %s", p->by_path[k - 1].path, p->by_path[k].path);
        pbo_free(p);
        rtm_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_path_twice),
        cmocka_unit_test(differ_in_case),
        cmocka_unit_test(file_and_folder),
        cmocka_unit_test(new_name_taken),
        cmocka_unit_test(long_parts),
        cmocka_unit_test(stable),
        cmocka_unit_test(folder_check_as_search),
        cmocka_unit_test(index_in_path_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
