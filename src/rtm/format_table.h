/* format_table.h - the source formats, one row each (plain RTM, BMTR,
 * BVH, glTF, GLB, FBX): what any layer asks of a format it reads from the format's row,
 * never by comparing an anim's format with one, as curl's protocol
 * handlers and SQLite's sqlite3_vfs give each backend one struct.
 *
 * Contract:
 *  - The table (format_table.c) holds one row per enum rtm_format
 *    (rtm.h), row i for id i, checked at compile time.  The rows and
 *    every string in them are static and read-only: safe from any thread.
 *  - rtm_format_of(a): a's row.  Never NULL for an anim that a reader,
 *    rtm_anim_alloc() or rtm_shape_decode() made.
 *  - rtm_format_by_id(id): id's row, or NULL when no format has that id
 *    (a number read back from the persistent index, shape.h).
 *  - rtm_format_sniff(data, len): the row whose signature the bytes
 *    start with, or NULL (parse.c's dispatch).
 *  - rtm_format_side_file(name, len): the file beside an animation of
 *    that name (len bytes) that its format's reader takes, or NULL.
 *  - RTM_MADE_FORMAT is the format of an anim made in memory (a writer's
 *    sample, a test's): plain RTM, the one every other is written as.
 *
 * Adding a format: a reader (formats.h), an id at the end of enum
 * rtm_format (before RTM_NFORMATS: the persistent index stores the ids,
 * so an old one never changes meaning), its row below (format_table.c),
 * and its row of header.txt's lines in src/views/view_formats.c; each
 * table fails to compile without the row.  No caller has a branch for
 * "any other format", so a new one is never taken for BMTR.  rtm(5),
 * FORMATS, says the same to a reader of the man page.
 */
#ifndef RTM_FORMATS_TABLE_H
#define RTM_FORMATS_TABLE_H

#include "rtm.h"

struct rtm_format_row {
    enum rtm_format id;
    const char *name;           /* header.txt's "format:" value */
    const char *ext;            /* the end of a file name that is read as it, any case */
    const char *signature;      /* what its files start with, for the message
                                   when no row's sniff knows a file */
    const char *side_file;      /* a file its reader takes from beside the
                                   animation (loader.h), or NULL */
    /* Whether the len bytes start as its files do. */
    int (*sniff)(const uint8_t *data, size_t len);
    /* Its full and head readers (formats.h; rtm_parse_opts,
     * rtm_parse_head): *skel gets the skeleton the reader read the motion
     * onto, or NULL when the parse is to choose one by the bones. */
    int (*read)(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                const struct rtm_skeleton **skel, struct rtm_anim **out,
                struct rtm_error *err);
    int (*head)(const uint8_t *data, size_t len, uint64_t file_size,
                const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                struct rtm_anim **out, uint64_t *need, struct rtm_error *err);

    /* The files beside it that a file's own bytes name (a .gltf's
     * buffers), which are part of its version as its side file is
     * (loader.h), or NULL: 0 with their names, relative to its folder and
     * checked not to leave it, in *names (n of them, one allocation the
     * caller frees), or -1 with err when the bytes do not say. */
    int (*files)(const uint8_t *data, size_t len, char ***names, uint32_t *n,
                 struct rtm_error *err);

    /* The file carries a version number (a->version): BMTR 3..5. */
    unsigned versioned : 1;
    /* Its bytes are plain.rtm's: plain.rtm and fixed.rtm copy them, and
     * they are what the game's binarise reads (and may refuse). */
    unsigned is_plain_rtm : 1;
    /* Its bytes are bmtr.rtm's: bmtr.rtm copies them. */
    unsigned is_bmtr : 1;
    /* Its bone names keep the case they were written in (binarise
     * lower-cases them; a retargeted BVH takes the skeleton's). */
    unsigned names_own_case : 1;
    /* Some bones' matrices were stored relative to their parent and
     * composed with it at parse (rtm(5), CONVERSION). */
    unsigned composes_bones : 1;
    /* Its bones are its skeleton's: the motion is retargeted onto the
     * skeleton, which its listing names (rtm(5), BVH SOURCES), so the
     * config states' choice of a skeleton does not apply. */
    unsigned bones_are_skeletons : 1;
};

#define RTM_MADE_FORMAT RTM_FORMAT_PLAIN

const struct rtm_format_row *rtm_format_of(const struct rtm_anim *a);
const struct rtm_format_row *rtm_format_by_id(uint64_t id);
const struct rtm_format_row *rtm_format_sniff(const uint8_t *data, size_t len);
const char *rtm_format_side_file(const char *name, size_t len);
/* The row of a file of that name whose bytes name files beside it
 * (files), or NULL. */
const struct rtm_format_row *rtm_format_naming_files(const char *name, size_t len);

#endif
