/* test_gltf.c - glTF read as motion capture (gltf.h, formats.h): the
 * arm of gltf_fixture.h made a mocap (joints, rest, rotations from the
 * rest, with and without a skin, a turned rest, two clips), then parsed
 * as a format onto ofp2 (.gltf and .glb, full and head reads, buffers
 * beside the file, FBX through a converter).  Bad input is
 * test_gltf_bad.c's. */
#include <math.h>

#include "testutil.h"
#include "formats.h"
#include "gltf.h"
#include "gltf_write.h"
#include "mocap.h"
#include "names.h"
#include "skeleton.h"

static struct rtm_mocap *mocap_of(const struct rtm_buf *b, uint32_t clip, int head)
{
    struct rtm_parse_opts o = { .clip = clip };
    struct rtm_error err = { .msg = "" };
    struct gltf g = { 0 };
    struct rtm_mocap *m = NULL;
    int rc = gltf_open(&g, (const uint8_t *)b->p, b->len, 0, &o, &err);
    if (!rc)
        rc = gltf_mocap(&g, head, &m);
    if (rc)
        fail_msg("%s", err.msg);
    gltf_close(&g);
    return m;
}

static void assert_near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol))
        fail_msg("%.9g is not %.9g (within %g)", a, b, tol);
}

/* The forearm's row: Zrotation, Xrotation, Yrotation. */
static void assert_bend(const struct rtm_mocap *m, uint32_t f, double deg)
{
    const double *row = m->values + (size_t)f * m->nvalues;
    assert_near(row[m->joint[1].first], deg, 1e-4);
    assert_near(row[m->joint[1].first + 1], 0, 1e-4);
    assert_near(row[m->joint[1].first + 2], 0, 1e-4);
    for (int k = 0; k < 3; k++)         /* the hand turns with it: nothing of its own */
        assert_near(row[m->joint[2].first + k], 0, 1e-4);
}

static void check_arm(int flags)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_gltf_arm_text(&b, flags);
    struct rtm_mocap *m = mocap_of(&b, 0, 0);
    assert_int_equal(m->njoints, 3);
    assert_string_equal(m->joint[0].name, "RightArm");
    assert_string_equal(m->joint[2].name, "RightHand");
    assert_int_equal(m->joint[0].parent, -1);
    assert_int_equal(m->joint[2].parent, 1);
    assert_near(m->joint[0].offset[1], 1.4, 1e-6);
    assert_near(m->joint[1].offset[0], 0.3, 1e-6);
    assert_near(m->joint[2].offset[0], 0.25, 1e-6);
    assert_int_equal(m->nframes, 3);
    assert_near(m->frame_time, 0.5, 1e-9);
    assert_int_equal(m->nvalues, 12);
    for (uint32_t f = 0; f < 3; f++)
        assert_bend(m, f, 45.0 * f);
    /* the root's place: still with a skin, moving without */
    assert_near(m->values[2 * 12], flags & RTM_ARM_SKIN ? 0.2 : 0.4, 1e-6);
    rtm_mocap_free(m);
    /* the head: the same joints and frames, no values */
    m = mocap_of(&b, 0, 1);
    assert_int_equal(m->njoints, 3);
    assert_int_equal(m->nframes, 3);
    assert_null(m->values);
    rtm_mocap_free(m);
    rtm_buf_free(&b);
}

static void arm_with_a_skin(void **state)
{
    (void)state;
    check_arm(RTM_ARM_SKIN);
}

static void arm_without_a_skin(void **state)
{
    (void)state;
    check_arm(0);
}

/* A rest turned about the bone (and the bind pose saying so): the
 * channels are the turn from it, in world axes. */
static void rest_turn_is_taken_out(void **state)
{
    (void)state;
    check_arm(RTM_ARM_SKIN | RTM_ARM_REST_TURN);
}

