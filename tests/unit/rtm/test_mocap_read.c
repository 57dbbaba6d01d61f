/* test_mocap_read.c - the BVH reader (src/rtm/mocap_read.c, mocap.h):
 * every rotation order, 3 and 6 channels, End Site, CHANNELS 0, line ends
 * and blanks of every kind, numbers read to the nearest double, each kind
 * of bad input failing at its line, head reads that ask for more, and the
 * two shared clips (../shared/bvh). */
#include "testutil.h"

#include <math.h>
#include <time.h>

#include "mocap.h"
#include "mocap_write.h"

static const double PI = 3.14159265358979323846;

static struct rtm_mocap *read_ok(const char *p, size_t n)
{
    struct rtm_mocap *m = NULL;
    struct rtm_error err = { 0 };
    int rc = rtm_mocap_read((const uint8_t *)p, n, n, 0, &m, NULL, &err);
    if (rc)
        fail_msg("read failed: %s", err.msg);
    return m;
}

static struct rtm_mocap *write_read(const struct mocap_write_opts *o, struct rtm_buf *b)
{
    rtm_buf_init(b);
    assert_int_equal(rtm_mocap_write(o, b), 0);
    return read_ok(b->p, b->len);
}

/* A turn of deg about axis, on column vectors (as BVH readers compose). */
static void rot(int axis, double deg, double r[3][3])
{
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    double c = cos(deg * PI / 180), s = sin(deg * PI / 180);
    memset(r, 0, 9 * sizeof(double));
    r[axis][axis] = 1;
    r[a][a] = r[b][b] = c;
    r[b][a] = s;
    r[a][b] = -s;
}

