/* bmtr_raw.c - what bmtr_raw.h declares, compiled once into librtmtest.a. */
#include "bmtr_raw.h"


void bmtr_raw_free(struct bmtr_raw *r)
{
    free(r->names);
    free(r->prop_name);
    free(r->prop_value);
    free(r->prop_phase);
    free(r->phases);
    free(r->flags);
    free(r->q);
    free(r->t);
    memset(r, 0, sizeof *r);
}

static int bmtr_raw_u32(struct bmtr_cur *c, uint32_t *v)
{
    if (c->len - c->p < 4)
        return -1;
    memcpy(v, c->d + c->p, 4);
    c->p += 4;
    return 0;
}

static int bmtr_raw_str(struct bmtr_cur *c, char **s)
{
    const uint8_t *z = memchr(c->d + c->p, 0, c->len - c->p);
    if (!z)
        return -1;
    *s = (char *)(c->d + c->p);
    c->p = (size_t)(z - c->d) + 1;
    return 0;
}

/* One array of count elements of elem bytes into out (count * elem). */
static int bmtr_raw_array(struct bmtr_cur *c, uint32_t version, uint32_t want,
                          size_t elem, uint8_t *out, int *flag)
{
    uint32_t count;
    if (bmtr_raw_u32(c, &count) || count != want)
        return -1;
    size_t n = (size_t)count * elem, used;
    *flag = -1;
    int lzo = n >= 1024;
    if (version >= 5 && n) {
        if (c->p >= c->len)
            return -1;
        *flag = c->d[c->p++];
        lzo = *flag != 0;
    }
    if (!lzo) {
        if (c->len - c->p < n)
            return -1;
        memcpy(out, c->d + c->p, n);
        c->p += n;
        return 0;
    }
    if (rtm_lzo_init() || rtm_lzo_decode(c->d + c->p, c->len - c->p, out, n, &used))
        return -1;
    c->p += used;
    return 0;
}

int bmtr_raw_read(const uint8_t *d, size_t len, struct bmtr_raw *r)
{
    struct bmtr_cur c = { d, len, 0 };
    uint32_t b2, skip, nmeta = 0;
    memset(r, 0, sizeof r[0]);
    if (len < 37 || memcmp(d, "BMTR", 4))
        return -1;
    memcpy(&r->version, d + 4, 4);
    memcpy(r->motion, d + 9, 12);
    c.p = 21;
    if (bmtr_raw_u32(&c, &r->nframes) || bmtr_raw_u32(&c, &skip) ||
        bmtr_raw_u32(&c, &r->nbones) || bmtr_raw_u32(&c, &b2) || b2 != r->nbones ||
        r->nbones > len || r->nframes > len * 64)
        return -1;
    r->names = calloc(r->nbones + 1, sizeof *r->names);
    for (uint32_t b = 0; b < r->nbones; b++)
        if (bmtr_raw_str(&c, &r->names[b]))
            return -1;
    if (r->version >= 4) {
        char *s;
        if (bmtr_raw_u32(&c, &nmeta) || nmeta > len)
            return -1;
        for (uint32_t k = 0; k < nmeta; k++)
            if (bmtr_raw_str(&c, &s))
                return -1;
        if (bmtr_raw_u32(&c, &r->nprops) || r->nprops > len)
            return -1;
    }
    r->prop_name = calloc(r->nprops + 1, sizeof *r->prop_name);
    r->prop_value = calloc(r->nprops + 1, sizeof *r->prop_value);
    r->prop_phase = calloc(r->nprops + 1, sizeof *r->prop_phase);
    for (uint32_t k = 0; k < r->nprops; k++) {
        uint32_t type, phase;
        if (bmtr_raw_u32(&c, &type) || bmtr_raw_str(&c, &r->prop_name[k]) ||
            bmtr_raw_u32(&c, &phase) || bmtr_raw_str(&c, &r->prop_value[k]))
            return -1;
        memcpy(&r->prop_phase[k], &phase, 4);
    }
    size_t nt = (size_t)r->nframes * r->nbones;
    r->phases = calloc(r->nframes + 1, sizeof *r->phases);
    r->flags = calloc(r->nframes + 1, sizeof *r->flags);
    r->q = calloc(nt + 1, sizeof *r->q);
    r->t = calloc(nt + 1, sizeof *r->t);
    uint8_t *frame = malloc((size_t)r->nbones * 14 + 1);
    int rc = !r->phases || !r->flags || !r->q || !r->t || !frame ||
             bmtr_raw_array(&c, r->version, r->nframes, 4, (uint8_t *)r->phases, &r->flags[0]);
    for (uint32_t f = 0; !rc && f < r->nframes; f++) {
        rc = bmtr_raw_array(&c, r->version, r->nbones, 14, frame, &r->flags[1 + f]);
        for (uint32_t b = 0; !rc && b < r->nbones; b++) {
            memcpy(r->q[(size_t)f * r->nbones + b], frame + 14 * b, 8);
            memcpy(r->t[(size_t)f * r->nbones + b], frame + 14 * b + 8, 6);
        }
    }
    free(frame);
    return rc || c.p != len ? -1 : 0;
}

