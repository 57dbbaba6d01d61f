/* test_corpus.c - every real file in shared/corpus against the reference
 * dumps in shared/corpus-expected: names, counts, phases, motion, properties
 * and the SHA-256 of plain.rtm with both the ofp2 and the none skeleton,
 * rendered from the anim and, for BMTR, converted as written (bmtr_plain.h).
 * Every view of every file is rendered too.  Skips when the corpus is absent.
 */
#include "testutil.h"

#include <math.h>
#include <strings.h>

#include "bmtr_plain.h"
#include "names.h"
#include "numfmt.h"

#include "json_mini.h"
#include "sha256.h"

static void sha256_abc(void **state)
{
    (void)state;
    char hex[SHA256_HEX_CHARS];
    sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, sizeof two - 1, hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* a million 'a': many blocks, fed in odd-sized pieces */
    struct sha256 s;
    uint8_t d[32], chunk[997];
    memset(chunk, 'a', sizeof chunk);
    sha256_init(&s);
    for (size_t left = 1000000; left;) {
        size_t n = left < sizeof chunk ? left : sizeof chunk;
        sha256_update(&s, chunk, n);
        left -= n;
    }
    sha256_final(&s, d);
    static const uint8_t want[4] = { 0xcd, 0xc7, 0x6e, 0x5c };
    assert_memory_equal(d, want, 4);
}

static void json_mini_reads(void **state)
{
    (void)state;
    static const char text[] =
        " {\"a\": [1, -2.5e3, 0.0250000004], \"s\": \"x\\\"\\\\\\u00e9\\ud83d\\ude00\\n\","
        " \"t\": true, \"f\": false, \"z\": null, \"o\": {}, \"e\": []} ";
    char err[128];
    struct jm_value *v = jm_parse(text, sizeof text - 1, err, sizeof err);
    assert_non_null(v);
    const struct jm_value *a = jm_get(v, "a");
    assert_non_null(a);
    assert_int_equal(a->type, JM_ARR);
    assert_int_equal(a->n, 3);
    assert_true(a->items[1]->num == -2500.0);
    assert_true((float)strtod(a->items[2]->text, NULL) == 0.025f);
    const struct jm_value *s = jm_get(v, "s");
    assert_int_equal(s->len, 10);
    assert_memory_equal(s->text, "x\"\\\xc3\xa9\xf0\x9f\x98\x80\n", 10);
    assert_true(jm_get(v, "t")->boolean);
    assert_false(jm_get(v, "f")->boolean);
    assert_int_equal(jm_get(v, "z")->type, JM_NULL);
    assert_int_equal(jm_get(v, "o")->n, 0);
    assert_int_equal(jm_get(v, "e")->type, JM_ARR);
    assert_null(jm_get(v, "missing"));
    jm_free(v);
    static const char *const bad[] = { "", "{", "[1,]", "{\"a\" 1}", "\"abc", "tru",
                                       "[1] 2", "\"\\x\"", "{\"a\":}", "-" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = jm_parse(bad[i], strlen(bad[i]), err, sizeof err);
        if (v)
            fail_msg("accepted bad JSON '%s'", bad[i]);
        assert_true(err[0] != 0);
    }
}

/* ---- one corpus file ------------------------------------------------- */

struct report {
    struct rtm_buf why;     /* the first mismatches, one line each */
    int problems;           /* of the current file */
};

