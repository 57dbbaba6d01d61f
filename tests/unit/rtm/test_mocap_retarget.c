/* test_mocap_retarget.c - a BVH's motion made an anim of a skeleton
 * (mocap_retarget.h): mocaps built here by hand (a bending arm, the same
 * pose from two rests, units, the root's travel, resampling, the
 * skeleton's own BVH), then the goals on the shared data: every
 * corpus animation's anim.bvh read back, the two shared clips onto ofp2,
 * and the speed of a parse. */
#include <math.h>
#include <time.h>

#include "testutil.h"
#include "bvh.h"
#include "check.h"
#include "mocap.h"
#include "mocap_retarget.h"
#include "pivots.h"
#include "skeleton.h"

/* ---- a mocap by hand ---- */

struct hand {
    struct rtm_mocap m;
    struct rtm_mocap_joint j[16];
    double v[64 * 64];
    struct rtm_mocap_map map;
    int32_t bone[16];
    uint8_t how[16];
};

/* A joint with 3 rotation channels in the order given ("zxy"), after 3
 * position channels when pos. */
static uint32_t joint(struct hand *h, const char *name, int32_t parent, double x, double y,
                      double z, int pos, const char *rot)
{
    uint32_t k = h->m.njoints++;
    struct rtm_mocap_joint *j = &h->j[k];
    memset(j, 0, sizeof *j);
    j->name = name;
    j->parent = parent;
    j->offset[0] = x;
    j->offset[1] = y;
    j->offset[2] = z;
    j->first = h->m.nvalues;
    if (pos) {
        memcpy(j->chan, "XYZ", 3);
        j->nchan = 3;
    }
    for (const char *c = rot; *c; c++)
        j->chan[j->nchan++] = *c;
    h->m.nvalues += j->nchan;
    return k;
}

static void hand_init(struct hand *h, uint32_t nframes, double frame_time)
{
    memset(h, 0, sizeof *h);
    h->m.joint = h->j;
    h->m.values = h->v;
    h->m.nframes = nframes;
    h->m.frame_time = frame_time;
}

/* Sets channel c of joint k in frame f ('X' position ... 'z' rotation). */
static void set(struct hand *h, uint32_t f, uint32_t k, char c, double v)
{
    const struct rtm_mocap_joint *j = &h->j[k];
    for (int i = 0; i < j->nchan; i++)
        if (j->chan[i] == c) {
            h->v[f * h->m.nvalues + j->first + i] = v;
            return;
        }
    fail_msg("joint %u has no channel %c", k, c);
}

/* Each frame's positions start at the OFFSET, as a file would give them. */
static void rest_frames(struct hand *h)
{
    for (uint32_t f = 0; f < h->m.nframes; f++)
        for (uint32_t k = 0; k < h->m.njoints; k++)
            for (int i = 0; i < h->j[k].nchan; i++)
                if (h->j[k].chan[i] >= 'X' && h->j[k].chan[i] <= 'Z')
                    h->v[f * h->m.nvalues + h->j[k].first + i] =
                        h->j[k].offset[h->j[k].chan[i] - 'X'];
}

/* Maps each joint to the bone of its name, or none (how: naming). */
static void map_by_name(struct hand *h, const struct rtm_skeleton *s, uint8_t how)
{
    h->map.bone = h->bone;
    h->map.how = h->how;
    h->map.naming = how == RTM_MAP_EXACT ? RTM_NAMING_SKELETON : RTM_NAMING_HUMANIK;
    h->map.nmapped = 0;
    for (uint32_t k = 0; k < h->m.njoints; k++) {
        h->bone[k] = rtm_skeleton_find(s, h->j[k].name, strlen(h->j[k].name));
        h->how[k] = h->bone[k] >= 0 ? how : RTM_MAP_NONE;
        h->map.nmapped += h->bone[k] >= 0;
    }
}

static struct rtm_skeleton *skel(const char *text)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_skeleton_parse(text, strlen(text), "test", &s, &err))
        fail_msg("%s", err.msg);
    return s;
}

static struct rtm_anim *retarget(const struct hand *h, const struct rtm_skeleton *s,
                                 double unit, double fps)
{
    struct rtm_mocap_opts o = { .unit = unit, .fps = fps };
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_mocap_retarget(&h->m, &h->map, s, &o, 0, &a, &err))
        fail_msg("retarget: %s", err.msg);
    assert_int_equal(a->format, RTM_FORMAT_BVH);
    assert_int_equal(a->nbones, s->nbones);
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones * 12; i++)
        assert_true(isfinite(a->matrices[i]));
    return a;
}

