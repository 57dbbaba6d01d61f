/* test_glb_view.c - anim.glb (glb_view.h) read back: the GLB container
 * and its JSON (nodes, skin, animation, accessors, buffer views), the
 * nodes composed with the samples of every frame land every joint on
 * pivot · M plus the motion's share (after the axis change) within 0.1 mm,
 * the inverse bind matrices undo the rest pose, the times are anim.bvh's,
 * a bone that drifts has a translation channel and one that does not has
 * none, the size at stat is the bytes (timed and untimed), one frame, no
 * view without pivots; and every corpus file when ../shared exists. */
#include "testutil.h"

#include <jansson.h>
#include <math.h>

#include "bvh.h"
#include "glb.h"
#include "glb_view.h"
#include "motion.h"
#include "pivots.h"

/* A GLB read back: its JSON and BIN chunk. */
struct gltf {
    char *bytes;
    size_t len;
    json_t *root;
    const uint8_t *bin;
    size_t bin_len;
};

static void gltf_free(struct gltf *g)
{
    json_decref(g->root);
    free(g->bytes);
}

static json_t *at(json_t *o, const char *key, size_t i)
{
    json_t *v = json_array_get(json_object_get(o, key), i);
    assert_non_null(v);
    return v;
}

static long long num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static void read_glb(const struct rtm_anim *a, const struct rtm_timing *tm, struct gltf *g)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_view_render_timed(a, (struct rtm_view){ .kind = RTM_VIEW_GLB }, tm, &b), 0);
    g->bytes = rtm_buf_take(&b, &g->len);
    struct rtm_glb c;
    struct rtm_error err;
    if (rtm_glb_split((const uint8_t *)g->bytes, g->len, &c, &err))
        fail_msg("anim.glb is no GLB: %s", err.msg);
    json_error_t jerr;
    g->root = json_loadb((const char *)c.json, c.json_len, 0, &jerr);
    if (!g->root)
        fail_msg("anim.glb's JSON: %s at %d", jerr.text, jerr.position);
    g->bin = c.bin;
    g->bin_len = c.bin_len;
    assert_int_equal(c.json_len % 4, 0);
}

/* Element i of accessor k as floats (n of them). */
static void element(const struct gltf *g, long long k, size_t i, float *out, size_t n)
{
    json_t *acc = at(g->root, "accessors", (size_t)k);
    json_t *view = at(g->root, "bufferViews", (size_t)num(acc, "bufferView"));
    assert_int_equal(num(acc, "componentType"), 5126);
    size_t off = (size_t)num(view, "byteOffset") + i * n * 4;
    assert_int_equal(off % 4, 0);
    assert_true(i < (size_t)num(acc, "count"));
    assert_true(off + n * 4 <= (size_t)num(view, "byteOffset") + (size_t)num(view, "byteLength"));
    assert_true(off + n * 4 <= g->bin_len);
    memcpy(out, g->bin + off, n * 4);
}

/* The accessor of node's channel for path, or -1. */
static long long channel(const struct gltf *g, size_t node, const char *path)
{
    json_t *anim = json_array_get(json_object_get(g->root, "animations"), 0);
    json_t *ch;
    size_t i;
    json_array_foreach(json_object_get(anim, "channels"), i, ch) {
        json_t *t = json_object_get(ch, "target");
        if ((size_t)num(t, "node") == node && strcmp(json_string_value(json_object_get(t, "path")), path) == 0)
            return num(at(anim, "samplers", (size_t)num(ch, "sampler")), "output");
    }
    return -1;
}

/* Each node's channels' accessors (-1: none), looked up once. */
struct channels {
    long long *tr, *ro;
};

static struct channels channels_of(const struct gltf *g, size_t n)
{
    struct channels c = { malloc(n * sizeof *c.tr), malloc(n * sizeof *c.ro) };
    for (size_t k = 0; k < n; k++) {
        c.tr[k] = channel(g, k, "translation");
        c.ro[k] = channel(g, k, "rotation");
    }
    return c;
}

