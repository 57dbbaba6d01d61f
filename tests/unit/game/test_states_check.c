/* test_states_check.c - the root check.txt (states_check.h): each check on
 * a made-up addon with the mistake, and on the same addon without it, so
 * that each is seen to fire and to stay quiet; the levels of a name no
 * config defines with and without the base game; the bones of a state's
 * file against its class's skeleton (skeletonName, skeletonInherit); and
 * the findings remembered and given back byte for byte; a table finished
 * without them (rtm_states_check_later), or without its lines
 * (rtm_states_lines_later). */
#include "cfg_testutil.h"
#include "states_check.h"
#include "states_skeleton.h"

/* The base a mod builds on, as the game would give it (the moves class,
 * its Actions, BlendAnims and skeleton). */
#define BASIC                                                                          \
    "class CfgSkeletons { class Base { skeletonBones[] = {\"pelvis\", \"\", "          \
    "\"spine\", \"pelvis\"}; };\n"                                                    \
    "  class Dog : Base { skeletonInherit = \"Base\"; skeletonBones[] = "             \
    "{\"jaw\", \"spine\"}; }; };\n"                                                  \
    "class CfgMovesBasic { class Default { file = \"\"; };\n"                          \
    "  class Actions { class NoActions { }; };\n"                                    \
    "  class BlendAnims { upper[] = {\"spine\", 1}; }; };\n"

/* A dog's moves class with one state: body goes inside the state. */
#define DOG(body)                                                                      \
    "class CfgMovesDog : CfgMovesBasic { skeletonName = \"Dog\";\n"                    \
    "  class States { class Idle : Default { file = \"\\m\\idle.rtm\"; };\n"        \
    "    class Walk : Default { file = \"\\m\\walk.rtm\"; " body " }; }; };\n"

static const struct rtm_str BONES[] = { { "pelvis", 6 }, { "spine", 5 }, { "jaw", 3 },
                                        { "tail", 4 } };
static uint32_t nbones = 3;            /* the file's: tail only when set to 4 */

static int bones_of(void *ctx, const char *key, rtm_states_bones_visit *visit, void *vctx)
{
    (void)ctx;
    if (strcmp(key, "m\\walk.rtm") != 0)
        return -1;                      /* idle.rtm is missing */
    visit(vctx, BONES, nbones);
    return 0;
}

static int later;                      /* tables are finished without findings */
static int lines_later;                /* and without their lines */