static void mul(double a[3][3], double b[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(a, t, sizeof t);
}

/* World positions (metres, unit a file unit) of every joint in frame f,
 * composed from the channels in the order the file lists them. */
static void world(const struct rtm_mocap *m, uint32_t f, double unit, double (*pos)[3])
{
    double (*R)[3][3] = calloc(m->njoints, sizeof *R);
    assert_non_null(R);
    for (uint32_t j = 0; j < m->njoints; j++) {
        const struct rtm_mocap_joint *jt = &m->joint[j];
        const double *v = m->values + (size_t)f * m->nvalues + jt->first;
        double t[3] = { jt->offset[0], jt->offset[1], jt->offset[2] }, lr[3][3], r[3][3];
        rot(0, 0, lr);
        for (int c = 0; c < jt->nchan; c++) {
            if (jt->chan[c] >= 'X' && jt->chan[c] <= 'Z')
                t[jt->chan[c] - 'X'] = v[c];
            else {
                rot(jt->chan[c] - 'x', v[c], r);
                mul(lr, r);
            }
        }
        if (jt->parent < 0) {
            memcpy(R[j], lr, sizeof lr);
            for (int k = 0; k < 3; k++)
                pos[j][k] = t[k] * unit;
            continue;
        }
        const double (*pr)[3] = (const double (*)[3])R[jt->parent];
        for (int k = 0; k < 3; k++)
            pos[j][k] = pos[jt->parent][k] +
                        unit * (pr[k][0] * t[0] + pr[k][1] * t[1] + pr[k][2] * t[2]);
        memcpy(R[j], R[jt->parent], sizeof lr);
        mul(R[j], lr);
    }
    free(R);
}

/* The index of the joint of m that stands for man bone name (by the
 * writer's own table), or -1. */
static int32_t joint_for(const struct rtm_mocap *m, enum mocap_style s, const char *man)
{
    const char *names[32], *mans[32];
    uint32_t n = rtm_mocap_write_joints(s, names, mans, 32);
    assert_int_equal(n, m->njoints);
    for (uint32_t j = 0; j < n; j++)
        if (mans[j] && strcmp(mans[j], man) == 0)
            return (int32_t)j;
    return -1;
}

/* The same walk, whatever the file's options: joint positions agree with
 * those of the reference file (ZXY, 3 channels, cm, T-pose) in every
 * frame, joint by joint through the man's bone each stands for. */
static void same_motion(const struct mocap_write_opts *o, const char *what)
{
    struct mocap_write_opts ro = { .style = MOCAP_OFP2, .order = MOCAP_ZXY, .end_sites = 1 };
    struct rtm_buf rb, b;
    struct rtm_mocap *ref = write_read(&ro, &rb), *m = write_read(o, &b);
    assert_int_equal(m->nframes, ref->nframes);
    double (*rp)[3] = calloc(ref->njoints, sizeof *rp), (*p)[3] = calloc(m->njoints, sizeof *p);
    const char *names[32], *mans[32];
    uint32_t nr = rtm_mocap_write_joints(MOCAP_OFP2, names, mans, 32);
    double worst = 0;
    for (uint32_t f = 0; f < m->nframes; f++) {
        world(ref, f, 0.01, rp);
        world(m, f, o->unit > 0 ? o->unit : 0.01, p);
        for (uint32_t k = 0; k < nr; k++) {
            int32_t j = joint_for(m, o->style, mans[k]);
            assert_true(j >= 0);
            for (int a = 0; a < 3; a++)
                worst = fmax(worst, fabs(p[j][a] - rp[k][a]));
        }
    }
    if (!(worst < 1e-4))
        fail_msg("%s: joints differ from the reference by %g m", what, worst);
    free(rp);
    free(p);
    rtm_mocap_free(ref);
    rtm_mocap_free(m);
    rtm_buf_free(&rb);
    rtm_buf_free(&b);
}

static void every_order_and_channel_count(void **state)
{
    (void)state;
    for (int order = MOCAP_XYZ; order <= MOCAP_MIXED; order++)
        for (int six = 0; six < 2; six++) {
            struct mocap_write_opts o = { .style = MOCAP_OFP2, .order = order, .six = six,
                                          .end_sites = 1, .tabs = order & 1,
                                          .crlf = six };
            struct rtm_buf b;
            struct rtm_mocap *m = write_read(&o, &b);
            assert_int_equal(m->njoints, 22);
            assert_int_equal(m->nframes, 40);
            assert_true(fabs(m->frame_time - 1.0 / 30) < 1e-7);
            assert_int_equal(m->nvalues, six ? 22 * 6 : 6 + 21 * 3);
            for (uint32_t j = 0; j < m->njoints; j++) {
                const struct rtm_mocap_joint *jt = &m->joint[j];
                const char *want = rtm_mocap_order_name(order == MOCAP_MIXED ? (int)j % 6 : order);
                assert_int_equal(jt->nchan, j == 0 || six ? 6 : 3);
                if (jt->nchan == 6)
                    assert_memory_equal(jt->chan, "XYZ", 3);
                for (int k = 0; k < 3; k++)
                    assert_int_equal(jt->chan[jt->nchan - 3 + k], want[k] - 'X' + 'x');
            }
            char what[64];
            snprintf(what, sizeof what, "order %s, %d channels", rtm_mocap_order_name(order),
                     six ? 6 : 3);
            same_motion(&o, what);
            rtm_mocap_free(m);
            rtm_buf_free(&b);
        }
}

static void every_style_unit_and_rest(void **state)
{
    (void)state;
    static const double UNITS[] = { 0.01, 1, 0.0254, 0.0254 / 0.45 };
    for (int s = 0; s < MOCAP_STYLES; s++)
        for (int u = 0; u < 4; u++)
            for (int down = 0; down < 2; down++) {
                struct mocap_write_opts o = { .style = (enum mocap_style)s, .order = (s + u) % 7,
                                              .unit = UNITS[u], .arms_down = down,
                                              .end_sites = 1 };
                char what[96];
                snprintf(what, sizeof what, "%s, unit %g, %s", rtm_mocap_style_name(o.style),
                         UNITS[u], down ? "arms down" : "T-pose");
                same_motion(&o, what);
            }
}

/* End Sites land on their joints; CHANNELS 0 takes no values. */
static void end_sites_and_no_channels(void **state)
{
    (void)state;
    struct mocap_write_opts o = { .style = MOCAP_POSER, .order = MOCAP_YXZ, .end_sites = 1,
                                  .zero_toes = 1 };
    struct rtm_buf b;
    struct rtm_mocap *m = write_read(&o, &b);
    int ends = 0;
    for (uint32_t j = 0; j < m->njoints; j++) {
        const char *n = m->joint[j].name;
        int want = !strcmp(n, "head") || !strcmp(n, "lHand") || !strcmp(n, "rHand") ||
                   !strcmp(n, "lToe") || !strcmp(n, "rToe");
        assert_int_equal(m->joint[j].has_end, want);
        ends += m->joint[j].has_end;
        if (!strcmp(n, "lToe") || !strcmp(n, "rToe"))
            assert_int_equal(m->joint[j].nchan, 0);
        if (!strcmp(n, "head"))
            assert_true(fabs(m->joint[j].end[1] - 18) < 1e-9);  /* 0.18 m in cm */
    }
    assert_int_equal(ends, 5);
    assert_int_equal(m->nvalues, 6 + 19 * 3);
    rtm_mocap_free(m);
    rtm_buf_free(&b);
    o.end_sites = 0;
    m = write_read(&o, &b);
    for (uint32_t j = 0; j < m->njoints; j++)
        assert_int_equal(m->joint[j].has_end, 0);
    same_motion(&o, "poser, toes without channels");
    rtm_mocap_free(m);
    rtm_buf_free(&b);
}

/* Text as files in the wild have it: a BOM, keywords in any case, CR,
 * LF and CRLF mixed, tabs, a name with spaces, a brace on the name's
 * line, "End Site" split oddly, blank lines between rows, no last line end. */
static void line_ends_and_blanks(void **state)
{
    (void)state;
    static const char t[] = "\xef\xbb\xbfHierarchy\r\n"                  /* 1 */
                            "root Bip01 Pelvis {\r"                          /* 2 */
                            "\toffset\t0 90 0\n"                             /* 3 */
                            "\tchannels 6 Xposition Yposition Zposition "
                            "Yrotation Xrotation Zrotation\r\n"              /* 4 */
                            "\tJOINT Bip01 L Thigh\n"                        /* 5 */
                            "\t{\r\n"                                        /* 6 */
                            "\t\tOFFSET 9 -7 0\r"                            /* 7 */
                            "\t\tCHANNELS 3 xROTATION Zrotation Yrotation\n" /* 8 */
                            "\t\tEnd   Site\n"                               /* 9 */
                            "\t\t{ \n"                                       /* 10 */
                            "\t\t\tOFFSET 0 -40 0\r\n"                       /* 11 */
                            "\t\t}\n"                                        /* 12 */
                            "\t}\n"                                          /* 13 */
                            "}\r\n"                                          /* 14 */
                            "motion\n"                                       /* 15 */
                            "FRAMES:\t2\r\n"                                 /* 16 */
                            "Frame time: 0.04\n"                             /* 17 */
                            "1 2 3 4 5 6 7 8 9\r\n"                          /* 18 */
                            "\r\n\n"                                         /* 19, 20 */
                            "\t-1\t-2 -3 -4 -5 -6 -7 -8 -9.5  ";             /* 21 */
    struct rtm_mocap *m = read_ok(t, sizeof t - 1);
    assert_int_equal(m->njoints, 2);
    assert_string_equal(m->joint[0].name, "Bip01 Pelvis");
    assert_string_equal(m->joint[1].name, "Bip01 L Thigh");
    assert_int_equal(m->joint[0].line, 2);
    assert_int_equal(m->joint[1].line, 5);
    assert_int_equal(m->joint[1].parent, 0);
    assert_memory_equal(m->joint[0].chan, "XYZyxz", 6);
    assert_memory_equal(m->joint[1].chan, "xzy", 3);
    assert_int_equal(m->joint[1].first, 6);
    assert_true(m->joint[1].has_end && m->joint[1].end[1] == -40);
    assert_true(m->joint[0].offset[1] == 90 && m->joint[1].offset[0] == 9);
    assert_int_equal(m->nframes, 2);
    assert_true(m->frame_time == 0.04);
    assert_true(m->values[0] == 1 && m->values[8] == 9 && m->values[9] == -1);
    assert_true(m->values[17] == -9.5);
    const char *row = strstr(t, "1 2 3");
    assert_int_equal(m->motion_at, (uint64_t)(row - t));
    rtm_mocap_free(m);
}

/* Numbers: the nearest double, as strtod gives it, for every form a
 * writer prints; beyond 19 digits within one ULP. */
static void numbers_read_exactly(void **state)
{
    (void)state;
    static const char *const NUM[] = {
        "0", "-0", "0.1", "-0.0000", ".5", "5.", "+3", "1e-5", "1E+2", "-17.3198", "0.0083333",
        "4.9e-324", "1.7976931348623157e308", "2.2250738585072014e-308", "9007199254740993",
        "123456789012345678", "0.30000000000000004", "1e22", "1e23", "123.456e-30",
    };
    struct rtm_buf b;
    rtm_buf_init(&b);
    uint32_t seed = 12345;
    enum { RANDOM = 2000 };
    uint32_t n = sizeof NUM / sizeof *NUM + RANDOM;
    char (*txt)[40] = calloc(n, sizeof *txt);
    for (uint32_t i = 0; i < n; i++) {
        if (i < sizeof NUM / sizeof *NUM) {
            snprintf(txt[i], sizeof txt[i], "%s", NUM[i]);
            continue;
        }
        seed = seed * 1103515245u + 12345u;
        double v = ((double)(seed >> 8) / (1u << 24) - 0.5) * pow(10, (int)(seed % 9) - 3);
        snprintf(txt[i], sizeof txt[i], "%.*f", (int)(seed >> 28) % 10, v);
    }
    rtm_buf_printf(&b, "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation "
                       "Zrotation\n}\nMOTION\nFrames: %u\nFrame Time: 1\n", (n + 2) / 3);
    for (uint32_t i = 0; i < (n + 2) / 3 * 3; i++)
        rtm_buf_printf(&b, "%s%s", i < n ? txt[i] : "0", i % 3 == 2 ? "\n" : " ");
    struct rtm_mocap *m = read_ok(b.p, b.len);
    for (uint32_t i = 0; i < n; i++) {
        double want = strtod(txt[i], NULL), got = m->values[i];
        if (memcmp(&want, &got, sizeof got) != 0)
            fail_msg("'%s' read as %.17g, strtod says %.17g", txt[i], got, want);
    }
    rtm_mocap_free(m);
    rtm_buf_free(&b);
    free(txt);
    /* 25 digits: the first 19 kept */
    static const char big[] = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation "
                              "Yrotation Zrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\n"
                              "1234567890123456789012345 0.12345678901234567890123 "
                              "-9.99999999999999999999999e-100\n";
    m = read_ok(big, sizeof big - 1);
    const double want[3] = { 1234567890123456789012345.0, 0.12345678901234567890123,
                             -9.99999999999999999999999e-100 };
    for (int k = 0; k < 3; k++)
        assert_true(fabs(m->values[k] - want[k]) <= fabs(want[k]) * 2.3e-16);
    rtm_mocap_free(m);
}

/* A small good file the bad ones are made from. */
#define HEAD_OK "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
#define TAIL_OK "}\nMOTION\nFrames: 2\nFrame Time: 0.5\n"

static void bad_input_names_its_line(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } BAD[] = {
        { "", "line 1: no HIERARCHY" },
        { "ROOT a\n", "line 1 column 1: 'ROOT' where HIERARCHY was expected" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n", "line 5: the hierarchy ends inside a joint" },
        { HEAD_OK TAIL_OK "1 2 3\n4      5", "line 11: frame 1 has 2 values; its channels take 3" },
        { HEAD_OK TAIL_OK "1 2 3\n4 5 6 7\n", "line 11 column 7: frame 1 has more than" },
        { HEAD_OK TAIL_OK "1 2 3\n", "line 8: Frames says 2 frames of 3 values, at least 11" },
        { HEAD_OK TAIL_OK "1 2 3\n\n\n\n\n\n", "line 16: the motion ends after 1 of 2 frames" },
        { HEAD_OK TAIL_OK "1 2 3\n4 5 6\n7 8 9\n", "line 12: text after the last frame" },
        { HEAD_OK TAIL_OK "1 nan 3\n4 5 6\n", "line 10 column 3: a value: 'nan' is not a finite" },
        { HEAD_OK TAIL_OK "1 2 3\n4 5 -inf\n", "line 11 column 5: a value: '-inf' is not a fin" },
        { HEAD_OK TAIL_OK "1 2 1e999\n4 5 6\n", "line 10 column 5: a value: '1e999' is not a fin" },
        { HEAD_OK TAIL_OK "1 2 3\n1.#IND 5 6\n", "line 11 column 1: a value: '1.#IND' is not a f" },
        { HEAD_OK TAIL_OK "1 2,5 3\n4 5 6\n", "line 10 column 3: a value: '2,5' is not a number" },
        { HEAD_OK "JOINT b\n{\nOFFSET 0 1 0\n}\nJOINT b\n{\nOFFSET 0 1 0\n}\n" TAIL_OK,
          "line 10: joint 'b' is named twice (first on line 6)" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 4 Zrotation\n",
          "line 5 column 10: CHANNELS 4: a joint has 0, 3 or 6 channels" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Wrotation Yrotation\n",
          "line 5 column 22: unknown channel 'Wrotation'" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yrotation\n}\n",
          "line 5: CHANNELS 3 of a lists 2 channels" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yrotation Xrotation "
          "Xposition\n}\n", "line 5 column 42: CHANNELS 3 of a lists more than 3 channels" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yrotation Zrotation\n",
          "line 5 column 32: channel 'Zrotation' twice" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yposition Xrotation\n}\n",
          "line 5: CHANNELS 3 of a mixes positions and rotations" },
        { HEAD_OK "}\nMOTION\nFrames: 4000000000\nFrame Time: 0.5\n1 2 3\n",
          "line 8: Frames says 4000000000 frames of 3 values" },
        { HEAD_OK "}\nMOTION\nFrames: 99999999999\n", "line 8 column 9: Frames: '99999999999' is not a count" },
        { HEAD_OK "}\nMOTION\nFrames: 0\nFrame Time: 0.5\n", "line 8: Frames: 0: no motion" },
        { HEAD_OK "}\nMOTION\nFrames: 1\nFrame Time: 0\n1 2 3\n", "line 9: Frame Time 0" },
        { HEAD_OK "}\nMOTION\nFrame Time: 0.5\n", "line 8 column 1: 'Frame' where 'Frames:'" },
        { HEAD_OK "}\nMOTION\nFrames: 1\nFrame Time: nan\n1 2 3\n", "line 9 column 13: Frame Time: 'nan' is not a finite" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0\n", "line 4: OFFSET of a has 2 numbers, not 3" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 abc 0\n", "line 4 column 10: OFFSET: 'abc' is not a number" },
        { HEAD_OK "}\nROOT b\n{\n", "line 7 column 1: a second ROOT" },
        { "HIERARCHY\nROOT a\n{\nCHANNELS 0\n}\n", "line 5: joint 'a' has no OFFSET" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nEnd Site\n{\n}\n", "line 7: the End Site of 'a' has no OFFSET" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nJOINT b\nOFFSET 0 0 0\n", "line 6 column 1: 'OFFSET' where '{' was expected" },
        { "HIERARCHY\nROOT a\x01z\n{\n", "line 2 column 7: the name of a ROOT holds the byte 0x01" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nHIPS 1\n", "line 5 column 1: 'HIPS' is not a keyword" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n}\n}\n", "line 6 column 1: '}' where MOTION was expected" },
        { "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 1\nFrame Time: 0.5\n\n",
          "line 9: no joint has CHANNELS" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        struct rtm_mocap *m = (struct rtm_mocap *)1;
        struct rtm_error err = { 0 };
        size_t n = strlen(BAD[i].text);
        int rc = rtm_mocap_read((const uint8_t *)BAD[i].text, n, n, 0, &m, NULL, &err);
        if (rc != -1 || m || !strstr(err.msg, BAD[i].want))
            fail_msg("case %zu: rc %d, '%s', not '%s'", i, rc, err.msg, BAD[i].want);
        assert_int_equal(err.code, 0);
    }
}

