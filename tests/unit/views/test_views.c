/* test_views.c - view names, lookup and rendered bytes (views.h). */
#include "testutil.h"

#include <math.h>

#include "numfmt.h"
#include "timing.h"

/* ---- fixtures ---------------------------------------------------------- */

/* An anim with only counts, for naming and lookup. */
static struct rtm_anim *counts_only(uint32_t nframes)
{
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, nframes, 0, 0, 0, 1);
    assert_non_null(a);
    return a;
}

static void put_field(struct rtm_buf *b, const char *raw, size_t n)
{
    char f[32] = { 0 };
    memcpy(f, raw, n);
    buf_put(b, f, 32);
}

/* Awkward bone names: a comma, a quote, a backslash, a byte > 127 and one
 * with junk after its NUL. */
static const char *const NAMES[] = { "Pelvis", "x,y", "say \"hi\"", "back\\slash\xe9",
                                     "Head\0junk" };
static const size_t NAME_LEN[] = { 6, 3, 8, 11, 9 };
enum { NB = 5, NF = 3 };

static float cell(uint32_t f, uint32_t b, int k)
{
    /* special values in a few cells, ordinary ones elsewhere */
    if (k == 1)
        return -0.0f;
    if (k == 2 && b == 0)
        return NAN;
    if (k == 3 && b == 1)
        return -(float)INFINITY;
    if (k == 4 && b == 2)
        return 1e-45f;
    if (k == 5 && b == 3)
        return 1e+30f;
    return (float)((f + 1) * 0.1 + b * 0.37 + k * 1e-3);
}

/* A plain file with an MDAT block (when props) and 5 trailing bytes. */
static void build_plain(struct rtm_buf *b, int props)
{
    buf_init(b);
    if (props) {
        buf_put(b, "RTM_MDAT", 8);
        buf_put_u32(b, 0);
        buf_put_u32(b, 3);
        buf_put_f32(b, 0.25f);
        buf_put(b, "\x04Step\x05Sound", 11);
        buf_put_f32(b, NAN);
        buf_put(b, "\x03q\"\\\x02\x01\n", 7);
        buf_put_f32(b, -0.0f);
        buf_put(b, "\x00\x00", 2);
    }
    buf_put(b, "RTM_0101", 8);
    buf_put_f32(b, 0.5f);
    buf_put_f32(b, 0.0f);
    buf_put_f32(b, -1.25f);
    buf_put_u32(b, NF);
    buf_put_u32(b, NB);
    for (uint32_t i = 0; i < NB; i++)
        put_field(b, NAMES[i], NAME_LEN[i]);
    for (uint32_t f = 0; f < NF; f++) {
        buf_put_f32(b, (float)f * 0.5f);
        for (uint32_t i = 0; i < NB; i++) {
            put_field(b, NAMES[i], NAME_LEN[i]);
            for (int k = 0; k < 12; k++)
                buf_put_f32(b, cell(f, i, k));
        }
    }
    buf_put(b, "trail", 5);
}

static struct rtm_anim *plain_anim(int props, struct rtm_buf *src)
{
    build_plain(src, props);
    return parse_ok(src, "none");
}

static struct rtm_anim *bmtr_anim(uint32_t version, uint32_t nframes, uint32_t nbones,
                                  uint32_t nprops)
{
    struct sample_opts o = { nframes, nbones, 9, nprops };
    struct rtm_buf b;
    buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, version, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    buf_free(&b);
    return a;
}

static char *render_path(const struct rtm_anim *a, const char *path, size_t *len)
{
    struct rtm_view v;
    if (rtm_view_lookup(a, path, &v))
        fail_msg("no view %s", path);
    return render(a, v, len);
}

/* ---- names and lookup -------------------------------------------------- */

