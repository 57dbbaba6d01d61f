/* check.c - check.txt: what the game will complain about (check.h).
 *
 * Each check_* function writes the findings of one code, in file order,
 * through one emitter that caps a code's lines; the codes run in the order
 * check.h lists them.  Which findings are errors and which warnings, and
 * why, is rtmfs-views(7)'s check.txt section: an error is what the game
 * logs or cannot use, a warning what is almost surely a mistake. */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format_table.h"
#include "motion.h"
#include "numfmt.h"
#include "repair.h"
#include "skeleton.h"

/* The plain format's name field (rtm(5)): longer names are cut. */
enum { PLAIN_NAME_BYTES = 32, MDAT_STRING_BYTES = 255 };

struct emit {
    const struct rtm_anim *a;
    struct rtm_buf *b;
    const char *level, *code;
    uint32_t lines, more;
    const char *skel;           /* the skeleton as the game names it */
    const char **sk;            /* the skeleton's names (rtm.h: skel_names) */
    int32_t *match;             /* each bone's skeleton bone (any case), or -1 */
};

static void begin(struct emit *e, const char *level, const char *code)
{
    e->level = level;
    e->code = code;
    e->lines = e->more = 0;
}

/* Starts a finding's line: 1, or 0 past the cap (then it is counted). */
static int line(struct emit *e)
{
    if (e->lines >= RTM_CHECK_MAX_LINES) {
        e->more++;
        return 0;
    }
    e->lines++;
    rtm_buf_printf(e->b, "%s %s: ", e->level, e->code);
    return 1;
}

static void end(struct emit *e)
{
    if (e->more)
        rtm_buf_printf(e->b, "%s %s: and %u more like these\n", e->level, e->code, e->more);
}

static void put_bone(struct emit *e, uint32_t b)
{
    rtm_put_name(e->b, e->a->bones[b]);
}

/* Escaped like a bone: a skeleton file's path may hold any byte. */
static void put_skel(struct emit *e)
{
    rtm_put_name(e->b, (struct rtm_str){ e->skel, (uint32_t)strlen(e->skel) });
}

/* Names compare as the skeleton's do (repair.h). */
#define casecmp rtm_name_casecmp

static int ends_with_nocase(struct rtm_str s, const char *tail)
{
    size_t n = strlen(tail);
    return s.len >= n && casecmp(s.s + s.len - n, n, tail, n) == 0;
}

/* ---- the bones against the skeleton ---- */

/* e->sk and e->match from the anim's copy of the skeleton; 0 when it has
 * none (then the bone checks find nothing), -1 when out of memory. */
static int match_skeleton(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    if (!a->skel_names)
        return 0;
    e->sk = malloc((a->skel_nbones ? a->skel_nbones : 1) * sizeof *e->sk);
    e->match = malloc((a->nbones ? a->nbones : 1) * sizeof *e->match);
    if (!e->sk || !e->match)
        return -1;
    return rtm_anim_skeleton_match(a, e->sk, e->match);
}

/* The game's own line (arma_diag.exe's log, quoted in ACE3 #9137). */
static void check_not_in_skeleton(struct emit *e)
{
    begin(e, "error", "bone-not-in-skeleton");
    for (uint32_t b = 0; e->match && b < e->a->nbones; b++) {
        if (e->match[b] >= 0 || !line(e))
            continue;
        rtm_buf_puts(e->b, "Bone ");
        put_bone(e, b);
        rtm_buf_puts(e->b, " doesn't exist in skeleton ");
        put_skel(e);
        rtm_buf_puts(e->b, " (the game logs this and leaves the bone still; fixed.rtm is the "
                     "file without it)\n");
    }
    end(e);
}

/* binarise refuses a plain file whose bones its skeleton lacks: "There
 * was no skeleton that could be used" (ACE3 #5404).  One line, the bones
 * named up to the cap; bmtr.rtm (binarise.h) stores each as a root. */
