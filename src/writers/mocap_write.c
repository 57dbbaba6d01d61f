/* mocap_write.c - a walking person as BVH in many namings and styles
 * (mocap_write.h).  Each joint's motion is a rotation matrix a frame,
 * decomposed into the Euler angles of the order the file lists; the
 * writer recurses over its own fixed tree of 24 joints, never over input. */
#include "mocap_write.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { NJ = 24 };
static const double PI = 3.14159265358979323846;

/* The person, a T-pose in metres: parent, OFFSET, End Site (or none),
 * and the swing of its three angles (degrees) and their phase. */
static const struct gjoint {
    int parent;
    double off[3];
    int end;
    double endoff[3];
    double amp[3];
    double phase;
    const char *man;            /* the ofp2 bone it stands for, or NULL */
} J[NJ] = {
    /* 0 hips */ { -1, { 0, 0.95, 0 }, 0, { 0 }, { 5, 10, 4 }, 0, "Pelvis" },
    /* 1 L hip joint */ { 0, { 0, 0, 0 }, 0, { 0 }, { 0, 0, 0 }, 0, NULL },
    /* 2 L thigh */ { 1, { 0.09, -0.07, 0 }, 0, { 0 }, { 30, 5, 5 }, 0, "LeftUpLeg" },
    /* 3 L shin */ { 2, { 0, -0.42, 0 }, 0, { 0 }, { 25, 4, 3 }, 1, "LeftLeg" },
    /* 4 L foot */ { 3, { 0, -0.42, 0 }, 0, { 0 }, { 10, 3, 3 }, 2, "LeftFoot" },
    /* 5 L toe */ { 4, { 0, -0.04, 0.12 }, 1, { 0, 0, 0.06 }, { 0, 0, 0 }, 0, "LeftToeBase" },
    /* 6 R hip joint */ { 0, { 0, 0, 0 }, 0, { 0 }, { 0, 0, 0 }, 0, NULL },
    /* 7 R thigh */ { 6, { -0.09, -0.07, 0 }, 0, { 0 }, { 30, 5, 5 }, PI, "RightUpLeg" },
    /* 8 R shin */ { 7, { 0, -0.42, 0 }, 0, { 0 }, { 25, 4, 3 }, PI + 1, "RightLeg" },
    /* 9 R foot */ { 8, { 0, -0.42, 0 }, 0, { 0 }, { 10, 3, 3 }, PI + 2, "RightFoot" },
    /* 10 R toe */ { 9, { 0, -0.04, 0.12 }, 1, { 0, 0, 0.06 }, { 0, 0, 0 }, 0, "RightToeBase" },
    /* 11 spine 0 */ { 0, { 0, 0.10, 0 }, 0, { 0 }, { 4, 6, 3 }, 0.5, "Spine" },
    /* 12 spine 1 */ { 11, { 0, 0.12, 0 }, 0, { 0 }, { 4, 6, 3 }, 0.7, "Spine1" },
    /* 13 spine 2 */ { 12, { 0, 0.12, 0 }, 0, { 0 }, { 3, 5, 3 }, 0.9, "Spine2" },
    /* 14 neck */ { 13, { 0, 0.14, 0 }, 0, { 0 }, { 5, 8, 3 }, 1.1, "neck" },
    /* 15 head */ { 14, { 0, 0.10, 0.02 }, 1, { 0, 0.18, 0 }, { 5, 8, 3 }, 1.3, "head" },
    /* 16 L clavicle */ { 13, { 0.03, 0.10, 0 }, 0, { 0 }, { 5, 5, 5 }, 0.2, "LeftShoulder" },
    /* 17 L upper arm */ { 16, { 0.14, 0, 0 }, 0, { 0 }, { 25, 10, 15 }, PI, "LeftArm" },
    /* 18 L forearm */ { 17, { 0.28, 0, 0 }, 0, { 0 }, { 8, 30, 6 }, PI + 0.5, "LeftForeArm" },
    /* 19 L hand */ { 18, { 0.26, 0, 0 }, 1, { 0.09, 0, 0 }, { 10, 10, 10 }, 1, "LeftHand" },
    /* 20 R clavicle */ { 13, { -0.03, 0.10, 0 }, 0, { 0 }, { 5, 5, 5 }, 1.2, "RightShoulder" },
    /* 21 R upper arm */ { 20, { -0.14, 0, 0 }, 0, { 0 }, { 25, 10, 15 }, 0, "RightArm" },
    /* 22 R forearm */ { 21, { -0.28, 0, 0 }, 0, { 0 }, { 8, 30, 6 }, 0.5, "RightForeArm" },
    /* 23 R hand */ { 22, { -0.26, 0, 0 }, 1, { -0.09, 0, 0 }, { 10, 10, 10 }, 2, "RightHand" },
};

