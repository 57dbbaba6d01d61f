/* test_skeleton.c - built-in skeletons, the skeleton text format (pivots
 * included), its writer and case-insensitive lookup (skeleton.h). */
#include "testutil.h"

#include <ctype.h>
#include <math.h>
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

/* text must fail with NULL out and a message holding word (and word2). */
static void parse_fails(const char *text, size_t len, const char *word, const char *word2)
{
    static struct rtm_skeleton sentinel;
    struct rtm_skeleton *s = &sentinel; /* must become NULL */
    struct rtm_error err;
    memset(&err, 0, sizeof err);
    if (rtm_skeleton_parse(text, len, "t", &s, &err) != -1)
        fail_msg("\"%.*s\" was accepted", (int)len, text);
    assert_null(s);
    if (!strstr(err.msg, word) || (word2 && !strstr(err.msg, word2)))
        fail_msg("\"%.*s\": message \"%s\" lacks \"%s\"/\"%s\"", (int)len, text,
                 err.msg, word, word2 ? word2 : "");
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
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        parse_fails(cases[i].text, cases[i].len, cases[i].word, cases[i].word2);
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

static struct rtm_skeleton *parse_text_ok(const char *text, size_t len)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    if (rtm_skeleton_parse(text, len, "t", &s, &err))
        fail_msg("\"%.*s\": %s", (int)len, text, err.msg);
    return s;
}

/* Writes s into a new NUL-terminated string (caller frees). */
static char *write_text(const struct rtm_skeleton *s, size_t *len)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_skeleton_write(s, &b), 0);
    rtm_buf_putc(&b, 0);
    assert_false(b.oom);
    *len = b.len - 1;
    return rtm_buf_take(&b, NULL);
}

/* ASCII case-insensitive equality, byte by byte: the rule lookups keep. */
static int same_folded(const char *a, size_t na, const char *b)
{
    if (strlen(b) != na)
        return 0;
    for (size_t i = 0; i < na; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y && tolower(x) != tolower(y))
            return 0;
    }
    return 1;
}

/* The first of names[0..n) equal to (p, len) by the bytewise rule, or -1. */
static int32_t find_in(char (*names)[256], int n, const char *p, size_t len)
{
    for (int i = 0; i < n; i++)
        if (same_folded(p, len, names[i]))
            return i;
    return -1;
}

/* Names are found in any ASCII case, whatever their length (the lookup
 * hashes them 8 bytes at a time), and only A-Z fold: '@' and '`', '['
 * and '{', or bytes past ASCII, differ by the same bit and stay apart. */
static void find_folds_ascii_only(void **state)
{
    (void)state;
    static const char text[] = "a -\nAbCdEfGh a\nAbCdEfGhIjKlMnOpQ a\nx@[\xc1 a\n";
    struct rtm_skeleton *s = parse_text_ok(text, sizeof text - 1);
    assert_int_equal(rtm_skeleton_find(s, "A", 1), 0);
    assert_int_equal(rtm_skeleton_find(s, "abcdefgh", 8), 1);
    assert_int_equal(rtm_skeleton_find(s, "ABCDEFGH", 8), 1);
    assert_int_equal(rtm_skeleton_find(s, "aBcDeFgHiJkLmNoPq", 17), 2);
    assert_int_equal(rtm_skeleton_find(s, "ABCDEFGHIJKLMNOPQ", 17), 2);
    assert_int_equal(rtm_skeleton_find(s, "ABCDEFGHIJKLMNOP", 16), -1);
    assert_int_equal(rtm_skeleton_find(s, "X@[\xc1", 4), 3);
    assert_int_equal(rtm_skeleton_find(s, "x`[\xc1", 4), -1);
    assert_int_equal(rtm_skeleton_find(s, "x@{\xc1", 4), -1);
    assert_int_equal(rtm_skeleton_find(s, "x@[\xe1", 4), -1);
    rtm_skeleton_free(s);
}

/* 300 bones of 1 to 255 bytes (every word byte, letters mostly), looked
 * up in random case, cut or grown by a byte, or with one byte changed:
 * the answer is always the bytewise rule's (the table compares lengths
 * and hash bits before names, and names a word at a time). */
