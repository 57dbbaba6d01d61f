/* anim.c - the model's allocation, release, order by phase and memory
 * footprint. */
#include "formats.h"
#include "names.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rtm_anim *rtm_anim_alloc(enum rtm_format fmt, uint32_t nframes,
                                uint32_t nbones, uint32_t nprops,
                                size_t string_bytes, enum rtm_depth depth)
{
    struct rtm_anim *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->format = fmt;
    a->nframes = nframes;
    a->nbones = nbones;
    a->nprops = nprops;
    a->depth = depth;
    size_t nmat = depth == RTM_DEPTH_FULL ? (size_t)nframes * nbones * 12 : 0;
    a->digits = RTM_DIGITS_EXACT;
    a->bones = calloc(nbones ? nbones : 1, sizeof *a->bones);
    a->phases = calloc(nframes ? nframes : 1, sizeof *a->phases);
    a->matrices = calloc(nmat ? nmat : 1, sizeof *a->matrices);
    a->props = calloc(nprops ? nprops : 1, sizeof *a->props);
    a->arena_cap = string_bytes + 1;
    a->arena = malloc(a->arena_cap);
    if (!a->bones || !a->phases || !a->matrices || !a->props || !a->arena) {
        rtm_free(a);
        return NULL;
    }
    a->arena[0] = 0;
    return a;
}

/* Callers size the arena from the source bytes plus one NUL a string, so a
 * string that does not fit is a bug in the caller; it gets the empty string. */
struct rtm_str rtm_anim_str(struct rtm_anim *a, const void *s, uint32_t len)
{
    struct rtm_str r = { a->arena + a->arena_cap - 1, 0 };
    if ((size_t)len + 1 > a->arena_cap - a->arena_len)
        return r;
    r.s = a->arena + a->arena_len;
    r.len = len;
    memcpy(a->arena + a->arena_len, s, len);
    a->arena[a->arena_len + len] = 0;
    a->arena_len += (size_t)len + 1;
    return r;
}

void rtm_free(struct rtm_anim *a)
{
    if (!a)
        return;
    free(a->bones);
    free(a->phases);
    free(a->matrices);
    free(a->props);
    free(a->arena);
    free(a->source);
    free(a->skeleton_name);
    free(a->skel_parent);
    free(a->in_skeleton);
    free(a->pivot);
    free(a->pivot_placed);
    free(a->skel_names);
    free(a->skel_parents);
    rtm_names_free(a->tracks);
    free(a->clip_names);
    rtm_names_free(a->clips);
    rtm_bvh_info_free(a->bvh);
    free(a);
}

int rtm_anim_set_clips(struct rtm_anim *a, uint32_t clip, uint32_t n,
                       const struct rtm_str *names)
{
    if (!n || clip >= n)
        return -1;
    size_t bytes = (size_t)n * (sizeof(struct rtm_str) + 16);  /* "clipI" and a NUL each */
    for (uint32_t i = 0; i < n; i++)
        bytes += names[i].len;
    struct rtm_str *given = malloc(bytes);
    if (!given)
        return -1;
    char *at = (char *)(given + n);
    for (uint32_t i = 0; i < n; i++) {
        given[i].s = at;
        if (names[i].len)
            memcpy(at, names[i].s, names[i].len);
        given[i].len = names[i].len ? names[i].len
                                    : (uint32_t)sprintf(at, "clip%" PRIu32, i + 1);
        at[given[i].len] = 0;
        at += given[i].len + 1;
    }
    struct rtm_names *made = rtm_names_make(given, n, &RTM_NAMES_FILE);
    if (!made) {
        free(given);
        return -1;
    }
    free(a->clip_names);
    rtm_names_free(a->clips);
    a->clip_names = given;
    a->clips = made;
    a->nclips = n;
    a->clip = clip;
    return 0;
}

void rtm_bvh_info_free(struct rtm_bvh_info *in)
{
    if (!in)
        return;
    free(in->joint);
    free(in->names);
    free(in);
}

const struct rtm_skeleton *rtm_parse_skeleton(const struct rtm_parse_opts *o,
                                              const struct rtm_str *bones, uint32_t n)
{
    const struct rtm_skeleton *s = o->choose ? o->choose(o->choose_ctx, bones, n) : NULL;
    return s ? s : o->skel;
}