/* Each style's names of J[] (NULL: the style has no such joint; its
 * children hang from its parent, which it sits on).  A style's prefix
 * comes first. */
static const struct style {
    const char *name, *prefix;
    const char *n[NJ];
} S[MOCAP_STYLES] = {
    { "mixamo", "mixamorig:",
      { "Hips", NULL, "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", NULL, "RightUpLeg",
        "RightLeg", "RightFoot", "RightToeBase", "Spine", "Spine1", "Spine2", "Neck", "Head",
        "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightShoulder", "RightArm",
        "RightForeArm", "RightHand" } },
    { "cmu-mb", "",
      { "Hips", "LHipJoint", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RHipJoint",
        "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase", "LowerBack", "Spine", "Spine1",
        "Neck", "Head", "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightShoulder",
        "RightArm", "RightForeArm", "RightHand" } },
    { "cmu-max", "",
      { "Hips", "LHipJoint", "LeftHip", "LeftKnee", "LeftAnkle", "LeftToe", "RHipJoint",
        "RightHip", "RightKnee", "RightAnkle", "RightToe", "lowerback", "Chest", "Chest2", "Neck",
        "Head", "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist", "RightCollar",
        "RightShoulder", "RightElbow", "RightWrist" } },
    { "poser", "",
      { "hip", NULL, "lThigh", "lShin", "lFoot", "lToe", NULL, "rThigh", "rShin", "rFoot",
        "rToe", "abdomen", "abdomen2", "chest", "neck", "head", "lCollar", "lShldr", "lForeArm",
        "lHand", "rCollar", "rShldr", "rForeArm", "rHand" } },
    { "suffix", "",
      { "Hips", NULL, "UpperLeg_L", "LowerLeg_L", "Foot_L", "Toes_L", NULL, "UpperLeg_R",
        "LowerLeg_R", "Foot_R", "Toes_R", "Spine", "Chest", "UpperChest", "Neck", "Head",
        "Shoulder_L", "UpperArm_L", "LowerArm_L", "Hand_L", "Shoulder_R", "UpperArm_R",
        "LowerArm_R", "Hand_R" } },
    { "suffix-dot", "",
      { "hips", NULL, "thigh.l", "shin.l", "foot.l", "toe.l", NULL, "thigh.r", "shin.r",
        "foot.r", "toe.r", "spine", "spine.001", "chest", "neck", "head", "shoulder.l",
        "upperarm.l", "forearm.l", "hand.l", "shoulder.r", "upperarm.r", "forearm.r",
        "hand.r" } },
    { "side-word", "",
      { "Hips", NULL, "Left_UpLeg", "Left_Leg", "Left_Foot", "Left_Toe", NULL, "Right_UpLeg",
        "Right_Leg", "Right_Foot", "Right_Toe", "Spine", "Spine1", "Spine2", "Neck", "Head",
        "Left_Shoulder", "Left_Arm", "Left_ForeArm", "Left_Hand", "Right_Shoulder", "Right_Arm",
        "Right_ForeArm", "Right_Hand" } },
    { "unreal", "",
      { "pelvis", NULL, "thigh_l", "calf_l", "foot_l", "ball_l", NULL, "thigh_r", "calf_r",
        "foot_r", "ball_r", "spine_01", "spine_02", "spine_03", "neck_01", "head", "clavicle_l",
        "upperarm_l", "lowerarm_l", "hand_l", "clavicle_r", "upperarm_r", "lowerarm_r",
        "hand_r" } },
    { "ofp2", "",
      { "Pelvis", NULL, "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", NULL, "RightUpLeg",
        "RightLeg", "RightFoot", "RightToeBase", "Spine", "Spine1", "Spine2", "neck", "head",
        "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightShoulder", "RightArm",
        "RightForeArm", "RightHand" } },
};

static const char ORDER[6][4] = { "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX" };

const char *rtm_mocap_style_name(enum mocap_style s)
{
    return s < MOCAP_STYLES ? S[s].name : "?";
}

const char *rtm_mocap_order_name(int order)
{
    return order >= 0 && order < 6 ? ORDER[order] : order == MOCAP_MIXED ? "mixed" : "?";
}

const char *rtm_mocap_style_prefix(enum mocap_style s)
{
    return s < MOCAP_STYLES ? S[s].prefix : "";
}

uint32_t rtm_mocap_write_joints(enum mocap_style s, const char **names, const char **man,
                                uint32_t max)
{
    uint32_t n = 0;
    for (int j = 0; j < NJ; j++) {
        if (!S[s].n[j])
            continue;
        if (n < max)
            names[n] = S[s].n[j], man[n] = J[j].man;
        n++;
    }
    return n;
}

