/* view_formats.h - what the views say of each source format, private to
 * src/views/: the views' side of the format table (format_table.h),
 * indexed by the same id, so that src/rtm/ never calls up into the views.
 * Nothing outside src/views/ includes this.
 *
 * Contract: view_format_of(a) is a's row, never NULL for an anim whose
 * format has a row in src/rtm/ (the table has one for each id, checked
 * at compile time).  Static and read-only: safe from any thread. */
#ifndef RTM_VIEW_FORMATS_H
#define RTM_VIEW_FORMATS_H

#include "format_table.h"
#include "util.h"

struct view_format {
    /* header.txt's "version:" value when the format has no version
     * number (format_table.h: versioned), and preview.svg's name of it,
     * before " vN" when it has one */
    const char *version_text;
    const char *svg_name;
    /* header.txt's words after "skeleton: NAME", with their newline */
    void (*put_skeleton_note)(const struct rtm_anim *a, struct rtm_buf *b);
    /* header.txt's fields only this format has, named for what rtm(5)
     * says they are (PLAIN RTM, BMTR and BVH SOURCES) */
    void (*put_fields)(const struct rtm_anim *a, struct rtm_buf *b);
};

const struct view_format *view_format_of(const struct rtm_anim *a);

#endif