static void problem(struct report *r, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(struct report *r, const char *file, const char *fmt, ...)
{
    if (r->problems++ >= 4) /* enough to diagnose a file */
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rtm_buf_printf(&r->why, "  %s: %s\n", file, msg);
}

static int str_eq(const struct jm_value *j, struct rtm_str s)
{
    return j && j->type == JM_STR && j->len == s.len && memcmp(j->text, s.s, s.len) == 0;
}

/* A float32 written as the repr of its double value. */
static int f32_eq(const struct jm_value *j, float v)
{
    if (!j || j->type != JM_NUM)
        return 0;
    float w = (float)strtod(j->text, NULL);
    return memcmp(&w, &v, sizeof v) == 0 || (w == v && w != 0);
}

static const struct jm_value *member(struct report *r, const char *file,
                                     const struct jm_value *o, const char *key,
                                     enum jm_type t)
{
    const struct jm_value *v = jm_get(o, key);
    if (!v || v->type != t) {
        problem(r, file, "expected JSON has no %s of the right type", key);
        return NULL;
    }
    return v;
}

static void check_model(struct report *r, const char *file, const struct jm_value *x,
                        const struct rtm_anim *a, size_t source_len)
{
    const struct jm_value *v;
    if ((v = member(r, file, x, "format", JM_STR))) {
        enum rtm_format want = strcmp(v->text, "plain") == 0 ? RTM_FORMAT_PLAIN
                                                             : RTM_FORMAT_BMTR;
        if (a->format != want)
            problem(r, file, "format %d, expected %s", (int)a->format, v->text);
    }
    v = jm_get(x, "version");
    if (a->format == RTM_FORMAT_BMTR) {
        if (!v || v->type != JM_NUM || v->num != a->version)
            problem(r, file, "version %u differs from the expected one", a->version);
    } else if (a->version != 0 || (v && v->type != JM_NULL)) {
        problem(r, file, "plain file with version %u", a->version);
    }
    if ((v = member(r, file, x, "source_bytes", JM_NUM)) &&
        (v->num != (double)a->source_bytes || a->source_bytes != source_len))
        problem(r, file, "source_bytes %llu, expected %s",
                (unsigned long long)a->source_bytes, v->text);
    if ((v = member(r, file, x, "frame_count", JM_NUM)) && v->num != a->nframes)
        problem(r, file, "frame_count %u, expected %s", a->nframes, v->text);
    if ((v = member(r, file, x, "bone_count", JM_NUM)) && v->num != a->nbones)
        problem(r, file, "bone_count %u, expected %s", a->nbones, v->text);

    if ((v = member(r, file, x, "bones", JM_ARR))) {
        if (v->n != a->nbones)
            problem(r, file, "%u bones, expected %zu names", a->nbones, v->n);
        for (uint32_t b = 0; b < a->nbones && b < v->n; b++)
            if (!str_eq(v->items[b], a->bones[b]))
                problem(r, file, "bone %u is '%s', expected '%s'", b, a->bones[b].s,
                        v->items[b]->type == JM_STR ? v->items[b]->text : "?");
    }
    if ((v = member(r, file, x, "phases", JM_ARR))) {
        if (v->n != a->nframes)
            problem(r, file, "%u phases, expected %zu", a->nframes, v->n);
        for (uint32_t f = 0; f < a->nframes && f < v->n; f++)
            if (!f32_eq(v->items[f], a->phases[f]))
                problem(r, file, "phase %u is %.9g, expected %s", f,
                        (double)a->phases[f],
                        v->items[f]->text ? v->items[f]->text : "?");
    }
    if ((v = member(r, file, x, "motion", JM_ARR))) {
        for (int i = 0; i < 3; i++)
            if (v->n != 3 || !f32_eq(v->items[i], a->motion[i]))
                problem(r, file, "motion[%d] is %.9g, not as expected", i,
                        (double)a->motion[i]);
    }
    if ((v = member(r, file, x, "properties", JM_ARR))) {
        if (v->n != a->nprops)
            problem(r, file, "%u properties, expected %zu", a->nprops, v->n);
        for (uint32_t i = 0; i < a->nprops && i < v->n; i++) {
            const struct jm_value *p = v->items[i];
            const struct rtm_prop *q = &a->props[i];
            if (p->type != JM_ARR || p->n != 3 || !f32_eq(p->items[0], q->phase) ||
                !str_eq(p->items[1], q->name) || !str_eq(p->items[2], q->value))
                problem(r, file, "property %u (%.9g, '%s', '%s') differs", i,
                        (double)q->phase, q->name.s, q->value.s);
        }
    }
}

/* Renders every view; checks plain.rtm's hash; returns the bytes rendered. */
static size_t check_views(struct report *r, const char *file, const struct rtm_anim *a,
                          const char *want_sha, const char *skel)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    size_t total = 0;
    char path[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        b.len = 0;
        rtm_view_path(a, v, path);
        if (rtm_view_render(a, v, &b) || b.oom) {
            problem(r, file, "rendering %s failed", path);
            break;
        }
        struct rtm_view back;
        if (rtm_view_lookup(a, path, &back) || back.kind != v.kind ||
            (v.kind == RTM_VIEW_FRAME && back.frame != v.frame))
            problem(r, file, "view %s does not look up to itself", path);
        total += b.len;
        if (v.kind == RTM_VIEW_PLAIN) {
            char hex[SHA256_HEX_CHARS];
            sha256_hex(b.p, b.len, hex);
            if (!want_sha || strcmp(hex, want_sha) != 0)
                problem(r, file, "plain.rtm with skeleton %s has sha256 %s, expected %s",
                        skel, hex, want_sha ? want_sha : "(missing)");
        }
    }
    rtm_buf_free(&b);
    return total;
}

