/* shared_opts.h - the options both programs take, as data: rtmfs reads
 * them as -o NAME=VALUE, rtmcat as --NAME=VALUE (or its short letter),
 * and both hand the value to one parser here, the model being git's
 * parse-options (one row an option: its name, what it expects, how its
 * value is read).  These are the options that change what the views
 * render: the skeleton, the digits, and how BVH sources are read.  Here
 * too are the rendering key they make (the index's key of a mount's
 * views, loader.h) and the list of views both usage texts print.
 *
 * Contract:
 *  - A name is spelt "bvh_unit" (rtmfs) or "bvh-unit" (rtmcat): either
 *    finds the row; a message names the option as the caller spelt it.
 *  - struct rtm_shared_opts holds no copy: skeleton points at the
 *    caller's string, which must outlive it.  No global state; messages
 *    are returned, never printed.
 */
#ifndef RTM_SHARED_OPTS_H
#define RTM_SHARED_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "mocap_retarget.h"
#include "numfmt.h"
#include "skeleton.h"

/* What the shared options set. */
struct rtm_shared_opts {
    const char *skeleton;           /* the SPEC given (the caller's string), or
                                       NULL: RTM_SKELETON_DEFAULT, and a
                                       model.cfg beside an animation gives
                                       its own (tree.h) */
    int digits;                     /* RTM_DIGITS_EXACT, or decimals (numfmt.h) */
    struct rtm_mocap_opts mocap;    /* BVH unit and frame rate (0: inferred,
                                       every frame); the map is the file's own */
};
#define RTM_SHARED_OPTS_INIT { .skeleton = NULL, .digits = RTM_DIGITS_EXACT }

/* Sets the option called name (either spelling) to value: 0; 1 when name
 * is no shared option (nothing set); -1 with "bad NAME 'VALUE' (what it
 * expects)" in msg (n bytes) when value is not one it takes. */
int rtm_shared_opt_set(struct rtm_shared_opts *o, const char *name, const char *value,
                       char *msg, size_t n);
/* The skeleton SPEC to open: the one given, or RTM_SKELETON_DEFAULT. */
const char *rtm_shared_skeleton(const struct rtm_shared_opts *o);

/* The rendering key of the views of a mount (n bytes): the renderer's
 * version, the digits, the skeleton skel opened from o's SPEC (its name
 * when built in; else its file's identity, or a model.cfg's render_id)
 * and the BVH unit and frame rate.  Equal keys render equal bytes. */
void rtm_render_key(char *out, size_t n, const struct rtm_shared_opts *o,
                    const struct rtm_skeleton *skel);

/* The views of an animation's folder for a usage text, from the view
 * table (views.h) and states.txt: lead, then the names wrapped before
 * column 80 with indent before each further line, then the views that
 * need a skeleton with pivots on a line of their own. */
void rtm_views_usage(FILE *f, const char *lead, const char *indent);

#endif
