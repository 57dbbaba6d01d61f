/* view_table.c - what every view of an animation is, in one table: read
 * this first.
 *
 * RTM_VIEWS[] has one row for each enum rtm_view_kind (views.h), in that
 * order, which is also the listing order and fixes every view's inode
 * number (rtm_view_at): the fixed views' files first, then the folders
 * frames/, joints/ and tracks/.  A row says all there is to know about
 * how its view is made:
 *
 *   name        the file's name; for a folder, the folder's.
 *   depth       the least anim that renders it (rtm.h: enum rtm_depth):
 *               SHAPE, names and counts only (shape.h); LIGHT, parsed
 *               without matrices (RTM_PARSE_NO_MATRICES); FULL, parsed
 *               with them.  The cache loads that deep (rtmc_view_level)
 *               and a render from a shallower anim (a->depth, set by
 *               its maker) fails: rtm_view_render() -1.
 *               header.txt is FULL for the tallies only a full parse
 *               counts (rtm.h).
 *   needs       what the anim must have for the view to be shown at all:
 *               NEEDS_PIVOTS (a skeleton with pivots: anim.bvh, anim.glb,
 *               joints/),
 *               NEEDS_TRACK_NAMES (tracks/: every parse and shape has
 *               them, an anim filled by hand not; rtm.h).  A
 *               fixed view with needs comes after every fixed view
 *               without, so that the views a has are always the first
 *               kinds (rtm_view_nfixed).
 *   render      appends the bytes (view_rows.h: view_render_fn), called
 *               only for a file a has.
 *   measure     sizes all the row's files without rendering them, for
 *               rtm_view_sizes(); NULL: rendered into a counting buffer.
 *   timed       TIMED(slot) when a timing (timing.h) changes the bytes:
 *               the view's slot among the timed ones (rtm_view_timed_slot),
 *               0, 1, ... in table order, RTM_NTIMED_VIEWS of them, and
 *               TIMED_SIZE[slot] the timed size from the untimed one.
 *   count, entry_name, entry_lookup, usage
 *               a folder's only: how many files a has in it, file i's
 *               name, a name back to i, and its files as usage texts
 *               name them ("frames/NNN.csv").  Folders get ordinals 0, 1,
 *               ... in table order (rtm_view_folder_ordinal).
 *
 * Every question about a view - its name, its depth, whether it is timed,
 * how it is rendered or sized - is answered from its row here, so that
 * no other layer names a particular view.  Adding one: a kind in views.h
 * (before the folders, after the last fixed view that needs nothing), a
 * row here, its renderer in views.c; the new bytes change
 * RTM_RENDER_VERSION (test_render_version says to what).
 */
#include "view_rows.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "bvh.h"
#include "glb_view.h"
#include "motion.h"
#include "svg.h"

enum { NEEDS_PIVOTS = 1, NEEDS_TRACK_NAMES = 2 };

struct view_row {
    const char *name;
    enum rtm_depth depth;
    unsigned needs;
    view_render_fn *render;
    view_measure_fn *measure;
    unsigned timed;                     /* 0, or the timed slot + 1 */
    view_count_fn *count;
    view_entry_name_fn *entry_name;
    view_entry_lookup_fn *entry_lookup;
    const char *usage;
};

/* The timed views' slots in table order, and how each one's timed size
 * follows from its untimed one: the compiler counts them. */
enum { TIMED_PREVIEW, TIMED_BVH, TIMED_GLB, NTIMED };
_Static_assert((int)NTIMED == (int)RTM_NTIMED_VIEWS, "RTM_NTIMED_VIEWS counts the timed slots");
static view_timed_size_fn *const TIMED_SIZE[NTIMED] = {
    [TIMED_PREVIEW] = rtm_svg_timed_size,
    [TIMED_BVH] = rtm_anim_bvh_timed_size,
    [TIMED_GLB] = rtm_anim_glb_timed_size,
};
#define TIMED(slot) .timed = (slot) + 1

