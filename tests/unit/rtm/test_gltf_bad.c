/* test_gltf_bad.c - each bad glTF input the issue names, with the
 * message it gets: the arm of gltf_fixture.h with one thing broken. */
#include <math.h>

#include "testutil.h"
#include "glb.h"
#include "gltf_write.h"
#include "skeleton.h"

static struct rtm_skeleton *skel;

static int setup(void **state)
{
    (void)state;
    struct rtm_error err = { .msg = "" };
    return rtm_skeleton_builtin("ofp2", &skel, &err);
}

static int teardown(void **state)
{
    (void)state;
    rtm_skeleton_free(skel);
    return 0;
}

/* Parses bytes; fails the test unless the parse fails with msg (and at
 * byte at, when at is not ~0). */
static void refused(const void *bytes, size_t len, const char *msg, uint64_t at)
{
    struct rtm_parse_opts o = { .skel = skel };
    struct rtm_error err = { .msg = "" };
    struct rtm_anim *a = NULL;
    assert_int_equal(rtm_parse_opts(bytes, len, &o, &a, &err), -1);
    assert_null(a);
    if (!strstr(err.msg, msg))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg);
    if (at != ~(uint64_t)0)
        assert_int_equal(err.offset, at);
}

/* The arm's JSON with the first from replaced by to. */
static void refused_edit(int flags, const char *from, const char *to, const char *msg)
{
    struct rtm_buf b, e;
    rtm_buf_init(&b);
    rtm_buf_init(&e);
    rtm_gltf_arm_text(&b, flags);
    rtm_buf_putc(&b, 0);
    char *at = strstr(b.p, from);
    if (!at)
        fail_msg("the fixture has no %s", from);
    rtm_buf_put(&e, b.p, (size_t)(at - b.p));
    rtm_buf_puts(&e, to);
    rtm_buf_puts(&e, at + strlen(from));
    refused(e.p, e.len, msg, ~(uint64_t)0);
    rtm_buf_free(&b);
    rtm_buf_free(&e);
}

static void json_error_at_its_byte(void **state)
{
    (void)state;
    static const char J[] = "{\"asset\":{\"version\":\"2.0\"},\n\"nodes\":[{]}";
    refused(J, sizeof J - 1, "glTF JSON line 2 column 11", ~(uint64_t)0);
    static const char D[] = "{\"asset\":{\"version\":\"2.0\"},\"asset\":{}}";
    refused(D, sizeof D - 1, "duplicate object key", ~(uint64_t)0);
}

static void truncated_glb(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_gltf_arm_glb(&b, RTM_ARM_SKIN);
    refused(b.p, b.len - 100, "GLB", ~(uint64_t)0);
    refused(b.p, 10, "GLB", ~(uint64_t)0);
    rtm_buf_free(&b);
}

static void structure(void **state)
{
    (void)state;
    refused_edit(RTM_ARM_SKIN, "\"joints\":[0,1,2]", "\"joints\":[]", "skins[0] has no joints");
    refused_edit(RTM_ARM_SKIN, "\"translation\":[0.25,0,0]}",
                 "\"translation\":[0.25,0,0],\"children\":[1]}",
                 "nodes[1] has two parents, nodes[0] and nodes[2]");
    refused_edit(RTM_ARM_SKIN, "\"scene\":0", "\"scene\":0,\"nodes\":[{\"children\":[0]}]",
                 "duplicate object key");
    refused_edit(RTM_ARM_SKIN, "\"translation\":[0.25,0,0]}",
                 "\"translation\":[0.25,0,0],\"children\":[2]}", "its own child");
}

static void a_cycle(void **state)
{
    (void)state;
    static const char J[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},"
                            "{\"children\":[0]}],\"skins\":[{\"joints\":[0]}]}";
    refused(J, sizeof J - 1, "the node tree has a cycle", ~(uint64_t)0);
}

static void ten_thousand_deep(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "{\"asset\":{\"version\":\"2.0\"},\"skins\":[{\"joints\":[9999]}],\"nodes\":[");
    for (int i = 0; i < 10000; i++)
        rtm_buf_printf(&b, i < 9999 ? "{\"children\":[%d]}," : "{}", i + 1);
    rtm_buf_puts(&b, "]}");
    refused(b.p, b.len, "more than 256 nodes deep", ~(uint64_t)0);
    rtm_buf_free(&b);
}

static void nothing_to_animate(void **state)
{
    (void)state;
    static const char J[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0}]}";
    refused(J, sizeof J - 1, "holds no skin and no animation: nothing to animate",
            ~(uint64_t)0);
    static const char V[] = "{\"asset\":{\"version\":\"1.0\"}}";
    refused(V, sizeof V - 1, "only glTF 2.x is read", ~(uint64_t)0);
}