static void find_as_bytewise(void **state)
{
    (void)state;
    enum { N = 300 };
    static char names[N][256];
    struct rtm_buf text;
    rtm_buf_init(&text);
    srand(7);
    for (int i = 0; i < N; i++) {
        size_t n = 1 + (size_t)(i < 40 ? i : rand() % (i % 3 ? 24 : 255));
        do {
            for (size_t k = 0; k < n; k++) {
                int c = rand() % 4 ? "aBcDeFgHiJkLmNoPqRsTuVwXyZ"[rand() % 26]
                                   : 33 + rand() % 94;
                names[i][k] = (char)(c == '#' ? '_' : c);
            }
            names[i][n] = 0;
        } while (find_in(names, i, names[i], n) >= 0);
        rtm_buf_printf(&text, "%s -\n", names[i]);
    }
    struct rtm_skeleton *s = parse_text_ok(text.p, text.len);
    assert_int_equal(s->nbones, N);
    char probe[258];
    for (int t = 0; t < 100000; t++) {
        int i = rand() % N;
        size_t n = strlen(names[i]);
        memcpy(probe, names[i], n);
        for (size_t k = 0; k < n; k++)
            if (isalpha((unsigned char)probe[k]) && rand() % 2)
                probe[k] ^= 0x20;
        switch (rand() % 4) {
        case 0: n--; break;                               /* cut */
        case 1: probe[n++] = (char)(33 + rand() % 94); break;   /* grown */
        case 2: probe[rand() % n] = (char)(33 + rand() % 94); break;
        default: break;
        }
        int32_t want = find_in(names, N, probe, n);
        assert_int_equal(rtm_skeleton_find(s, probe, n), want);
    }
    rtm_skeleton_free(s);
    /* Names of one short length, and 300,000 probes of it: where a
     * probe's hash bits meet a bone's, only the names' bytes tell. */
    rtm_buf_free(&text);
    rtm_buf_init(&text);
    for (int i = 0; i < N; i++) {
        do
            for (int k = 0; k < 4; k++)
                names[i][k] = (char)('a' + rand() % 26);
        while (find_in(names, i, names[i], 4) >= 0);
        names[i][4] = 0;
        rtm_buf_printf(&text, "%s -\n", names[i]);
    }
    s = parse_text_ok(text.p, text.len);
    for (int t = 0; t < 300000; t++) {
        for (int k = 0; k < 4; k++)
            probe[k] = (char)((rand() % 2 ? 'a' : 'A') + rand() % 26);
        assert_int_equal(rtm_skeleton_find(s, probe, 4), find_in(names, N, probe, 4));
    }
    rtm_skeleton_free(s);
    rtm_buf_free(&text);
}

static const char PIVOTS[] =
    "# bone parent x y z\n"
    "root -   0 1.25 -0\n"
    "\n"
    "hip\troot 0.5e-1 -0.875 +2   placed   # a rule put it here\r\n"
    "Leg HIP -1e-3 .5 7.\n"
    "arm root 1 2 3 #placed (a comment, not the word)\n"
    "foot leg 3.4e38 -100000 0.00001 placed";   /* no final newline */

static void parse_pivots(void **state)
{
    (void)state;
    struct rtm_skeleton *s = parse_text_ok(PIVOTS, sizeof PIVOTS - 1);
    static const float xyz[5][3] = {
        { 0, 1.25f, 0 }, { 0.05f, -0.875f, 2 }, { -1e-3f, 0.5f, 7 },
        { 1, 2, 3 }, { 3.4e38f, -100000, 0.00001f },
    };
    static const uint8_t placed[5] = { 0, 1, 0, 0, 1 };
    static const int32_t parents[5] = { -1, 0, 1, 0, 2 };
    assert_int_equal(s->nbones, 5);
    assert_true(rtm_skeleton_has_pivots(s));
    assert_non_null(s->pivot);
    assert_non_null(s->placed);
    for (uint32_t i = 0; i < 5; i++) {
        assert_int_equal(s->parent[i], parents[i]);
        assert_int_equal(s->placed[i], placed[i]);
        for (int k = 0; k < 3; k++)
            if (s->pivot[i][k] != xyz[i][k])
                fail_msg("bone %u axis %d: %g, not %g", i, k, s->pivot[i][k], xyz[i][k]);
    }
    assert_true(signbit(s->pivot[0][2])); /* "-0" is read as it is */
    rtm_skeleton_free(s);
}