static void fixed_names(void **state)
{
    (void)state;
    static const char *const want[] = { "header.txt", "bones.txt", "phases.csv",
                                        "props.json", "plain.rtm", "skeleton.txt",
                                        "moving.txt", "preview.svg", "check.txt",
                                        "anim.bvh" };
    for (int k = 0; k < RTM_NFIXED_VIEWS; k++)
        assert_string_equal(rtm_view_fixed_name((enum rtm_view_kind)k), want[k]);
    assert_null(rtm_view_fixed_name(RTM_VIEW_FRAME));

    struct rtm_anim *a = counts_only(12);
    assert_int_equal(rtm_view_count(a), RTM_VIEW_BVH + 12);  /* no pivots: no anim.bvh, joints/ */
    char path[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i), back;
        rtm_view_path(a, v, path);
        if (i < RTM_VIEW_BVH) {
            assert_int_equal(v.kind, (enum rtm_view_kind)i);
            assert_string_equal(path, want[i]);
        } else {
            assert_int_equal(v.kind, RTM_VIEW_FRAME);
            assert_int_equal(v.frame, i - RTM_VIEW_BVH);
        }
        assert_int_equal(rtm_view_lookup(a, path, &back), 0);
        assert_int_equal(back.kind, v.kind);
        if (v.kind == RTM_VIEW_FRAME)
            assert_int_equal(back.frame, v.frame);
    }
    rtm_view_path(a, rtm_view_at(a, RTM_VIEW_BVH), path);
    assert_string_equal(path, "frames/000.csv");
    rtm_view_path(a, rtm_view_at(a, RTM_VIEW_BVH + 11), path);
    assert_string_equal(path, "frames/011.csv");
    struct rtm_view none;
    assert_int_equal(rtm_view_lookup(a, "joints/000.csv", &none), -1);
    rtm_free(a);

    a = counts_only(0);
    assert_int_equal(rtm_view_count(a), RTM_VIEW_BVH);
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "anim.bvh", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "frames/000.csv", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "header.txt", &v), 0);
    rtm_free(a);
}

/* Frame names are zero-padded to 3 digits, or to the digits of the last
 * index when that has more. */
static void frame_name_width(void **state)
{
    (void)state;
    static const struct { uint32_t nframes; const char *first, *last; } cases[] = {
        { 1, "frames/000.csv", "frames/000.csv" },
        { 1000, "frames/000.csv", "frames/999.csv" },
        { 1001, "frames/0000.csv", "frames/1000.csv" },
        { 10000, "frames/0000.csv", "frames/9999.csv" },
        { 10001, "frames/00000.csv", "frames/10000.csv" },
    };
    char path[RTM_VIEW_PATH_MAX], name[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rtm_anim *a = counts_only(cases[i].nframes);
        struct rtm_view v = { .kind = RTM_VIEW_FRAME, .frame = 0 }, got;
        rtm_view_path(a, v, path);
        assert_string_equal(path, cases[i].first);
        v.frame = cases[i].nframes - 1;
        rtm_view_path(a, v, path);
        assert_string_equal(path, cases[i].last);
        rtm_frame_name(a, v.frame, name);
        assert_string_equal(name, cases[i].last + 7);
        assert_int_equal(rtm_view_lookup(a, cases[i].last, &got), 0);
        assert_int_equal(got.kind, RTM_VIEW_FRAME);
        assert_int_equal(got.frame, cases[i].nframes - 1);
        uint32_t f = 0;
        assert_int_equal(rtm_frame_lookup(a, cases[i].last + 7, &f), 0);
        assert_int_equal(f, cases[i].nframes - 1);
        rtm_free(a);
    }
}

