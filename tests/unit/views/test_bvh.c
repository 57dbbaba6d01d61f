/* test_bvh.c - anim.bvh (bvh.h) read back by a small BVH reader
 * (bvh_read.h): composed down the hierarchy, every joint lands on its
 * pivot · M plus the motion's share of its frame (after the axis change)
 * within 0.1 mm and turns as the source's
 * nearest rotation within 1e-4 rad, in phase order; on the writer's
 * animations and, when ../shared exists, on every corpus file.  Also the
 * hierarchy's names, ends and offsets, and no anim.bvh without pivots. */
#include "testutil.h"

#include "bvh.h"
#include "bvh_read.h"
#include "motion.h"
#include "pivots.h"

struct worst {
    double mm, rad;
    long joints;
};

/* Whether bone b and every bone above it here have usable matrices in f. */
static int chain_usable(const struct rtm_anim *a, uint32_t f, uint32_t b)
{
    for (int32_t k = (int32_t)b; k >= 0; k = a->skel_parent ? a->skel_parent[k] : -1)
        if (!rtm_matrix_usable(rtm_matrix(a, f, (uint32_t)k)))
            return 0;
    return 1;
}

/* Compares a's anim.bvh with its joints and rotations; fails with what
 * differs, prefixed by what. */
static void check_bvh(const struct rtm_anim *a, const char *what, struct worst *w)
{
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "anim.bvh", &v), 0);
    char *text = render(a, v, NULL), why[160];
    struct bvh_file f;
    if (bvh_parse(text, &f, why, sizeof why))
        fail_msg("%s: anim.bvh does not read: %s", what, why);
    free(text);
    assert_int_equal(f.n, (int)a->nbones + 1);
    assert_int_equal(f.frames, (int)a->nframes);
    assert_string_equal(f.j[0].name, "rtm_root");
    assert_true(fabs(f.frame_time - 1.0 / 30) < 1e-6);
    struct rtm_names *names = rtm_names_make(a->bones, a->nbones, &RTM_NAMES_BVH);
    uint32_t *bone = malloc((size_t)f.n * sizeof *bone);
    for (int i = 1; i < f.n; i++) {
        int64_t k = rtm_names_find(names, f.j[i].name, strlen(f.j[i].name));
        if (k < 0)
            fail_msg("%s: joint %s is no bone", what, f.j[i].name);
        bone[i] = (uint32_t)k;
    }
    uint32_t *order = rtm_phase_order(a);
    double (*rot)[3][3] = malloc((size_t)f.n * sizeof *rot), (*pos)[3] = malloc((size_t)f.n * sizeof *pos);
    for (int k = 0; k < f.frames; k++) {
        uint32_t fr = order[k];
        bvh_pose(&f, k, rot, pos);
        for (int i = 1; i < f.n; i++) {
            uint32_t b = bone[i];
            if (!chain_usable(a, fr, b))
                continue;
            float j[3];
            rtm_point_times(a->pivot[b], rtm_matrix(a, fr, b), j);
            /* rtm_root carries the motion's share of the frame */
            double ph = isfinite(a->phases[fr]) ? a->phases[fr] : 0;
            double want[3] = { j[0] + a->motion[0] * ph, j[1] + a->motion[1] * ph,
                               -((double)j[2] + a->motion[2] * ph) }, d = 0;
            for (int c = 0; c < 3; c++)
                d += (pos[i][c] - want[c]) * (pos[i][c] - want[c]);
            double q[3][3], s = 0;
            assert_int_equal(rtm_nearest_rotation(rtm_matrix(a, fr, b), q), 0);
            static const double S[3] = { 1, 1, -1 };
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) {
                    double e = rot[i][r][c] - S[r] * q[c][r] * S[c];
                    s += e * e;
                }
            double mm = sqrt(d) * 1000, rad = 2 * asin(fmin(1, sqrt(s) / (2 * sqrt(2.0))));
            if (mm > 0.1 || rad > 1e-4)
                fail_msg("%s: frame %u (bvh %d), %s: %.4f mm and %.2e rad off", what, fr, k,
                         f.j[i].name, mm, rad);
            w->mm = fmax(w->mm, mm);
            w->rad = fmax(w->rad, rad);
            w->joints++;
        }
    }
    free(rot);
    free(pos);
    free(order);
    free(bone);
    rtm_names_free(names);
    bvh_free(&f);
}

static void writer_animations(void **state)
{
    (void)state;
    struct worst w = { 0, 0, 0 };
    for (uint32_t version = 3; version <= 5; version++) {
        struct sample_opts o = { 30, 80, version, 2 };
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(rtm_sample_bmtr(&o, version, BMTR_COMPRESS_AUTO, &b), 0);
        struct rtm_anim *a = parse_ok(&b, "ofp2");
        check_bvh(a, "bmtr sample", &w);
        rtm_free(a);
        rtm_buf_free(&b);
    }
    struct sample_opts o = { 25, 110, 7, 0 };     /* 110 > ofp2's bones: extra_N too */
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    check_bvh(a, "plain sample", &w);
    rtm_free(a);
    rtm_buf_free(&b);
    printf("# writer's animations: %ld joint poses, worst %.5f mm, %.2e rad\n", w.joints, w.mm,
           w.rad);
}

/* A small skeleton with pivots and awkward names. */
static const char SKEL[] =
    "Pelvis - 0 1 0\n"
    "Spine Pelvis 0 1.2 0.1\n"
    "rtm_root Spine 0 1.5 0\n"                       /* a bone named like the root */
    "Hand Spine 0.4 1.4 0\n"
    "Tip Hand 0.4 1.4 0\n";                          /* a leaf at its parent's pivot */