/* Joint of bone b in frame f: pivot . M. */
static void joint_at(const struct rtm_anim *a, const struct rtm_skeleton *s, uint32_t f,
                     uint32_t b, double out[3])
{
    float j[3];
    rtm_point_times(s->pivot[b], rtm_matrix(a, f, b), j);
    for (int k = 0; k < 3; k++)
        out[k] = j[k];
}

/* The angle at joint b between the ways to joints a and c, degrees. */
static double angle3(const double a[3], const double b[3], const double c[3])
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

static double bone_angle(const struct rtm_anim *a, const struct rtm_skeleton *s, uint32_t f,
                         const char *x, const char *y, const char *z)
{
    double p[3][3];
    const char *n[3] = { x, y, z };
    for (int i = 0; i < 3; i++)
        joint_at(a, s, f, (uint32_t)rtm_skeleton_find(s, n[i], strlen(n[i])), p[i]);
    return angle3(p[0], p[1], p[2]);
}

/* The target: a T-posed arm, in metres, the character facing -z. */
static const char ARM_SKEL[] =
    "Hips - 0 1 0\n"
    "Arm Hips 0.2 1.5 0\n"
    "ArmRoll Arm 0.35 1.5 0\n"
    "Fore ArmRoll 0.5 1.5 0\n"
    "Hand Fore 0.8 1.5 0\n";

/* A source arm hanging down (centimetres), the forearm turned by deg about
 * BVH's z in frame 1. */
static void hanging_arm(struct hand *h, double deg)
{
    hand_init(h, 2, 1.0 / 30);
    uint32_t hips = joint(h, "Hips", -1, 0, 100, 0, 1, "zxy");
    uint32_t arm = joint(h, "Arm", (int32_t)hips, 20, 40, 0, 0, "zxy");
    uint32_t fore = joint(h, "Fore", (int32_t)arm, 0, -30, 0, 0, "zxy");
    joint(h, "Hand", (int32_t)fore, 0, -30, 0, 0, "zxy");
    rest_frames(h);
    set(h, 1, fore, 'z', deg);
}

static void arm_bends_90(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(ARM_SKEL);
    struct hand h;
    hanging_arm(&h, 90);
    map_by_name(&h, s, RTM_MAP_NAMING);
    struct rtm_anim *a = retarget(&h, s, 0.01, 0);
    assert_int_equal(a->nframes, 2);
    double straight = bone_angle(a, s, 0, "Arm", "Fore", "Hand");
    double bent = bone_angle(a, s, 1, "Arm", "Fore", "Hand");
    printf("# elbow: %.6f then %.6f degrees\n", straight, bent);
    assert_true(fabs(straight - 180) < 1e-3);
    assert_true(fabs(bent - 90) < 1e-3);
    /* the skeleton's lengths, not the actor's: forearm 0.3 m */
    double fj[3], hj[3];
    joint_at(a, s, 1, 3, fj);
    joint_at(a, s, 1, 4, hj);
    assert_true(fabs(sqrt(pow(hj[0] - fj[0], 2) + pow(hj[1] - fj[1], 2) +
                          pow(hj[2] - fj[2], 2)) - 0.3) < 1e-5);
    /* the roll bone, unmapped, follows its parent: on the arm's line */
    double aj[3], rj[3];
    joint_at(a, s, 1, 1, aj);
    joint_at(a, s, 1, 2, rj);
    double line = angle3(aj, rj, fj);
    assert_true(fabs(line - 180) < 1e-3);
    rtm_free(a);
    rtm_skeleton_free(s);
}

/* The same world pose (the arm held straight forward, -z in the model)
 * from a T-posed rest and from a hanging one: the same joints. */
