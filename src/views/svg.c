/* svg.c - the preview.svg writer (svg.h). */
#include "svg.h"

#include <math.h>
#include <stdlib.h>

#include "numfmt.h"
#include "pivots.h"
#include "view_formats.h"

enum colour { CENTRE, LEFT, RIGHT, NCOLOURS };
static const char *const COLOUR[NCOLOURS] = { "#333", "#1f6fd1", "#d1361f" };
static const char *const CAPTION[2] = { "front", "side" };

#define MOVE 0x80000000u        /* a path token that starts a subpath */

struct svg {
    const struct rtm_anim *a;
    const struct rtm_timing *tm;    /* NULL: the empty generation */
    uint32_t *frames, nf;       /* the frames drawn, in phase order */
    uint32_t phase_left_out;    /* frames whose phase is not finite */
    uint8_t *drawn;             /* per bone */
    uint32_t ndrawn, bad, lacking, guessed;
    double scale, mid[3], ymin;
    uint32_t *path[NCOLOURS], npath[NCOLOURS];  /* bones, MOVE where a subpath starts */
    struct rtm_buf anim;        /* the attributes every animation element shares */
};

static void svg_free(struct svg *h)
{
    free(h->frames);
    free(h->drawn);
    for (int c = 0; c < NCOLOURS; c++)
        free(h->path[c]);
    rtm_buf_free(&h->anim);
}