static void lookup_rejects(void **state)
{
    (void)state;
    struct rtm_anim *a = counts_only(1000); /* width 3, last frame 999 */
    static const char *const bad3[] = {
        "frames/5.csv", "frames/05.csv", "frames/0005.csv", "frames/1000.csv",
        "nope", "", "frames", "frames/", "frames/.csv", "frames/00a.csv",
        "frames/-01.csv", "frames/+01.csv", "frames/ 01.csv", "frames/000.CSV",
        "frames/000.csv.bak", "frames/000.csvx", "frames/000.cs", "frames000.csv",
        "/header.txt", "header.txt/", "HEADER.TXT", "header.txt\n", "frames//000.csv",
        "Frames/000.csv", "frames/000",
    };
    struct rtm_view v;
    for (size_t i = 0; i < sizeof bad3 / sizeof bad3[0]; i++)
        if (rtm_view_lookup(a, bad3[i], &v) == 0)
            fail_msg("\"%s\" was accepted", bad3[i]);
    assert_int_equal(rtm_view_lookup(a, "frames/999.csv", &v), 0);
    assert_int_equal(v.frame, 999);
    assert_int_equal(rtm_view_lookup(a, "frames/005.csv", &v), 0);
    assert_int_equal(v.frame, 5);
    uint32_t f;
    assert_int_equal(rtm_frame_lookup(a, "012.csv", &f), 0);
    assert_int_equal(f, 12);
    assert_int_equal(rtm_frame_lookup(a, "12.csv", &f), -1);
    rtm_free(a);

    a = counts_only(1001); /* width 4: the 3-digit names are gone */
    assert_int_equal(rtm_view_lookup(a, "frames/005.csv", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "frames/0005.csv", &v), 0);
    assert_int_equal(v.frame, 5);
    assert_int_equal(rtm_view_lookup(a, "frames/1001.csv", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "frames/9999.csv", &v), -1);
    rtm_free(a);
}

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
    buf_free(&src);

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
             "skeleton: none (used for pivots only: plain matrices are already model-space)\n"
             "rest_pose: none: the skeleton has no pivots, so no joints/ or anim.bvh (mount "
             "with one that has, e.g. ofp2)\n"
             "uncomposed: 5 (bones with no parent here; skeleton.txt names them)\n"
             "matrices_left_out: 12 (NaN, infinite or determinant <= 0: not measured in "
             "moving.txt)\n"
             "scaled_bones: 1 (matrices not rotations: orthonormalised in moving.txt and "
             "anim.bvh)\n"
             "source_bytes: %zu\nmdat_properties_block: yes\ntrailing_bytes: 5\n", src.len);
    assert_string_equal(h, want);
    free(h);
    rtm_free(a);
    buf_free(&src);

    /* v3: no metadata block, no flag bytes; the odd header fields as stored */
    const char *names[2] = { "pelvis", "spine" };
    float phases[2] = { 0.25f, 0.75f };
    uint8_t tr[2 * 2 * 14] = { 0 };
    struct bmtr_spec s = { .version = 3, .byte8 = 7, .motion = { 1, -2, 3.5f },
                           .preload = 42, .nbones = 2, .names = names, .nframes = 2,
                           .phases = phases, .transforms = tr };
    buf_init(&src);
    assert_int_equal(rtm_write_bmtr(&s, &src), 0);
    a = parse_ok(&src, "none");
    h = render_path(a, "header.txt", NULL);
    snprintf(want, sizeof want,
             "format: bmtr\nversion: 3\nframes: 2\nbones: 2\nproperties: 0\n"
             "motion: x 1 y -2 z 3.5 (metres)\nfirst_phase: 0.25\nlast_phase: 0.75\n"
             "skeleton: none (0 of 2 bones composed with a parent)\n"
             "rest_pose: none: the skeleton has no pivots, so no joints/ or anim.bvh (mount "
             "with one that has, e.g. ofp2)\n"
             "uncomposed: 2 (bones with no parent here; skeleton.txt names them)\n"
             "matrices_left_out: 0 (NaN, infinite or determinant <= 0: not measured in "
             "moving.txt)\n"
             "scaled_bones: 0 (matrices not rotations: orthonormalised in moving.txt and "
             "anim.bvh)\n"
             "source_bytes: %zu\ncompression_flag_per_array: no\nreversed_flag: 7\n"
             "engine_preload_count: 42\n", src.len);
    assert_string_equal(h, want);
    free(h);
    rtm_free(a);
    buf_free(&src);
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
        buf_init(&src);
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
        buf_free(&src);
    }

    /* a plain file: the same, and what is not zero keeps its sign */
    struct rtm_buf src;
    buf_init(&src);
    buf_put(&src, "RTM_0101", 8);
    buf_put_f32(&src, -0.0f);
    buf_put_f32(&src, -1e-6f);
    buf_put_f32(&src, -0.0f);
    buf_put_u32(&src, 1);
    buf_put_u32(&src, 0);
    buf_put_f32(&src, -0.0f);
    struct rtm_anim *a = parse_ok(&src, "none");
    char *h = render_path(a, "header.txt", NULL);
    assert_string_equal(header_value(h, "motion", val, sizeof val), "x 0 y -1e-06 z 0 (metres)");
    assert_string_equal(header_value(h, "first_phase", val, sizeof val), "0");
    assert_string_equal(header_value(h, "last_phase", val, sizeof val), "0");
    free(h);
    rtm_free(a);
    buf_free(&src);
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
    buf_free(&src);

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
        buf_init(&nb);
        rtm_put_name(&nb, a->bones[b]);
        buf_putc(&nb, 0);
        assert_string_equal(field[0], nb.p);
        buf_free(&nb);
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
    buf_free(&src);

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
    buf_free(&src);

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
    buf_free(&src);

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
        buf_free(&src);
    }
    /* a BMTR source: the plain writer's output, which reads back */
    struct rtm_anim *a = bmtr_anim(5, 6, 66, 2);
    size_t len;
    char *s = render_path(a, "plain.rtm", &len);
    struct rtm_buf w;
    buf_init(&w);
    assert_int_equal(rtm_write_plain(a, &w), 0);
    assert_int_equal(len, w.len);
    assert_memory_equal(s, w.p, w.len);
    struct rtm_anim *p = parse_ok(&w, "none");
    assert_int_equal(p->nframes, 6);
    assert_int_equal(p->nbones, 66);
    assert_int_equal(p->nprops, 2);
    assert_memory_equal(p->matrices, a->matrices, 6 * 66 * 12 * sizeof(float));
    rtm_free(p);
    buf_free(&w);
    free(s);
    rtm_free(a);
}