static double bmtr_raw_half(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 0 ? m * 0x1p-24 : e == 31 ? (m ? NAN : INFINITY) : (1024 + m) * ldexp(1.0, e - 25);
    return h & 0x8000 ? -v : v;
}

static double bmtr_raw_step(double v)
{
    v = fabs(v);
    return v < 0x1p-14 ? 0x1p-14 : ldexp(1.0, (int)floor(log2(v)) - 10);
}

void bmtr_raw_compare(const struct bmtr_raw *a, const struct bmtr_raw *b,
                      struct bmtr_raw_diff *d)
{
    memset(d, 0, sizeof *d);
    if (a->nbones != b->nbones || a->nframes != b->nframes)
        return;
    d->same_names = d->same_props = 1;
    for (uint32_t i = 0; i < a->nbones; i++)
        d->same_names &= strcmp(a->names[i], b->names[i]) == 0;
    d->same_phases = memcmp(a->phases, b->phases, a->nframes * sizeof(float)) == 0;
    d->same_motion = memcmp(a->motion, b->motion, sizeof a->motion) == 0;
    d->same_props = a->nprops == b->nprops;
    for (uint32_t k = 0; d->same_props && k < a->nprops; k++)
        d->same_props = strcmp(a->prop_name[k], b->prop_name[k]) == 0 &&
                        strcmp(a->prop_value[k], b->prop_value[k]) == 0 &&
                        memcmp(&a->prop_phase[k], &b->prop_phase[k], 4) == 0;
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones; i++) {
        double qa[4], qb[4], na = 0, nb = 0, dq = 0, dt = 0, dm = 0;
        for (int k = 0; k < 4; k++) {
            qa[k] = a->q[i][k], qb[k] = b->q[i][k];
            na += qa[k] * qa[k], nb += qb[k] * qb[k];
        }
        na = sqrt(na), nb = sqrt(nb);
        double sa = qa[3] < 0 ? -1 : 1, sb = qb[3] < 0 ? -1 : 1;
        for (int k = 0; k < 4 && na > 0 && nb > 0; k++)
            dq = fmax(dq, fabs(sa * qa[k] / na - sb * qb[k] / nb) * 16384);
        for (int k = 0; k < 3; k++) {
            double x = bmtr_raw_half(a->t[i][k]), y = bmtr_raw_half(b->t[i][k]);
            dt = fmax(dt, fabs(x - y) / bmtr_raw_step(fmax(fabs(x), fabs(y))));
            d->t_max_m = fmax(d->t_max_m, fabs(x - y));
            if (fabs(x - y) > 0x1p-14)   /* beyond the edge where a writer flushes */
                dm = fmax(dm, fabs(x - y) / bmtr_raw_step(fmax(fabs(x), fabs(y))));
        }
        d->values++;
        d->q_max = fmax(d->q_max, dq);
        d->t_max = fmax(d->t_max, dt);
        d->q_over += dq > 1;
        if (fabs(na / 16384 - 1) <= BMTR_RAW_UNIT) {
            d->q_over_unit += dq > 1;
            d->q_max_unit = fmax(d->q_max_unit, dq);
        }
        d->t_over += dt > 1;
        d->t_over_normal += dm > 1;
    }
}
