/* test_gamefs.c - sources merged at their prefixes (gamefs.h): nesting,
 * case, overlaps and the order rule, archives without a prefix, loose
 * addons, hostile entry paths and prefixes, conflicts.txt. */
#include "testutil.h"

#include "gamefs.h"
#include "gamepath.h"
#include "pbo.h"
#include "pbo_write.h"

/* A source with its entries; the prefix is a C string or NULL. */
static long add(struct gamefs *g, const char *name, const char *prefix,
                const char *const *paths, size_t n)
{
    long i = gamefs_add(g, name, prefix, prefix ? strlen(prefix) : 0);
    assert_true(i >= 0);
    assert_int_equal(gamefs_set_entries(g, (size_t)i, paths, n), 0);
    return i;
}

struct listing {
    char text[4096];        /* "name/ name ..." : '/' after a folder */
};

static int put_name(void *arg, const char *name, size_t len, const struct gamefs_hit *hit)
{
    struct listing *l = arg;
    size_t at = strlen(l->text);
    assert_true(at + len + 3 < sizeof l->text);
    memcpy(l->text + at, name, len);
    strcpy(l->text + at + len, hit->node == GAMEFS_DIR ? "/ " : " ");
    return 0;
}

static const char *list(struct gamefs *g, const char *dir, struct listing *l)
{
    l->text[0] = 0;
    assert_int_equal(gamefs_list(g, dir, put_name, l), 0);
    return l->text;
}

/* Archives at a3\anims_f and a3\anims_f\data\anim merge as folders do;
 * the folders above a prefix are plain folders. */
static void nesting(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct listing l;
    struct gamefs_hit h;
    static const char *const outer[] = { "config.bin", "data\\anim\\a.rtm", "data\\b.rtm" };
    static const char *const inner[] = { "sdr\\walk.rtm", "c.rtm" };
    long o = add(g, "anims_f.pbo", "a3\\anims_f", outer, 3);
    long i = add(g, "anims_f_data.pbo", "a3\\anims_f\\data\\anim", inner, 2);
    assert_string_equal(list(g, "", &l), "a3/ ");
    assert_string_equal(list(g, "a3", &l), "anims_f/ ");
    assert_string_equal(list(g, "a3/anims_f", &l), "config.bin data/ ");
    assert_string_equal(list(g, "a3/anims_f/data", &l), "anim/ b.rtm ");
    assert_string_equal(list(g, "a3/anims_f/data/anim", &l), "a.rtm c.rtm sdr/ ");
    assert_int_equal(gamefs_lookup(g, "a3/anims_f/data/anim/a.rtm", &h), GAMEFS_FILE);
    assert_int_equal(h.src, o);
    assert_string_equal(h.path, "data/anim/a.rtm");
    assert_int_equal(h.entry, 1);
    assert_int_equal(gamefs_lookup(g, "a3/anims_f/data/anim/sdr/walk.rtm", &h), GAMEFS_FILE);
    assert_int_equal(h.src, i);
    assert_string_equal(h.path, "sdr/walk.rtm");
    assert_int_equal(gamefs_lookup(g, "a3", &h), GAMEFS_DIR);
    assert_int_equal(gamefs_lookup(g, "a3/anims_f/data/nothing", &h), GAMEFS_NONE);
    assert_int_equal(gamefs_list(g, "a3/anims_f/config.bin", put_name, &l), -1);
    gamefs_free(g);
}

/* Lookups ignore case and take '\' as '/'; names are spelt as the shown
 * source spells them. */
static void case_and_separators(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct listing l;
    struct gamefs_hit h;
    static const char *const a[] = { "Anim\\WipeGlasses.rtm" };
    add(g, "ace_goggles.pbo", "z\\ACE\\addons\\goggles", a, 1);
    assert_int_equal(gamefs_lookup(g, "Z\\ace\\ADDONS\\goggles\\anim\\wipeglasses.RTM", &h),
                     GAMEFS_FILE);
    assert_string_equal(h.path, "Anim/WipeGlasses.rtm");
    assert_int_equal(gamefs_lookup(g, "z/ace", &h), GAMEFS_DIR);
    assert_string_equal(list(g, "Z", &l), "ACE/ ");
    assert_string_equal(list(g, "z/ace/addons/goggles", &l), "Anim/ ");
    assert_string_equal(list(g, "z/ace/addons/goggles/ANIM", &l), "WipeGlasses.rtm ");
    assert_string_equal(gamefs_prefix(g, 0), "z\\ACE\\addons\\goggles");
    gamefs_free(g);
}