/* Rendering is deterministic and appends: twice gives the same bytes, and
 * rendering into a non-empty buffer keeps what was there. */
static void render_is_stable(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *anims[3];
    anims[0] = plain_anim(1, &src);
    anims[1] = bmtr_anim(3, 4, 128, 0);
    anims[2] = bmtr_anim(5, 3, 20, 1);
    for (int i = 0; i < 3; i++) {
        const struct rtm_anim *a = anims[i];
        for (size_t k = 0; k < rtm_view_count(a); k++) {
            struct rtm_view v = rtm_view_at(a, k);
            size_t l1, l2;
            char *r1 = render(a, v, &l1), *r2 = render(a, v, &l2);
            assert_int_equal(l1, l2);
            assert_memory_equal(r1, r2, l1);
            struct rtm_buf b;
            buf_init(&b);
            buf_puts(&b, "prefix");
            assert_int_equal(rtm_view_render(a, v, &b), 0);
            assert_int_equal(b.len, 6 + l1);
            assert_memory_equal(b.p, "prefix", 6);
            assert_memory_equal(b.p + 6, r1, l1);
            buf_free(&b);
            free(r1);
            free(r2);
        }
    }
    for (int i = 0; i < 3; i++)
        rtm_free(anims[i]);
    buf_free(&src);
}

/* A parse without matrices renders the other views byte for byte like a full
 * one, refuses the views that need matrices, and fails where it fails. */
static void light_parse_matches_full(void **state)
{
    (void)state;
    struct sample_opts o = { 7, 70, 5, 2 };
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    for (int k = 0; k < 3; k++) {
        struct rtm_buf b;
        buf_init(&b);
        assert_int_equal(k == 0 ? rtm_sample_plain(&o, &b)
                                : rtm_sample_bmtr(&o, k == 1 ? 3 : 5, BMTR_COMPRESS_ALL, &b), 0);
        struct rtm_anim *full, *light;
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, sk, 0, &full, &err), 0);
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, sk, RTM_PARSE_NO_MATRICES,
                                         &light, &err), 0);
        assert_true(full->has_matrices);
        assert_false(light->has_matrices);
        for (size_t i = 0; i < rtm_view_count(full); i++) {
            struct rtm_view v = rtm_view_at(full, i);
            struct rtm_buf lb;
            buf_init(&lb);
            if (rtm_view_needs_matrices(v)) {
                assert_int_equal(rtm_view_render(light, v, &lb), -1);
            } else {
                char *want = render(full, v, NULL);
                assert_int_equal(rtm_view_render(light, v, &lb), 0);
                buf_putc(&lb, 0);
                assert_string_equal(lb.p, want);
                free(want);
            }
            buf_free(&lb);
        }
        /* the same error, at the same byte, for a cut file */
        struct rtm_error e1, e2;
        struct rtm_anim *x;
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len - 5, sk, 0, &x, &e1), -1);
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len - 5, sk, RTM_PARSE_NO_MATRICES,
                                         &x, &e2), -1);
        assert_string_equal(e1.msg, e2.msg);
        assert_int_equal(e1.offset, e2.offset);
        rtm_free(full);
        rtm_free(light);
        buf_free(&b);
    }
    rtm_skeleton_free(sk);
}

