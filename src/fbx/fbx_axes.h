/* fbx_axes.h - the change from an FBX file's axes and unit to glTF's, and
 * the matrix arithmetic rtmfs-fbx needs (no assimp here: the unit tests
 * link this without it).
 *
 * An FBX file states its axis system as three (axis, sign) pairs, the
 * scene metadata UpAxis/UpAxisSign, FrontAxis/FrontAxisSign and
 * CoordAxis/CoordAxisSign (axis 0, 1, 2: x, y, z), and its unit as
 * UnitScaleFactor, centimetres per file unit.  glTF is metres, y up and
 * the character facing +z, so the change maps the file's up vector to +y,
 * its front vector to +z and its coord vector to +x, then scales by
 * UnitScaleFactor / 100.  A left-handed file gives a matrix of negative
 * determinant (a mirror), which fbx_decompose() keeps as a negative x
 * scale.
 *
 * Matrices are row-major 4x4 doubles acting on column vectors, assimp's
 * convention (translation in m[0][3], m[1][3], m[2][3]).
 * Contract: pure functions, no state, any thread.
 */
#ifndef RTM_FBX_AXES_H
#define RTM_FBX_AXES_H

#include "util.h"

struct fbx_axes {
    int up, up_sign;            /* axis 0..2 and sign +1/-1 */
    int front, front_sign;
    int coord, coord_sign;
    double unit_cm;             /* UnitScaleFactor: centimetres per unit */
};

typedef double fbx_mat4[4][4];

/* FBX's default when the file says nothing: y up, z front, x coord,
 * centimetres (FBX SDK's defaults, which assimp assumes too). */
void fbx_axes_default(struct fbx_axes *a);
/* The change of basis and unit, or -1 with err saying which of the three
 * axes is out of range or repeated, or that the unit is not a positive
 * finite number. */
int fbx_axes_matrix(const struct fbx_axes *a, fbx_mat4 out, struct rtm_error *err);

void fbx_mat_identity(fbx_mat4 m);
/* out = a * b; out may be a or b. */
void fbx_mat_mul(const fbx_mat4 a, const fbx_mat4 b, fbx_mat4 out);
/* The translation, the unit quaternion (x, y, z, w, glTF's order) and the
 * scale of an affine m with no shear; a negative determinant gives a
 * negative x scale, a zero scale the identity rotation. */
void fbx_decompose(const fbx_mat4 m, double t[3], double q[4], double s[3]);

#endif
