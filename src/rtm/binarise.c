/* binarise.c - plain model-space matrices to BMTR version 5 (binarise.h). */
#include "binarise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bmtr_write.h"
#include "convert.h"

/* The inverse of the row-vector matrix p (3 rotation rows, translation
 * row) in inv, by cofactors; -1 when it has none. */
static int invert(const float *p, double inv[12])
{
    double a[9];
    for (int k = 0; k < 9; k++)
        a[k] = p[k];
    double c[9] = {
        a[4] * a[8] - a[5] * a[7], a[5] * a[6] - a[3] * a[8], a[3] * a[7] - a[4] * a[6],
        a[2] * a[7] - a[1] * a[8], a[0] * a[8] - a[2] * a[6], a[1] * a[6] - a[0] * a[7],
        a[1] * a[5] - a[2] * a[4], a[2] * a[3] - a[0] * a[5], a[0] * a[4] - a[1] * a[3],
    };
    double det = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
    if (!(det != 0 && isfinite(det)))
        return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            inv[3 * i + j] = c[3 * j + i] / det;
    for (int j = 0; j < 3; j++)
        inv[9 + j] = -(p[9] * inv[j] + p[10] * inv[3 + j] + p[11] * inv[6 + j]);
    for (int k = 0; k < 12; k++)
        if (!isfinite(inv[k]))
            return -1;
    return 0;
}

/* l = m x inv for row-vector matrices (the fourth column 0 0 0 1). */
static void mul(const float m[12], const double inv[12], double l[12])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            l[3 * i + j] = m[3 * i] * inv[j] + m[3 * i + 1] * inv[3 + j] +
                           m[3 * i + 2] * inv[6 + j] + (i == 3 ? inv[9 + j] : 0.0);
}

/* The quaternion (x, y, z, w) of the rotation r (column-vector form, rows
 * r[0..2], r[3..5], r[6..8]) by the largest of its diagonal terms. */
static void quaternion(const double r[9], double q[4])
{
    double tr = r[0] + r[4] + r[8], s;
    if (tr > 0) {
        s = sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * s, q[0] = (r[7] - r[5]) / s, q[1] = (r[2] - r[6]) / s;
        q[2] = (r[3] - r[1]) / s;
    } else if (r[0] > r[4] && r[0] > r[8]) {
        s = sqrt(1.0 + r[0] - r[4] - r[8]) * 2;
        q[3] = (r[7] - r[5]) / s, q[0] = 0.25 * s, q[1] = (r[1] + r[3]) / s;
        q[2] = (r[2] + r[6]) / s;
    } else if (r[4] > r[8]) {
        s = sqrt(1.0 + r[4] - r[0] - r[8]) * 2;
        q[3] = (r[2] - r[6]) / s, q[0] = (r[1] + r[3]) / s, q[1] = 0.25 * s;
        q[2] = (r[5] + r[7]) / s;
    } else {
        s = sqrt(1.0 + r[8] - r[0] - r[4]) * 2;
        q[3] = (r[3] - r[1]) / s, q[0] = (r[2] + r[6]) / s, q[1] = (r[5] + r[7]) / s;
        q[2] = 0.25 * s;
    }
}

/* ---- the reader's own matrices ----
 *
 * The reader turns a stored quaternion q = (v, w) of any length k into
 * I + 2(v v^T - |v|^2 I) + 2w[v]x = (1 - k^2)I + k^2 R, R the rotation of
 * q/k (convert.c).  Such a matrix is no rotation when k is not 1, and the
 * quaternion by the largest diagonal term misses R in it (by up to
 * 218/16384 on the corpus's older files).  Read backwards, the matrix
 * gives q itself: its trace is 3 - 4|v|^2, its skew part w v, its
 * symmetric part v v^T.  That rule is taken only where the form fits the
 * matrix to rounding (FORM_FIT) and explains a departure from a rotation
 * well above what it leaves unexplained (FORM_MARGIN, FORM_FLOOR): an
 * author's matrix keeps binarise's rule (rtm(5), Writing BMTR, has the
 * figures these were chosen from). */

/* The form must fit every entry within this, eight float32 steps at 1:
 * a BMTR file's plain.rtm fits within 1.4e-7; most authors' matrices miss
 * by more, and never take the reader's rule whatever the ratio below. */
#define FORM_FIT 0x1p-20
/* Times the unexplained part the explained departure must exceed: 1.2 at
 * most on the shared pairs, up to 4.7 on three of the corpus's authors'
 * matrices (the two that fit come out the same by either rule), 6 and
 * more where binarise's rule would miss a stored rotation by a unit. */
