/* samples.c - deterministic synthetic animations. */
#include "samples.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "format_table.h"
#include "rtm.h"
#include "skeleton_cfg.h"

struct sample {
    uint32_t nbones, nframes, nprops;
    char **names;              /* lowercase for BMTR, skeleton case for plain */
    float *phases;
    uint8_t *transforms;       /* nframes * nbones * 14 */
    struct bmtr_keystone *props;
};

static void sample_free(struct sample *s)
{
    if (s->names)
        for (uint32_t i = 0; i < s->nbones; i++)
            free(s->names[i]);
    free(s->names);
    free(s->phases);
    free(s->transforms);
    free(s->props);
}

static int make_names(struct sample *s, int lower)
{
    struct rtm_skeleton *sk = NULL;
    struct rtm_error err;
    if (rtm_skeleton_open(RTM_SKELETON_OFP2, &sk, &err))
        return -1;
    int rc = 0;
    for (uint32_t i = 0; i < s->nbones && !rc; i++) {
        char tmp[32];
        if (i < sk->nbones)
            snprintf(tmp, sizeof tmp, "%s", sk->bone[i]);
        else
            snprintf(tmp, sizeof tmp, "extra_%u", i);
        for (char *p = tmp; lower && *p; p++)
            *p = (char)tolower((unsigned char)*p);
        rc = !(s->names[i] = strdup(tmp));
    }
    rtm_skeleton_free(sk);
    return rc ? -1 : 0;
}

/* A small rotation about a per-bone axis and a drifting translation. */
static void make_transform(uint32_t seed, uint32_t b, uint32_t f, uint32_t nf, uint8_t *out)
{
    double t = nf > 1 ? (double)f / (nf - 1) : 0;
    double ang = 0.4 * sin(6.2831853 * t + 0.7 * b + seed);
    double ax = sin(b + 1.0 + seed), ay = cos(2.0 * b + seed), az = 0.5;
    double n = sqrt(ax * ax + ay * ay + az * az);
    double s = sin(ang / 2) / n;
    float q[4] = { (float)(ax * s), (float)(ay * s), (float)(az * s), (float)cos(ang / 2) };
    float tr[3] = { (float)(0.01 * (b % 7)), (float)(0.1 + 0.02 * (b % 5)),
                    (float)(0.05 * t * ((b & 1) ? 1 : -1)) };
    rtm_pack_transform(out, q, tr);
}

static int make_sample(const struct sample_opts *o, int lower, struct sample *s)
{
    memset(s, 0, sizeof *s);
    s->nbones = o->nbones;
    s->nframes = o->nframes;
    s->nprops = o->nprops;
    s->names = calloc(o->nbones + 1, sizeof *s->names);
    s->phases = calloc(o->nframes + 1, sizeof *s->phases);
    s->transforms = malloc((size_t)o->nframes * o->nbones * 14 + 1);
    s->props = calloc(o->nprops + 1, sizeof *s->props);
    if (!s->names || !s->phases || !s->transforms || !s->props || make_names(s, lower))
        return -1;
    for (uint32_t f = 0; f < o->nframes; f++) {
        s->phases[f] = o->nframes > 1 ? (float)f / (float)(o->nframes - 1) : 0;
        for (uint32_t b = 0; b < o->nbones; b++)
            make_transform(o->seed, b, f, o->nframes,
                           s->transforms + ((size_t)f * o->nbones + b) * 14);
    }
    for (uint32_t i = 0; i < o->nprops; i++)
        s->props[i] = (struct bmtr_keystone){ -1, i % 2 ? "Step" : "StepSound",
                                              (float)(i + 1) / (float)(o->nprops + 1),
                                              i % 2 ? "Sound" : "left" };
    return 0;
}

int rtm_sample_bmtr(const struct sample_opts *o, uint32_t version,
                    enum bmtr_compress compress, struct rtm_buf *out)
{
    struct sample s;
    int rc = -1;
    if (make_sample(o, 1, &s) == 0) {
        struct bmtr_spec spec = {
            .version = version, .byte8 = 1, .motion = { 0, 0, 1.25f },
            .nbones = s.nbones, .names = (const char *const *)s.names,
            .nframes = s.nframes, .phases = s.phases, .transforms = s.transforms,
            .nprops = version >= 4 ? s.nprops : 0, .props = s.props,
            .compress = compress,
        };
        rc = rtm_write_bmtr(&spec, out);
    }
    sample_free(&s);
    return rc;
}

/* Plain matrices come from the same transforms through the converter, so the
 * sample looks like a real exported animation. */
