/* test_states_skeleton.c - the skeleton the states that play a file play
 * it with (states_skeleton.h): found by skeletonName through the root
 * class's parents and CfgSkeletons' skeletonInherit, in another config
 * than the states'; none when no state names the file or its class names
 * no skeleton under SOURCE; of two, the one that holds the file's bones,
 * then the one more states play it with, then the first; and the same
 * answer from a table the index gave back. */
#include "cfg_testutil.h"
#include "states_check.h"
#include "states_skeleton.h"

#define SKELETONS                                                                      \
    "class CfgSkeletons { class Base { skeletonBones[] = {\"pelvis\", \"\", "          \
    "\"spine\", \"pelvis\"}; };\n"                                                    \
    "  class Dog { skeletonInherit = \"Base\"; skeletonBones[] = {\"jaw\", \"spine\"}; };\n" \
    "  class Pup { skeletonInherit = \"Dog\"; }; };\n"                                \
    "class CfgMovesBasic { skeletonName = \"Base\"; class Default { }; };\n"

static const struct rtm_str BONES[] = { { "pelvis", 6 }, { "spine", 5 }, { "jaw", 3 } };

static struct rtm_states *table(const char *mod)
{
    struct rtm_states *s = rtm_states_new();
    assert_non_null(s);
    assert_int_equal(rtm_states_add(s, text_ok(SKELETONS), "base/config.cpp"), 0);
    assert_int_equal(rtm_states_add(s, text_ok(mod), "mod/config.cpp"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    return s;
}

/* The name of the skeleton key's file of n bones is played with, or "-". */
static const char *answer(const struct rtm_states *s, const char *key, uint32_t n,
                          struct rtm_states_skeleton *c)
{
    return rtm_states_skeleton(s, key, BONES, n, c) ? c->s->name : "-";
}

static void found_through_parents_and_inherit(void **state)
{
    (void)state;
    struct rtm_states_skeleton c;
    struct rtm_states *s = table(
        "class CfgMovesDog : CfgMovesBasic { skeletonName = \"Pup\"; class States {\n"
        "  class Walk : Default { file = \"\\m\\walk.rtm\"; }; }; };\n"
        "class CfgMovesCat : CfgMovesBasic { class States {\n"
        "  class Sit : Default { file = \"\\m\\sit.rtm\"; }; }; };\n");
    assert_string_equal(answer(s, "m\\walk.rtm", 3, &c), "Pup");
    assert_string_equal(c.where, "mod/config.cpp: CfgMovesDog/States/Walk");
    assert_int_equal(c.states, 1);
    assert_int_equal(c.choices, 1);
    assert_non_null(rtm_skeleton_find(c.s, "jaw", 3) >= 0 ? c.s : NULL);
    /* skeletonName from CfgMovesBasic, which CfgMovesCat inherits */
    assert_string_equal(answer(s, "m\\sit.rtm", 3, &c), "Base");
    assert_string_equal(answer(s, "m\\nowhere.rtm", 3, &c), "-");
    assert_string_equal(answer(NULL, "m\\walk.rtm", 3, &c), "-");
    rtm_states_free(s);
}

static void no_skeleton_under_source(void **state)
{
    (void)state;
    struct rtm_states_skeleton c;
    struct rtm_states *s = table(
        "class CfgMovesDog : CfgMovesBasic { skeletonName = \"Horse\"; class States {\n"
        "  class Walk : Default { file = \"\\m\\walk.rtm\"; }; }; };\n");
    assert_string_equal(answer(s, "m\\walk.rtm", 3, &c), "-");
    rtm_states_free(s);
}

/* Base holds 2 of the 3 bones, Dog all 3: Dog, whatever the states; with
 * 2 bones both hold all: the most states; a tie: the first. */
static void two_skeletons(void **state)
{
    (void)state;
    struct rtm_states_skeleton c;
    struct rtm_states *s = table(
        "class CfgMovesMaleSdr : CfgMovesBasic { class States {\n"
        "  class A : Default { file = \"\\m\\walk.rtm\"; };\n"
        "  class B : Default { file = \"\\m\\walk.rtm\"; }; }; };\n"
        "class CfgMovesDog : CfgMovesBasic { skeletonName = \"Dog\"; class States {\n"
        "  class W : Default { file = \"\\m\\walk.rtm\"; };\n"
        "  class T : Default { file = \"\\m\\trot.rtm\"; }; }; };\n"
        "class CfgMovesZ : CfgMovesBasic { skeletonName = \"Dog\"; class States {\n"
        "  class T : Default { file = \"\\m\\trot.rtm\"; }; }; };\n");
    assert_string_equal(answer(s, "m\\walk.rtm", 3, &c), "Dog");
    assert_int_equal(c.choices, 2);
    assert_int_equal(c.states, 1);
    assert_string_equal(answer(s, "m\\walk.rtm", 2, &c), "Base");
    assert_int_equal(c.states, 2);
    assert_string_equal(answer(s, "m\\trot.rtm", 2, &c), "Dog");
    assert_string_equal(c.where, "mod/config.cpp: CfgMovesDog/States/T");
    rtm_states_free(s);
}

static void remembered_table_answers_alike(void **state)
{
    (void)state;
    struct rtm_states_skeleton c;
    struct rtm_states *s = table(
        "class CfgMovesDog : CfgMovesBasic { skeletonName = \"Pup\"; class States {\n"
        "  class Walk : Default { file = \"\\m\\walk.rtm\"; }; }; };\n");
    struct rtm_buf packed;
    rtm_buf_init(&packed);
    assert_int_equal(rtm_states_check_pack(s, &packed), 0);
    struct rtm_states *back = rtm_states_new();
    for (size_t i = 0; rtm_states_config(s, i); i++)
        assert_int_equal(rtm_states_add(back, NULL, rtm_states_config(s, i)), 0);
    assert_int_equal(rtm_states_check_unpack(back, (const uint8_t *)packed.p, packed.len), 0);
    assert_int_equal(rtm_states_finish(back), 0);
    assert_string_equal(answer(back, "m\\walk.rtm", 3, &c), "Pup");
    assert_string_equal(c.where, "mod/config.cpp: CfgMovesDog/States/Walk");
    assert_int_equal(c.s->nbones, 3);
    rtm_buf_free(&packed);
    rtm_states_free(back);
    rtm_states_free(s);
}

/* Many files, each played by states of two classes in two configs: each
 * answer counts its own states alone, and names the first of them in
 * states.txt's order (the table groups the states by key, not by a sort
 * of them). */
static void many_files_grouped(void **state)
{
    (void)state;
    enum { FILES = 301, STATES = 903 };
    struct rtm_buf dog, pup;
    rtm_buf_init(&dog);
    rtm_buf_init(&pup);
    rtm_buf_puts(&dog, "class CfgMovesDog : CfgMovesBasic { skeletonName = \"Dog\"; class States {\n");
    rtm_buf_puts(&pup, "class CfgMovesPup : CfgMovesBasic { skeletonName = \"Pup\"; class States {\n");
    for (int i = 0; i < STATES; i++)    /* state i plays file i % FILES */
        rtm_buf_printf(i % 2 ? &pup : &dog, "  class S%d : Default { file = \"\\m\\f%d.rtm\"; };\n",
                       i, i % FILES);
    rtm_buf_puts(&dog, "}; };\n");
    rtm_buf_puts(&pup, "}; };\n");
    rtm_buf_putc(&dog, 0);
    rtm_buf_putc(&pup, 0);
    struct rtm_states *s = rtm_states_new();
    assert_non_null(s);
    assert_int_equal(rtm_states_add(s, text_ok(SKELETONS), "base/config.cpp"), 0);
    assert_int_equal(rtm_states_add(s, text_ok(pup.p), "z/config.cpp"), 0);
    assert_int_equal(rtm_states_add(s, text_ok(dog.p), "a/config.cpp"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    for (int f = 0; f < FILES; f++) {
        char key[32], where[64];
        struct rtm_states_skeleton c;
        snprintf(key, sizeof key, "m\\f%d.rtm", f);
        /* states f, f + 301, f + 602: even ones in a/ (Dog), odd in z/
         * (Pup); two of the three in f's own config, S<f> first there */
        const char *want = f % 2 ? "Pup" : "Dog";
        assert_string_equal(answer(s, key, 3, &c), want);
        assert_int_equal(c.states, 2);
        assert_int_equal(c.choices, 2);
        snprintf(where, sizeof where, "%s/config.cpp: CfgMoves%s/States/S%d", f % 2 ? "z" : "a",
                 want, f);
        assert_string_equal(c.where, where);
    }
    assert_string_equal(answer(s, "m\\f301.rtm", 3, &(struct rtm_states_skeleton){ 0 }), "-");
    rtm_buf_free(&dog);
    rtm_buf_free(&pup);
    rtm_states_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_through_parents_and_inherit),
        cmocka_unit_test(no_skeleton_under_source),
        cmocka_unit_test(two_skeletons),
        cmocka_unit_test(remembered_table_answers_alike),
        cmocka_unit_test(many_files_grouped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
