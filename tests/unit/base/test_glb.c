/* test_glb.c - the GLB container (glb.h): what join writes split reads
 * back, padded and sized as rtm_glb_size says, and each kind of damage
 * refused with the byte it is at. */
#include "testutil.h"

#include "glb.h"

static void join_then_split(void **state)
{
    (void)state;
    static const char json[] = "{\"asset\":{\"version\":\"2.0\"}}";   /* 28: padded to 28 */
    static const uint8_t bin[5] = { 1, 2, 3, 4, 5 };                 /* padded to 8 */
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_glb_join(json, sizeof json - 2, bin, sizeof bin, &b), 0);
    assert_int_equal(b.len, rtm_glb_size(sizeof json - 2, sizeof bin));
    assert_int_equal(b.len % 4, 0);
    struct rtm_glb g;
    struct rtm_error err = { 0 };
    assert_int_equal(rtm_glb_split((const uint8_t *)b.p, b.len, &g, &err), 0);
    assert_int_equal(g.json_len, 28);
    assert_memory_equal(g.json, json, sizeof json - 2);
    assert_int_equal(g.json[27], ' ');
    assert_int_equal(g.bin_len, 8);
    assert_memory_equal(g.bin, bin, sizeof bin);
    assert_int_equal(g.bin[5], 0);
    rtm_buf_free(&b);
    /* without BIN */
    rtm_buf_init(&b);
    assert_int_equal(rtm_glb_join(json, 4, NULL, 0, &b), 0);
    assert_int_equal(b.len, 24);
    assert_int_equal(rtm_glb_split((const uint8_t *)b.p, b.len, &g, &err), 0);
    assert_null(g.bin);
    rtm_buf_free(&b);
}

/* A good file with one field changed must fail at that field's byte. */
static void damage_at(const char *what, size_t at, uint32_t value, uint64_t want_offset,
                      const char *want_msg)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    static const uint8_t bin[4] = { 9, 9, 9, 9 };
    assert_int_equal(rtm_glb_join("{}", 2, bin, sizeof bin, &b), 0);
    memcpy(b.p + at, &value, 4);
    struct rtm_glb g;
    struct rtm_error err = { 0 };
    assert_int_equal(rtm_glb_split((const uint8_t *)b.p, b.len, &g, &err), -1);
    assert_true(err.has_offset);
    assert_int_equal(err.offset, want_offset);
    if (!strstr(err.msg, want_msg))
        fail_msg("%s: \"%s\" lacks \"%s\"", what, err.msg, want_msg);
    rtm_buf_free(&b);
}

static void damage_is_named(void **state)
{
    (void)state;
    damage_at("magic", 0, 0x46546C68u, 0, "\"glTF\"");
    damage_at("version", 4, 1, 4, "version 1");
    damage_at("length", 8, 99, 8, "99 bytes");
    damage_at("json length", 12, 6, 12, "multiple of 4");
    damage_at("json too long", 12, 400, 12, "past the file's end");
    damage_at("json type", 16, 0x4E4942u, 12, "not JSON");
    damage_at("bin type", 28, 0x4E4F534Au, 24, "not BIN");
    /* cut: the header's length follows, so the first thing wrong is the length */
    struct rtm_glb g;
    struct rtm_error err = { 0 };
    assert_int_equal(rtm_glb_split((const uint8_t *)"glTF\2\0\0\0", 8, &g, &err), -1);
    assert_non_null(strstr(err.msg, "cut short"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(join_then_split),
        cmocka_unit_test(damage_is_named),
    };
    return run_test_cases(tests, NULL, NULL);
}