/* Node k's pose in frame i: its rest translation or sampled one, its
 * sampled rotation, as a 3x3 (column form) and a translation. */
static void node_pose(const struct gltf *g, const struct channels *ch, size_t k, size_t i,
                      double r[3][3], double t[3])
{
    json_t *node = at(g->root, "nodes", k);
    float tf[3] = { 0, 0, 0 }, q[4] = { 0, 0, 0, 1 };
    long long tr = ch->tr[k], ro = ch->ro[k];
    for (size_t c = 0; tr < 0 && c < 3 && json_object_get(node, "translation"); c++)
        tf[c] = (float)json_number_value(at(node, "translation", c));
    if (tr >= 0)
        element(g, tr, i, tf, 3);
    if (ro >= 0)
        element(g, ro, i, q, 4);
    double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    assert_true(fabs(len - 1) < 1e-6);
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double m[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w) },
                       { 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w) },
                       { 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y) } };
    memcpy(r, m, sizeof m);
    for (int c = 0; c < 3; c++)
        t[c] = tf[c];
}

/* Every node's world matrix in frame i, parents first (nodes are numbered
 * so: node 1 + b's parent is 1 + skel_parent[b], or 0). */
static void world(const struct gltf *g, const struct channels *ch, const struct rtm_anim *a,
                  size_t i, double (*wr)[3][3], double (*wt)[3])
{
    uint8_t *done = calloc((size_t)a->nbones + 1, 1);
    node_pose(g, ch, 0, i, wr[0], wt[0]);
    done[0] = 1;
    for (int pass = 1; pass;) {
        pass = 0;
        for (uint32_t b = 0; b < a->nbones; b++) {
            int32_t p = a->skel_parent ? a->skel_parent[b] : -1;
            size_t k = 1 + b, up = p < 0 ? 0 : 1 + (size_t)p;
            if (done[k] || !done[up])
                continue;
            double r[3][3], t[3];
            node_pose(g, ch, k, i, r, t);
            for (int x = 0; x < 3; x++) {
                wt[k][x] = wt[up][x];
                for (int y = 0; y < 3; y++) {
                    wt[k][x] += wr[up][x][y] * t[y];
                    wr[k][x][y] = 0;
                    for (int z = 0; z < 3; z++)
                        wr[k][x][y] += wr[up][x][z] * r[z][y];
                }
            }
            done[k] = pass = 1;
        }
    }
    free(done);
}

/* a's anim.glb against its joints: the worst distance in mm. */
static double check_joints(const struct rtm_anim *a, const struct gltf *g, const char *what)
{
    size_t n = (size_t)a->nbones + 1;
    double (*wr)[3][3] = malloc(n * sizeof *wr), (*wt)[3] = malloc(n * sizeof *wt), worst = 0;
    uint32_t *order = rtm_phase_order(a);
    struct channels ch = channels_of(g, n);
    for (uint32_t i = 0; i < a->nframes; i++) {
        uint32_t f = order[i];
        world(g, &ch, a, i, wr, wt);
        double ph = isfinite(a->phases[f]) ? a->phases[f] : 0;
        for (uint32_t b = 0; b < a->nbones; b++) {
            int ok = 1;
            for (int32_t k = (int32_t)b; k >= 0; k = a->skel_parent ? a->skel_parent[k] : -1)
                ok &= rtm_matrix_usable(rtm_matrix(a, f, (uint32_t)k));
            if (!ok)
                continue;
            float j[3];
            rtm_point_times(a->pivot[b], rtm_matrix(a, f, b), j);
            double want[3] = { j[0] + a->motion[0] * ph, j[1] + a->motion[1] * ph,
                               -(j[2] + a->motion[2] * ph) };
            double d = 0;
            for (int c = 0; c < 3; c++)
                d += (wt[1 + b][c] - want[c]) * (wt[1 + b][c] - want[c]);
            d = sqrt(d) * 1000;
            worst = d > worst ? d : worst;
            if (!(d < 0.1))
                fail_msg("%s: frame %u bone %u: %.4f mm off", what, f, b, d);
        }
    }
    free(order);
    free(ch.tr);
    free(ch.ro);
    free(wr);
    free(wt);
    return worst;
}