/* Three copies of a mod: the source whose name sorts last (bytewise, so
 * "@zz" after "@ace", "0" before "@") is shown, spelling included; a
 * file beats a folder; conflicts.txt lists contested paths only, the
 * shown source first. */
static void overlaps_and_order(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct listing l;
    struct gamefs_hit h;
    static const char *const one[] = { "anim\\walk.rtm", "anim\\only_one.rtm", "x" };
    static const char *const two[] = { "ANIM\\Walk.rtm", "x\\y.rtm" };
    static const char *const three[] = { "anim\\walk.rtm" };
    long a = add(g, "@ace/addons/gestures.pbo", "z\\ace\\gestures", one, 3);
    long z = add(g, "@zz_override/gestures.pbo", "Z\\ace\\gestures", two, 2);
    long b = add(g, "0ld/gestures.pbo", "z\\ace\\gestures", three, 1);
    assert_int_equal(gamefs_lookup(g, "z/ace/gestures/anim/walk.rtm", &h), GAMEFS_FILE);
    assert_int_equal(h.src, z);
    assert_int_equal(gamefs_lookup(g, "z/ace/gestures/anim/only_one.rtm", &h), GAMEFS_FILE);
    assert_int_equal(h.src, a);
    assert_string_equal(list(g, "", &l), "Z/ ");
    assert_string_equal(list(g, "z/ace/gestures/anim", &l), "only_one.rtm Walk.rtm ");
    /* "x" is a file in one source and a folder in the shown one: the file */
    assert_int_equal(gamefs_lookup(g, "z/ace/gestures/x", &h), GAMEFS_FILE);
    assert_int_equal(h.src, a);
    assert_string_equal(list(g, "z/ace/gestures", &l), "ANIM/ x ");
    struct rtm_buf t;
    rtm_buf_init(&t);
    assert_int_equal(gamefs_conflicts(g, &t), 0);
    rtm_buf_putc(&t, 0);
    assert_string_equal(t.p, "Z\\ace\\gestures\\ANIM\\Walk.rtm\t@zz_override/gestures.pbo"
                             "\t@ace/addons/gestures.pbo\t0ld/gestures.pbo\n");
    rtm_buf_free(&t);
    (void)b;
    gamefs_free(g);
}

/* No prefix, or one that normalises to nothing: the archive's name
 * without ".pbo" (any case). */
static void no_prefix(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct gamefs_hit h;
    static const char *const a[] = { "a.rtm" };
    add(g, "mods/Plain.PBO", NULL, a, 1);
    add(g, "mods/empty.pbo", "", a, 1);
    add(g, "mods/hostile.pbo", "\\..\\/./", a, 1);
    add(g, "mods/..pbo", NULL, a, 1);
    assert_string_equal(gamefs_prefix(g, 0), "Plain");
    assert_string_equal(gamefs_prefix(g, 1), "empty");
    assert_string_equal(gamefs_prefix(g, 2), "hostile");
    assert_string_equal(gamefs_prefix(g, 3), "..pbo");
    assert_int_equal(gamefs_lookup(g, "plain/a.rtm", &h), GAMEFS_FILE);
    assert_int_equal(gamefs_lookup(g, "hostile/A.rtm", &h), GAMEFS_FILE);
    gamefs_free(g);
}

/* A loose addon folder is a source like an archive: its $PBOPREFIX$'s
 * prefix, its files as entries (the caller leaves $PBOPREFIX$ out). */
static void loose_addons(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct listing l;
    struct gamefs_hit h;
    static const char *const files[] = { "anims/Sit.rtm", "config.cpp" };
    static const char *const packed[] = { "anims\\sit.rtm" };
    long loose = add(g, "addons/aur", "x\\aur\\addons\\main", files, 2);
    add(g, "@aur/addons/aur_main.pbo", "x\\aur\\addons\\main", packed, 1);
    assert_int_equal(gamefs_lookup(g, "x\\aur\\addons\\main\\anims\\sit.rtm", &h), GAMEFS_FILE);
    assert_int_equal(h.src, loose);     /* "addons/aur" sorts after "@aur/..." */
    assert_string_equal(h.path, "anims/Sit.rtm");
    assert_string_equal(list(g, "x/aur/addons/main", &l), "anims/ config.cpp ");
    gamefs_free(g);
}

