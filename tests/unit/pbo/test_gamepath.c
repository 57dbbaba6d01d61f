/* test_gamepath.c - game paths (gamepath.h): their one normal form,
 * the forms a $PBOPREFIX$ file takes, and an archive's prefix. */
#include "testutil.h"

#include "gamepath.h"
#include "pbo.h"
#include "pbo_write.h"

/* One game path rule: separators either way, "." and ".." dropped, case
 * ignored in comparing; a $PBOPREFIX$'s forms (a bare line, blank lines,
 * key=value lines, a BOM); an archive's prefix property, else its name. */
static void test_gamepaths(void **state)
{
    (void)state;
    char out[256];
    const char *raw = "\\z\\ace\\\\.\\..\\addons/goggles\\";
    assert_int_equal(gamepath_norm(raw, strlen(raw), out, sizeof out), 20);
    assert_string_equal(out, "z\\ace\\addons\\goggles");
    assert_true(gamepath_equal("\\Z\\ACE\\x.rtm", "z/ace/X.RTM"));
    const char *forms[][2] = {
        { "z\\ace\\addons\\goggles\r\n", "z\\ace\\addons\\goggles" },
        { "\n\n  \\x\\mod\\main  \n", "x\\mod\\main" },
        { "version=2\nprefix = x\\a\\b\nfoo=bar\n", "x\\a\\b" },
        { "\xEF\xBB\xBFprefix=p\n", "p" },
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        assert_int_equal(gamepath_pboprefix(forms[i][0], strlen(forms[i][0]), out, sizeof out), 0);
        assert_string_equal(out, forms[i][1]);
    }
    assert_int_equal(gamepath_pboprefix("version=1\n", 10, out, sizeof out), -1);
    assert_int_equal(gamepath_pboprefix("\n \n", 3, out, sizeof out), -1);

    struct pbo_write_entry e = { "config.bin", (const uint8_t *)"x", 1, PBO_PACK_STORE, 0 };
    struct pbo_write_prop prop = { "prefix", "\\z\\ace\\addons\\goggles" };
    for (int with = 0; with < 2; with++) {
        struct rtm_buf b;
        struct pbo *p = NULL;
        struct rtm_error err;
        rtm_buf_init(&b);
        assert_int_equal(pbo_write(&e, 1, &prop, (size_t)with, 0, &b), 0);
        assert_int_equal(pbo_read_table((const uint8_t *)b.p, b.len, b.len, &p, &err), 0);
        assert_int_equal(gamepath_archive(p, "/mods/@ace/addons/Ace_Goggles.PBO", out, sizeof out), 0);
        assert_string_equal(out, with ? "z\\ace\\addons\\goggles" : "Ace_Goggles");
        pbo_free(p);
        rtm_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gamepaths),
    };
    return run_test_cases(tests, NULL, NULL);
}
