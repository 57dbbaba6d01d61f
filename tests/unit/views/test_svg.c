/* test_svg.c - preview.svg (svg.h) read back: on the writer's standing
 * figure, every dot's first-frame position and every animated position is
 * its joint pivot · M projected by the scale and centre svg.h documents,
 * computed here from the bounding box; the lines join each joint to its
 * parent's; keyTimes only for uneven phases; stills, NaN joints, no pivots,
 * names XML must escape; xmllint on each when installed; and over the
 * corpus (when ../shared exists) the sizes, the largest under 2 MB. */
#include "testutil.h"

#include <math.h>

#include "numfmt.h"
#include "pivots.h"
#include "svg.h"

static char *svg_of(const struct rtm_anim *a)
{
    return render(a, (struct rtm_view){ .kind = RTM_VIEW_PREVIEW }, NULL);
}

/* A dot as written: its name, where it is, and its animated positions. */
struct dot {
    char name[64];
    double x, y;
    double *vx, *vy;
    size_t nv;
};

/* The dots of svg, in document order (the front panel's, then the side's). */
static size_t read_dots(const char *svg, struct dot *d, size_t max)
{
    static const char OPEN[] = "<circle r=\"2.5\" transform=\"translate(";
    size_t n = 0;
    for (const char *p = strstr(svg, OPEN); p; p = strstr(p, OPEN)) {
        assert_true(n < max);
        struct dot *t = &d[n++];
        memset(t, 0, sizeof *t);
        p += sizeof OPEN - 1;
        int used = 0;
        assert_int_equal(sscanf(p, "%lf %lf)\"><title>%63[^<]</title>%n", &t->x, &t->y, t->name,
                                &used), 3);
        p += used;
        static const char VALUES[] = "<animateTransform attributeName=\"transform\" "
                                     "type=\"translate\" values=\"";
        if (strncmp(p, VALUES, sizeof VALUES - 1) != 0)
            continue;
        p += sizeof VALUES - 1;
        size_t cap = 16;
        t->vx = malloc(cap * sizeof *t->vx);
        t->vy = malloc(cap * sizeof *t->vy);
        for (;;) {
            if (t->nv == cap) {
                cap *= 2;
                t->vx = realloc(t->vx, cap * sizeof *t->vx);
                t->vy = realloc(t->vy, cap * sizeof *t->vy);
            }
            char *end;
            t->vx[t->nv] = strtod(p, &end);
            t->vy[t->nv++] = strtod(end, &end);
            p = end + 1;
            if (*end != ';')
                break;
        }
    }
    return n;
}

static void free_dots(struct dot *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(d[i].vx);
        free(d[i].vy);
    }
}

/* Where svg.h puts joint j of panel k, computed here from scratch. */
struct layout {
    double s, mid[3];
};

static struct layout fit_all(const struct rtm_anim *a)
{
    double lo[3] = { 1e30, 1e30, 1e30 }, hi[3] = { -1e30, -1e30, -1e30 };
    for (uint32_t f = 0; f < a->nframes; f++)
        for (uint32_t b = 0; b < a->nbones; b++) {
            float j[3];
            rtm_point_times(a->pivot[b], rtm_matrix(a, f, b), j);
            for (int c = 0; c < 3; c++) {
                lo[c] = fmin(lo[c], j[c]);
                hi[c] = fmax(hi[c], j[c]);
            }
        }
    struct layout l;
    for (int c = 0; c < 3; c++)
        l.mid[c] = (lo[c] + hi[c]) / 2;
    double across = fmax(hi[0] - lo[0], hi[2] - lo[2]);
    l.s = fmin((RTM_SVG_PANEL_W - 2 * RTM_SVG_PAD) / across,
               (RTM_SVG_PANEL_H - 2 * RTM_SVG_PAD) / (hi[1] - lo[1]));
    return l;
}

static void project(const struct layout *l, const float j[3], int panel, double *x, double *y)
{
    double left = RTM_SVG_MARGIN + panel * (RTM_SVG_PANEL_W + RTM_SVG_MARGIN);
    *x = left + RTM_SVG_PANEL_W / 2.0 + l->s * (j[panel ? 2 : 0] - l->mid[panel ? 2 : 0]);
    *y = RTM_SVG_TOP + RTM_SVG_PANEL_H / 2.0 - l->s * (j[1] - l->mid[1]);
}

/* Written with one decimal: within half a tenth, and a little for float. */
static void near(double got, double want, const char *what, const char *name, uint32_t f)
{
    if (fabs(got - want) > 0.05 + 1e-6)
        fail_msg("%s of %s, frame %u: %.3f, want %.3f", what, name, f, got, want);
}