/* ---- order by phase ---- */

struct phase_key {
    float phase;
    uint32_t index;
};

/* Ascending phase, NaN last, ties in file order: a stable sort. */
static int phase_cmp(const void *pa, const void *pb)
{
    const struct phase_key *a = pa, *b = pb;
    int an = isnan(a->phase), bn = isnan(b->phase);
    if (an != bn)
        return an - bn;
    if (!an && a->phase != b->phase)
        return a->phase < b->phase ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The n indices of the floats at phase, stride bytes apart, by phase_cmp. */
static uint32_t *order_by_phase(uint32_t n, const float *phase, size_t stride)
{
    struct phase_key *k = malloc((n ? n : 1) * sizeof *k);
    uint32_t *order = k ? malloc((n ? n : 1) * sizeof *order) : NULL;
    if (!order) {
        free(k);
        return NULL;
    }
    int sorted = 1;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(&k[i].phase, (const char *)phase + (size_t)i * stride, sizeof(float));
        k[i].index = i;
        /* false for a NaN too, which then takes the sort */
        sorted &= i == 0 || k[i - 1].phase <= k[i].phase;
    }
    /* a file's phases mostly ascend already, and a stable sort of them
     * changes nothing: a compare a frame instead of qsort's calls */
    if (!sorted)
        qsort(k, n, sizeof *k, phase_cmp);
    for (uint32_t i = 0; i < n; i++)
        order[i] = k[i].index;
    free(k);
    return order;
}

uint32_t *rtm_phase_order(const struct rtm_anim *a)
{
    return order_by_phase(a->nframes, a->phases, sizeof a->phases[0]);
}

uint32_t *rtm_prop_order(const struct rtm_anim *a)
{
    return order_by_phase(a->nprops, &a->props[0].phase, sizeof a->props[0]);
}


/* Memory a parsed anim holds, close enough for a budget: its arrays with
 * the heap's cost of each (an install's worth of small anims would
 * otherwise overrun it), its track names. */
size_t rtm_anim_mem_bytes(const struct rtm_anim *a)
{
    if (!a)
        return 0;
    size_t nb = a->nbones, nf = a->nframes;
    size_t n = rtm_heap_bytes(sizeof *a) + rtm_heap_bytes(a->arena_cap) +
               rtm_heap_bytes(nb * sizeof *a->bones) + rtm_heap_bytes(nf * sizeof(float)) +
               rtm_heap_bytes(a->nprops * sizeof *a->props) +
               rtm_heap_bytes(a->depth == RTM_DEPTH_FULL ? nf * nb * 12 * sizeof(float)
                                                         : sizeof(float)) +
               4 * rtm_heap_bytes(0) + nb * RTM_SKEL_BYTES_PER_BONE +  /* skeleton's arrays */
               rtm_names_mem_bytes(a->tracks);
    if (a->source)
        n += rtm_heap_bytes(a->source_bytes);
    for (uint32_t i = 0; i < a->nclips; i++)
        n += sizeof *a->clip_names + a->clip_names[i].len + 1;
    n += rtm_names_mem_bytes(a->clips);
    if (a->bvh) {                       /* its joints' names, each with a bone's */
        size_t names = 0;
        for (uint32_t j = 0; j < a->bvh->njoints; j++)
            names += strlen(a->bvh->joint[j].name) + 1 +
                     (a->bvh->joint[j].target ? strlen(a->bvh->joint[j].target) + 1 : 0) +
                     (a->bvh->joint[j].wanted ? strlen(a->bvh->joint[j].wanted) + 1 : 0);
        n += rtm_heap_bytes(sizeof *a->bvh) + rtm_heap_bytes(names + 1) +
             rtm_heap_bytes(a->bvh->njoints * sizeof *a->bvh->joint);
    }
    if (a->skel_names) {
        const char *end = a->skel_names;
        for (uint32_t k = 0; k < a->skel_nbones; k++)
            end += strlen(end) + 1;
        n += rtm_heap_bytes((size_t)(end - a->skel_names)) +
             rtm_heap_bytes(a->skel_nbones * sizeof *a->skel_parents);
    }
    return n;
}
