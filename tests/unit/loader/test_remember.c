/* test_remember.c - the persistent index under the tree: a second mount
 * answers stat and readdir from it without parsing or rendering, a version
 * or rendering that differs is never taken for another, and a wrong
 * remembered size fails one read with EIO, tells the kernel, and is exact
 * from then on.  (The store itself, its bound, corruption and locks:
 * test_index.) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

#include "testutil.h"
#include "tree_testutil.h"
#include "cache.h"
#include "index.h"
#include "loader.h"
#include "pbo_write.h"
#include "samples.h"
#include "shared_opts.h"
#include "skeleton.h"
#include "tree.h"

/* One "mount": skeleton, index, loader, cache and tree over the folder
 * (the fixture's, tree_testutil.h), and what this test keeps of it. */
struct mount {
    struct tree_fixture *f;
    char render[256];
    uint64_t stale[8], stale_n[8];    /* what the stale hook was told */
    _Atomic int nstale;               /* (by a worker sizing ahead, too) */
};

struct env {
    struct tree_fixture f;        /* SOURCE, its index beside it, and the mount */
    struct rtm_buf walk, run;
    struct rtm_fsmap *fsmap;      /* the mounts' (NULL: none) */
    int ahead;                    /* the mounts' -o ahead= */
};

static void write_file(struct env *e, const char *name, const struct rtm_buf *b)
{
    tree_fixture_write(&e->f, name, b->p, b->len);
}

static void on_stale(void *ctx, uint64_t ino, uint64_t n)
{
    struct mount *m = ctx;
    int k = m->nstale;
    if (k < 8) {
        m->stale_n[k] = n;
        m->stale[k] = ino;
        m->nstale = k + 1;
    }
}

/* skel: "ofp2", "none" or a file in the folder; digits as -o digits=. */
static struct mount *mount_with(struct env *e, const char *skel, int digits)
{
    struct mount *m = calloc(1, sizeof *m);
    struct tree_fixture *f = m->f = &e->f;
    struct rtm_error err;
    char path[160];
    snprintf(path, sizeof path, "%s/%s", f->dir, skel);
    struct rtm_shared_opts shared = { .skeleton = rtm_skeleton_is_builtin(skel) ? skel : path,
                                      .digits = digits };
    assert_int_equal(rtm_skeleton_open(shared.skeleton, &f->skel, &err), 0);
    rtm_render_key(m->render, sizeof m->render, &shared, f->skel);
    assert_non_null(f->ix = rtm_index_open(f->index, 64u << 20, tree_quiet, NULL));
    tree_fixture_mount(f, 64u << 20);
    f->l.digits = digits;
    f->l.render = m->render;
    f->l.log = tree_quiet;
    f->l.fsmap = e->fsmap;
    rtmc_set_store(f->c, rtm_loader_store);
    rtmc_set_timed(f->c, rtm_loader_timed);     /* as rtmfs: timed sizes by generation */
    tree_fixture_tree(f, (struct rtm_tree_config){ .stale = on_stale, .stale_ctx = m,
                                                   .ahead = e->ahead });
    return m;
}

static struct mount *mount_default(struct env *e) { return mount_with(e, "ofp2", RTM_DIGITS_EXACT); }

static struct rtmc_stats unmount(struct mount *m)
{
    struct rtmc_stats st;
    rtmc_get_stats(m->f->c, &st);
    tree_fixture_unmount(m->f);
    free(m);
    return st;
}

/* Everything stat and readdir show below folder ino (at path), one line an
 * entry: "path size type", depth first; every name looked up. */
static void walk(struct mount *m, uint64_t ino, const char *path, struct rtm_buf *out)
{
    struct rtm_dirlist *d;
    assert_int_equal(rtm_tree_listing(m->f->t, ino, 0, &d), 0);
    for (size_t i = 2; i < d->n; i++) {
        struct rtm_tree_entry te;
        char child[512];
        snprintf(child, sizeof child, "%s/%s", path, d->e[i].name);
        assert_int_equal(rtm_tree_lookup(m->f->t, ino, d->e[i].name, &te), 0);
        assert_int_equal(te.ino, d->e[i].ino);
        rtm_buf_printf(out, "%s %lld %o\n", child, (long long)te.st.st_size,
                       (unsigned)(te.st.st_mode & S_IFMT));
        if (S_ISDIR(te.st.st_mode))
            walk(m, te.ino, child, out);
    }
    rtm_tree_listing_put(m->f->t, d);
}

