/* views.c - every view renderer, in one place (their names and lookups:
 * view_names.c). */
#include "views.h"

#include <stdio.h>
#include <stdlib.h>

#include "binarise.h"
#include "bvh.h"
#include "check.h"
#include "motion.h"
#include "numfmt.h"
#include "pbo.h"
#include "pivots.h"
#include "svg.h"

/* An anim made without rtm_parse (a writer's) has no skeleton copy. */
static const char *skeleton_name(const struct rtm_anim *a)
{
    return a->skeleton_name ? a->skeleton_name : "none";
}
static int32_t skel_parent(const struct rtm_anim *a, uint32_t b)
{
    return a->skel_parent ? a->skel_parent[b] : -1;
}
static int in_skeleton(const struct rtm_anim *a, uint32_t b)
{
    return a->in_skeleton && a->in_skeleton[b];
}

static uint32_t uncomposed(const struct rtm_anim *a)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->nbones; i++)
        n += skel_parent(a, i) < 0;
    return n;
}

/* header.txt is a summary, not a frame: there -0 and 0 mean the same to
 * its reader, so -0 is written 0.  (The frames keep -0: diff of two frames
 * must tell every bit.) */
static void put_summary_float(struct rtm_buf *b, float v)
{
    rtm_put_float(b, v == 0.0f ? 0.0f : v);
}

/* The motion vector is the displacement over the animation, in the model's
 * metres (rtm(5), RTM_0101 block and Matrices): each number says its axis. */
static void put_motion(const struct rtm_anim *a, struct rtm_buf *b)
{
    static const char AXIS[3] = { 'x', 'y', 'z' };
    buf_puts(b, "motion:");
    for (int i = 0; i < 3; i++) {
        buf_printf(b, " %c ", AXIS[i]);
        put_summary_float(b, a->motion[i]);
    }
    buf_puts(b, " (metres)\n");
}

/* One line each, so that a script reads either with one sed. */
static void put_phase_range(const struct rtm_anim *a, struct rtm_buf *b)
{
    if (!a->nframes) {
        buf_puts(b, "first_phase: none\nlast_phase: none\n");
        return;
    }
    buf_puts(b, "first_phase: ");
    put_summary_float(b, a->phases[0]);
    buf_puts(b, "\nlast_phase: ");
    put_summary_float(b, a->phases[a->nframes - 1]);
    buf_putc(b, '\n');
}

static void put_skeleton(const struct rtm_anim *a, struct rtm_buf *b)
{
    struct rtm_str name = { skeleton_name(a), (uint32_t)strlen(skeleton_name(a)) };
    buf_puts(b, "skeleton: ");
    rtm_put_name(b, name);
    if (a->format == RTM_FORMAT_PLAIN)
        buf_puts(b, " (used for pivots and bmtr.rtm: plain matrices are already model-space)\n");
    else
        buf_printf(b, " (%u of %u bones composed with a parent)\n", a->composed, a->nbones);
    /* where the joints come from, or why there are none */
    uint32_t known = 0, placed = 0;
    for (uint32_t i = 0; a->pivot && i < a->nbones; i++) {
        known += in_skeleton(a, i);
        placed += in_skeleton(a, i) && a->pivot_placed[i];
    }
    if (a->pivot)
        buf_printf(b, "rest_pose: pivots of %u of %u bones, %u placed by a rule "
                   "(skeleton.txt)\n", known, a->nbones, placed);
    else
        buf_puts(b, "rest_pose: none: the skeleton has no pivots, so no joints/ or anim.bvh "
                 "(mount with one that has, e.g. ofp2)\n");
}

/* The fields only one format has, named for what rtm(5) says they are
 * (PLAIN RTM and BMTR), not for where they sit in the file. */
