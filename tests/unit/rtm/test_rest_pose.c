/* test_rest_pose.c - the built-in ofp2 rest pose against the real files of
 * shared/corpus: the table in src/rtm/ofp2_table.h equals a fresh estimate (to
 * its printed precision); estimates from the odd- and the even-numbered
 * files agree within 2 cm on every body joint both call well determined;
 * and the joints of a standing animation stand.  Skips when the corpus is
 * absent. */
#include "testutil.h"

#include <math.h>

#include "pivots.h"

static struct rtm_anim *parse_file(const char *path, const struct rtm_skeleton *s)
{
    uint8_t *d;
    size_t len;
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_slurp(path, &d, &len), 0);
    if (rtm_parse(d, len, s, &a, &err))
        fail_msg("%s: %s", path, err.msg);
    free(d);
    return a;
}

/* Fits the pivots of s from the files i with i % step == first. */
static void estimate(const struct corpus *c, const struct rtm_skeleton *s, size_t first,
                     size_t step, struct rtm_pivot_fit *fit)
{
    struct rtm_pivots *e = rtm_pivots_new(s);
    struct rtm_error err;
    assert_non_null(e);
    for (size_t i = first; i < c->n; i += step) {
        struct rtm_anim *a = parse_file(c->path[i], s);
        assert_int_equal(rtm_pivots_add(e, a, &err), 0);
        rtm_free(a);
    }
    assert_int_equal(rtm_pivots_solve(e, fit, &err), 0);
    rtm_pivots_free(e);
}

static struct rtm_skeleton *ofp2(void)
{
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    assert_true(rtm_skeleton_has_pivots(s));
    return s;
}

/* s written with the fitted pivots: the lines the table holds. */
static char *written(const struct rtm_skeleton *s, const struct rtm_pivot_fit *fit)
{
    struct rtm_skeleton with = *s;
    float (*pivot)[3] = calloc(s->nbones, sizeof *pivot);
    uint8_t *placed = calloc(s->nbones, 1);
    struct rtm_buf b;
    rtm_buf_init(&b);
    for (uint32_t k = 0; fit && k < s->nbones; k++) {
        memcpy(pivot[k], fit[k].pivot, sizeof pivot[k]);
        placed[k] = fit[k].how != RTM_PIVOT_MEASURED;
    }
    if (fit) {
        with.pivot = pivot;
        with.placed = placed;
    }
    assert_int_equal(rtm_skeleton_write(&with, &b), 0);
    rtm_buf_putc(&b, 0);
    free(pivot);
    free(placed);
    return b.p;
}

static void table_is_a_fresh_estimate(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s = ofp2();
    struct rtm_pivot_fit *fit = calloc(s->nbones, sizeof *fit);
    estimate(&c, s, 0, 1, fit);
    char *fresh = written(s, fit), *table = written(s, NULL);
    if (strcmp(fresh, table))
        fail_msg("src/rtm/ofp2_table.h is not what the estimator gives today: run make "
                 "ofp2-table\nfresh:\n%s", fresh);
    printf("ofp2 table: %u bones, equal to a fresh estimate from %zu files\n", s->nbones, c.n);
    free(fresh);
    free(table);
    free(fit);
    rtm_skeleton_free(s);
    corpus_free(&c);
}

/* Joints of the body proper: not fingers, face, eyes, nor the camera and
 * weapon proxies. */
static int body_joint(const char *name)
{
    static const char *const not_body[] = { "Face_", "Eye", "HandThumb", "HandIndex",
                                            "HandMiddle", "HandRing", "HandPinky",
                                            "Camera", "weapon", "launcher" };
    for (size_t i = 0; i < sizeof not_body / sizeof not_body[0]; i++)
        if (strstr(name, not_body[i]))
            return 0;
    return 1;
}

static double distance(const float a[3], const float b[3])
{
    double d = 0;
    for (int i = 0; i < 3; i++)
        d += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
    return sqrt(d);
}