static void accessors(void **state)
{
    (void)state;
    refused_edit(RTM_ARM_SKIN, "\"byteOffset\":204,", "\"byteOffset\":304,",
                 "accessors[2]: 3 elements from byte 304 run past bufferViews[0]'s 328 bytes");
    refused_edit(RTM_ARM_SKIN, "\"byteLength\":328}]", "\"byteLength\":329}]",
                 "runs past buffers[0]'s byteLength 328");
    refused_edit(RTM_ARM_SKIN, "\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"",
                 "\"componentType\":5127,\"count\":3,\"type\":\"MAT4\"",
                 "accessors[0].componentType is not one of glTF's");
    refused_edit(RTM_ARM_SKIN, "\"type\":\"MAT4\"", "\"type\":\"MAT5\"",
                 "accessors[0].type is not SCALAR");
    refused_edit(RTM_ARM_SKIN, "\"type\":\"MAT4\"", "\"type\":\"VEC4\"",
                 "accessors[0] has 4 components an element");
    refused_edit(RTM_ARM_SKIN, "\"count\":3,\"type\":\"VEC4\"", "\"count\":2,\"type\":\"VEC4\"",
                 "animations[0].samplers[0]: 3 key times but 2 values");
    refused_edit(RTM_ARM_SKIN, "\"min\":[0],\"max\":[1]", "\"min\":[1],\"max\":[1]",
                 "key times do not increase");
    refused_edit(RTM_ARM_SKIN, "\"min\":[0],\"max\":[1]", "\"max\":[1]", "has no min and max");
}

/* The buffer's bytes broken: a NaN key, times that go back. */
static void bad_keys(void **state)
{
    (void)state;
    uint8_t bin[RTM_GLTF_ARM_BIN];
    struct rtm_buf j, g;
    rtm_buf_init(&j);
    rtm_buf_init(&g);
    rtm_gltf_arm_json(&j, RTM_ARM_SKIN, NULL);
    rtm_gltf_arm_bin(bin, RTM_ARM_SKIN);
    float nan = NAN, back = 0.25f;
    memcpy(bin + 204 + 16 + 8, &nan, 4);            /* key 1's z */
    rtm_glb_join(j.p, j.len, bin, sizeof bin, &g);
    uint64_t bin_at = g.len - RTM_GLTF_ARM_BIN;
    refused(g.p, g.len, "accessors[2][1]: a key value that is not a finite number",
            bin_at + 204 + 16);
    rtm_gltf_arm_bin(bin, RTM_ARM_SKIN);
    memcpy(bin + 192 + 8, &back, 4);                /* time 2 before time 1 */
    g.len = 0;
    rtm_glb_join(j.p, j.len, bin, sizeof bin, &g);
    refused(g.p, g.len, "accessors[1][2]: key times do not increase", bin_at + 192 + 8);
    rtm_buf_free(&j);
    rtm_buf_free(&g);
}

static void uris(void **state)
{
    (void)state;
    struct rtm_buf j;
    static const char *const BAD[][2] = {
        { "/etc/passwd", "is absolute" },
        { "../up.bin", "goes up a folder" },
        { "a/%2e%2e/b.bin", "goes up a folder" },
        { "http://example.com/a.bin", "is absolute" },
        { "a%2", "not followed by two hex digits" },
        { "data:application/octet-stream;base64,AAA*", "not base64" },
        { "data:application/octet-stream;base64,AAAA", "holds 3 bytes; its byteLength says 328" },
    };
    for (size_t k = 0; k < sizeof BAD / sizeof *BAD; k++) {
        rtm_buf_init(&j);
        rtm_gltf_arm_json(&j, RTM_ARM_SKIN, BAD[k][0]);
        refused(j.p, j.len, BAD[k][1], ~(uint64_t)0);
        rtm_buf_free(&j);
    }
}

static void clip_past_the_last(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_gltf_arm_text(&b, RTM_ARM_SKIN | RTM_ARM_TWO_CLIPS);
    struct rtm_parse_opts o = { .skel = skel, .clip = 2 };
    struct rtm_error err = { .msg = "" };
    struct rtm_anim *a = NULL;
    assert_int_equal(rtm_parse_opts((const uint8_t *)b.p, b.len, &o, &a, &err), -1);
    assert_string_equal(err.msg, "glTF: clip 2 asked for: the file holds 2 (from 0)");
    rtm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_error_at_its_byte),
        cmocka_unit_test(truncated_glb),
        cmocka_unit_test(structure),
        cmocka_unit_test(a_cycle),
        cmocka_unit_test(ten_thousand_deep),
        cmocka_unit_test(nothing_to_animate),
        cmocka_unit_test(accessors),
        cmocka_unit_test(bad_keys),
        cmocka_unit_test(uris),
        cmocka_unit_test(clip_past_the_last),
    };
    return run_test_cases(tests, setup, teardown);
}