static void put_format_fields(const struct rtm_anim *a, struct rtm_buf *b)
{
    if (a->format == RTM_FORMAT_PLAIN) {
        buf_printf(b, "mdat_properties_block: %s\ntrailing_bytes: %llu\n",
                   a->has_mdat ? "yes" : "no", (unsigned long long)a->trailing_bytes);
        return;
    }
    buf_printf(b, "compression_flag_per_array: %s\nreversed_flag: %u\n"
               "engine_preload_count: %u\n",
               a->flag_bytes ? "yes" : "no", a->bmtr_byte8, a->preload_count);
    if (a->version >= 4)
        buf_printf(b, "metadata_strings: %u\n", a->nmeta);
}

static void render_header(const struct rtm_anim *a, struct rtm_buf *b)
{
    int plain = a->format == RTM_FORMAT_PLAIN;
    buf_printf(b, "format: %s\n", plain ? "plain" : "bmtr");
    if (plain)
        buf_puts(b, "version: RTM_0101\n");
    else
        buf_printf(b, "version: %u\n", a->version);
    buf_printf(b, "frames: %u\nbones: %u\nproperties: %u\n", a->nframes, a->nbones, a->nprops);
    put_motion(a, b);
    put_phase_range(a, b);
    put_skeleton(a, b);
    buf_printf(b, "uncomposed: %u (bones with no parent here; skeleton.txt names them)\n",
               uncomposed(a));
    buf_printf(b, "matrices_left_out: %llu (NaN, infinite or determinant <= 0: "
               "not measured in moving.txt)\n", (unsigned long long)a->unusable);
    buf_printf(b, "scaled_bones: %u (matrices not rotations: orthonormalised in moving.txt "
               "and anim.bvh)\n", a->scaled_bones);
    buf_printf(b, "source_bytes: %llu\n", (unsigned long long)a->source_bytes);
    put_format_fields(a, b);
}

static void render_bones(const struct rtm_anim *a, struct rtm_buf *b)
{
    for (uint32_t i = 0; i < a->nbones; i++) {
        rtm_put_name(b, a->bones[i]);
        buf_putc(b, '\n');
    }
}

static void render_phases(const struct rtm_anim *a, struct rtm_buf *b)
{
    buf_puts(b, "frame,phase\n");
    for (uint32_t f = 0; f < a->nframes; f++) {
        buf_printf(b, "%u,", f);
        rtm_put_num(b, a->phases[f], a->digits);
        buf_putc(b, '\n');
    }
}

static void render_props(const struct rtm_anim *a, struct rtm_buf *b)
{
    if (!a->nprops) {
        buf_puts(b, "[]\n");
        return;
    }
    buf_puts(b, "[\n");
    for (uint32_t i = 0; i < a->nprops; i++) {
        const struct rtm_prop *p = &a->props[i];
        buf_puts(b, "  {\"phase\": ");
        rtm_put_json_num(b, p->phase, a->digits);
        buf_puts(b, ", \"name\": ");
        rtm_put_json_name(b, p->name);
        buf_puts(b, ", \"value\": ");
        rtm_put_json_name(b, p->value);
        buf_puts(b, i + 1 < a->nprops ? "},\n" : "}\n");
    }
    buf_puts(b, "]\n");
}

#define MATRIX_COLUMNS "m11,m12,m13,m21,m22,m23,m31,m32,m33,m41,m42,m43\n"

/* ",m11,...,m43\n": the numbers frames/ and tracks/ share, byte for byte. */
static void put_matrix_row(const struct rtm_anim *a, const float *m, struct rtm_buf *b)
{
    if (buf_reserve(b, 12 * (RTM_FLOAT_CHARS + 1) + 1))
        return;
    char *o = b->p + b->len;
    for (int k = 0; k < 12; k++) {
        *o++ = ',';
        o += rtm_fmt_num(m[k], a->digits, o);
    }
    *o++ = '\n';
    b->len = (size_t)(o - b->p);
}

