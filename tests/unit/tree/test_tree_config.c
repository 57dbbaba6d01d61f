/* test_tree_config.c - rapified configs in the mount, without FUSE: under
 * show_other a rapified file or archive entry reads as its text (what
 * rtmcat prints: cfg_print_text of rap_read), sized exactly; config.bin
 * shows as config.cpp, or config.bin.cpp beside a config.cpp, and lookups
 * agree with listings; a candidate that is not rapified, and a file that
 * is no candidate, show as they are; a config that does not read (or
 * could not fit in cache_size) shows a comment saying why; rapified=raw
 * and no show_other show what they did before; a change of a config.bin
 * or a config.cpp tells the kernel every name it may show under.
 * Fixtures come from the project's rapify and PBO writers.
 *
 * Run as "test_tree_config --fixtures DIR", it writes the mount test's
 * fixtures (tests/mount/configs.sh) into DIR instead. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "tree_testutil.h"
#include "cache.h"
#include "config.h"
#include "loader.h"
#include "pbo_write.h"
#include "tree.h"

/* The fixtures' configs, as text. */
static const char CFG_TEXT[] =
    "class CfgPatches { class rtmfs_test { units[] = {}; requiredVersion = 1.5; }; };\n"
    "class CfgGesturesMale { class Default; class States {\n"
    "  class GestureWipeTest : Default { file = \"\\a\\wipe.rtm\"; speed = -8; looped = 0; };\n"
    "}; };\n";
static const char MAT_TEXT[] = "ambient[] = {1, 1, 1, 1}; class Stage1 { texture = \"x.paa\"; };\n";
static const char SRC_TEXT[] = "// the source's own config.cpp\nclass CfgPatches {};\n";

/* What rtmcat prints for rapified bytes: their text (malloc'd). */
static char *text_of(const struct rtm_buf *raw, size_t *len)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rap_read((const uint8_t *)raw->p, raw->len, &c, &err), 0);
    struct rtm_buf b;
    rtm_buf_init(&b);
    cfg_print_text(c, &b);
    cfg_free(c);
    rtm_buf_putc(&b, 0);
    *len = b.len - 1;
    return b.p;
}

/* An archive: config.bin (LZSS) at its top, both\config.bin beside
 * both\config.cpp, a rapified mat.rvmat (stored) and a text one, and a
 * texture that starts like a rapified file. */
static void put_archive(int dfd, const char *name, const struct rtm_buf *cfg,
                        const struct rtm_buf *mat)
{
    static const char paa[] = "\0raP but a texture";
    const struct pbo_write_entry w[] = {
        { "config.bin", (const uint8_t *)cfg->p, cfg->len, PBO_PACK_CPRS, 0 },
        { "both\\config.bin", (const uint8_t *)cfg->p, cfg->len, PBO_PACK_STORE, 0 },
        { "both\\config.cpp", (const uint8_t *)SRC_TEXT, sizeof SRC_TEXT - 1, PBO_PACK_STORE, 0 },
        { "data\\mat.rvmat", (const uint8_t *)mat->p, mat->len, PBO_PACK_STORE, 0 },
        { "data\\plain.rvmat", (const uint8_t *)MAT_TEXT, sizeof MAT_TEXT - 1, PBO_PACK_STORE, 0 },
        { "data\\tex.paa", (const uint8_t *)paa, sizeof paa - 1, PBO_PACK_STORE, 0 },
    };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(w, sizeof w / sizeof w[0], NULL, 0, 0, &b), 0);
    put_file(dfd, name, b.p, b.len);
    rtm_buf_free(&b);
}

/* The fixtures, loose and in configs.pbo, into folder dfd. */
static void put_fixtures(int dfd)
{
    struct rtm_buf cfg, mat;
    static const char paa[] = "\0raP but a texture";
    rapify_text(CFG_TEXT, &cfg);
    rapify_text(MAT_TEXT, &mat);
    put_file(dfd, "config.bin", cfg.p, cfg.len);
    put_file(dfd, "mat.rvmat", mat.p, mat.len);
    put_file(dfd, "plain.rvmat", MAT_TEXT, sizeof MAT_TEXT - 1);
    put_file(dfd, "tex.paa", paa, sizeof paa - 1);
    assert_int_equal(mkdirat(dfd, "both", 0755), 0);
    put_file(dfd, "both/config.bin", cfg.p, cfg.len);
    put_file(dfd, "both/config.cpp", SRC_TEXT, sizeof SRC_TEXT - 1);
    assert_int_equal(mkdirat(dfd, "bad", 0755), 0);
    put_file(dfd, "bad/config.bin", cfg.p, cfg.len - 9);   /* cut short */
    put_archive(dfd, "configs.pbo", &cfg, &mat);
    rtm_buf_free(&cfg);
    rtm_buf_free(&mat);
}

