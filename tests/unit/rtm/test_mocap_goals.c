/* test_mocap_goals.c - the goals for BVH as a source, on the shared
 * data (each case skips with a message without ../shared):
 *  - round trip: every corpus animation, parsed with ofp2, written as
 *    anim.bvh and read back as a source with ofp2: the joints of every
 *    bone both have within 1 mm in every frame, the motion within 1 mm;
 *  - the shared clips onto ofp2: knees and elbows bend as the source's
 *    (within 5 degrees in every frame, the source's joints composed by the
 *    tests' own reader, bvh_read.h), the motion within 2 % (or 2 cm) of
 *    the source hips' net travel scaled, every number finite, no error in
 *    check.txt;
 *  - the speed of rtm_parse on the CMU clip (printed; the goal, 20 MB/s,
 *    is the whole rtmcat process's, measured elsewhere).
 * The figures are printed as "# ..." lines. */
#include <math.h>
#include <time.h>

#include "testutil.h"
#include "bvh.h"
#include "bvh_read.h"
#include "check.h"
#include "mocap.h"
#include "mocap_retarget.h"
#include "pivots.h"
#include "skeleton.h"

static struct rtm_skeleton *ofp2(void)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rtm_skeleton_builtin("ofp2", &s, &err), 0);
    return s;
}

static struct rtm_anim *parse_bytes(const void *data, size_t len, const struct rtm_skeleton *s,
                                    const char *what)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_parse(data, len, s, &a, &err))
        fail_msg("%s: %s", what, err.msg);
    return a;
}

/* ---- the round trip ---- */

struct trip {
    double mm, motion_mm;       /* the worst, over the file */
    uint64_t joints, skipped;
};

/* The original's bones in the read-back anim (by name), or -1. */
static int32_t *bones_back(const struct rtm_anim *a, const struct rtm_anim *back)
{
    int32_t *k = malloc((a->nbones ? a->nbones : 1) * sizeof *k);
    assert_non_null(k);
    for (uint32_t b = 0; b < a->nbones; b++) {
        k[b] = -1;
        for (uint32_t c = 0; a->in_skeleton[b] && c < back->nbones; c++)
            if (back->bones[c].len == a->bones[b].len &&
                strncasecmp(back->bones[c].s, a->bones[b].s, a->bones[b].len) == 0) {
                k[b] = (int32_t)c;
                break;
            }
    }
    return k;
}

/* Compares a with back (anim.bvh read back) joint by joint; anim.bvh's
 * frames are a's in phase order.  Joints a cannot place (not finite) are
 * left out, counted. */
static void compare(const struct rtm_anim *a, const struct rtm_anim *back, struct trip *t)
{
    assert_int_equal(back->nframes, a->nframes);
    uint32_t *order = rtm_phase_order(a);
    int32_t *k = bones_back(a, back);
    float (*ja)[3] = malloc((a->nbones + 1) * sizeof *ja), (*jb)[3] = malloc((back->nbones + 1) * sizeof *jb);
    uint8_t *ka = malloc(a->nbones + 1), *kb = malloc(back->nbones + 1);
    for (uint32_t i = 0; i < a->nframes; i++) {
        assert_int_equal(rtm_joints(a, order[i], ja, ka), 0);
        assert_int_equal(rtm_joints(back, i, jb, kb), 0);
        for (uint32_t b = 0; b < a->nbones; b++) {
            if (k[b] < 0 || !ka[b])
                continue;
            if (!isfinite(ja[b][0]) || !isfinite(ja[b][1]) || !isfinite(ja[b][2])) {
                t->skipped++;
                continue;
            }
            double d = 0;
            for (int c = 0; c < 3; c++)
                d += pow((double)ja[b][c] - jb[k[b]][c], 2);
            t->mm = fmax(t->mm, sqrt(d) * 1000);
            t->joints++;
        }
    }
    double dm = 0;
    for (int c = 0; c < 3; c++)
        dm += pow((double)a->motion[c] - back->motion[c], 2);
    t->motion_mm = fmax(t->motion_mm, sqrt(dm) * 1000);
    free(order);
    free(k);
    free(ja);
    free(jb);
    free(ka);
    free(kb);
}