/* rtm_plain_flush_fn: the piece appended to the buffer ctx. */
static int keep_piece(void *ctx, struct rtm_buf *out)
{
    rtm_buf_put(ctx, out->p, out->len);
    out->len = 0;
    return 0;
}

/* A BMTR file's plain.rtm converted as it is written (bmtr_plain.h, what
 * rtmcat writes) has the same hash as the one rendered from the anim. */
static void check_streamed(struct report *r, const char *file, const uint8_t *data,
                           size_t len, const struct rtm_skeleton *s, const char *want_sha)
{
    struct rtm_parse_opts o = { .skel = s };
    struct rtm_error e;
    struct rtm_buf out, whole;
    rtm_buf_init(&out);
    rtm_buf_init(&whole);
    int rc = rtm_bmtr_plain_each(data, len, &o, &out, 1 << 14, keep_piece, &whole, &e);
    char hex[SHA256_HEX_CHARS];
    sha256_hex(whole.p ? whole.p : "", whole.len, hex);
    if (rc || whole.oom || !want_sha || strcmp(hex, want_sha) != 0)
        problem(r, file, "plain.rtm written as converted with skeleton %s: rc %d, "
                "sha256 %s, expected %s", s->name, rc, hex, want_sha ? want_sha : "(missing)");
    rtm_buf_free(&out);
    rtm_buf_free(&whole);
}

/* ---- moving.txt and tracks/ ------------------------------------------- */

/* The rows of every frame: rows[f * nbones + b] points at bone b's row of
 * frames/f, after its name.  frames[f] owns the text. */
struct frame_rows {
    char **frames;
    const char **rows;
};

static void frame_rows(const struct rtm_anim *a, struct frame_rows *fr)
{
    fr->frames = calloc(a->nframes ? a->nframes : 1, sizeof *fr->frames);
    fr->rows = calloc((size_t)a->nframes * a->nbones + 1, sizeof *fr->rows);
    for (uint32_t f = 0; f < a->nframes; f++) {
        char *t = fr->frames[f] = render(a, (struct rtm_view){ .kind = RTM_VIEW_FRAME,
                                                               .frame = f }, NULL);
        for (uint32_t b = 0; b < a->nbones; b++) {
            struct rtm_buf name;
            rtm_buf_init(&name);
            rtm_put_csv_name(&name, a->bones[b]);
            t = strchr(t, '\n') + 1;
            fr->rows[(size_t)f * a->nbones + b] = t + name.len;
            rtm_buf_free(&name);
        }
    }
}

static void frame_rows_free(const struct rtm_anim *a, struct frame_rows *fr)
{
    for (uint32_t f = 0; f < a->nframes; f++)
        free(fr->frames[f]);
    free(fr->frames);
    free(fr->rows);
}

/* Each track's rows are "frame,phase" and the numbers of its frame rows. */
static void check_tracks(struct report *r, const char *file, const struct rtm_anim *a)
{
    struct frame_rows fr;
    frame_rows(a, &fr);
    for (uint32_t b = 0; b < a->nbones; b++) {
        char *t = render(a, (struct rtm_view){ .kind = RTM_VIEW_TRACK, .bone = b }, NULL);
        const char *line = strchr(t, '\n') + 1;
        for (uint32_t f = 0; f < a->nframes; f++) {
            const char *row = fr.rows[(size_t)f * a->nbones + b];
            size_t n = strcspn(row, "\n") + 1;
            const char *nums = strchr(strchr(line, ',') + 1, ',');
            if (strncmp(nums, row, n) != 0) {
                problem(r, file, "tracks/%s.csv row %u is not frame %u's", a->tracks->form[b],
                        f, f);
                break;
            }
            line = nums + n;
        }
        free(t);
    }
    frame_rows_free(a, &fr);
}

