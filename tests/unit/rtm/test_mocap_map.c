/* test_mocap_map.c - which bone each BVH joint stands for and the unit of
 * a file (src/rtm/mocap_map.c, mocap.h): every naming the writer knows,
 * mapped onto ofp2 joint by joint; spine and neck joints dealt out by
 * their order; a map file overriding, and its errors; two joints on one
 * bone; a skeleton without the man's names; every unit; the shared clips. */
#include "testutil.h"

#include <math.h>

#include "mocap.h"
#include "mocap_write.h"
#include "skeleton.h"

static struct rtm_skeleton *ofp2(void)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("ofp2", &s, &err), 0);
    return s;
}

static struct rtm_mocap *read_text(const char *p, size_t n)
{
    struct rtm_mocap *m = NULL;
    struct rtm_error err = { 0 };
    if (rtm_mocap_read((const uint8_t *)p, n, n, 0, &m, NULL, &err))
        fail_msg("read failed: %s", err.msg);
    return m;
}

static struct rtm_mocap *written(const struct mocap_write_opts *o)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_mocap_write(o, &b), 0);
    struct rtm_mocap *m = read_text(b.p, b.len);
    rtm_buf_free(&b);
    return m;
}

static void map_ok(const struct rtm_mocap *m, const struct rtm_skeleton *s, const char *text,
                   struct rtm_mocap_map *map)
{
    struct rtm_error err = { 0 };
    if (rtm_mocap_map(m, s, text, text ? strlen(text) : 0, "test.map", map, &err))
        fail_msg("map failed: %s", err.msg);
}

static const char *bone_of(const struct rtm_mocap_map *map, const struct rtm_skeleton *s,
                           uint32_t j)
{
    return map->bone[j] >= 0 ? s->bone[map->bone[j]] : "-";
}

static void every_naming_maps(void **state)
{
    (void)state;
    static const enum rtm_mocap_naming WANT[MOCAP_STYLES] = {
        [MOCAP_MIXAMO] = RTM_NAMING_HUMANIK,    [MOCAP_CMU_MB] = RTM_NAMING_HUMANIK,
        [MOCAP_CMU_MAX] = RTM_NAMING_CMU_MAX,   [MOCAP_POSER] = RTM_NAMING_POSER,
        [MOCAP_SUFFIX] = RTM_NAMING_SUFFIX,     [MOCAP_SUFFIX_DOT] = RTM_NAMING_SUFFIX,
        [MOCAP_SIDE_WORD] = RTM_NAMING_SUFFIX,  [MOCAP_UNREAL] = RTM_NAMING_SUFFIX,
        [MOCAP_OFP2] = RTM_NAMING_SKELETON,
    };
    struct rtm_skeleton *s = ofp2();
    for (int st = 0; st < MOCAP_STYLES; st++) {
        struct mocap_write_opts o = { .style = (enum mocap_style)st, .order = MOCAP_ZXY,
                                      .nframes = 2 };
        struct rtm_mocap *m = written(&o);
        struct rtm_mocap_map map;
        map_ok(m, s, NULL, &map);
        const char *names[32], *man[32];
        uint32_t n = rtm_mocap_write_joints(o.style, names, man, 32), mapped = 0;
        assert_int_equal(n, m->njoints);
        if (map.naming != WANT[st])
            fail_msg("%s: naming %s, not %s", rtm_mocap_style_name(o.style),
                     rtm_mocap_naming_name(map.naming), rtm_mocap_naming_name(WANT[st]));
        for (uint32_t j = 0; j < n; j++) {
            const char *want = man[j] ? man[j] : "-";
            if (strcmp(bone_of(&map, s, j), want) != 0)
                fail_msg("%s: joint %s on %s, not %s", rtm_mocap_style_name(o.style),
                         m->joint[j].name, bone_of(&map, s, j), want);
            int how = st == MOCAP_OFP2 ? RTM_MAP_EXACT : RTM_MAP_NAMING;
            assert_int_equal(map.how[j], how);
            assert_int_equal(map.wanted[j], map.bone[j]);
            mapped += man[j] != NULL;
        }
        assert_int_equal(map.nmapped, mapped);
        rtm_mocap_map_free(&map);
        rtm_mocap_free(m);
    }
    rtm_skeleton_free(s);
}

/* A hierarchy of the given joint names, each the child of the one before
 * (a chain), with three rotation channels each. */
