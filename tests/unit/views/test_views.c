/* test_views.c - the rendered bytes of each view (views.h): header.txt's
 * keys and whole text, -0 in a summary, bones.txt and phases.csv, the frame
 * CSVs read back bit for bit, props.json checked as JSON, and plain.rtm.
 * Names and lookup: test_view_names; views that agree with each other and
 * their sizes: test_views_agree. */
#include "testutil.h"

#include "binarise.h"
#include "views_testutil.h"

#include <math.h>

#include "numfmt.h"

/* ---- rendered text ----------------------------------------------------- */

/* The value of "key: " at the start of a line, up to the newline. */
static char *header_value(const char *text, const char *key, char *out, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "%s: ", key);
    for (const char *line = text; line && *line; ) {
        if (strncmp(line, pat, strlen(pat)) == 0) {
            const char *v = line + strlen(pat), *end = strchr(v, '\n');
            assert_non_null(end);
            snprintf(out, n, "%.*s", (int)(end - v), v);
            return out;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    fail_msg("header.txt has no key \"%s\":\n%s", key, text);
    return NULL;
}

static void header_keys(void **state)
{
    (void)state;
    char val[256], num[32];
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(1, &src);
    char *h = render_path(a, "header.txt", NULL);
    assert_string_equal(header_value(h, "format", val, sizeof val), "plain");
    assert_string_equal(header_value(h, "version", val, sizeof val), "RTM_0101");
    assert_string_equal(header_value(h, "frames", val, sizeof val), "3");
    assert_string_equal(header_value(h, "bones", val, sizeof val), "5");
    assert_string_equal(header_value(h, "properties", val, sizeof val), "3");
    assert_string_equal(header_value(h, "motion", val, sizeof val), "x 0.5 y 0 z -1.25 (metres)");
    assert_string_equal(header_value(h, "first_phase", val, sizeof val), "0");
    assert_string_equal(header_value(h, "last_phase", val, sizeof val), "1");
    header_value(h, "skeleton", val, sizeof val);
    snprintf(num, sizeof num, "%zu", src.len);
    assert_string_equal(header_value(h, "source_bytes", val, sizeof val), num);
    assert_string_equal(header_value(h, "mdat_properties_block", val, sizeof val), "yes");
    assert_string_equal(header_value(h, "trailing_bytes", val, sizeof val), "5");
    assert_int_equal(h[strlen(h) - 1], '\n');
    free(h);
    rtm_free(a);
    rtm_buf_free(&src);

    a = bmtr_anim(5, 4, 70, 2);
    h = render_path(a, "header.txt", NULL);
    assert_string_equal(header_value(h, "format", val, sizeof val), "bmtr");
    assert_string_equal(header_value(h, "version", val, sizeof val), "5");
    assert_string_equal(header_value(h, "frames", val, sizeof val), "4");
    assert_string_equal(header_value(h, "bones", val, sizeof val), "70");
    assert_string_equal(header_value(h, "properties", val, sizeof val), "2");
    assert_string_equal(header_value(h, "motion", val, sizeof val), "x 0 y 0 z 1.25 (metres)");
    assert_string_equal(header_value(h, "first_phase", val, sizeof val), "0");
    assert_string_equal(header_value(h, "last_phase", val, sizeof val), "1");
    /* the skeleton line names the skeleton and the composed count */
    header_value(h, "skeleton", val, sizeof val);
    assert_non_null(strstr(val, "ofp2"));
    snprintf(num, sizeof num, "%u of 70", a->composed);
    assert_non_null(strstr(val, num));
    snprintf(num, sizeof num, "%llu", (unsigned long long)a->source_bytes);
    assert_string_equal(header_value(h, "source_bytes", val, sizeof val), num);
    assert_string_equal(header_value(h, "compression_flag_per_array", val, sizeof val), "yes");
    assert_string_equal(header_value(h, "reversed_flag", val, sizeof val), "1");
    assert_string_equal(header_value(h, "engine_preload_count", val, sizeof val), "0");
    assert_string_equal(header_value(h, "metadata_strings", val, sizeof val), "0");
    free(h);
    rtm_free(a);

    /* no frames: the phase lines say so */
    a = counts_only(0);
    h = render_path(a, "header.txt", NULL);
    assert_string_equal(header_value(h, "first_phase", val, sizeof val), "none");
    assert_string_equal(header_value(h, "last_phase", val, sizeof val), "none");
    assert_string_equal(header_value(h, "frames", val, sizeof val), "0");
    free(h);
    rtm_free(a);
}

/* The whole text, so that a line added, lost, renamed or moved shows: the
 * old cryptic names (byte8, preload_count, compression_flags, mdat, a bare
 * "phases") are gone. */
static void header_exact(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(1, &src);
    char *h = render_path(a, "header.txt", NULL), want[1024];
    snprintf(want, sizeof want,
             "format: plain\nversion: RTM_0101\nframes: 3\nbones: 5\nproperties: 3\n"
             "motion: x 0.5 y 0 z -1.25 (metres)\nfirst_phase: 0\nlast_phase: 1\n"
             "skeleton: none (used for pivots and bmtr.rtm: plain matrices are already model-space)\n"
             "rest_pose: none: the skeleton has no pivots, so no joints/, anim.bvh or anim.glb (mount "
             "with one that has, e.g. ofp2)\n"
             "uncomposed: 5 (bones with no parent here; skeleton.txt names them)\n"
             "matrices_left_out: 12 (NaN, infinite or determinant <= 0: not measured in "
             "moving.txt)\n"
             "scaled_bones: 1 (matrices not rotations: orthonormalised in moving.txt and "
             "anim.bvh)\n"
             "source_bytes: %zu\nmdat_properties_block: yes\ntrailing_bytes: 5\n"
             "fixed: nothing: no skeleton to check the bones against (skeleton none), so "
             "fixed.rtm is plain.rtm\n", src.len);
    assert_string_equal(h, want);
    free(h);
    rtm_free(a);
    rtm_buf_free(&src);

    /* v3: no metadata block, no flag bytes; the odd header fields as stored */
    const char *names[2] = { "pelvis", "spine" };
    float phases[2] = { 0.25f, 0.75f };
    uint8_t tr[2 * 2 * 14] = { 0 };
    struct bmtr_spec s = { .version = 3, .byte8 = 7, .motion = { 1, -2, 3.5f },
                           .preload = 42, .nbones = 2, .names = names, .nframes = 2,
                           .phases = phases, .transforms = tr };
    rtm_buf_init(&src);
    assert_int_equal(rtm_write_bmtr(&s, &src), 0);
    a = parse_ok(&src, "none");
    h = render_path(a, "header.txt", NULL);
    snprintf(want, sizeof want,
             "format: bmtr\nversion: 3\nframes: 2\nbones: 2\nproperties: 0\n"
             "motion: x 1 y -2 z 3.5 (metres)\nfirst_phase: 0.25\nlast_phase: 0.75\n"
             "skeleton: none (0 of 2 bones composed with a parent)\n"
             "rest_pose: none: the skeleton has no pivots, so no joints/, anim.bvh or anim.glb (mount "
             "with one that has, e.g. ofp2)\n"
             "uncomposed: 2 (bones with no parent here; skeleton.txt names them)\n"
             "matrices_left_out: 0 (NaN, infinite or determinant <= 0: not measured in "
             "moving.txt)\n"
             "scaled_bones: 0 (matrices not rotations: orthonormalised in moving.txt and "
             "anim.bvh)\n"
             "source_bytes: %zu\ncompression_flag_per_array: no\nreversed_flag: 7\n"
             "engine_preload_count: 42\n"
             "fixed: nothing: no skeleton to check the bones against (skeleton none), so "
             "fixed.rtm is plain.rtm\n", src.len);
    assert_string_equal(h, want);
    free(h);
    rtm_free(a);
    rtm_buf_free(&src);
}

/* header.txt is a summary: -0 in the motion vector or a phase is written 0
 * there, while phases.csv and the frames, which are data, keep -0. */
static void header_negative_zero(void **state)
{
    (void)state;
    const char *names[1] = { "pelvis" };
    float phases[2] = { -0.0f, -0.0f };
    uint8_t tr[2 * 14] = { 0 };
    char val[256];
    for (uint32_t version = 3; version <= 5; version++) {
        struct bmtr_spec s = { .version = version, .byte8 = 1,
                               .motion = { -0.0f, -0.0f, -0.0f }, .nbones = 1,
                               .names = names, .nframes = 2, .phases = phases,
                               .transforms = tr };
        struct rtm_buf src;
        rtm_buf_init(&src);
        assert_int_equal(rtm_write_bmtr(&s, &src), 0);
        struct rtm_anim *a = parse_ok(&src, "none");
        assert_true(signbit(a->motion[0]) && signbit(a->phases[1]));
        char *h = render_path(a, "header.txt", NULL);
        assert_string_equal(header_value(h, "motion", val, sizeof val), "x 0 y 0 z 0 (metres)");
        assert_string_equal(header_value(h, "first_phase", val, sizeof val), "0");
        assert_string_equal(header_value(h, "last_phase", val, sizeof val), "0");
        if (strstr(h, "-0"))
            fail_msg("header.txt writes -0:\n%s", h);
        free(h);
        h = render_path(a, "phases.csv", NULL);
        assert_string_equal(h, "frame,phase\n0,-0\n1,-0\n");
        free(h);
        rtm_free(a);
        rtm_buf_free(&src);
    }

    /* a plain file: the same, and what is not zero keeps its sign */
    struct rtm_buf src;
    rtm_buf_init(&src);
    rtm_buf_put(&src, "RTM_0101", 8);
    rtm_buf_put_f32(&src, -0.0f);
    rtm_buf_put_f32(&src, -1e-6f);
    rtm_buf_put_f32(&src, -0.0f);
    rtm_buf_put_u32(&src, 1);
    rtm_buf_put_u32(&src, 0);
    rtm_buf_put_f32(&src, -0.0f);
    struct rtm_anim *a = parse_ok(&src, "none");
    char *h = render_path(a, "header.txt", NULL);
    assert_string_equal(header_value(h, "motion", val, sizeof val), "x 0 y -1e-06 z 0 (metres)");
    assert_string_equal(header_value(h, "first_phase", val, sizeof val), "0");
    assert_string_equal(header_value(h, "last_phase", val, sizeof val), "0");
    free(h);
    rtm_free(a);
    rtm_buf_free(&src);
}

static void bones_and_phases(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(0, &src);
    char *s = render_path(a, "bones.txt", NULL);
    assert_string_equal(s, "Pelvis\nx,y\nsay \"hi\"\nback\\x5cslash\\xe9\nHead\n");
    free(s);
    s = render_path(a, "phases.csv", NULL);
    assert_string_equal(s, "frame,phase\n0,0\n1,0.5\n2,1\n");
    free(s);
    rtm_free(a);
    rtm_buf_free(&src);

    a = counts_only(0);
    s = render_path(a, "bones.txt", NULL);
    assert_string_equal(s, "");
    free(s);
    s = render_path(a, "phases.csv", NULL);
    assert_string_equal(s, "frame,phase\n");
    free(s);
    rtm_free(a);
}

/* Splits one CSV row into fields (RFC 4180 quotes); returns the count. */
static int csv_fields(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            char *o = ++p;
            field[n++] = o;
            for (;;) {
                assert_true(*p != 0);
                if (*p == '"' && p[1] == '"') {
                    *o++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *o++ = *p++;
                }
            }
            *o = 0;
            assert_true(*p == ',' || *p == 0);
        } else {
            field[n++] = p;
            p += strcspn(p, ",");
        }
        if (*p == 0)
            break;
        *p++ = 0;
    }
    return n;
}