static struct rtm_anim *small_anim(const char *const *names, uint32_t n, const float *phases,
                                   uint32_t nframes)
{
    struct rtm_anim *w = rtm_anim_alloc(RTM_FORMAT_PLAIN, nframes, n, 0, 64 * n,
                                        RTM_DEPTH_FULL);
    for (uint32_t b = 0; b < n; b++)
        w->bones[b] = rtm_anim_str(w, names[b], (uint32_t)strlen(names[b]));
    for (uint32_t f = 0; f < nframes; f++) {
        w->phases[f] = phases[f];
        for (uint32_t b = 0; b < n; b++) {
            float *m = w->matrices + ((size_t)f * n + b) * 12;
            double ang = 0.1 * f + 0.05 * b, c = cos(ang), s = sin(ang);
            float r[12] = { (float)c, (float)s, 0, (float)-s, (float)c, 0, 0, 0, 1,
                            0.01f * (float)f, 0, 0.02f * (float)b };
            memcpy(m, r, sizeof r);
        }
    }
    struct rtm_buf out;
    rtm_buf_init(&out);
    assert_int_equal(rtm_write_plain(w, &out), 0);
    rtm_free(w);
    struct rtm_anim *a = parse_with_skeleton(&out, SKEL, "small");
    rtm_buf_free(&out);
    return a;
}

/* The hierarchy as written: names, nesting, offsets, ends; and frames in
 * phase order, whatever the file order. */
static void hierarchy_and_order(void **state)
{
    (void)state;
    static const char *const names[] = { "Pelvis", "Spine", "rtm_root", "Hand", "Tip",
                                         "my bone", "Spine" };
    static const float phases[] = { 0.75f, 0.25f, 0.5f, 0.0f };
    struct rtm_anim *a = small_anim(names, 7, phases, 4);
    char *text = render(a, (struct rtm_view){ .kind = RTM_VIEW_BVH }, NULL);
    struct bvh_file f;
    char why[160];
    assert_int_equal(bvh_parse(text, &f, why, sizeof why), 0);
    /* depth first, children in file order; the second Spine hangs from
     * Pelvis (its skeleton parent) and my bone, unknown, from the root */
    static const char *const joints[] = { "rtm_root", "Pelvis", "Spine", "rtm_root~2", "Hand",
                                          "Tip", "Spine~2", "my\\x20bone" };
    static const int parent[] = { -1, 0, 1, 2, 2, 4, 1, 0 };
    assert_int_equal(f.n, 8);
    for (int i = 0; i < 8; i++) {
        assert_string_equal(f.j[i].name, joints[i]);
        assert_int_equal(f.j[i].parent, parent[i]);
        assert_int_equal(f.j[i].nchan, 6);
        assert_memory_equal(f.j[i].chan, "XYZzxy", 6);
    }
    /* OFFSET: pivot minus the parent's, z flipped */
    assert_true(fabs(f.j[2].offset[1] - 0.2) < 1e-9 && fabs(f.j[2].offset[2] + 0.1) < 1e-9);
    assert_true(fabs(f.j[4].offset[0] - 0.4) < 1e-9 && fabs(f.j[4].offset[2] - 0.1) < 1e-9);
    /* a leaf at its parent's pivot ends 5 cm up; my bone (no pivot) too */
    assert_non_null(strstr(text, "JOINT Tip\n\t\t\t\t{\n\t\t\t\t\tOFFSET 0 0 0\n"));
    assert_non_null(strstr(strstr(text, "JOINT Tip"), "End Site\n\t\t\t\t\t{\n\t\t\t\t\t\tOFFSET 0 0.05 0\n"));
    /* rtm_root~2, a leaf at (0, 0.3, 0.1) from Spine: 5 cm along that way */
    const char *end = strstr(strstr(text, "JOINT rtm_root~2"), "End Site");
    assert_non_null(strstr(end, "OFFSET 0 0.04743 0.01581\n"));
    bvh_free(&f);
    free(text);
    struct worst w = { 0, 0, 0 };
    check_bvh(a, "small", &w);                 /* in phase order: 3, 1, 2, 0 */
    assert_int_equal(w.joints, 4 * 7);
    rtm_free(a);
}

/* Without pivots there is no anim.bvh, and header.txt says why. */
static void needs_pivots(void **state)
{
    (void)state;
    struct sample_opts o = { 5, 20, 1, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "none");
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "anim.bvh", &v), -1);
    assert_int_equal(rtm_view_nfixed(a), RTM_VIEW_BVH);
    for (size_t i = 0; i < rtm_view_count(a); i++)
        assert_int_not_equal(rtm_view_at(a, i).kind, RTM_VIEW_BVH);
    char *h = render(a, (struct rtm_view){ .kind = RTM_VIEW_HEADER }, NULL);
    assert_non_null(strstr(h, "so no joints/, anim.bvh or anim.glb"));
    free(h);
    rtm_free(a);
    rtm_buf_free(&b);
}

/* Every corpus file, with ofp2's pivots. */
static void corpus(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    struct worst w = { 0, 0, 0 };
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        check_bvh(a, c.path[i], &w);
        rtm_free(a);
    }
    rtm_skeleton_free(s);
    printf("# corpus: %zu files, %ld joint poses, worst %.5f mm, %.2e rad\n", c.n, w.joints,
           w.mm, w.rad);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writer_animations),
        cmocka_unit_test(hierarchy_and_order),
        cmocka_unit_test(needs_pivots),
        cmocka_unit_test(corpus),
    };
    return run_test_cases(tests, NULL, NULL);
}