static struct rtm_mocap *chain(const char *const *names, int n)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "HIERARCHY\n");
    for (int i = 0; i < n; i++)
        rtm_buf_printf(&b, "%s %s\n{\nOFFSET 0 10 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n",
                       i ? "JOINT" : "ROOT", names[i]);
    for (int i = 0; i < n; i++)
        rtm_buf_puts(&b, "}\n");
    rtm_buf_puts(&b, "MOTION\nFrames: 1\nFrame Time: 0.1\n");
    for (int i = 0; i < 3 * n; i++)
        rtm_buf_puts(&b, "0 ");
    struct rtm_mocap *m = read_text(b.p, b.len);
    rtm_buf_free(&b);
    return m;
}

static void spine_and_neck_by_order(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    static const struct { int n; const char *names[10], *want[10]; } CASE[] = {
        { 4, { "Hips", "Spine", "Neck", "Head" }, { "Pelvis", "Spine", "neck", "head" } },
        { 6, { "Hips", "LowerBack", "Spine", "Spine1", "Neck", "Head" },
          { "Pelvis", "Spine", "Spine1", "Spine2", "neck", "head" } },
        { 7, { "Hips", "Spine", "Spine1", "Spine2", "Spine3", "Neck", "Head" },
          { "Pelvis", "Spine", "Spine1", "Spine2", "Spine3", "neck", "head" } },
        { 10, { "Hips", "LowerBack", "Spine", "Spine1", "Spine2", "Spine3", "Neck", "Neck1",
                "Neck2", "Head" },
          { "Pelvis", "Spine", "Spine1", "Spine2", "-", "Spine3", "neck", "-", "neck1", "head" } },
        { 6, { "hip", "abdomen", "chest", "neck", "neck1", "head" },
          { "Pelvis", "Spine", "Spine1", "neck", "neck1", "head" } },
        { 7, { "Hips", "Chest", "Chest2", "Chest3", "Chest4", "Neck", "Head" },
          { "Pelvis", "Spine", "Spine1", "Spine2", "Spine3", "neck", "head" } },
    };
    for (size_t c = 0; c < sizeof CASE / sizeof *CASE; c++) {
        struct rtm_mocap *m = chain(CASE[c].names, CASE[c].n);
        struct rtm_mocap_map map;
        map_ok(m, s, NULL, &map);
        for (int j = 0; j < CASE[c].n; j++)
            if (strcmp(bone_of(&map, s, (uint32_t)j), CASE[c].want[j]) != 0)
                fail_msg("case %zu: %s on %s, not %s", c, CASE[c].names[j],
                         bone_of(&map, s, (uint32_t)j), CASE[c].want[j]);
        rtm_mocap_map_free(&map);
        rtm_mocap_free(m);
    }
    rtm_skeleton_free(s);
}