/* Bone b's rotation in frame f by Gram-Schmidt: rows 1 and 2 made
 * orthonormal, row 3 their cross product.  Not how moving.txt gets it. */
static void gram_schmidt(const struct rtm_anim *a, uint32_t f, uint32_t b, double g[3][3])
{
    const float *m = rtm_matrix(a, f, b);
    double n0 = sqrt((double)m[0] * m[0] + (double)m[1] * m[1] + (double)m[2] * m[2]);
    for (int c = 0; c < 3; c++)
        g[0][c] = m[c] / n0;
    double d = g[0][0] * m[3] + g[0][1] * m[4] + g[0][2] * m[5];
    for (int c = 0; c < 3; c++)
        g[1][c] = m[3 + c] - d * g[0][c];
    double n1 = sqrt(g[1][0] * g[1][0] + g[1][1] * g[1][1] + g[1][2] * g[1][2]);
    for (int c = 0; c < 3; c++)
        g[1][c] /= n1;
    g[2][0] = g[0][1] * g[1][2] - g[0][2] * g[1][1];
    g[2][1] = g[0][2] * g[1][0] - g[0][0] * g[1][2];
    g[2][2] = g[0][0] * g[1][1] - g[0][1] * g[1][0];
}

/* The largest angle (degrees) of b's rotation relative to its parent from
 * frame 0's, measured independently of motion.c; -1 when not finite. */
