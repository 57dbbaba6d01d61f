/* testutil.c - what testutil.h declares, compiled once into librtmtest.a. */
#include "testutil.h"


/* Whether name matches pattern as cmocka's test filter matches them (its
 * c_strmatch): '*' any run of characters, '?' any one, nothing else
 * special. */
static int case_matches(const char *name, const char *pattern)
{
    for (;;) {
        if (*pattern == '\0')
            return *name == '\0';
        if (*pattern == '*') {
            pattern++;
            if (*pattern == '\0')
                return 1;
            for (; *name; name++)
                if (case_matches(name, pattern))
                    return 1;
            return 0;
        }
        if (*name == '\0' || (*pattern != '?' && *name != *pattern))
            return 0;
        name++;
        pattern++;
    }
}

/* With TEST_CASE set (and not empty), has cmocka run only the cases whose
 * name it matches; 1, after saying so on stderr with the program's cases,
 * when it matches none (a run of nothing would pass). */
int select_cases(const struct CMUnitTest *tests, size_t n)
{
    const char *want = getenv("TEST_CASE");
    size_t hits = 0;
    if (!want || !*want)
        return 0;
    for (size_t i = 0; i < n; i++)
        hits += tests[i].name && case_matches(tests[i].name, want);
    if (hits) {
        cmocka_set_test_filter(want);
        return 0;
    }
    fprintf(stderr, "%s: TEST_CASE=%s matches none of its %zu cases:\n",
            program_invocation_short_name, want, n);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "    %s\n", tests[i].name ? tests[i].name : "(unnamed)");
    return 1;
}

/* The shared corpus directory, or NULL (after saying so) when absent. */
const char *shared_dir(void)
{
    const char *d = getenv("RTMFS_SHARED");
    if (!d)
        d = "../shared";
    static char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/corpus/MANIFEST.tsv", d);
    if (stat(path, &st) != 0) {
        fprintf(stderr, "note: %s/corpus not found; real-file tests skipped "
                        "(set RTMFS_SHARED to the shared directory)\n", d);
        return NULL;
    }
    snprintf(path, sizeof path, "%s", d);
    return path;
}

int corpus_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .rtm MANIFEST.tsv lists; -1 without the corpus. */
int corpus_list(struct corpus *c)
{
    const char *dir = shared_dir();
    char path[4200];
    uint8_t *text;
    size_t len;
    memset(c, 0, sizeof *c);
    snprintf(path, sizeof path, "%s/corpus/MANIFEST.tsv", dir ? dir : "");
    if (!dir || rtm_slurp(path, &text, &len))
        return -1;
    char *save = NULL;
    c->path = calloc(len / 4 + 1, sizeof *c->path);
    assert_non_null(c->path);
    for (char *line = strtok_r((char *)text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, "\t\r")] = 0;
        size_t n = strlen(line);
        if (n < 4 || strcmp(line + n - 4, ".rtm") != 0)
            continue;
        assert_true(asprintf(&c->path[c->n++], "%s/corpus/%s", dir, line) > 0);
    }
    free(text);
    qsort(c->path, c->n, sizeof *c->path, corpus_cmp);
    return 0;
}

void corpus_free(struct corpus *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->path[i]);
    free(c->path);
}

/* Parses bytes with a skeleton spec ("ofp2", "none"); asserts success. */
struct rtm_anim *parse_ok(const struct rtm_buf *b, const char *skel)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open(skel, &s, &err), 0);
    struct rtm_anim *a = NULL;
    int rc = rtm_parse((const uint8_t *)b->p, b->len, s, &a, &err);
    if (rc)
        fail_msg("parse failed: %s (at byte %llu)", err.msg,
                 (unsigned long long)err.offset);
    rtm_skeleton_free(s);
    return a;
}

/* Parses bytes with a skeleton given as text (skeleton.h's file form,
 * named name); asserts success. */
struct rtm_anim *parse_with_skeleton(const struct rtm_buf *b, const char *text,
                                     const char *name)
{
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_parse(text, strlen(text), name, &s, &err), 0);
    struct rtm_anim *a = NULL;
    assert_int_equal(rtm_parse((const uint8_t *)b->p, b->len, s, &a, &err), 0);
    rtm_skeleton_free(s);
    return a;
}

/* A corpus file read and parsed with s; asserts success. */
struct rtm_anim *corpus_anim(const char *path, const struct rtm_skeleton *s)
{
    uint8_t *data;
    size_t len;
    struct rtm_error err;
    struct rtm_anim *a = NULL;
    assert_int_equal(rtm_slurp(path, &data, &len), 0);
    if (rtm_parse(data, len, s, &a, &err))
        fail_msg("%s: %s", path, err.msg);
    free(data);
    return a;
}

/* The writer's standing figure (samples.h) of nframes frames, parsed with
 * its own skeleton (pivots); asserts success. */
struct rtm_anim *sample_figure(uint32_t nframes)
{
    struct rtm_buf rtm, skel;
    rtm_buf_init(&rtm);
    rtm_buf_init(&skel);
    assert_int_equal(rtm_sample_figure(nframes, &rtm, &skel), 0);
    rtm_buf_putc(&skel, 0);
    struct rtm_anim *a = parse_with_skeleton(&rtm, skel.p, "figure");
    rtm_buf_free(&rtm);
    rtm_buf_free(&skel);
    return a;
}

/* Renders a view into a new NUL-terminated string (caller frees). */
char *render(const struct rtm_anim *a, struct rtm_view v, size_t *len)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_view_render(a, v, &b), 0);
    rtm_buf_putc(&b, 0);
    assert_false(b.oom);
    if (len)
        *len = b.len - 1;
    return rtm_buf_take(&b, NULL);
}

uint64_t lcg_state;

uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(lcg_state >> 32);
}