static char *walk_all(struct mount *m)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    walk(m, RTM_INO_ROOT, "", &b);
    rtm_buf_putc(&b, 0);
    return rtm_buf_take(&b, NULL);
}

static uint64_t ino_of(struct mount *m, const char *path, struct rtm_tree_entry *te)
{
    assert_int_equal(tree_walk(m->f->t, path, te), 0);
    return te->ino;
}

static ssize_t read_file(struct mount *m, uint64_t ino, char *buf, size_t n)
{
    return rtm_tree_read(m->f->t, ino, buf, n, 0);
}

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    tree_fixture_open(&e->f, "remember");
    struct sample_opts ow = { 12, 30, 1, 2 }, orun = { 12, 30, 2, 2 };
    assert_int_equal(rtm_sample_plain(&ow, &e->walk), 0);
    assert_int_equal(rtm_sample_bmtr(&orun, 5, BMTR_COMPRESS_AUTO, &e->run), 0);
    write_file(e, "walk.rtm", &e->walk);
    struct pbo_write_entry pe[] = {
        { "anims\\walk.rtm", (const uint8_t *)e->walk.p, e->walk.len, PBO_PACK_CPRS, 0 },
        { "anims\\run.rtm", (const uint8_t *)e->run.p, e->run.len, PBO_PACK_STORE, 0 },
    };
    struct rtm_buf arch;
    rtm_buf_init(&arch);
    assert_int_equal(pbo_write(pe, 2, NULL, 0, 0, &arch), 0);
    write_file(e, "mod.pbo", &arch);
    rtm_buf_free(&arch);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_buf_free(&e->walk);
    rtm_buf_free(&e->run);
    free(e);
    return 0;
}

/* The second mount shows the same, from the index alone. */
static void a_second_mount_answers_from_the_index(void **state)
{
    struct env *e = *state;
    struct mount *m = mount_default(e);
    char *first = walk_all(m);
    struct rtmc_stats st = unmount(m);
    assert_true(st.loads > 0);
    assert_int_equal(st.remembered, 0);
    m = mount_default(e);
    char *second = walk_all(m);
    assert_string_equal(first, second);
    assert_non_null(strstr(second, "/mod.pbo/anims/run.rtm/frames/011.csv"));
    st = unmount(m);
    assert_int_equal(st.renders, 0);
    assert_int_equal(st.sizings, 0);
    assert_int_equal(st.loads, st.remembered);  /* 1 table and 3 shapes */
    assert_int_equal(st.loads, 4);
    free(first);
    free(second);
}

/* bones.txt renders from a remembered shape: grep -r --include=bones.txt
 * parses nothing on the second mount. */
static void bones_txt_from_the_index(void **state)
{
    struct env *e = *state;
    struct mount *m = mount_default(e);
    struct rtm_tree_entry te;
    char want[4096], got[4096];
    ssize_t n = read_file(m, ino_of(m, "mod.pbo/anims/run.rtm/bones.txt", &te), want, sizeof want);
    assert_true(n > 0);
    unmount(m);
    m = mount_default(e);
    assert_int_equal(read_file(m, ino_of(m, "mod.pbo/anims/run.rtm/bones.txt", &te), got,
                               sizeof got), n);
    assert_memory_equal(got, want, (size_t)n);
    struct rtmc_stats st = unmount(m);
    assert_int_equal(st.loads, st.remembered);
    assert_int_equal(st.renders, 1);
}

/* A rewrite of the same size whose mtime is put back is another version:
 * its ctime tells, and nothing of the old one is taken for it. */