static int contains_word(struct rtm_str s, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= s.len; i++) {
        size_t k = 0;
        while (k < n && (s.s[i + k] | 0x20) == w[k])
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

static enum colour colour_of(struct rtm_str name)
{
    return contains_word(name, "left") ? LEFT : contains_word(name, "right") ? RIGHT : CENTRE;
}

static void put_fixed(struct rtm_buf *b, double v, int digits)
{
    if (rtm_buf_reserve(b, RTM_FLOAT_CHARS))
        return;
    b->len += rtm_fmt_fixed(v, digits, b->p + b->len);
}

static void put_format_line(const struct rtm_anim *a, struct rtm_buf *b)
{
    rtm_buf_puts(b, view_format_of(a)->svg_name);
    if (rtm_format_of(a)->versioned)
        rtm_buf_printf(b, " v%u", a->version);
    rtm_buf_printf(b, ", %u frame%s, %u bone%s", a->nframes, a->nframes == 1 ? "" : "s", a->nbones,
                   a->nbones == 1 ? "" : "s");
}

/* The frames with a finite phase, in phase order; when none has, the
 * first in that order alone. */
static int pick_frames(struct svg *h)
{
    const struct rtm_anim *a = h->a;
    h->frames = rtm_phase_order(a);
    if (!h->frames)
        return -1;
    for (uint32_t i = 0; i < a->nframes; i++)
        if (isfinite(a->phases[h->frames[i]]))
            h->frames[h->nf++] = h->frames[i];
    h->phase_left_out = a->nframes - h->nf;
    if (!h->nf && a->nframes)
        h->nf = 1;              /* rtm_phase_order's first, kept in place */
    return 0;
}

/* Whether bone b has a joint worth drawing: a pivot the skeleton gives or
 * measured, or a root's (svg.h). */
static int has_joint(const struct rtm_anim *a, uint32_t b)
{
    return a->in_skeleton[b] && !(a->pivot_placed[b] && a->skel_parent[b] >= 0);
}

/* Bone b's joint in the k-th frame drawn, in model space. */
static void joint(const struct svg *h, uint32_t k, uint32_t b, float out[3])
{
    rtm_point_times(h->a->pivot[b], rtm_matrix(h->a, h->frames[k], b), out);
}

/* Which bones are drawn: those with a joint finite in every frame drawn;
 * and the bounding box of those joints. */
static int place_joints(struct svg *h, double lo[3], double hi[3])
{
    const struct rtm_anim *a = h->a;
    if (!(h->drawn = malloc((size_t)a->nbones + 1)))
        return -1;
    for (int c = 0; c < 3; c++) {
        lo[c] = INFINITY;
        hi[c] = -INFINITY;
    }
    for (uint32_t b = 0; b < a->nbones; b++) {
        h->drawn[b] = h->nf && has_joint(a, b);     /* no frame: nothing to draw */
        for (uint32_t k = 0; h->drawn[b] && k < h->nf; k++) {
            float j[3];
            joint(h, k, b, j);
            h->drawn[b] = isfinite(j[0]) && isfinite(j[1]) && isfinite(j[2]);
            for (int c = 0; h->drawn[b] && c < 3; c++) {
                lo[c] = fmin(lo[c], j[c]);
                hi[c] = fmax(hi[c], j[c]);
            }
        }
        h->ndrawn += h->drawn[b];
        h->lacking += !a->in_skeleton[b];
        h->guessed += a->in_skeleton[b] && !has_joint(a, b);
        h->bad += h->nf && has_joint(a, b) && !h->drawn[b];
    }
    return 0;
}

/* The scale and centre that fit the box (svg.h). */
static void fit(struct svg *h, double lo[3], double hi[3])
{
    double span[3];
    for (int c = 0; c < 3; c++) {
        if (!h->ndrawn)
            lo[c] = hi[c] = 0;
        h->mid[c] = lo[c] / 2 + hi[c] / 2;      /* halves: no overflow */
        span[c] = fmax(hi[c] - lo[c], RTM_SVG_MIN_SPAN);
    }
    h->ymin = lo[1];
    h->scale = fmin((RTM_SVG_PANEL_W - 2 * RTM_SVG_PAD) / fmax(span[0], span[2]),
                    (RTM_SVG_PANEL_H - 2 * RTM_SVG_PAD) / span[1]);
}

/* Where a model-space height lands in the picture. */
static double picture_y(const struct svg *h, double y)
{
    return RTM_SVG_TOP + RTM_SVG_PANEL_H / 2.0 - h->scale * (y - h->mid[1]);
}

/* Each colour's path: a line from each drawn joint to its drawn parent, in
 * file order, continuing a subpath where the last line ended. */
static int plan_paths(struct svg *h)
{
    const struct rtm_anim *a = h->a;
    uint32_t last[NCOLOURS] = { UINT32_MAX, UINT32_MAX, UINT32_MAX };
    for (int c = 0; c < NCOLOURS; c++)
        if (!(h->path[c] = malloc((2 * (size_t)a->nbones + 1) * sizeof *h->path[c])))
            return -1;
    for (uint32_t b = 0; b < a->nbones; b++) {
        int32_t p = a->skel_parent[b];
        if (!h->drawn[b] || p < 0 || !h->drawn[p])
            continue;
        enum colour c = colour_of(a->bones[b]);
        if (last[c] != (uint32_t)p)
            h->path[c][h->npath[c]++] = (uint32_t)p | MOVE;
        h->path[c][h->npath[c]++] = b;
        last[c] = b;
    }
    return 0;
}

static int even_steps(const struct svg *h, double span)
{
    const float *ph = h->a->phases;
    double step = span / (h->nf - 1);
    for (uint32_t k = 1; k < h->nf; k++)
        if (fabs((double)ph[h->frames[k]] - ph[h->frames[k - 1]] - step) > 1e-6 * span)
            return 0;
    return 1;
}

/* The attributes every animation element shares; none for a still. */
static void plan_animation(struct svg *h)
{
    const float *ph = h->a->phases;
    if (h->nf < 2)
        return;
    double first = ph[h->frames[0]], span = (double)ph[h->frames[h->nf - 1]] - first;
    if (!(span > 0))
        return;
    struct rtm_buf *b = &h->anim;
    rtm_buf_puts(b, " dur=\"");
    put_fixed(b, h->tm && h->tm->seconds > 0 ? h->tm->seconds : fmax(1.0, h->nf / 30.0), 3);
    rtm_buf_puts(b, "s\" repeatCount=\"indefinite\" calcMode=\"linear\"");
    if (even_steps(h, span))
        return;
    rtm_buf_puts(b, " keyTimes=\"0");
    for (uint32_t k = 1; k + 1 < h->nf; k++) {
        rtm_buf_putc(b, ';');
        put_fixed(b, ((double)ph[h->frames[k]] - first) / span, 4);
    }
    rtm_buf_puts(b, ";1\"");
}

static int panel_left(int panel)
{
    return RTM_SVG_MARGIN + panel * (RTM_SVG_PANEL_W + RTM_SVG_MARGIN);
}

/* Bone b's joint in the k-th frame drawn, projected on panel's plane. */
static void xy_of(const struct svg *h, uint32_t k, uint32_t bone, int panel, double xy[2])
{
    float j[3];
    int u = panel ? 2 : 0;
    joint(h, k, bone, j);
    xy[0] = panel_left(panel) + RTM_SVG_PANEL_W / 2.0 + h->scale * (j[u] - h->mid[u]);
    xy[1] = picture_y(h, j[1]);
}

/* Sizing: the numbers of many points, measured a batch at a time
 * (rtm_fixed_lens), then counted into b with their separators. */
enum { XY_BATCH = 64 };
struct xy_count {
    struct rtm_buf *b;
    double v[2 * XY_BATCH];
    size_t n;
};

static void xy_flush(struct xy_count *c)
{
    rtm_buf_count(c->b, rtm_fixed_lens(c->v, c->n, 1));
    c->n = 0;
}

/* sep (unless 0), "X Y" of point xy, counted. */
static void xy_count_add(struct xy_count *c, char sep, const double xy[2])
{
    if (c->n == 2 * XY_BATCH)
        xy_flush(c);
    c->v[c->n++] = xy[0];
    c->v[c->n++] = xy[1];
    rtm_buf_count(c->b, (sep != 0) + 1);
}

/* sep (unless 0), then bone b's joint in the k-th frame drawn, projected
 * on panel's plane, "X Y", written in place: a figure is mostly these. */
static void put_xy(struct rtm_buf *b, const struct svg *h, char sep, uint32_t k, uint32_t bone,
                   int panel)
{
    double xy[2];
    xy_of(h, k, bone, panel, xy);
    double x = xy[0], y = xy[1];
    if (rtm_buf_counts(b)) {                /* sizing: the lengths alone */
        rtm_buf_count(b, (sep != 0) + rtm_fixed_len(x, 1) + 1 + rtm_fixed_len(y, 1));
        return;
    }
    if (rtm_buf_reserve(b, 2 * RTM_FLOAT_CHARS + 2))
        return;
    char *o = b->p + b->len;
    *o = sep;
    o += sep != 0;
    o += rtm_fmt_fixed(x, 1, o);
    *o++ = ' ';
    o += rtm_fmt_fixed(y, 1, o);
    b->len = (size_t)(o - b->p);
}

static void put_d(struct rtm_buf *b, const struct svg *h, enum colour c, uint32_t k, int panel)
{
    if (rtm_buf_counts(b)) {
        struct xy_count n = { .b = b };
        for (uint32_t i = 0; i < h->npath[c]; i++) {
            double xy[2];
            xy_of(h, k, h->path[c][i] & ~MOVE, panel, xy);
            xy_count_add(&n, ' ', xy);      /* 'M' or ' ': a byte either way */
        }
        xy_flush(&n);
        return;
    }
    for (uint32_t i = 0; i < h->npath[c]; i++)
        put_xy(b, h, h->path[c][i] & MOVE ? 'M' : ' ', k, h->path[c][i] & ~MOVE, panel);
}

static void put_lines(struct rtm_buf *b, const struct svg *h, int panel)
{
    rtm_buf_puts(b, "<g fill=\"none\" stroke-width=\"2\" stroke-linecap=\"round\" "
                "stroke-linejoin=\"round\">\n");
    for (int c = 0; c < NCOLOURS; c++) {
        if (!h->npath[c])
            continue;
        rtm_buf_printf(b, "<path stroke=\"%s\" d=\"", COLOUR[c]);
        put_d(b, h, (enum colour)c, 0, panel);
        rtm_buf_putc(b, '"');
        if (h->anim.len) {
            rtm_buf_puts(b, "><animate attributeName=\"d\" values=\"");
            for (uint32_t k = 0; k < h->nf; k++) {
                if (k)
                    rtm_buf_putc(b, ';');
                put_d(b, h, (enum colour)c, k, panel);
            }
            rtm_buf_putc(b, '"');
            rtm_buf_put(b, h->anim.p, h->anim.len);
            rtm_buf_puts(b, "/></path>\n");
        } else {
            rtm_buf_puts(b, "/>\n");
        }
    }
    rtm_buf_puts(b, "</g>\n");
}

static void put_dot(struct rtm_buf *b, const struct svg *h, uint32_t bone, int panel)
{
    rtm_buf_puts(b, "<circle r=\"2.5\" transform=\"translate(");
    put_xy(b, h, 0, 0, bone, panel);
    rtm_buf_puts(b, ")\"><title>");
    rtm_put_xml_name(b, h->a->bones[bone]);
    rtm_buf_puts(b, "</title>");
    if (h->anim.len) {
        rtm_buf_puts(b, "<animateTransform attributeName=\"transform\" type=\"translate\" values=\"");
        if (rtm_buf_counts(b)) {
            struct xy_count n = { .b = b };
            for (uint32_t k = 0; k < h->nf; k++) {
                double xy[2];
                xy_of(h, k, bone, panel, xy);
                xy_count_add(&n, k ? ';' : 0, xy);
            }
            xy_flush(&n);
        } else {
            for (uint32_t k = 0; k < h->nf; k++)
                put_xy(b, h, k ? ';' : 0, k, bone, panel);
        }
        rtm_buf_putc(b, '"');
        rtm_buf_put(b, h->anim.p, h->anim.len);
        rtm_buf_puts(b, "/>");
    }
    rtm_buf_puts(b, "</circle>\n");
}

static void put_dots(struct rtm_buf *b, const struct svg *h, int panel)
{
    for (int c = 0; c < NCOLOURS; c++) {
        rtm_buf_printf(b, "<g fill=\"%s\">\n", COLOUR[c]);
        for (uint32_t bone = 0; bone < h->a->nbones; bone++)
            if (h->drawn[bone] && colour_of(h->a->bones[bone]) == (enum colour)c)
                put_dot(b, h, bone, panel);
        rtm_buf_puts(b, "</g>\n");
    }
}

static void put_panel(struct rtm_buf *b, const struct svg *h, int panel)
{
    int left = panel_left(panel);
    rtm_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                   "stroke=\"#ddd\"/>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
                   "fill=\"#555\">%s</text>\n", left, RTM_SVG_TOP, RTM_SVG_PANEL_W, RTM_SVG_PANEL_H,
                   left + RTM_SVG_PANEL_W / 2, RTM_SVG_TOP + RTM_SVG_PANEL_H + 17, CAPTION[panel]);
    if (!h->ndrawn)
        return;
    rtm_buf_printf(b, "<path stroke=\"#ccc\" d=\"M%d ", left + RTM_SVG_PAD / 2);
    put_fixed(b, picture_y(h, h->ymin), 1);
    rtm_buf_printf(b, "h%d\"/>\n", RTM_SVG_PANEL_W - RTM_SVG_PAD);
    put_lines(b, h, panel);
    put_dots(b, h, panel);
}

