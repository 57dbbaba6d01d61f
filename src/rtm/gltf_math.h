/* gltf_math.h - what gltf_pose.c (the joints, the hierarchy) and
 * gltf_sample.c (the rest pose, the tracks, the frames) share: the pose
 * being made and the small affine algebra both use.  Private to them.
 *
 * Conventions: a rotation is a 3x3 in column form (v' = R v, R[row][col]);
 * a glTF quaternion is (x, y, z, w); every place is in the file's world
 * axes and metres. */
#ifndef RTM_GLTF_MATH_H
#define RTM_GLTF_MATH_H

#include <math.h>
#include <stdio.h>

#include "gltf.h"
#include "rotmath.h"

enum { GLTF_NAME_MAX = 128 };   /* a joint's name, cut past this */

struct xform {
    double m[3][3];             /* rotation times scale */
    double t[3];
};

/* A channel being sampled: its accessors and where its last key was. */
struct track {
    struct gltf_accessor in, out;
    enum gltf_interp interp;
    enum gltf_path path;
    uint32_t node;
    uint32_t cursor;            /* the key at or before the time sampled last */
};

struct pose {
    int32_t *of;                /* per node: its joint, or -1 */
    uint32_t *joint, njoints;   /* the joints' nodes, parents first */
    uint32_t *chain, nchain;    /* the joints and their ancestors, parents first */
    struct xform *rest;         /* per joint: its world rest, rotation unit */
    struct xform *world;        /* per node: scratch for one frame */
    struct track *track;
    uint32_t ntracks;
    int32_t *use;               /* per node, 3 (enum gltf_path): a track, or -1 */
    double (*lastrot)[3][3];    /* per joint: scratch, W_bvh this frame */
    uint32_t nframes;
    double first, frame_time;
};

int gltf_oom(struct gltf *g);
/* gltf_sample.c: the tracks and the frame grid; the rest pose; every frame. */
int gltf_tracks(struct gltf *g, struct pose *p, int head);
int gltf_rest(struct gltf *g, struct pose *p, int head);
int gltf_frames(struct gltf *g, struct pose *p, struct rtm_mocap *m);

/* a^T b */
static inline void gm_tmul(const double a[3][3], const double b[3][3], double out[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[0][i] * b[0][j] + a[1][i] * b[1][j] + a[2][i] * b[2][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = t[i][j];
}

/* a b^T */
static inline void gm_mult(const double a[3][3], const double b[3][3], double out[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[j][0] + a[i][1] * b[j][1] + a[i][2] * b[j][2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = t[i][j];
}

/* parent then local: the child's world */
static inline void gm_compose(const struct xform *a, const struct xform *b, struct xform *out)
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = a->m[i][0] * b->t[0] + a->m[i][1] * b->t[1] + a->m[i][2] * b->t[2] + a->t[i];
    rt_mul(a->m, b->m, out->m);
    for (int i = 0; i < 3; i++)
        out->t[i] = t[i];
}

/* T R S of a node: q (x, y, z, w), normalised here */
static inline void gm_trs(const double t[3], const double q[4], const double s[3],
                          struct xform *out)
{
    double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    double k = n > 0 ? 2 / n : 0;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[3][3] = {
        { 1 - k * (y * y + z * z), k * (x * y - w * z), k * (x * z + w * y) },
        { k * (x * y + w * z), 1 - k * (x * x + z * z), k * (y * z - w * x) },
        { k * (x * z - w * y), k * (y * z + w * x), 1 - k * (x * x + y * y) },
    };
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            out->m[i][j] = r[i][j] * s[j];
        out->t[i] = t[i];
    }
}

/* The rotation of m: its columns made unit and square (Gram-Schmidt,
 * the third the cross of the first two, so a mirror is dropped).  0, or
 * -1 when a column has no length. */
static inline int gm_rotation(const double m[3][3], double r[3][3])
{
    double c0[3] = { m[0][0], m[1][0], m[2][0] }, c1[3] = { m[0][1], m[1][1], m[2][1] };
    double n0 = sqrt(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
    if (!(n0 > 1e-12))
        return -1;
    for (int i = 0; i < 3; i++)
        c0[i] /= n0;
    double d = c0[0] * c1[0] + c0[1] * c1[1] + c0[2] * c1[2];
    for (int i = 0; i < 3; i++)
        c1[i] -= d * c0[i];
    double n1 = sqrt(c1[0] * c1[0] + c1[1] * c1[1] + c1[2] * c1[2]);
    if (!(n1 > 1e-12))
        return -1;
    for (int i = 0; i < 3; i++)
        c1[i] /= n1;
    double c2[3] = { c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2],
                     c0[0] * c1[1] - c0[1] * c1[0] };
    for (int i = 0; i < 3; i++) {
        r[i][0] = c0[i];
        r[i][1] = c1[i];
        r[i][2] = c2[i];
    }
    return 0;
}

/* R = Rz(a) Rx(b) Ry(c), BVH's "Zrotation Xrotation Yrotation", in degrees. */
static inline void gm_euler_zxy(const double r[3][3], double out[3])
{
    double sb = r[2][1] > 1 ? 1 : r[2][1] < -1 ? -1 : r[2][1];
    double b = asin(sb), a, c;
    if (sqrt(r[2][0] * r[2][0] + r[2][2] * r[2][2]) > 1e-9) {
        a = atan2(-r[0][1], r[1][1]);
        c = atan2(-r[2][0], r[2][2]);
    } else {
        a = atan2(r[1][0], r[0][0]);
        c = 0;
    }
    out[0] = a * (180 / M_PI);
    out[1] = b * (180 / M_PI);
    out[2] = c * (180 / M_PI);
}

#endif