/* A file's lines all have X Y Z or none does; the numbers are finite
 * decimals; only "placed" may follow them.  Each error names its line. */
static void parse_pivot_errors(void **state)
{
    (void)state;
    char longnum[80] = "a - 0 0 ";
    memset(longnum + 8, '1', 65);
#define F(lit, w, w2) parse_fails(lit, sizeof(lit) - 1, w, w2)
    F("a -\nb a 1 2 3\n", "line 2", "(line 1)");               /* mixed: pivot later */
    F("# x\n\na - 0 0 0\nb a\nc a 1 1 1\n", "line 4", "(line 3)"); /* mixed: none later */
    F("a - 0 0 0\nb a 1 1 1\nc b\n", "line 3", "'c' has no pivot");
    F("a - nan 0 0\n", "line 1", "'nan'");
    F("a - 0 0 0\nb a 0 NAN 0\n", "line 2", "'NAN'");
    F("a - 0 0 0\nb a 0 0 inf\n", "line 2", "'inf'");
    F("a - 0 0 0\nb a -infinity 0 0\n", "line 2", "'-infinity'");
    F("a - 0 0 0\n\nb a 1e999 0 0\n", "line 3", "out of range");
    F("a - 0 0 0\nb a 0 -1e39 0\n", "line 2", "out of range");
    F("a - 0 0 0\nb a 0 1.0x 0\n", "line 2", "'1.0x'");
    F("a - 0x1p3 0 0\n", "line 1", "'0x1p3'");                 /* hex floats too */
    F("a - 1..0 0 0\n", "line 1", "not a decimal");
    F("a - 0 0 0\nb a 1e 0 0\n", "line 2", "'1e'");
    F("a - 0 0 0\nb a - 0 0\n", "line 2", "X of 'b' is '-'");
    F("a - 0 0 0\nb a 1 2\n", "line 2", "no Z");               /* missing Z */
    F("a - 0 0 0\nb a 1 2 # 3\n", "line 2", "no Z");           /* Z commented out */
    F("a - 0 0 0\nb a 1 2 3 4\n", "line 2", "'4'");            /* extra token */
    F("a - 0 0 0 placed x\n", "line 1", "'x'");
    F("a - 0 0 0 placed placed\n", "line 1", "only the word 'placed'");
    F("a - 0 0 0 Placed\n", "line 1", "'Placed'");             /* the word is exact */
    F("a - b a\n", "line 1", "X of 'a' is 'b'");               /* one bone a line */
#undef F
    parse_fails(longnum, strlen(longnum), "line 1", "longer");
}

/* The writer's exact text: parent by its own spelling, %.4f, never -0. */
static void write_format(void **state)
{
    (void)state;
    static const char in[] = "Root - 0 1.5 -0\nhip ROOT 0.12344 -2 -0.00001 placed\n"
                             "toe hip 3e38 1e-9 -7.25\n";
    static const char want[] = "Root - 0.0000 1.5000 0.0000\n"
                               "hip Root 0.1234 -2.0000 0.0000 placed\n"
                               "toe hip 300000000549775575777803994281145270272.0000 "
                               "0.0000 -7.2500\n";
    struct rtm_skeleton *s = parse_text_ok(in, sizeof in - 1);
    size_t len;
    char *out = write_text(s, &len);
    assert_string_equal(out, want);
    free(out);
    rtm_skeleton_free(s);

    static const char bare[] = "a -\n  B a # c\nc b\n";
    s = parse_text_ok(bare, sizeof bare - 1);
    out = write_text(s, &len);
    assert_string_equal(out, "a -\nB a\nc B\n");
    free(out);
    rtm_skeleton_free(s);
}

/* a and b have the same bones, parents, placed flags and pivots (within
 * the writer's 4 decimals: it rounds by at most 5e-5 and the reader by
 * no more than that again). */