/* ---- tracks and digits -------------------------------------------------- */

/* Each row of tracks/NAME.csv is "frame,phase" and then exactly the numbers
 * of that bone's row in frames/NNN.csv. */
static void expect_tracks_cut_from_frames(const struct rtm_anim *a)
{
    assert_int_equal(rtm_view_folder_size(a, RTM_VIEW_TRACK), a->nbones);
    for (uint32_t b = 0; b < a->nbones; b++) {
        char *track = render(a, (struct rtm_view){ .kind = RTM_VIEW_TRACK, .bone = b }, NULL);
        char *line = strchr(track, '\n') + 1;
        assert_memory_equal(track, "frame,phase,m11,", 16);
        for (uint32_t f = 0; f < a->nframes; f++) {
            char *frame = render(a, (struct rtm_view){ .kind = RTM_VIEW_FRAME, .frame = f }, NULL);
            char *row = frame;
            for (uint32_t k = 0; k <= b; k++)
                row = strchr(row, '\n') + 1;
            struct rtm_buf name, head;
            buf_init(&name);
            buf_init(&head);
            rtm_put_csv_name(&name, a->bones[b]);
            buf_printf(&head, "%u,", f);
            rtm_put_num(&head, a->phases[f], a->digits);
            assert_memory_equal(row, name.p, name.len);
            assert_memory_equal(line, head.p, head.len);
            size_t n = strcspn(row + name.len, "\n") + 1;
            assert_memory_equal(line + head.len, row + name.len, n);
            line += head.len + n;
            buf_free(&name);
            buf_free(&head);
            free(frame);
        }
        assert_int_equal(*line, 0);
        free(track);
    }
}

static void tracks_cut_from_frames(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(1, &src);
    expect_tracks_cut_from_frames(a);
    a->digits = 2;
    expect_tracks_cut_from_frames(a);
    rtm_free(a);
    buf_free(&src);
    a = bmtr_anim(5, 12, 30, 2);
    expect_tracks_cut_from_frames(a);
    a->digits = 4;
    expect_tracks_cut_from_frames(a);
    rtm_free(a);
}

/* File names of the awkward bones: escaped as bones.txt escapes, found
 * exactly and ignoring case, and listed in file order. */
static void track_names(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(0, &src);
    static const char *const want[NB] = { "Pelvis.csv", "x,y.csv", "say \"hi\".csv",
                                          "back\\x5cslash\\xe9.csv", "Head.csv" };
    char name[RTM_VIEW_NAME_MAX], path[RTM_VIEW_PATH_MAX];
    enum rtm_view_kind kind;
    assert_int_equal(rtm_view_folder_lookup(a, "tracks", &kind), 0);
    assert_int_equal(kind, RTM_VIEW_TRACK);
    for (uint32_t b = 0; b < NB; b++) {
        rtm_view_entry_name(a, RTM_VIEW_TRACK, b, name);
        assert_string_equal(name, want[b]);
        struct rtm_view v = { .kind = RTM_VIEW_TRACK, .bone = b }, back;
        rtm_view_path(a, v, path);
        assert_int_equal(rtm_view_lookup(a, path, &back), 0);
        assert_int_equal(back.kind, RTM_VIEW_TRACK);
        assert_int_equal(back.bone, b);
        assert_int_equal(rtm_view_index(a, v), rtm_view_nfixed(a) + NF + b);
    }
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "tracks/PELVIS.csv", &v), 0);
    assert_int_equal(v.bone, 0);
    assert_int_equal(rtm_view_lookup(a, "tracks/head.CSV", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "tracks/Pelvis", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "tracks/", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "tracks/.csv", &v), -1);
    rtm_free(a);
    buf_free(&src);
}

/* Whether every number of s (a csv or json text) has at most d decimals
 * and no exponent, and no "-0" stands alone. */
