/* rotmath.h - the small rotation algebra of the motion-capture readers
 * (mocap_retarget*.c, gltf_*.c): 3x3 rotations in column form (v' = R v),
 * vectors, and Hamilton quaternions (w, x, y, z).  Pure inline functions;
 * every out may be an input. */
#ifndef RTM_ROTMATH_H
#define RTM_ROTMATH_H

#include <math.h>

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


/* The turn a of the way from unit quaternion q0 to q1 on the shorter arc
 * (componentwise, so in either order of components: (w, x, y, z) here,
 * glTF's (x, y, z, w) too). */
static inline void rt_slerp(const double q0[4], const double q1[4], double a, double out[4])
{
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    double sign = d < 0 ? -1 : 1, w0 = 1 - a, w1 = a;
    d = fabs(d);
    if (d < 0.9995) {
        double th = acos(d), s = sin(th);
        w0 = sin((1 - a) * th) / s;
        w1 = sin(a * th) / s;
    }
    for (int k = 0; k < 4; k++)
        out[k] = w0 * q0[k] + sign * w1 * q1[k];
}

#endif
