/* view_formats.c - the views' row of each source format (view_formats.h):
 * header.txt's version, skeleton note and own fields, and preview.svg's
 * name of the format. */
#include "view_formats.h"

#include <inttypes.h>
#include <string.h>

/* ---- plain RTM ---- */

static void plain_skeleton_note(const struct rtm_anim *a, struct rtm_buf *b)
{
    (void)a;
    rtm_buf_puts(b, " (used for pivots and bmtr.rtm: plain matrices are already model-space)\n");
}

static void plain_fields(const struct rtm_anim *a, struct rtm_buf *b)
{
    rtm_buf_printf(b, "mdat_properties_block: %s\ntrailing_bytes: %llu\n",
                   a->has_mdat ? "yes" : "no", (unsigned long long)a->trailing_bytes);
}

/* ---- BMTR ---- */

static void bmtr_skeleton_note(const struct rtm_anim *a, struct rtm_buf *b)
{
    rtm_buf_printf(b, " (%u of %u bones composed with a parent)\n", a->composed, a->nbones);
}

static void bmtr_fields(const struct rtm_anim *a, struct rtm_buf *b)
{
    rtm_buf_printf(b, "compression_flag_per_array: %s\nreversed_flag: %u\n"
                   "engine_preload_count: %u\n",
                   a->flag_bytes ? "yes" : "no", a->bmtr_byte8, a->preload_count);
    if (a->version >= 4)
        rtm_buf_printf(b, "metadata_strings: %u\n", a->nmeta);
}

/* ---- BVH ---- */

static void bvh_skeleton_note(const struct rtm_anim *a, struct rtm_buf *b)
{
    (void)a;
    rtm_buf_puts(b, " (the motion retargeted onto its bones and rest pose)\n");
}

static void put_token(struct rtm_buf *b, const char *s)
{
    rtm_put_token(b, (struct rtm_str){ s, (uint32_t)strlen(s) });
}

/* How a BVH was read: its joints, unit, frames and naming, then one line
 * a joint a rule decided, and the joints without a bone on one line.
 * Names as tokens (a space escaped), so that each line splits on blanks. */
static void put_bvh_fields(const struct rtm_bvh_info *in, struct rtm_buf *b)
{
    rtm_buf_printf(b, "bvh_joints: %u (%u stand for a bone)\n", in->njoints, in->nmapped);
    if (strcmp(in->unit_name, "set") == 0)
        rtm_buf_printf(b, "bvh_unit: %.6g m (set)\n", in->unit);
    else if (strcmp(in->unit_name, "file") == 0)
        rtm_buf_printf(b, "bvh_unit: %.6g m (as the file says: glTF is metres, FBX says its own)\n", in->unit);
    else
        rtm_buf_printf(b, "bvh_unit: %.6g m (%s, inferred from the rest pose's height of "
                       "%.2f m)\n", in->unit, in->unit_name, in->height * in->unit);
    rtm_buf_printf(b, "bvh_frames: %u, %.6g s apart", in->source_frames, in->frame_time);
    if (in->fps > 0)
        rtm_buf_printf(b, " (resampled to %.6g fps)\n", in->fps);
    else
        rtm_buf_puts(b, " (every frame kept)\n");
    rtm_buf_printf(b, "bvh_naming: %s\n", in->naming);
    rtm_buf_puts(b, in->zup ? "bvh_up: z (as Blender's exporter writes BVH)\n"
                            : "bvh_up: y (as BVH has it)\n");
    if (in->identity)
        rtm_buf_puts(b, "bvh_retarget: none: the skeleton's own joints, taken as they are\n");
    else
        rtm_buf_printf(b, "bvh_retarget: onto the rest pose, travel scaled by the hip "
                       "heights' ratio %.4f\n", in->hip_ratio);
    uint32_t without = 0;
    for (uint32_t j = 0; j < in->njoints; j++) {
        const struct rtm_bvh_joint *jt = &in->joint[j];
        without += !jt->target;
        if (!jt->how)
            continue;
        rtm_buf_puts(b, "bvh_map: ");
        put_token(b, jt->name);
        rtm_buf_puts(b, " ");
        put_token(b, jt->target ? jt->target : "-");
        rtm_buf_printf(b, " (%s", jt->how);
        if (jt->wanted) {
            rtm_buf_puts(b, ": ");
            put_token(b, jt->wanted);
            rtm_buf_puts(b, " went to a joint nearer the root");
        }
        rtm_buf_puts(b, ")\n");
    }
    rtm_buf_printf(b, "bvh_without_bone: %u", without);
    for (uint32_t j = 0; j < in->njoints; j++)
        if (!in->joint[j].target) {
            rtm_buf_puts(b, " ");
            put_token(b, in->joint[j].name);
        }
    rtm_buf_putc(b, '\n');
}

static void bvh_fields(const struct rtm_anim *a, struct rtm_buf *b)
{
    if (a->bvh)
        put_bvh_fields(a->bvh, b);
}

/* ---- glTF, GLB, FBX: read into BVH's model, then retargeted alike ---- */

static void gltf_skeleton_note(const struct rtm_anim *a, struct rtm_buf *b)
{
    (void)a;
    rtm_buf_puts(b, " (the clip retargeted onto its bones and rest pose)\n");
}

/* Which clip of how many, then what BVH's lines say of the joints. */
static void gltf_fields(const struct rtm_anim *a, struct rtm_buf *b)
{
    if (a->nclips) {
        rtm_buf_printf(b, "clip: %" PRIu32 " of %" PRIu32 " ", a->clip + 1, a->nclips);
        put_token(b, a->clip_names[a->clip].s);
        rtm_buf_puts(b, a->nclips > 1 && !a->clip ? " (the others: clips/)\n" : "\n");
    }
    if (a->bvh)
        put_bvh_fields(a->bvh, b);
}

/* ---- the table: a row for each of format_table.h's ---- */

static const struct view_format ROWS[] = {
    [RTM_FORMAT_PLAIN] = { .version_text = "RTM_0101", .svg_name = "RTM_0101",
                           .put_skeleton_note = plain_skeleton_note, .put_fields = plain_fields },
    [RTM_FORMAT_BMTR] = { .version_text = NULL, .svg_name = "BMTR",
                          .put_skeleton_note = bmtr_skeleton_note, .put_fields = bmtr_fields },
    [RTM_FORMAT_BVH] = { .version_text = "none (BVH motion capture text)", .svg_name = "BVH",
                         .put_skeleton_note = bvh_skeleton_note, .put_fields = bvh_fields },
    [RTM_FORMAT_GLTF] = { .version_text = "2.0 (glTF JSON text)", .svg_name = "glTF",
                          .put_skeleton_note = gltf_skeleton_note, .put_fields = gltf_fields },
    [RTM_FORMAT_GLB] = { .version_text = "2.0 (glTF binary)", .svg_name = "GLB",
                         .put_skeleton_note = gltf_skeleton_note, .put_fields = gltf_fields },
    [RTM_FORMAT_FBX] = { .version_text = "none (FBX, read through its converter to glTF)",
                         .svg_name = "FBX",
                         .put_skeleton_note = gltf_skeleton_note, .put_fields = gltf_fields },
};
_Static_assert(sizeof ROWS / sizeof *ROWS == RTM_NFORMATS, "a source format without views' row");

const struct view_format *view_format_of(const struct rtm_anim *a)
{
    return &ROWS[rtm_format_of(a)->id];
}
