/* view_names.c - what an animation's folder holds: the views' names,
 * their order in a listing, and the lookups from a name back to a view
 * (views.h).  The bytes of each view are views.c's. */
#include "views.h"

#include <stdio.h>
#include <string.h>

#include "names.h"

static const char *const FIXED[RTM_NFIXED_VIEWS] = {
    "header.txt", "bones.txt", "phases.csv", "props.json", "plain.rtm", "bmtr.rtm",
    "skeleton.txt", "moving.txt", "preview.svg", "check.txt", "anim.bvh",
};

const char *rtm_view_fixed_name(enum rtm_view_kind kind)
{
    return (int)kind < RTM_NFIXED_VIEWS ? FIXED[kind] : NULL;
}

size_t rtm_view_nfixed(const struct rtm_anim *a)
{
    return a->pivot ? RTM_NFIXED_VIEWS : RTM_VIEW_BVH;
}

/* The folders a has, in listing order. */
static size_t folders_of(const struct rtm_anim *a, enum rtm_view_kind kinds[3])
{
    size_t n = 0;
    kinds[n++] = RTM_VIEW_FRAME;
    if (a->pivot)
        kinds[n++] = RTM_VIEW_JOINTS;
    if (a->tracks)                      /* an anim rtm_parse made */
        kinds[n++] = RTM_VIEW_TRACK;
    return n;
}

const char *rtm_view_folder_name(enum rtm_view_kind kind)
{
    return kind == RTM_VIEW_FRAME ? "frames" : kind == RTM_VIEW_JOINTS ? "joints" : "tracks";
}

const char *rtm_view_folder(const struct rtm_anim *a, size_t i, enum rtm_view_kind *kind)
{
    enum rtm_view_kind kinds[3];
    if (i >= folders_of(a, kinds))
        return NULL;
    *kind = kinds[i];
    return rtm_view_folder_name(kinds[i]);
}

int rtm_view_folder_lookup(const struct rtm_anim *a, const char *name, enum rtm_view_kind *kind)
{
    const char *folder;
    for (size_t i = 0; (folder = rtm_view_folder(a, i, kind)); i++)
        if (strcmp(name, folder) == 0)
            return 0;
    return -1;
}

uint32_t rtm_view_folder_size(const struct rtm_anim *a, enum rtm_view_kind kind)
{
    switch (kind) {
    case RTM_VIEW_FRAME: return a->nframes;
    case RTM_VIEW_JOINTS: return a->pivot ? a->nframes : 0;
    case RTM_VIEW_TRACK: return a->tracks ? a->tracks->n : 0;
    default: return 0;
    }
}

size_t rtm_view_count(const struct rtm_anim *a)
{
    enum rtm_view_kind kinds[3];
    size_t n = rtm_view_nfixed(a), nf = folders_of(a, kinds);
    for (size_t i = 0; i < nf; i++)
        n += rtm_view_folder_size(a, kinds[i]);
    return n;
}

struct rtm_view rtm_view_at(const struct rtm_anim *a, size_t i)
{
    if (i < rtm_view_nfixed(a))
        return (struct rtm_view){ .kind = (enum rtm_view_kind)i };
    i -= rtm_view_nfixed(a);
    enum rtm_view_kind kinds[3];
    size_t nf = folders_of(a, kinds), k = 0;
    while (k + 1 < nf && i >= rtm_view_folder_size(a, kinds[k]))
        i -= rtm_view_folder_size(a, kinds[k++]);
    return (struct rtm_view){ .kind = kinds[k], .frame = (uint32_t)i };
}

size_t rtm_view_index(const struct rtm_anim *a, struct rtm_view v)
{
    if ((int)v.kind < RTM_NFIXED_VIEWS)
        return (size_t)v.kind;
    enum rtm_view_kind kinds[3];
    size_t nf = folders_of(a, kinds), idx = rtm_view_nfixed(a);
    for (size_t k = 0; k < nf && kinds[k] != v.kind; k++)
        idx += rtm_view_folder_size(a, kinds[k]);
    return idx + v.frame;
}