/* A frame CSV: the header row, then one row per bone whose name is the
 * escaped name and whose 12 numbers read back as exactly the model's. */
static void check_frame_csv(const struct rtm_anim *a, uint32_t f)
{
    char path[RTM_VIEW_PATH_MAX];
    rtm_view_path(a, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = f }, path);
    size_t len;
    char *s = render_path(a, path, &len);
    assert_int_equal(strlen(s), len);
    static const char head[] = "bone,m11,m12,m13,m21,m22,m23,m31,m32,m33,m41,m42,m43\n";
    assert_memory_equal(s, head, sizeof head - 1);
    char *line = s + sizeof head - 1;
    for (uint32_t b = 0; b < a->nbones; b++) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl);
        *nl = 0;
        char *field[20];
        int n = csv_fields(line, field, 20);
        assert_int_equal(n, 13);
        /* the name is the escaped one */
        struct rtm_buf nb;
        rtm_buf_init(&nb);
        rtm_put_name(&nb, a->bones[b]);
        rtm_buf_putc(&nb, 0);
        assert_string_equal(field[0], nb.p);
        rtm_buf_free(&nb);
        const float *m = rtm_matrix(a, f, b);
        for (int k = 0; k < 12; k++) {
            char *end;
            float v = strtof(field[k + 1], &end);
            assert_true(*end == 0 && end != field[k + 1]);
            if (isnan(m[k]))
                assert_true(isnan(v));
            else if (memcmp(&v, &m[k], 4) != 0)
                fail_msg("frame %u bone %u m[%d]: \"%s\" is not %.9g", f, b, k,
                         field[k + 1], (double)m[k]);
        }
        line = nl + 1;
    }
    assert_int_equal(*line, 0); /* no extra rows */
    free(s);
}

