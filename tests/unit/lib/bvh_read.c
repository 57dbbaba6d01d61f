/* bvh_read.c - what bvh_read.h declares, compiled once into librtmtest.a. */
#include <stdio.h>

#include "bvh_read.h"


/* The next whitespace-separated token of *p into tok; 0 at the end. */
static int bvh_token(const char **p, char *tok, size_t cap)
{
    while (**p && isspace((unsigned char)**p))
        (*p)++;
    size_t n = 0;
    while (**p && !isspace((unsigned char)**p)) {
        if (n + 1 < cap)
            tok[n++] = **p;
        (*p)++;
    }
    tok[n] = 0;
    return n > 0;
}

/* Parses text; 0, or -1 with why filled. */
int bvh_parse(const char *text, struct bvh_file *f, char *why, size_t whylen)
{
    const char *p = text;
    char tok[256];
    int stack[4096], depth = 0, cap = 16, end_site = 0;
    memset(f, 0, sizeof *f);
    f->j = calloc((size_t)cap, sizeof *f->j);
    if (!bvh_token(&p, tok, sizeof tok) || strcmp(tok, "HIERARCHY")) {
        snprintf(why, whylen, "no HIERARCHY");
        return -1;
    }
    while (bvh_token(&p, tok, sizeof tok) && strcmp(tok, "MOTION")) {
        if (!strcmp(tok, "ROOT") || !strcmp(tok, "JOINT")) {
            if (f->n == cap)
                f->j = realloc(f->j, (size_t)(cap *= 2) * sizeof *f->j);
            struct bvh_joint *j = &f->j[f->n];
            memset(j, 0, sizeof *j);
            bvh_token(&p, j->name, sizeof j->name);
            j->parent = depth ? stack[depth - 1] : -1;
            stack[depth++] = f->n++;
        } else if (!strcmp(tok, "End")) {
            bvh_token(&p, tok, sizeof tok);             /* Site */
            end_site = 1;
        } else if (!strcmp(tok, "OFFSET")) {
            double o[3];
            for (int k = 0; k < 3; k++) {
                bvh_token(&p, tok, sizeof tok);
                o[k] = strtod(tok, NULL);
            }
            if (!end_site)
                memcpy(f->j[f->n - 1].offset, o, sizeof o);
        } else if (!strcmp(tok, "CHANNELS")) {
            struct bvh_joint *j = &f->j[f->n - 1];
            bvh_token(&p, tok, sizeof tok);
            j->nchan = atoi(tok);
            j->first = f->values;
            for (int k = 0; k < j->nchan && k < 6; k++) {
                bvh_token(&p, tok, sizeof tok);
                j->chan[k] = !strcmp(tok + 1, "position") ? (char)toupper(tok[0])
                                                          : (char)tolower(tok[0]);
            }
            f->values += j->nchan;
        } else if (!strcmp(tok, "}")) {
            if (end_site)
                end_site = 0;
            else if (depth > 0)
                depth--;
        }
    }
    if (depth != 0) {
        snprintf(why, whylen, "unbalanced braces (%d open)", depth);
        return -1;
    }
    if (!bvh_token(&p, tok, sizeof tok) || strcmp(tok, "Frames:") ||
        !bvh_token(&p, tok, sizeof tok)) {
        snprintf(why, whylen, "no Frames:");
        return -1;
    }
    f->frames = atoi(tok);
    bvh_token(&p, tok, sizeof tok);
    bvh_token(&p, tok, sizeof tok);
    if (strcmp(tok, "Time:") || !bvh_token(&p, tok, sizeof tok)) {
        snprintf(why, whylen, "no Frame Time:");
        return -1;
    }
    f->frame_time = strtod(tok, NULL);
    f->motion = calloc((size_t)f->frames * (size_t)f->values + 1, sizeof *f->motion);
    for (long i = 0; i < (long)f->frames * f->values; i++) {
        if (!bvh_token(&p, tok, sizeof tok)) {
            snprintf(why, whylen, "motion ends after %ld of %ld numbers", i,
                     (long)f->frames * f->values);
            return -1;
        }
        char *end;
        f->motion[i] = strtod(tok, &end);
        if (*end) {
            snprintf(why, whylen, "'%s' is not a number", tok);
            return -1;
        }
    }
    if (bvh_token(&p, tok, sizeof tok)) {
        snprintf(why, whylen, "'%s' after the last frame", tok);
        return -1;
    }
    return 0;
}

void bvh_free(struct bvh_file *f)
{
    free(f->j);
    free(f->motion);
}

/* out = a b (3x3) */
static void bvh_mul(const double a[3][3], const double b[3][3], double out[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            t[i][k] = a[i][0] * b[0][k] + a[i][1] * b[1][k] + a[i][2] * b[2][k];
    memcpy(out, t, sizeof t);
}

/* World rotation (column form) and position of every joint in frame f. */
void bvh_pose(const struct bvh_file *f, int frame, double (*rot)[3][3],
              double (*pos)[3])
{
    const double *v = f->motion + (size_t)frame * f->values;
    for (int i = 0; i < f->n; i++) {
        const struct bvh_joint *j = &f->j[i];
        double t[3] = { j->offset[0], j->offset[1], j->offset[2] };
        double r[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
        for (int k = 0; k < j->nchan; k++) {
            double x = v[j->first + k];
            char c = j->chan[k];
            if (c >= 'X' && c <= 'Z') {
                t[c - 'X'] = x;
                continue;
            }
            double a = x * M_PI / 180, cs = cos(a), sn = sin(a);
            int ax = c - 'x', u = (ax + 1) % 3, w = (ax + 2) % 3;
            double e[3][3] = { { 0 } };
            e[ax][ax] = 1;
            e[u][u] = cs;
            e[u][w] = -sn;
            e[w][u] = sn;
            e[w][w] = cs;
            bvh_mul(r, e, r);
        }
        if (j->parent < 0) {
            memcpy(rot[i], r, sizeof r);
            memcpy(pos[i], t, sizeof t);
            continue;
        }
        const double(*pr)[3] = rot[j->parent];
        for (int k = 0; k < 3; k++)
            pos[i][k] = pos[j->parent][k] + pr[k][0] * t[0] + pr[k][1] * t[1] + pr[k][2] * t[2];
        bvh_mul(rot[j->parent], r, rot[i]);
    }
}