static void render_frame(const struct rtm_anim *a, uint32_t f, struct rtm_buf *b)
{
    buf_puts(b, "bone," MATRIX_COLUMNS);
    for (uint32_t i = 0; i < a->nbones; i++) {
        rtm_put_csv_name(b, a->bones[i]);
        put_matrix_row(a, rtm_matrix(a, f, i), b);
    }
}

/* tracks/NAME.csv: one bone through every frame, in file order. */
static void render_track(const struct rtm_anim *a, uint32_t bone, struct rtm_buf *b)
{
    buf_puts(b, "frame,phase," MATRIX_COLUMNS);
    for (uint32_t f = 0; f < a->nframes; f++) {
        buf_printf(b, "%u,", f);
        rtm_put_num(b, a->phases[f], a->digits);
        put_matrix_row(a, rtm_matrix(a, f, bone), b);
    }
}

/* moving.txt: NAME ROTATION_DEG TRANSLATION_M for each bone that moves
 * (motion.h), in file order; fixed decimals, so that lines diff. */
static void render_moving(const struct rtm_anim *a, const struct rtm_rotations *rot,
                          struct rtm_buf *b)
{
    struct rtm_bone_motion *m = malloc((a->nbones ? a->nbones : 1) * sizeof *m);
    if (!m || rtm_motion_measure_with(a, rot, m)) {
        b->oom = 1;
        free(m);
        return;
    }
    for (uint32_t i = 0; i < a->nbones; i++) {
        if (!rtm_bone_moves(&m[i]))
            continue;
        rtm_put_token(b, a->bones[i]);
        buf_printf(b, " %.3f", m[i].rotation_deg);
        if (m[i].has_translation)
            buf_printf(b, " %.5f\n", m[i].translation_m);
        else
            buf_puts(b, " -\n");
    }
    free(m);
}

/* joints/NNN.csv: each bone's joint, pivot · M, in file order; a bone the
 * skeleton lacks has no pivot, and empty fields. */
static void render_joints(const struct rtm_anim *a, uint32_t f, struct rtm_buf *b)
{
    float (*j)[3] = malloc((a->nbones ? a->nbones : 1) * sizeof *j);
    uint8_t *known = malloc(a->nbones ? a->nbones : 1);
    if (!j || !known || rtm_joints(a, f, j, known)) {
        b->oom = 1;
        free(j);
        free(known);
        return;
    }
    buf_puts(b, "bone,x,y,z\n");
    for (uint32_t i = 0; i < a->nbones; i++) {
        rtm_put_csv_name(b, a->bones[i]);
        for (int k = 0; known[i] && k < 3; k++) {
            buf_putc(b, ',');
            rtm_put_num(b, j[i][k], a->digits);
        }
        buf_puts(b, known[i] ? "\n" : ",,,\n");
    }
    free(j);
    free(known);
}

/* The bones of a in an order where each comes after its parent. */
static uint32_t *parents_first(const struct rtm_anim *a)
{
    uint32_t *order = malloc((a->nbones ? a->nbones : 1) * sizeof *order);
    uint8_t *done = calloc(a->nbones ? a->nbones : 1, 1);
    uint32_t n = 0;
    for (int progress = 1; order && done && progress;) {
        progress = 0;
        for (uint32_t b = 0; b < a->nbones; b++) {
            int32_t p = skel_parent(a, b);
            if (!done[b] && (p < 0 || done[p])) {
                done[b] = 1;
                order[n++] = b;
                progress = 1;
            }
        }
    }
    free(done);
    if (order && n < a->nbones) {   /* cannot happen: the skeleton has no cycle */
        free(order);
        order = NULL;
    }
    return order;
}

static void put_name_list(struct rtm_buf *b, const char *what, const struct rtm_anim *a,
                          const uint8_t *pick)
{
    buf_printf(b, "# %s:", what);
    int any = 0;
    for (uint32_t i = 0; i < a->nbones; i++) {
        if (pick[i]) {
            buf_putc(b, ' ');
            rtm_put_name(b, a->bones[i]);
            any = 1;
        }
    }
    buf_puts(b, any ? "\n" : " none\n");
}