/* The map file's lines come first; its "-" unmaps; the rest as before. */
static void map_file_overrides(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    struct mocap_write_opts o = { .style = MOCAP_CMU_MAX, .nframes = 2 };
    struct rtm_mocap *m = written(&o);
    struct rtm_mocap_map map;
    map_ok(m, s, "# CMU, the other way\r\n  leftshoulder   LeftShoulder  # any case\n"
                 "LeftCollar -\n\nhips Spine3\n", &map);
    for (uint32_t j = 0; j < m->njoints; j++) {
        const char *n = m->joint[j].name, *b = bone_of(&map, s, j);
        if (!strcmp(n, "LeftShoulder")) {
            assert_string_equal(b, "LeftShoulder");
            assert_int_equal(map.how[j], RTM_MAP_FILE);
        } else if (!strcmp(n, "LeftCollar") || !strcmp(n, "Hips")) {
            assert_string_equal(b, !strcmp(n, "Hips") ? "Spine3" : "-");
            assert_int_equal(map.how[j], RTM_MAP_FILE);
        } else if (!strcmp(n, "RightShoulder")) {
            assert_string_equal(b, "RightArm");
            assert_int_equal(map.how[j], RTM_MAP_NAMING);
        } else if (!strcmp(n, "Chest2")) {
            /* the naming's Spine2 is free; a file's Spine3 took nothing of it */
            assert_string_equal(b, "Spine2");
        }
    }
    rtm_mocap_map_free(&map);
    /* map file errors name the file and line */
    static const struct { const char *text, *want; } BAD[] = {
        { "Hips\n", "test.map line 1: 'Hips' has no target" },
        { "# c\nNoSuchJoint Pelvis\n", "test.map line 2: no joint 'NoSuchJoint' in the BVH" },
        { "Hips NoBone\n", "test.map line 1: no bone 'NoBone' in skeleton ofp2" },
        { "Hips Pelvis\nHips Spine\n", "test.map line 2: joint 'Hips' is mapped on line 1" },
        { "Hips Pelvis\r\nChest pelvis\n", "test.map line 2: bone 'Pelvis' is the target of line 1" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        struct rtm_error err = { 0 };
        assert_int_equal(rtm_mocap_map(m, s, BAD[i].text, strlen(BAD[i].text), "test.map", &map,
                                       &err), -1);
        if (!strstr(err.msg, BAD[i].want))
            fail_msg("case %zu: '%s', not '%s'", i, err.msg, BAD[i].want);
        assert_null(map.bone);
    }
    rtm_mocap_free(m);
    rtm_skeleton_free(s);
}

/* Two joints on one bone: the one nearer the root keeps it. */
static void one_bone_two_joints(void **state)
{
    (void)state;
    struct rtm_skeleton *s = ofp2();
    static const char *const NAMES[] = { "Pelvis", "LeftArm", "leftarm", "LeftForeArm" };
    struct rtm_mocap *m = chain(NAMES, 4);
    struct rtm_mocap_map map;
    map_ok(m, s, NULL, &map);
    assert_int_equal(map.naming, RTM_NAMING_SKELETON);
    assert_string_equal(bone_of(&map, s, 1), "LeftArm");
    assert_int_equal(map.bone[2], -1);
    assert_int_equal(map.how[2], RTM_MAP_TAKEN);
    assert_string_equal(s->bone[map.wanted[2]], "LeftArm");
    assert_int_equal(map.nmapped, 3);
    rtm_mocap_map_free(&map);
    rtm_mocap_free(m);
    rtm_skeleton_free(s);
}

/* A skeleton without the man's names: the naming's bone is not there,
 * so the exact name decides. */
static void other_skeleton(void **state)
{
    (void)state;
    static const char skel[] = "Hips -\nSpine Hips\nLeftArm Spine\nLeftShoulder Spine\n";
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_parse(skel, sizeof skel - 1, "mine", &s, &err), 0);
    struct mocap_write_opts o = { .style = MOCAP_MIXAMO, .nframes = 2 };
    struct rtm_mocap *m = written(&o);
    struct rtm_mocap_map map;
    map_ok(m, s, NULL, &map);
    assert_int_equal(map.naming, RTM_NAMING_HUMANIK);
    for (uint32_t j = 0; j < m->njoints; j++) {
        const char *n = m->joint[j].name + strlen("mixamorig:");
        int want = !strcmp(n, "Hips") || !strcmp(n, "Spine") || !strcmp(n, "LeftArm") ||
                   !strcmp(n, "LeftShoulder");
        assert_int_equal(map.bone[j] >= 0, want);
        if (want)
            assert_string_equal(bone_of(&map, s, j), n);
    }
    assert_int_equal(map.nmapped, 4);
    rtm_mocap_map_free(&map);
    rtm_mocap_free(m);
    rtm_skeleton_free(s);
}

static void naming_names(void **state)
{
    (void)state;
    assert_string_equal(rtm_mocap_naming_name(RTM_NAMING_NONE), "none");
    assert_string_equal(rtm_mocap_naming_name(RTM_NAMING_SKELETON), "skeleton");
    assert_string_equal(rtm_mocap_naming_name(RTM_NAMING_HUMANIK), "humanik");
    assert_string_equal(rtm_mocap_naming_name(RTM_NAMING_CMU_MAX), "cmu-max");
    assert_string_equal(rtm_mocap_naming_name(RTM_NAMING_POSER), "poser");
    assert_string_equal(rtm_mocap_naming_name(RTM_NAMING_SUFFIX), "suffix");
}

static void units_inferred(void **state)
{
    (void)state;
    static const struct { double unit; const char *name; } U[] = {
        { 0.01, "cm" }, { 1, "m" }, { 0.0254, "in" }, { 0.0254 / 0.45, "cmu" },
    };
    for (size_t u = 0; u < 4; u++)
        for (int down = 0; down < 2; down++) {
            struct mocap_write_opts o = { .style = MOCAP_POSER, .unit = U[u].unit,
                                          .arms_down = down, .end_sites = 1, .nframes = 2 };
            struct rtm_mocap *m = written(&o);
            double h = 0;
            const char *name = NULL;
            double got = rtm_mocap_unit_infer(m, &h, &name);
            assert_true(got == U[u].unit);
            assert_string_equal(name, U[u].name);
            assert_true(fabs(h * U[u].unit - 1.71) < 1e-4);
            rtm_mocap_free(m);
        }
    static const char *const ONE[] = { "a" };
    struct rtm_mocap *m = chain(ONE, 1);
    m->joint[0].offset[1] = 0;
    const char *name;
    assert_true(rtm_mocap_unit_infer(m, NULL, &name) == 1);
    assert_string_equal(name, "m");
    rtm_mocap_free(m);
}