/* "N THING(s) WHY", after the sentences before it. */
static void put_count(struct rtm_buf *b, int *first, uint32_t n, const char *thing,
                      const char *why)
{
    if (!n)
        return;
    rtm_buf_printf(b, "%s%u %s%s %s", *first ? "" : "; ", n, thing, n == 1 ? "" : "s", why);
    *first = 0;
}

/* The timing's sentence, XML-escaped, in ASCII (timing.h). */
static void put_timing(struct rtm_buf *b, const char *why)
{
    for (const char *c = why; *c; c++) {
        if (*c == '<')
            rtm_buf_puts(b, "&lt;");
        else if (*c == '>')
            rtm_buf_puts(b, "&gt;");
        else if (*c == '&')
            rtm_buf_puts(b, "&amp;");
        else
            rtm_buf_putc(b, *c >= ' ' && *c < 0x7f ? *c : '?');
    }
}

/* What is left out, and why, then how the frames are timed when configs
 * say it (timing.h); nothing when all is drawn and no configs were read
 * (the empty generation). */
static void put_desc(struct rtm_buf *b, const struct svg *h)
{
    int left_out = h->bad || h->lacking || h->guessed || h->phase_left_out;
    if (!left_out && rtm_timing_empty(h->tm))
        return;
    int first = 1;
    rtm_buf_puts(b, "<desc>");
    put_count(b, &first, h->bad, "joint", "left out (NaN or infinite in a frame)");
    put_count(b, &first, h->lacking, "bone", "without a joint (not in the skeleton)");
    put_count(b, &first, h->guessed, "joint", "not drawn (pivot placed by a rule: skeleton.txt)");
    put_count(b, &first, h->phase_left_out, "frame", "left out (phase NaN or infinite)");
    if (left_out)
        rtm_buf_putc(b, '.');
    if (!rtm_timing_empty(h->tm)) {
        rtm_buf_puts(b, left_out ? " " : "");
        put_timing(b, h->tm->why);
    }
    rtm_buf_puts(b, "</desc>\n");
}