static void round_trip(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s = ofp2();
    size_t passed = 0, identity = 0;
    double worst = 0, worst_motion = 0;
    uint64_t joints = 0, skipped = 0;
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(rtm_anim_bvh_write(a, &b), 0);
        struct rtm_anim *back = parse_bytes(b.p, b.len, s, c.path[i]);
        struct trip t = { 0, 0, 0, 0 };
        compare(a, back, &t);
        identity += back->bvh->identity;
        int ok = back->bvh->identity && t.mm <= 1 && t.motion_mm <= 1;
        passed += ok;
        if (!ok)
            printf("# round trip FAILS %s: %s, worst joint %.4f mm, motion %.4f mm\n", c.path[i],
                   back->bvh->identity ? "own skeleton" : "retargeted", t.mm, t.motion_mm);
        worst = fmax(worst, t.mm);
        worst_motion = fmax(worst_motion, t.motion_mm);
        joints += t.joints;
        skipped += t.skipped;
        rtm_free(back);
        rtm_free(a);
        rtm_buf_free(&b);
    }
    printf("# round trip: %zu of %zu files within 1 mm (%zu read as the skeleton's own); "
           "worst joint %.4f mm over %llu joints (%llu not finite in the original, left "
           "out); worst motion %.4f mm\n", passed, c.n, identity, worst,
           (unsigned long long)joints, (unsigned long long)skipped, worst_motion);
    assert_int_equal(passed, c.n);
    rtm_skeleton_free(s);
    corpus_free(&c);
}

/* ---- the shared clips ---- */

/* The index of the source joint whose name ends with suffix (after a
 * "prefix:"), or -1. */
static int source_joint(const struct bvh_file *f, const char *name)
{
    for (int j = 0; j < f->n; j++) {
        const char *n = strrchr(f->j[j].name, ':');
        n = n ? n + 1 : f->j[j].name;
        if (strcmp(n, name) == 0)
            return j;
    }
    return -1;
}

static double angle_at(const double *a, const double *b, const double *c)
{
    double u[3], v[3], uu = 0, vv = 0, uv = 0;
    for (int k = 0; k < 3; k++) {
        u[k] = a[k] - b[k];
        v[k] = c[k] - b[k];
        uu += u[k] * u[k];
        vv += v[k] * v[k];
        uv += u[k] * v[k];
    }
    double cs = uv / sqrt(uu * vv);
    return acos(cs > 1 ? 1 : cs < -1 ? -1 : cs) * 180 / M_PI;
}

/* Knees and elbows: names of the three joints of each angle, the same on
 * the man and in both clips' namings. */
static const char *const LIMBS[][3] = {
    { "LeftUpLeg", "LeftLeg", "LeftFoot" },    { "RightUpLeg", "RightLeg", "RightFoot" },
    { "LeftArm", "LeftForeArm", "LeftHand" }, { "RightArm", "RightForeArm", "RightHand" },
};

/* The worst difference of the four angles over every frame, degrees. */
static double worst_angles(const struct bvh_file *f, const struct rtm_anim *a,
                           double worst_of[4])
{
    double (*rot)[3][3] = malloc((size_t)f->n * sizeof *rot);
    double (*pos)[3] = malloc((size_t)f->n * sizeof *pos);
    float (*j)[3] = malloc(a->nbones * sizeof *j);
    uint8_t *known = malloc(a->nbones);
    int src[4][3];
    int32_t dst[4][3];
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < 3; k++) {
            src[l][k] = source_joint(f, LIMBS[l][k]);
            assert_true(src[l][k] >= 0);
            dst[l][k] = -1;
            for (uint32_t b = 0; b < a->nbones; b++)
                if (strcmp(a->bones[b].s, LIMBS[l][k]) == 0)
                    dst[l][k] = (int32_t)b;
            assert_true(dst[l][k] >= 0);
        }
    double worst = 0;
    for (int fr = 0; fr < f->frames; fr++) {
        bvh_pose(f, fr, rot, pos);
        assert_int_equal(rtm_joints(a, (uint32_t)fr, j, known), 0);
        for (int l = 0; l < 4; l++) {
            double t[3][3];
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    t[k][c] = j[dst[l][k]][c];
            double want = angle_at(pos[src[l][0]], pos[src[l][1]], pos[src[l][2]]);
            double got = angle_at(t[0], t[1], t[2]);
            worst_of[l] = fmax(worst_of[l], fabs(want - got));
            worst = fmax(worst, fabs(want - got));
        }
    }
    free(rot);
    free(pos);
    free(j);
    free(known);
    return worst;
}

static int all_finite(const struct rtm_anim *a)
{
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones * 12; i++)
        if (!isfinite(a->matrices[i]))
            return 0;
    for (uint32_t i = 0; i < a->nframes; i++)
        if (!isfinite(a->phases[i]))
            return 0;
    return isfinite(a->motion[0]) && isfinite(a->motion[1]) && isfinite(a->motion[2]);
}

/* Lines of check.txt that start "error". */
static int check_errors(const struct rtm_anim *a)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_check_render(a, &b), 0);
    rtm_buf_putc(&b, 0);
    int n = 0;
    for (const char *p = b.p; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, "error", 5) == 0) {
            printf("# check.txt: %.*s\n", (int)strcspn(p, "\n"), p);
            n++;
        }
    rtm_buf_free(&b);
    return n;
}