static struct rtm_mocap *shared_clip(const char *file)
{
    const char *dir = shared_dir();
    char path[4096];
    if (!dir)
        return NULL;
    snprintf(path, sizeof path, "%s/bvh/%s", dir, file);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct rtm_buf b;
    rtm_buf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rtm_buf_put(&b, chunk, n);
    fclose(f);
    struct rtm_mocap *m = read_text(b.p, b.len);
    rtm_buf_free(&b);
    return m;
}

/* The shared clips: their naming, unit, what maps where, what stays out. */
static void shared_clips(void **state)
{
    (void)state;
    static const struct {
        const char *file, *unit, *pairs, *unmapped;
        double height_lo, height_hi;
        uint32_t nmapped;
    } CLIP[] = {
        { "cmu_01_01.bvh", "cmu",
          "Hips Pelvis LowerBack Spine Spine Spine1 Spine1 Spine2 Neck neck Neck1 neck1 "
          "Head head LeftShoulder LeftShoulder LeftArm LeftArm LeftForeArm LeftForeArm "
          "LeftHand LeftHand RightUpLeg RightUpLeg RightLeg RightLeg RightFoot RightFoot "
          "RightToeBase RightToeBase",
          "LHipJoint RHipJoint LeftFingerBase LFingers LThumb RightFingerBase RFingers RThumb",
          24, 30, 23 },
        { "mixamo_freebvh.bvh", "cm",
          "mixamorig:Hips Pelvis mixamorig:Spine Spine mixamorig:Spine1 Spine1 "
          "mixamorig:Spine2 Spine2 mixamorig:Neck neck mixamorig:Head head "
          "mixamorig:LeftShoulder LeftShoulder mixamorig:LeftHandPinky3 LeftHandPinky3 "
          "mixamorig:RightToeBase RightToeBase",
          "mixamorig:HeadTop_End mixamorig:LeftEye mixamorig:RightEye", 150, 200, 52 },
    };
    struct rtm_skeleton *s = ofp2();
    for (size_t c = 0; c < 2; c++) {
        struct rtm_mocap *m = shared_clip(CLIP[c].file);
        if (!m) {
            rtm_skeleton_free(s);
            skip_because("no ../shared");
        }
        struct rtm_mocap_map map;
        map_ok(m, s, NULL, &map);
        assert_int_equal(map.naming, RTM_NAMING_HUMANIK);
        double h;
        const char *unit;
        rtm_mocap_unit_infer(m, &h, &unit);
        printf("# %s: naming %s, height %.2f %s, %u of %u joints mapped\n", CLIP[c].file,
               rtm_mocap_naming_name(map.naming), h, unit, map.nmapped, m->njoints);
        assert_string_equal(unit, CLIP[c].unit);
        assert_true(h > CLIP[c].height_lo && h < CLIP[c].height_hi);
        assert_int_equal(map.nmapped, CLIP[c].nmapped);
        char pairs[1024], *save, *tok;
        snprintf(pairs, sizeof pairs, "%s", CLIP[c].pairs);
        for (tok = strtok_r(pairs, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            const char *bone = strtok_r(NULL, " ", &save);
            int found = 0;
            for (uint32_t j = 0; j < m->njoints; j++)
                if (!strcmp(m->joint[j].name, tok)) {
                    found = 1;
                    if (strcmp(bone_of(&map, s, j), bone))
                        fail_msg("%s: %s on %s, not %s", CLIP[c].file, tok,
                                 bone_of(&map, s, j), bone);
                }
            assert_true(found);
        }
        /* the unmapped joints, exactly */
        char un[1024] = "";
        for (uint32_t j = 0; j < m->njoints; j++)
            if (map.bone[j] < 0)
                snprintf(un + strlen(un), sizeof un - strlen(un), "%s%s", *un ? " " : "",
                         m->joint[j].name);
        assert_string_equal(un, CLIP[c].unmapped);
        rtm_mocap_map_free(&map);
        rtm_mocap_free(m);
    }
    rtm_skeleton_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_naming_maps),
        cmocka_unit_test(spine_and_neck_by_order),
        cmocka_unit_test(map_file_overrides),
        cmocka_unit_test(one_bone_two_joints),
        cmocka_unit_test(other_skeleton),
        cmocka_unit_test(naming_names),
        cmocka_unit_test(units_inferred),
        cmocka_unit_test(shared_clips),
    };
    return run_test_cases(tests, NULL, NULL);
}
