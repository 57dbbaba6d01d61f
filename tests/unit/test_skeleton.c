/* test_skeleton.c - built-in skeletons, the skeleton text format and
 * case-insensitive lookup (skeleton.h). */
#include "testutil.h"

#include <unistd.h>

static struct rtm_skeleton *open_ok(const char *spec)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    if (rtm_skeleton_open(spec, &s, &err))
        fail_msg("open %s: %s", spec, err.msg);
    assert_non_null(s);
    return s;
}

static int32_t find(const struct rtm_skeleton *s, const char *name)
{
    return rtm_skeleton_find(s, name, strlen(name));
}

/* Index of a bone's parent by name, or -1 for a root. */
static int32_t parent_of(const struct rtm_skeleton *s, const char *name)
{
    int32_t i = find(s, name);
    assert_true(i >= 0);
    return s->parent[i];
}

static void ofp2_builtin(void **state)
{
    (void)state;
    struct rtm_skeleton *s = open_ok("ofp2");
    assert_string_equal(s->name, "ofp2");
    assert_int_equal(s->nbones, 103);
    assert_string_equal(s->bone[0], "Pelvis");
    assert_int_equal(s->parent[0], -1);
    /* Pelvis is the only root */
    for (uint32_t i = 1; i < s->nbones; i++) {
        assert_true(s->parent[i] >= 0);
        assert_true((uint32_t)s->parent[i] < i); /* parents first */
    }
    assert_int_equal(find(s, "PELVIS"), 0);
    assert_int_equal(find(s, "pelvis"), 0);
    int32_t lh = find(s, "lefthand");
    assert_true(lh >= 0);
    assert_string_equal(s->bone[lh], "LeftHand");
    assert_string_equal(s->bone[s->parent[lh]], "LeftForeArmRoll");
    assert_int_equal(parent_of(s, "SPINE"), 0);
    assert_string_equal(s->bone[parent_of(s, "camera")], "Pelvis");
    assert_string_equal(s->bone[parent_of(s, "face_hub")], "head");
    assert_string_equal(s->bone[parent_of(s, "RightToeBase")], "RightFoot");
    assert_string_equal(s->bone[s->nbones - 1], "RightToeBase");
    /* lengths matter: prefixes and extensions are other names */
    assert_int_equal(find(s, "Pelvi"), -1);
    assert_int_equal(find(s, "Pelvis2"), -1);
    assert_int_equal(find(s, ""), -1);
    assert_int_equal(find(s, "zig_lip"), -1);
    /* name need not be NUL-terminated at len */
    assert_int_equal(rtm_skeleton_find(s, "pelvisXYZ", 6), 0);
    assert_int_equal(rtm_skeleton_find(s, "Spine1x", 6), parent_of(s, "spine2"));
    /* every bone finds itself, in upper case too */
    for (uint32_t i = 0; i < s->nbones; i++) {
        char up[64];
        size_t n = strlen(s->bone[i]);
        assert_true(n < sizeof up);
        for (size_t k = 0; k <= n; k++)
            up[k] = (char)((s->bone[i][k] >= 'a' && s->bone[i][k] <= 'z')
                               ? s->bone[i][k] - 32 : s->bone[i][k]);
        assert_int_equal(find(s, up), (int32_t)i);
    }
    rtm_skeleton_free(s);
}

static void none_builtin(void **state)
{
    (void)state;
    struct rtm_skeleton *s = open_ok("none");
    assert_string_equal(s->name, "none");
    assert_int_equal(s->nbones, 0);
    assert_int_equal(find(s, "pelvis"), -1);
    rtm_skeleton_free(s);
    rtm_skeleton_free(NULL); /* allowed */
}

static const char GOOD[] =
    "# a small rig\n"
    "\n"
    "root -\n"
    "   hip\troot   # trailing comment\n"
    "Leg hip\r\n"
    "#leg2 hip (commented out)\n"
    "arm  ROOT\n"
    "   \n"
    "foot leg";   /* no final newline; parent named in another case */