struct env {
    struct tree_fixture f;        /* SOURCE, loader, cache and tree (tree_testutil.h) */
    struct rtm_buf cfg;           /* the rapified config.bin */
    char *text;                   /* its text */
    size_t text_len;
};

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    tree_fixture_open(&e->f, "tcfg");
    tree_fixture_mount(&e->f, 64u << 20);
    put_fixtures(e->f.fd);
    rapify_text(CFG_TEXT, &e->cfg);
    e->text = text_of(&e->cfg, &e->text_len);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .show_other = 1 });
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_buf_free(&e->cfg);
    free(e->text);
    free(e);
    return 0;
}

/* A path looked up as the kernel does (tree_testutil.h). */
static int walk(struct env *e, const char *path, struct rtm_tree_entry *out)
{
    return tree_walk(e->f.t, path, out);
}

/* The whole of file path, read in small pieces; its stat size must be
 * what is read. */
static char *read_path(struct env *e, const char *path, size_t *len)
{
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, path, &te), 0);
    assert_true(S_ISREG(te.st.st_mode));
    struct rtm_buf b;
    rtm_buf_init(&b);
    char chunk[97];
    ssize_t n;
    while ((n = rtm_tree_read(e->f.t, te.ino, chunk, sizeof chunk, (off_t)b.len)) > 0)
        rtm_buf_put(&b, chunk, (size_t)n);
    assert_int_equal(n, 0);
    assert_int_equal(te.st.st_size, b.len);
    rtm_buf_putc(&b, 0);
    *len = b.len - 1;
    return b.p;
}

static void expect_bytes(struct env *e, const char *path, const void *want, size_t want_len)
{
    size_t len;
    char *got = read_path(e, path, &len);
    assert_int_equal(len, want_len);
    assert_memory_equal(got, want, len);
    free(got);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct rtm_dirent *)a)->name, ((const struct rtm_dirent *)b)->name);
}

/* The names of folder path's listing, sorted, one a line; each listed
 * number is the one a lookup of the name gives. */
static void expect_names(struct env *e, const char *path, const char *want)
{
    struct rtm_tree_entry te = { .ino = RTM_INO_ROOT };
    struct rtm_dirlist *d;
    struct rtm_buf b;
    char child[512];
    if (*path)
        assert_int_equal(walk(e, path, &te), 0);
    rtm_buf_init(&b);
    assert_int_equal(rtm_tree_listing(e->f.t, te.ino, 0, &d), 0);
    qsort(d->e + 2, d->n - 2, sizeof *d->e, by_name);    /* a source folder's order is its own */
    for (size_t i = 2; i < d->n; i++) {
        struct rtm_tree_entry ce;
        rtm_buf_printf(&b, "%s\n", d->e[i].name);
        snprintf(child, sizeof child, "%s%s%s", path, *path ? "/" : "", d->e[i].name);
        assert_int_equal(walk(e, child, &ce), 0);
        assert_int_equal(ce.ino, d->e[i].ino);
    }
    rtm_tree_listing_put(e->f.t, d);
    rtm_buf_putc(&b, 0);
    assert_string_equal(b.p, want);
    rtm_buf_free(&b);
}

static void loose_configs_read_as_text(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry te;
    expect_names(e, "", "bad\nboth\ncheck.txt\nconfig.cpp\nconfigs.pbo\nmat.rvmat\nmissing.txt\nplain.rvmat\ntex.paa\n");
    expect_bytes(e, "config.cpp", e->text, e->text_len);
    assert_non_null(strstr(e->text, "class GestureWipeTest : Default"));
    assert_int_equal(walk(e, "config.bin", &te), -ENOENT);    /* shown as config.cpp */
    assert_int_equal(walk(e, "config.bin.cpp", &te), -ENOENT);
    /* beside a config.cpp: both, the derapified one as config.bin.cpp */
    expect_names(e, "both", "config.bin.cpp\nconfig.cpp\n");
    expect_bytes(e, "both/config.bin.cpp", e->text, e->text_len);
    expect_bytes(e, "both/config.cpp", SRC_TEXT, sizeof SRC_TEXT - 1);
    assert_int_equal(walk(e, "both/config.bin", &te), -ENOENT);
    /* other configs keep their names; what is not rapified shows as it is */
    size_t len;
    char *mat = read_path(e, "mat.rvmat", &len);
    assert_non_null(strstr(mat, "class Stage1"));
    free(mat);
    expect_bytes(e, "plain.rvmat", MAT_TEXT, sizeof MAT_TEXT - 1);
    expect_bytes(e, "tex.paa", "\0raP but a texture", 18);     /* never sniffed */
}

static void archive_configs_read_as_text(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry te;
    expect_names(e, "configs.pbo", "both\nconfig.cpp\ndata\npbo.txt\n");
    expect_bytes(e, "configs.pbo/config.cpp", e->text, e->text_len);      /* LZSS */
    expect_names(e, "configs.pbo/both", "config.bin.cpp\nconfig.cpp\n");
    expect_bytes(e, "configs.pbo/both/config.bin.cpp", e->text, e->text_len);
    expect_bytes(e, "configs.pbo/both/config.cpp", SRC_TEXT, sizeof SRC_TEXT - 1);
    assert_int_equal(walk(e, "configs.pbo/config.bin", &te), -ENOENT);
    assert_int_equal(walk(e, "configs.pbo/both/config.bin", &te), -ENOENT);
    assert_int_equal(walk(e, "configs.pbo/CONFIG.CPP", &te), 0);   /* an archive ignores case */
    expect_names(e, "configs.pbo/data", "mat.rvmat\nplain.rvmat\ntex.paa\n");
    size_t len;
    char *mat = read_path(e, "configs.pbo/data/mat.rvmat", &len);
    assert_non_null(strstr(mat, "class Stage1"));
    free(mat);
    expect_bytes(e, "configs.pbo/data/plain.rvmat", MAT_TEXT, sizeof MAT_TEXT - 1);
    expect_bytes(e, "configs.pbo/data/tex.paa", "\0raP but a texture", 18);
}