static void check_binarise(struct emit *e)
{
    begin(e, "warning", "binarise-refuses");
    uint32_t n = 0;
    for (uint32_t b = 0; e->match && b < e->a->nbones; b++)
        n += e->match[b] < 0;
    if (!n || !rtm_format_of(e->a)->is_plain_rtm || !line(e))
        return;
    rtm_buf_puts(e->b, "binarise would refuse the file (There was no skeleton that could be used): "
                   "skeleton ");
    put_skel(e);
    rtm_buf_printf(e->b, " lacks %u of its bones: ", n);
    uint32_t named = 0;
    for (uint32_t b = 0; b < e->a->nbones && named < RTM_CHECK_MAX_LINES; b++)
        if (e->match[b] < 0) {
            rtm_buf_puts(e->b, named++ ? ", " : "");
            put_bone(e, b);
        }
    if (n > named)
        rtm_buf_printf(e->b, " and %u more", n - named);
    rtm_buf_puts(e->b, " (bmtr.rtm stores each as a root; fixed.rtm is the file without "
                   "them)\n");
}

/* Exporters end each chain with a tip bone, "NAME_end" (Blender's and
 * 3ds Max's BVH "End Site"): no skeleton has one, the game reports each. */
static void check_helpers(struct emit *e)
{
    begin(e, "note", "helper-bone");
    for (uint32_t b = 0; e->match && b < e->a->nbones; b++) {
        if (e->match[b] >= 0 || !ends_with_nocase(e->a->bones[b], "_end") || !line(e))
            continue;
        rtm_buf_puts(e->b, "Bone ");
        put_bone(e, b);
        rtm_buf_puts(e->b, " is an exporter's helper, the tip of a chain: leave it out of "
                     "the export (fixed.rtm is the file without it)\n");
    }
    end(e);
}

/* pboProject's words (ACE3 #9137).  Binarised files store every name in
 * lower case, so only a plain file's case means anything. */
static void check_case(struct emit *e)
{
    begin(e, "warning", "bone-case");
    for (uint32_t b = 0; e->match && rtm_format_of(e->a)->names_own_case && b < e->a->nbones; b++) {
        int32_t k = e->match[b];
        if (k < 0 || strcmp(e->a->bones[b].s, e->sk[k]) == 0 || !line(e))
            continue;
        rtm_buf_puts(e->b, "case mismatch '");
        put_bone(e, b);
        rtm_buf_puts(e->b, "' in rtm vs '");
        rtm_put_name(e->b, (struct rtm_str){ e->sk[k], (uint32_t)strlen(e->sk[k]) });
        rtm_buf_puts(e->b, "' in skeleton ");
        put_skel(e);
        rtm_buf_puts(e->b, " (pboProject stops on it; the game matches bones without case; "
                     "fixed.rtm names it as the skeleton does)\n");
    }
    end(e);
}

struct named { struct rtm_str s; uint32_t i; };

static int named_cmp(const void *x, const void *y)
{
    const struct named *p = x, *q = y;
    int d = casecmp(p->s.s, p->s.len, q->s.s, q->s.len);
    return d ? d : (p->i > q->i) - (p->i < q->i);
}

/* Sorting (not comparing every pair) keeps a file of many bones cheap;
 * the findings still come in file order.  -1 when out of memory. */