/* ---- rotations ---- */

typedef double mat3[3][3];

static void mat_mul(const mat3 a, const mat3 b, mat3 out)
{
    mat3 t;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            t[r][c] = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c];
    memcpy(out, t, sizeof t);
}

/* A turn of rad about axis (0 x, 1 y, 2 z), on column vectors. */
static void axis_rot(int axis, double rad, mat3 out)
{
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    memset(out, 0, sizeof(mat3));
    out[axis][axis] = 1;
    out[a][a] = out[b][b] = cos(rad);
    out[b][a] = sin(rad);
    out[a][b] = -sin(rad);
}

static void transpose(const mat3 a, mat3 out)
{
    mat3 t;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            t[r][c] = a[c][r];
    memcpy(out, t, sizeof t);
}

/* The angles (radians) of R = R_i(a) R_j(b) R_k(c) for the order's axes
 * i j k, all different.  s is +1 for a cyclic order (XYZ, YZX, ZXY).  In
 * gimbal lock (cos b = 0) only a + c or a - c counts: c = 0 then. */
static void decompose(const mat3 R, const char *order, double abc[3])
{
    int i = order[0] - 'X', j = order[1] - 'X', k = order[2] - 'X';
    double s = (j == (i + 1) % 3) ? 1 : -1;
    double sb = s * R[i][k];
    sb = sb > 1 ? 1 : sb < -1 ? -1 : sb;
    abc[1] = asin(sb);
    if (sqrt(1 - sb * sb) > 1e-9) {
        abc[0] = atan2(-s * R[j][k], R[k][k]);
        abc[2] = atan2(-s * R[i][j], R[i][i]);
        return;
    }
    mat3 rb, m;
    axis_rot(j, abc[1], rb);
    transpose(rb, rb);
    mat_mul(R, rb, m); /* R_i(a) */
    int a1 = (i + 1) % 3, a2 = (i + 2) % 3;
    abc[0] = atan2(m[a2][a1], m[a1][a1]);
    abc[2] = 0;
}

/* ---- the person ---- */

static int arm_root(int j) { return j == 17 || j == 21; }
static int arm_below(int j) { return j == 18 || j == 19 || j == 22 || j == 23; }

/* The turn that hangs an arm: +X (or -X on the right) to -Y. */
static void hang(int j, mat3 q)
{
    axis_rot(2, j < 20 ? -PI / 2 : PI / 2, q);
}

/* A vector of the rest (an OFFSET or End Site) in metres. */
static void rest_vec(const struct mocap_write_opts *o, int j, const double v[3], double out[3])
{
    memcpy(out, v, 3 * sizeof *out);
    if (o->arms_down && arm_below(j)) {
        mat3 q;
        hang(j, q);
        for (int r = 0; r < 3; r++)
            out[r] = q[r][0] * v[0] + q[r][1] * v[1] + q[r][2] * v[2];
    }
}

/* Joint j's rotation against its parent in frame f at time t. */
static void local_rot(const struct mocap_write_opts *o, int j, double t, mat3 out)
{
    const struct gjoint *g = &J[j];
    double w = 2 * PI * t / 1.2 + g->phase, d = PI / 180;
    mat3 rx, ry, rz;
    axis_rot(0, g->amp[0] * sin(w) * d, rx);
    axis_rot(1, g->amp[1] * sin(w + 1) * d, ry);
    axis_rot(2, g->amp[2] * cos(w) * d, rz);
    mat_mul(ry, rx, out);
    mat_mul(out, rz, out);
    if (o->arms_down && (arm_root(j) || arm_below(j))) {
        mat3 q, qt;
        hang(j, q);
        transpose(q, qt);
        mat_mul(out, qt, out);
        if (arm_below(j))
            mat_mul(q, out, out);
    }
}

/* ---- the text ---- */

struct wr {
    const struct mocap_write_opts *o;
    struct rtm_buf *b;
    const char *eol, *sep;
    double unit;
};

static void indent(struct wr *w, int depth)
{
    for (int i = 0; i < depth; i++)
        rtm_buf_puts(w->b, w->o->tabs ? "\t" : "  ");
}

static void put_vec(struct wr *w, const double v[3])
{
    for (int k = 0; k < 3; k++)
        rtm_buf_printf(w->b, "%s%.6f", w->sep, v[k] / w->unit);
}

/* MOCAP_MIXED: the k-th joint the file holds has order k % 6. */
static const char *order_of(const struct mocap_write_opts *o, const struct style *st, int j)
{
    int k = 0;
    for (int i = 0; i < j; i++)
        k += st->n[i] != NULL;
    return ORDER[o->order == MOCAP_MIXED ? k % 6 : o->order % 6];
}

