/* views.c - the renderers the view table's rows name (view_table.c, which
 * says which view each makes and when it is called), and the measures that
 * count some of their bytes without making them. */
#include "view_rows.h"

#include <stdio.h>
#include <stdlib.h>

#include "binarise.h"
#include "bvh.h"
#include "check.h"
#include "glb_view.h"
#include "motion.h"
#include "numfmt.h"
#include "pivots.h"
#include "repair.h"
#include "svg.h"
#include "view_formats.h"

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
    rtm_buf_puts(b, "motion:");
    for (int i = 0; i < 3; i++) {
        rtm_buf_printf(b, " %c ", AXIS[i]);
        put_summary_float(b, a->motion[i]);
    }
    rtm_buf_puts(b, " (metres)\n");
}

/* One line each, so that a script reads either with one sed. */
static void put_phase_range(const struct rtm_anim *a, struct rtm_buf *b)
{
    if (!a->nframes) {
        rtm_buf_puts(b, "first_phase: none\nlast_phase: none\n");
        return;
    }
    rtm_buf_puts(b, "first_phase: ");
    put_summary_float(b, a->phases[0]);
    rtm_buf_puts(b, "\nlast_phase: ");
    put_summary_float(b, a->phases[a->nframes - 1]);
    rtm_buf_putc(b, '\n');
}

static void put_skeleton(const struct rtm_anim *a, struct rtm_buf *b)
{
    struct rtm_str name = { skeleton_name(a), (uint32_t)strlen(skeleton_name(a)) };
    rtm_buf_puts(b, "skeleton: ");
    rtm_put_name(b, name);
    view_format_of(a)->put_skeleton_note(a, b);
    /* where the joints come from, or why there are none */
    uint32_t known = 0, placed = 0;
    for (uint32_t i = 0; a->pivot && i < a->nbones; i++) {
        known += in_skeleton(a, i);
        placed += in_skeleton(a, i) && a->pivot_placed[i];
    }
    if (a->pivot)
        rtm_buf_printf(b, "rest_pose: pivots of %u of %u bones, %u placed by a rule "
                       "(skeleton.txt)\n", known, a->nbones, placed);
    else
        rtm_buf_puts(b, "rest_pose: none: the skeleton has no pivots, so no joints/, anim.bvh or "
                     "anim.glb (mount with one that has, e.g. ofp2)\n");
}

void view_header(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                 struct rtm_buf *b)
{
    (void)file;
    (void)w;
    const struct rtm_format_row *f = rtm_format_of(a);
    const struct view_format *vf = view_format_of(a);
    rtm_buf_printf(b, "format: %s\n", f->name);
    if (f->versioned)
        rtm_buf_printf(b, "version: %u\n", a->version);
    else
        rtm_buf_printf(b, "version: %s\n", vf->version_text);
    rtm_buf_printf(b, "frames: %u\nbones: %u\nproperties: %u\n", a->nframes, a->nbones, a->nprops);
    put_motion(a, b);
    put_phase_range(a, b);
    put_skeleton(a, b);
    rtm_buf_printf(b, "uncomposed: %u (bones with no parent here; skeleton.txt names them)\n",
                   uncomposed(a));
    rtm_buf_printf(b, "matrices_left_out: %llu (NaN, infinite or determinant <= 0: "
                   "not measured in moving.txt)\n", (unsigned long long)a->unusable);
    rtm_buf_printf(b, "scaled_bones: %u (matrices not rotations: orthonormalised in moving.txt "
                   "and anim.bvh)\n", a->scaled_bones);
    rtm_buf_printf(b, "source_bytes: %llu\n", (unsigned long long)a->source_bytes);
    vf->put_fields(a, b);
    rtm_repair_put_header(a, b);
}

void view_bones(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                struct rtm_buf *b)
{
    (void)file;
    (void)w;
    for (uint32_t i = 0; i < a->nbones; i++) {
        rtm_put_name(b, a->bones[i]);
        rtm_buf_putc(b, '\n');
    }
}