static void put_skeleton_comments(const struct rtm_anim *a, struct rtm_buf *b, uint8_t *pick)
{
    buf_puts(b, "# The skeleton used for this animation: ");
    rtm_put_name(b, (struct rtm_str){ skeleton_name(a), (uint32_t)strlen(skeleton_name(a)) });
    buf_puts(b, a->pivot ? ", with pivots (rest-pose joints, metres)\n"
                         : ", without pivots\n");
    buf_puts(b, "# BONE PARENT [X Y Z [placed]]; use it with -o skeleton=FILE\n");
    for (uint32_t i = 0; i < a->nbones; i++)
        pick[i] = skel_parent(a, i) < 0;
    put_name_list(b, a->format == RTM_FORMAT_BMTR
                         ? "uncomposed (no parent here; the others are composed with theirs)"
                         : "uncomposed (no parent here: measured in model space)",
                  a, pick);
    for (uint32_t i = 0; a->pivot && i < a->nbones; i++)
        pick[i] = in_skeleton(a, i) && a->pivot_placed[i];
    if (a->pivot)
        put_name_list(b, "pivots placed by a rule, estimated poorly", a, pick);
    for (uint32_t i = 0; i < a->nbones; i++)
        pick[i] = !in_skeleton(a, i);
    put_name_list(b, "not in the skeleton (no parent, no pivot)", a, pick);
}

/* skeleton.txt: the hierarchy and pivots used for this animation, as a
 * skeleton file.  A bone the skeleton lacks is listed "BONE -", in a
 * comment line when the others have pivots (a file gives all or none). */
static void render_skeleton(const struct rtm_anim *a, struct rtm_buf *b)
{
    uint32_t *order = parents_first(a);
    uint8_t *pick = malloc(a->nbones ? a->nbones : 1);
    if (!order || !pick) {
        b->oom = 1;
        free(order);
        free(pick);
        return;
    }
    put_skeleton_comments(a, b, pick);
    for (uint32_t i = 0; i < a->nbones; i++) {
        uint32_t k = order[i];
        int32_t p = skel_parent(a, k);
        int known = in_skeleton(a, k);
        if (!known && a->pivot)
            buf_puts(b, "# ");
        rtm_put_name(b, a->bones[k]);
        buf_putc(b, ' ');
        if (p >= 0)
            rtm_put_name(b, a->bones[p]);
        else
            buf_putc(b, '-');
        if (a->pivot && known)
            rtm_skeleton_put_pivot(b, a->pivot[k], a->pivot_placed[k]);
        buf_putc(b, '\n');
    }
    free(order);
    free(pick);
}

/* A view of a, timed by tm (NULL: the empty generation), with the nearest
 * rotations made once (NULL: each view makes its own). */
