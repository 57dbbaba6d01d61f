/* test_motion.c - the motion measure (motion.h) and moving.txt on
 * animations written by the project's plain writer, read with a skeleton
 * that has pivots: what turns or slides past the thresholds is listed, and
 * nothing else: not a turn of 0.05 degrees, a slide of 0.5 mm, a child
 * carried by its turning parent, nor a scaled bone with float noise. */
#include <math.h>

#include "testutil.h"
#include "motion.h"

/* ---- matrices: 12 floats, row vectors (p · M) ---- */

struct mat {
    double r[3][3];
    double t[3];
};

static struct mat identity(void)
{
    struct mat m = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { 0, 0, 0 } };
    return m;
}

/* a, then b: p · a · b */
static struct mat then(struct mat a, struct mat b)
{
    struct mat m;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            m.r[r][c] = a.r[r][0] * b.r[0][c] + a.r[r][1] * b.r[1][c] + a.r[r][2] * b.r[2][c];
    for (int c = 0; c < 3; c++)
        m.t[c] = a.t[0] * b.r[0][c] + a.t[1] * b.r[1][c] + a.t[2] * b.r[2][c] + b.t[c];
    return m;
}

/* A turn by deg about axis (0 x, 1 y, 2 z) through point j. */
static struct mat turn_about(const float j[3], int axis, double deg)
{
    struct mat r = identity(), to = identity(), back = identity();
    double a = deg * M_PI / 180, c = cos(a), s = sin(a);
    int u = (axis + 1) % 3, v = (axis + 2) % 3;
    r.r[u][u] = c;
    r.r[u][v] = s;
    r.r[v][u] = -s;
    r.r[v][v] = c;
    for (int k = 0; k < 3; k++) {
        to.t[k] = -j[k];
        back.t[k] = j[k];
    }
    return then(then(to, r), back);
}

/* A scale by s about point j. */
static struct mat scale_about(const float j[3], double s)
{
    struct mat m = identity();
    for (int k = 0; k < 3; k++) {
        m.r[k][k] = s;
        m.t[k] = j[k] * (1 - s);
    }
    return m;
}

static struct mat slide(double x)
{
    struct mat m = identity();
    m.t[0] = x;
    return m;
}

static void store(struct mat m, float *out)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out[r * 3 + c] = (float)m.r[r][c];
    for (int c = 0; c < 3; c++)
        out[9 + c] = (float)m.t[c];
}

/* ---- the test body: every bone a child of Pelvis but F, E's child ---- */

static const char *const NAMES[] = { "Pelvis", "A", "B", "C", "D", "E", "F", "G", "H" };
static const int32_t PARENT[] = { -1, 0, 0, 0, 0, 0, 5, 0, 0 };
static const float PIVOT[][3] = {
    { 0, 1, 0 }, { 0.1f, 1.1f, 0 }, { -0.1f, 1.1f, 0 }, { 0.2f, 1.2f, 0.1f }, { -0.2f, 1.2f, 0.1f },
    { 0, 1.4f, 0 }, { 0.3f, 1.5f, 0 }, { 0.1f, 0.5f, 0 }, { -0.1f, 0.5f, 0 },
};
enum { NB = sizeof NAMES / sizeof NAMES[0], NF = 11 };

/* The skeleton of the body, with pivots; extra lines appended (a bone it
 * lacks shows as unknown). */
static struct rtm_skeleton *body_skeleton(int pivots)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    for (int k = 0; k < NB; k++) {
        rtm_buf_printf(&b, "%s %s", NAMES[k], PARENT[k] < 0 ? "-" : NAMES[PARENT[k]]);
        if (pivots)
            rtm_buf_printf(&b, " %g %g %g", (double)PIVOT[k][0], (double)PIVOT[k][1],
                           (double)PIVOT[k][2]);
        rtm_buf_putc(&b, '\n');
    }
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_parse(b.p, b.len, "body", &s, &err), 0);
    rtm_buf_free(&b);
    return s;
}

typedef struct mat (*local_fn)(uint32_t bone, double t, uint32_t frame);

/* Writes NF frames (t from 0 to 1) of bones whose local transforms local()
 * gives, composed down the hierarchy, and reads them back with s. */
