/* test_tree_gamepaths.c - -o gamepaths in the tree layer, without FUSE:
 * archives (pbo_write, with a prefix property) and a loose $PBOPREFIX$
 * folder at their game paths; an animation there reads the same bytes as
 * the normal tree's at its source path; the source whose path sorts last
 * is shown; conflicts.txt is sized exactly; listings and lookups agree on
 * numbers; every name the root lists (missing.txt too) is looked up and
 * reads its size; rtm_tree_source_path maps a game path back. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "tree_testutil.h"
#include "cache.h"
#include "loader.h"
#include "pbo_write.h"
#include "samples.h"
#include "tree.h"

struct env {
    struct tree_fixture f;          /* SOURCE, loader, cache (tree_testutil.h) */
    struct rtm_tree *game, *normal; /* game is f.t, freed with the fixture */
};

/* An archive named name at prefix, of one animation (sample seed) at each
 * of the entry names. */
static void put_archive(int dfd, const char *name, const char *prefix, uint32_t seed,
                        const char *const *entries, size_t n)
{
    struct rtm_buf rtm, out;
    struct pbo_write_entry e[4];
    const struct pbo_write_prop prop = { "prefix", prefix };
    rtm_buf_init(&rtm);
    rtm_buf_init(&out);
    assert_int_equal(rtm_sample_plain(&(struct sample_opts){ 5, 8, seed, 0 }, &rtm), 0);
    for (size_t i = 0; i < n; i++)
        e[i] = (struct pbo_write_entry){ entries[i], (const uint8_t *)rtm.p, rtm.len,
                                         PBO_PACK_STORE, 0 };
    assert_int_equal(pbo_write(e, n, &prop, 1, 0, &out), 0);
    put_file(dfd, name, out.p, out.len);
    rtm_buf_free(&rtm);
    rtm_buf_free(&out);
}

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    static const char *const walk[] = { "anims\\walk.rtm" }, *const deep[] = { "x.rtm" };
    tree_fixture_open(&e->f, "tgame");
    put_archive(e->f.fd, "a.pbo", "z\\mod", 1, walk, 1);
    put_archive(e->f.fd, "b.pbo", "\\Z\\MOD\\", 2, walk, 1);
    put_archive(e->f.fd, "c.pbo", "z\\mod\\anims\\deep", 3, deep, 1);
    assert_int_equal(mkdirat(e->f.fd, "addon", 0755), 0);
    put_file(e->f.fd, "addon/$PBOPREFIX$", "x\\addon\n", 9);
    struct rtm_buf rtm;
    rtm_buf_init(&rtm);
    assert_int_equal(rtm_sample_plain(&(struct sample_opts){ 4, 8, 4, 0 }, &rtm), 0);
    put_file(e->f.fd, "addon/sit.rtm", rtm.p, rtm.len);
    rtm_buf_free(&rtm);
    tree_fixture_mount(&e->f, 64u << 20);
    e->game = tree_fixture_tree(&e->f, (struct rtm_tree_config){ .gamepaths = 1,
                                                                 .configs_none = 1 });
    assert_non_null(e->normal = rtm_tree_new(&(struct rtm_tree_config){
                        .srcfd = e->f.fd, .cache = e->f.c, .configs_none = 1 }));
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    rtm_tree_free(e->normal);
    tree_fixture_close(&e->f);
    free(e);
    return 0;
}

/* The whole of path in tree t, NUL-terminated, its size checked against
 * stat's. */