static void rest_pose_does_not_matter(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(ARM_SKEL);
    struct hand t, d;
    hand_init(&t, 1, 1.0 / 30);
    uint32_t hips = joint(&t, "Hips", -1, 0, 100, 0, 1, "zxy");
    uint32_t arm = joint(&t, "Arm", (int32_t)hips, 20, 40, 0, 0, "zxy");
    uint32_t fore = joint(&t, "Fore", (int32_t)arm, 30, 0, 0, 0, "zxy");
    joint(&t, "Hand", (int32_t)fore, 30, 0, 0, 0, "zxy");
    rest_frames(&t);
    set(&t, 0, arm, 'y', -90);          /* +x to BVH's +z: forward */
    hanging_arm(&d, 0);
    d.m.nframes = 1;
    set(&d, 0, 1, 'x', -90);            /* -y to BVH's +z */
    map_by_name(&t, s, RTM_MAP_NAMING);
    map_by_name(&d, s, RTM_MAP_NAMING);
    struct rtm_anim *a = retarget(&t, s, 0.01, 0), *b = retarget(&d, s, 0.01, 0);
    /* the pose, from the hips: with no legs the floor is no measure */
    double worst = 0, ha[3], hb[3];
    joint_at(a, s, 0, 0, ha);
    joint_at(b, s, 0, 0, hb);
    for (uint32_t k = 0; k < s->nbones; k++) {
        double ja[3], jb[3];
        joint_at(a, s, 0, k, ja);
        joint_at(b, s, 0, k, jb);
        for (int i = 0; i < 3; i++)
            worst = fmax(worst, fabs(ja[i] - ha[i] - (jb[i] - hb[i])));
    }
    double hand[3], arm_j[3];
    joint_at(a, s, 0, 4, hand);
    joint_at(a, s, 0, 1, arm_j);
    printf("# T-pose vs hanging: worst joint apart %.3g m; hand at %.3f %.3f %.3f\n", worst,
           hand[0], hand[1], hand[2]);
    assert_true(worst < 1e-5);
    /* forward is -z in the model: the hand 0.6 m in front of the shoulder */
    assert_true(fabs(hand[2] - (arm_j[2] - 0.6)) < 1e-5);
    assert_true(fabs(hand[0] - arm_j[0]) < 1e-5);
    rtm_free(a);
    rtm_free(b);
    rtm_skeleton_free(s);
}

/* The same motion in centimetres and in metres, each with its unit. */
static void units_scale(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(ARM_SKEL);
    struct hand cm, m;
    hanging_arm(&cm, 40);
    hanging_arm(&m, 40);
    for (uint32_t k = 0; k < m.m.njoints; k++)
        for (int i = 0; i < 3; i++)
            m.j[k].offset[i] /= 100;
    rest_frames(&m);
    set(&m, 1, 2, 'z', 40);
    set(&cm, 1, 0, 'Z', 30);            /* the hips travel 30 cm */
    set(&m, 1, 0, 'Z', 0.3);
    map_by_name(&cm, s, RTM_MAP_NAMING);
    map_by_name(&m, s, RTM_MAP_NAMING);
    struct rtm_anim *a = retarget(&cm, s, 0.01, 0), *b = retarget(&m, s, 1, 0);
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones * 12; i++)
        assert_true(fabs(a->matrices[i] - b->matrices[i]) < 1e-5);
    for (int k = 0; k < 3; k++)
        assert_true(fabs(a->motion[k] - b->motion[k]) < 1e-6);
    assert_true(fabs(a->motion[2] + 0.3) < 1e-6);   /* BVH +z is the model's -z */
    assert_string_equal(a->bvh->unit_name, "set");
    rtm_free(a);
    rtm_free(b);
    rtm_skeleton_free(s);
}

/* A leg twice as long as the actor's: the hips' travel doubled is the
 * motion, taken out of the frames by phase; a hop lifts the hips twice
 * as high. */
static const char LEG_SKEL[] =
    "Hips - 0 1 0\n"
    "LeftUpLeg Hips 0.1 0.9 0\n"
    "LeftFoot LeftUpLeg 0.1 0 0\n";

