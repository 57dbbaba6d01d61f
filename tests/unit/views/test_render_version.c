/* test_render_version.c - RTM_RENDER_VERSION (views.h) against the bytes
 * of every view of fixed fixtures from the project's writers: the samples
 * of every format (with properties, and a 110-bone plain one), and the
 * standing figure with its skeleton; each with ofp2's pivots and without a
 * skeleton, with exact numbers and with 3 decimals.  Their SHA-256 is
 * pinned to the version: when a view's bytes change, this test fails and
 * says to bump the version and pin the new hash.  A version that adds a
 * view names it: the views before it must hash as its predecessor did
 * (adding check.txt, version 2, changed no other view's bytes), unless
 * the version also says the fixtures' own bytes changed, and why. */
#include "testutil.h"

#include "sha256.h"

/* RTM_RENDER_VERSION and the hash of its views; a new version adds a line,
 * and names the view it added, if any, and what changed the fixtures, if
 * anything did (then no other view can be compared with the version
 * before: every view of such a fixture changes with it). */
static const struct {
    int version;
    const char *sha256;
    const char *added;
    const char *fixtures;
} PINNED[] = {
    { 1, "55080b939beff779e730bda0e08a80b1f1dbfe11d6b8444e90b2049678170424", NULL, NULL },
    { 2, "65595a85c1948c8a7ef67217d0ea76cab930547b7b596ca44ace6ccfc3f84ec1", "check.txt", NULL },
    { 3, "a86e5eab68c55a4dceda1ae96ec4405b824c7de55523f27a1eeaaccda1a693ea", "bmtr.rtm",
      "the BMTR samples' translations are quantised as binarise does (cut, not rounded), "
      "check.txt gained binarise-refuses and a plain header.txt says its skeleton serves bmtr.rtm" },
    { 4, "4f45e9789e2b3fbcbba36aa9f7b076fe878ee1cc6880d7365bc67ff2ba42db27", NULL,
      "anim.bvh's rtm_root carries motion x phase (the samples move), and bmtr.rtm takes "
      "the samples' quantised rotations back by the reader's rule (rtm(5), Writing BMTR)" },
    { 5, "8d4b8a057343f1a975734e411a9e381498adb99e92ab6bea1be02477295f09c3", "fixed.rtm",
      "header.txt gained its fixed: line and check.txt's bone findings name fixed.rtm" },
    { 6, "089ceb929480a3c0d70b84e81694d1d6447b0b8034391696d614b388da9a92c5", "anim.glb",
      "header.txt's rest_pose: none line names anim.glb too" },
};

/* The views but the one named skip (NULL: all of them). */
static const char *skip;

static void hash_views(struct sha256 *h, const struct rtm_anim *a)
{
    char path[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        rtm_view_path(a, v, path);
        if (skip && strcmp(path, skip) == 0)
            continue;
        size_t len;
        char *bytes = render(a, v, &len);
        uint8_t le[8];                  /* the length, the same on every host */
        for (int k = 0; k < 8; k++)
            le[k] = (uint8_t)((uint64_t)len >> (8 * k));
        sha256_update(h, path, strlen(path) + 1);
        sha256_update(h, le, sizeof le);
        sha256_update(h, bytes, len);
        free(bytes);
    }
}

/* Each fixture's bytes, read with each skeleton and both number forms. */
static void hash_fixture(struct sha256 *h, const struct rtm_buf *src, const char *skel_text)
{
    for (int sk = 0; sk < 2; sk++) {
        struct rtm_anim *a = sk == 0 && skel_text ? parse_with_skeleton(src, skel_text, "figure")
                                                  : parse_ok(src, sk ? "none" : "ofp2");
        for (int d = RTM_DIGITS_EXACT; d <= 3; d += 4) {
            a->digits = d;
            hash_views(h, a);
        }
        rtm_free(a);
    }
}

/* The hash of every view of the fixtures, as hex. */
static void hash_all(char hex[SHA256_HEX_CHARS])
{
    struct sha256 h;
    sha256_init(&h);
    struct rtm_buf b;
    for (uint32_t k = 0; k < 5; k++) {
        struct sample_opts o = { 12, k == 4 ? 110 : 40, 11 + k, k % 3 };
        rtm_buf_init(&b);
        assert_int_equal(k == 0 || k == 4 ? rtm_sample_plain(&o, &b)
                                          : rtm_sample_bmtr(&o, 2 + k, BMTR_COMPRESS_AUTO, &b), 0);
        hash_fixture(&h, &b, NULL);
        rtm_buf_free(&b);
    }
    struct rtm_buf skel;
    rtm_buf_init(&b);
    rtm_buf_init(&skel);
    assert_int_equal(rtm_sample_figure(20, &b, &skel), 0);
    rtm_buf_putc(&skel, 0);
    hash_fixture(&h, &b, skel.p);
    rtm_buf_free(&b);
    rtm_buf_free(&skel);
    uint8_t digest[32];
    sha256_final(&h, digest);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

/* Each version that added a view: without it, the views hash as the
 * version before did, so no other view's bytes changed. */
static void added_views_change_nothing_else(void **state)
{
    (void)state;
    size_t n = sizeof PINNED / sizeof PINNED[0];
    char hex[SHA256_HEX_CHARS];
    skip = PINNED[n - 1].added;
    hash_all(hex);
    skip = NULL;
    if (PINNED[n - 1].fixtures) {
        printf("# version %d: %s, so its other views are not compared with version %d's\n",
               PINNED[n - 1].version, PINNED[n - 1].fixtures, PINNED[n - 2].version);
        return;
    }
    if (PINNED[n - 1].added && strcmp(hex, PINNED[n - 2].sha256) != 0)
        fail_msg("without %s the views hash %s, not version %d's %s: another view's "
                 "bytes changed", PINNED[n - 1].added, hex, PINNED[n - 2].version,
                 PINNED[n - 2].sha256);
}

static void version_pins_the_views(void **state)
{
    (void)state;
    char hex[SHA256_HEX_CHARS];
    hash_all(hex);
    size_t n = sizeof PINNED / sizeof PINNED[0];
    printf("# RTM_RENDER_VERSION %d, views %s\n", RTM_RENDER_VERSION, hex);
    if (PINNED[n - 1].version != RTM_RENDER_VERSION)
        fail_msg("RTM_RENDER_VERSION is %d but the last pinned version is %d: pin "
                 "{ %d, \"%s\" }", RTM_RENDER_VERSION, PINNED[n - 1].version,
                 RTM_RENDER_VERSION, hex);
    if (strcmp(PINNED[n - 1].sha256, hex) != 0)
        fail_msg("the views' bytes changed (version %d pinned %s, now %s): bump "
                 "RTM_RENDER_VERSION in src/views/views.h to %d and add { %d, \"%s\" } here",
                 RTM_RENDER_VERSION, PINNED[n - 1].sha256, hex, RTM_RENDER_VERSION + 1,
                 RTM_RENDER_VERSION + 1, hex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(added_views_change_nothing_else),
        cmocka_unit_test(version_pins_the_views),
    };
    return run_test_cases(tests, NULL, NULL);
}