static int check_duplicates(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    size_t n = a->nbones ? a->nbones : 1;
    struct named *s = malloc(n * sizeof *s);
    uint32_t *dup_of = malloc(n * sizeof *dup_of);   /* the earlier bone, or UINT32_MAX */
    if (!s || !dup_of) {
        free(s);
        free(dup_of);
        return -1;
    }
    for (uint32_t b = 0; b < a->nbones; b++) {
        s[b] = (struct named){ a->bones[b], b };
        dup_of[b] = UINT32_MAX;
    }
    qsort(s, a->nbones, sizeof *s, named_cmp);
    for (uint32_t k = 1, run = 0; k < a->nbones; k++) {
        if (casecmp(s[run].s.s, s[run].s.len, s[k].s.s, s[k].s.len))
            run = k;
        else
            dup_of[s[k].i] = s[run].i;
    }
    free(s);
    begin(e, "warning", "duplicate-bone");
    for (uint32_t b = 0; b < a->nbones; b++) {
        if (dup_of[b] == UINT32_MAX || !line(e))
            continue;
        rtm_buf_puts(e->b, "Bone ");
        put_bone(e, b);
        rtm_buf_printf(e->b, " (bone %u) repeats the name of bone %u: the game moves the "
                       "skeleton's bone with only one of them", b, dup_of[b]);
        /* fixed.rtm keeps the first of a name the skeleton has */
        rtm_buf_puts(e->b, e->match && e->match[b] >= 0 ? " (fixed.rtm is the file without it)\n"
                                                        : "\n");
    }
    end(e);
    free(dup_of);
    return 0;
}

/* A plain file's names are 32-byte fields and its property strings carry a
 * length byte (rtm(5)): converting or binarising cuts what is longer. */
static void check_name_length(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    begin(e, "warning", "name-length");
    for (uint32_t b = 0; b < a->nbones; b++) {
        if (a->bones[b].len <= PLAIN_NAME_BYTES || !line(e))
            continue;
        rtm_buf_puts(e->b, "Bone ");
        put_bone(e, b);
        rtm_buf_printf(e->b, " is %u bytes, longer than the plain format's %d-byte name field: "
                       "a plain file keeps only its first %d\n", a->bones[b].len,
                       PLAIN_NAME_BYTES, PLAIN_NAME_BYTES);
    }
    for (uint32_t i = 0; i < a->nprops; i++) {
        const struct rtm_prop *p = &a->props[i];
        if ((p->name.len <= MDAT_STRING_BYTES && p->value.len <= MDAT_STRING_BYTES) ||
            !line(e))
            continue;
        rtm_buf_printf(e->b, "property %u's %s is %u bytes, longer than the %d a plain file's "
                       "MDAT block holds: it is cut there\n", i,
                       p->name.len > MDAT_STRING_BYTES ? "name" : "value",
                       p->name.len > MDAT_STRING_BYTES ? p->name.len : p->value.len,
                       MDAT_STRING_BYTES);
    }
    end(e);
}

/* Whether skeleton bone k is Face_Hub or below it: the face rig, which the
 * face's own animation drives, so body animations leave it out. */
static int in_face_rig(const struct emit *e, uint32_t k)
{
    for (uint32_t depth = 0; depth <= e->a->skel_nbones; depth++) {
        if (casecmp(e->sk[k], strlen(e->sk[k]), "Face_Hub", 8) == 0)
            return 1;
        int32_t p = e->a->skel_parents[k];
        if (p < 0 || (uint32_t)p >= e->a->skel_nbones)
            return 0;
        k = (uint32_t)p;
    }
    return 0;
}

/* One line for all of them: a partial animation (a gesture) leaves out
 * most of the body, and one line a bone would bury everything else. */
static int check_left_out(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    uint32_t nsk = a->skel_nbones, known = 0, left = 0;
    uint8_t *has = e->match ? calloc(nsk ? nsk : 1, 1) : NULL;
    if (e->match && !has)
        return -1;
    for (uint32_t b = 0; has && b < a->nbones; b++)
        if (e->match[b] >= 0)
            known += !has[e->match[b]], has[e->match[b]] = 1;
    for (uint32_t k = 0; known && k < nsk; k++)
        left += !has[k] && !in_face_rig(e, k);
    begin(e, "note", "skeleton-bones-left-out");
    if (left && line(e)) {
        rtm_buf_printf(e->b, "%u of the %u bones of skeleton ", left, nsk);
        put_skel(e);
        rtm_buf_puts(e->b, " are not in the animation, so it does not move them (the face "
                     "rig below Face_Hub not counted):");
        for (uint32_t k = 0; k < nsk; k++) {
            if (has[k] || in_face_rig(e, k))
                continue;
            rtm_buf_putc(e->b, ' ');
            rtm_put_name(e->b, (struct rtm_str){ e->sk[k], (uint32_t)strlen(e->sk[k]) });
        }
        rtm_buf_putc(e->b, '\n');
    }
    end(e);
    free(has);
    return 0;
}