static const struct view_row RTM_VIEWS[] = {
    [RTM_VIEW_HEADER] = { .name = "header.txt", .depth = RTM_DEPTH_FULL,
                          .render = view_header },
    [RTM_VIEW_BONES] = { .name = "bones.txt", .depth = RTM_DEPTH_SHAPE,
                         .render = view_bones },
    [RTM_VIEW_PHASES] = { .name = "phases.csv", .depth = RTM_DEPTH_LIGHT,
                          .render = view_phases },
    [RTM_VIEW_PROPS] = { .name = "props.json", .depth = RTM_DEPTH_LIGHT,
                         .render = view_props },
    [RTM_VIEW_PLAIN] = { .name = "plain.rtm", .depth = RTM_DEPTH_FULL,
                         .render = view_plain },
    [RTM_VIEW_BMTR] = { .name = "bmtr.rtm", .depth = RTM_DEPTH_FULL,
                        .render = view_bmtr, .measure = measure_bmtr },
    [RTM_VIEW_REPAIRED] = { .name = "fixed.rtm", .depth = RTM_DEPTH_FULL,
                            .render = view_repaired },
    [RTM_VIEW_SKELETON] = { .name = "skeleton.txt", .depth = RTM_DEPTH_LIGHT,
                            .render = view_skeleton },
    [RTM_VIEW_MOVING] = { .name = "moving.txt", .depth = RTM_DEPTH_FULL,
                          .render = view_moving },
    [RTM_VIEW_PREVIEW] = { .name = "preview.svg", .depth = RTM_DEPTH_FULL,
                           .render = view_preview, TIMED(TIMED_PREVIEW) },
    [RTM_VIEW_CHECK] = { .name = "check.txt", .depth = RTM_DEPTH_FULL,
                         .render = view_check },
    [RTM_VIEW_BVH] = { .name = "anim.bvh", .depth = RTM_DEPTH_FULL, .needs = NEEDS_PIVOTS,
                       .render = view_bvh, TIMED(TIMED_BVH) },
    [RTM_VIEW_GLB] = { .name = "anim.glb", .depth = RTM_DEPTH_FULL, .needs = NEEDS_PIVOTS,
                       .render = view_glb, TIMED(TIMED_GLB) },
    [RTM_VIEW_FRAME] = { .name = "frames", .depth = RTM_DEPTH_FULL,
                         .render = view_frame, .measure = measure_frames_and_tracks,
                         .count = count_frames, .entry_name = frame_entry_name,
                         .entry_lookup = rtm_frame_lookup, .usage = "frames/NNN.csv" },
    [RTM_VIEW_JOINTS] = { .name = "joints", .depth = RTM_DEPTH_FULL, .needs = NEEDS_PIVOTS,
                          .render = view_joints, .measure = measure_joints,
                          .count = count_joints, .entry_name = frame_entry_name,
                          .entry_lookup = rtm_frame_lookup, .usage = "joints/NNN.csv" },
    [RTM_VIEW_TRACK] = { .name = "tracks", .depth = RTM_DEPTH_FULL,
                         .needs = NEEDS_TRACK_NAMES,
                         .render = view_track, .measure = measure_with_frames,
                         .count = count_tracks, .entry_name = track_entry_name,
                         .entry_lookup = track_entry_lookup, .usage = "tracks/BONE.csv" },
};

#define NROWS (sizeof RTM_VIEWS / sizeof *RTM_VIEWS)
_Static_assert(NROWS == RTM_NVIEW_KINDS, "one row for each view kind");
/* The fixed views are the kinds before the first folder's (the rows from
 * RTM_VIEW_FRAME on are the folders; test_view_table checks each row). */
_Static_assert((int)RTM_NFIXED_VIEWS == (int)RTM_VIEW_FRAME, "the fixed views come before the folders");
_Static_assert(RTM_NFOLDER_KINDS == RTM_NVIEW_KINDS - RTM_NFIXED_VIEWS, "the rest are folders");

/* The row of kind, or NULL for a number that is no kind. */
static const struct view_row *row_of(enum rtm_view_kind kind)
{
    return (unsigned)kind < NROWS ? &RTM_VIEWS[kind] : NULL;
}