/* 10,000 nested joints fail at the 257th, without recursion. */
static void deep_hierarchy_fails(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "HIERARCHY\n");
    for (int i = 0; i < 10000; i++)
        rtm_buf_printf(&b, "%s j%d\n{\nOFFSET 0 1 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n",
                       i ? "JOINT" : "ROOT", i);
    struct rtm_mocap *m = NULL;
    struct rtm_error err = { 0 };
    assert_int_equal(rtm_mocap_read((const uint8_t *)b.p, b.len, b.len, 0, &m, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "line 1026 column 1: joints nested deeper than 256"));
    rtm_buf_free(&b);
}

/* A head read asks for more until the Frame Time line is whole, then
 * gives what the whole read gives, without the values. */
static void head_reads_ask_for_more(void **state)
{
    (void)state;
    for (int crlf = 0; crlf < 2; crlf++) {
        struct mocap_write_opts o = { .style = MOCAP_CMU_MAX, .order = MOCAP_ZYX, .crlf = crlf,
                                      .end_sites = 1 };
        struct rtm_buf b;
        struct rtm_mocap *whole = write_read(&o, &b);
        size_t head = (size_t)whole->motion_at;
        for (size_t len = 0; len <= b.len; len += len < head + 4 ? 1 : 997) {
            struct rtm_mocap *m = NULL;
            struct rtm_error err = { 0 };
            uint64_t need = 0;
            int rc = rtm_mocap_read((const uint8_t *)b.p, len, b.len, RTM_MOCAP_HEAD, &m, &need,
                                    &err);
            if (len < head - (crlf ? 2 : 1)) {
                if (rc != RTM_PARSE_NEED_MORE)
                    fail_msg("%zu of %zu bytes: rc %d (%s)", len, b.len, rc, err.msg);
                assert_true(need > len && need <= b.len);
                assert_null(m);
                continue;
            }
            if (rc == RTM_PARSE_NEED_MORE && len < head)
                continue; /* the last line end not yet seen */
            if (rc != 0)
                fail_msg("%zu of %zu bytes (head %zu): rc %d (%s)", len, b.len, head, rc, err.msg);
            assert_int_equal(m->njoints, whole->njoints);
            assert_int_equal(m->nframes, whole->nframes);
            assert_int_equal(m->nvalues, whole->nvalues);
            assert_int_equal(m->motion_at, whole->motion_at);
            assert_true(m->frame_time == whole->frame_time);
            assert_null(m->values);
            for (uint32_t j = 0; j < m->njoints; j++)
                assert_string_equal(m->joint[j].name, whole->joint[j].name);
            rtm_mocap_free(m);
        }
        rtm_mocap_free(whole);
        rtm_buf_free(&b);
    }
    /* damage in the head fails at once, not "more" */
    static const char bad[] = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 x\n";
    struct rtm_mocap *m = NULL;
    struct rtm_error err = { 0 };
    uint64_t need = 0;
    assert_int_equal(rtm_mocap_read((const uint8_t *)bad, sizeof bad - 1, 100000,
                                    RTM_MOCAP_HEAD, &m, &need, &err), -1);
    assert_non_null(strstr(err.msg, "line 4 column 12"));
    /* a file too short for its Frames fails from file_size alone */
    static const char shorty[] = HEAD_OK TAIL_OK;
    assert_int_equal(rtm_mocap_read((const uint8_t *)shorty, sizeof shorty - 1, sizeof shorty + 5,
                                    RTM_MOCAP_HEAD, &m, &need, &err), -1);
    assert_non_null(strstr(err.msg, "Frames says 2 frames"));
}