static void frame_csv(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(0, &src);
    for (uint32_t f = 0; f < a->nframes; f++)
        check_frame_csv(a, f);
    /* quoting shows in the raw text */
    char *s = render_path(a, "frames/001.csv", NULL);
    assert_non_null(strstr(s, "\n\"x,y\",0.57,-0,"));
    assert_non_null(strstr(s, "\n\"say \"\"hi\"\"\","));
    assert_non_null(strstr(s, "\nPelvis,0.2,-0,nan,"));
    assert_non_null(strstr(s, "\nback\\x5cslash\\xe9,"));
    free(s);
    rtm_free(a);
    rtm_buf_free(&src);

    a = bmtr_anim(3, 3, 128, 0);
    for (uint32_t f = 0; f < a->nframes; f++)
        check_frame_csv(a, f);
    /* a frame outside the anim renders nothing */
    size_t len = 99;
    s = render(a, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = 3 }, &len);
    assert_int_equal(len, 0);
    free(s);
    rtm_free(a);
}

/* A small JSON checker: returns the position after one value, or NULL. */
static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *json_value(const char *p);

static const char *json_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (; *p != '"'; p++) {
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x80)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (!strchr("0123456789abcdefABCDEF", p[k]) || !p[k])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return p + 1;
}

static const char *json_value(const char *p)
{
    p = json_ws(p);
    if (*p == '"')
        return json_string(p);
    if (*p == '[' || *p == '{') {
        char close = *p == '[' ? ']' : '}';
        p = json_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                p = json_string(json_ws(p));
                if (!p || *(p = json_ws(p)) != ':')
                    return NULL;
                p++;
            }
            if (!(p = json_value(p)))
                return NULL;
            p = json_ws(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
        }
    }
    if (strncmp(p, "null", 4) == 0)
        return p + 4;
    /* a number by the JSON grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)? */
    const char *q = p;
    if (*q == '-')
        q++;
    if (*q == '0')
        q++;
    else if (*q >= '1' && *q <= '9')
        while (*q >= '0' && *q <= '9')
            q++;
    else
        return NULL;
    if (*q == '.') {
        if (!(*++q >= '0' && *q <= '9'))
            return NULL;
        while (*q >= '0' && *q <= '9')
            q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!(*q >= '0' && *q <= '9'))
            return NULL;
        while (*q >= '0' && *q <= '9')
            q++;
    }
    return q;
}

