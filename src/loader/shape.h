/* shape.h - what the loader's store (store.h) remembers of one version of
 * a source file, as bytes: of an animation its shape, of an archive its
 * table.
 *
 * An animation's shape is what stat, readdir and lookups need, and what
 * bones.txt shows: its format, frame and bone counts, bone names (its
 * tracks/ names follow from them, names.h), whether its skeleton has
 * pivots, and the size of every view known so far (rtm_view_at order);
 * or, for a file that does not parse, the message error.txt shows.
 * A shape anim (rtm_shape_decode) has exactly those: no phases, props,
 * matrices, pivot values or skeleton links, and its depth is
 * RTM_DEPTH_SHAPE (rtm.h).  Only its names, counts and bones.txt may be
 * used: views.h's naming functions and the views whose depth is
 * RTM_DEPTH_SHAPE (rtm_view_depth); the others refuse to render from it.
 *
 * An archive's table is kept as the bytes it was parsed from: its header
 * table and the up to 21 bytes after the last entry's data.
 *
 * Contract: pure functions, no state.  Decoding checks every count
 * against the bytes that carry it, so a damaged record is "not known"
 * (-1), never a crash or a wrong shape of another length.
 */
#ifndef RTM_SHAPE_H
#define RTM_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "rtm.h"

struct pbo;

/* Appends a's shape with sizes (rtm_view_count(a) of them, UINT64_MAX for
 * one not known; NULL: none known), or when a is NULL the error message.  -1 when out of
 * memory. */
int rtm_shape_encode(const struct rtm_anim *a, const uint64_t *sizes, const char *error,
                     struct rtm_buf *out);
/* 0 with *a (the caller frees it with rtm_free) and *sizes (malloc'd,
 * rtm_view_count(*a) of them), or 0 with *a NULL and the message in error
 * (n bytes); -1 when the bytes are no shape (or out of memory). */
int rtm_shape_decode(const void *p, size_t len, struct rtm_anim **a, uint64_t **sizes,
                     char *error, size_t n);

/* An archive's table: the header table's bytes (head, the first
 * p->table_bytes of the file) and what follows the data (tail, up to 21
 * bytes; 0 when none was read). */
int rtm_shape_encode_table(const uint8_t *head, size_t head_len, const uint8_t *tail,
                           size_t tail_len, struct rtm_buf *out);
/* 0 with *p parsed as pbo_load_table() parses the file of size file_size;
 * -1 when the bytes are no table of that file. */
int rtm_shape_decode_table(const void *rec, size_t len, uint64_t file_size, struct pbo **p);

#endif
