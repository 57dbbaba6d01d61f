/* view_rows.h - the functions the view table's rows name (view_table.c),
 * private to src/views/: one prototype for each job a row can do, and who
 * does it where.  Nothing outside src/views/ includes this. */
#ifndef RTM_VIEW_ROWS_H
#define RTM_VIEW_ROWS_H

#include "views.h"

struct rtm_rotations;
struct rtm_timing;

/* What a rendering is given besides the anim: the nearest rotations made
 * once for several views (motion.h; NULL: the view makes its own) and the
 * timing (timing.h; NULL: the empty generation). */
struct view_with {
    const struct rtm_rotations *rot;
    const struct rtm_timing *tm;
};

/* Appends file i of a row (a folder's frame or bone; 0 for a fixed view)
 * to out, setting out->oom when out of memory.  Called only for a file a
 * has (view_table.c checks the row's needs and count first). */
typedef void view_render_fn(const struct rtm_anim *a, uint32_t i, const struct view_with *w,
                            struct rtm_buf *out);
/* The sizes of every file of the row, counted without rendering them:
 * kind k's files from sizes[first[k]] on (first[k] = rtm_view_index of
 * its first, given so that the rows' functions never call back into the
 * table); scratch is a counting buffer (util.h) to measure pieces in.
 * -1 when out of memory. */
typedef int view_measure_fn(const struct rtm_anim *a, const size_t *first,
                            struct rtm_buf *scratch, uint64_t *sizes);
/* The view's size timed by tm from untimed, its empty generation's size
 * (views.h: rtm_view_timed_size). */
typedef int view_timed_size_fn(const struct rtm_anim *a, const struct rtm_timing *tm,
                               uint64_t untimed, uint64_t *size);
/* A folder's files: how many a has, file i's name (RTM_VIEW_NAME_MAX
 * bytes), and the inverse (0 and *i, else -1). */
typedef uint32_t view_count_fn(const struct rtm_anim *a);
typedef void view_entry_name_fn(const struct rtm_anim *a, uint32_t i, char *buf);
typedef int view_entry_lookup_fn(const struct rtm_anim *a, const char *name, uint32_t *i);

/* views.c: the renderers, and the measures that count their bytes. */
view_render_fn view_header, view_bones, view_phases, view_props, view_plain, view_bmtr,
    view_repaired, view_skeleton, view_moving, view_preview, view_check, view_bvh, view_glb,
    view_frame, view_joints,
    view_track;
view_measure_fn measure_bmtr, measure_frames_and_tracks, measure_with_frames, measure_joints;

/* view_names.c: the folders' files. */
view_count_fn count_frames, count_joints, count_tracks;
view_entry_name_fn frame_entry_name, track_entry_name;
view_entry_lookup_fn track_entry_lookup;    /* frames: rtm_frame_lookup (views.h) */

#endif