static double turn_of(const struct rtm_anim *a, uint32_t b)
{
    int32_t p = a->skel_parent[b];
    double rel0[3][3], most = 0;
    for (uint32_t f = 0; f < a->nframes; f++) {
        double gb[3][3], gp[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, rel[3][3];
        gram_schmidt(a, f, b, gb);
        if (p >= 0)
            gram_schmidt(a, f, (uint32_t)p, gp);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                rel[i][j] = gb[i][0] * gp[j][0] + gb[i][1] * gp[j][1] + gb[i][2] * gp[j][2];
        if (f == 0)
            memcpy(rel0, rel, sizeof rel);
        double tr = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                tr += rel[i][j] * rel0[i][j];
        double c = (tr - 1) / 2, deg = acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180 / M_PI;
        if (!isfinite(deg))
            return -1;
        most = deg > most ? deg : most;
    }
    return most;
}

struct lefthand {
    unsigned listed, turned, moving, turned_check;
};

/* Every name in moving.txt is a bone's; the LeftHand counts. */
static void check_moving(struct report *r, const char *file, const struct rtm_anim *a,
                         struct lefthand *lh)
{
    char *text = render(a, (struct rtm_view){ .kind = RTM_VIEW_MOVING }, NULL);
    int32_t hand = -1;
    for (uint32_t b = 0; b < a->nbones; b++)
        if (a->bones[b].len == 8 && strncasecmp(a->bones[b].s, "lefthand", 8) == 0)
            hand = (int32_t)b;
    for (char *line = text, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        char *sp = memchr(line, ' ', (size_t)(end - line));
        uint32_t b = 0;
        for (; b < a->nbones; b++) {
            struct rtm_buf tok;
            rtm_buf_init(&tok);
            rtm_put_token(&tok, a->bones[b]);
            int same = sp && tok.len == (size_t)(sp - line) && !memcmp(tok.p, line, tok.len);
            rtm_buf_free(&tok);
            if (same)
                break;
        }
        if (b == a->nbones) {
            problem(r, file, "moving.txt names no bone: %.*s", (int)(end - line), line);
            break;
        }
        if (lh && (int32_t)b == hand) {
            lh->moving++;
            lh->turned += strtod(sp + 1, NULL) > 0.1;
        }
    }
    if (lh && hand >= 0) {
        lh->listed++;
        lh->turned_check += turn_of(a, (uint32_t)hand) > 0.1;
    }
    free(text);
}

/* dir + "/" + a + b + c into path; fails the test when it does not fit. */
static void join(char *path, size_t n, const char *dir, const char *a, const char *b,
                 const char *c)
{
    if (snprintf(path, n, "%s/%s%s%s", dir, a, b, c) >= (int)n)
        fail_msg("path too long: %s/%s%s%s", dir, a, b, c);
}

static char *slurp_text(const char *path, size_t *len)
{
    uint8_t *d = NULL;
    if (rtm_slurp(path, &d, len))
        return NULL;
    return (char *)d;
}

static void check_file(struct report *r, const char *dir, const char *file,
                       struct lefthand *lh)
{
    char path[4096];
    uint8_t *data = NULL;
    size_t len = 0, jlen = 0;
    join(path, sizeof path, dir, "corpus/", file, "");
    if (rtm_slurp(path, &data, &len)) {
        problem(r, file, "cannot read %s", path);
        return;
    }
    join(path, sizeof path, dir, "corpus-expected/", file, ".json");
    char *text = slurp_text(path, &jlen), err[160];
    struct jm_value *x = text ? jm_parse(text, jlen, err, sizeof err) : NULL;
    free(text);
    if (!x) {
        problem(r, file, "cannot read %s%s%s", path, text ? ": " : "", text ? err : "");
        free(data);
        return;
    }
    char hex[SHA256_HEX_CHARS];
    const struct jm_value *src = jm_get(x, "source_sha256");
    sha256_hex(data, len, hex);
    if (!src || src->type != JM_STR || strcmp(src->text, hex) != 0)
        problem(r, file, "the corpus file's sha256 %s is not the expected source_sha256", hex);

    static const char *const skels[] = { "ofp2", "none" };
    for (size_t k = 0; k < 2; k++) {
        struct rtm_skeleton *s = NULL;
        struct rtm_error e;
        assert_int_equal(rtm_skeleton_open(skels[k], &s, &e), 0);
        struct rtm_anim *a = NULL;
        if (rtm_parse(data, len, s, &a, &e)) {
            char msg[320];
            rtm_err_format(&e, msg, sizeof msg);
            problem(r, file, "parse with skeleton %s failed: %s", skels[k], msg);
        } else {
            check_model(r, file, x, a, len);
            const char *want = NULL;
            const struct jm_value *w;
            if (a->format == RTM_FORMAT_PLAIN)
                w = src;
            else
                w = jm_get(x, k == 0 ? "plain_sha256_ofp2" : "plain_sha256_none");
            if (w && w->type == JM_STR)
                want = w->text;
            check_views(r, file, a, want, skels[k]);
            if (a->format == RTM_FORMAT_BMTR)
                check_streamed(r, file, data, len, s, want);
            check_tracks(r, file, a);
            check_moving(r, file, a, k == 0 ? lh : NULL);
        }
        rtm_free(a);
        rtm_skeleton_free(s);
    }
    jm_free(x);
    free(data);
}

static void corpus_matches(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    char path[4096];
    join(path, sizeof path, dir, "corpus/", "MANIFEST.tsv", "");
    size_t mlen;
    char *manifest = slurp_text(path, &mlen);
    assert_non_null(manifest);
    struct report r;
    rtm_buf_init(&r.why);
    unsigned files = 0, good = 0;
    struct lefthand lh = { 0, 0, 0, 0 };
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (tab)
            *tab = 0;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r')
            line[--n] = 0;
        if (n < 4 || strcmp(line + n - 4, ".rtm") != 0)
            continue; /* the header line, blank lines */
        files++;
        r.problems = 0;
        check_file(&r, dir, line, &lh);
        if (r.problems)
            rtm_buf_printf(&r.why, "MISMATCH %s (%d problems)\n", line, r.problems);
        else
            good++;
    }
    free(manifest);
    printf("corpus: %u of %u files match\n", good, files);
    printf("corpus: %u files list LeftHand; moving.txt (ofp2) lists it in %u, turned more "
           "than 0.1 degrees relative to its parent in %u (%u by Gram-Schmidt)\n",
           lh.listed, lh.moving, lh.turned, lh.turned_check);
    if (lh.turned != lh.turned_check)
        rtm_buf_printf(&r.why, "LeftHand turns in %u files by moving.txt, %u by Gram-Schmidt\n",
                       lh.turned, lh.turned_check), good = 0;
    if (good != files || files == 0) {
        rtm_buf_putc(&r.why, 0);
        fail_msg("corpus mismatches:\n%s", r.why.p ? r.why.p : "(no files)");
    }
    rtm_buf_free(&r.why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha256_abc),
        cmocka_unit_test(json_mini_reads),
        cmocka_unit_test(corpus_matches),
    };
    return run_test_cases(tests, NULL, NULL);
}