static struct rtm_states *table(const char *mod, const char *game)
{
    struct rtm_states *s = rtm_states_new();
    assert_non_null(s);
    if (later)
        rtm_states_check_later(s);
    if (lines_later)
        rtm_states_lines_later(s);
    assert_int_equal(rtm_states_add(s, text_ok(BASIC), "base/config.cpp"), 0);
    if (game)
        assert_int_equal(rtm_states_add(s, text_ok(game), "game/config.bin"), 0);
    assert_int_equal(rtm_states_add(s, text_ok(mod), "mod/config.cpp"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    return s;
}

/* table(mod, NULL) with *flag (later or lines_later) set while it is made. */
static struct rtm_states *table_with(int *flag, const char *mod)
{
    *flag = 1;
    struct rtm_states *s = table(mod, NULL);
    *flag = 0;
    return s;
}

static char *check_of(const struct rtm_states *s)
{
    struct rtm_buf b;
    size_t len;
    rtm_buf_init(&b);
    rtm_states_check_render(s, bones_of, NULL, &b);
    rtm_buf_putc(&b, 0);
    assert_false(b.oom);
    return rtm_buf_take(&b, &len);
}

/* check.txt of the dog with body in its state, and the game's config. */
static void expect(const char *body_cfg, const char *game, const char *want)
{
    struct rtm_states *s = table(body_cfg, game);
    char *got = check_of(s);
    assert_string_equal(got, want);
    free(got);
    rtm_states_free(s);
}

static void quiet_when_right(void **state)
{
    (void)state;
    expect(DOG("connectTo[] = {\"Idle\", 0.5}; interpolateTo[] = {\"Idle\", 1};"
               " actions = \"NoActions\"; mask = \"upper\"; equivalentTo = \"Idle\";"
               " rightHandIKCurve[] = {0, 1, 0.5, 0}; leftHandIKCurve[] = {1};"),
           NULL, "");
}

static void names_nowhere(void **state)
{
    (void)state;
    const char *mod = DOG("connectTo[] = {\"Idle\", 0.5, \"Run\", 0.1};"
                          " actions = \"DogActions\"; mask = \"lower\";"
                          " equivalentTo = \"Sit\";");
    expect(mod, NULL,
           "note name-not-in-source: mod/config.cpp: CfgMovesDog/States/Walk: connectTo names"
           " state 'Run', which no config under SOURCE defines (the game's own, or a mistake)\n"
           "note name-not-in-source: mod/config.cpp: CfgMovesDog/States/Walk: equivalentTo"
           " names state 'Sit', which no config under SOURCE defines (the game's own, or a"
           " mistake)\n"
           "note name-not-in-source: mod/config.cpp: CfgMovesDog/States/Walk: actions names a"
           " class of Actions 'DogActions', which no config under SOURCE defines (the game's"
           " own, or a mistake)\n"
           "note name-not-in-source: mod/config.cpp: CfgMovesDog/States/Walk: mask names an"
           " entry of BlendAnims 'lower', which no config under SOURCE defines (the game's"
           " own, or a mistake)\n");
    /* with the base game under SOURCE the same are errors */
    const char *game = "class CfgMovesMaleSdr { class States {"
                       " class AmovPercMstpSnonWnonDnon { }; }; };\n";
    struct rtm_states *s = table(mod, game);
    char *got = check_of(s);
    assert_non_null(strstr(got, "error name-not-defined: mod/config.cpp: CfgMovesDog/States/"
                                "Walk: connectTo names state 'Run', which no config under "
                                "SOURCE defines\n"));
    assert_null(strstr(got, "note"));
    free(got);
    rtm_states_free(s);
}

static void pairs_that_are_not(void **state)
{
    (void)state;
    expect(DOG("connectTo[] = {\"Idle\", 0.5, \"Idle\"}; interpolateTo[] = {\"Idle\", \"x\"};"),
           NULL,
           "error not-pairs: mod/config.cpp: CfgMovesDog/States/Walk: connectTo[] has 3"
           " elements: pairs (name, weight) need an even count\n"
           "error not-pairs: mod/config.cpp: CfgMovesDog/States/Walk: interpolateTo[] element"
           " 2, a weight, is no number\n");
    /* a BlendAnims entry is (bone, weight) pairs too */
    struct rtm_states *s = table(DOG("mask = \"odd\";") "class CfgMovesBasic {"
                                 " class BlendAnims { odd[] = {\"spine\", 1, 0.5}; }; };\n",
                                 NULL);
    char *got = check_of(s);
    assert_string_equal(got, "error not-pairs: mod/config.cpp: CfgMovesBasic/BlendAnims: odd[]"
                             " has 3 elements: pairs (name, weight) need an even count\n"
                             "error not-pairs: mod/config.cpp: CfgMovesBasic/BlendAnims: odd[]"
                             " element 3, a name, is no string\n");
    free(got);
    rtm_states_free(s);
}

static void ik_curve_size(void **state)
{
    (void)state;
    expect(DOG("rightHandIKCurve[] = {0, 1, 0.5};"), NULL,
           "error ik-curve-size: mod/config.cpp: CfgMovesDog/States/Walk: rightHandIKCurve[]"
           " has 3 elements, neither one value nor (phase, value) pairs: the game logs"
           " 'rightHandIKCurve, wrong size'\n");
}

/* The file's bones against the class's skeleton, Dog through
 * skeletonInherit; a mask's bones too. */
static void bones_of_the_class_skeleton(void **state)
{
    (void)state;
    nbones = 4;
    expect(DOG(""), NULL,
           "error bone-not-in-skeleton: mod/config.cpp: CfgMovesDog/States/Walk: file"
           " \\m\\walk.rtm: Bone tail doesn't exist in skeleton Dog\n");
    nbones = 3;
    expect(DOG("mask = \"head\";") "class CfgMovesBasic { class BlendAnims {"
           " head[] = {\"jaw\", 1, \"ear\", 0.5}; }; };\n", NULL,
           "warning mask-bone-not-in-skeleton: mod/config.cpp: CfgMovesBasic/BlendAnims:"
           " head[] names bone 'ear', which skeleton Dog does not have\n");
    /* a skeleton no config has: said, and no bone checked */
    nbones = 4;
    expect("class CfgMovesCat : CfgMovesBasic { skeletonName = \"Cat\"; class States {"
           " class Walk : Default { file = \"\\m\\walk.rtm\"; }; }; };\n", NULL,
           "note skeleton-not-in-source: mod/config.cpp: CfgMovesCat: skeletonName 'Cat' is a"
           " class of CfgSkeletons no config under SOURCE has: no bone is checked\n");
    nbones = 3;
}

/* A mod whose moves class names the game's man skeleton without defining
 * it, as a released mod does (aur in ../shared/addons): six planted
 * mistakes, two of them bones that OFP2_ManSkeleton lacks, among clean
 * states and a clean mask. */
#define MAN_MOD MAN_MOD_OF("ofp2_manskeleton")
#define MAN_MOD_OF(skeleton)                                                            \
    "class CfgMovesBasic { class Default { file = \"\"; };\n"                           \
    "  class Actions { class NoActions { }; }; };\n"                                     \
    "class CfgMovesMod : CfgMovesBasic { skeletonName = \"" skeleton "\";\n"            \
    "  class BlendAnims { clean[] = {\"Spine\", 1, \"head\", 0.5};\n"                  \
    "    wrong[] = {\"Spine\", 1, \"Tail\", 0.5}; };\n"                                  \
    "  class States {\n"                                                                \
    "    class Clean : Default { file = \"\\m\\clean.rtm\"; mask = \"clean\";\n"        \
    "      connectTo[] = {\"Clean2\", 1}; };\n"                                          \
    "    class Clean2 : Clean { file = \"\\m\\clean2.rtm\"; };\n"                      \
    "    class Face : Default { file = \"\\m\\face.rtm\"; };\n"                        \
    "    class Masked : Default { file = \"\\m\\clean.rtm\"; mask = \"wrong\"; };\n"   \
    "    class Odd : Default { file = \"\\m\\clean.rtm\"; connectTo[] = {\"Clean\"};\n" \
    "      interpolateTo[] = {\"Clean\", \"x\"}; actions = \"Nowhere\";\n"               \
    "      leftHandIKCurve[] = {0, 1, 0.5}; }; }; };\n"

static const struct rtm_str MAN_CLEAN[] = { { "Pelvis", 6 }, { "spine", 5 }, { "head", 4 } };
static const struct rtm_str MAN_FACE[] = { { "Pelvis", 6 }, { "cheek_lf", 8 }, { "head", 4 } };

static int man_bones_of(void *ctx, const char *key, rtm_states_bones_visit *visit, void *vctx)
{
    (void)ctx;
    if (strcmp(key, "m\\face.rtm") == 0)
        visit(vctx, MAN_FACE, 3);
    else if (strcmp(key, "m\\clean.rtm") == 0 || strcmp(key, "m\\clean2.rtm") == 0)
        visit(vctx, MAN_CLEAN, 3);
    else
        return -1;
    return 0;
}

static char *man_check(const char *mod, const char *model_cfg)
{
    struct rtm_states *s = rtm_states_new();
    assert_non_null(s);
    assert_int_equal(rtm_states_add(s, text_ok(mod), "mod/config.cpp"), 0);
    if (model_cfg)
        assert_int_equal(rtm_states_add(s, text_ok(model_cfg), "mod/model.cfg"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    struct rtm_buf b;
    size_t len;
    rtm_buf_init(&b);
    rtm_states_check_render(s, man_bones_of, NULL, &b);
    rtm_buf_putc(&b, 0);
    assert_false(b.oom);
    rtm_states_free(s);
    return rtm_buf_take(&b, &len);
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* Checked against the built-in ofp2, which is that skeleton: all six found
 * once, the clean states and mask quiet; where SOURCE defines the class
 * its definition wins. */
static void game_man_skeleton(void **state)
{
    (void)state;
    char *got = man_check(MAN_MOD, NULL);
    static const char *const six[] = {
        "error bone-not-in-skeleton: mod/config.cpp: CfgMovesMod/States/Face: file"
        " \\m\\face.rtm: Bone cheek_lf doesn't exist in skeleton ofp2_manskeleton (the game's"
        " own, built into rtmfs)\n",
        "error not-pairs: mod/config.cpp: CfgMovesMod/States/Odd: connectTo[] has 1 elements",
        "error not-pairs: mod/config.cpp: CfgMovesMod/States/Odd: interpolateTo[] element 2,"
        " a weight, is no number\n",
        "error ik-curve-size: mod/config.cpp: CfgMovesMod/States/Odd: leftHandIKCurve[]",
        "warning mask-bone-not-in-skeleton: mod/config.cpp: CfgMovesMod/BlendAnims: wrong[]"
        " names bone 'Tail', which skeleton ofp2_manskeleton (the game's own, built into"
        " rtmfs) does not have\n",
        "note name-not-in-source: mod/config.cpp: CfgMovesMod/States/Odd: actions names a"
        " class of Actions 'Nowhere'",
    };
    for (size_t i = 0; i < sizeof six / sizeof *six; i++) {
        if (count_of(got, six[i]) != 1)
            fail_msg("not found once: %s\nin:\n%s", six[i], got);
    }
    assert_int_equal(count_of(got, "\n"), 6);
    assert_null(strstr(got, "Clean"));
    assert_null(strstr(got, "skeleton-not-in-source"));
    free(got);
    /* the mod's own model.cfg defines OFP2_ManSkeleton otherwise: with
     * cheek_lf and Tail, without head; that wins, and it is not the game's */
    got = man_check(MAN_MOD, "class CfgSkeletons { class OFP2_ManSkeleton { skeletonBones[] = {"
                    "\"Pelvis\", \"\", \"Spine\", \"Pelvis\", \"cheek_lf\", \"Spine\","
                    " \"Tail\", \"Pelvis\"}; }; };\n");
    assert_int_equal(count_of(got, "Bone cheek_lf"), 0);
    assert_int_equal(count_of(got, "names bone 'Tail'"), 0);
    assert_int_equal(count_of(got, "built into rtmfs"), 0);
    assert_int_equal(count_of(got, "CfgMovesMod/States/Clean: file \\m\\clean.rtm: Bone head"
                                   " doesn't exist in skeleton ofp2_manskeleton\n"), 1);
    assert_int_equal(count_of(got, "CfgMovesMod/States/Face: file \\m\\face.rtm: Bone head"
                                   " doesn't exist in skeleton ofp2_manskeleton\n"), 1);
    assert_int_equal(count_of(got, "names bone 'head', which skeleton ofp2_manskeleton does"
                                   " not have"), 1);
    free(got);
    /* a model.cfg class that inherits the game's skeleton it does not
     * define: the built-in's bones, then its own */
    got = man_check(MAN_MOD_OF("OFP2_ManSkeleton_Mod"),
                    "class CfgSkeletons { class OFP2_ManSkeleton_Mod { skeletonInherit ="
                    " \"OFP2_ManSkeleton\"; skeletonBones[] = {\"cheek_lf\", \"head\"}; }; };\n");
    assert_int_equal(count_of(got, "error bone-not-in-skeleton"), 0);
    assert_int_equal(count_of(got, "names bone 'Tail', which skeleton OFP2_ManSkeleton_Mod does"
                                   " not have"), 1);
    free(got);
}

/* What a later mount gets from the index reads the same. */
static void remembered_as_made(void **state)
{
    (void)state;
    nbones = 4;
    struct rtm_states *s = table(DOG("connectTo[] = {\"Run\", 0.5, \"Idle\"};"), NULL);
    char *want = check_of(s);
    struct rtm_buf packed;
    rtm_buf_init(&packed);
    assert_int_equal(rtm_states_check_pack(s, &packed), 0);
    struct rtm_states *back = rtm_states_new();
    for (size_t i = 0; rtm_states_config(s, i); i++)
        assert_int_equal(rtm_states_add(back, NULL, rtm_states_config(s, i)), 0);
    assert_int_equal(rtm_states_check_unpack(back, (const uint8_t *)packed.p, packed.len), 0);
    assert_int_equal(rtm_states_finish(back), 0);
    char *got = check_of(back);
    assert_string_equal(got, want);
    assert_non_null(strstr(got, "Bone tail"));
    /* cut bytes are refused, never read past */
    for (size_t cut = 0; cut < packed.len; cut += 7) {
        struct rtm_states *t = rtm_states_new();
        for (size_t i = 0; rtm_states_config(s, i); i++)
            assert_int_equal(rtm_states_add(t, NULL, rtm_states_config(s, i)), 0);
        assert_int_equal(rtm_states_check_unpack(t, (const uint8_t *)packed.p, cut), -1);
        rtm_states_free(t);
    }
    free(got);
    free(want);
    rtm_buf_free(&packed);
    rtm_states_free(back);
    rtm_states_free(s);
    nbones = 3;
}

/* The skeleton the table chose for walk.rtm: "NAME WHERE STATES", malloc'd. */
static char *walk_skeleton(const struct rtm_states *s)
{
    struct rtm_states_skeleton c;
    char *out = NULL;
    assert_int_equal(rtm_states_skeleton(s, "m\\walk.rtm", BONES, nbones, &c), 1);
    assert_true(asprintf(&out, "%s %s %zu", c.s->name, c.where, c.states) > 0);
    return out;
}

/* A table whose check comes later has the same lines and chooses the
 * same skeletons, finds nothing, and says so when the index gives it
 * back: check.txt then builds one with the findings. */
static void check_later_same_lines_and_skeleton(void **state)
{
    (void)state;
    const char *mod = DOG("connectTo[] = {\"Run\", 0.5}; mask = \"lower\";");
    struct rtm_states *full = table(mod, NULL), *lean = table_with(&later, mod);
    assert_true(rtm_states_checked(full));
    assert_false(rtm_states_checked(lean));
    assert_int_equal(rtm_states_nlines(lean), rtm_states_nlines(full));
    for (size_t i = 0; i < rtm_states_nlines(full); i++) {
        struct rtm_state_line a, b;
        rtm_states_line(full, i, &a);
        rtm_states_line(lean, i, &b);
        assert_string_equal(a.text, b.text);
    }
    char *want = walk_skeleton(full), *got = walk_skeleton(lean);
    assert_string_equal(got, want);
    free(got);
    char *found = check_of(full);
    assert_non_null(strstr(found, "'Run'"));
    free(found);
    struct rtm_buf packed;
    rtm_buf_init(&packed);
    assert_int_equal(rtm_states_check_pack(lean, &packed), 0);
    struct rtm_states *back = rtm_states_new();
    for (size_t i = 0; rtm_states_config(lean, i); i++)
        assert_int_equal(rtm_states_add(back, NULL, rtm_states_config(lean, i)), 0);
    assert_int_equal(rtm_states_check_unpack(back, (const uint8_t *)packed.p, packed.len), 0);
    assert_int_equal(rtm_states_finish(back), 0);
    assert_false(rtm_states_checked(back));
    got = walk_skeleton(back);
    assert_string_equal(got, want);
    free(got);
    free(want);
    rtm_buf_free(&packed);
    rtm_states_free(back);
    rtm_states_free(lean);
    rtm_states_free(full);
}

/* A table whose lines come later finds the same, and chooses the same
 * skeletons, before they are made (it holds none until then, and its
 * configs), and after: the same lines, the configs gone. */
static void lines_later_same_check(void **state)
{
    (void)state;
    const char *mod = DOG("connectTo[] = {\"Run\", 0.5}; mask = \"lower\";");
    struct rtm_states *now = table(mod, NULL), *s = table_with(&lines_later, mod);
    assert_false(rtm_states_lines_ready(s));
    assert_int_equal(rtm_states_nlines(s), 0);
    assert_int_equal(rtm_states_nstates(s), rtm_states_nlines(now));
    assert_true(rtm_states_config_bytes(s) > 0);
    char *want = check_of(now), *got = check_of(s);
    char *want_skel = walk_skeleton(now), *got_skel = walk_skeleton(s);
    assert_non_null(strstr(want, "'Run'"));
    assert_string_equal(got, want);
    assert_string_equal(got_skel, want_skel);
    assert_int_equal(rtm_states_lines_make(s), 0);
    assert_true(rtm_states_lines_ready(s));
    assert_int_equal(rtm_states_config_bytes(s), 0);
    assert_int_equal(rtm_states_nlines(s), rtm_states_nlines(now));
    for (size_t i = 0; i < rtm_states_nlines(now); i++) {
        struct rtm_state_line a, b;
        rtm_states_line(now, i, &a);
        rtm_states_line(s, i, &b);
        assert_string_equal(b.text, a.text);
        assert_string_equal(b.key, a.key);
        assert_string_equal(b.file, a.file);
        assert_true(b.cfg == a.cfg && b.entry == a.entry);
    }
    free(got);
    got = check_of(s);
    assert_string_equal(got, want);
    free(got);
    free(want);
    free(got_skel);
    free(want_skel);
    rtm_states_free(s);
    rtm_states_free(now);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quiet_when_right),    cmocka_unit_test(names_nowhere),
        cmocka_unit_test(pairs_that_are_not),  cmocka_unit_test(ik_curve_size),
        cmocka_unit_test(bones_of_the_class_skeleton),
        cmocka_unit_test(remembered_as_made), cmocka_unit_test(game_man_skeleton),
        cmocka_unit_test(check_later_same_lines_and_skeleton),
        cmocka_unit_test(lines_later_same_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
