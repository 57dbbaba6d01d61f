/* test_states.c - states.txt's lines (states.h): a state's values through
 * its parents, in its config and across configs; parents outside the
 * configs read (? and inherits=); the duration rule for positive,
 * negative, zero, extreme and non-numeric speeds; states that disagree,
 * in config-path order then file order; game paths compared without case,
 * / as \, the leading \ optional; and the real ace_goggles.pbo, whose
 * GestureWipeFace inherits from the base game.  Each table is made twice,
 * its lines made when finished and later (rtm_states_lines_later), to the
 * same bytes. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "cfg_testutil.h"
#include "pbo.h"
#include "states.h"

/* states.txt of gp from a table of configs (text, rel) given in pairs,
 * its lines made when it is finished or, with later, after
 * (rtm_states_lines_later: none until rtm_states_lines_make). */
static char *states_made(const char *gp, const char *const *cfgs, size_t n, int later)
{
    struct rtm_states *s = rtm_states_new();
    assert_non_null(s);
    if (later)
        rtm_states_lines_later(s);
    for (size_t i = 0; i < n; i += 2)
        assert_int_equal(rtm_states_add(s, text_ok(cfgs[i]), cfgs[i + 1]), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    assert_int_equal(rtm_states_lines_ready(s), !later);
    if (later) {
        assert_int_equal(rtm_states_nlines(s), 0);
        assert_int_equal(rtm_states_lines_make(s), 0);
        assert_true(rtm_states_lines_ready(s));
        assert_int_equal(rtm_states_lines_make(s), 0);      /* made once */
    }
    assert_int_equal(rtm_states_nstates(s), rtm_states_nlines(s));
    assert_int_equal(rtm_states_config_bytes(s), 0);
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_states_render(s, gp, &b);
    rtm_buf_putc(&b, 0);
    rtm_states_free(s);
    size_t len;
    return rtm_buf_take(&b, &len);
}

/* states_made's text, the same whether the lines come later or not. */
static char *states_of(const char *gp, const char *const *cfgs, size_t n)
{
    char *now = states_made(gp, cfgs, n, 0), *later = states_made(gp, cfgs, n, 1);
    assert_string_equal(later, now);
    free(later);
    return now;
}

static void check(const char *gp, const char *const *cfgs, size_t n, const char *want)
{
    char *got = states_of(gp, cfgs, n);
    assert_string_equal(got, want);
    free(got);
}

static void resolves_through_parents(void **state)
{
    (void)state;
    static const char *const cfgs[] = {
        "class CfgMovesMaleSdr { class States {\n"
        "  class Base { speed = 0.5; looped = 1; };\n"
        "  class Mid : Base { looped = 0; };\n"
        "  class Walk : Mid { file = \"\\m\\anims\\walk.rtm\"; };\n"
        "}; };\n", "m/config.cpp",
    };
    check("m\\anims\\walk.rtm", cfgs, 2,
          "game_path: \\m\\anims\\walk.rtm\n"
          "CfgMovesMaleSdr/States/Walk speed=0.5 duration_s=2 looped=0 config=m/config.cpp\n");
}

static void unknown_parent_is_a_question_mark(void **state)
{
    (void)state;
    static const char *const cfgs[] = {
        "class CfgGesturesMale { class Default; class States {\n"
        "  class GestureFreezeStand;\n"
        "  class Wipe : GestureFreezeStand { file = \"\\z\\wipe.rtm\"; };\n"
        "  class Fast : GestureFreezeStand { file = \"\\z\\wipe.rtm\"; speed = -8; };\n"
        "}; };\n", "a.pbo/config.bin",
    };
    check("\\z\\wipe.rtm", cfgs, 2,
          "game_path: \\z\\wipe.rtm\n"
          "CfgGesturesMale/States/Wipe speed=? duration_s=? looped=? config=a.pbo/config.bin"
          " inherits=GestureFreezeStand\n"
          "CfgGesturesMale/States/Fast speed=-8 duration_s=8 looped=? config=a.pbo/config.bin"
          " inherits=GestureFreezeStand\n");
}

static void parents_across_configs(void **state)
{
    (void)state;
    /* b's state names a.pbo's class, which names the game's */
    static const char *const cfgs[] = {
        "class CfgMovesMaleSdr { class States { class Game;\n"
        "  class ModBase : Game { speed = 0.25; }; }; };\n", "a.pbo/config.bin",
        "class CfgMovesMaleSdr { class States { class ModBase;\n"
        "  class Run : ModBase { file = \"x\\run.rtm\"; looped = 1; }; }; };\n", "b.pbo/config.bin",
    };
    check("x\\run.rtm", cfgs, 4,
          "game_path: \\x\\run.rtm\n"
          "CfgMovesMaleSdr/States/Run speed=0.25 duration_s=4 looped=1 config=b.pbo/config.bin\n");
    /* looped is not in a.pbo's class: the chain leaves at Game */
    const char *const more[] = {
        cfgs[0], cfgs[1], cfgs[2], cfgs[3],
        "class CfgMovesMaleSdr { class States { class ModBase;\n"
        "  class Sit : ModBase { file = \"x\\run.rtm\"; }; }; };\n", "c.pbo/config.bin",
    };
    check("x/RUN.rtm", more, 6,                    /* shown as the file names itself */
          "game_path: \\x\\RUN.rtm\n"
          "CfgMovesMaleSdr/States/Run speed=0.25 duration_s=4 looped=1 config=b.pbo/config.bin\n"
          "CfgMovesMaleSdr/States/Sit speed=0.25 duration_s=4 looped=? config=c.pbo/config.bin"
          " inherits=Game\n");
}

/* A parent looked for elsewhere is the first config's in path order that
 * has its path, never the asking config's own (a.pbo's Run extends the
 * game's Run, which b.pbo gives), and two configs asking for one path
 * (a.pbo, c.pbo) get each its own answer: the path's answer is kept while
 * the lines are made. */
static void parents_elsewhere_not_its_own(void **state)
{
    (void)state;
    static const char *const cfgs[] = {
        "class CfgMovesMaleSdr { class States {\n"
        "  class Run : Run { file = \"x\\run.rtm\"; looped = 1; }; }; };\n", "a.pbo/config.bin",
        "class CfgMovesMaleSdr { class States { class Run { speed = 0.25; }; }; };\n",
        "b.pbo/config.bin",
        "class CfgMovesMaleSdr { class States { class Run;\n"
        "  class Sit : Run { file = \"x\\run.rtm\"; }; }; };\n", "c.pbo/config.bin",
    };
    check("x\\run.rtm", cfgs, 6,
          "game_path: \\x\\run.rtm\n"
          "CfgMovesMaleSdr/States/Run speed=0.25 duration_s=4 looped=1 config=a.pbo/config.bin\n"
          "CfgMovesMaleSdr/States/Sit speed=0.25 duration_s=4 looped=1 config=c.pbo/config.bin\n");
}

/* A base named as mods name it, found as the game finds it across
 * configs: CfgMovesMaleSdr's Default is the CfgMovesBasic one it inherits
 * (AGM's "class StandBase;"), and grad_captive's "class default;" in
 * CfgGesturesMale is the game's CfgGesturesMale/Default, one scope out
 * from States. */
static void bases_as_the_game_finds_them(void **state)
{
    (void)state;
    static const char *const cfgs[] = {
        "class CfgMovesBasic { class Default { looped = 1; speed = 0.5; }; };\n"
        "class CfgGesturesMale { class Default { looped = 0; speed = 2; }; };\n", "game/config.bin",
        "class CfgMovesBasic; class CfgMovesMaleSdr : CfgMovesBasic { class Default;\n"
        "  class States { class Mine : Default { file = \"x\\m.rtm\"; }; }; };\n"
        "class CfgGesturesMale { class default;\n"
        "  class States { class G : default { file = \"x\\m.rtm\"; }; }; };\n", "mod/config.cpp",
    };
    check("x\\m.rtm", cfgs, 4,
          "game_path: \\x\\m.rtm\n"
          "CfgMovesMaleSdr/States/Mine speed=0.5 duration_s=2 looped=1 config=mod/config.cpp\n"
          "CfgGesturesMale/States/G speed=2 duration_s=0.5 looped=0 config=mod/config.cpp\n");
    check("x\\m.rtm", cfgs + 2, 2,             /* without the game's config */
          "game_path: \\x\\m.rtm\n"
          "CfgMovesMaleSdr/States/Mine speed=? duration_s=? looped=? config=mod/config.cpp"
          " inherits=Default\n"
          "CfgGesturesMale/States/G speed=? duration_s=? looped=? config=mod/config.cpp"
          " inherits=default\n");
}

static void duration_rule(void **state)
{
    (void)state;
    char d[32];
    assert_int_equal(rtm_timing_duration(0.06f, d, sizeof d), 0);
    assert_string_equal(d, "16.6667");                  /* 1/speed s */
    assert_int_equal(rtm_timing_duration(2, d, sizeof d), 0);
    assert_string_equal(d, "0.5");
    assert_int_equal(rtm_timing_duration(-8, d, sizeof d), 0);
    assert_string_equal(d, "8");                        /* -speed s */
    assert_int_equal(rtm_timing_duration(0, d, sizeof d), 0);
    assert_string_equal(d, "none");
    assert_int_equal(rtm_timing_duration(100000, d, sizeof d), 0);
    assert_string_equal(d, "1e-05");                    /* AUR's held pose */
    assert_int_equal(rtm_timing_duration(1e-30, d, sizeof d), 0);
    assert_string_equal(d, "1e+30");
    assert_int_equal(rtm_timing_duration(-3.4e38, d, sizeof d), 0);
    assert_string_equal(d, "3.4e+38");
    assert_int_equal(rtm_timing_duration(NAN, d, sizeof d), -1);
    assert_string_equal(d, "?");
    assert_int_equal(rtm_timing_duration(INFINITY, d, sizeof d), -1);
    assert_string_equal(d, "?");
    /* a speed that is no number (a macro left as written) has no duration */
    static const char *const cfgs[] = {
        "class CfgMovesMaleSdr { class States {\n"
        "  class Z { file = \"a\\z.rtm\"; speed = 0; looped = 1; };\n"
        "  class M { file = \"a\\z.rtm\"; speed = SPEED; };\n"
        "}; };\n", "c.cpp",
    };
    check("a\\z.rtm", cfgs, 2,
          "game_path: \\a\\z.rtm\n"
          "CfgMovesMaleSdr/States/Z speed=0 duration_s=none looped=1 config=c.cpp\n"
          "CfgMovesMaleSdr/States/M speed=SPEED duration_s=? looped=? config=c.cpp\n");
}

static void disagreeing_states_in_order(void **state)
{
    (void)state;
    /* added out of order: lines come by config path, then file order */
    static const char *const cfgs[] = {
        "class CfgGesturesMale { class States {\n"
        "  class Second { file = \"\\p\\A.rtm\"; speed = 1; };\n"
        "  class First { file = \"/P/a.RTM\"; speed = 2; };\n"
        "}; };\n", "z/config.cpp",
        "class CfgMovesMaleSdr { class States {\n"
        "  class Other { file = \"p\\b.rtm\"; speed = 3; };\n"
        "  class Early { file = \"p\\a.rtm\"; speed = -1; };\n"
        "}; };\n", "a/config.cpp",
    };
    check("/p/a.rtm", cfgs, 4,
          "game_path: \\p\\a.rtm\n"
          "CfgMovesMaleSdr/States/Early speed=-1 duration_s=1 looped=? config=a/config.cpp\n"
          "CfgGesturesMale/States/Second speed=1 duration_s=1 looped=? config=z/config.cpp\n"
          "CfgGesturesMale/States/First speed=2 duration_s=0.5 looped=? config=z/config.cpp\n");
    check("p\\c.rtm", cfgs, 4, "game_path: \\p\\c.rtm\n");     /* played by none */
}

static void no_game_path_or_no_configs(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_states_render(NULL, NULL, &b);
    rtm_states_render(NULL, "\\a\\b.rtm", &b);
    rtm_buf_putc(&b, 0);
    assert_string_equal(b.p, "game_path: none (not in an archive and no $PBOPREFIX$ above it)\n"
                             "game_path: \\a\\b.rtm\n");
    rtm_buf_free(&b);
}

/* The real archive: its config.bin's GestureWipeFace plays
 * anim\WipeGlasses.rtm and inherits from the game. */
static void real_ace_goggles(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    char path[8192];
    if (!dir)
        return;
    assert_true(strlen(dir) < 4096);
    snprintf(path, sizeof path, "%s/archives/ace_goggles.pbo", dir);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct pbo *p = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(pbo_load_table(NULL, fd, &p, &err), 0);
    struct rtm_states *s = rtm_states_new();
    for (size_t i = 0; i < p->nentries; i++) {
        uint8_t *data;
        size_t len;
        struct cfg *c = NULL;
        if (strcasecmp(p->entries[i].path, "config.bin"))
            continue;
        assert_int_equal(pbo_load_entry(NULL, fd, p, i, &data, &len, &err), 0);
        assert_int_equal(rap_read(data, len, &c, &err), 0);
        free(data);
        assert_int_equal(rtm_states_add(s, c, "ace_goggles.pbo/config.bin"), 0);
    }
    assert_int_equal(rtm_states_finish(s), 0);
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_states_render(s, "z\\ace\\addons\\goggles\\anim\\wipeglasses.rtm", &b);
    rtm_buf_putc(&b, 0);
    assert_non_null(strstr(b.p, "\nCfgGesturesMale/States/GestureWipeFace speed=? duration_s=? "
                                "looped=? config=ace_goggles.pbo/config.bin inherits="));
    rtm_buf_free(&b);
    rtm_states_free(s);
    pbo_free(p);
    close(fd);
}

/* What a table keeps of a config (classes, file, speed, looped) answers
 * as the whole config: a member named like a class beside it still hides
 * that class from a path (the last one named counts), members of other
 * names still do not matter, and an array named speed is still no value. */
static void kept_part_answers_as_the_whole(void **state)
{
    (void)state;
    static const char *const cfgs[] = {
        "class CfgMovesMaleSdr { class States {\n"
        "  class A : Hidden { file = \"\\m\\a.rtm\"; };\n"
        "  class B : Shown { file = \"\\m\\a.rtm\"; };\n"
        "  class C : Shown { file = \"\\m\\a.rtm\"; speed[] = {1}; };\n"
        "}; };\n", "a/config.cpp",
        "class CfgMovesMaleSdr { class States {\n"
        "  class Hidden { speed = 2; looped = 1; };\n"
        "  Hidden = 1;\n"
        "  class Shown { speed = 4; looped = 0; actions = \"x\"; };\n"
        "  other[] = {1, 2};\n"
        "}; };\n", "b/config.cpp",
    };
    check("m\\a.rtm", cfgs, 4,
          "game_path: \\m\\a.rtm\n"
          "CfgMovesMaleSdr/States/A speed=? duration_s=? looped=? config=a/config.cpp"
          " inherits=Hidden\n"
          "CfgMovesMaleSdr/States/B speed=4 duration_s=0.25 looped=0 config=a/config.cpp\n"
          "CfgMovesMaleSdr/States/C speed=? duration_s=? looped=0 config=a/config.cpp\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resolves_through_parents),
        cmocka_unit_test(bases_as_the_game_finds_them),
        cmocka_unit_test(unknown_parent_is_a_question_mark),
        cmocka_unit_test(parents_across_configs),
        cmocka_unit_test(parents_elsewhere_not_its_own),
        cmocka_unit_test(duration_rule),
        cmocka_unit_test(disagreeing_states_in_order),
        cmocka_unit_test(no_game_path_or_no_configs),
        cmocka_unit_test(real_ace_goggles),
        cmocka_unit_test(kept_part_answers_as_the_whole),
    };
    return run_test_cases(tests, NULL, NULL);
}
