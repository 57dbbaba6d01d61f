/* views.h - the files that show one animation: names, lookup and rendering.
 *
 * Contract:
 *  - An animation has the file views header.txt, bones.txt, phases.csv,
 *    props.json, plain.rtm, bmtr.rtm (binarise.h), fixed.rtm (repair.h:
 *    plain.rtm with only the bones its skeleton holds), skeleton.txt,
 *    moving.txt, preview.svg (svg.h),
 *    check.txt (check.h),
 *    when its skeleton has pivots anim.bvh (bvh.h) and anim.glb
 *    (glb_view.h), one frames/NNN.csv a frame (NNN zero-padded
 *    to at least 3 digits, wider when there are more than 1000 frames), with
 *    pivots one joints/NNN.csv a frame, and one tracks/NAME.csv a bone (NAME
 *    from names.h's file rule: found exactly or ignoring case).
 *  - Frames, tracks, joints, phases and props write numbers as a->digits
 *    says (rtm.h); plain.rtm, bmtr.rtm and fixed.rtm are the same bytes
 *    whatever it says.
 *  - rtm_view_render() appends a view's exact bytes to a caller-owned buffer;
 *    the same anim always renders the same bytes.  It returns -1 only when
 *    out of memory.  Rendering reads the anim and never changes it, so
 *    threads may render views of one anim at once.
 *  - rtm_view_pbo_info() is the same for an archive's table (pbo.h).
 *  - What each view is - its name, the parse it needs, whether a timing
 *    changes it, how it is rendered and sized - is one row of the view
 *    table, view_table.c: read that first.  The queries below answer from
 *    it, so that other layers need not name a particular view.
 */
#ifndef RTM_VIEWS_H
#define RTM_VIEWS_H

#include <stddef.h>

#include "rtm.h"

/* The renderer's version: it changes whenever the bytes of any view of any
 * animation change, so that what was remembered of a rendering (the
 * persistent index's sizes) is never taken for another.  test_render_version
 * pins it to a hash of every view of fixed fixtures: a change of bytes fails
 * that test until this number is bumped with the new hash. */
#define RTM_RENDER_VERSION 6

enum rtm_view_kind {
    RTM_VIEW_HEADER,
    RTM_VIEW_BONES,
    RTM_VIEW_PHASES,
    RTM_VIEW_PROPS,
    RTM_VIEW_PLAIN,
    RTM_VIEW_BMTR,      /* bmtr.rtm */
    RTM_VIEW_REPAIRED,  /* fixed.rtm (repair.h): "repaired", not to be read
                           as one of the fixed (single-file) views */
    RTM_VIEW_SKELETON,
    RTM_VIEW_MOVING,
    RTM_VIEW_PREVIEW,   /* preview.svg */
    RTM_VIEW_CHECK,     /* check.txt (check.h) */
    RTM_VIEW_BVH,       /* anim.bvh: only with pivots */
    RTM_VIEW_GLB,       /* anim.glb (glb_view.h): only with pivots */
    RTM_VIEW_FRAME,     /* frames/NNN.csv */
    RTM_VIEW_JOINTS,    /* joints/NNN.csv */
    RTM_VIEW_TRACK,     /* tracks/NAME.csv */
};

enum {
    RTM_NVIEW_KINDS = RTM_VIEW_TRACK + 1,
    RTM_NFIXED_VIEWS = 13,              /* the most: anim.bvh, anim.glb need pivots */
    RTM_NFOLDER_KINDS = 3,              /* frames/, joints/, tracks/ */
    RTM_NTIMED_VIEWS = 3,               /* preview.svg, anim.bvh, anim.glb */
    RTM_VIEW_NAME_MAX = 256,            /* a folder entry's name, with its NUL */
    RTM_VIEW_PATH_MAX = 8 + RTM_VIEW_NAME_MAX,
};

struct rtm_view {
    enum rtm_view_kind kind;
    union {
        uint32_t frame; /* RTM_VIEW_FRAME, RTM_VIEW_JOINTS */
        uint32_t bone;  /* RTM_VIEW_TRACK */
    };
};

/* The least depth of anim (rtm.h: enum rtm_depth) that renders a view of
 * kind: names and counts (a shape, shape.h), a parse without matrices
 * (RTM_PARSE_NO_MATRICES), or a full one. */
enum rtm_depth rtm_view_depth(enum rtm_view_kind kind);

/* "header.txt" ... "check.txt", "anim.bvh", "anim.glb" for the fixed views; NULL for the others. */
const char *rtm_view_fixed_name(enum rtm_view_kind kind);
/* kind's view as a usage text names it: a fixed view's name, a folder's
 * files ("frames/NNN.csv"); *pivots 1 when only a skeleton with pivots
 * shows it.  NULL for a number that is no kind. */
const char *rtm_view_usage_name(enum rtm_view_kind kind, int *pivots);
/* The kind of view name (a path in an animation's folder) is or leads to:
 * a fixed view's name, a folder's, or a path in a folder.  Decided from
 * the name alone, for any anim (anim.bvh, anim.glb and joints/ match even where
 * there are no pivots): 0 and *kind, else -1. */
int rtm_view_name_kind(const char *name, enum rtm_view_kind *kind);
/* How many fixed views a has: the first that many kinds. */
size_t rtm_view_nfixed(const struct rtm_anim *a);
/* The folders of an animation: "frames", "joints" when it has pivots, and
 * "tracks".  The i-th folder's name and kind, or NULL past the last. */