/* ---- phases ---- */

static void put_phase(struct emit *e, float v)
{
    rtm_put_num(e->b, v, e->a->digits);
}

static void check_phase_range(struct emit *e)
{
    begin(e, "warning", "phase-range");
    for (uint32_t f = 0; f < e->a->nframes; f++) {
        float v = e->a->phases[f];
        if (!isfinite(v) || (v >= 0.0f && v <= 1.0f) || !line(e))
            continue;
        rtm_buf_printf(e->b, "frame %u has phase ", f);
        put_phase(e, v);
        rtm_buf_puts(e->b, ", outside 0 to 1, the span the game plays\n");
    }
    end(e);
}

/* Against the last finite phase before it: a NaN is nan's finding. */
static void check_phase_order(struct emit *e)
{
    begin(e, "warning", "phase-order");
    int64_t last = -1;
    for (uint32_t f = 0; f < e->a->nframes; f++) {
        float v = e->a->phases[f];
        if (!isfinite(v))
            continue;
        if (last >= 0 && v < e->a->phases[last] && line(e)) {
            rtm_buf_printf(e->b, "frame %u has phase ", f);
            put_phase(e, v);
            rtm_buf_printf(e->b, ", below frame %lld's ", (long long)last);
            put_phase(e, e->a->phases[last]);
            rtm_buf_puts(e->b, ": the game plays frames by phase, not in the file's order\n");
        }
        last = f;
    }
    end(e);
}

/* -1 when out of memory. */
static int check_phase_repeat(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    uint32_t *order = rtm_phase_order(a);
    uint32_t *same = malloc((a->nframes ? a->nframes : 1) * sizeof *same);
    if (!order || !same) {
        free(order);
        free(same);
        return -1;
    }
    for (uint32_t f = 0; f < a->nframes; f++)
        same[f] = UINT32_MAX;
    /* stable: a run of equal phases keeps file order, its first frame first */
    for (uint32_t k = 1, run = 0; k < a->nframes; k++) {
        float v = a->phases[order[k]];
        if (!isfinite(v) || v != a->phases[order[run]])
            run = k;
        else
            same[order[k]] = order[run];
    }
    begin(e, "warning", "phase-repeat");
    for (uint32_t f = 0; f < a->nframes; f++) {
        if (same[f] == UINT32_MAX || !line(e))
            continue;
        rtm_buf_printf(e->b, "frame %u repeats frame %u's phase ", f, same[f]);
        put_phase(e, a->phases[f]);
        rtm_buf_puts(e->b, ": the game, which finds frames by phase, shows only one of them\n");
    }
    end(e);
    free(order);
    free(same);
    return 0;
}

/* ---- numbers ---- */

static int finite12(const float *m)
{
    for (int k = 0; k < 12; k++)
        if (!isfinite(m[k]))
            return 0;
    return 1;
}

/* A bone's frames that fail bad(): how many, and the first. */
static uint32_t count_frames(const struct rtm_anim *a, uint32_t b, int scaled, uint32_t *first)
{
    uint32_t n = 0;
    for (uint32_t f = a->nframes; f-- > 0;) {
        const float *m = rtm_matrix(a, f, b);
        int bad = scaled ? finite12(m) && rtm_matrix_kind(m) != RTM_MATRIX_ROTATION
                         : !finite12(m);
        if (bad) {
            n++;
            *first = f;
        }
    }
    return n;
}