/* Entry paths and prefixes with "..", empty parts and leading separators
 * never climb out of their prefix; entries left empty are dropped; the
 * first of two equal paths counts. */
static void hostile_paths(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct listing l;
    struct gamefs_hit h;
    static const char *const e[] = { "..\\..\\escape.rtm", "\\\\a\\\\.\\b.rtm", "..", "",
                                     "A/B.RTM", "/lead.rtm" };
    long s = add(g, "evil.pbo", "\\..\\z\\\\evil\\", e, 6);
    assert_string_equal(gamefs_prefix(g, (size_t)s), "z\\evil");
    assert_string_equal(list(g, "", &l), "z/ ");
    assert_string_equal(list(g, "z/evil", &l), "a/ escape.rtm lead.rtm ");
    assert_int_equal(gamefs_lookup(g, "z/evil/a/b.rtm", &h), GAMEFS_FILE);
    assert_int_equal(h.entry, 1);
    assert_int_equal(gamefs_lookup(g, "../z/./evil//escape.rtm", &h), GAMEFS_FILE);
    assert_int_equal(gamefs_lookup(g, "escape.rtm", &h), GAMEFS_NONE);
    struct rtm_buf t;
    rtm_buf_init(&t);
    assert_int_equal(gamefs_conflicts(g, &t), 0);
    assert_int_equal(t.len, 0);         /* two paths of one source contest nothing */
    rtm_buf_free(&t);
    gamefs_free(g);
}

static int count(void *arg, size_t src)
{
    (void)src;
    ++*(int *)arg;
    return 0;
}

/* Before entries come, prefixes alone answer about the folders above
 * them; the sources a question needs are those at or above the path. */