static int is_folder(const struct view_row *r)
{
    return r->count != NULL;
}

/* Whether a shows r's view or folder at all. */
static int shown(const struct rtm_anim *a, const struct view_row *r)
{
    return !((r->needs & NEEDS_PIVOTS) && !a->pivot) &&
           !((r->needs & NEEDS_TRACK_NAMES) && !a->tracks);
}

/* Whether a holds what r's view is made of (rtm.h: enum rtm_depth): the
 * one check of an anim against a view, so that no renderer meets fields
 * its anim's maker left empty (a shape's phases, a light parse's
 * matrices). */
static int deep_enough(const struct rtm_anim *a, const struct view_row *r)
{
    return r->depth <= a->depth;
}

/* Whether a has file i of r (0 for a fixed view). */
static int has_file(const struct rtm_anim *a, const struct view_row *r, uint32_t i)
{
    return shown(a, r) && (!is_folder(r) || i < r->count(a));
}

/* ---- what the rows say, one kind at a time ---- */

const char *rtm_view_usage_name(enum rtm_view_kind kind, int *pivots)
{
    const struct view_row *r = row_of(kind);
    *pivots = r && (r->needs & NEEDS_PIVOTS);
    return !r ? NULL : is_folder(r) ? r->usage : r->name;
}

enum rtm_depth rtm_view_depth(enum rtm_view_kind kind)
{
    const struct view_row *r = row_of(kind);
    return r ? r->depth : RTM_DEPTH_LIGHT;
}

int rtm_view_needs_matrices(struct rtm_view v)
{
    return rtm_view_depth(v.kind) == RTM_DEPTH_FULL;
}

int rtm_view_timed(enum rtm_view_kind kind)
{
    return rtm_view_timed_slot(kind) >= 0;
}

/* The place of row k among the rows that have (what has picks), or -1. */
static int ordinal(size_t k, int (*has)(const struct view_row *))
{
    if (k >= NROWS || !has(&RTM_VIEWS[k]))
        return -1;
    int n = 0;
    for (size_t i = 0; i < k; i++)
        n += has(&RTM_VIEWS[i]) != 0;
    return n;
}

/* The inverse: the kind of the n-th row that has; NROWS past the last. */
static enum rtm_view_kind nth(size_t n, int (*has)(const struct view_row *))
{
    size_t k = 0;
    for (; k < NROWS; k++)
        if (has(&RTM_VIEWS[k]) && n-- == 0)
            break;
    return (enum rtm_view_kind)k;
}

int rtm_view_timed_slot(enum rtm_view_kind kind)
{
    const struct view_row *r = row_of(kind);
    return r && r->timed ? (int)r->timed - 1 : -1;
}

enum rtm_view_kind rtm_view_timed_kind(size_t slot)
{
    size_t k = 0;
    while (k < NROWS && RTM_VIEWS[k].timed != slot + 1)
        k++;
    return (enum rtm_view_kind)k;
}

int rtm_view_folder_ordinal(enum rtm_view_kind kind)
{
    return ordinal((size_t)kind, is_folder);
}

enum rtm_view_kind rtm_view_folder_kind(size_t ordinal)
{
    return nth(ordinal, is_folder);
}

/* ---- names ---- */

const char *rtm_view_fixed_name(enum rtm_view_kind kind)
{
    const struct view_row *r = row_of(kind);
    return r && !is_folder(r) ? r->name : NULL;
}

const char *rtm_view_folder_name(enum rtm_view_kind kind)
{
    const struct view_row *r = row_of(kind);
    return r && is_folder(r) ? r->name : NULL;
}

int rtm_view_name_kind(const char *name, enum rtm_view_kind *kind)
{
    for (size_t k = 0; k < NROWS; k++) {
        const struct view_row *r = &RTM_VIEWS[k];
        size_t n = strlen(r->name);
        if (is_folder(r) ? strncmp(name, r->name, n) == 0 && (name[n] == '/' || !name[n])
                         : strcmp(name, r->name) == 0) {
            *kind = (enum rtm_view_kind)k;
            return 0;
        }
    }
    return -1;
}