static void assert_json(const char *s)
{
    const char *end = json_value(s);
    if (!end || *json_ws(end) != 0)
        fail_msg("not valid JSON:\n%s", s);
}

static void props_json(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(0, &src);
    char *s = render_path(a, "props.json", NULL);
    assert_string_equal(s, "[]\n");
    assert_json(s);
    free(s);
    rtm_free(a);
    rtm_buf_free(&src);

    a = plain_anim(1, &src);
    s = render_path(a, "props.json", NULL);
    assert_json(s);
    assert_int_equal(s[0], '[');
    assert_int_equal(s[strlen(s) - 1], '\n');
    assert_non_null(strstr(s, "{\"phase\": 0.25, \"name\": \"Step\", \"value\": \"Sound\"}"));
    /* NaN phase is null; quote, backslash and control bytes are escaped */
    assert_non_null(strstr(s, "{\"phase\": null, \"name\": \"q\\\"\\\\x5c\", "
                              "\"value\": \"\\\\x01\\\\x0a\"}"));
    assert_non_null(strstr(s, "{\"phase\": -0, \"name\": \"\", \"value\": \"\"}"));
    free(s);
    rtm_free(a);
    rtm_buf_free(&src);

    a = bmtr_anim(4, 5, 10, 3);
    s = render_path(a, "props.json", NULL);
    assert_json(s);
    /* one object per property */
    size_t objs = 0;
    for (const char *p = s; (p = strstr(p, "\"phase\": ")); p++)
        objs++;
    assert_int_equal(objs, 3);
    free(s);
    rtm_free(a);
}