static void prefixes_first(void **state)
{
    (void)state;
    struct gamefs *g = gamefs_new();
    struct listing l;
    int n = 0;
    assert_true(gamefs_add(g, "a.pbo", "a3\\anims_f", 10) >= 0);
    assert_true(gamefs_add(g, "b.pbo", "a3\\anims_f\\data", 15) >= 0);
    assert_true(gamefs_add(g, "c.pbo", "z\\ace", 5) >= 0);
    assert_string_equal(list(g, "", &l), "a3/ z/ ");
    assert_false(gamefs_loaded(g, 0));
    assert_int_equal(gamefs_each_needed(g, "", count, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(gamefs_each_needed(g, "a3/anims_f/data/x", count, &n), 0);
    assert_int_equal(n, 2);
    n = 0;
    assert_int_equal(gamefs_each_needed(g, "A3/ANIMS_F", count, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(list(g, "a3/anims_f", &l), "data/ ");
    assert_string_equal(gamefs_name(g, 2), "c.pbo");
    assert_int_equal(gamefs_count(g), 3);
    gamefs_free(g);
}

/* Many sources at prefixes drawn from a few parts (in both cases), each
 * with entries drawn the same way: every lookup agrees with the rule
 * worked out the slow way, over every source's paths (of the sources that
 * give the path, the one whose name sorts last). */
static void many_sources(void **state)
{
    (void)state;
    static const char *const parts[] = { "a", "B", "c", "A", "b.rtm" };
    enum { NSRC = 150, NENT = 4, LEN = 48 };
    static char names[NSRC][LEN], paths[NSRC][NENT][LEN];
    struct gamefs *g = gamefs_new();
    unsigned seed = 12345;
    for (int i = 0; i < NSRC; i++) {
        char prefix[16], ents[NENT][16], norm[16];
        const char *p[NENT];
        seed = seed * 1103515245u + 12345u;
        snprintf(names[i], LEN, "@m%03u/x%d.pbo", (seed >> 8) % 1000, i);
        snprintf(prefix, sizeof prefix, "%s\\\\%s", parts[(seed >> 4) % 4], parts[(seed >> 12) % 4]);
        snprintf(norm, sizeof norm, "%s/%s", parts[(seed >> 4) % 4], parts[(seed >> 12) % 4]);
        for (int k = 0; k < NENT; k++) {
            seed = seed * 1103515245u + 12345u;
            snprintf(ents[k], sizeof ents[k], "%s\\%s", parts[(seed >> 5) % 4], parts[(seed >> 9) % 5]);
            snprintf(paths[i][k], LEN, "%s/%s/%s", norm, parts[(seed >> 5) % 4],
                     parts[(seed >> 9) % 5]);
            p[k] = ents[k];
        }
        assert_int_equal(add(g, names[i], prefix, p, NENT), i);
    }
    for (int i = 0; i < NSRC; i++)
        for (int k = 0; k < NENT; k++) {
            struct gamefs_hit h;
            int best = -1;                  /* the slow way */
            for (int j = 0; j < NSRC; j++)
                for (int m = 0; m < NENT; m++)
                    if (strcasecmp(paths[j][m], paths[i][k]) == 0 &&
                        (best < 0 || strcmp(names[j], names[best]) > 0))
                        best = j;
            assert_int_equal(gamefs_lookup(g, paths[i][k], &h), GAMEFS_FILE);
            assert_string_equal(gamefs_name(g, (size_t)h.src), names[best]);
        }
    gamefs_free(g);
}

/* An archive's prefix from the first bytes of its header, as pbo_prop()
 * gives it from the whole table: the first "prefix" among several
 * properties, none, no properties at all (OFP), an empty archive, and
 * every cut of the head before the properties end asks for more. */
static void head_prefix(void **state)
{
    (void)state;
    static const uint8_t data[] = "x";
    const struct pbo_write_entry e = { "anims\\a.rtm", data, 1, PBO_PACK_STORE, 0 };
    const struct pbo_write_prop with[] = { { "product", "arma3" }, { "prefix", "z\\ace\\x" },
                                           { "prefix", "second" } };
    const struct pbo_write_prop without[] = { { "version", "1" } };
    struct {
        const struct pbo_write_prop *props;
        size_t n, nentries;
        unsigned flags;
        const char *want;
    } cases[] = { { with, 3, 1, 0, "z\\ace\\x" }, { without, 1, 1, 0, NULL },
                  { with, 3, 1, PBO_WRITE_NO_VERS, NULL }, { NULL, 0, 0, 0, NULL },
                  { with, 3, 0, 0, "z\\ace\\x" } };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct rtm_buf b;
        struct pbo *p;
        struct rtm_error err;
        const char *v;
        size_t vl;
        rtm_buf_init(&b);
        assert_int_equal(pbo_write(&e, cases[c].nentries, cases[c].props, cases[c].n,
                                   cases[c].flags, &b), 0);
        assert_int_equal(pbo_read_table((const uint8_t *)b.p, b.len, b.len, &p, &err), 0);
        const char *prop = pbo_prop(p, "prefix");
        assert_true(prop ? cases[c].want && !strcmp(prop, cases[c].want) : !cases[c].want);
        int r = gamepath_head_prefix((const uint8_t *)b.p, b.len, &v, &vl);
        assert_int_equal(r, cases[c].want != NULL);
        if (r) {
            assert_int_equal(vl, strlen(cases[c].want));
            assert_memory_equal(v, cases[c].want, vl);
        }
        for (size_t cut = 0; cut < b.len; cut++) {   /* never a wrong answer, only "more" */
            int rc = gamepath_head_prefix((const uint8_t *)b.p, cut, &v, &vl);
            assert_true(rc == -1 || rc == r);
        }
        if (cases[c].flags)             /* an entry first: known at its name's end */
            assert_int_equal(gamepath_head_prefix((const uint8_t *)b.p, strlen(e.name) + 1, &v, &vl),
                             0);
        pbo_free(p);
        rtm_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nesting),
        cmocka_unit_test(case_and_separators),
        cmocka_unit_test(overlaps_and_order),
        cmocka_unit_test(no_prefix),
        cmocka_unit_test(loose_addons),
        cmocka_unit_test(hostile_paths),
        cmocka_unit_test(prefixes_first),
        cmocka_unit_test(many_sources),
        cmocka_unit_test(head_prefix),
    };
    return run_test_cases(tests, NULL, NULL);
}