static void expect_fixed(const char *s, int d, const char *what)
{
    for (const char *p = s; *p; p++) {
        if (*p == 'e' && p > s && p[-1] >= '0' && p[-1] <= '9')
            fail_msg("%s: an exponent at '%.20s'", what, p - 1);
        if (*p == '.' && p > s && p[-1] >= '0' && p[-1] <= '9') {
            int n = (int)strspn(p + 1, "0123456789");
            if (n > d || (n && p[n] == '0'))
                fail_msg("%s: '%.20s' has %d decimals", what, p, n);
        }
        if (p[0] == '-' && p[1] == '0' && !(p[2] == '.'))
            fail_msg("%s: -0 at '%.20s'", what, p);
    }
}

/* -o digits=N changes frames, tracks, joints, phases and props only;
 * plain.rtm and the summaries keep their bytes. */
static void digits_change_the_numbered_views(void **state)
{
    (void)state;
    struct rtm_anim *a = bmtr_anim(5, 12, 30, 2);
    assert_non_null(a->pivot);
    size_t n = rtm_view_count(a);
    char **exact = calloc(n, sizeof *exact);
    for (size_t i = 0; i < n; i++)
        exact[i] = render(a, rtm_view_at(a, i), NULL);
    a->digits = 3;
    int changed[RTM_VIEW_TRACK + 1] = { 0 };
    for (size_t i = 0; i < n; i++) {
        struct rtm_view v = rtm_view_at(a, i);
        char path[RTM_VIEW_PATH_MAX];
        size_t len;
        char *fixed = render(a, v, &len);
        rtm_view_path(a, v, path);
        int same = strcmp(fixed, exact[i]) == 0;
        switch (v.kind) {
        case RTM_VIEW_FRAME: case RTM_VIEW_TRACK: case RTM_VIEW_JOINTS:
        case RTM_VIEW_PHASES: case RTM_VIEW_PROPS:
            changed[v.kind] += !same;
            expect_fixed(fixed, 3, path);
            break;
        default:
            if (!same)
                fail_msg("%s changed with digits", path);
        }
        free(fixed);
        free(exact[i]);
    }
    free(exact);
    assert_int_equal(changed[RTM_VIEW_FRAME], 12);
    assert_int_equal(changed[RTM_VIEW_JOINTS], 12);
    assert_int_equal(changed[RTM_VIEW_TRACK], 30);
    assert_int_equal(changed[RTM_VIEW_PHASES], 1);
    assert_int_equal(changed[RTM_VIEW_PROPS], 1);
    rtm_free(a);
}

/* Which views need a full parse, and which a light one serves. */
static void views_that_need_matrices(void **state)
{
    (void)state;
    static const enum rtm_view_kind full[] = { RTM_VIEW_HEADER, RTM_VIEW_PLAIN,
                                               RTM_VIEW_MOVING, RTM_VIEW_PREVIEW, RTM_VIEW_CHECK,
                                               RTM_VIEW_BVH,
                                               RTM_VIEW_FRAME, RTM_VIEW_JOINTS, RTM_VIEW_TRACK };
    static const enum rtm_view_kind light[] = { RTM_VIEW_BONES, RTM_VIEW_PHASES, RTM_VIEW_PROPS,
                                                RTM_VIEW_SKELETON };
    for (size_t i = 0; i < sizeof full / sizeof *full; i++)
        if (!rtm_view_needs_matrices((struct rtm_view){ .kind = full[i] }))
            fail_msg("view kind %d should need matrices", (int)full[i]);
    for (size_t i = 0; i < sizeof light / sizeof *light; i++)
        if (rtm_view_needs_matrices((struct rtm_view){ .kind = light[i] }))
            fail_msg("view kind %d should not need matrices", (int)light[i]);
}

/* Timings as configs give them (timing.h), and a sentence with what XML
 * escapes and a speed far out of bounds. */
static void some_timings(const struct rtm_anim *a, struct rtm_timing t[4])
{
    struct rtm_timing_state st[2] = { { "Cfg/States/A", "0.06", 1, 0.06 },
                                      { "Cfg/States/B", "?", 0, 0 } };
    rtm_timing_decide(NULL, 0, a->nframes, &t[0]);
    rtm_timing_decide(st, 1, a->nframes, &t[1]);
    rtm_timing_decide(st, 2, a->nframes, &t[2]);
    t[3].seconds = 123456.789;
    strcpy(t[3].why, "Timing: a <pass> & \x80 of 123456.789 s.");
}