static int render(const struct rtm_anim *a, struct rtm_view v, const struct rtm_rotations *rot,
                  const struct rtm_timing *tm, struct rtm_buf *out)
{
    if (!a->has_matrices && rtm_view_needs_matrices(v))
        return -1;
    switch (v.kind) {
    case RTM_VIEW_HEADER: render_header(a, out); break;
    case RTM_VIEW_BONES: render_bones(a, out); break;
    case RTM_VIEW_PHASES: render_phases(a, out); break;
    case RTM_VIEW_PROPS: render_props(a, out); break;
    case RTM_VIEW_PLAIN:
        if (a->format == RTM_FORMAT_PLAIN)
            buf_put(out, a->source, a->source_bytes);
        else if (rtm_write_plain(a, out))
            out->oom = 1;
        break;
    case RTM_VIEW_BMTR:
        if (a->format == RTM_FORMAT_BMTR)
            buf_put(out, a->source, a->source_bytes);
        else if (rtm_binarise(a, out))
            out->oom = 1;
        break;
    case RTM_VIEW_SKELETON: render_skeleton(a, out); break;
    case RTM_VIEW_MOVING: render_moving(a, rot, out); break;
    case RTM_VIEW_PREVIEW:
        if (rtm_write_svg_timed(a, tm, out))
            out->oom = 1;
        break;
    case RTM_VIEW_CHECK: rtm_check_render(a, out); break;
    case RTM_VIEW_BVH:
        if (a->pivot && rtm_write_bvh_with(a, rot, tm, out))
            out->oom = 1;
        break;
    case RTM_VIEW_FRAME:
        if (v.frame < a->nframes)
            render_frame(a, v.frame, out);
        break;
    case RTM_VIEW_JOINTS:
        if (v.frame < a->nframes && a->pivot)
            render_joints(a, v.frame, out);
        break;
    case RTM_VIEW_TRACK:
        if (a->tracks && v.bone < a->nbones)
            render_track(a, v.bone, out);
        break;
    }
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
    *size = untimed;
    if (!a->has_matrices && rtm_view_needs_matrices(v))
        return -1;
    if (v.kind == RTM_VIEW_PREVIEW)
        return rtm_svg_timed_size(a, tm, untimed, size);
    if (v.kind == RTM_VIEW_BVH && a->pivot)
        return rtm_bvh_timed_size(a, tm, untimed, size);
    return 0;
}

/* ---- every size at once ---- */

/* The most memory rtm_view_sizes() gives the rotations moving.txt and
 * anim.bvh share (motion.h), so that sizing never holds much beside the
 * anim; a larger anim has each view make its own, frame by frame. */
enum { SHARED_ROTATIONS_MAX = 4 << 20 };

static void restart(struct rtm_buf *counting)
{
    counting->len = 0;
    counting->passed = 0;
}

static uint64_t csv_name_len(struct rtm_buf *counting, struct rtm_str name)
{
    restart(counting);
    rtm_put_csv_name(counting, name);
    return buf_total(counting);
}

/* frames/ and tracks/ hold the same rows of numbers (put_matrix_row): each
 * row's length is measured once and added to its frame and its track. */
static int size_frames_and_tracks(const struct rtm_anim *a, struct rtm_buf *scratch,
                                  uint64_t *sizes)
{
    size_t frame0 = rtm_view_index(a, (struct rtm_view){ .kind = RTM_VIEW_FRAME });
    size_t track0 = rtm_view_index(a, (struct rtm_view){ .kind = RTM_VIEW_TRACK });
    size_t nb = a->nbones ? a->nbones : 1;
    uint64_t *name = malloc(nb * sizeof *name), *last = malloc(nb * sizeof *last);
    if (!name || !last) {
        free(name);
        free(last);
        return -1;
    }
    for (uint32_t b = 0; b < a->nbones; b++) {
        name[b] = csv_name_len(scratch, a->bones[b]);
        sizes[track0 + b] = sizeof "frame,phase," MATRIX_COLUMNS - 1;
    }
    char num[RTM_FLOAT_CHARS];
    for (uint32_t f = 0; f < a->nframes; f++) {
        uint64_t frame = sizeof "bone," MATRIX_COLUMNS - 1;
        /* a track's row starts "F,PHASE" */
        uint64_t lead = (uint64_t)snprintf(num, sizeof num, "%u,", f) +
                        rtm_num_len(a->phases[f], a->digits);
        for (uint32_t b = 0; b < a->nbones; b++) {
            const float *m = rtm_matrix(a, f, b);
            uint64_t row = 13;                  /* 12 commas and the line's end */
            if (f && memcmp(m, rtm_matrix(a, f - 1, b), 12 * sizeof *m) == 0)
                row = last[b];                  /* a bone holding still */
            else
                row += rtm_nums_len(m, 12, a->digits);
            last[b] = row;
            frame += name[b] + row;
            sizes[track0 + b] += lead + row;
        }
        sizes[frame0 + f] = frame;
    }
    free(name);
    free(last);
    return 0;
}

/* joints/ as render_joints writes it, each number's length measured
 * (rtm_nums_len) instead of written. */