static void root_motion(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(LEG_SKEL);
    struct hand h;
    hand_init(&h, 3, 0.5);
    uint32_t hips = joint(&h, "Hips", -1, 0, 50, 0, 1, "zxy");
    uint32_t leg = joint(&h, "LeftUpLeg", (int32_t)hips, 5, -5, 0, 0, "zxy");
    joint(&h, "LeftFoot", (int32_t)leg, 0, -45, 0, 0, "zxy");
    rest_frames(&h);
    set(&h, 1, hips, 'Z', 50);
    set(&h, 1, hips, 'Y', 60);          /* 10 cm up mid-hop */
    set(&h, 2, hips, 'Z', 100);
    set(&h, 2, hips, 'X', 20);
    map_by_name(&h, s, RTM_MAP_NAMING);
    struct rtm_anim *a = retarget(&h, s, 0.01, 0);
    printf("# motion %.6f %.6f %.6f, hip ratio %.4f\n", a->motion[0], a->motion[1],
           a->motion[2], a->bvh->hip_ratio);
    assert_true(fabs(a->bvh->hip_ratio - 2) < 1e-6);
    assert_true(fabs(a->motion[0] - 0.4) < 1e-6);
    assert_true(fabs(a->motion[1]) < 1e-9);
    assert_true(fabs(a->motion[2] + 2) < 1e-6);
    assert_true(fabs(a->phases[1] - 0.5f) < 1e-7);
    double j0[3], j1[3], j2[3];
    joint_at(a, s, 0, 0, j0);
    joint_at(a, s, 1, 0, j1);
    joint_at(a, s, 2, 0, j2);
    /* in place at the ends; mid-way 1 m travelled less half the motion */
    for (int k = 0; k < 3; k += 2) {
        assert_true(fabs(j0[k] - s->pivot[0][k]) < 1e-5);
        assert_true(fabs(j2[k] - s->pivot[0][k]) < 1e-5);
    }
    assert_true(fabs(j1[2] - s->pivot[0][2]) < 1e-5);
    assert_true(fabs(j1[0] - s->pivot[0][0] - (0 - 0.2)) < 1e-5);
    assert_true(fabs(j0[1] - 1) < 1e-5);
    assert_true(fabs(j1[1] - 1.2) < 1e-5);
    rtm_free(a);
    rtm_skeleton_free(s);
}

/* Five frames 0.1 s apart at 5 fps: frames 0, 2 and 4; between two frames
 * the turn slerped. */
static void resampling(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(ARM_SKEL);
    struct hand h;
    hanging_arm(&h, 0);
    h.m.nframes = 5;
    h.m.frame_time = 0.1;
    rest_frames(&h);
    for (uint32_t f = 0; f < 5; f++)
        set(&h, f, 2, 'z', 20.0 * f);
    map_by_name(&h, s, RTM_MAP_NAMING);
    struct rtm_anim *all = retarget(&h, s, 0.01, 0), *few = retarget(&h, s, 0.01, 5);
    assert_int_equal(all->nframes, 5);
    assert_int_equal(few->nframes, 3);
    for (uint32_t f = 0; f < 3; f++) {
        assert_true(fabs(few->phases[f] - 0.5f * f) < 1e-7);
        for (int i = 0; i < 12 * 5; i++)
            assert_true(fabs(rtm_matrix(few, f, 0)[i] - rtm_matrix(all, 2 * f, 0)[i]) < 1e-6);
    }
    rtm_free(few);
    /* four frames a second apart, the elbow bent 0, 60, 120, 180: at 2/3
     * fps three frames, the middle one half way from 60 to 120 */
    h.m.nframes = 4;
    h.m.frame_time = 1;
    for (uint32_t f = 0; f < 4; f++)
        set(&h, f, 2, 'z', 60.0 * f);
    few = retarget(&h, s, 0.01, 2.0 / 3);
    assert_int_equal(few->nframes, 3);
    double mid = bone_angle(few, s, 1, "Arm", "Fore", "Hand");
    printf("# slerped elbow: %.6f degrees (90 wanted)\n", mid);
    assert_true(fabs(mid - 90) < 1e-3);
    /* never more frames than the source: 1000 fps keeps the four */
    rtm_free(few);
    few = retarget(&h, s, 0.01, 1000);
    assert_int_equal(few->nframes, 4);
    rtm_free(all);
    rtm_free(few);
    rtm_skeleton_free(s);
}

/* The skeleton's own BVH (exact names, offsets from the pivots, an
 * unmapped root carrying motion x phase): taken as it is, a stretched bone
 * too, and the root's travel is the motion. */