/* A config that does not read is a comment saying why, sized exactly. */
static void a_bad_config_says_why(void **state)
{
    struct env *e = *state;
    size_t len;
    char *got = read_path(e, "bad/config.cpp", &len);
    assert_true(strncmp(got, "// rtmfs: bad/config.bin: ", 26) == 0);
    assert_non_null(strstr(got, "(at byte "));
    assert_int_equal(got[len - 1], '\n');
    assert_ptr_equal(strchr(got, '\n'), got + len - 1);         /* one line */
    free(got);
}

/* Text that could never fit in cache_size is refused as an animation's
 * parse is: the comment says what it needs. */
static void configs_are_bounded_by_the_cache(void **state)
{
    struct env *e = *state;
    struct rtm_buf big;
    struct rtm_buf text;
    rtm_buf_init(&text);
    for (int i = 0; i < 4000; i++)
        rtm_buf_printf(&text, "value_%d = \"a string long enough to count\";\n", i);
    rtm_buf_putc(&text, 0);
    rapify_text(text.p, &big);
    put_file(e->f.fd, "big.sqm", big.p, big.len);
    tree_fixture_unmount(&e->f);
    tree_fixture_mount(&e->f, big.len + 4096);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .show_other = 1 });
    size_t len;
    char *got = read_path(e, "big.sqm", &len);
    assert_non_null(strstr(got, "more than cache_size"));
    free(got);
    rtm_buf_free(&big);
    rtm_buf_free(&text);
}

/* -o rapified=raw, and no show_other: what showed before. */
static void raw_and_hidden(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry te;
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .show_other = 1, .rapified_raw = 1 });
    expect_names(e, "", "bad\nboth\ncheck.txt\nconfig.bin\nconfigs.pbo\nmat.rvmat\nmissing.txt\nplain.rvmat\ntex.paa\n");
    expect_bytes(e, "config.bin", e->cfg.p, e->cfg.len);
    expect_bytes(e, "configs.pbo/config.bin", e->cfg.p, e->cfg.len);
    expect_names(e, "configs.pbo/both", "config.bin\nconfig.cpp\n");
    assert_int_equal(walk(e, "config.cpp", &te), -ENOENT);
    assert_int_equal(walk(e, "configs.pbo/config.cpp", &te), -ENOENT);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    expect_names(e, "", "bad\nboth\ncheck.txt\nconfigs.pbo\nmissing.txt\n");
    assert_int_equal(walk(e, "config.cpp", &te), -ENOENT);
    assert_int_equal(walk(e, "config.bin", &te), -ENOENT);
}

struct record {
    char text[1024];
};

static void rec_entry(void *ctx, uint64_t parent, const char *name)
{
    struct record *r = ctx;
    (void)parent;
    size_t n = strlen(r->text);
    snprintf(r->text + n, sizeof r->text - n, "%s\n", name);
}

static void rec_inode(void *ctx, uint64_t ino) { (void)ctx, (void)ino; }

/* A config.cpp appearing renames its config.bin's text: the kernel is
 * told to forget every name the config.bin may show under. */
static void changes_tell_every_name(void **state)
{
    struct env *e = *state;
    struct record r = { "" };
    struct rtm_tree_notify n = { &r, rec_entry, rec_inode };
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, "config.cpp", &te), 0);
    put_file(e->f.fd, "config.cpp", SRC_TEXT, sizeof SRC_TEXT - 1);
    rtm_tree_changed(e->f.t, "", "config.cpp", &n);
    assert_string_equal(r.text, "config.cpp\nconfig.bin\nconfig.bin.cpp\n");
    expect_bytes(e, "config.cpp", SRC_TEXT, sizeof SRC_TEXT - 1);
    expect_bytes(e, "config.bin.cpp", e->text, e->text_len);
}

/* --fixtures DIR: the mount test's fixtures. */
static int write_fixtures(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) {
        perror(dir);
        return 1;
    }
    put_fixtures(fd);
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--fixtures") == 0)
        return write_fixtures(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(loose_configs_read_as_text, setup, teardown),
        cmocka_unit_test_setup_teardown(archive_configs_read_as_text, setup, teardown),
        cmocka_unit_test_setup_teardown(a_bad_config_says_why, setup, teardown),
        cmocka_unit_test_setup_teardown(configs_are_bounded_by_the_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(raw_and_hidden, setup, teardown),
        cmocka_unit_test_setup_teardown(changes_tell_every_name, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