static int size_joints(const struct rtm_anim *a, struct rtm_buf *scratch, uint64_t *sizes)
{
    size_t joint0 = rtm_view_index(a, (struct rtm_view){ .kind = RTM_VIEW_JOINTS });
    size_t nb = a->nbones ? a->nbones : 1;
    float (*j)[3] = malloc(nb * sizeof *j);
    uint8_t *known = malloc(nb);
    uint64_t names = 0;
    int rc = j && known ? 0 : -1;
    for (uint32_t b = 0; !rc && b < a->nbones; b++)
        names += csv_name_len(scratch, a->bones[b]);
    for (uint32_t f = 0; !rc && f < a->nframes; f++) {
        rc = rtm_joints(a, f, j, known);
        uint64_t size = sizeof "bone,x,y,z\n" - 1 + names;
        for (uint32_t b = 0; !rc && b < a->nbones; b++)
            size += 4 + (known[b] ? rtm_nums_len(j[b], 3, a->digits) : 0);  /* 3 commas, line end */
        sizes[joint0 + f] = size;
    }
    free(j);
    free(known);
    return rc;
}

/* The other views are rendered into a counting buffer (util.h), so that
 * sizing a file whose anim.bvh is tens of megabytes holds 64 KiB of it. */
enum { SIZING_WINDOW = 64 * 1024 };

int rtm_view_sizes(const struct rtm_anim *a, uint64_t *sizes)
{
    if (!a->has_matrices || !a->tracks)
        return -1;
    struct rtm_buf counting;
    buf_init_counting(&counting, SIZING_WINDOW);
    int rc = size_frames_and_tracks(a, &counting, sizes);
    if (rc == 0 && a->pivot)
        rc = size_joints(a, &counting, sizes);
    struct rtm_rotations rot = { NULL, NULL };
    int shared = a->pivot && rtm_rotations_bytes(a) <= SHARED_ROTATIONS_MAX &&
                 rtm_rotations_make(a, &rot) == 0;
    for (size_t i = 0; rc == 0 && i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        if (v.kind == RTM_VIEW_FRAME || v.kind == RTM_VIEW_TRACK || v.kind == RTM_VIEW_JOINTS)
            continue;
        if (v.kind == RTM_VIEW_BMTR) {          /* from the counts: nothing encoded */
            sizes[i] = a->format == RTM_FORMAT_BMTR ? a->source_bytes : rtm_binarise_size(a);
            continue;
        }
        restart(&counting);
        rc = render(a, v, shared ? &rot : NULL, NULL, &counting);
        sizes[i] = buf_total(&counting);
    }
    rtm_rotations_free(&rot);
    buf_free(&counting);
    return rc;
}

/* ---- an archive's pbo.txt ---- */

/* Printable ASCII as is, other bytes as \xNN; in a key also ':' and ' ',
 * so that the first ": " of a line always ends the key. */
static void put_pbo_text(struct rtm_buf *b, const char *s, int key)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p > 0x7e || (key && (*p == ':' || *p == ' ')))
            buf_printf(b, "\\x%02x", *p);
        else
            buf_putc(b, (char)*p);
    }
}

static void put_trailer(const struct pbo *p, struct rtm_buf *b)
{
    switch (p->trailer) {
    case PBO_TRAILER_SHA1:
        buf_puts(b, "trailer: sha1 ");
        for (int i = 0; i < 20; i++)
            buf_printf(b, "%02x", p->sha1[i]);
        buf_putc(b, '\n');
        break;
    case PBO_TRAILER_NONE: buf_puts(b, "trailer: none\n"); break;
    case PBO_TRAILER_UNKNOWN: buf_puts(b, "trailer: not read\n"); break;
    case PBO_TRAILER_ODD:
        buf_printf(b, "trailer: unexpected (%llu bytes after the data)\n",
                   (unsigned long long)(p->file_size - p->data_end));
        break;
    case PBO_TRAILER_CUT: {
        char cut[160];
        pbo_describe_cut(p, cut, sizeof cut);
        buf_printf(b, "trailer: none (%s)\n", cut);
        break;
    }
    }
}