static void identity_path(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(ARM_SKEL);
    struct hand h;
    hand_init(&h, 3, 1.0 / 30);
    uint32_t root = joint(&h, "rtm_root", -1, 0, 0, 0, 1, "zxy");
    int32_t up = (int32_t)root;
    for (uint32_t b = 0; b < s->nbones; b++) {
        const float *p = s->pivot[b], *q = b ? s->pivot[b - 1] : NULL;
        double d[3] = { p[0] - (q ? q[0] : 0), p[1] - (q ? q[1] : 0), p[2] - (q ? q[2] : 0) };
        up = (int32_t)joint(&h, s->bone[b], up, d[0], d[1], -d[2], 1, "zxy");
    }
    rest_frames(&h);
    for (uint32_t f = 0; f < 3; f++) {  /* motion (1, 0, -2) x phase */
        set(&h, f, root, 'X', 0.5 * f);
        set(&h, f, root, 'Z', 1.0 * f);
    }
    set(&h, 1, 2, 'z', 30);             /* the arm turns */
    set(&h, 2, 5, 'X', 0.45);           /* the hand 15 cm further out */
    map_by_name(&h, s, RTM_MAP_EXACT);
    struct rtm_anim *a = retarget(&h, s, 1, 0);
    assert_int_equal(a->bvh->identity, 1);
    printf("# identity: motion %.6f %.6f %.6f\n", a->motion[0], a->motion[1], a->motion[2]);
    assert_true(fabs(a->motion[0] - 1) < 1e-6 && fabs(a->motion[2] + 2) < 1e-6);
    double hand[3];
    joint_at(a, s, 2, 4, hand);
    assert_true(fabs(hand[0] - 0.95) < 1e-5 && fabs(hand[1] - 1.5) < 1e-5);
    double j[3];                        /* frame 1: the travel is taken out */
    joint_at(a, s, 1, 1, j);
    assert_true(fabs(j[0] - 0.2) < 1e-5 && fabs(j[2]) < 1e-5);
    rtm_free(a);
    /* 2 mm off: retargeted, then the stretch is gone */
    h.j[4].offset[0] += 0.002;
    a = retarget(&h, s, 1, 0);
    assert_int_equal(a->bvh->identity, 0);
    rtm_free(a);
    rtm_skeleton_free(s);
}

static void refusals(void **state)
{
    (void)state;
    struct rtm_skeleton *s = skel(ARM_SKEL), *none = skel("A -\nB A\n");
    struct hand h;
    hanging_arm(&h, 0);
    map_by_name(&h, s, RTM_MAP_NAMING);
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rtm_mocap_retarget(&h.m, &h.map, none, NULL, 0, &a, &err), -1);
    assert_null(a);
    assert_non_null(strstr(err.msg, "no pivots"));
    for (uint32_t k = 0; k < h.m.njoints; k++)
        h.bone[k] = -1;
    h.map.nmapped = 0;
    assert_int_equal(rtm_mocap_retarget(&h.m, &h.map, s, NULL, 0, &a, &err), -1);
    assert_non_null(strstr(err.msg, "no joint"));
    rtm_skeleton_free(s);
    rtm_skeleton_free(none);
}

/* ---- through rtm_parse: the reader, the map, the head ---- */

/* A small HumanIK clip in centimetres: hips, a leg, a spine, 4 frames at
 * 120 fps, the hips 30 cm forward, the knee bending. */
static const char CLIP[] =
    "HIERARCHY\r\nROOT Hips\n{\n\tOFFSET 0 0 0\n"
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "\tJOINT LeftUpLeg\n\t{\n\t\tOFFSET 10 -5 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
    "\t\tJOINT LeftLeg\n\t\t{\n\t\t\tOFFSET 0 -45 0\n\t\t\tCHANNELS 3 Xrotation Yrotation Zrotation\n"
    "\t\t\tJOINT LeftFoot\n\t\t\t{\n\t\t\t\tOFFSET 0 -45 0\n\t\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
    "\t\t\t\tEnd Site\n\t\t\t\t{\n\t\t\t\t\tOFFSET 0 -5 12\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n"
    "\tJOINT Spine\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
    "\t\tJOINT Head\n\t\t{\n\t\t\tOFFSET 0 60 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
    "\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET 0 20 0\n\t\t\t}\n\t\t}\n\t}\n}\n"
    "MOTION\nFrames: 4\nFrame Time: 0.0083333\n"
    "0 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    "0 99 10 0 0 0 0 -20 0 30 0 0 0 0 0 0 0 0 0 0 0\n"
    "0 98 20 0 0 0 0 -40 0 60 0 0 0 0 0 0 0 0 0 0 0\n"
    "0 100 30 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static struct rtm_anim *parse_clip(const struct rtm_skeleton *s, unsigned flags,
                                   const struct rtm_mocap_opts *mo)
{
    struct rtm_parse_opts o = { .skel = s, .flags = flags, .mocap = mo };
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_parse_opts((const uint8_t *)CLIP, sizeof CLIP - 1, &o, &a, &err))
        fail_msg("parse: %s", err.msg);
    return a;
}

/* The head, given more and more of the file as it asks. */
static struct rtm_anim *head_clip(const struct rtm_skeleton *s, const struct rtm_mocap_opts *mo)
{
    struct rtm_parse_opts o = { .skel = s, .mocap = mo };
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    size_t len = 16;
    for (;;) {
        uint64_t need = 0;
        int rc = rtm_parse_head((const uint8_t *)CLIP, len, sizeof CLIP - 1, &o, &a, &need, &err);
        if (rc == 0)
            return a;
        if (rc != RTM_PARSE_NEED_MORE)
            fail_msg("head: %s", err.msg);
        assert_true(need > len && need <= sizeof CLIP - 1);
        len = (size_t)need;
    }
}