/* The structure every anim.glb has. */
static void check_structure(const struct rtm_anim *a, const struct gltf *g)
{
    json_t *r = g->root;
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "asset"), "version")), "2.0");
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "asset"), "generator")),
                        RTM_GLB_GENERATOR);
    assert_int_equal(json_array_size(json_object_get(r, "nodes")), a->nbones + 1);
    assert_string_equal(json_string_value(json_object_get(at(r, "nodes", 0), "name")), RTM_BVH_ROOT);
    json_t *skin = at(r, "skins", 0);
    assert_int_equal(json_array_size(json_object_get(skin, "joints")), a->nbones + 1);
    assert_int_equal(num(skin, "skeleton"), 0);
    assert_int_equal(num(at(r, "buffers", 0), "byteLength"), (long long)g->bin_len);
    json_t *v;
    size_t i;
    json_array_foreach(json_object_get(r, "bufferViews"), i, v)
        assert_int_equal(num(v, "byteOffset") % 4, 0);
    /* the inverse bind matrices undo each joint's rest position */
    long long ibm = num(skin, "inverseBindMatrices");
    for (uint32_t b = 0; b < a->nbones; b++) {
        float m[16];
        element(g, ibm, 1 + b, m, 16);
        assert_true(m[0] == 1 && m[5] == 1 && m[10] == 1 && m[15] == 1);
        assert_true(fabsf(m[12] + a->pivot[b][0]) < 1e-6f && fabsf(m[13] + a->pivot[b][1]) < 1e-6f &&
                    fabsf(m[14] - a->pivot[b][2]) < 1e-6f);
    }
}

/* Frame i's time: i x anim.bvh's Frame Time (seconds a frame, as "%.6g"
 * writes it), strictly increasing. */
static void check_times(const struct rtm_anim *a, const struct gltf *g, double step)
{
    char text[32];
    snprintf(text, sizeof text, "%.6g", step);
    double frame_time = strtod(text, NULL);
    json_t *anim = at(g->root, "animations", 0), *s;
    size_t k;
    long long input = num(at(anim, "samplers", 0), "input");
    json_array_foreach(json_object_get(anim, "samplers"), k, s)
        assert_int_equal(num(s, "input"), input);
    json_t *acc = at(g->root, "accessors", (size_t)input);
    float t = 0, before = -1;
    for (uint32_t i = 0; i < a->nframes; i++) {
        element(g, input, i, &t, 1);
        assert_true(t > before);
        assert_float_equal(t, (float)(i * frame_time), 0);
        before = t;
    }
    assert_true(json_number_value(at(acc, "max", 0)) == t);
    assert_true(json_number_value(at(acc, "min", 0)) == 0);
}

static uint64_t size_at_stat(const struct rtm_anim *a, const struct rtm_timing *tm)
{
    uint64_t *sizes = malloc(rtm_view_count(a) * sizeof *sizes), size;
    struct rtm_view v = { .kind = RTM_VIEW_GLB };
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    assert_int_equal(rtm_view_timed_size(a, v, tm, sizes[rtm_view_index(a, v)], &size), 0);
    free(sizes);
    return size;
}

/* The writer's figure: structure, joints, times and sizes, untimed and
 * timed by a pass of 2.5 s. */
static void figure(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(24);
    struct rtm_timing timed = { .seconds = 2.5, .why = "a test's timing" };
    const struct rtm_timing *tms[] = { NULL, &timed };
    for (int k = 0; k < 2; k++) {
        struct gltf g;
        read_glb(a, tms[k], &g);
        check_structure(a, &g);
        check_joints(a, &g, "figure");
        check_times(a, &g, k ? 2.5 / 23 : 1.0 / 30);
        assert_int_equal(size_at_stat(a, tms[k]), g.len);
        gltf_free(&g);
    }
    rtm_free(a);
}

/* All still but one bone, which drifts from its parent: only it (and its
 * children, which drift from it) has a translation channel. */