static void second_clip(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_gltf_arm_text(&b, RTM_ARM_SKIN | RTM_ARM_TWO_CLIPS);
    /* "lift": 2 keys 2 s apart, STEP: 0 until the last frame, then 30 */
    struct rtm_mocap *m = mocap_of(&b, 1, 0);
    assert_int_equal(m->nframes, 2);
    assert_near(m->frame_time, 2, 1e-9);
    assert_near(m->values[3], 0, 1e-4);
    assert_near(m->values[m->nvalues + 3], 30, 1e-4);
    rtm_mocap_free(m);
    rtm_buf_free(&b);
}

/* ---- as a format ---- */

static struct rtm_skeleton *ofp2(void)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rtm_skeleton_builtin("ofp2", &s, &err), 0);
    return s;
}

/* Each clip knows the file's clips by name, and which it is; a clip asked
 * for that the file lacks is an error naming how many it holds. */
static void clips_named(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_gltf_arm_glb(&b, RTM_ARM_SKIN | RTM_ARM_TWO_CLIPS), 0);
    struct rtm_error err = { .msg = "" };
    struct rtm_anim *a = NULL;
    struct rtm_parse_opts o = { .skel = s, .clip = 1 };
    if (rtm_parse_opts((const uint8_t *)b.p, b.len, &o, &a, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(a->nclips, 2);
    assert_int_equal(a->clip, 1);
    assert_string_equal(a->clip_names[0].s, "bend");
    assert_string_equal(a->clips->form[1], "lift");
    assert_int_equal(a->nframes, 2);
    rtm_free(a);
    o.clip = 2;
    assert_int_equal(rtm_parse_opts((const uint8_t *)b.p, b.len, &o, &a, &err), -1);
    assert_non_null(strstr(err.msg, "holds 2"));
    rtm_buf_free(&b);
    rtm_skeleton_free(s);
}

static void parsed_as_gltf_and_glb(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    struct rtm_parse_opts o = { .skel = s };
    struct rtm_error err = { .msg = "" };
    struct rtm_buf text, glb;
    rtm_buf_init(&text);
    rtm_buf_init(&glb);
    rtm_gltf_arm_text(&text, RTM_ARM_SKIN);
    rtm_gltf_arm_glb(&glb, RTM_ARM_SKIN);
    struct rtm_anim *a = NULL, *b = NULL, *h = NULL;
    if (rtm_parse_opts((const uint8_t *)text.p, text.len, &o, &a, &err))
        fail_msg("%s", err.msg);
    if (rtm_parse_opts((const uint8_t *)glb.p, glb.len, &o, &b, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(a->format, RTM_FORMAT_GLTF);
    assert_int_equal(b->format, RTM_FORMAT_GLB);
    assert_int_equal(a->nframes, 3);
    assert_int_equal(a->nbones, s->nbones);
    assert_int_equal(b->nbones, a->nbones);
    assert_memory_equal(a->matrices, b->matrices, (size_t)a->nframes * a->nbones * 12 * sizeof(float));
    assert_string_equal(a->bvh->unit_name, "file");
    assert_int_equal(a->nclips, 1);
    assert_string_equal(a->clip_names[0].s, "bend");
    assert_string_equal(a->clips->form[0], "bend");
    /* a head read: the header and JSON chunk are enough */
    uint64_t need = 0;
    size_t json_end = 20 + le_u32((const uint8_t *)glb.p + 12);
    assert_int_equal(rtm_parse_head((const uint8_t *)glb.p, 24, glb.len, &o, &h, &need, &err),
                     RTM_PARSE_NEED_MORE);
    assert_int_equal(need, json_end);
    if (rtm_parse_head((const uint8_t *)glb.p, json_end, glb.len, &o, &h, &need, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(h->nframes, 3);
    assert_int_equal(h->nbones, a->nbones);
    rtm_free(h);
    rtm_free(a);
    rtm_free(b);
    rtm_buf_free(&text);
    rtm_buf_free(&glb);
    rtm_skeleton_free(s);
}

/* ---- a buffer beside the file ---- */

struct beside {
    char asked[64];
    int calls;
};

static int read_beside(void *ctx, const char *name, uint8_t **data, size_t *len,
                       struct rtm_error *err)
{
    struct beside *bs = ctx;
    snprintf(bs->asked, sizeof bs->asked, "%s", name);
    bs->calls++;
    if (strcmp(name, "arm data.bin") != 0) {
        rtm_err_nooff(err, "%s: No such file or directory", name);
        return -1;
    }
    *data = malloc(RTM_GLTF_ARM_BIN);
    rtm_gltf_arm_bin(*data, RTM_ARM_SKIN);
    *len = RTM_GLTF_ARM_BIN;
    return 0;
}

static void buffer_beside(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    struct beside bs = { "", 0 };
    struct rtm_parse_opts o = { .skel = s, .read_beside = read_beside, .beside_ctx = &bs };
    struct rtm_error err = { .msg = "" };
    struct rtm_buf j;
    rtm_buf_init(&j);
    rtm_gltf_arm_json(&j, RTM_ARM_SKIN, "arm%20data.bin");
    struct rtm_anim *a = NULL;
    if (rtm_parse_opts((const uint8_t *)j.p, j.len, &o, &a, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(bs.asked, "arm data.bin");
    assert_int_equal(a->nframes, 3);
    rtm_free(a);
    /* a head read never asks for it */
    bs.calls = 0;
    uint64_t need;
    assert_int_equal(rtm_parse_head((const uint8_t *)j.p, j.len, j.len, &o, &a, &need, &err), 0);
    assert_int_equal(bs.calls, 0);
    rtm_free(a);
    /* a missing file: the callee's message */
    j.len = 0;
    rtm_gltf_arm_json(&j, RTM_ARM_SKIN, "gone.bin");
    assert_int_equal(rtm_parse_opts((const uint8_t *)j.p, j.len, &o, &a, &err), -1);
    assert_string_equal(err.msg, "gone.bin: No such file or directory");
    /* nothing to read it with */
    o.read_beside = NULL;
    assert_int_equal(rtm_parse_opts((const uint8_t *)j.p, j.len, &o, &a, &err), -1);
    assert_string_equal(err.msg, "glTF: buffers[0] is the file gone.bin, and nothing here "
                                 "reads files beside the source");
    rtm_buf_free(&j);
    rtm_skeleton_free(s);
}

/* ---- FBX through a converter ---- */

static int fake_converter(void *ctx, const char *format, const uint8_t *data, size_t len,
                          uint8_t **glb, size_t *glb_len, struct rtm_error *err)
{
    (void)ctx, (void)data, (void)len, (void)err;
    assert_string_equal(format, "fbx");
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_gltf_arm_glb(&b, RTM_ARM_SKIN);
    *glb = (uint8_t *)rtm_buf_take(&b, glb_len);
    return 0;
}

static void fbx_through_its_converter(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    struct rtm_parse_opts o = { .skel = s };
    struct rtm_error err = { .msg = "" };
    static const char FBX[] = "Kaydara FBX Binary  \0\x1a\0 and the rest";
    struct rtm_anim *a = NULL;
    assert_int_equal(rtm_parse_opts((const uint8_t *)FBX, sizeof FBX, &o, &a, &err), -1);
    assert_string_equal(err.msg, "reading FBX needs the converter rtmfs-fbx (rtmfs(1), "
                                 "FBX SOURCES)");
    o.convert = fake_converter;
    if (rtm_parse_opts((const uint8_t *)FBX, sizeof FBX, &o, &a, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(a->format, RTM_FORMAT_FBX);
    assert_int_equal(a->nframes, 3);
    assert_int_equal(a->source_bytes, sizeof FBX);
    rtm_free(a);
    rtm_skeleton_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arm_with_a_skin),
        cmocka_unit_test(arm_without_a_skin),
        cmocka_unit_test(rest_turn_is_taken_out),
        cmocka_unit_test(second_clip),
        cmocka_unit_test(clips_named),
        cmocka_unit_test(parsed_as_gltf_and_glb),
        cmocka_unit_test(buffer_beside),
        cmocka_unit_test(fbx_through_its_converter),
    };
    return run_test_cases(tests, NULL, NULL);
}