static void put_open(struct rtm_buf *b, const struct rtm_anim *a, int height)
{
    rtm_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n<title>",
                   RTM_SVG_WIDTH, height, RTM_SVG_WIDTH, height);
    put_format_line(a, b);
    rtm_buf_puts(b, "</title>\n");
}

static void put_title_text(struct rtm_buf *b, const struct rtm_anim *a, int x, int y,
                           const char *anchor)
{
    rtm_buf_printf(b, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
                   "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">", x, y, anchor);
    put_format_line(a, b);
    rtm_buf_puts(b, "</text>\n");
}

static void write_no_rest_pose(const struct rtm_anim *a, struct rtm_buf *b)
{
    put_open(b, a, 56);
    put_title_text(b, a, RTM_SVG_MARGIN, 20, "start");
    rtm_buf_printf(b, "<text x=\"%d\" y=\"42\" fill=\"#555\">" RTM_SVG_NO_REST_POSE "</text>\n"
                   "</svg>\n", RTM_SVG_MARGIN);
}

static void write_figure(const struct svg *h, struct rtm_buf *b)
{
    put_open(b, h->a, RTM_SVG_HEIGHT);
    put_desc(b, h);
    put_title_text(b, h->a, RTM_SVG_WIDTH / 2, 18, "middle");
    for (int panel = 0; panel < 2; panel++)
        put_panel(b, h, panel);
    if (!h->ndrawn)
        rtm_buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>\n",
                       RTM_SVG_WIDTH / 2, RTM_SVG_TOP + RTM_SVG_PANEL_H / 2,
                       h->nf ? "no joint to draw" : "no frames");
    rtm_buf_puts(b, "</svg>\n");
}