const char *rtm_view_folder(const struct rtm_anim *a, size_t i, enum rtm_view_kind *kind);
/* The name of the folder of kind (RTM_VIEW_FRAME, _JOINTS or _TRACK);
 * NULL for a kind that is no folder. */
const char *rtm_view_folder_name(enum rtm_view_kind kind);
/* The folder kinds numbered 0 .. RTM_NFOLDER_KINDS - 1 in enum order:
 * kind's number (-1 for a kind that is no folder), and the inverse. */
int rtm_view_folder_ordinal(enum rtm_view_kind kind);
enum rtm_view_kind rtm_view_folder_kind(size_t ordinal);
/* Whether name is one of a's folders (0, with its kind), else -1. */
int rtm_view_folder_lookup(const struct rtm_anim *a, const char *name, enum rtm_view_kind *kind);
/* The files of a's folder of kind, and the i-th one's name (buf needs
 * RTM_VIEW_NAME_MAX bytes). */
uint32_t rtm_view_folder_size(const struct rtm_anim *a, enum rtm_view_kind kind);
void rtm_view_entry_name(const struct rtm_anim *a, enum rtm_view_kind kind, uint32_t i,
                         char *buf);
/* Every view in listing order: the fixed views, then each folder's files. */
size_t rtm_view_count(const struct rtm_anim *a);
struct rtm_view rtm_view_at(const struct rtm_anim *a, size_t i);
/* The inverse: v's place in that order (below rtm_view_count(a) for a view
 * of a). */
size_t rtm_view_index(const struct rtm_anim *a, struct rtm_view v);
/* "header.txt", "frames/012.csv", "tracks/Pelvis.csv"; buf needs
 * RTM_VIEW_PATH_MAX bytes. */
void rtm_view_path(const struct rtm_anim *a, struct rtm_view v, char *buf);
/* "012.csv" for frame 12. */
void rtm_frame_name(const struct rtm_anim *a, uint32_t frame, char *buf);
/* Inverse of rtm_frame_name / rtm_view_path: 0 and *v on a match, else -1. */
int rtm_frame_lookup(const struct rtm_anim *a, const char *name, uint32_t *frame);
int rtm_view_lookup(const struct rtm_anim *a, const char *path, struct rtm_view *v);

/* Whether v needs what RTM_PARSE_NO_MATRICES leaves out. */
int rtm_view_needs_matrices(struct rtm_view v);
/* -1 when out of memory, or when v's depth (rtm_view_depth) is more than
 * a->depth: a view never renders from fields its anim's maker left empty. */
int rtm_view_render(const struct rtm_anim *a, struct rtm_view v, struct rtm_buf *out);
/* The same timed by tm (timing.h; NULL: the empty generation, as above):
 * only preview.svg, anim.bvh and anim.glb depend on it (rtm_view_timed). */
struct rtm_timing;
int rtm_view_render_timed(const struct rtm_anim *a, struct rtm_view v,
                          const struct rtm_timing *tm, struct rtm_buf *out);
int rtm_view_timed(enum rtm_view_kind k);
/* The timed kinds numbered 0 .. RTM_NTIMED_VIEWS - 1 in enum order (a
 * cache's slots for them): kind's number (-1 for an untimed kind), and
 * the inverse. */
int rtm_view_timed_slot(enum rtm_view_kind kind);
enum rtm_view_kind rtm_view_timed_kind(size_t slot);

/* The size of v timed by tm, in *size, from untimed, its size in the empty
 * generation (rtm_view_sizes'): the same number as rendering it timed,
 * measuring only what a timing changes (svg.h, bvh.h).  -1 as
 * rtm_view_render_timed(). */
int rtm_view_timed_size(const struct rtm_anim *a, struct rtm_view v, const struct rtm_timing *tm,
                        uint64_t untimed, uint64_t *size);

/* Every view's size, sizes[i] for rtm_view_at(a, i) (rtm_view_count(a) of
 * them), in one pass: the rows frames/ and tracks/ share are measured
 * once, joints/ measured too, the other views rendered into a counting
 * buffer (util.h), so the
 * memory it takes beyond the anim's is bounded (64 KiB, and arrays of a
 * view's bones or frames), whatever the views' sizes.
 * The same numbers as rendering each view.  -1 when out of memory, or when
 * a is not RTM_DEPTH_FULL or has no track names (filled by hand: rtm.h). */
int rtm_view_sizes(const struct rtm_anim *a, uint64_t *sizes);

/* An archive's folder holds, besides its entries, one file of its own:
 * pbo.txt, "key: value" lines with the archive's sizes, its trailer and its
 * header properties ("property KEY: VALUE", in file order).  Bytes outside
 * printable ASCII (and ':' or space in a key) are written as \xNN. */
#define RTM_PBO_INFO_NAME "pbo.txt"
struct pbo;
/* tail: the bytes at p's data_end (pbo_load_tail) when its trailer is
 * unknown, which say what it is (NULL, 0: "trailer: not read").  -1 when
 * out of memory. */
int rtm_view_pbo_info(const struct pbo *p, const uint8_t *tail, size_t tail_len,
                      struct rtm_buf *out);

#endif