static int fill_plain(const struct sample *s, struct rtm_anim *a)
{
    struct rtm_skeleton *sk = NULL;
    struct rtm_error err;
    struct rtm_plan plan;
    double *scratch = malloc(((size_t)s->nbones * 12 + 1) * sizeof *scratch);
    if (!scratch || rtm_skeleton_open(RTM_SKELETON_OFP2, &sk, &err)) {
        free(scratch);
        return -1;
    }
    for (uint32_t b = 0; b < s->nbones; b++)
        a->bones[b] = rtm_anim_str(a, s->names[b], (uint32_t)strlen(s->names[b]));
    int rc = rtm_plan_make(sk, a->bones, s->nbones, &plan);
    for (uint32_t f = 0; f < s->nframes && !rc; f++) {
        a->phases[f] = s->phases[f];
        rtm_convert_frame(&plan, s->transforms + (size_t)f * s->nbones * 14, scratch,
                          a->matrices + (size_t)f * s->nbones * 12);
    }
    for (uint32_t i = 0; i < s->nprops; i++) {
        struct rtm_prop *p = &a->props[i];
        p->phase = s->props[i].phase;
        p->name = rtm_anim_str(a, s->props[i].name, (uint32_t)strlen(s->props[i].name));
        p->value = rtm_anim_str(a, s->props[i].value, (uint32_t)strlen(s->props[i].value));
    }
    if (!rc)
        rtm_plan_free(&plan);
    rtm_skeleton_free(sk);
    free(scratch);
    return rc;
}

int rtm_sample_plain(const struct sample_opts *o, struct rtm_buf *out)
{
    struct sample s;
    int rc = -1;
    if (make_sample(o, 0, &s) == 0) {
        struct rtm_anim *a = rtm_anim_alloc(RTM_MADE_FORMAT, s.nframes, s.nbones, s.nprops,
                                            (size_t)s.nbones * 33 + s.nprops * 64,
                                            RTM_DEPTH_FULL);
        if (a) {
            a->motion[2] = 1.25f;
            if (fill_plain(&s, a) == 0)
                rc = rtm_write_plain(a, out);
        }
        rtm_free(a);
    }
    sample_free(&s);
    return rc;
}

/* ---- bones turning about known pivots ---- */

static float lcg_unit(uint32_t *state)          /* uniform in [-1, 1) */
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / (float)(1u << 23) - 1.0f;
}

/* q = Rx(ax) Ry(ay) Rz(az), row-vector convention, 9 floats. */
static void euler(float ax, float ay, float az, float q[9])
{
    float cx = cosf(ax), sx = sinf(ax), cy = cosf(ay), sy = sinf(ay);
    float cz = cosf(az), sz = sinf(az);
    float rx[9] = { 1, 0, 0, 0, cx, sx, 0, -sx, cx };
    float ry[9] = { cy, 0, -sy, 0, 1, 0, sy, 0, cy };
    float rz[9] = { cz, sz, 0, -sz, cz, 0, 0, 0, 1 };
    float t[9];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            t[i * 3 + k] = rx[i * 3] * ry[k] + rx[i * 3 + 1] * ry[3 + k] + rx[i * 3 + 2] * ry[6 + k];
        }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            q[i * 3 + k] = t[i * 3] * rz[k] + t[i * 3 + 1] * rz[3 + k] + t[i * 3 + 2] * rz[6 + k];
}

/* m = the turn q about pivot j, then parent mp (NULL: none), plus drift:
 * p -> ((p - j) q + j) mp. */