int rtm_write_svg(const struct rtm_anim *a, struct rtm_buf *out)
{
    return rtm_write_svg_timed(a, NULL, out);
}

/* What every figure of a (which has pivots) needs whatever its timing:
 * the frames, the joints drawn, the paths and the scale. */
static int plan_figure(struct svg *h)
{
    double lo[3], hi[3];
    rtm_buf_init(&h->anim);
    if (pick_frames(h) || place_joints(h, lo, hi) || plan_paths(h))
        return -1;
    fit(h, lo, hi);
    return 0;
}

/* The figure planned, timed by tm, appended to out. */
static int write_timed_figure(struct svg *h, const struct rtm_timing *tm, struct rtm_buf *out)
{
    h->tm = tm;
    h->anim.len = 0;
    plan_animation(h);
    if (h->anim.oom)
        return -1;
    write_figure(h, out);
    return out->oom ? -1 : 0;
}

int rtm_write_svg_timed(const struct rtm_anim *a, const struct rtm_timing *tm,
                        struct rtm_buf *out)
{
    if (a->depth < RTM_DEPTH_FULL)
        return -1;
    if (!a->pivot) {
        write_no_rest_pose(a, out);
        return out->oom ? -1 : 0;
    }
    struct svg h = { .a = a };
    int rc = plan_figure(&h) || write_timed_figure(&h, tm, out) ? -1 : 0;
    svg_free(&h);
    return rc;
}

/* How many animation elements the planned figure holds, each with the
 * attributes h->anim (put_lines, put_dots): in each panel one for each
 * colour's path and one for each joint drawn; none in a still. */
static uint64_t animated_elements(const struct svg *h)
{
    uint64_t paths = 0;
    for (int c = 0; c < NCOLOURS; c++)
        paths += h->npath[c] != 0;
    return h->anim.len && h->ndrawn ? 2 * (paths + h->ndrawn) : 0;
}

/* What of the planned figure a timing tm changes, counted into out: its
 * <desc>, and the attributes every animation element repeats (their dur),
 * once for each. */
static int timed_part(struct svg *h, const struct rtm_timing *tm, struct rtm_buf *out)
{
    h->tm = tm;
    h->anim.len = 0;
    plan_animation(h);
    if (h->anim.oom)
        return -1;
    put_desc(out, h);
    rtm_buf_count(out, animated_elements(h) * h->anim.len);
    return out->oom ? -1 : 0;
}

/* A timing changes only dur and the <desc>, never a coordinate nor what
 * is drawn: those parts, untimed and timed, tell by how much, without
 * writing the frames' coordinates again. */
int rtm_svg_timed_size(const struct rtm_anim *a, const struct rtm_timing *tm, uint64_t untimed,
                       uint64_t *size)
{
    *size = untimed;
    if (a->depth < RTM_DEPTH_FULL)
        return -1;
    if (!a->pivot || rtm_timing_empty(tm))
        return 0;
    struct svg h = { .a = a };
    struct rtm_buf plain, timed;
    rtm_buf_init_counting(&plain, 4096);
    rtm_buf_init_counting(&timed, 4096);
    int rc = plan_figure(&h) || timed_part(&h, NULL, &plain) || timed_part(&h, tm, &timed)
                 ? -1 : 0;
    *size = untimed - rtm_buf_total(&plain) + rtm_buf_total(&timed);
    rtm_buf_free(&plain);
    rtm_buf_free(&timed);
    svg_free(&h);
    return rc;
}
