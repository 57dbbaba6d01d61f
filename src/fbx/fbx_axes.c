/* fbx_axes.c - FBX's axis system and unit to glTF's (fbx_axes.h). */
#include "fbx_axes.h"

#include <math.h>
#include <string.h>

void fbx_axes_default(struct fbx_axes *a)
{
    *a = (struct fbx_axes){ .up = 1, .up_sign = 1, .front = 2, .front_sign = 1,
                            .coord = 0, .coord_sign = 1, .unit_cm = 1.0 };
}

static int axis_ok(int axis, int sign)
{
    return axis >= 0 && axis <= 2 && (sign == 1 || sign == -1);
}

int fbx_axes_matrix(const struct fbx_axes *a, fbx_mat4 out, struct rtm_error *err)
{
    if (!axis_ok(a->up, a->up_sign) || !axis_ok(a->front, a->front_sign) ||
        !axis_ok(a->coord, a->coord_sign)) {
        rtm_err_nooff(err, "axis system out of range (UpAxis %d sign %d, FrontAxis %d sign %d, "
                      "CoordAxis %d sign %d)", a->up, a->up_sign, a->front, a->front_sign,
                      a->coord, a->coord_sign);
        return -1;
    }
    if (a->up == a->front || a->up == a->coord || a->front == a->coord) {
        rtm_err_nooff(err, "axis system names one axis twice (UpAxis %d, FrontAxis %d, CoordAxis %d)",
                      a->up, a->front, a->coord);
        return -1;
    }
    if (!isfinite(a->unit_cm) || a->unit_cm <= 0) {
        rtm_err_nooff(err, "UnitScaleFactor %g is not a positive number", a->unit_cm);
        return -1;
    }
    double k = a->unit_cm / 100.0;
    memset(out, 0, sizeof(fbx_mat4));
    /* row r of the result picks the file's component that becomes glTF's
     * axis r: x from the coord axis, y from up, z from front */
    out[0][a->coord] = a->coord_sign * k;
    out[1][a->up] = a->up_sign * k;
    out[2][a->front] = a->front_sign * k;
    out[3][3] = 1.0;
    return 0;
}

void fbx_mat_identity(fbx_mat4 m)
{
    memset(m, 0, sizeof(fbx_mat4));
    for (int i = 0; i < 4; i++)
        m[i][i] = 1.0;
}

void fbx_mat_mul(const fbx_mat4 a, const fbx_mat4 b, fbx_mat4 out)
{
    fbx_mat4 r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = 0;
            for (int k = 0; k < 4; k++)
                v += a[i][k] * b[k][j];
            r[i][j] = v;
        }
    memcpy(out, r, sizeof r);
}

/* The unit quaternion of the rotation matrix r (Shepperd's method: the
 * largest of the four squares first, for precision). */
static void quat_of(const double r[3][3], double q[4])
{
    double tr = r[0][0] + r[1][1] + r[2][2];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * s;
        q[0] = (r[2][1] - r[1][2]) / s;
        q[1] = (r[0][2] - r[2][0]) / s;
        q[2] = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double s = sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
        q[3] = (r[2][1] - r[1][2]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[0][1] + r[1][0]) / s;
        q[2] = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        double s = sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
        q[3] = (r[0][2] - r[2][0]) / s;
        q[0] = (r[0][1] + r[1][0]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[1][2] + r[2][1]) / s;
    } else {
        double s = sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
        q[3] = (r[1][0] - r[0][1]) / s;
        q[0] = (r[0][2] + r[2][0]) / s;
        q[1] = (r[1][2] + r[2][1]) / s;
        q[2] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !isfinite(n)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    for (int i = 0; i < 4; i++)
        q[i] /= n;
    if (q[3] < 0)               /* one of the two: w >= 0, for stable output */
        for (int i = 0; i < 4; i++)
            q[i] = -q[i];
}

void fbx_decompose(const fbx_mat4 m, double t[3], double q[4], double s[3])
{
    double r[3][3];
    for (int i = 0; i < 3; i++)
        t[i] = m[i][3];
    for (int j = 0; j < 3; j++)
        s[j] = sqrt(m[0][j] * m[0][j] + m[1][j] * m[1][j] + m[2][j] * m[2][j]);
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                 m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (det < 0)
        s[0] = -s[0];
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            r[i][j] = s[j] != 0 ? m[i][j] / s[j] : (i == j);
    quat_of(r, q);
}
