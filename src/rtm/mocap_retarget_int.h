/* mocap_retarget_int.h - what the two halves of the retargeting share
 * (mocap_retarget_rest.c: the rest poses compared once; mocap_retarget.c:
 * the frames), and the small rotation algebra both use.
 *
 * Conventions: every rotation here is a 3x3 in column form (v' = R v) and
 * every position a point of Arma's model space in metres (+x left, +y up,
 * facing -z).  A BVH point (x, y, z) in file units is (x, y, -z) * unit
 * there, a BVH rotation W is S W S with S = diag(1, 1, -1): the inverse of
 * what src/views/bvh.c writes.  A file whose up is z, as Blender's BVH
 * exporter writes its world (z up, x right, y back), is read with S the
 * swap of y and z: (x, z, y).  Quaternions are (w, x, y, z), Hamilton.
 */
#ifndef RTM_MOCAP_RETARGET_INT_H
#define RTM_MOCAP_RETARGET_INT_H

#include <math.h>
#include <stdint.h>

#include "mocap.h"
#include "mocap_retarget.h"
#include "skeleton.h"

/* Below this many metres two joints are one point: no direction. */
#define RT_SAME_POINT 1e-4
/* rtm(5): a BVH whose mapped joints sit within this of their pivots is the
 * skeleton's own. */
#define RT_IDENTITY_TOL 0.001

/* The rest poses compared, made once a parse (rt_prepare). */
struct rt {
    const struct rtm_mocap *m;
    const struct rtm_mocap_map *map;
    const struct rtm_skeleton *s;
    double unit;                /* metres a file unit */
    const char *unit_name;      /* "cm", "m", "in", "cmu", or "set" */
    double height;              /* the rest pose's height, file units */
    int identity;               /* the skeleton's own BVH: taken as it is */
    int zup;                    /* the file's up is z (Blender's), not y */
    int32_t *jbone;             /* per joint: the bone it stands for, or -1:
                                   the map's, or on the identity path its
                                   own name's */
    uint8_t *jhow;              /* per joint: enum rtm_mocap_how */
    uint32_t nmapped;           /* joints with a bone */
    int32_t *src;               /* per bone: its source joint, or -1 */
    double (*align)[3][3];      /* per bone: its fixed turn A (rest to rest) */
    double (*rest)[3];          /* per joint: its rest position */
    int32_t carrier;            /* the joint whose travel is the root's */
    int32_t carrier_bone;       /* the bone it maps to (-1: identity path) */
    double ratio;               /* target hip height over the source's */
    uint32_t nframes;           /* frames out (resampled or not) */
};

/* A point of the file (file units) in the model's axes (still in file
 * units), and a rotation W of the file as S W S: see the conventions. */
static inline void rt_point_in(const struct rt *r, const double in[3], double out[3])
{
    double x = in[0], y = in[1], z = in[2];
    out[0] = x;
    out[1] = r->zup ? z : y;
    out[2] = r->zup ? y : -z;
}
static inline void rt_rotation_in(const struct rt *r, const double w[3][3], double out[3][3])
{
    static const int swap[3] = { 0, 2, 1 };
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++)
            out[x][y] = r->zup ? w[swap[x]][swap[y]]
                               : w[x][y] * (x == 2 ? -1 : 1) * (y == 2 ? -1 : 1);
}

int rt_prepare(struct rt *r, const struct rtm_mocap *m, const struct rtm_mocap_map *map,
               const struct rtm_skeleton *s, const struct rtm_mocap_opts *o,
               struct rtm_error *err);
void rt_release(struct rt *r);
/* Frames out: every source frame, or the clip's length at fps (at least
 * one step a source frame's worth, evenly spread, first and last kept). */
uint32_t rt_frame_count(const struct rtm_mocap *m, double fps);

/* ---- rotations ---- */

static inline void rt_identity(double r[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = i == j;
}

static inline void rt_mul(const double a[3][3], const double b[3][3], double out[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = t[i][j];
}

static inline void rt_apply(const double r[3][3], const double v[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2];
    for (int i = 0; i < 3; i++)
        out[i] = t[i];
}

static inline double rt_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void rt_cross(const double a[3], const double b[3], double out[3])
{
    double t[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                    a[0] * b[1] - a[1] * b[0] };
    out[0] = t[0];
    out[1] = t[1];
    out[2] = t[2];
}

/* v / |v|, or 0 (and 0 returned) when |v| is at most eps. */
static inline double rt_unit(const double v[3], double out[3], double eps)
{
    double n = sqrt(rt_dot(v, v));
    for (int i = 0; i < 3; i++)
        out[i] = n > eps ? v[i] / n : 0;
    return n > eps ? n : 0;
}

static inline void rt_quat_mul(const double a[4], const double b[4], double out[4])
{
    double t[4] = { a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0] };
    for (int i = 0; i < 4; i++)
        out[i] = t[i];
}

/* The rotation of a unit quaternion (normalised here: slerp and products
 * drift). */
static inline void rt_quat_matrix(const double q[4], double r[3][3])
{
    double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    double s = n > 0 ? 2 / n : 0;
    double w = q[0], x = q[1], y = q[2], z = q[3];
    r[0][0] = 1 - s * (y * y + z * z);
    r[0][1] = s * (x * y - w * z);
    r[0][2] = s * (x * z + w * y);
    r[1][0] = s * (x * y + w * z);
    r[1][1] = 1 - s * (x * x + z * z);
    r[1][2] = s * (y * z - w * x);
    r[2][0] = s * (x * z - w * y);
    r[2][1] = s * (y * z + w * x);
    r[2][2] = 1 - s * (x * x + y * y);
}

#endif