static void pose(const float q[9], const float j[3], const float *mp, const float drift[3],
                 float *m)
{
    static const float ident[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    const float *p = mp ? mp : ident;
    float local[12];
    memcpy(local, q, 9 * sizeof *local);
    for (int k = 0; k < 3; k++)
        local[9 + k] = j[k] - (j[0] * q[k] + j[1] * q[3 + k] + j[2] * q[6 + k]) + drift[k];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            m[i * 3 + k] = local[i * 3] * p[k] + local[i * 3 + 1] * p[3 + k] +
                           local[i * 3 + 2] * p[6 + k] + (i == 3 ? p[9 + k] : 0.0f);
}

static void pose_frame(const int32_t *parent, const float (*pivot)[3], const char *const *names,
                       uint32_t nbones, uint32_t f, const struct posed_opts *o, float *mats)
{
    const float deg = 0.017453292f * o->amp_deg;
    for (uint32_t b = 0; b < nbones; b++) {
        uint32_t st = o->seed * 7919u + b * 104729u;
        float ph = (float)f / (float)(o->nframes ? o->nframes : 1) * 6.2831853f;
        float a1 = deg * sinf(ph + lcg_unit(&st) * 3), a2 = deg * sinf(2 * ph + lcg_unit(&st) * 3);
        float a3 = deg * cosf(3 * ph + lcg_unit(&st) * 3);
        int hinge = o->hinge && strcmp(names[b], o->hinge) == 0;
        float q[9], drift[3] = { 0, 0, 0 };
        euler(a1, hinge ? 0 : a2, hinge ? 0 : a3, q);
        if (parent[b] < 0)
            drift[2] = 0.01f * (float)f;
        pose(q, pivot[b], parent[b] < 0 ? NULL : mats + (size_t)parent[b] * 12, drift,
             mats + (size_t)b * 12);
    }
    uint32_t st = o->seed ^ (f * 2654435761u);
    int outlier = (lcg_unit(&st) + 1) / 2 < o->outliers;     /* a frame gone wrong */
    for (uint32_t b = 0; b < nbones; b++) {
        float *t = mats + (size_t)b * 12 + 9;
        for (int k = 0; k < 3; k++)
            t[k] += o->noise * lcg_unit(&st) + (outlier ? 0.1f * lcg_unit(&st) : 0.0f);
    }
}

int rtm_sample_posed(const char *const *names, const int32_t *parent, const float (*pivot)[3],
                     uint32_t nbones, const struct posed_opts *o, struct rtm_buf *out)
{
    size_t strings = 0;
    for (uint32_t b = 0; b < nbones; b++)
        strings += strlen(names[b]) + 1;
    struct rtm_anim *a = rtm_anim_alloc(RTM_MADE_FORMAT, o->nframes, nbones, 0, strings,
                                        RTM_DEPTH_FULL);
    if (!a)
        return -1;
    for (uint32_t b = 0; b < nbones; b++)
        a->bones[b] = rtm_anim_str(a, names[b], (uint32_t)strlen(names[b]));
    for (uint32_t f = 0; f < o->nframes; f++) {
        a->phases[f] = o->nframes > 1 ? (float)f / (float)(o->nframes - 1) : 0;
        pose_frame(parent, pivot, names, nbones, f, o, a->matrices + (size_t)f * nbones * 12);
    }
    int rc = rtm_write_plain(a, out);
    rtm_free(a);
    return rc;
}

/* Parents first, as rtm_sample_posed needs. */
static const char *const FIGURE_NAME[RTM_FIGURE_BONES] = {
    "Pelvis", "Spine", "Spine1", "Neck", "Head", "HeadTop",
    "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
    "RightShoulder", "RightArm", "RightForeArm", "RightHand",
    "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
    "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase",
};
static const int32_t FIGURE_PARENT[RTM_FIGURE_BONES] = {
    -1, 0, 1, 2, 3, 4, 2, 6, 7, 8, 2, 10, 11, 12, 0, 14, 15, 16, 0, 18, 19, 20,
};
static const float FIGURE_PIVOT[RTM_FIGURE_BONES][3] = {
    { 0, 1.0f, 0 }, { 0, 1.15f, 0 }, { 0, 1.32f, 0 }, { 0, 1.5f, 0 }, { 0, 1.58f, 0 },
    { 0, 1.7f, 0 },
    { 0.06f, 1.45f, 0 }, { 0.2f, 1.45f, 0 }, { 0.24f, 1.17f, 0 }, { 0.27f, 0.92f, 0 },
    { -0.06f, 1.45f, 0 }, { -0.2f, 1.45f, 0 }, { -0.24f, 1.17f, 0 }, { -0.27f, 0.92f, 0 },
    { 0.1f, 0.95f, 0 }, { 0.11f, 0.52f, 0.02f }, { 0.12f, 0.1f, 0 }, { 0.12f, 0.02f, -0.12f },
    { -0.1f, 0.95f, 0 }, { -0.11f, 0.52f, 0.02f }, { -0.12f, 0.1f, 0 }, { -0.12f, 0.02f, -0.12f },
};

int rtm_sample_figure(uint32_t nframes, struct rtm_buf *rtm, struct rtm_buf *skeleton)
{
    const struct posed_opts o = { nframes, 5, 10.0f, 0, 0, NULL };
    for (uint32_t b = 0; b < RTM_FIGURE_BONES; b++) {
        int32_t p = FIGURE_PARENT[b];
        rtm_buf_printf(skeleton, "%s %s", FIGURE_NAME[b], p < 0 ? "-" : FIGURE_NAME[p]);
        rtm_skeleton_put_pivot(skeleton, FIGURE_PIVOT[b], 0);
        rtm_buf_putc(skeleton, '\n');
    }
    return rtm_sample_posed(FIGURE_NAME, FIGURE_PARENT, FIGURE_PIVOT, RTM_FIGURE_BONES, &o, rtm) ||
                   skeleton->oom ? -1 : 0;
}
