/* pivots.c - rest-pose pivots from animations, and joint positions (see
 * pivots.h).  Each frame of a joint gives three equations a · j = y (a the
 * k-th column of R_b - R_p, y the k-th component of t_p - t_b); they are
 * kept, so that the trimmed fit can refit with a subset, and summed into
 * the 3x3 normal equations N j = r for each fit. */
#include "pivots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"

struct eqs {                  /* one frame's three equations */
    double a[3][3];           /* a[k]: coefficients of equation k */
    double y[3];
};

struct joint {
    struct eqs *e;
    size_t n, cap;
};

struct rtm_pivots {
    const struct rtm_skeleton *s;
    struct joint *j;          /* s->nbones */
};

struct rtm_pivots *rtm_pivots_new(const struct rtm_skeleton *s)
{
    struct rtm_pivots *e = calloc(1, sizeof *e);
    if (e && !(e->j = calloc(s->nbones ? s->nbones : 1, sizeof *e->j))) {
        free(e);
        return NULL;
    }
    if (e)
        e->s = s;
    return e;
}

void rtm_pivots_free(struct rtm_pivots *e)
{
    if (!e)
        return;
    for (uint32_t b = 0; b < e->s->nbones; b++)
        free(e->j[b].e);
    free(e->j);
    free(e);
}

static int finite12(const float *m)
{
    for (int i = 0; i < 12; i++)
        if (!isfinite(m[i]))
            return 0;
    return 1;
}

static int push(struct joint *j, const float *mb, const float *mp)
{
    void *e = j->e;
    if (rtm_array_grow(&e, &j->cap, j->n + 1, sizeof *j->e, 256))
        return -1;
    j->e = e;
    struct eqs *q = &j->e[j->n++];
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++)
            q->a[k][i] = (double)mb[i * 3 + k] - (double)mp[i * 3 + k];
        q->y[k] = (double)mp[9 + k] - (double)mb[9 + k];
    }
    return 0;
}

int rtm_pivots_add(struct rtm_pivots *e, const struct rtm_anim *a, struct rtm_error *err)
{
    const struct rtm_skeleton *s = e->s;
    int full = a->depth == RTM_DEPTH_FULL;
    int32_t *map = full ? rtm_skeleton_first_bones(s, a->bones, a->nbones) : NULL;
    int rc = full && !map ? -1 : 0;
    for (uint32_t k = 0; !rc && map && k < s->nbones; k++) {
        int32_t p = s->parent[k];
        if (map[k] < 0 || p < 0 || map[p] < 0)
            continue;
        for (uint32_t f = 0; !rc && f < a->nframes; f++) {
            const float *mb = rtm_matrix(a, f, (uint32_t)map[k]);
            const float *mp = rtm_matrix(a, f, (uint32_t)map[p]);
            if (finite12(mb) && finite12(mp))
                rc = push(&e->j[k], mb, mp);
        }
    }
    free(map);
    if (rc)
        rtm_err_oom(err, "out of memory collecting joint equations");
    return rc;
}

/* ---- 3x3 symmetric algebra ---- */

/* Eigen-decomposition of symmetric m by Jacobi rotations: values in w,
 * vectors in the columns of v. */