static void assert_same_skeleton(const struct rtm_skeleton *a, const struct rtm_skeleton *b)
{
    assert_int_equal(a->nbones, b->nbones);
    assert_int_equal(rtm_skeleton_has_pivots(a), rtm_skeleton_has_pivots(b));
    for (uint32_t i = 0; i < a->nbones; i++) {
        assert_string_equal(a->bone[i], b->bone[i]);
        assert_int_equal(a->parent[i], b->parent[i]);
        if (!a->pivot)
            continue;
        assert_int_equal(a->placed[i], b->placed[i]);
        for (int k = 0; k < 3; k++)
            if (fabs((double)a->pivot[i][k] - b->pivot[i][k]) > 1e-4)
                fail_msg("%s axis %d: %.9g, then %.9g", a->bone[i], k, a->pivot[i][k],
                         b->pivot[i][k]);
    }
}

/* parse(write(s)) is s, and writing that again gives the same bytes. */
static void round_trip(const struct rtm_skeleton *s)
{
    size_t len, len2;
    char *text = write_text(s, &len);
    struct rtm_skeleton *back = parse_text_ok(text, len);
    assert_same_skeleton(s, back);
    char *again = write_text(back, &len2);
    assert_string_equal(text, again);
    free(again);
    free(text);
    rtm_skeleton_free(back);
}

static void round_trip_pivots(void **state)
{
    (void)state;
    struct rtm_skeleton *s = parse_text_ok(PIVOTS, sizeof PIVOTS - 1);
    round_trip(s);
    rtm_skeleton_free(s);
    static const char odd[] = "- - 0.00005 -0.00004999 1023.99997\n"
                              "a - 1024.03125 0.03125 -123.45678 placed\n";
    s = parse_text_ok(odd, sizeof odd - 1);
    round_trip(s);
    rtm_skeleton_free(s);
}

/* The built-in round-trips, and bit for bit: its pivots are C float
 * constants generated from the "%.4f" words of the estimate, and reading
 * those words back with the parser (strtof) gives the very same floats.
 * Were the compiler to round one constant otherwise, views made with ofp2
 * would change by a float's last bit. */
static void round_trip_ofp2(void **state)
{
    (void)state;
    struct rtm_skeleton *s = open_ok("ofp2");
    assert_true(rtm_skeleton_has_pivots(s));
    round_trip(s);
    size_t len;
    char *text = write_text(s, &len);
    uint32_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    assert_int_equal(lines, s->nbones); /* one bone a line */
    assert_int_equal(strncmp(text, "Pelvis - -0.0007 -0.0390 0.0016 placed\n", 39), 0);
    struct rtm_skeleton *back = parse_text_ok(text, len);
    for (uint32_t i = 0; i < s->nbones; i++) {
        assert_int_equal(s->placed[i], back->placed[i]);
        for (int k = 0; k < 3; k++)
            if (memcmp(&s->pivot[i][k], &back->pivot[i][k], sizeof(float)))
                fail_msg("%s axis %d: table %a, its text reads as %a", s->bone[i], k,
                         (double)s->pivot[i][k], (double)back->pivot[i][k]);
    }
    /* every bone is found by its name in any case, and only there */
    for (uint32_t i = 0; i < s->nbones; i++) {
        char upper[256];
        size_t n = strlen(s->bone[i]);
        assert_true(n < sizeof upper);
        for (size_t c = 0; c <= n; c++)
            upper[c] = (char)(s->bone[i][c] >= 'a' && s->bone[i][c] <= 'z'
                              ? s->bone[i][c] - 'a' + 'A' : s->bone[i][c]);
        assert_int_equal(find(s, s->bone[i]), (int32_t)i);
        assert_int_equal(find(s, upper), (int32_t)i);
    }
    rtm_skeleton_free(back);
    free(text);
    rtm_skeleton_free(s);
}

/* rtm_skeleton_match gives each bone's index as rtm_skeleton_find does
 * (any case, -1 when absent) and, per skeleton bone, the first bone that
 * has its name, as rtm_skeleton_first_bones does. */