static int nchan(const struct mocap_write_opts *o, int j)
{
    if (j == 0 || o->six)
        return 6;
    return o->zero_toes && (j == 5 || j == 10) ? 0 : 3;
}

/* The joint a written joint hangs from: its parent, or above an unwritten one. */
static int written_parent(const struct style *st, int j)
{
    int p = J[j].parent;
    while (p >= 0 && !st->n[p])
        p = J[p].parent;
    return p;
}

static void put_joint(struct wr *w, const struct style *st, int j, int depth)
{
    const struct mocap_write_opts *o = w->o;
    double v[3];
    indent(w, depth);
    rtm_buf_printf(w->b, "%s %s%s%s", j ? "JOINT" : "ROOT", st->prefix, st->n[j], w->eol);
    indent(w, depth);
    rtm_buf_printf(w->b, "{%s", w->eol);
    indent(w, depth + 1);
    rtm_buf_puts(w->b, "OFFSET");
    rest_vec(o, j, J[j].off, v);
    put_vec(w, v);
    rtm_buf_puts(w->b, w->eol);
    indent(w, depth + 1);
    int n = nchan(o, j);
    rtm_buf_printf(w->b, "CHANNELS %d", n);
    if (n == 6)
        rtm_buf_printf(w->b, " Xposition Yposition Zposition");
    for (int k = 0; n && k < 3; k++)
        rtm_buf_printf(w->b, " %crotation", order_of(o, st, j)[k]);
    rtm_buf_puts(w->b, w->eol);
    for (int k = j + 1; k < NJ; k++)
        if (st->n[k] && written_parent(st, k) == j)
            put_joint(w, st, k, depth + 1);
    if (J[j].end && o->end_sites) {
        indent(w, depth + 1);
        rtm_buf_printf(w->b, "End Site%s", w->eol);
        indent(w, depth + 1);
        rtm_buf_printf(w->b, "{%s", w->eol);
        indent(w, depth + 2);
        rtm_buf_puts(w->b, "OFFSET");
        rest_vec(o, j, J[j].endoff, v);
        put_vec(w, v);
        rtm_buf_puts(w->b, w->eol);
        indent(w, depth + 1);
        rtm_buf_printf(w->b, "}%s", w->eol);
    }
    indent(w, depth);
    rtm_buf_printf(w->b, "}%s", w->eol);
}

/* One frame: each written joint's channels, in file order. */
static void put_frame(struct wr *w, const struct style *st, double t)
{
    const struct mocap_write_opts *o = w->o;
    int first = 1;
    for (int j = 0; j < NJ; j++) {
        int n = st->n[j] ? nchan(o, j) : 0;
        double v[3], abc[3];
        if (n == 6) {
            double ph = 2 * PI * t / 1.2;
            double root[3] = { 0.02 * sin(ph), 0.95 + 0.02 * cos(2 * ph), 1.2 * t };
            if (j == 0)
                memcpy(v, root, sizeof v);
            else
                rest_vec(o, j, J[j].off, v);
            for (int k = 0; k < 3; k++, first = 0)
                rtm_buf_printf(w->b, "%s%.6f", first ? "" : w->sep, v[k] / w->unit);
        }
        if (!n)
            continue;
        mat3 r;
        local_rot(o, j, t, r);
        decompose(r, order_of(o, st, j), abc);
        for (int k = 0; k < 3; k++, first = 0)
            rtm_buf_printf(w->b, "%s%.6f", first ? "" : w->sep, abc[k] * 180 / PI);
    }
    rtm_buf_puts(w->b, w->eol);
}

int rtm_mocap_write(const struct mocap_write_opts *o, struct rtm_buf *out)
{
    const struct style *st = &S[o->style < MOCAP_STYLES ? o->style : 0];
    struct wr w = { o, out, o->crlf ? "\r\n" : "\n", o->tabs ? "\t" : " ",
                    o->unit > 0 ? o->unit : 0.01 };
    uint32_t nframes = o->nframes ? o->nframes : 40;
    double ft = o->frame_time > 0 ? o->frame_time : 1.0 / 30;
    rtm_buf_printf(out, "HIERARCHY%s", w.eol);
    put_joint(&w, st, 0, 0);
    rtm_buf_printf(out, "MOTION%sFrames: %u%sFrame Time: %.7f%s", w.eol, nframes, w.eol, ft,
                   w.eol);
    for (uint32_t f = 0; f < nframes; f++)
        put_frame(&w, st, f * ft);
    return out->oom ? -1 : 0;
}