static void sniff(void **state)
{
    (void)state;
    assert_true(rtm_mocap_sniff((const uint8_t *)"HIERARCHY\n", 10));
    assert_true(rtm_mocap_sniff((const uint8_t *)"\xef\xbb\xbf \r\nhierarchy", 15));
    assert_false(rtm_mocap_sniff((const uint8_t *)"HIERARCHYX", 10));
    assert_false(rtm_mocap_sniff((const uint8_t *)"RTM_0101", 8));
    assert_false(rtm_mocap_sniff((const uint8_t *)"HIER", 4));
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

static void shared_clips(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    static const struct { const char *file, *root; uint32_t joints, frames, values; double ft; }
        CLIP[] = { { "cmu_01_01.bvh", "Hips", 31, 2752, 96, 0.0083333 },
                   { "mixamo_freebvh.bvh", "mixamorig:Hips", 55, 69, 168, 0.0333333 } };
    for (size_t c = 0; c < 2; c++) {
        char path[4096];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/bvh/%s", dir, CLIP[c].file);
        char *p = slurp(path, &len);
        if (!p)
            skip_because("no ../shared");
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        struct rtm_mocap *m = read_ok(p, len);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        printf("# %s: %zu bytes read in %.2f ms: %.0f MB/s\n", CLIP[c].file, len, s * 1e3,
               len / s / 1e6);
        assert_string_equal(m->joint[0].name, CLIP[c].root);
        assert_int_equal(m->njoints, CLIP[c].joints);
        assert_int_equal(m->nframes, CLIP[c].frames);
        assert_int_equal(m->nvalues, CLIP[c].values);
        assert_true(m->frame_time == CLIP[c].ft);
        for (size_t i = 0; i < (size_t)m->nframes * m->nvalues; i++)
            assert_true(isfinite(m->values[i]));
        if (c == 0) /* the first row and the last value, as written */
            assert_true(m->values[0] == 9.3722 && m->values[1] == 17.8693 &&
                        m->values[(size_t)m->nframes * m->nvalues - 1] == -0.9244);
        rtm_mocap_free(m);
        /* every cut of the text fails, or reads as a file of that length */
        for (size_t cut = 0; cut < len; cut += 4099) {
            struct rtm_error err = { 0 };
            m = NULL;
            int rc = rtm_mocap_read((const uint8_t *)p, cut, cut, 0, &m, NULL, &err);
            assert_int_equal(rc, -1);
            assert_null(m);
            assert_true(strncmp(err.msg, "line ", 5) == 0);
        }
        free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_order_and_channel_count),
        cmocka_unit_test(every_style_unit_and_rest),
        cmocka_unit_test(end_sites_and_no_channels),
        cmocka_unit_test(line_ends_and_blanks),
        cmocka_unit_test(numbers_read_exactly),
        cmocka_unit_test(bad_input_names_its_line),
        cmocka_unit_test(deep_hierarchy_fails),
        cmocka_unit_test(head_reads_ask_for_more),
        cmocka_unit_test(sniff),
        cmocka_unit_test(shared_clips),
    };
    return run_test_cases(tests, NULL, NULL);
}