/* rtm_view_timed_size gives the timed views' rendered length from their
 * sizes in the empty generation. */
static void expect_timed_sizes(const struct rtm_anim *a, const uint64_t *sizes,
                               const char *what)
{
    struct rtm_timing t[4];
    some_timings(a, t);
    struct rtm_buf b;
    buf_init(&b);
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        for (int k = 0; rtm_view_timed(v.kind) && k < 4; k++) {
            uint64_t size;
            b.len = 0;
            assert_int_equal(rtm_view_render_timed(a, v, &t[k], &b), 0);
            assert_int_equal(rtm_view_timed_size(a, v, &t[k], sizes[i], &size), 0);
            if (size != b.len)
                fail_msg("%s: %s timed by \"%s\" sized %llu, rendered %zu", what,
                         rtm_view_fixed_name(v.kind), t[k].why, (unsigned long long)size,
                         b.len);
        }
    }
    buf_free(&b);
}

/* rtm_view_sizes gives every view's rendered length. */
static void expect_sizes(const struct rtm_anim *a, const char *what)
{
    size_t n = rtm_view_count(a);
    uint64_t *sizes = malloc((n + 1) * sizeof *sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    struct rtm_buf b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        b.len = 0;
        assert_int_equal(rtm_view_render(a, rtm_view_at(a, i), &b), 0);
        if (sizes[i] != b.len) {
            char path[RTM_VIEW_PATH_MAX];
            rtm_view_path(a, rtm_view_at(a, i), path);
            fail_msg("%s, digits %d: %s sized %llu, rendered %zu", what, a->digits, path,
                     (unsigned long long)sizes[i], b.len);
        }
    }
    buf_free(&b);
    expect_timed_sizes(a, sizes, what);
    free(sizes);
}

/* On the writer's samples (both skeletons, every format, exact and fixed
 * numbers) and, with ../shared, every corpus file, timed too; a light
 * parse has no sizes to give. */
static void sizes_in_one_pass(void **state)
{
    (void)state;
    struct sample_opts o = { 9, 70, 3, 2 };
    for (int k = 0; k < 4; k++) {
        struct rtm_buf b;
        buf_init(&b);
        assert_int_equal(k == 0 ? rtm_sample_plain(&o, &b)
                                : rtm_sample_bmtr(&o, (uint32_t)(2 + k), BMTR_COMPRESS_AUTO, &b), 0);
        for (int sk = 0; sk < 2; sk++) {
            struct rtm_anim *a = parse_ok(&b, sk ? "none" : "ofp2");
            for (int d = -1; d <= 3; d += 2) {
                a->digits = d;
                expect_sizes(a, "sample");
            }
            rtm_free(a);
        }
        struct rtm_anim *light;
        struct rtm_error err;
        assert_int_equal(rtm_parse_flags((const uint8_t *)b.p, b.len, NULL,
                                         RTM_PARSE_NO_MATRICES, &light, &err), 0);
        uint64_t sizes[64];
        assert_int_equal(rtm_view_sizes(light, sizes), -1);
        rtm_free(light);
        buf_free(&b);
    }
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        expect_sizes(a, c.path[i]);
        a->digits = 3;
        expect_sizes(a, c.path[i]);
        rtm_free(a);
    }
    rtm_skeleton_free(s);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(light_parse_matches_full),
        cmocka_unit_test(fixed_names),
        cmocka_unit_test(frame_name_width),
        cmocka_unit_test(lookup_rejects),
        cmocka_unit_test(header_keys),
        cmocka_unit_test(header_exact),
        cmocka_unit_test(header_negative_zero),
        cmocka_unit_test(bones_and_phases),
        cmocka_unit_test(frame_csv),
        cmocka_unit_test(props_json),
        cmocka_unit_test(plain_rtm_view),
        cmocka_unit_test(render_is_stable),
        cmocka_unit_test(tracks_cut_from_frames),
        cmocka_unit_test(track_names),
        cmocka_unit_test(digits_change_the_numbered_views),
        cmocka_unit_test(views_that_need_matrices),
        cmocka_unit_test(sizes_in_one_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