/* The fixed views a has are the first kinds, up to the first it lacks. */
size_t rtm_view_nfixed(const struct rtm_anim *a)
{
    size_t k = 0;
    while (k < NROWS && !is_folder(&RTM_VIEWS[k]) && shown(a, &RTM_VIEWS[k]))
        k++;
    return k;
}

const char *rtm_view_folder(const struct rtm_anim *a, size_t i, enum rtm_view_kind *kind)
{
    for (size_t k = 0; k < NROWS; k++) {
        const struct view_row *r = &RTM_VIEWS[k];
        if (is_folder(r) && shown(a, r) && i-- == 0) {
            *kind = (enum rtm_view_kind)k;
            return r->name;
        }
    }
    return NULL;
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
    const struct view_row *r = row_of(kind);
    return r && is_folder(r) ? r->count(a) : 0;
}

void rtm_view_entry_name(const struct rtm_anim *a, enum rtm_view_kind kind, uint32_t i,
                         char *buf)
{
    const struct view_row *r = row_of(kind);
    if (r && is_folder(r))
        r->entry_name(a, i, buf);
    else
        rtm_frame_name(a, i, buf);
}

/* ---- every view in listing order ---- */

/* The row of the folder a shows after row k (SIZE_MAX: the first), or
 * NROWS past the last: one pass over the table, as every view's number
 * is asked on every lookup and listing. */
static size_t next_folder(const struct rtm_anim *a, size_t k)
{
    while (++k < NROWS && !(is_folder(&RTM_VIEWS[k]) && shown(a, &RTM_VIEWS[k])))
        ;
    return k;
}

size_t rtm_view_count(const struct rtm_anim *a)
{
    size_t n = rtm_view_nfixed(a);
    for (size_t k = next_folder(a, SIZE_MAX); k < NROWS; k = next_folder(a, k))
        n += RTM_VIEWS[k].count(a);
    return n;
}

struct rtm_view rtm_view_at(const struct rtm_anim *a, size_t i)
{
    size_t nfixed = rtm_view_nfixed(a);
    if (i < nfixed)
        return (struct rtm_view){ .kind = (enum rtm_view_kind)i };
    i -= nfixed;
    size_t k = next_folder(a, SIZE_MAX), next;     /* frames/: always shown */
    while (i >= RTM_VIEWS[k].count(a) && (next = next_folder(a, k)) < NROWS) {
        i -= RTM_VIEWS[k].count(a);
        k = next;
    }
    return (struct rtm_view){ .kind = (enum rtm_view_kind)k, .frame = (uint32_t)i };
}

size_t rtm_view_index(const struct rtm_anim *a, struct rtm_view v)
{
    const struct view_row *r = row_of(v.kind);
    if (r && !is_folder(r))
        return (size_t)v.kind;
    /* the rows before v's that a shows, fixed views counting one and
     * folders their files: the fixed rows come first, anim.bvh and anim.glb
     * (the ones a may lack) last among them, so this is rtm_view_nfixed's count and
     * the folders' in one pass (every stat asks it) */
    size_t idx = 0;
    for (size_t k = 0; k < NROWS && k != (size_t)v.kind; k++)
        if (shown(a, &RTM_VIEWS[k]))
            idx += is_folder(&RTM_VIEWS[k]) ? RTM_VIEWS[k].count(a) : 1;
    return idx + v.frame;
}

void rtm_view_path(const struct rtm_anim *a, struct rtm_view v, char *buf)
{
    const struct view_row *r = row_of(v.kind);
    if (!r) {
        buf[0] = '\0';
        return;
    }
    if (!is_folder(r)) {
        snprintf(buf, RTM_VIEW_PATH_MAX, "%s", r->name);
        return;
    }
    size_t n = (size_t)sprintf(buf, "%s/", r->name);
    r->entry_name(a, v.frame, buf + n);
}