void view_phases(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                 struct rtm_buf *b)
{
    (void)file;
    (void)w;
    rtm_buf_puts(b, "frame,phase\n");
    for (uint32_t f = 0; f < a->nframes; f++) {
        rtm_buf_printf(b, "%u,", f);
        rtm_put_num(b, a->phases[f], a->digits);
        rtm_buf_putc(b, '\n');
    }
}

void view_props(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                struct rtm_buf *b)
{
    (void)file;
    (void)w;
    if (!a->nprops) {
        rtm_buf_puts(b, "[]\n");
        return;
    }
    rtm_buf_puts(b, "[\n");
    for (uint32_t i = 0; i < a->nprops; i++) {
        const struct rtm_prop *p = &a->props[i];
        rtm_buf_puts(b, "  {\"phase\": ");
        rtm_put_json_num(b, p->phase, a->digits);
        rtm_buf_puts(b, ", \"name\": ");
        rtm_put_json_name(b, p->name);
        rtm_buf_puts(b, ", \"value\": ");
        rtm_put_json_name(b, p->value);
        rtm_buf_puts(b, i + 1 < a->nprops ? "},\n" : "}\n");
    }
    rtm_buf_puts(b, "]\n");
}

#define MATRIX_COLUMNS "m11,m12,m13,m21,m22,m23,m31,m32,m33,m41,m42,m43\n"

/* ",m11,...,m43\n": the numbers frames/ and tracks/ share, byte for byte. */
static void put_matrix_row(const struct rtm_anim *a, const float *m, struct rtm_buf *b)
{
    if (rtm_buf_reserve(b, 12 * (RTM_FLOAT_CHARS + 1) + 1))
        return;
    char *o = b->p + b->len;
    for (int k = 0; k < 12; k++) {
        *o++ = ',';
        o += rtm_fmt_num(m[k], a->digits, o);
    }
    *o++ = '\n';
    b->len = (size_t)(o - b->p);
}

void view_frame(const struct rtm_anim *a, uint32_t f, const struct view_with *w, struct rtm_buf *b)
{
    (void)w;
    rtm_buf_puts(b, "bone," MATRIX_COLUMNS);
    for (uint32_t i = 0; i < a->nbones; i++) {
        rtm_put_csv_name(b, a->bones[i]);
        put_matrix_row(a, rtm_matrix(a, f, i), b);
    }
}

/* tracks/NAME.csv: one bone through every frame, in file order. */
void view_track(const struct rtm_anim *a, uint32_t bone, const struct view_with *w,
                struct rtm_buf *b)
{
    (void)w;
    rtm_buf_puts(b, "frame,phase," MATRIX_COLUMNS);
    for (uint32_t f = 0; f < a->nframes; f++) {
        rtm_buf_printf(b, "%u,", f);
        rtm_put_num(b, a->phases[f], a->digits);
        put_matrix_row(a, rtm_matrix(a, f, bone), b);
    }
}

/* " ROTATION_DEG TRANSLATION_M\n" of a line of moving.txt; when b only
 * counts (sizing), the lengths alone, as printf's digits were a third of
 * what sizing the view cost. */
static void put_bone_motion(struct rtm_buf *b, const struct rtm_bone_motion *m)
{
    if (rtm_buf_counts(b)) {
        rtm_buf_count(b, 3 + rtm_printf_f_len(m->rotation_deg, 3) +
                             (m->has_translation ? rtm_printf_f_len(m->translation_m, 5) : 1));
        return;
    }
    rtm_buf_printf(b, " %.3f", m->rotation_deg);
    if (m->has_translation)
        rtm_buf_printf(b, " %.5f\n", m->translation_m);
    else
        rtm_buf_puts(b, " -\n");
}

/* moving.txt: NAME ROTATION_DEG TRANSLATION_M for each bone that moves
 * (motion.h), in file order; fixed decimals, so that lines diff. */