#define FORM_MARGIN 4.0
/* Added to the unexplained part: one float32 step at 1, the rounding a
 * plain file's matrices carry. */
#define FORM_FLOOR 0x1p-23

/* The matrix the reader makes of the quaternion q (column form). */
static void reader_rotation(const double q[4], double m[9])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1 - 2 * y * y - 2 * z * z, m[1] = 2 * x * y - 2 * z * w;
    m[2] = 2 * x * z + 2 * y * w, m[3] = 2 * x * y + 2 * z * w;
    m[4] = 1 - 2 * x * x - 2 * z * z, m[5] = 2 * y * z - 2 * x * w;
    m[6] = 2 * x * z - 2 * y * w, m[7] = 2 * y * z + 2 * x * w;
    m[8] = 1 - 2 * x * x - 2 * y * y;
}

/* The quaternion q, of any length, that r would be the reader's matrix
 * of: |v|^2 from the trace, w v from the skew part; then, as for a
 * rotation, by the better conditioned of w (when w^2 >= |v|^2: v is
 * (w v) / w) and v's largest component (from v v^T, the symmetric part
 * plus |v|^2 I).  -1 when r turns nothing (|v|^2 <= 0: the identity, a
 * scale, NaN). */
static int reader_quaternion(const double r[9], double q[4])
{
    double vv = (3 - (r[0] + r[4] + r[8])) / 4;
    double wv[3] = { (r[7] - r[5]) / 4, (r[2] - r[6]) / 4, (r[3] - r[1]) / 4 };
    if (!(vv > 0 && isfinite(vv)))
        return -1;
    double w2 = (wv[0] * wv[0] + wv[1] * wv[1] + wv[2] * wv[2]) / vv;
    if (w2 >= vv) {
        double w = sqrt(w2);
        q[0] = wv[0] / w, q[1] = wv[1] / w, q[2] = wv[2] / w, q[3] = w;
        return 0;
    }
    int i = r[4] > r[0] ? 1 : 0;    /* v v^T's diagonal is r's, halved, plus a constant */
    i = r[8] > r[4 * i] ? 2 : i;
    double vi2 = (r[4 * i] - 1) / 2 + vv;
    if (!(vi2 > 0))
        return -1;
    double vi = sqrt(vi2);
    for (int j = 0; j < 3; j++)
        q[j] = j == i ? vi : (r[3 * i + j] + r[3 * j + i]) / 4 / vi;
    q[3] = wv[i] / vi;
    return 0;
}

/* 1, with that quaternion (of length k) in q, when r is the reader's
 * (1 - k^2)I + k^2 R to within rounding, and the departure from a
 * rotation it accounts for (R's plane scaled by 1 + 2|v|^2 (k^2 - 1), to
 * first order) is well above what it leaves; else 0. */
static int reader_form(const double r[9], double q[4])
{
    double m[9], res = 0;
    if (reader_quaternion(r, q))
        return 0;
    reader_rotation(q, m);
    for (int k = 0; k < 9; k++) {
        double d = fabs(m[k] - r[k]);
        if (!(d <= res))    /* NaN too: a NaN anywhere is no fit */
            res = d;
    }
    double vv = q[0] * q[0] + q[1] * q[1] + q[2] * q[2], k2 = vv + q[3] * q[3];
    return res <= FORM_FIT && 2 * vv * fabs(k2 - 1) > FORM_MARGIN * (res + FORM_FLOOR);
}

static void put16(uint8_t *out, uint16_t v)
{
    out[0] = (uint8_t)(v & 0xff);
    out[1] = (uint8_t)(v >> 8);
}

int rtm_binarise_values(const float m[12], const float *p, double q[4], double t[3])
{
    double l[12], inv[12];
    if (p && !invert(p, inv))
        mul(m, inv, l);
    else
        for (int k = 0; k < 12; k++)
            l[k] = m[k];
    /* the reader's handedness flips (convert.c), undone */
    double r[9] = { l[0], -l[1], l[2], -l[3], l[4], -l[5], l[6], -l[7], l[8] };
    int rule = reader_form(r, q) ? RTM_BINARISE_READER : RTM_BINARISE_AUTHOR;
    if (rule == RTM_BINARISE_AUTHOR) {
        /* each row made unit length: a scale is no rotation, and BMTR
         * stores none */
        for (int i = 0; i < 9; i += 3) {
            double len = sqrt(r[i] * r[i] + r[i + 1] * r[i + 1] + r[i + 2] * r[i + 2]);
            if (len > 0)
                r[i] /= len, r[i + 1] /= len, r[i + 2] /= len;
        }
        quaternion(r, q);
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0 && isfinite(n)))
        q[0] = q[1] = q[2] = 0, q[3] = n = 1;
    double sign = q[3] < 0 ? -1.0 : 1.0;
    for (int i = 0; i < 4; i++)
        q[i] = sign * q[i] / n;
    t[0] = -l[9], t[1] = l[10], t[2] = -l[11];
    return rule;
}