static char *read_path(struct rtm_tree *t, const char *path, size_t *len)
{
    struct rtm_tree_entry en;
    assert_int_equal(tree_walk(t, path, &en), 0);
    char *buf = malloc((size_t)en.st.st_size + 2);
    ssize_t n = rtm_tree_read(t, en.ino, buf, (size_t)en.st.st_size + 1, 0);
    assert_int_equal(n, en.st.st_size);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* The names of folder path, space-separated, '/' after a folder. */
static void names_of(struct rtm_tree *t, const char *path, char *out, size_t n)
{
    struct rtm_tree_entry en;
    struct rtm_dirlist *d;
    assert_int_equal(tree_walk(t, path, &en), 0);
    assert_int_equal(rtm_tree_listing(t, en.ino, 0, &d), 0);
    out[0] = 0;
    for (size_t i = 2; i < d->n; i++)
        snprintf(out + strlen(out), n - strlen(out), "%s%s ", d->e[i].name,
                 d->e[i].type == S_IFDIR ? "/" : "");
    rtm_tree_listing_put(t, d);
}

static void game_tree(void **state)
{
    struct env *e = *state;
    char names[256];
    names_of(e->game, "", names, sizeof names);
    /* c.pbo, whose name sorts last, spells z/ (b.pbo would spell Z/); the
     * root's missing.txt is there as in the normal mount */
    assert_string_equal(names, "conflicts.txt x/ z/ missing.txt check.txt ");
    names_of(e->game, "z/mod/anims", names, sizeof names);
    assert_string_equal(names, "deep/ walk.rtm/ ");
    names_of(e->game, "X/ADDON", names, sizeof names);
    assert_string_equal(names, "sit.rtm/ ");
    /* the shown walk.rtm is b.pbo's, the same bytes as the normal tree's */
    size_t gl, nl;
    char *g = read_path(e->game, "z/mod/anims/walk.rtm/header.txt", &gl);
    char *n = read_path(e->normal, "b.pbo/anims/walk.rtm/header.txt", &nl);
    assert_int_equal(gl, nl);
    assert_memory_equal(g, n, gl);
    free(g);
    free(n);
    g = read_path(e->game, "x/addon/sit.rtm/frames/003.csv", &gl);
    n = read_path(e->normal, "addon/sit.rtm/frames/003.csv", &nl);
    assert_int_equal(gl, nl);
    assert_memory_equal(g, n, gl);
    free(g);
    free(n);
    g = read_path(e->game, "conflicts.txt", &gl);
    assert_string_equal(g, "Z\\MOD\\anims\\walk.rtm\tb.pbo\ta.pbo\n");
    free(g);
}

/* A listing gives an animation the number a lookup gives it. */
static void numbers_agree(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry dir, anim;
    struct rtm_dirlist *d;
    assert_int_equal(tree_walk(e->game, "z/mod/anims", &dir), 0);
    assert_int_equal(tree_walk(e->game, "z/mod/anims/walk.rtm", &anim), 0);
    assert_true(S_ISDIR(anim.st.st_mode));
    assert_int_equal(rtm_tree_listing(e->game, dir.ino, 0, &d), 0);
    int seen = 0;
    for (size_t i = 2; i < d->n; i++)
        if (strcmp(d->e[i].name, "walk.rtm") == 0) {
            assert_int_equal(d->e[i].ino, anim.ino);
            seen = 1;
        }
    rtm_tree_listing_put(e->game, d);
    assert_true(seen);
}

/* Every name the game's root lists is looked up, as the kind it is
 * listed as, under its listed number, and a file reads as many bytes as
 * stat says: missing.txt too (it was listed but not found), with and
 * without show_other. */
static void root_names_resolve(void **state)
{
    struct env *e = *state;
    struct rtm_tree *other = rtm_tree_new(&(struct rtm_tree_config){
        .srcfd = e->f.fd, .cache = e->f.c, .gamepaths = 1, .show_other = 1 });
    assert_non_null(other);
    struct rtm_tree *trees[] = { e->game, other };
    for (size_t k = 0; k < 2; k++) {
        struct rtm_tree_entry root, en;
        struct rtm_dirlist *d;
        int missing = 0;
        assert_int_equal(tree_walk(trees[k], "", &root), 0);
        assert_int_equal(rtm_tree_listing(trees[k], root.ino, 0, &d), 0);
        for (size_t i = 2; i < d->n; i++) {
            assert_int_equal(rtm_tree_lookup(trees[k], root.ino, d->e[i].name, &en), 0);
            assert_int_equal(en.st.st_mode & S_IFMT, d->e[i].type);
            assert_int_equal(en.ino, d->e[i].ino);
            rtm_tree_forget(trees[k], en.ino, 1);
            if (d->e[i].type != S_IFREG)
                continue;
            size_t len;
            free(read_path(trees[k], d->e[i].name, &len));
            missing += strcmp(d->e[i].name, "missing.txt") == 0;
        }
        rtm_tree_listing_put(trees[k], d);
        assert_int_equal(missing, 1);
    }
    rtm_tree_free(other);
}

static void source_paths(void **state)
{
    struct env *e = *state;
    char out[PATH_MAX];
    assert_int_equal(rtm_tree_source_path(e->game, "z/MOD/anims/Deep/x.rtm", out), 0);
    assert_string_equal(out, "c.pbo/x.rtm");
    assert_int_equal(rtm_tree_source_path(e->game, "z/mod/anims/walk.rtm/bones.txt", out), 0);
    assert_string_equal(out, "b.pbo/anims/walk.rtm/bones.txt");
    assert_int_equal(rtm_tree_source_path(e->game, "z/mod", out), 1);
    assert_int_equal(rtm_tree_source_path(e->game, "z/none", out), -ENOENT);
    assert_int_equal(rtm_tree_source_path(e->normal, "z", out), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(game_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(numbers_agree, setup, teardown),
        cmocka_unit_test_setup_teardown(root_names_resolve, setup, teardown),
        cmocka_unit_test_setup_teardown(source_paths, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
