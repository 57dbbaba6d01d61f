/* tree_mount_testutil.c - what tree_mount_testutil.h declares, compiled once into librtmtest.a. */
#include "tree_mount_testutil.h"


/* Writes b as file name (a path) in SOURCE. */
void write_file(struct env *e, const char *name, const struct rtm_buf *b)
{
    tree_fixture_write(&e->f, name, b->p, b->len);
}

/* The tree's watch callback: what the test set in watch_rc. */
static int fake_watch(void *ctx, const char *dir)
{
    (void)dir;
    return ((struct env *)ctx)->watch_rc;
}

/* A new tree over e's folder with cfg's choices (srcfd, cache and watch
 * are filled in). */
void new_tree_with(struct env *e, struct rtm_tree_config cfg)
{
    cfg.watch = fake_watch;
    cfg.watch_ctx = e;
    tree_fixture_tree(&e->f, cfg);
}

void new_tree(struct env *e, rtm_ino_hash_fn hash, const char *hidden)
{
    new_tree_with(e, (struct rtm_tree_config){ .hidden = hidden, .hash = hash });
}

/* Each test's state (cmocka setup and teardown): the SOURCE above, a
 * 64 MiB cache and a tree over them. */
int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    tree_fixture_open(&e->f, "tree");
    tree_fixture_mount(&e->f, 64u << 20);
    struct sample_opts oa = { 6, 20, 1, 0 }, ob = { 6, 20, 2, 0 };
    assert_int_equal(rtm_sample_plain(&oa, &e->a), 0);
    assert_int_equal(rtm_sample_plain(&ob, &e->b), 0);
    assert_int_equal(e->a.len, e->b.len);
    assert_int_equal(mkdirat(e->f.fd, "sub", 0755), 0);
    write_file(e, "walk.rtm", &e->a);
    write_file(e, "sub/run.rtm", &e->b);
    struct rtm_buf junk = { .p = "not an animation", .len = 16, .cap = 16 };
    write_file(e, "broken.rtm", &junk);
    write_file(e, "readme.txt", &junk);
    new_tree(e, NULL, NULL);
    *state = e;
    return 0;
}

int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_buf_free(&e->a);
    rtm_buf_free(&e->b);
    free(e);
    return 0;
}

/* A path looked up as the kernel does (tree_testutil.h). */
int walk(struct env *e, const char *path, struct rtm_tree_entry *out)
{
    return tree_walk(e->f.t, path, out);
}

uint64_t ino_of(struct env *e, const char *path)
{
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, path, &te), 0);
    return te.ino;
}

/* The whole content of file ino, read in small pieces. */
char *read_all(struct env *e, uint64_t ino, size_t *len)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    char chunk[777];
    ssize_t n;
    while ((n = rtm_tree_read(e->f.t, ino, chunk, sizeof chunk, (off_t)b.len)) > 0)
        rtm_buf_put(&b, chunk, (size_t)n);
    assert_true(n == 0);
    rtm_buf_putc(&b, 0);
    *len = b.len - 1;
    return b.p;
}

char *render_view(const struct rtm_buf *src, const char *view, size_t *len)
{
    struct rtm_anim *a = parse_ok(src, "none");
    struct rtm_view v;
    struct rtm_buf out;
    rtm_buf_init(&out);
    assert_int_equal(rtm_view_lookup(a, view, &v), 0);
    assert_int_equal(rtm_view_render(a, v, &out), 0);
    rtm_free(a);
    *len = out.len;
    rtm_buf_putc(&out, 0);
    return out.p;
}

/* Every name a listing shows is found by lookup with the same number and
 * type, and every lookup's number is the listing's. */
void check_listing(struct env *e, const char *dir, size_t want_entries)
{
    uint64_t ino = *dir ? ino_of(e, dir) : RTM_INO_ROOT;
    struct rtm_dirlist *d;
    assert_int_equal(rtm_tree_listing(e->f.t, ino, 0, &d), 0);
    assert_int_equal(d->n, want_entries + 2);
    assert_string_equal(d->e[0].name, ".");
    assert_string_equal(d->e[1].name, "..");
    for (size_t i = 2; i < d->n; i++) {
        struct rtm_tree_entry te;
        assert_int_equal(rtm_tree_lookup(e->f.t, ino, d->e[i].name, &te), 0);
        assert_int_equal(te.ino, d->e[i].ino);
        assert_int_equal(te.st.st_mode & S_IFMT, d->e[i].type);
    }
    rtm_tree_listing_put(e->f.t, d);
}

/* The names in folder ino's listing, one line each. */
char *names(struct env *e, uint64_t ino)
{
    struct rtm_dirlist *d;
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_tree_listing(e->f.t, ino, 0, &d), 0);
    for (size_t i = 2; i < d->n; i++)
        rtm_buf_printf(&b, "%s\n", d->e[i].name);
    rtm_tree_listing_put(e->f.t, d);
    rtm_buf_putc(&b, 0);
    return b.p;
}

void expect_names(struct env *e, const char *dir, const char *want)
{
    char *got = names(e, *dir ? ino_of(e, dir) : RTM_INO_ROOT);
    assert_string_equal(got, want);
    free(got);
}