void rtm_binarise_transform(const float m[12], const float *p, uint8_t out[14])
{
    double q[4], t[3];
    rtm_binarise_values(m, p, q, t);
    for (int i = 0; i < 4; i++)
        put16(out + 2 * i, (uint16_t)rtm_bmtr_quat_q(q[i]));
    for (int i = 0; i < 3; i++)
        put16(out + 8 + 2 * i, rtm_bmtr_half(t[i]));
}

/* ---- the file ---- */

static uint64_t asciiz(struct rtm_str s) { return strlen(s.s) + 1; }

/* A compressed-array wrapper of n elements of elem bytes, stored raw. */
static uint64_t array_bytes(uint64_t n, uint64_t elem)
{
    return 4 + (n * elem != 0 ? 1 + n * elem : 0);
}

uint64_t rtm_binarise_size(const struct rtm_anim *a)
{
    uint64_t n = 4 + 4 + 1 + 12 + 4 + 4 + 4 + 4 + 4 + 4;    /* header, no metadata */
    for (uint32_t b = 0; b < a->nbones; b++)
        n += asciiz(a->bones[b]);
    for (uint32_t k = 0; k < a->nprops; k++)
        n += 4 + asciiz(a->props[k].name) + 4 + asciiz(a->props[k].value);
    return n + array_bytes(a->nframes, 4) +
           a->nframes * array_bytes(a->nbones, RTM_TRANSFORM_BYTES);
}

/* Every frame's transforms, nframes * nbones * 14 bytes; NULL when out of
 * memory. */
static uint8_t *transforms(const struct rtm_anim *a)
{
    size_t per = (size_t)a->nbones * RTM_TRANSFORM_BYTES;
    uint8_t *t = malloc(a->nframes * per != 0 ? a->nframes * per : 1);
    for (uint32_t f = 0; t && f < a->nframes; f++)
        for (uint32_t b = 0; b < a->nbones; b++) {
            int32_t p = a->skel_parent ? a->skel_parent[b] : -1;
            const float *parent = p >= 0 ? rtm_matrix(a, f, (uint32_t)p) : NULL;
            rtm_binarise_transform(rtm_matrix(a, f, b), parent,
                                   t + f * per + (size_t)b * RTM_TRANSFORM_BYTES);
        }
    return t;
}

/* The bones' names in lower case, in one block: names[b] points into it. */
static char *lower_names(const struct rtm_anim *a, const char **names)
{
    size_t len = 0;
    for (uint32_t b = 0; b < a->nbones; b++)
        len += asciiz(a->bones[b]);
    char *block = malloc(len ? len : 1), *p = block;
    for (uint32_t b = 0; block && b < a->nbones; b++) {
        size_t n = asciiz(a->bones[b]);
        for (size_t i = 0; i < n; i++)
            p[i] = (char)rtm_ascii_lower((unsigned char)a->bones[b].s[i]);
        names[b] = p;
        p += n;
    }
    return block;
}

int rtm_binarise(const struct rtm_anim *a, struct rtm_buf *out)
{
    if (a->depth < RTM_DEPTH_FULL)
        return -1;
    const char **names = malloc((a->nbones ? a->nbones : 1) * sizeof *names);
    struct bmtr_keystone *props = malloc((a->nprops ? a->nprops : 1) * sizeof *props);
    char *block = names ? lower_names(a, names) : NULL;
    uint8_t *tr = block && props ? transforms(a) : NULL;
    int rc = -1;
    if (tr) {
        for (uint32_t k = 0; k < a->nprops; k++)
            props[k] = (struct bmtr_keystone){ -1, a->props[k].name.s, a->props[k].phase,
                                               a->props[k].value.s };
        struct bmtr_spec s = {
            .version = 5, .byte8 = 1, .nbones = a->nbones, .names = names,
            .nframes = a->nframes, .phases = a->phases, .transforms = tr,
            .nprops = a->nprops, .props = props, .compress = BMTR_COMPRESS_NONE,
        };
        memcpy(s.motion, a->motion, sizeof s.motion);
        rc = rtm_write_bmtr(&s, out);
    }
    free(tr);
    free(block);
    free(props);
    free(names);
    return rc || out->oom ? -1 : 0;
}