struct note_ctx {
    struct rtm_buf *b;
    const struct pbo *p;
};

/* One line a note (pbo_each_note()): the entry's number in the table and
 * its header's byte, its stored name, what happened. */
static int put_note(void *arg, const struct pbo_note *n)
{
    static const char *const kind[] = {
        [PBO_NOTE_SKIPPED] = "skipped", [PBO_NOTE_RENAMED] = "renamed",
        [PBO_NOTE_ODD_NAME] = "odd name", [PBO_NOTE_METHOD] = "unknown method",
        [PBO_NOTE_DUPLICATE] = "duplicate", [PBO_NOTE_HIDDEN] = "renamed",
    };
    struct note_ctx *c = arg;
    struct rtm_buf *b = c->b;
    const struct pbo_entry *e = &c->p->entries[n->entry];
    buf_printf(b, "entry %zu at byte %llu '", n->entry + 1,
               (unsigned long long)e->header_offset);
    put_pbo_text(b, e->name, 0);
    buf_printf(b, "': %s", kind[n->kind]);
    switch (n->kind) {
    case PBO_NOTE_METHOD:
        buf_printf(b, " 0x%08x", e->method);
        break;
    case PBO_NOTE_RENAMED:
        buf_printf(b, ": %s", n->why);
        goto shown;
    case PBO_NOTE_DUPLICATE:
        buf_printf(b, ": %s as entry %ld, which keeps it", n->why, n->other + 1);
        goto shown;
    case PBO_NOTE_HIDDEN:
        buf_printf(b, ": %s (entry %ld lies in it)", n->why, n->other + 1);
    shown:
        buf_puts(b, ", shown as '");
        put_pbo_text(b, e->path, 0);
        buf_putc(b, '\'');
        break;
    default:
        buf_printf(b, ": %s", n->why);
    }
    buf_putc(b, '\n');
    return 0;
}

/* What the archive hid or changed; nothing for a clean one. */
static void put_pbo_notes(const struct pbo *p, struct rtm_buf *b)
{
    uint64_t after = p->file_size - p->data_end;
    if (p->trailer == PBO_TRAILER_ODD && after > 21)
        buf_printf(b, "data after the trailer: %llu bytes\n", (unsigned long long)(after - 21));
    if (p->nprops > 100)
        buf_printf(b, "many properties: %zu\n", p->nprops);
    struct note_ctx c = { b, p };
    pbo_each_note(p, put_note, &c);
}

int rtm_view_pbo_info(const struct pbo *p, struct rtm_buf *out)
{
    size_t rtm = 0, compressed = 0;
    for (size_t i = 0; i < p->nentries; i++) {
        const char *path = p->entries[i].path;
        rtm += rtm_name_ends(path, strlen(path), ".rtm") != 0;
        compressed += pbo_entry_compressed(&p->entries[i]) != 0;
    }
    buf_printf(out, "format: PBO\narchive_bytes: %llu\nentries: %zu\nrtm_entries: %zu\n"
               "compressed_entries: %zu\ntable_bytes: %llu\ndata_bytes: %llu\n",
               (unsigned long long)p->file_size, p->nentries, rtm, compressed,
               (unsigned long long)p->table_bytes,
               (unsigned long long)(p->data_end - p->table_bytes));
    put_trailer(p, out);
    buf_printf(out, "properties: %zu\n", p->nprops);
    for (size_t i = 0; i < p->nprops; i++) {
        buf_puts(out, "property ");
        put_pbo_text(out, p->props[i].key, 1);
        buf_puts(out, ": ");
        put_pbo_text(out, p->props[i].value, 0);
        buf_putc(out, '\n');
    }
    put_pbo_notes(p, out);
    return out->oom ? -1 : 0;
}