static void a_changed_file_is_another_version(void **state)
{
    struct env *e = *state;
    struct mount *m = mount_default(e);
    char *first = walk_all(m);
    unmount(m);
    struct sample_opts o = { 12, 30, 9, 2 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    assert_int_equal(b.len, e->walk.len);
    struct stat before;
    assert_int_equal(fstatat(e->f.fd, "walk.rtm", &before, 0), 0);
    usleep(20000);
    write_file(e, "walk.rtm", &b);
    struct timespec times[2] = { before.st_atim, before.st_mtim };
    assert_int_equal(utimensat(e->f.fd, "walk.rtm", times, 0), 0);
    m = mount_default(e);
    char *second = walk_all(m);
    struct rtmc_stats st = unmount(m);
    assert_int_equal(st.loads, st.remembered + 2);     /* walk.rtm: shape and sizes */
    assert_int_equal(st.sizings, 1);
    (void)first;
    (void)second;
    free(first);
    free(second);
    rtm_buf_free(&b);
}

/* On a file system inotify is blind on (9p, FUSE: inode numbers may be
 * made up per mount, times reported as 0), a version with a zero time is
 * neither remembered nor recalled; with both times, or on a file system
 * that is not blind, it is. */
static void zero_times_on_a_blind_fs_are_not_trusted(void **state)
{
    struct env *e = *state;
    struct stat st;
    assert_int_equal(fstat(e->f.fd, &st), 0);
    struct timespec zero[2] = { { 0, 0 }, { 0, 0 } };
    assert_int_equal(utimensat(e->f.fd, "walk.rtm", zero, 0), 0);
    const struct { int blind, zero; uint64_t forgotten; } cases[] = {
        { 1, 1, 2 },                    /* walk.rtm's shape and sizes: loaded again */
        { 0, 1, 0 },
        { 1, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct timespec now[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
        assert_int_equal(utimensat(e->f.fd, "walk.rtm", cases[i].zero ? zero : now, 0), 0);
        assert_non_null(e->fsmap = rtm_fsmap_new(RTM_WATCH_AUTO, e->f.dir));
        assert_int_equal(rtm_fsmap_set(e->fsmap, (uint64_t)st.st_dev, cases[i].blind), 0);
        struct mount *m = mount_default(e);
        free(walk_all(m));
        unmount(m);
        m = mount_default(e);
        free(walk_all(m));
        struct rtmc_stats s = unmount(m);
        assert_int_equal(s.loads - s.remembered, cases[i].forgotten);
        rtm_fsmap_free(e->fsmap);
        e->fsmap = NULL;
    }
}

/* digits=, the skeleton, and the skeleton file's identity change what is
 * rendered: each is a key of its own. */
static void rendering_options_are_keys(void **state)
{
    struct env *e = *state;
    static const char skel[] = "Pelvis -\nSpine Pelvis\n";
    struct rtm_buf sb = { .p = (char *)skel, .len = sizeof skel - 1, .cap = sizeof skel };
    write_file(e, "mine.skel", &sb);
    struct {
        const char *skel;
        int digits;
    } runs[] = { { "ofp2", RTM_DIGITS_EXACT }, { "ofp2", 3 }, { "none", RTM_DIGITS_EXACT },
                 { "mine.skel", RTM_DIGITS_EXACT } };
    for (size_t i = 0; i < 4; i++) {
        struct mount *m = mount_with(e, runs[i].skel, runs[i].digits);
        free(walk_all(m));
        struct rtmc_stats st = unmount(m);
        assert_int_equal(st.remembered, i == 0 ? 0 : 1);   /* only the archive's table */
        m = mount_with(e, runs[i].skel, runs[i].digits);
        free(walk_all(m));
        st = unmount(m);
        assert_int_equal(st.loads, st.remembered);
    }
    /* the skeleton file rewritten (same bytes): a new identity */
    usleep(20000);
    write_file(e, "mine.skel", &sb);
    struct mount *m = mount_with(e, "mine.skel", RTM_DIGITS_EXACT);
    free(walk_all(m));
    struct rtmc_stats st = unmount(m);
    assert_int_equal(st.remembered, 1);
}

/* Remembers walk.rtm's sizes with one wrong: view 0's (header.txt) off by
 * 7 with every other size known, or (only_last) the last track's as 3
 * with no other size known.  Its view count, and the true size in *right. */
static size_t remember_wrong(struct env *e, struct mount *m, int only_last, uint64_t *right)
{
    struct rtmc_src src = { .path = "walk.rtm", .level = RTMC_FULL, .kind = RTMC_ANIM };
    struct stat st;
    assert_int_equal(fstatat(e->f.fd, "walk.rtm", &st, 0), 0);
    src.id = rtm_fileid_of(&st);
    struct rtmc_entry *h;
    assert_int_equal(rtmc_get(m->f->c, &src, &h), 0);
    const struct rtm_anim *a = rtmc_anim(h);
    size_t n = rtm_view_count(a), i = only_last ? n - 1 : 0;
    uint64_t *sizes = malloc(n * sizeof *sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    *right = sizes[i];
    if (only_last)
        memset(sizes, 0xff, n * sizeof *sizes);
    sizes[i] = only_last ? 3 : *right + 7;
    rtm_loader_store(&m->f->l, &src, a, sizes);
    rtmc_put(m->f->c, h);
    free(sizes);
    return n;
}

/* A mount in which only walk.rtm's bones.txt is read (its shape has no
 * sizes yet), then the last track's size remembered wrong (remember_wrong,
 * only_last): its view count, and the true size in *right. */
static size_t remember_last_wrong(struct env *e, uint64_t *right)
{
    struct mount *m = mount_default(e);
    struct rtm_tree_entry te;
    char buf[256];
    assert_true(read_file(m, ino_of(m, "walk.rtm/bones.txt", &te), buf, sizeof buf) > 0);
    size_t n = remember_wrong(e, m, 1, right);
    unmount(m);
    return n;
}

/* A remembered size that is wrong: the read fails once with EIO, the
 * kernel is told (the stale hook), the shape is forgotten, and from then
 * on stat and read agree. */
static void a_wrong_size_fails_once(void **state)
{
    struct env *e = *state;
    struct mount *m = mount_default(e);
    free(walk_all(m));
    /* remember a wrong size for walk.rtm's header.txt (view 0) */
    struct rtm_tree_entry te;
    uint64_t right;
    size_t n = remember_wrong(e, m, 0, &right);
    unmount(m);

    m = mount_default(e);
    uint64_t ino = ino_of(m, "walk.rtm/header.txt", &te);
    assert_int_equal(te.st.st_size, right + 7);         /* what the index said */
    char buf[8192];
    assert_int_equal(read_file(m, ino, buf, sizeof buf), -EIO);
    assert_int_equal(m->nstale, 1);
    assert_int_equal(m->stale[0], ino);                  /* header.txt: the first view */
    assert_int_equal(m->stale_n[0], (uint64_t)n);
    assert_int_equal(rtm_tree_getattr(m->f->t, ino, &te), 0);
    assert_int_equal(te.st.st_size, right);
    assert_int_equal(read_file(m, ino, buf, sizeof buf), (ssize_t)right);
    assert_int_equal(m->nstale, 1);
    /* the n numbers told are the version's views, and no more */
    assert_int_equal(rtm_tree_getattr(m->f->t, rtm_ino_after(ino, n - 1), &te), 0);
    assert_true(S_ISREG(te.st.st_mode));
    assert_int_equal(rtm_tree_getattr(m->f->t, rtm_ino_after(ino, n), &te), -ESTALE);
    struct rtmc_stats cs = unmount(m);
    assert_int_equal(cs.mismatches, 1);

    /* the index holds the right sizes now */
    m = mount_default(e);
    ino = ino_of(m, "walk.rtm/header.txt", &te);
    assert_int_equal(te.st.st_size, right);
    assert_int_equal(read_file(m, ino, buf, sizeof buf), (ssize_t)right);
    cs = unmount(m);
    assert_int_equal(cs.mismatches, 0);
}

/* A wrong size found by stat (sizing a view the shape did not know) fails
 * that stat once the same way. */
static void a_wrong_size_found_by_sizing(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry te;
    uint64_t right;
    size_t n = remember_last_wrong(e, &right);
    assert_int_not_equal(right, 3);

    struct mount *m = mount_default(e);
    uint64_t anim = ino_of(m, "walk.rtm", &te);
    /* sizing every view finds it: that lookup fails, the kernel is told to
     * forget every view of the animation (their sizes came from the shape) */
    assert_int_equal(rtm_tree_lookup(m->f->t, anim, "header.txt", &te), -EIO);
    assert_int_equal(m->nstale, 1);
    assert_int_equal(m->stale[0], rtm_ino_in_family(anim, 5));
    assert_int_equal(m->stale_n[0], (uint64_t)n);
    assert_int_equal(rtm_tree_lookup(m->f->t, anim, "header.txt", &te), 0);
    struct rtmc_stats cs;
    rtmc_get_stats(m->f->c, &cs);
    assert_int_equal(cs.mismatches, 1);
    free(walk_all(m));                                /* exact from then on */
    unmount(m);
    m = mount_default(e);
    char *again = walk_all(m);
    cs = unmount(m);
    assert_int_equal(cs.loads, cs.remembered);
    assert_int_equal(cs.mismatches, 0);
    free(again);
}

/* A wrong size found by a worker sizing ahead (tree_ahead.c) is told to the
 * kernel the same way, and the walk's own stat then finds the right one. */
static void a_wrong_size_found_ahead(void **state)
{
    struct env *e = *state;
    write_file(e, "a_run.rtm", &e->run);           /* listed before walk.rtm */
    struct rtm_tree_entry te;
    uint64_t right;
    size_t n = remember_last_wrong(e, &right);

    e->ahead = 1;
    struct mount *m = mount_default(e);
    struct rtm_dirlist *d;
    assert_int_equal(rtm_tree_listing(m->f->t, RTM_INO_ROOT, 0, &d), 0);
    rtm_tree_listing_put(m->f->t, d);
    /* a size of a_run.rtm missed: the worker sizes walk.rtm, next */
    assert_int_equal(tree_walk(m->f->t, "a_run.rtm/header.txt", &te), 0);
    for (int i = 0; i < 500 && m->nstale == 0; i++)
        usleep(10000);
    uint64_t walk = ino_of(m, "walk.rtm", &te);
    assert_int_equal(m->nstale, 1);
    assert_int_equal(m->stale[0], rtm_ino_in_family(walk, 5));
    assert_int_equal(m->stale_n[0], (uint64_t)n);
    uint64_t last = ino_of(m, "walk.rtm/header.txt", &te);
    assert_int_equal(rtm_tree_getattr(m->f->t, rtm_ino_after(last, n - 1), &te), 0);
    assert_int_equal(te.st.st_size, right);
    struct rtmc_stats cs = unmount(m);
    assert_int_equal(cs.mismatches, 1);
    assert_true(cs.ahead >= 1);
}

/* Without an index (noindex, rtmcat) the tree shows exactly the same. */
static void no_index_shows_the_same(void **state)
{
    struct env *e = *state;
    struct mount *m = mount_default(e);
    char *with = walk_all(m);
    unmount(m);
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &e->f.skel, &err), 0);
    tree_fixture_mount(&e->f, 64u << 20);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    struct mount bare = { .f = &e->f };
    char *without = walk_all(&bare);
    assert_string_equal(with, without);
    tree_fixture_unmount(&e->f);
    free(with);
    free(without);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_second_mount_answers_from_the_index, setup, teardown),
        cmocka_unit_test_setup_teardown(bones_txt_from_the_index, setup, teardown),
        cmocka_unit_test_setup_teardown(a_changed_file_is_another_version, setup, teardown),
        cmocka_unit_test_setup_teardown(zero_times_on_a_blind_fs_are_not_trusted, setup, teardown),
        cmocka_unit_test_setup_teardown(rendering_options_are_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(a_wrong_size_fails_once, setup, teardown),
        cmocka_unit_test_setup_teardown(a_wrong_size_found_by_sizing, setup, teardown),
        cmocka_unit_test_setup_teardown(a_wrong_size_found_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(no_index_shows_the_same, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