static void dots_are_joints(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(12);
    char *svg = svg_of(a);
    struct dot d[2 * RTM_FIGURE_BONES + 1];
    size_t n = read_dots(svg, d, 2 * RTM_FIGURE_BONES + 1);
    assert_int_equal(n, 2 * RTM_FIGURE_BONES);
    struct layout l = fit_all(a);
    for (size_t i = 0; i < n; i++) {
        int panel = i >= RTM_FIGURE_BONES;
        uint32_t b = 0;
        while (b < a->nbones && strcmp(a->bones[b].s, d[i].name) != 0)
            b++;
        assert_true(b < a->nbones);
        assert_int_equal(d[i].nv, a->nframes);     /* the figure's phases rise */
        for (uint32_t f = 0; f < a->nframes; f++) {
            float j[3];
            double x, y;
            rtm_point_times(a->pivot[b], rtm_matrix(a, f, b), j);
            project(&l, j, panel, &x, &y);
            if (f == 0) {
                near(d[i].x, x, "x", d[i].name, f);
                near(d[i].y, y, "y", d[i].name, f);
            }
            near(d[i].vx[f], x, "animated x", d[i].name, f);
            near(d[i].vy[f], y, "animated y", d[i].name, f);
        }
    }
    /* the loop: 12 frames at 1/30 s is under a second, so 1 s; even
     * phases, so no keyTimes; the first frame is static */
    assert_non_null(strstr(svg, " dur=\"1s\" repeatCount=\"indefinite\" calcMode=\"linear\"/>"));
    assert_null(strstr(svg, "keyTimes"));
    assert_non_null(strstr(svg, "<title>RTM_0101, 12 frames, 22 bones</title>"));
    assert_null(strstr(svg, "<desc>"));
    free_dots(d, n);
    free(svg);
    rtm_free(a);
}

/* A segment of a path, as two points in either order. */
struct seg {
    double x0, y0, x1, y1;
};

static int same_seg(const struct seg *s, const struct seg *t)
{
    double e = 0.051;
    return (fabs(s->x0 - t->x0) < e && fabs(s->y0 - t->y0) < e && fabs(s->x1 - t->x1) < e &&
            fabs(s->y1 - t->y1) < e) ||
           (fabs(s->x0 - t->x1) < e && fabs(s->y0 - t->y1) < e && fabs(s->x1 - t->x0) < e &&
            fabs(s->y1 - t->y0) < e);
}

/* The first frame's lines: each path's subpaths, pair by pair, are the
 * segments joint-to-parent, each once, in the right colour. */
static void lines_join_parents(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(3);
    char *svg = svg_of(a);
    struct layout l = fit_all(a);
    struct seg got[4 * RTM_FIGURE_BONES];
    int colour[4 * RTM_FIGURE_BONES];
    size_t n = 0;
    static const char *const STROKE[] = { "<path stroke=\"#333\" d=\"",
                                          "<path stroke=\"#1f6fd1\" d=\"",
                                          "<path stroke=\"#d1361f\" d=\"" };
    for (int c = 0; c < 3; c++) {
        for (const char *p = strstr(svg, STROKE[c]); p; p = strstr(p + 1, STROKE[c])) {
            p += strlen(STROKE[c]);
            double px = 0, py = 0;
            while (*p != '"') {
                int move = *p == 'M';
                char *end;
                double x = strtod(p + 1, &end), y = strtod(end, &end);
                if (!move) {
                    assert_true(n < 4 * RTM_FIGURE_BONES);
                    colour[n] = c;
                    got[n++] = (struct seg){ px, py, x, y };
                }
                px = x;
                py = y;
                p = end;
            }
        }
    }
    size_t want = 0;
    for (int panel = 0; panel < 2; panel++)
        for (uint32_t b = 0; b < a->nbones; b++) {
            int32_t p = a->skel_parent[b];
            if (p < 0)
                continue;
            float jb[3], jp[3];
            rtm_point_times(a->pivot[b], rtm_matrix(a, 0, b), jb);
            rtm_point_times(a->pivot[p], rtm_matrix(a, 0, (uint32_t)p), jp);
            struct seg s;
            project(&l, jb, panel, &s.x0, &s.y0);
            project(&l, jp, panel, &s.x1, &s.y1);
            int c = strstr(a->bones[b].s, "Left") ? 1 : strstr(a->bones[b].s, "Right") ? 2 : 0;
            size_t hits = 0;
            for (size_t i = 0; i < n; i++)
                hits += colour[i] == c && same_seg(&got[i], &s);
            if (hits != 1)
                fail_msg("the line from %s to its parent: %zu times", a->bones[b].s, hits);
            want++;
        }
    assert_int_equal(n, want);          /* and no other line */
    free(svg);
    rtm_free(a);
}

/* keyTimes: from the phases when they step unevenly, to 4 decimals; the
 * loop lasts a 1/30 s a frame. */
