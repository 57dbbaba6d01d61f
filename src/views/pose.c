/* pose.c - the joints' hierarchy and relative poses (pose.h). */
#include "pose.h"

#include <math.h>
#include <stdlib.h>

#include "motion.h"
#include "pivots.h"

void rtm_pose_free(struct rtm_pose *p)
{
    free(p->parent);
    free(p->first_child);
    free(p->next_sibling);
    free(p->order);
    free(p->offset);
    free(p->rel);
    free(p->fresh);
    free(p->c);
    free(p->joint);
    *p = (struct rtm_pose){ 0 };
}

void rtm_pose_axes(const double in[3], double out[3])
{
    out[0] = in[0];
    out[1] = in[1];
    out[2] = -in[2];
}

void rtm_pose_rest_offset(const struct rtm_pose *p, uint32_t b, double out[3])
{
    const float *pb = p->a->pivot[b];
    int32_t up = p->parent[b];
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = (double)pb[k] - (up >= 0 ? (double)p->a->pivot[up][k] : 0);
    rtm_pose_axes(d, out);
}

static int allocate(struct rtm_pose *p, uint32_t n)
{
    size_t nn = (size_t)n + 1;
    p->parent = malloc(nn * sizeof *p->parent);
    p->first_child = malloc(nn * sizeof *p->first_child);
    p->next_sibling = malloc(nn * sizeof *p->next_sibling);
    p->order = malloc(nn * sizeof *p->order);
    p->offset = malloc(nn * sizeof *p->offset);
    p->rel = malloc(nn * sizeof *p->rel);
    p->fresh = malloc(nn);
    p->c = malloc(nn * sizeof *p->c);
    p->joint = malloc(nn * sizeof *p->joint);
    return p->parent && p->first_child && p->next_sibling && p->order && p->offset && p->rel &&
                   p->fresh && p->c && p->joint
               ? 0
               : -1;
}

/* Children lists in file order, and the bones in hierarchy order (depth
 * first, without recursion: a skeleton may be one long chain).  The
 * number of bones the walk met. */
static uint32_t link(struct rtm_pose *p)
{
    const struct rtm_anim *a = p->a;
    uint32_t n = a->nbones;
    for (uint32_t b = 0; b <= n; b++)
        p->first_child[b] = -1;
    for (uint32_t i = n; i-- > 0;) {
        int32_t up = a->skel_parent ? a->skel_parent[i] : -1;
        p->parent[i] = up;
        uint32_t at = up >= 0 ? (uint32_t)up : n;
        p->next_sibling[i] = p->first_child[at];
        p->first_child[at] = (int32_t)i;
    }
    /* preorder: a bone, then its children's subtrees in order */
    uint32_t k = 0;
    for (int32_t b = p->first_child[n]; b >= 0;) {
        p->order[k++] = (uint32_t)b;
        if (p->first_child[b] >= 0) {
            b = p->first_child[b];
            continue;
        }
        while (b >= 0 && p->next_sibling[b] < 0)
            b = p->parent[b];
        if (b >= 0)
            b = p->next_sibling[b];
    }
    return k;
}

int rtm_pose_init(struct rtm_pose *p, const struct rtm_anim *a, const struct rtm_rotations *rot)
{
    *p = (struct rtm_pose){ .a = a, .rot = rot };
    if (!a->pivot || a->depth < RTM_DEPTH_FULL || allocate(p, a->nbones) ||
        link(p) != a->nbones) {         /* a cycle: cannot happen */
        rtm_pose_free(p);
        return -1;
    }
    rtm_pose_rest(p);
    return 0;
}

void rtm_pose_rest(struct rtm_pose *p)
{
    for (uint32_t b = 0; b < p->a->nbones; b++) {
        rtm_pose_rest_offset(p, b, p->offset[b]);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                p->rel[b][i][j] = i == j;
    }
}

/* The rotation of frame f's matrix of bone b in the views' space, column
 * form: S Q^T S, Q its nearest rotation (row form). */
static int rotation(const struct rtm_pose *p, uint32_t f, uint32_t b, double c[3][3])
{
    static const double s[3] = { 1, 1, -1 };
    const struct rtm_anim *a = p->a;
    size_t at = (size_t)f * a->nbones + b;
    double mine[3][3];
    const double (*q)[3] = p->rot ? (const double (*)[3])p->rot->q[at] : (const double (*)[3])mine;
    if (p->rot ? !p->rot->ok[at] : rtm_nearest_rotation(rtm_matrix(a, f, b), mine) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[i][j] = s[i] * q[j][i] * s[j];
    return 0;
}

/* Bone b's offset and rotation from its parent's in this frame, from its
 * and its parent's joints and rotations: C_p^T d and C_p^T C_b. */
static void relative(struct rtm_pose *p, uint32_t b)
{
    int32_t up = p->parent[b];
    static const float origin[3] = { 0, 0, 0 };
    const float *jb = p->joint[b], *jp = up >= 0 ? p->joint[up] : origin;
    double d[3], w[3] = { (double)jb[0] - jp[0], (double)jb[1] - jp[1], (double)jb[2] - jp[2] };
    rtm_pose_axes(w, d);
    const double (*cb)[3] = (const double (*)[3])p->c[b];
    const double (*cp)[3] = up >= 0 ? (const double (*)[3])p->c[up] : NULL;
    for (int i = 0; i < 3; i++) {
        p->offset[b][i] = !cp ? d[i] : cp[0][i] * d[0] + cp[1][i] * d[1] + cp[2][i] * d[2];
        for (int j = 0; j < 3; j++)
            p->rel[b][i][j] = !cp ? cb[i][j]
                                  : cp[0][i] * cb[0][j] + cp[1][i] * cb[1][j] +
                                        cp[2][i] * cb[2][j];
    }
}

void rtm_pose_frame(struct rtm_pose *p, uint32_t f)
{
    const struct rtm_anim *a = p->a;
    uint8_t *usable = p->fresh;         /* first each bone's own, then the pair's */
    for (uint32_t b = 0; b < a->nbones; b++) {
        usable[b] = rotation(p, f, b, p->c[b]) == 0;
        rtm_point_times(a->pivot[b], rtm_matrix(a, f, b), p->joint[b]);
    }
    /* children first (reverse preorder): a parent's flag is still its own
     * when its children read it */
    for (uint32_t k = a->nbones; k-- > 0;) {
        uint32_t b = p->order[k];
        int32_t up = p->parent[b];
        p->fresh[b] = usable[b] && (up < 0 || usable[up]);
    }
    for (uint32_t b = 0; b < a->nbones; b++)
        if (p->fresh[b])
            relative(p, b);
}

int rtm_pose_root(const struct rtm_anim *a, uint32_t f, double out[3])
{
    float phase = isfinite(a->phases[f]) ? a->phases[f] : 0;
    int none = !a->motion[0] && !a->motion[1] && !a->motion[2];
    out[0] = out[1] = out[2] = 0;
    if (none || !isfinite(a->motion[0]) || !isfinite(a->motion[1]) || !isfinite(a->motion[2]))
        return -1;
    double m[3] = { a->motion[0], a->motion[1], a->motion[2] }, d[3];
    rtm_pose_axes(m, d);
    for (int k = 0; k < 3; k++)
        out[k] = d[k] * phase;
    return 0;
}