static int frame_width(const struct rtm_anim *a)
{
    int w = 1;
    for (uint32_t n = a->nframes ? a->nframes - 1 : 0; n >= 10; n /= 10)
        w++;
    return w < 3 ? 3 : w;
}

void rtm_frame_name(const struct rtm_anim *a, uint32_t frame, char *buf)
{
    snprintf(buf, RTM_VIEW_NAME_MAX, "%0*u.csv", frame_width(a), frame);
}

void rtm_view_entry_name(const struct rtm_anim *a, enum rtm_view_kind kind, uint32_t i,
                         char *buf)
{
    if (kind == RTM_VIEW_TRACK)
        snprintf(buf, RTM_VIEW_NAME_MAX, "%s.csv", a->tracks->form[i]);
    else
        rtm_frame_name(a, i, buf);
}

void rtm_view_path(const struct rtm_anim *a, struct rtm_view v, char *buf)
{
    if ((int)v.kind < RTM_NFIXED_VIEWS) {
        snprintf(buf, RTM_VIEW_PATH_MAX, "%s", FIXED[v.kind]);
        return;
    }
    size_t n = (size_t)sprintf(buf, "%s/", rtm_view_folder_name(v.kind));
    rtm_view_entry_name(a, v.kind, v.frame, buf + n);
}

int rtm_frame_lookup(const struct rtm_anim *a, const char *name, uint32_t *frame)
{
    size_t w = (size_t)frame_width(a);
    if (strlen(name) != w + 4 || strcmp(name + w, ".csv") != 0)
        return -1;
    uint64_t n = 0;
    for (size_t i = 0; i < w; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        n = n * 10 + (uint64_t)(name[i] - '0');
    }
    if (n >= a->nframes)
        return -1;
    *frame = (uint32_t)n;
    return 0;
}

static int track_lookup(const struct rtm_anim *a, const char *name, uint32_t *bone)
{
    size_t n = strlen(name);
    if (!a->tracks || n < 4 || strcmp(name + n - 4, ".csv") != 0)
        return -1;
    int64_t k = rtm_names_find(a->tracks, name, n - 4);
    if (k < 0)
        return -1;
    *bone = (uint32_t)k;
    return 0;
}

int rtm_view_lookup(const struct rtm_anim *a, const char *path, struct rtm_view *v)
{
    for (size_t k = 0; k < rtm_view_nfixed(a); k++) {
        if (strcmp(path, FIXED[k]) == 0) {
            *v = (struct rtm_view){ .kind = (enum rtm_view_kind)k };
            return 0;
        }
    }
    enum rtm_view_kind k;
    const char *folder;
    for (size_t i = 0; (folder = rtm_view_folder(a, i, &k)); i++) {
        size_t n = strlen(folder);
        if (strncmp(path, folder, n) != 0 || path[n] != '/')
            continue;
        int rc = k == RTM_VIEW_TRACK ? track_lookup(a, path + n + 1, &v->bone)
                                     : rtm_frame_lookup(a, path + n + 1, &v->frame);
        if (rc == 0) {
            v->kind = k;
            return 0;
        }
    }
    return -1;
}

int rtm_view_needs_matrices(struct rtm_view v)
{
    /* header.txt counts what only a full parse tallies (rtm.h) */
    return v.kind == RTM_VIEW_FRAME || v.kind == RTM_VIEW_PLAIN || v.kind == RTM_VIEW_BMTR ||
           v.kind == RTM_VIEW_JOINTS ||
           v.kind == RTM_VIEW_MOVING || v.kind == RTM_VIEW_TRACK || v.kind == RTM_VIEW_BVH ||
           v.kind == RTM_VIEW_PREVIEW || v.kind == RTM_VIEW_CHECK ||
           v.kind == RTM_VIEW_HEADER;
}