static void plain_rtm_view(void **state)
{
    (void)state;
    /* a plain source: exactly its bytes, junk and trailing bytes included */
    for (int props = 0; props <= 1; props++) {
        struct rtm_buf src;
        struct rtm_anim *a = plain_anim(props, &src);
        size_t len;
        char *s = render_path(a, "plain.rtm", &len);
        assert_int_equal(len, src.len);
        assert_memory_equal(s, src.p, src.len);
        free(s);
        rtm_free(a);
        rtm_buf_free(&src);
    }
    /* a BMTR source: the plain writer's output, which reads back */
    struct rtm_anim *a = bmtr_anim(5, 6, 66, 2);
    size_t len;
    char *s = render_path(a, "plain.rtm", &len);
    struct rtm_buf w;
    rtm_buf_init(&w);
    assert_int_equal(rtm_write_plain(a, &w), 0);
    assert_int_equal(len, w.len);
    assert_memory_equal(s, w.p, w.len);
    struct rtm_anim *p = parse_ok(&w, "none");
    assert_int_equal(p->nframes, 6);
    assert_int_equal(p->nbones, 66);
    assert_int_equal(p->nprops, 2);
    assert_memory_equal(p->matrices, a->matrices, 6 * 66 * 12 * sizeof(float));
    rtm_free(p);
    rtm_buf_free(&w);
    free(s);
    rtm_free(a);
}

/* bmtr.rtm: a BMTR source's own bytes, whatever its version; a plain
 * one binarised (binarise.h), which reads back as BMTR 5 with the same
 * bones, frames and properties. */
static void bmtr_rtm_view(void **state)
{
    (void)state;
    for (uint32_t version = 3; version <= 5; version++) {
        struct rtm_buf src;
        rtm_buf_init(&src);
        struct sample_opts o = { 6, 30, version, 2 };
        assert_int_equal(rtm_sample_bmtr(&o, version, BMTR_COMPRESS_AUTO, &src), 0);
        struct rtm_anim *a = parse_ok(&src, "ofp2");
        size_t len;
        char *s = render_path(a, "bmtr.rtm", &len);
        assert_int_equal(len, src.len);
        assert_memory_equal(s, src.p, src.len);
        free(s);
        rtm_free(a);
        rtm_buf_free(&src);
    }
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(1, &src);
    size_t len;
    char *s = render_path(a, "bmtr.rtm", &len);
    struct rtm_buf w;
    rtm_buf_init(&w);
    assert_int_equal(rtm_binarise(a, &w), 0);
    assert_int_equal(len, w.len);
    assert_memory_equal(s, w.p, w.len);
    struct rtm_anim *b = parse_ok(&w, "ofp2");
    assert_int_equal(b->format, RTM_FORMAT_BMTR);
    assert_int_equal(b->version, 5);
    assert_int_equal(b->nframes, a->nframes);
    assert_int_equal(b->nbones, a->nbones);
    assert_int_equal(b->nprops, a->nprops);
    rtm_free(b);
    rtm_buf_free(&w);
    free(s);
    rtm_free(a);
    rtm_buf_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_keys),
        cmocka_unit_test(header_exact),
        cmocka_unit_test(header_negative_zero),
        cmocka_unit_test(bones_and_phases),
        cmocka_unit_test(frame_csv),
        cmocka_unit_test(props_json),
        cmocka_unit_test(plain_rtm_view),
        cmocka_unit_test(bmtr_rtm_view),
    };
    return run_test_cases(tests, NULL, NULL);
}