static void moving_and_still(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(10);
    uint32_t mover = UINT32_MAX;
    for (uint32_t b = 0; b < a->nbones && mover == UINT32_MAX; b++)
        if (a->skel_parent[b] >= 0)
            mover = b;
    assert_int_not_equal(mover, UINT32_MAX);
    for (uint32_t f = 0; f < a->nframes; f++)
        for (uint32_t b = 0; b < a->nbones; b++) {
            float *m = a->matrices + ((size_t)f * a->nbones + b) * 12;
            static const float identity[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
            memcpy(m, identity, sizeof identity);
            if (b == mover)
                m[10] = 0.01f * (float)f;       /* 1 cm a frame up */
        }
    struct gltf g;
    read_glb(a, NULL, &g);
    for (uint32_t b = 0; b < a->nbones; b++) {
        int child = a->skel_parent[b] >= 0 && (uint32_t)a->skel_parent[b] == mover;
        assert_int_equal(channel(&g, 1 + b, "translation") >= 0, b == mover || child);
        assert_true(channel(&g, 1 + b, "rotation") >= 0);
    }
    assert_true(channel(&g, 0, "translation") >= 0);
    check_joints(a, &g, "one bone drifting");
    assert_int_equal(size_at_stat(a, NULL), g.len);
    gltf_free(&g);
    rtm_free(a);
}

/* A file of one frame: one time, 0, and the same checks. */
static void one_frame(void **state)
{
    (void)state;
    struct rtm_anim *a = sample_figure(1);
    struct rtm_timing timed = { .seconds = 2.5, .why = "a test's timing" };
    struct gltf g;
    read_glb(a, &timed, &g);
    check_structure(a, &g);
    check_joints(a, &g, "one frame");
    check_times(a, &g, 1.0 / 30);
    assert_int_equal(size_at_stat(a, &timed), g.len);
    gltf_free(&g);
    rtm_free(a);
}

/* Without pivots there is no anim.glb, and header.txt says why. */
static void needs_pivots(void **state)
{
    (void)state;
    struct sample_opts o = { 5, 20, 1, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &b), 0);
    struct rtm_anim *a = parse_ok(&b, "none");
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "anim.glb", &v), -1);
    for (size_t i = 0; i < rtm_view_count(a); i++)
        assert_int_not_equal(rtm_view_at(a, i).kind, RTM_VIEW_GLB);
    struct rtm_buf out;
    rtm_buf_init(&out);
    assert_int_equal(rtm_anim_glb_write(a, NULL, NULL, &out), -1);
    rtm_buf_free(&out);
    char *h = render(a, (struct rtm_view){ .kind = RTM_VIEW_HEADER }, NULL);
    assert_non_null(strstr(h, "anim.bvh or anim.glb"));
    free(h);
    rtm_free(a);
    rtm_buf_free(&b);
}

/* Every corpus file, with ofp2's pivots. */
static void corpus(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &s, &err), 0);
    double worst = 0;
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], s);
        struct gltf g;
        read_glb(a, NULL, &g);
        check_structure(a, &g);
        double w = check_joints(a, &g, c.path[i]);
        worst = w > worst ? w : worst;
        /* counted as rtm_view_sizes() counts it (the cases above size
         * every view; here the one view, to keep the corpus quick) */
        struct rtm_buf counting;
        rtm_buf_init_counting(&counting, 64 * 1024);
        assert_int_equal(rtm_anim_glb_write(a, NULL, NULL, &counting), 0);
        assert_int_equal(rtm_buf_total(&counting), g.len);
        rtm_buf_free(&counting);
        gltf_free(&g);
        rtm_free(a);
    }
    rtm_skeleton_free(s);
    printf("# corpus: %zu files, worst joint %.5f mm\n", c.n, worst);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(figure),
        cmocka_unit_test(moving_and_still),
        cmocka_unit_test(one_frame),
        cmocka_unit_test(needs_pivots),
        cmocka_unit_test(corpus),
    };
    return run_test_cases(tests, NULL, NULL);
}