void view_moving(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                 struct rtm_buf *b)
{
    (void)file;
    struct rtm_bone_motion *m = malloc((a->nbones ? a->nbones : 1) * sizeof *m);
    if (!m || rtm_motion_measure_with(a, w->rot, m)) {
        b->oom = 1;
        free(m);
        return;
    }
    for (uint32_t i = 0; i < a->nbones; i++) {
        if (!rtm_bone_moves(&m[i]))
            continue;
        rtm_put_token(b, a->bones[i]);
        put_bone_motion(b, &m[i]);
    }
    free(m);
}

/* joints/NNN.csv: each bone's joint, pivot · M, in file order; a bone the
 * skeleton lacks has no pivot, and empty fields. */
void view_joints(const struct rtm_anim *a, uint32_t f, const struct view_with *w, struct rtm_buf *b)
{
    (void)w;
    float (*j)[3] = malloc((a->nbones ? a->nbones : 1) * sizeof *j);
    uint8_t *known = malloc(a->nbones ? a->nbones : 1);
    if (!j || !known || rtm_joints(a, f, j, known)) {
        b->oom = 1;
        free(j);
        free(known);
        return;
    }
    rtm_buf_puts(b, "bone,x,y,z\n");
    for (uint32_t i = 0; i < a->nbones; i++) {
        rtm_put_csv_name(b, a->bones[i]);
        for (int k = 0; known[i] && k < 3; k++) {
            rtm_buf_putc(b, ',');
            rtm_put_num(b, j[i][k], a->digits);
        }
        rtm_buf_puts(b, known[i] ? "\n" : ",,,\n");
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
    rtm_buf_printf(b, "# %s:", what);
    int any = 0;
    for (uint32_t i = 0; i < a->nbones; i++) {
        if (pick[i]) {
            rtm_buf_putc(b, ' ');
            rtm_put_name(b, a->bones[i]);
            any = 1;
        }
    }
    rtm_buf_puts(b, any ? "\n" : " none\n");
}

static void put_skeleton_comments(const struct rtm_anim *a, struct rtm_buf *b, uint8_t *pick)
{
    rtm_buf_puts(b, "# The skeleton used for this animation: ");
    rtm_put_name(b, (struct rtm_str){ skeleton_name(a), (uint32_t)strlen(skeleton_name(a)) });
    rtm_buf_puts(b, a->pivot ? ", with pivots (rest-pose joints, metres)\n"
                         : ", without pivots\n");
    rtm_buf_puts(b, "# BONE PARENT [X Y Z [placed]]; use it with -o skeleton=FILE\n");
    for (uint32_t i = 0; i < a->nbones; i++)
        pick[i] = skel_parent(a, i) < 0;
    put_name_list(b, rtm_format_of(a)->composes_bones
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
void view_skeleton(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                   struct rtm_buf *b)
{
    (void)file;
    (void)w;
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
            rtm_buf_puts(b, "# ");
        rtm_put_name(b, a->bones[k]);
        rtm_buf_putc(b, ' ');
        if (p >= 0)
            rtm_put_name(b, a->bones[p]);
        else
            rtm_buf_putc(b, '-');
        if (a->pivot && known)
            rtm_skeleton_put_pivot(b, a->pivot[k], a->pivot_placed[k]);
        rtm_buf_putc(b, '\n');
    }
    free(order);
    free(pick);
}

/* plain.rtm and bmtr.rtm: a file's own format is its source, byte for
 * byte; the other is written from the parse. */
void view_plain(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                struct rtm_buf *out)
{
    (void)file;
    (void)w;
    if (rtm_format_of(a)->is_plain_rtm)
        rtm_buf_put(out, a->source, a->source_bytes);
    else if (rtm_write_plain(a, out))
        out->oom = 1;
}

void view_bmtr(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
               struct rtm_buf *out)
{
    (void)file;
    (void)w;
    if (rtm_format_of(a)->is_bmtr)
        rtm_buf_put(out, a->source, a->source_bytes);
    else if (rtm_binarise(a, out))
        out->oom = 1;
}

/* fixed.rtm: plain.rtm with only the bones the skeleton holds (repair.h). */
void view_repaired(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                   struct rtm_buf *out)
{
    (void)file;
    (void)w;
    if (rtm_repair_write(a, out))
        out->oom = 1;
}

void view_preview(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                  struct rtm_buf *out)
{
    (void)file;
    if (rtm_write_svg_timed(a, w->tm, out))
        out->oom = 1;
}

void view_check(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
                struct rtm_buf *out)
{
    (void)file;
    (void)w;
    rtm_check_render(a, out);
}

void view_bvh(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
              struct rtm_buf *out)
{
    (void)file;
    if (rtm_anim_bvh_write_with(a, w->rot, w->tm, out))
        out->oom = 1;
}

void view_glb(const struct rtm_anim *a, uint32_t file, const struct view_with *w,
              struct rtm_buf *out)
{
    (void)file;
    if (rtm_anim_glb_write(a, w->rot, w->tm, out))
        out->oom = 1;
}

/* ---- every size at once ---- */

static void restart(struct rtm_buf *counting)
{
    counting->len = 0;
    counting->passed = 0;
}

static uint64_t csv_name_len(struct rtm_buf *counting, struct rtm_str name)
{
    restart(counting);
    rtm_put_csv_name(counting, name);
    return rtm_buf_total(counting);
}

/* frames/ and tracks/ hold the same rows of numbers (put_matrix_row): each
 * row's length is measured once and added to its frame and its track. */
int measure_frames_and_tracks(const struct rtm_anim *a, const size_t *first,
                              struct rtm_buf *scratch, uint64_t *sizes)
{
    size_t frame0 = first[RTM_VIEW_FRAME], track0 = first[RTM_VIEW_TRACK];
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

/* tracks/ is measured with frames/, above. */
int measure_with_frames(const struct rtm_anim *a, const size_t *first,
                        struct rtm_buf *scratch, uint64_t *sizes)
{
    (void)a;
    (void)first;
    (void)scratch;
    (void)sizes;
    return 0;
}

/* joints/ as view_joints writes it, each number's length measured
 * (rtm_nums_len) instead of written. */
int measure_joints(const struct rtm_anim *a, const size_t *first, struct rtm_buf *scratch,
                   uint64_t *sizes)
{
    size_t joint0 = first[RTM_VIEW_JOINTS];
    size_t nb = a->nbones ? a->nbones : 1;
    float (*j)[3] = malloc(nb * sizeof *j);
    uint8_t *known = malloc(nb);
    uint64_t names = 0;
    int rc = j && known ? 0 : -1;
    for (uint32_t b = 0; !rc && b < a->nbones; b++)
        names += csv_name_len(scratch, a->bones[b]);
    for (uint32_t f = 0; !rc && f < a->nframes; f++) {
        if ((rc = rtm_joints(a, f, j, known)))
            break;
        uint64_t size = sizeof "bone,x,y,z\n" - 1 + names + 4 * (uint64_t)a->nbones;
        uint32_t all = 0;               /* 3 commas and a line's end a bone, then numbers */
        while (all < a->nbones && known[all])
            all++;
        if (all == a->nbones)           /* every joint placed: the frame's numbers at once */
            size += rtm_nums_len(&j[0][0], 3 * (size_t)a->nbones, a->digits);
        for (uint32_t b = 0; all < a->nbones && b < a->nbones; b++)
            size += known[b] ? rtm_nums_len(j[b], 3, a->digits) : 0;
        sizes[joint0 + f] = size;
    }
    free(j);
    free(known);
    return rc;
}

/* bmtr.rtm from the counts: nothing encoded. */
int measure_bmtr(const struct rtm_anim *a, const size_t *first, struct rtm_buf *scratch,
                 uint64_t *sizes)
{
    (void)scratch;
    sizes[first[RTM_VIEW_BMTR]] = rtm_format_of(a)->is_bmtr ? a->source_bytes : rtm_binarise_size(a);
    return 0;
}