static void parse_good_text(void **state)
{
    (void)state;
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    if (rtm_skeleton_parse(GOOD, sizeof GOOD - 1, "mine", &s, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(s->name, "mine");
    assert_int_equal(s->nbones, 5);
    static const char *const names[] = { "root", "hip", "Leg", "arm", "foot" };
    static const int32_t parents[] = { -1, 0, 1, 0, 2 };
    for (uint32_t i = 0; i < 5; i++) {
        assert_string_equal(s->bone[i], names[i]);
        assert_int_equal(s->parent[i], parents[i]);
        assert_int_equal(find(s, names[i]), (int32_t)i);
    }
    assert_int_equal(find(s, "leg2"), -1);
    assert_int_equal(find(s, "LEG"), 2);
    rtm_skeleton_free(s);

    /* an empty text is an empty skeleton; several roots are fine */
    assert_int_equal(rtm_skeleton_parse("", 0, "empty", &s, &err), 0);
    assert_int_equal(s->nbones, 0);
    rtm_skeleton_free(s);
    const char two[] = "a -\nb -\n";
    assert_int_equal(rtm_skeleton_parse(two, sizeof two - 1, "two", &s, &err), 0);
    assert_int_equal(s->nbones, 2);
    assert_int_equal(s->parent[1], -1);
    rtm_skeleton_free(s);
}

/* Each bad text fails with NULL out and a message holding a distinctive
 * word (and the line number where one applies). */
static void parse_errors(void **state)
{
    (void)state;
#define T(lit, w, w2) { lit, sizeof(lit) - 1, w, w2 }
    static const struct { const char *text; size_t len; const char *word, *word2; } cases[] = {
        T("a -\nb nobody\n", "nobody", "line 2"),           /* unknown parent */
        T("a -\nb c\nc a\n", "not listed", "line 2"),       /* parent listed later */
        T("a -\nb a\nB a\n", "twice", "line 3"),            /* duplicate, any case */
        T("a -\nb\n", "no parent", "line 2"),               /* missing parent word */
        T("a -\nb # a\n", "no parent", "'b'"),              /* parent commented out */
        T("a -\nb a\0c a\n", "NUL", NULL),                  /* a NUL byte */
        T("a a\n", "not listed", "line 1"),                 /* its own parent */
    };
#undef T
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static struct rtm_skeleton sentinel;
        struct rtm_skeleton *s = &sentinel; /* must become NULL */
        struct rtm_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(rtm_skeleton_parse(cases[i].text, cases[i].len, "t", &s, &err), -1);
        assert_null(s);
        if (!strstr(err.msg, cases[i].word) ||
            (cases[i].word2 && !strstr(err.msg, cases[i].word2)))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"/\"%s\"", i, err.msg,
                     cases[i].word, cases[i].word2 ? cases[i].word2 : "");
    }
}

/* A bone name longer than the limit is refused, not truncated. */
static void parse_long_name(void **state)
{
    (void)state;
    char text[600];
    memset(text, 'x', 300);
    memcpy(text + 300, " -\n", 4);
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_parse(text, strlen(text), "t", &s, &err), -1);
    assert_null(s);
    assert_non_null(strstr(err.msg, "longer"));
}

static void open_file(void **state)
{
    (void)state;
    char path[] = "/tmp/rtm_test_skel_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, GOOD, sizeof GOOD - 1), (ssize_t)(sizeof GOOD - 1));
    close(fd);
    struct rtm_skeleton *s = open_ok(path);
    assert_string_equal(s->name, path);
    assert_int_equal(s->nbones, 5);
    assert_int_equal(find(s, "foot"), 4);
    rtm_skeleton_free(s);

    /* a bad file: the message names the file and the problem */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("a -\nb zzz\n", f);
    fclose(f);
    struct rtm_error err;
    s = NULL;
    assert_int_equal(rtm_skeleton_open(path, &s, &err), -1);
    assert_null(s);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "zzz"));
    unlink(path);
}

static void open_missing_file(void **state)
{
    (void)state;
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    const char *path = "/nonexistent/rtm_skeleton.txt";
    assert_int_equal(rtm_skeleton_open(path, &s, &err), -1);
    assert_null(s);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "No such file"));
    /* a user who mistyped a built-in name learns the names */
    assert_non_null(strstr(err.msg, "ofp2 or none"));
    /* "skeleton" is said once: the caller adds no prefix of its own */
    assert_int_equal(strncmp(err.msg, "skeleton '", 10), 0);
    assert_null(strstr(err.msg, "skeleton: "));
}

/* Built-in names match in any case, as people type them. */
static void builtin_any_case(void **state)
{
    (void)state;
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("OFP2", &s, &err), 0);
    assert_string_equal(s->name, "ofp2");
    assert_true(s->nbones > 0);
    rtm_skeleton_free(s);
    assert_int_equal(rtm_skeleton_open("None", &s, &err), 0);
    assert_string_equal(s->name, "none");
    assert_int_equal(s->nbones, 0);
    rtm_skeleton_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ofp2_builtin),
        cmocka_unit_test(none_builtin),
        cmocka_unit_test(parse_good_text),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(parse_long_name),
        cmocka_unit_test(open_file),
        cmocka_unit_test(open_missing_file),
        cmocka_unit_test(builtin_any_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