static void same_shape(const struct rtm_anim *a, const struct rtm_anim *b)
{
    assert_int_equal(a->format, RTM_FORMAT_BVH);
    assert_int_equal(b->format, RTM_FORMAT_BVH);
    assert_int_equal(a->nbones, b->nbones);
    assert_int_equal(a->nframes, b->nframes);
    for (uint32_t k = 0; k < a->nbones; k++)
        assert_string_equal(a->bones[k].s, b->bones[k].s);
}

static void parsed_as_a_format(void **state)
{
    (void)state;
    struct rtm_skeleton *s = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rtm_skeleton_builtin("ofp2", &s, &err), 0);
    struct rtm_anim *full = parse_clip(s, 0, NULL), *light = parse_clip(s, RTM_PARSE_NO_MATRICES, NULL);
    struct rtm_anim *head = head_clip(s, NULL);
    assert_int_equal(full->nbones, s->nbones);
    assert_int_equal(full->nframes, 4);
    assert_int_equal(full->depth, RTM_DEPTH_FULL);
    assert_int_equal(light->depth, RTM_DEPTH_LIGHT);
    assert_int_equal(head->depth, RTM_DEPTH_SHAPE);
    same_shape(full, head);
    same_shape(full, light);
    assert_memory_equal(full->motion, light->motion, sizeof full->motion);
    assert_memory_equal(full->phases, light->phases, 4 * sizeof(float));
    assert_int_equal(full->source_bytes, sizeof CLIP - 1);
    assert_non_null(full->pivot);
    printf("# motion %.4f %.4f %.4f, unit %s\n", full->motion[0], full->motion[1],
           full->motion[2], full->bvh->unit_name);
    assert_true(full->motion[2] < -0.25);           /* 30 cm forward: the model's -z */
    /* every view's size is its bytes */
    size_t n = rtm_view_count(full);
    uint64_t *sizes = malloc(n * sizeof *sizes);
    assert_int_equal(rtm_view_sizes(full, sizes), 0);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        free(render(full, rtm_view_at(full, i), &len));
        assert_int_equal(len, sizes[i]);
    }
    free(sizes);
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(full, "header.txt", &v), 0);
    char *text = render(full, v, NULL);
    assert_non_null(strstr(text, "format: bvh\n"));
    assert_non_null(strstr(text, "bvh_joints: 6 "));
    assert_non_null(strstr(text, "bvh_map: LeftLeg LeftLeg ("));
    assert_non_null(strstr(text, "inferred from"));
    free(text);
    /* a frame rate: the head counts the frames the full parse makes */
    struct rtm_mocap_opts mo = { .fps = 80 };
    rtm_free(full);
    rtm_free(head);
    full = parse_clip(s, 0, &mo);
    head = head_clip(s, &mo);
    same_shape(full, head);
    assert_int_equal(full->nframes, 3);             /* 25 ms at 80 fps: 2 steps */
    rtm_free(full);
    rtm_free(head);
    rtm_free(light);
    rtm_skeleton_free(s);
}

static void refused_without_pivots(void **state)
{
    (void)state;
    struct rtm_skeleton *none = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rtm_skeleton_builtin("none", &none, &err), 0);
    struct rtm_parse_opts o = { .skel = none };
    struct rtm_anim *a = NULL;
    assert_int_equal(rtm_parse_opts((const uint8_t *)CLIP, sizeof CLIP - 1, &o, &a, &err), -1);
    assert_null(a);
    assert_non_null(strstr(err.msg, "no pivots"));
    uint64_t need = 0;
    assert_int_equal(rtm_parse_head((const uint8_t *)CLIP, sizeof CLIP - 1, sizeof CLIP - 1, &o,
                                    &a, &need, &err), -1);
    rtm_skeleton_free(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arm_bends_90),
        cmocka_unit_test(rest_pose_does_not_matter),
        cmocka_unit_test(units_scale),
        cmocka_unit_test(root_motion),
        cmocka_unit_test(resampling),
        cmocka_unit_test(identity_path),
        cmocka_unit_test(refusals),
        cmocka_unit_test(parsed_as_a_format),
        cmocka_unit_test(refused_without_pivots),
    };
    return run_test_cases(tests, NULL, NULL);
}