static struct rtm_anim *animate(local_fn local, const struct rtm_skeleton *s,
                                void (*touch)(struct rtm_anim *))
{
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, NF, NB, 0, NB * 8, RTM_DEPTH_FULL);
    assert_non_null(a);
    for (uint32_t b = 0; b < NB; b++)
        a->bones[b] = rtm_anim_str(a, NAMES[b], (uint32_t)strlen(NAMES[b]));
    for (uint32_t f = 0; f < NF; f++) {
        struct mat model[NB];
        a->phases[f] = (float)f / (NF - 1);
        for (uint32_t b = 0; b < NB; b++) {
            struct mat l = local(b, (double)f / (NF - 1), f);
            model[b] = PARENT[b] < 0 ? l : then(l, model[PARENT[b]]);
            store(model[b], a->matrices + ((size_t)f * NB + b) * 12);
        }
    }
    if (touch)
        touch(a);
    struct rtm_buf out;
    rtm_buf_init(&out);
    assert_int_equal(rtm_write_plain(a, &out), 0);
    rtm_free(a);
    struct rtm_anim *r = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_parse((const uint8_t *)out.p, out.len, s, &r, &err), 0);
    rtm_buf_free(&out);
    return r;
}

static void expect_moving(local_fn local, void (*touch)(struct rtm_anim *), int pivots,
                          const char *want)
{
    struct rtm_skeleton *s = body_skeleton(pivots);
    struct rtm_anim *a = animate(local, s, touch);
    char *got = render(a, (struct rtm_view){ .kind = RTM_VIEW_MOVING }, NULL);
    assert_string_equal(got, want);
    free(got);
    rtm_free(a);
    rtm_skeleton_free(s);
}

/* Float noise of a few ulps on the 3x3 part, as real files carry. */
static void add_noise(struct mat *m, uint32_t seed)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            seed = seed * 1103515245u + 12345u;
            m->r[r][c] *= 1 + ((double)(seed >> 16 & 0x7fff) / 0x7fff - 0.5) * 4e-7;
        }
}

static struct mat thresholds(uint32_t b, double t, uint32_t f)
{
    struct mat m;
    switch (b) {
    case 1: return turn_about(PIVOT[b], 2, 0.05 * t);          /* A: too little */
    case 2: return turn_about(PIVOT[b], 0, 0.2 * t);           /* B: a turn */
    case 3: return slide(0.0005 * t);                          /* C: too little */
    case 4: return slide(0.002 * t);                           /* D: a slide */
    case 5: return turn_about(PIVOT[b], 1, 30 * t);            /* E carries F */
    case 6:                                                   /* F: held, not identity */
        m = then(turn_about(PIVOT[b], 2, 40), slide(0.01));
        return m;
    case 7:                                                   /* G, H: scaled, noisy */
    case 8:
        m = scale_about(PIVOT[b], b == 7 ? 1.019 : 0.01);
        add_noise(&m, f * 31 + b);
        return m;
    default: return identity();
    }
}

/* What moving.txt lists of the thresholds body: B turns, D slides, E turns
 * and carries F. */
static const char THRESHOLDS_MOVING[] = "B 0.200 0.00000\n"
                                        "D 0.000 0.00200\n"
                                        "E 30.000 0.00000\n";

static void lists_what_passes_the_thresholds(void **state)
{
    (void)state;
    expect_moving(thresholds, NULL, 1,
                  THRESHOLDS_MOVING);
}

/* Without pivots, only rotation counts: the slide is gone, and the
 * translation column says it was not measured. */
static void without_pivots_rotation_only(void **state)
{
    (void)state;
    expect_moving(thresholds, NULL, 0, "B 0.200 -\nE 30.000 -\n");
}

static struct mat still(uint32_t b, double t, uint32_t f)
{
    (void)t;
    struct mat m = b == 6 ? turn_about(PIVOT[b], 0, 10) : identity();
    add_noise(&m, f + 7 * b);
    return m;
}

static struct mat everything_turns(uint32_t b, double t, uint32_t f)
{
    (void)f;
    return turn_about(PIVOT[b], (int)b % 3, 5 * t);
}

static void still_and_full(void **state)
{
    (void)state;
    expect_moving(still, NULL, 1, "");
    struct rtm_buf want;
    rtm_buf_init(&want);
    for (int b = 0; b < NB; b++)
        rtm_buf_printf(&want, "%s 5.000 0.00000\n", NAMES[b]);
    rtm_buf_putc(&want, 0);
    expect_moving(everything_turns, NULL, 1, want.p);
    rtm_buf_free(&want);
}

/* A NaN, a mirror (det < 0) and a zero matrix are left out and counted;
 * B's turn is still measured from the other frames. */
