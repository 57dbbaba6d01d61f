/* test_names.c - unique, safe bone names (names.h): the escapes of names
 * that cannot be file names, ~N for repeats (with case folded or not), cut
 * long names, the reserved name, lookup, and linear time on hostile
 * input. */
#include "testutil.h"
#include "names.h"

static struct rtm_names *make(const char *const *in, uint32_t n, const struct rtm_name_rule *r)
{
    struct rtm_str *s = calloc(n ? n : 1, sizeof *s);
    for (uint32_t i = 0; i < n; i++)
        s[i] = (struct rtm_str){ in[i], (uint32_t)strlen(in[i]) };
    struct rtm_names *names = rtm_names_make(s, n, r);
    assert_non_null(names);
    free(s);
    return names;
}

static void expect(const char *const *in, const char *const *want, uint32_t n,
                   const struct rtm_name_rule *r)
{
    struct rtm_names *names = make(in, n, r);
    assert_int_equal(names->n, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_string_equal(names->form[i], want[i]);
        assert_int_equal(names->len[i], strlen(want[i]));
        assert_int_equal(rtm_names_find(names, want[i], strlen(want[i])), i);
    }
    rtm_names_free(names);
}

static void file_names_escape(void **state)
{
    (void)state;
    static const char *const in[] = { "Pelvis", "", ".", "..", "a/b", "tab\there", "back\\slash",
                                      ".hidden", "caf\xc3\xa9", "with space", "x.y" };
    static const char *const want[] = { "Pelvis", "\\x00", "\\x2e", "\\x2e.", "a\\x2fb",
                                        "tab\\x09here", "back\\x5cslash", "\\x2ehidden",
                                        "caf\\xc3\\xa9", "with space", "x.y" };
    expect(in, want, 11, &RTM_NAMES_FILE);
}

/* Repeats get the first free ~N, never one a later bone is called. */
static void file_names_repeat(void **state)
{
    (void)state;
    static const char *const in[] = { "LeftHand", "lefthand", "LEFTHAND", "lefthand~2",
                                      "Spine", "Spine", "" , "" };
    static const char *const want[] = { "LeftHand", "lefthand~3", "LEFTHAND~4", "lefthand~2",
                                        "Spine", "Spine~2", "\\x00", "\\x00~2" };
    expect(in, want, 8, &RTM_NAMES_FILE);

    /* found ignoring case, since forms are unique that way */
    struct rtm_names *n = make(in, 8, &RTM_NAMES_FILE);
    assert_int_equal(rtm_names_find(n, "LEFTHAND~3", 10), 1);
    assert_int_equal(rtm_names_find(n, "spine", 5), 4);
    assert_int_equal(rtm_names_find(n, "spine~3", 7), -1);
    assert_int_equal(rtm_names_find(n, "", 0), -1);
    rtm_names_free(n);
}

/* Without folding, case tells names apart; the reserved name is taken. */
static void token_rule(void **state)
{
    (void)state;
    static const struct rtm_name_rule tok = { " ", 0, 0, 63, "rtm_root" };
    static const char *const in[] = { "Spine", "spine", "rtm_root", "a b", ".x" };
    static const char *const want[] = { "Spine", "spine", "rtm_root~2", "a\\x20b", ".x" };
    expect(in, want, 5, &tok);
    /* the reserved form holds a slot of the lookup table but is no form */
    struct rtm_names *n = make(in, 5, &tok);
    assert_int_equal(rtm_names_find(n, "rtm_root", 8), -1);
    rtm_names_free(n);
}

/* A form longer than max is cut at a whole escape and always suffixed. */
static void long_names_cut(void **state)
{
    (void)state;
    static const struct rtm_name_rule r = { "", 0, 0, 20, NULL };
    static const char *const in[] = { "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz",
                                      "12345678\x01\x02\x03\x04", "exactly_twenty_bytes",
                                      "exactly_twenty_bytes" };
    static const char *const want[] = { "abcdefghi~2", "abcdefghi~3", "12345678~2",
                                        "exactly_twenty_bytes", "exactly_t~2" };
    expect(in, want, 5, &r);  /* a repeat that fits, but not with ~2, is cut too */
    /* a cut form's base holds a slot too, found by no search */
    struct rtm_names *cut = make(in, 5, &r);
    assert_int_equal(rtm_names_find(cut, "abcdefghi", 9), -1);
    assert_int_equal(rtm_names_find(cut, "12345678", 8), -1);
    rtm_names_free(cut);

    /* names of any length fit a file name with ".csv" */
    char big[1000];
    memset(big, '\x7f', sizeof big - 1);
    big[sizeof big - 1] = 0;
    const char *one[] = { big };
    struct rtm_names *n = make(one, 1, &RTM_NAMES_FILE);
    assert_true(n->len[0] + 4 <= 255);
    assert_memory_equal(n->form[0], "\\x7f\\x7f", 8);
    rtm_names_free(n);
}

/* 200,000 bones of one name, and the suffixes they would take already
 * used: linear work (a quadratic search would not end within the test's
 * time limit). */
static void hostile_repeats_are_linear(void **state)
{
    (void)state;
    enum { N = 200000 };
    char (*buf)[16] = malloc(N * sizeof *buf);
    const char **in = malloc(N * sizeof *in);
    for (uint32_t i = 0; i < N; i++) {
        if (i % 2)
            strcpy(buf[i], "bone");
        else
            snprintf(buf[i], sizeof buf[i], "bone~%u", i / 2 + 2);
        in[i] = buf[i];
    }
    struct rtm_names *n = make(in, N, &RTM_NAMES_FILE);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(rtm_names_find(n, n->form[i], n->len[i]), i);
    assert_string_equal(n->form[1], "bone");
    assert_string_equal(n->form[3], "bone~100002");
    rtm_names_free(n);
    free(in);
    free(buf);
}

/* Long names repeated: each ~N copies a long form within the buffer that
 * grows under it (ASan saw the copy read freed memory once). */
static void long_repeats_copy_safely(void **state)
{
    (void)state;
    char name[241];
    memset(name, 'n', 240);
    name[240] = 0;
    const char *in[64];
    for (int i = 0; i < 64; i++)
        in[i] = name;
    struct rtm_names *n = make(in, 64, &RTM_NAMES_FILE);
    assert_int_equal(n->len[63], 243);
    assert_memory_equal(n->form[63], name, 240);
    assert_string_equal(n->form[63] + 240, "~64");
    rtm_names_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(file_names_escape),
        cmocka_unit_test(file_names_repeat),
        cmocka_unit_test(token_rule),
        cmocka_unit_test(long_names_cut),
        cmocka_unit_test(hostile_repeats_are_linear),
        cmocka_unit_test(long_repeats_copy_safely),
    };
    return run_test_cases(tests, NULL, NULL);
}