static void key_times(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(45);
    for (uint32_t f = 0; f < 45; f++)
        a->phases[f] = (float)(f * f) / (44.0f * 44.0f);
    char *svg = svg_of(a);
    assert_non_null(strstr(svg, " dur=\"1.5s\" repeatCount=\"indefinite\" calcMode=\"linear\" "
                                "keyTimes=\"0;0.0005;0.0021;0.0046;"));
    assert_non_null(strstr(svg, ";0.9551;1\"/>"));
    /* every animation element carries the same list */
    size_t anims = 0, keys = 0;
    for (const char *p = svg; (p = strstr(p, "values=\"")); p++)
        anims++;
    for (const char *p = svg; (p = strstr(p, "keyTimes=\"0;0.0005;")); p++)
        keys++;
    assert_int_equal(anims, keys);
    assert_int_equal(anims, 2 * RTM_FIGURE_BONES + 2 * 3);
    free(svg);
    /* phases even within 1e-6 of the span: none */
    for (uint32_t f = 0; f < 45; f++)
        a->phases[f] = 0.25f + (float)f / 44.0f * 0.5f;
    svg = svg_of(a);
    assert_null(strstr(svg, "keyTimes"));
    free(svg);
    rtm_free(a);
}

/* Frames are drawn in phase order, whatever the file order: reversed
 * phases give the reversed values. */
static void phase_order(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(5);
    char *fwd = svg_of(a);
    struct dot d1[2 * RTM_FIGURE_BONES], d2[2 * RTM_FIGURE_BONES];
    size_t n1 = read_dots(fwd, d1, 2 * RTM_FIGURE_BONES);
    for (uint32_t f = 0; f < 5; f++)
        a->phases[f] = 1.0f - a->phases[f];
    char *back = svg_of(a);
    size_t n2 = read_dots(back, d2, 2 * RTM_FIGURE_BONES);
    assert_int_equal(n1, n2);
    for (size_t i = 0; i < n1; i++) {
        assert_int_equal(d1[i].nv, 5);
        assert_int_equal(d2[i].nv, 5);
        for (size_t k = 0; k < 5; k++) {
            assert_true(d1[i].vx[k] == d2[i].vx[4 - k] && d1[i].vy[k] == d2[i].vy[4 - k]);
        }
        assert_true(d2[i].x == d1[i].vx[4] && d2[i].y == d1[i].vy[4]);
    }
    free_dots(d1, n1);
    free_dots(d2, n2);
    free(fwd);
    free(back);
    rtm_free(a);
}

/* One frame, or phases all equal: a still, no animation element. */
static void stills(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(1);
    char *svg = svg_of(a);
    assert_null(strstr(svg, "<animate"));
    assert_int_equal(read_dots(svg, (struct dot[2 * RTM_FIGURE_BONES]){ 0 },
                               2 * RTM_FIGURE_BONES), 2 * RTM_FIGURE_BONES);
    free(svg);
    rtm_free(a);
    a = sample_figure(8);
    for (uint32_t f = 0; f < 8; f++)
        a->phases[f] = 0.5f;
    svg = svg_of(a);
    assert_null(strstr(svg, "<animate"));
    free(svg);
    rtm_free(a);
}

static const char *find_title(const char *svg, const char *name)
{
    char t[96];
    snprintf(t, sizeof t, "<title>%s</title>", name);
    return strstr(svg, t);
}

/* A NaN in a matrix leaves that joint out (its lines too) and the <desc>
 * counts it; a NaN phase leaves that frame out. */
static void bad_numbers(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(6);
    uint32_t hand = 9;
    assert_string_equal(a->bones[hand].s, "LeftHand");
    ((float *)rtm_matrix(a, 3, hand))[10] = NAN;
    a->phases[5] = NAN;
    char *svg = svg_of(a);
    assert_null(find_title(svg, "LeftHand"));
    assert_non_null(find_title(svg, "LeftForeArm"));
    assert_non_null(strstr(svg, "<desc>1 joint left out (NaN or infinite in a frame); "
                                "1 frame left out (phase NaN or infinite).</desc>"));
    struct dot d[2 * RTM_FIGURE_BONES];
    size_t n = read_dots(svg, d, 2 * RTM_FIGURE_BONES);
    assert_int_equal(n, 2 * (RTM_FIGURE_BONES - 1));
    assert_int_equal(d[0].nv, 5);
    free_dots(d, n);
    free(svg);
    /* every matrix NaN: nothing to draw, still an SVG */
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones * 12; i++)
        a->matrices[i] = INFINITY;
    svg = svg_of(a);
    assert_non_null(strstr(svg, ">no joint to draw</text>"));
    assert_non_null(strstr(svg, "<desc>22 joints left out"));
    assert_null(strstr(svg, "<circle"));
    free(svg);
    rtm_free(a);
}