static void eigen3(const double m[3][3], double w[3], double v[3][3])
{
    double a[3][3];
    memcpy(a, m, sizeof a);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            v[i][k] = i == k;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (off < 1e-300)
            break;
        for (int p = 0; p < 2; p++) {
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0)
                    continue;
                double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) {       /* a = J^T a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
        }
    }
    for (int i = 0; i < 3; i++)
        w[i] = a[i][i];
}

/* The normal equations of the kept frames. */
static void normal_eqs(const struct joint *j, const uint8_t *keep, double n[3][3], double r[3])
{
    memset(n, 0, 9 * sizeof(double));
    memset(r, 0, 3 * sizeof(double));
    for (size_t f = 0; f < j->n; f++) {
        if (!keep[f])
            continue;
        for (int k = 0; k < 3; k++) {
            const double *a = j->e[f].a[k];
            for (int x = 0; x < 3; x++) {
                r[x] += a[x] * j->e[f].y[k];
                for (int y = 0; y < 3; y++)
                    n[x][y] += a[x] * a[y];
            }
        }
    }
}

/* Solves N x = r near x0: along eigenvectors whose value is at least
 * floor the equations decide, along the others x0 stays (a pseudo-inverse
 * around x0).  Returns the smallest singular value sqrt(min eigenvalue);
 * *used (if not NULL) gets how many directions the equations decided. */
static double solve_near(const double n[3][3], const double r[3], const double x0[3],
                         double floor, double x[3], int *used)
{
    double w[3], v[3][3], d[3];
    eigen3(n, w, v);
    for (int i = 0; i < 3; i++)         /* d = r - N x0 */
        d[i] = r[i] - (n[i][0] * x0[0] + n[i][1] * x0[1] + n[i][2] * x0[2]);
    memcpy(x, x0, 3 * sizeof *x);
    double wmin = w[0];
    if (used)
        *used = 0;
    for (int e = 0; e < 3; e++) {
        if (w[e] < wmin)
            wmin = w[e];
        if (!(w[e] >= floor) || w[e] <= 0)
            continue;
        if (used)
            ++*used;
        double c = (v[0][e] * d[0] + v[1][e] * d[1] + v[2][e] * d[2]) / w[e];
        for (int i = 0; i < 3; i++)
            x[i] += c * v[i][e];
    }
    return wmin > 0 ? sqrt(wmin) : 0;
}

static double frame_residual(const struct eqs *q, const double x[3])
{
    double s = 0;
    for (int k = 0; k < 3; k++) {
        double d = q->a[k][0] * x[0] + q->a[k][1] * x[1] + q->a[k][2] * x[2] - q->y[k];
        s += d * d;
    }
    return sqrt(s);
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

/* ---- the fit of one joint ---- */

struct fit {
    double x[3];
    double n[3][3], r[3];     /* normal equations of the kept frames */
    uint64_t frames, kept;
    double residual, sigma;
    int used;                 /* directions the equations decide */
    int well;
};

/* How far frame q puts the joint from x: its residual over the size of its
 * coefficients (a frame where the bone barely turns says little, and its
 * small residual must not make it look good). */
static double frame_distance(const struct eqs *q, const double x[3])
{
    double size = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            size += q->a[k][i] * q->a[k][i];
    return frame_residual(q, x) / (sqrt(size) + 1e-9);
}

/* Keeps the frames whose distance is within the best RTM_PIVOT_KEEP share
 * and at most 4 times the median (or within 1 mm); whether the kept set
 * changed. */
static int trim(const struct joint *j, const double x[3], double *dist, double *sorted,
                uint8_t *keep)
{
    for (size_t f = 0; f < j->n; f++)
        sorted[f] = dist[f] = frame_distance(&j->e[f], x);
    qsort(sorted, j->n, sizeof *sorted, cmp_double);
    double cut = sorted[(size_t)((double)(j->n - 1) * RTM_PIVOT_KEEP)];
    double typical = 4 * sorted[(j->n - 1) / 2];
    if (cut > typical)
        cut = typical;
    if (cut < 0.001)
        cut = 0.001;
    int changed = 0;
    for (size_t f = 0; f < j->n; f++) {
        uint8_t k = dist[f] <= cut;
        changed |= k != keep[f];
        keep[f] = k;
    }
    return changed;
}

/* The trimmed least-squares fit of a joint (x near 0 where unconstrained:
 * the placement decides those directions later). */
static int fit_joint(const struct joint *j, struct fit *out)
{
    static const double zero[3] = { 0, 0, 0 };
    memset(out, 0, sizeof *out);
    out->frames = j->n;
    if (!j->n)
        return 0;
    uint8_t *keep = malloc(j->n);
    double *res = malloc(j->n * sizeof *res), *sorted = malloc(j->n * sizeof *sorted);
    if (!keep || !res || !sorted) {
        free(keep);
        free(res);
        free(sorted);
        return -1;
    }
    memset(keep, 1, j->n);
    const double floor = RTM_PIVOT_MIN_SIGMA * RTM_PIVOT_MIN_SIGMA;
    for (int round = 0; round < 20; round++) {
        normal_eqs(j, keep, out->n, out->r);
        out->sigma = solve_near(out->n, out->r, zero, floor, out->x, NULL);
        if (!trim(j, out->x, res, sorted, keep))
            break;
    }
    normal_eqs(j, keep, out->n, out->r);
    out->sigma = solve_near(out->n, out->r, zero, floor, out->x, &out->used);
    double ss = 0;
    for (size_t f = 0; f < j->n; f++) {
        if (keep[f]) {
            double d = frame_residual(&j->e[f], out->x);
            ss += d * d;
            out->kept++;
        }
    }
    out->residual = out->kept ? sqrt(ss / (double)out->kept) : 0;
    out->well = out->sigma >= RTM_PIVOT_MIN_SIGMA && out->residual < RTM_PIVOT_MAX_RESIDUAL;
    free(keep);
    free(res);
    free(sorted);
    return 0;
}

/* ---- placing the others ---- */

/* The bone whose name is name with "left" and "right" swapped (the first
 * of either, any case), or -1. */
static int32_t twin_of(const struct rtm_skeleton *s, const char *name)
{
    char t[256];
    size_t n = strlen(name);
    if (n >= sizeof t)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const char *from = strncasecmp(name + i, "left", 4) == 0 ? "right"
                           : strncasecmp(name + i, "right", 5) == 0 ? "left" : NULL;
        if (!from)
            continue;
        size_t skip = from[0] == 'r' ? 4 : 5, add = strlen(from);
        if (n - skip + add >= sizeof t)
            return -1;
        memcpy(t, name, i);
        memcpy(t + i, from, add);
        memcpy(t + i + add, name + i + skip, n - i - skip + 1);
        return rtm_skeleton_find(s, t, strlen(t));
    }
    return -1;
}

static void set_pivot(struct rtm_pivot_fit *o, const double x[3], enum rtm_pivot_how how)
{
    for (int i = 0; i < 3; i++)
        o->pivot[i] = (float)x[i];
    o->how = how;
}

/* A root: the mean of its measured children, else the origin. */
static void place_root(const struct rtm_skeleton *s, uint32_t b, const struct fit *f,
                       struct rtm_pivot_fit *o)
{
    double m[3] = { 0, 0, 0 };
    int n = 0;
    for (uint32_t c = 0; c < s->nbones; c++) {
        if (s->parent[c] != (int32_t)b || !f[c].well)
            continue;
        for (int i = 0; i < 3; i++)
            m[i] += f[c].x[i];
        n++;
    }
    for (int i = 0; n && i < 3; i++)
        m[i] /= n;
    set_pivot(&o[b], m, RTM_PIVOT_ROOT);
}

/* 5 cm beyond the parent, along grandparent -> parent (up without one). */
static void place_offset(const struct rtm_skeleton *s, uint32_t b, struct rtm_pivot_fit *o)
{
    int32_t p = s->parent[b], g = s->parent[p];
    double d[3] = { 0, 1, 0 }, x[3], len = 0;
    if (g >= 0) {
        for (int i = 0; i < 3; i++)
            d[i] = (double)o[p].pivot[i] - (double)o[g].pivot[i];
        len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    for (int i = 0; i < 3; i++)
        x[i] = o[p].pivot[i] + 0.05 * (len > 1e-6 ? d[i] / len : i == 1);
    set_pivot(&o[b], x, RTM_PIVOT_OFFSET);
}

static void place(const struct rtm_skeleton *s, uint32_t b, const struct fit *f,
                  struct rtm_pivot_fit *o)
{
    int32_t p = s->parent[b], twin = twin_of(s, s->bone[b]);
    if (f[b].well) {
        set_pivot(&o[b], f[b].x, RTM_PIVOT_MEASURED);
    } else if (twin >= 0 && f[twin].well) {
        double m[3] = { -f[twin].x[0], f[twin].x[1], f[twin].x[2] };
        set_pivot(&o[b], m, RTM_PIVOT_MIRRORED);
    } else if (p < 0) {
        place_root(s, b, f, o);
    } else if (f[b].used && f[b].residual < RTM_PIVOT_MAX_RESIDUAL) {
        double x0[3] = { o[p].pivot[0], o[p].pivot[1], o[p].pivot[2] }, x[3];
        solve_near(f[b].n, f[b].r, x0, RTM_PIVOT_MIN_SIGMA * RTM_PIVOT_MIN_SIGMA, x, NULL);
        set_pivot(&o[b], x, RTM_PIVOT_CONSTRAINED);
    } else {
        place_offset(s, b, o);
    }
}

int rtm_pivots_solve(struct rtm_pivots *e, struct rtm_pivot_fit *out, struct rtm_error *err)
{
    const struct rtm_skeleton *s = e->s;
    struct fit *f = calloc(s->nbones ? s->nbones : 1, sizeof *f);
    int rc = f ? 0 : -1;
    for (uint32_t b = 0; !rc && b < s->nbones; b++)
        rc = fit_joint(&e->j[b], &f[b]);
    for (uint32_t b = 0; !rc && b < s->nbones; b++) {    /* parents first */
        place(s, b, f, out);
        out[b].frames = f[b].frames;
        out[b].kept = f[b].kept;
        out[b].residual = f[b].residual;
        out[b].sigma = f[b].sigma;
    }
    free(f);
    if (rc)
        rtm_err_oom(err, "out of memory fitting the pivots");
    return rc;
}

const char *rtm_pivot_how_name(enum rtm_pivot_how how)
{
    static const char *const names[] = { "measured", "mirrored", "constrained", "root",
                                         "offset" };
    return how <= RTM_PIVOT_OFFSET ? names[how] : "?";
}

/* ---- joint positions ---- */

void rtm_point_times(const float p[3], const float *m, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = p[0] * m[k] + p[1] * m[3 + k] + p[2] * m[6 + k] + m[9 + k];
}

int rtm_joints(const struct rtm_anim *a, uint32_t f, float (*out)[3], uint8_t *known)
{
    if (!a->pivot || a->depth < RTM_DEPTH_FULL || f >= a->nframes)
        return -1;
    for (uint32_t b = 0; b < a->nbones; b++) {
        known[b] = a->in_skeleton[b];
        if (known[b])
            rtm_point_times(a->pivot[b], rtm_matrix(a, f, b), out[b]);
        else
            out[b][0] = out[b][1] = out[b][2] = 0;
    }
    return 0;
}
