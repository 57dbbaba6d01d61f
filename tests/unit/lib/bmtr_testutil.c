/* bmtr_testutil.c - what bmtr_testutil.h declares, compiled once into librtmtest.a. */
#include "bmtr_testutil.h"

static double lcg_unit(void) { return (double)lcg_next() / 4294967296.0; }

static const char *const META[] = { "walkcycles=2", "" };
static const struct bmtr_keystone KEYS[] = {
    { -1, "Step", 0.25f, "Sound" },
    { 0, "", -0.0f, "" },
    { -1, "odd\x01\xff\"", 0.75f, "v\\al" },
};

void fixture_init(struct fixture *fx, uint32_t nf, uint32_t nb, uint32_t seed)
{
    assert_true(nf <= MAX_FRAMES && nb <= MAX_BONES);
    memset(fx, 0, sizeof *fx);
    fx->nf = nf;
    fx->nb = nb;
    for (uint32_t b = 0; b < nb; b++) {
        snprintf(fx->name_buf[b], sizeof fx->name_buf[b], "bone%u", b);
        fx->names[b] = fx->name_buf[b];
    }
    for (uint32_t f = 0; f < nf; f++)
        fx->phases[f] = nf > 1 ? (float)f / (float)(nf - 1) : 0.0f;
    fx->tr = malloc((size_t)nf * nb * 14 + 1);
    assert_non_null(fx->tr);
    lcg_state = seed;
    for (size_t i = 0; i < (size_t)nf * nb; i++) {
        float q[4], t[3];
        for (int k = 0; k < 4; k++)
            q[k] = (float)(lcg_unit() * 2.0 - 1.0);
        for (int k = 0; k < 3; k++)
            t[k] = (float)(lcg_unit() * 4.0 - 2.0);
        rtm_pack_transform(fx->tr + i * 14, q, t);
    }
}

void fixture_free(struct fixture *fx) { free(fx->tr); }

struct bmtr_spec spec_of(const struct fixture *fx, uint32_t version)
{
    struct bmtr_spec s;
    memset(&s, 0, sizeof s);
    s.version = version;
    s.byte8 = 1;
    s.motion[0] = 1.0f;
    s.motion[1] = 3.0f;
    s.motion[2] = -2.0f;
    s.preload = 1;
    s.nbones = fx->nb;
    s.names = fx->names;
    s.nframes = fx->nf;
    s.phases = fx->phases;
    s.transforms = fx->tr;
    if (version >= 4) {
        s.nmeta = 2;
        s.meta = META;
        s.nprops = 3;
        s.props = KEYS;
    }
    s.compress = BMTR_COMPRESS_AUTO;
    return s;
}

void write_spec(const struct bmtr_spec *s, struct rtm_buf *b)
{
    rtm_buf_init(b);
    assert_int_equal(rtm_write_bmtr(s, b), 0);
    assert_false(b->oom);
}

int parse_with(const struct rtm_buf *b, const char *skel, struct rtm_anim **a,
               struct rtm_error *err)
{
    struct rtm_skeleton *s = NULL;
    assert_int_equal(rtm_skeleton_open(skel, &s, err), 0);
    memset(err, 0, sizeof *err);
    int rc = rtm_parse((const uint8_t *)b->p, b->len, s, a, err);
    rtm_skeleton_free(s);
    if (rc)
        assert_null(*a);
    return rc;
}

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

void expect_local(const uint8_t t[14], double m[12])
{
    int16_t qi[4];
    uint16_t hi[3];
    memcpy(qi, t, 8);
    memcpy(hi, t + 8, 6);
    double x = qi[0] / 16384.0, y = qi[1] / 16384.0, z = qi[2] / 16384.0, w = qi[3] / 16384.0;
    double r00 = 1 - 2 * y * y - 2 * z * z, r01 = 2 * x * y - 2 * z * w;
    double r02 = 2 * x * z + 2 * y * w, r10 = 2 * x * y + 2 * z * w;
    double r11 = 1 - 2 * x * x - 2 * z * z, r12 = 2 * y * z - 2 * x * w;
    double r20 = 2 * x * z - 2 * y * w, r21 = 2 * y * z + 2 * x * w;
    double r22 = 1 - 2 * x * x - 2 * y * y;
    double out[12] = { r00, -r01, r02, -r10, r11, -r12, r20, -r21, r22,
                       -half_value(hi[0]), half_value(hi[1]), -half_value(hi[2]) };
    memcpy(m, out, sizeof out);
}

void to_floats(const double m[12], float f[12])
{
    for (int k = 0; k < 12; k++)
        f[k] = (float)m[k];
}

/* With no hierarchy every matrix is its bone's local matrix, bit for bit. */
static void check_local_matrices(const struct rtm_anim *a, const struct fixture *fx)
{
    for (uint32_t f = 0; f < fx->nf; f++)
        for (uint32_t b = 0; b < fx->nb; b++) {
            double m[12];
            float e[12];
            expect_local(fx->tr + ((size_t)f * fx->nb + b) * 14, m);
            to_floats(m, e);
            if (memcmp(rtm_matrix(a, f, b), e, sizeof e) != 0)
                fail_msg("frame %u bone %u: matrix differs from rtm(5), Local matrix", f, b);
        }
}

/* Everything the model keeps from the spec. */
void check_model(const struct rtm_anim *a, const struct bmtr_spec *s,
                 const struct fixture *fx, size_t file_len)
{
    assert_int_equal(a->format, RTM_FORMAT_BMTR);
    assert_int_equal(a->version, s->version);
    assert_int_equal(a->bmtr_byte8, s->byte8);
    assert_int_equal(a->preload_count, s->preload);
    assert_memory_equal(a->motion, s->motion, sizeof a->motion);
    assert_int_equal(a->nframes, s->nframes);
    assert_int_equal(a->nbones, s->nbones);
    assert_int_equal(a->source_bytes, file_len);
    for (uint32_t b = 0; b < s->nbones; b++)
        assert_string_equal(a->bones[b].s, s->names[b]);
    if (s->nframes)
        assert_memory_equal(a->phases, s->phases, s->nframes * sizeof(float));
    assert_int_equal(a->nmeta, s->version >= 4 ? s->nmeta : 0);
    assert_int_equal(a->nprops, s->version >= 4 ? s->nprops : 0);
    for (uint32_t i = 0; i < a->nprops; i++) {
        assert_int_equal(a->props[i].type_id, s->props[i].type_id);
        assert_string_equal(a->props[i].name.s, s->props[i].name);
        assert_int_equal(a->props[i].name.len, strlen(s->props[i].name));
        assert_string_equal(a->props[i].value.s, s->props[i].value);
        assert_memory_equal(&a->props[i].phase, &s->props[i].phase, sizeof(float));
    }
    if (fx)
        check_local_matrices(a, fx);
}

/* Writes, parses with "none" and checks the whole model. */
struct rtm_anim *round_trip(const struct bmtr_spec *s, const struct fixture *fx,
                            struct rtm_buf *b)
{
    write_spec(s, b);
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (parse_with(b, "none", &a, &err))
        fail_msg("v%u parse failed: %s (at byte %llu)", s->version, err.msg,
                 (unsigned long long)err.offset);
    check_model(a, s, fx, b->len);
    assert_string_equal(a->skeleton_name, "none");
    assert_int_equal(a->composed, 0);
    return a;
}