/* Without pivots: the text svg.h names. */
static void no_rest_pose(void **state)
{
    (void)state;
    struct sample_opts o = { 5, 20, 1, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "none");
    char *svg = svg_of(a);
    assert_non_null(strstr(svg, ">" RTM_SVG_NO_REST_POSE "</text>"));
    assert_non_null(strstr(svg, "<title>BMTR v5, 5 frames, 20 bones</title>"));
    free(svg);
    rtm_free(a);
    rtm_buf_free(&b);
}

/* Names with bytes XML must not see raw; bones the skeleton lacks, and
 * placed pivots, counted. */
static struct rtm_anim *odd_anim(void)
{
    static const char SKEL[] = "Pelvis - 0 1 0\nLeft<&> Pelvis 0.2 1.4 0\n"
                               "camera Pelvis 0 1 0 placed\n";
    static const char *const names[] = { "Pelvis", "Left<&>", "camera", "extra\x01" };
    struct rtm_anim *w = rtm_anim_alloc(RTM_FORMAT_PLAIN, 2, 4, 0, 64, RTM_DEPTH_FULL);
    for (uint32_t b = 0; b < 4; b++)
        w->bones[b] = rtm_anim_str(w, names[b], (uint32_t)strlen(names[b]));
    for (uint32_t f = 0; f < 2; f++) {
        w->phases[f] = (float)f;
        for (uint32_t b = 0; b < 4; b++) {
            float m[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1f * (float)f, 0, 0 };
            memcpy(w->matrices + ((size_t)f * 4 + b) * 12, m, sizeof m);
        }
    }
    struct rtm_buf out;
    rtm_buf_init(&out);
    assert_int_equal(rtm_write_plain(w, &out), 0);
    rtm_free(w);
    struct rtm_anim *a = parse_with_skeleton(&out, SKEL, "odd");
    rtm_buf_free(&out);
    return a;
}

static void names_and_counts(void **state)
{
    (void)state;
    struct rtm_anim *a = odd_anim();
    char *svg = svg_of(a);
    assert_non_null(find_title(svg, "Left&lt;&amp;&gt;"));
    assert_null(find_title(svg, "camera"));
    assert_null(strstr(svg, "extra"));
    assert_non_null(strstr(svg, "<desc>1 bone without a joint (not in the skeleton); 1 joint not "
                                "drawn (pivot placed by a rule: skeleton.txt).</desc>"));
    /* Left<&> is blue, its line too */
    assert_non_null(strstr(svg, "<path stroke=\"#1f6fd1\" d=\"M"));
    free(svg);
    rtm_free(a);
}

/* Each SVG above, and one of no frames, through xmllint --noout. */
static void well_formed(void **state)
{
    (void)state;
    if (system("xmllint --version >/dev/null 2>&1") != 0)
        skip_because("no xmllint (Debian: libxml2-utils)");
    struct rtm_anim *a[5] = { sample_figure(4), sample_figure(1), odd_anim(), sample_figure(3), NULL };
    a[3]->matrices[0] = NAN;
    struct sample_opts o = { 0, 3, 1, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    a[4] = parse_ok(&b, "ofp2");
    rtm_buf_free(&b);
    for (int i = 0; i < 5; i++) {
        char *svg = svg_of(a[i]);
        if (i == 4)
            assert_non_null(strstr(svg, ">no frames</text>"));
        FILE *p = popen("xmllint --noout - 2>&1", "w");
        assert_non_null(p);
        fputs(svg, p);
        if (pclose(p) != 0)
            fail_msg("SVG %d is not well-formed XML", i);
        free(svg);
        rtm_free(a[i]);
    }
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

/* Every corpus file with ofp2's pivots: sizes, the largest under 2 MB. */
static void corpus_sizes(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    size_t *size = calloc(c.n, sizeof *size), big = 0;
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        free(render(a, (struct rtm_view){ .kind = RTM_VIEW_PREVIEW }, &size[i]));
        if (size[i] > size[big])
            big = i;
        rtm_free(a);
    }
    printf("# largest preview.svg: %zu bytes (%s)\n", size[big], c.path[big]);
    assert_true(size[big] < 2000000);
    qsort(size, c.n, sizeof *size, cmp_size);
    printf("# %zu files: median %zu bytes, smallest %zu\n", c.n, size[c.n / 2], size[0]);
    free(size);
    rtm_skeleton_free(s);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dots_are_joints),
        cmocka_unit_test(lines_join_parents),
        cmocka_unit_test(key_times),
        cmocka_unit_test(phase_order),
        cmocka_unit_test(stills),
        cmocka_unit_test(bad_numbers),
        cmocka_unit_test(no_rest_pose),
        cmocka_unit_test(names_and_counts),
        cmocka_unit_test(well_formed),
        cmocka_unit_test(corpus_sizes),
    };
    return run_test_cases(tests, NULL, NULL);
}