int rtm_view_lookup(const struct rtm_anim *a, const char *path, struct rtm_view *v)
{
    for (size_t k = 0; k < rtm_view_nfixed(a); k++) {
        if (strcmp(path, RTM_VIEWS[k].name) == 0) {
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
        if (RTM_VIEWS[k].entry_lookup(a, path + n + 1, &v->frame) == 0) {
            v->kind = k;
            return 0;
        }
    }
    return -1;
}

/* ---- rendering and sizing, by the row ---- */

/* A view of a, timed by tm (NULL: the empty generation), with the nearest
 * rotations made once (NULL: each view makes its own).  A file a lacks
 * renders empty. */
static int render(const struct rtm_anim *a, struct rtm_view v, const struct rtm_rotations *rot,
                  const struct rtm_timing *tm, struct rtm_buf *out)
{
    const struct view_row *r = row_of(v.kind);
    if (!r)
        return out->oom ? -1 : 0;
    if (!deep_enough(a, r))
        return -1;
    struct view_with w = { rot, tm };
    if (has_file(a, r, v.frame))
        r->render(a, v.frame, &w, out);
    return out->oom ? -1 : 0;
}

int rtm_view_render_timed(const struct rtm_anim *a, struct rtm_view v,
                          const struct rtm_timing *tm, struct rtm_buf *out)
{
    return render(a, v, NULL, tm, out);
}

int rtm_view_render(const struct rtm_anim *a, struct rtm_view v, struct rtm_buf *out)
{
    return render(a, v, NULL, NULL, out);
}

int rtm_view_timed_size(const struct rtm_anim *a, struct rtm_view v, const struct rtm_timing *tm,
                        uint64_t untimed, uint64_t *size)
{
    const struct view_row *r = row_of(v.kind);
    *size = untimed;
    if (r && !deep_enough(a, r))
        return -1;
    if (r && r->timed && has_file(a, r, v.frame))
        return TIMED_SIZE[r->timed - 1](a, tm, untimed, size);
    return 0;
}

/* The most memory rtm_view_sizes() gives the rotations moving.txt,
 * anim.bvh and anim.glb share (motion.h), so that sizing never holds much
 * beside the anim; a larger anim has each view make its own, frame by frame. */
enum { SHARED_ROTATIONS_MAX = 4 << 20 };

/* The views without a measure are rendered into a counting buffer
 * (util.h), so that sizing a file whose anim.bvh is tens of megabytes
 * holds 64 KiB of it. */
enum { SIZING_WINDOW = 64 * 1024 };

/* Every row that measures its files does so, once. */
static int measure_rows(const struct rtm_anim *a, struct rtm_buf *counting, uint64_t *sizes)
{
    size_t first[NROWS];
    for (size_t k = 0; k < NROWS; k++)
        first[k] = rtm_view_index(a, (struct rtm_view){ .kind = (enum rtm_view_kind)k });
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < NROWS; k++)
        if (RTM_VIEWS[k].measure && shown(a, &RTM_VIEWS[k]))
            rc = RTM_VIEWS[k].measure(a, first, counting, sizes);
    return rc;
}

int rtm_view_sizes(const struct rtm_anim *a, uint64_t *sizes)
{
    if (a->depth < RTM_DEPTH_FULL || !a->tracks)
        return -1;
    struct rtm_buf counting;
    rtm_buf_init_counting(&counting, SIZING_WINDOW);
    int rc = measure_rows(a, &counting, sizes);
    struct rtm_rotations rot = { NULL, NULL };
    int shared = a->pivot && rtm_rotations_bytes(a) <= SHARED_ROTATIONS_MAX &&
                 rtm_rotations_make(a, &rot) == 0;
    for (size_t i = 0; rc == 0 && i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        if (RTM_VIEWS[v.kind].measure)
            continue;
        counting.len = 0;
        counting.passed = 0;
        rc = render(a, v, shared ? &rot : NULL, NULL, &counting);
        sizes[i] = rtm_buf_total(&counting);
    }
    rtm_rotations_free(&rot);
    rtm_buf_free(&counting);
    return rc;
}
