/* rtmcat_estimate.c - rtmcat --estimate-pivots FILE...: the front end of
 * the pivot estimator (pivots.h).  Reads every FILE with the skeleton,
 * fits the joints and prints a skeleton file with pivots, each joint's
 * figures in comment lines above it, so that the output is both the report
 * and a file for -o skeleton=. */
#include "rtmcat_estimate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pivots.h"
#include "rtm.h"
#include "skeleton_cfg.h"

/* Adds FILE's equations; 0, or 1 after a message (the file is skipped). */
static int add_file(struct rtm_pivots *e, const struct rtm_skeleton *s, const char *path,
                    uint64_t *frames)
{
    uint8_t *data;
    size_t len;
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_slurp(path, &data, &len)) {
        fprintf(stderr, "rtmcat: %s: %s (skipped)\n", path, strerror(errno));
        return 1;
    }
    int rc = rtm_parse(data, len, s, &a, &err) || rtm_pivots_add(e, a, &err);
    if (rc)
        fprintf(stderr, "rtmcat: %s: %s (skipped)\n", path, err.msg);
    else
        *frames += a->nframes;
    rtm_free(a);
    free(data);
    return rc;
}

static void put_report(struct rtm_buf *b, const struct rtm_skeleton *s,
                       const struct rtm_pivot_fit *fit, int files, uint64_t frames)
{
    rtm_buf_printf(b, "# Skeleton %s with pivots: where each bone meets its parent in the rest\n"
                   "# pose, in metres (+x left, +y up, the character faces -z), estimated by\n"
                   "#   rtmcat --estimate-pivots from %d files, %llu frames.\n"
                   "# Per joint: frames with equations, frames kept by the trimmed fit, RMS\n"
                   "# residual (mm), smallest singular value of the kept rows, and how the\n"
                   "# pivot was found.  measured: well determined (singular value >= %.1f,\n"
                   "# residual < %.0f mm); every other pivot is placed (pivots.h) and marked\n"
                   "# 'placed' on its line below.\n"
                   "# %-24s %8s %8s %8s %8s  %s\n", s->name, files, (unsigned long long)frames,
                   RTM_PIVOT_MIN_SIGMA, RTM_PIVOT_MAX_RESIDUAL * 1000, "bone", "frames", "kept",
                   "res_mm", "sigma", "how");
    for (uint32_t k = 0; k < s->nbones; k++)
        rtm_buf_printf(b, "# %-24s %8llu %8llu %8.2f %8.2f  %s\n", s->bone[k],
                       (unsigned long long)fit[k].frames, (unsigned long long)fit[k].kept,
                       fit[k].residual * 1000, fit[k].sigma, rtm_pivot_how_name(fit[k].how));
}

/* The skeleton s with the fitted pivots, written after the report. */
static int put_skeleton(struct rtm_buf *b, const struct rtm_skeleton *s,
                        const struct rtm_pivot_fit *fit)
{
    float (*pivot)[3] = malloc((s->nbones ? s->nbones : 1) * sizeof *pivot);
    uint8_t *placed = malloc(s->nbones ? s->nbones : 1);
    int rc = pivot && placed ? 0 : -1;
    for (uint32_t k = 0; !rc && k < s->nbones; k++) {
        memcpy(pivot[k], fit[k].pivot, sizeof pivot[k]);
        placed[k] = fit[k].how != RTM_PIVOT_MEASURED;
    }
    struct rtm_skeleton with = *s;          /* borrows s's names and arrays */
    with.pivot = pivot;
    with.placed = placed;
    if (!rc)
        rc = rtm_skeleton_write(&with, b);
    free(pivot);
    free(placed);
    return rc;
}

int rtmcat_estimate(const char *skel_spec, char *const *files, int nfiles)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_skeleton_open(skel_spec, &s, &err)) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    struct rtm_pivots *e = rtm_pivots_new(s);
    struct rtm_pivot_fit *fit = calloc(s->nbones ? s->nbones : 1, sizeof *fit);
    int skipped = 0, status = 1;
    uint64_t frames = 0;
    for (int i = 0; e && fit && i < nfiles; i++)
        skipped += add_file(e, s, files[i], &frames);
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (!e || !fit || rtm_pivots_solve(e, fit, &err)) {
        fprintf(stderr, "rtmcat: out of memory\n");
    } else if (skipped == nfiles) {
        fprintf(stderr, "rtmcat: no file could be read: nothing to estimate from\n");
    } else {
        put_report(&b, s, fit, nfiles - skipped, frames);
        if (put_skeleton(&b, s, fit) || b.oom)
            fprintf(stderr, "rtmcat: out of memory\n");
        else if (fwrite(b.p, 1, b.len, stdout) != b.len || fflush(stdout))
            fprintf(stderr, "rtmcat: write error: %s\n", strerror(errno));
        else
            status = skipped ? 1 : 0;   /* an estimate, but not from every file */
    }
    rtm_buf_free(&b);
    free(fit);
    rtm_pivots_free(e);
    rtm_skeleton_free(s);
    return status;
}