static void spoil(struct rtm_anim *a)
{
    a->matrices[(5 * NB + 2) * 12 + 4] = NAN;
    float *mirror = a->matrices + (6 * NB + 2) * 12;
    for (int k = 0; k < 3; k++)
        mirror[k] = -mirror[k];
    memset(a->matrices + (7 * NB + 3) * 12, 0, 12 * sizeof(float));
}

static void unusable_left_out(void **state)
{
    (void)state;
    expect_moving(thresholds, spoil, 1,
                  THRESHOLDS_MOVING);
    struct rtm_skeleton *s = body_skeleton(1);
    struct rtm_anim *a = animate(thresholds, s, spoil);
    assert_int_equal(a->unusable, 3);
    struct rtm_bone_motion m[NB];
    assert_int_equal(rtm_motion_measure(a, m), 0);
    assert_int_equal(m[2].frames, NF - 2);
    assert_int_equal(m[3].frames, NF - 1);
    char *h = render(a, (struct rtm_view){ .kind = RTM_VIEW_HEADER }, NULL);
    assert_non_null(strstr(h, "\nmatrices_left_out: 3 ("));
    assert_non_null(strstr(h, "\nuncomposed: 1 ("));
    free(h);
    rtm_free(a);
    rtm_skeleton_free(s);
}

/* The nearest rotation of a scaled, noisy rotation is that rotation; an
 * unusable matrix has none. */
static void nearest_rotation(void **state)
{
    (void)state;
    static const float j[3] = { 0.3f, -0.2f, 0.5f };
    double q[3][3];
    for (int i = 0; i < 3; i++) {
        double s = i == 0 ? 1 : i == 1 ? 1.019 : 0.01;
        struct mat rot = turn_about(j, i, 37), m = then(scale_about(j, s), rot);
        add_noise(&m, (uint32_t)i);
        float f[12];
        store(m, f);
        assert_int_equal(rtm_nearest_rotation(f, q), 0);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                assert_true(fabs(q[r][c] - rot.r[r][c]) < 1e-6);
    }
    float bad[12] = { 1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0 };
    assert_false(rtm_matrix_usable(bad));
    assert_int_equal(rtm_nearest_rotation(bad, q), -1);
    bad[8] = INFINITY;
    assert_false(rtm_matrix_usable(bad));
}

/* Pelvis turns; the others slide with it, so each frame's matrices share
 * Pelvis's 3x3 part bit for bit (a rigid chain in model space). */
static struct mat rigid(uint32_t b, double t, uint32_t f)
{
    (void)f;
    return b == 0 ? turn_about(PIVOT[0], 1, 50 * t) : slide(0.01 * b * t);
}

/* C's translation is infinite in frame 2, its 3x3 part still Pelvis's. */
static void infinite_slide(struct rtm_anim *a)
{
    a->matrices[(2 * NB + 3) * 12 + 9] = INFINITY;
}

/* rtm_rotations_make gives every matrix the rotation it has alone, where
 * it reuses an earlier bone's with the same 3x3 part, and not where the
 * matrix with that part is unusable. */
static void rotations_as_alone(void **state)
{
    (void)state;
    struct rtm_skeleton *s = body_skeleton(1);
    struct rtm_anim *a = animate(rigid, s, infinite_slide);
    struct rtm_rotations r;
    assert_int_equal(rtm_rotations_make(a, &r), 0);
    size_t reused = 0;
    for (uint32_t f = 0; f < NF; f++)
        for (uint32_t b = 0; b < NB; b++) {
            double q[3][3] = { { 0 } };
            size_t i = (size_t)f * NB + b;
            int ok = rtm_nearest_rotation(rtm_matrix(a, f, b), q) == 0;
            assert_int_equal(r.ok[i], ok);
            assert_true(!ok || memcmp(r.q[i], q, sizeof q) == 0);
            reused += b && f && !memcmp(rtm_matrix(a, f, b), rtm_matrix(a, f, 0), 9 * sizeof(float));
        }
    assert_int_equal(r.ok[2 * NB + 3], 0);
    assert_true(reused > NF * (NB - 2));        /* the case is met */
    rtm_rotations_free(&r);
    rtm_free(a);
    rtm_skeleton_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_what_passes_the_thresholds),
        cmocka_unit_test(without_pivots_rotation_only),
        cmocka_unit_test(still_and_full),
        cmocka_unit_test(unusable_left_out),
        cmocka_unit_test(nearest_rotation),
        cmocka_unit_test(rotations_as_alone),
    };
    return run_test_cases(tests, NULL, NULL);
}
