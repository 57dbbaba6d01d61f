/* parse.c - the format dispatch: which reader a buffer goes to (its
 * row of the format table, format_table.h, by the row's signature), and
 * what every parse does after it (the skeleton's links and pivots copied
 * into the anim, the source kept).  It sits above the readers, which
 * need only the model's allocation (anim.c). */
#include "format_table.h"
#include "names.h"
#include "skeleton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rtm_parse(const uint8_t *data, size_t len, const struct rtm_skeleton *skel,
              struct rtm_anim **out, struct rtm_error *err)
{
    return rtm_parse_flags(data, len, skel, 0, out, err);
}

int rtm_parse_flags(const uint8_t *data, size_t len, const struct rtm_skeleton *skel,
                    unsigned flags, struct rtm_anim **out, struct rtm_error *err)
{
    struct rtm_parse_opts o = { .skel = skel, .flags = flags };
    return rtm_parse_opts(data, len, &o, out, err);
}

/* Copies the skeleton's own bone list (rtm.h: skel_names), which only
 * check.txt reads: a full anim renders it, so a light one goes without. */
static int take_skeleton_bones(struct rtm_anim *a, const struct rtm_skeleton *s)
{
    if (!s || a->depth < RTM_DEPTH_FULL || !s->nbones)
        return 0;
    size_t len = 0;
    for (uint32_t k = 0; k < s->nbones; k++)
        len += strlen(s->bone[k]) + 1;
    a->skel_names = malloc(len);
    a->skel_parents = malloc(s->nbones * sizeof *a->skel_parents);
    if (!a->skel_names || !a->skel_parents)
        return -1;
    char *p = a->skel_names;
    for (uint32_t k = 0; k < s->nbones; k++) {
        size_t n = strlen(s->bone[k]) + 1;
        memcpy(p, s->bone[k], n);
        p += n;
        a->skel_parents[k] = s->parent[k];
    }
    a->skel_nbones = s->nbones;
    return 0;
}

/* Copies what the views need of the skeleton for a's bones: parents (as
 * bones of a), membership and pivots.  -1 when out of memory. */
static int take_skeleton(struct rtm_anim *a, const struct rtm_skeleton *s)
{
    size_t n = a->nbones ? a->nbones : 1;
    a->skel_parent = malloc(n * sizeof *a->skel_parent);
    /* each bone's skeleton index, held in skel_parent until replaced below */
    int32_t *index = a->skel_parent;
    int32_t *first = s && index ? rtm_skeleton_match(s, a->bones, a->nbones, index) : NULL;
    a->in_skeleton = calloc(n, 1);
    int pivots = rtm_skeleton_has_pivots(s);
    if (pivots) {
        a->pivot = calloc(n, sizeof *a->pivot);
        a->pivot_placed = calloc(n, 1);
    }
    if (!a->skeleton_name)              /* BMTR sets it; plain too needs it */
        a->skeleton_name = strdup(s ? s->name : "none");
    if ((s && !first) || !a->skel_parent || !a->in_skeleton ||
        !a->skeleton_name || (pivots && (!a->pivot || !a->pivot_placed))) {
        free(first);
        return -1;
    }
    for (uint32_t b = 0; b < a->nbones; b++) {
        int32_t k = s ? index[b] : -1;
        a->in_skeleton[b] = k >= 0;
        a->skel_parent[b] = k >= 0 && s->parent[k] >= 0 ? first[s->parent[k]] : -1;
        if (k >= 0 && pivots) {
            memcpy(a->pivot[b], s->pivot[k], sizeof a->pivot[b]);
            a->pivot_placed[b] = s->placed[k];
        }
    }
    free(first);
    return take_skeleton_bones(a, s);
}

/* "neither A, B nor C": every row's signature, for a file no row knows. */
static void put_signatures(char *out, size_t n)
{
    size_t used = 0;
    for (size_t i = 0; i < RTM_NFORMATS && used < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == RTM_NFORMATS ? " nor " : ", ";
        int k = snprintf(out + used, n - used, "%s%s", sep, rtm_format_by_id(i)->signature);
        used += k > 0 ? (size_t)k : 0;
    }
}

/* The reason no reader takes data. */
static int unknown_format(size_t len, struct rtm_error *err)
{
    char sigs[192];
    put_signatures(sigs, sizeof sigs);
    if (len == 0)
        rtm_err_set(err, 0, "empty file, not an RTM animation");
    else
        rtm_err_set(err, 0, "not an RTM animation: starts with neither %s", sigs);
    return -1;
}

/* Reads data by its first bytes.  *skel: the skeleton a BVH was
 * retargeted onto (chosen by its joints' names), or NULL: the one the
 * options choose for the anim's bones. */
static int read_any(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                    const struct rtm_skeleton **skel, struct rtm_anim **out,
                    struct rtm_error *err)
{
    *skel = NULL;
    const struct rtm_format_row *f = rtm_format_sniff(data, len);
    return f ? f->read(data, len, o, skel, out, err) : unknown_format(len, err);
}

/* What every reader's anim gets after: the skeleton's links, the tracks. */
static int finish(struct rtm_anim **out, const uint8_t *data, const struct rtm_parse_opts *o,
                  const struct rtm_skeleton *skel, struct rtm_error *err)
{
    if (!skel)
        skel = rtm_parse_skeleton(o, (*out)->bones, (*out)->nbones);
    if (!take_skeleton(*out, skel) &&
        ((*out)->tracks = rtm_names_make((*out)->bones, (*out)->nbones, &RTM_NAMES_FILE)))
        return 0;
    if ((*out)->source == data)
        (*out)->source = NULL;          /* a failed parse leaves data the caller's */
    rtm_free(*out);
    *out = NULL;
    rtm_err_oom(err, "out of memory");
    return -1;
}

int rtm_parse_opts(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                   struct rtm_anim **out, struct rtm_error *err)
{
    *out = NULL;
    const struct rtm_skeleton *skel;
    int rc = read_any(data, len, o, &skel, out, err);
    return rc == 0 ? finish(out, data, o, skel, err) : rc;
}

enum { HEAD_MIN = 4096 };   /* a page: what the disk reads for one byte anyway */

int rtm_parse_head(const uint8_t *head, size_t len, uint64_t file_size,
                   const struct rtm_parse_opts *o, struct rtm_anim **out, uint64_t *need,
                   struct rtm_error *err)
{
    *out = NULL;
    *need = 0;
    int rc;
    const struct rtm_skeleton *skel = NULL;
    if (len > file_size) {
        rtm_err_nooff(err, "%zu bytes given of a file of %llu", len,
                      (unsigned long long)file_size);
        return -1;
    }
    const struct rtm_format_row *f = rtm_format_sniff(head, len);
    if (len < 8 && len < file_size)
        rc = RTM_PARSE_NEED_MORE;
    else if (f)
        rc = f->head(head, len, file_size, o, &skel, out, need, err);
    else
        rc = unknown_format(len, err);
    if (rc == RTM_PARSE_NEED_MORE) {
        uint64_t twice = len < HEAD_MIN / 2 ? HEAD_MIN : (uint64_t)len * 2;
        if (*need <= len)
            *need = twice;
        if (*need > file_size)
            *need = file_size;
        return rc;
    }
    return rc == 0 ? finish(out, head, o, skel, err) : rc;
}