static void one_clip(const char *name)
{
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    char path[4096];
    snprintf(path, sizeof path, "%s/bvh/%s", dir, name);
    uint8_t *data;
    size_t len;
    if (rtm_slurp(path, &data, &len))
        skip_because("no ../shared/bvh");
    struct rtm_skeleton *s = ofp2();
    struct rtm_anim *a = parse_bytes(data, len, s, path);
    char *text = malloc(len + 1), why[200];
    memcpy(text, data, len);
    text[len] = 0;
    struct bvh_file f;
    if (bvh_parse(text, &f, why, sizeof why))
        fail_msg("%s: the tests' reader: %s", path, why);
    assert_int_equal(a->nframes, (uint32_t)f.frames);
    double by[4] = { 0, 0, 0, 0 };
    double worst = worst_angles(&f, a, by);
    /* the hips' net travel in the model's axes, scaled */
    double (*rot)[3][3] = malloc((size_t)f.n * sizeof *rot), (*p0)[3] = malloc((size_t)f.n * sizeof *p0);
    double (*p1)[3] = malloc((size_t)f.n * sizeof *p1);
    bvh_pose(&f, 0, rot, p0);
    bvh_pose(&f, f.frames - 1, rot, p1);
    int hips = source_joint(&f, "Hips");
    assert_true(hips >= 0);
    double k = a->bvh->unit * a->bvh->hip_ratio;
    double want[3] = { (p1[hips][0] - p0[hips][0]) * k, 0, -(p1[hips][2] - p0[hips][2]) * k };
    double off = 0, travel = 0;
    for (int c = 0; c < 3; c++) {
        off += pow(a->motion[c] - want[c], 2);
        travel += want[c] * want[c];
    }
    off = sqrt(off);
    travel = sqrt(travel);
    /* on the floor: the lowest a joint goes is the rest pose's lowest */
    double rest_low = HUGE_VAL, low = HUGE_VAL;
    for (uint32_t b = 0; b < a->nbones; b++)
        rest_low = fmin(rest_low, a->pivot[b][1]);
    float (*jt)[3] = malloc(a->nbones * sizeof *jt);
    uint8_t *known = malloc(a->nbones);
    for (uint32_t fr = 0; fr < a->nframes; fr++) {
        assert_int_equal(rtm_joints(a, fr, jt, known), 0);
        for (uint32_t b = 0; b < a->nbones; b++)
            low = fmin(low, jt[b][1]);
    }
    free(jt);
    free(known);
    printf("# %s: lowest joint %.4f m, the rest pose's %.4f m\n", name, low, rest_low);
    assert_true(fabs(low - rest_low) < 0.001);
    int errors = check_errors(a);
    printf("# %s: %u frames; worst angle off %.4f deg (knees %.4f %.4f, elbows %.4f %.4f); "
           "motion %.4f %.4f %.4f m, expected %.4f %.4f %.4f (hips' travel x unit %.6g x "
           "hip ratio %.4f): %.2f mm off; finite %s; check.txt errors %d\n",
           name, a->nframes, worst, by[0], by[1], by[2], by[3], a->motion[0], a->motion[1],
           a->motion[2], want[0], want[1], want[2], a->bvh->unit, a->bvh->hip_ratio, off * 1000,
           all_finite(a) ? "yes" : "NO", errors);
    assert_true(worst <= 5);
    assert_true(off <= fmax(0.02 * travel, 0.02));
    assert_true(all_finite(a));
    assert_int_equal(errors, 0);
    free(rot);
    free(p0);
    free(p1);
    bvh_free(&f);
    free(text);
    free(data);
    rtm_free(a);
    rtm_skeleton_free(s);
}

static void cmu_clip(void **state)
{
    (void)state;
    one_clip("cmu_01_01.bvh");
}

static void mixamo_clip(void **state)
{
    (void)state;
    one_clip("mixamo_freebvh.bvh");
}

/* ---- speed ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void parse_speed(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    char path[4096];
    snprintf(path, sizeof path, "%s/bvh/cmu_01_01.bvh", dir);
    uint8_t *data;
    size_t len;
    if (rtm_slurp(path, &data, &len))
        skip_because("no ../shared/bvh");
    struct rtm_skeleton *s = ofp2();
    double best = HUGE_VAL;
    for (int i = 0; i < 3; i++) {
        double t0 = now();
        struct rtm_anim *a = parse_bytes(data, len, s, path);
        double t = now() - t0;
        best = fmin(best, t);
        rtm_free(a);
    }
    printf("# rtm_parse of %s (%zu bytes): %.1f ms, %.1f MB/s\n", path, len, best * 1000,
           len / best / 1e6);
    free(data);
    rtm_skeleton_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(cmu_clip),
        cmocka_unit_test(mixamo_clip),
        cmocka_unit_test(parse_speed),
    };
    return run_test_cases(tests, NULL, NULL);
}