static void check_nan(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    begin(e, "error", "nan");
    for (uint32_t f = 0; f < a->nframes; f++) {
        if (isfinite(a->phases[f]) || !line(e))
            continue;
        rtm_buf_printf(e->b, "frame %u's phase is ", f);
        put_phase(e, a->phases[f]);
        rtm_buf_puts(e->b, ": the game cannot place the frame\n");
    }
    for (uint32_t b = 0; b < a->nbones; b++) {
        uint32_t first = 0, n = count_frames(a, b, 0, &first);
        if (!n || !line(e))
            continue;
        rtm_buf_puts(e->b, "Bone ");
        put_bone(e, b);
        rtm_buf_printf(e->b, " has NaN or infinite numbers in %u of %u frames, the first "
                       "frame %u: the game cannot place the bone there\n", n, a->nframes, first);
    }
    for (uint32_t i = 0; i < a->nprops; i++) {
        if (isfinite(a->props[i].phase) || !line(e))
            continue;
        rtm_buf_printf(e->b, "property %u's phase is ", i);
        put_phase(e, a->props[i].phase);
        rtm_buf_puts(e->b, ": it never fires\n");
    }
    end(e);
}

static void check_scaled(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    begin(e, "warning", "scaled-bone");
    for (uint32_t b = 0; b < a->nbones; b++) {
        uint32_t first = 0, n = count_frames(a, b, 1, &first);
        if (!n || !line(e))
            continue;
        rtm_buf_puts(e->b, "Bone ");
        put_bone(e, b);
        rtm_buf_printf(e->b, "'s matrix is not a rotation (it scales, mirrors or flattens) in "
                       "%u of %u frames, the first frame %u: the game deforms the model "
                       "with it\n", n, a->nframes, first);
    }
    end(e);
}

static void check_empty_property(struct emit *e)
{
    const struct rtm_anim *a = e->a;
    begin(e, "warning", "empty-property");
    for (uint32_t i = 0; i < a->nprops; i++) {
        if (a->props[i].name.len || !line(e))
            continue;
        rtm_buf_printf(e->b, "property %u (phase ", i);
        put_phase(e, a->props[i].phase);
        rtm_buf_puts(e->b, ", value ");
        rtm_put_json_name(e->b, a->props[i].value);
        rtm_buf_puts(e->b, ") has an empty name: nothing in the game reacts to it\n");
    }
    end(e);
}

/* The game's name for the built-in skeleton, which its log uses. */
static const char *game_skeleton_name(const struct rtm_anim *a)
{
    const char *n = a->skeleton_name ? a->skeleton_name : RTM_SKELETON_NONE;
    size_t len = strlen(RTM_SKELETON_OFP2);
    return casecmp(n, strlen(n), RTM_SKELETON_OFP2, len) == 0 ? "OFP2_ManSkeleton" : n;
}

int rtm_check_render(const struct rtm_anim *a, struct rtm_buf *out)
{
    if (a->depth < RTM_DEPTH_FULL)
        return -1;
    struct emit e = { .a = a, .b = out, .skel = game_skeleton_name(a) };
    int rc = match_skeleton(&e);
    if (rc == 0) {
        check_not_in_skeleton(&e);
        check_binarise(&e);
        check_helpers(&e);
        check_case(&e);
        rc = check_duplicates(&e);
    }
    if (rc == 0) {
        check_name_length(&e);
        rc = check_left_out(&e);
    }
    if (rc == 0) {
        check_phase_range(&e);
        check_phase_order(&e);
        rc = check_phase_repeat(&e);
    }
    if (rc == 0) {
        check_nan(&e);
        check_scaled(&e);
        check_empty_property(&e);
    }
    free(e.sk);
    free(e.match);
    if (rc)
        out->oom = 1;
    return out->oom ? -1 : 0;
}