static void held_out_halves_agree(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s = ofp2();
    struct rtm_pivot_fit *odd = calloc(s->nbones, sizeof *odd);
    struct rtm_pivot_fit *even = calloc(s->nbones, sizeof *even);
    estimate(&c, s, 1, 2, odd);
    estimate(&c, s, 0, 2, even);
    double worst_body = 0, worst_any = 0;
    const char *wb = "-", *wa = "-";
    int both = 0;
    for (uint32_t k = 0; k < s->nbones; k++) {
        if (odd[k].how != RTM_PIVOT_MEASURED || even[k].how != RTM_PIVOT_MEASURED)
            continue;
        double d = distance(odd[k].pivot, even[k].pivot);
        both++;
        if (d > worst_any) {
            worst_any = d;
            wa = s->bone[k];
        }
        if (body_joint(s->bone[k]) && d > worst_body) {
            worst_body = d;
            wb = s->bone[k];
        }
    }
    printf("held out: %d joints well determined in both halves; largest disagreement "
           "%.1f mm (%s), of body joints %.1f mm (%s)\n", both, 1000 * worst_any, wa,
           1000 * worst_body, wb);
    assert_true(both >= 30);
    if (worst_body > 0.02)
        fail_msg("%s: the halves disagree by %.1f mm", wb, 1000 * worst_body);
    free(odd);
    free(even);
    rtm_skeleton_free(s);
    corpus_free(&c);
}

/* ascz/Stryker_GunnerOUT.rtm: a gunner standing up out of a hatch, hands
 * on the grips.  In every frame the head is above the pelvis, the pelvis
 * above both feet, and the hands at least shoulder width apart (between the
 * arms' joints with the shoulders). */
static void a_standing_pose_stands(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    static const char *const names[] = { "head", "pelvis", "leftfoot", "rightfoot",
                                         "lefthand", "righthand", "leftarm", "rightarm" };
    enum { HEAD, PELVIS, LFOOT, RFOOT, LHAND, RHAND, LARM, RARM };
    char path[4200];
    snprintf(path, sizeof path, "%s/corpus/ascz/Stryker_GunnerOUT.rtm", dir);
    struct rtm_skeleton *s = ofp2();
    struct rtm_anim *a = parse_file(path, s);
    float (*j)[3] = calloc(a->nbones, sizeof *j);
    uint8_t *known = calloc(a->nbones, 1);
    int32_t at[8];
    for (int i = 0; i < 8; i++) {
        at[i] = -1;
        for (uint32_t b = 0; b < a->nbones; b++)
            if (strcasecmp(a->bones[b].s, names[i]) == 0)
                at[i] = (int32_t)b;
        assert_true(at[i] >= 0);
    }
    for (uint32_t f = 0; f < a->nframes; f++) {
        assert_int_equal(rtm_joints(a, f, j, known), 0);
        float head = j[at[HEAD]][1], pelvis = j[at[PELVIS]][1];
        float feet = fmaxf(j[at[LFOOT]][1], j[at[RFOOT]][1]);
        float hands = fabsf(j[at[LHAND]][0] - j[at[RHAND]][0]);
        float shoulders = fabsf(j[at[LARM]][0] - j[at[RARM]][0]);
        printf("Stryker_GunnerOUT frame %u: head y %.2f, pelvis %.2f, feet %.2f; hands "
               "%.2f apart, shoulders %.2f\n", f, head, pelvis, feet, hands, shoulders);
        assert_true(head > pelvis && pelvis > feet);
        assert_true(hands >= shoulders);
    }
    free(j);
    free(known);
    rtm_free(a);
    rtm_skeleton_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_a_fresh_estimate),
        cmocka_unit_test(held_out_halves_agree),
        cmocka_unit_test(a_standing_pose_stands),
    };
    return run_test_cases(tests, NULL, NULL);
}