static void match_bones(void **state)
{
    (void)state;
    struct rtm_skeleton *s = open_ok("ofp2");
    static const char *const names[] = { "Spine", "nobody", "spine", "PELVIS", "Pelvis2" };
    struct rtm_str bones[5];
    for (int i = 0; i < 5; i++)
        bones[i] = (struct rtm_str){ names[i], (uint32_t)strlen(names[i]) };
    int32_t index[5];
    int32_t *first = rtm_skeleton_match(s, bones, 5, index);
    int32_t *alone = rtm_skeleton_first_bones(s, bones, 5);
    assert_non_null(first);
    assert_non_null(alone);
    assert_int_equal(index[0], find(s, "Spine"));
    assert_int_equal(index[1], -1);
    assert_int_equal(index[2], find(s, "Spine"));
    assert_int_equal(index[3], 0);
    assert_int_equal(index[4], -1);
    assert_int_equal(first[find(s, "Spine")], 0);   /* the first of the two */
    assert_int_equal(first[0], 3);
    assert_int_equal(first[find(s, "LeftHand")], -1);
    assert_memory_equal(first, alone, s->nbones * sizeof *first);
    free(first);
    free(alone);
    rtm_skeleton_free(s);
}

/* "none", and any skeleton without pivot columns, has no pivots. */
static void no_pivots(void **state)
{
    (void)state;
    assert_false(rtm_skeleton_has_pivots(NULL));
    struct rtm_skeleton *s = open_ok("none");
    assert_false(rtm_skeleton_has_pivots(s));
    assert_null(s->pivot);
    assert_null(s->placed);
    size_t len;
    char *text = write_text(s, &len);
    assert_int_equal(len, 0);
    free(text);
    rtm_skeleton_free(s);
    s = parse_text_ok(GOOD, sizeof GOOD - 1);
    assert_false(rtm_skeleton_has_pivots(s));
    assert_null(s->pivot);
    assert_null(s->placed);
    round_trip(s);
    rtm_skeleton_free(s);
    s = parse_text_ok("# only a comment\n", 17);
    assert_false(rtm_skeleton_has_pivots(s));
    rtm_skeleton_free(s);
}

/* A pivot's coordinates as printf's "%.4f" writes them, a negative zero
 * (or what rounds to it) as 0.0000: random floats of every exponent that
 * prints, ties of the fourth decimal, and what is not finite. */
static void pivots_written_as_printf(void **state)
{
    (void)state;
    uint32_t seed = 99;
    for (int i = 0; i < 200000; i++) {
        float xyz[3];
        char want[3][96];
        for (int k = 0; k < 3; k++) {
            uint32_t bits;
            seed = seed * 1664525u + 1013904223u;
            bits = seed;
            if (i % 4 == 1)             /* the sizes pivots have: below 2^11 */
                bits = (bits & 0x807fffffu) | ((100u + (bits >> 24) % 38) << 23);
            if (i % 4 == 2)             /* halves of the fourth decimal */
                bits = 0;
            memcpy(&xyz[k], &bits, 4);
            if (i % 4 == 2)
                xyz[k] = (float)((int)(seed % 200001) - 100000) / 20000.0f;
            snprintf(want[k], sizeof want[k], "%.4f", (double)xyz[k]);
        }
        struct rtm_buf b;
        rtm_buf_init(&b);
        rtm_skeleton_put_pivot(&b, xyz, 0);
        rtm_buf_putc(&b, 0);
        char expect[300] = "";
        for (int k = 0; k < 3; k++)
            snprintf(expect + strlen(expect), sizeof expect - strlen(expect), " %s",
                     strcmp(want[k], "-0.0000") == 0 ? want[k] + 1 : want[k]);
        if (strcmp(b.p, expect))
            fail_msg("%.9g %.9g %.9g: \"%s\", printf \"%s\"", (double)xyz[0], (double)xyz[1],
                     (double)xyz[2], b.p, expect);
        rtm_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pivots_written_as_printf),
        cmocka_unit_test(ofp2_builtin),
        cmocka_unit_test(none_builtin),
        cmocka_unit_test(parse_good_text),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(parse_long_name),
        cmocka_unit_test(open_file),
        cmocka_unit_test(open_missing_file),
        cmocka_unit_test(builtin_any_case),
        cmocka_unit_test(find_folds_ascii_only),
        cmocka_unit_test(find_as_bytewise),
        cmocka_unit_test(parse_pivots),
        cmocka_unit_test(parse_pivot_errors),
        cmocka_unit_test(write_format),
        cmocka_unit_test(round_trip_pivots),
        cmocka_unit_test(round_trip_ofp2),
        cmocka_unit_test(no_pivots),
        cmocka_unit_test(match_bones),
    };
    return run_test_cases(tests, NULL, NULL);
}
