/* test_tree_ahead.c - sizing ahead of a walk (tree_ahead.c): two threads
 * stat and read every file of a folder of animations while the workers
 * size ahead, and every size equals the bytes read; a walk that reads
 * bones.txt alone (grep -r) sizes nothing, ahead or not; a walk that stops
 * after one animation has the workers size no more than their window
 * beyond it; without threads (-o ahead=0) nothing is sized ahead; and
 * animations whose head reads and whose full parse fails, met by the
 * workers after a listing loaded their heads, end as a request would leave
 * them (EIO, then error.txt), with the rest sized exactly; and text
 * configs whose states.txt lines are made at their first need, which
 * the walkers' and the workers' timed views and states.txt race for. */
#include "testutil.h"
#include "tree_testutil.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "samples.h"
#include "skelreg.h"

enum { NANIMS = 24, WINDOW = 16 };

struct env {
    struct tree_fixture f;
    struct rtm_skelreg *skels;  /* the configs' skeleton step, when set */
};

/* SOURCE: anims/ with NANIMS animations of varied shapes, plain and BMTR. */
static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    struct rtm_error err;
    assert_non_null(e);
    tree_fixture_open(&e->f, "ahead");
    assert_int_equal(mkdirat(e->f.fd, "anims", 0755), 0);
    for (uint32_t i = 0; i < NANIMS; i++) {
        struct sample_opts o = { 3 + i % 5, 8 + i % 7, i, i % 3 };
        struct rtm_buf b;
        char name[64];
        rtm_buf_init(&b);
        assert_int_equal(i % 2 ? rtm_sample_bmtr(&o, 3 + i % 3, BMTR_COMPRESS_AUTO, &b)
                               : rtm_sample_plain(&o, &b), 0);
        snprintf(name, sizeof name, "anims/a%02u.rtm", i);
        tree_fixture_write(&e->f, name, b.p, b.len);
        rtm_buf_free(&b);
    }
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->f.skel, &err), 0);
    tree_fixture_mount(&e->f, 64u << 20);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_skelreg_free(e->skels);
    free(e);
    return 0;
}

static struct rtm_tree *mount_with(struct env *e, int ahead)
{
    e->f.l.skels = e->skels;
    return tree_fixture_tree(&e->f, (struct rtm_tree_config){ .ahead = ahead,
                                                              .skels = e->skels });
}

/* The listing of folder ino, entries only (no "." or ".."), into names
 * and inos (up to max); how many. */
static size_t list(struct rtm_tree *t, uint64_t ino, char names[][64], uint64_t *inos,
                   size_t max)
{
    struct rtm_dirlist *d;
    size_t n = 0;
    assert_int_equal(rtm_tree_listing(t, ino, 0, &d), 0);
    for (size_t i = 0; i < d->n && n < max; i++)
        if (strcmp(d->e[i].name, ".") && strcmp(d->e[i].name, "..")) {
            snprintf(names[n], 64, "%s", d->e[i].name);
            inos[n++] = d->e[i].ino;
        }
    rtm_tree_listing_put(t, d);
    return n;
}

/* All the bytes of file ino: how many. */
static uint64_t read_all(struct rtm_tree *t, uint64_t ino)
{
    static _Thread_local char buf[1 << 16];
    uint64_t total = 0;
    ssize_t n;
    while ((n = rtm_tree_read(t, ino, buf, sizeof buf, (off_t)total)) > 0)
        total += (uint64_t)n;
    assert_true(n == 0);
    return total;
}

/* Stats (and, with check, reads) everything below folder ino, as ls -lR
 * or du does: each name looked up, sizes compared with the bytes; how
 * many files. */
static size_t walk(struct rtm_tree *t, uint64_t ino, int check)
{
    char (*names)[64] = malloc(4096 * sizeof *names);
    uint64_t *inos = malloc(4096 * sizeof *inos);
    size_t files = 0, n = list(t, ino, names, inos, 4096);
    for (size_t i = 0; i < n; i++) {
        struct rtm_tree_entry te;
        assert_int_equal(rtm_tree_lookup(t, ino, names[i], &te), 0);
        if (S_ISDIR(te.st.st_mode)) {
            files += walk(t, te.ino, check);
            continue;
        }
        files++;
        if (check && (uint64_t)te.st.st_size != read_all(t, te.ino))
            fail_msg("%s: size %lld, bytes read differ", names[i], (long long)te.st.st_size);
    }
    free(names);
    free(inos);
    return files;
}

static uint64_t anims_ino(struct rtm_tree *t)
{
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(t, "anims", &te), 0);
    return te.ino;
}

/* anims/ listed, as a walk lists it before going in: its number, and its
 * animations' names and numbers. */
static uint64_t list_anims(struct rtm_tree *t, char names[NANIMS][64], uint64_t inos[NANIMS])
{
    uint64_t dir = anims_ino(t);
    assert_int_equal(list(t, dir, names, inos, NANIMS), NANIMS);
    return dir;
}

static void *walker(void *arg)
{
    struct rtm_tree *t = arg;
    size_t files = walk(t, anims_ino(t), 1);
    return (void *)files;
}

/* Two walkers over t at once; the files each found into files. */
static void walk_twice_at_once(struct rtm_tree *t, void *files[2])
{
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, walker, t), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(th[i], &files[i]), 0);
}

/* Two walkers stat and read everything while the workers size ahead. */
static void sizes_exact_while_ahead(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount_with(e, 2);
    void *files[2];
    walk_twice_at_once(t, files);
    assert_true((size_t)files[0] > NANIMS * 10);
    assert_int_equal((size_t)files[0], (size_t)files[1]);
    struct rtmc_stats st;
    rtmc_get_stats(e->f.c, &st);
    assert_true(st.ahead > 0);
    /* Two walks race for the first animation: the one that loses may
     * relist anims/ while the other is sizing it, and a worker may take it.
     * That a single walk sizes its own first is stops_at_window's check. */
    assert_true(st.ahead <= NANIMS);
}

/* grep -r lefthand --include=bones.txt: every folder listed, bones.txt
 * looked up and read, nothing else. */
static void grep_sizes_nothing(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount_with(e, 2);
    char names[NANIMS][64];
    uint64_t inos[NANIMS];
    uint64_t dir = list_anims(t, names, inos);
    for (size_t i = 0; i < NANIMS; i++) {
        struct rtm_tree_entry a, b;
        char inner[NANIMS][64];
        uint64_t inner_inos[NANIMS];
        assert_int_equal(rtm_tree_lookup(t, dir, names[i], &a), 0);
        list(t, a.ino, inner, inner_inos, NANIMS);
        assert_int_equal(rtm_tree_lookup(t, a.ino, "bones.txt", &b), 0);
        assert_true(read_all(t, b.ino) > 0);
    }
    struct rtmc_stats st;
    rtmc_get_stats(e->f.c, &st);
    assert_int_equal(st.sizings, 0);
    assert_int_equal(st.ahead, 0);
}

/* The cache's count of versions sized ahead, once it stops moving. */
static uint64_t ahead_settled(struct env *e)
{
    struct rtmc_stats st;
    uint64_t last = UINT64_MAX;
    for (int i = 0; i < 100; i++) {    /* up to 5 s */
        rtmc_get_stats(e->f.c, &st);
        if (st.ahead == last)
            return last;
        last = st.ahead;
        nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
    }
    return last;
}

/* ls -l anims/a00.rtm: the workers size the next WINDOW, no more. */
static void stops_at_window(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount_with(e, 2);
    char names[NANIMS][64];
    uint64_t inos[NANIMS];
    uint64_t dir = list_anims(t, names, inos);
    struct rtm_tree_entry a;
    assert_int_equal(rtm_tree_lookup(t, dir, names[0], &a), 0);
    assert_true(walk(t, a.ino, 0) > 10);
    assert_int_equal(ahead_settled(e), WINDOW);
}

/* -o ahead=0: the same walk, nothing sized ahead. */
static void no_threads_none_ahead(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount_with(e, 0);
    assert_true(walk(t, anims_ino(t), 1) > NANIMS * 10);
    struct rtmc_stats st;
    rtmc_get_stats(e->f.c, &st);
    assert_int_equal(st.ahead, 0);
    assert_int_equal(st.sizings, NANIMS);
}

/* A BMTR file whose head reads and whose full parse fails: its arrays,
 * LZO-compressed, overwritten past the head (checked with the parsers). */
static void write_damaged(struct env *e, const char *name, uint32_t seed)
{
    struct sample_opts o = { 6, 12, seed, 0 };
    struct rtm_buf b;
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    uint64_t need;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &b), 0);
    memset(b.p + b.len / 2, 0xA5, b.len / 4);
    struct rtm_parse_opts po = { .skel = e->f.skel };
    assert_int_equal(rtm_parse_head((uint8_t *)b.p, b.len, b.len, &po, &a, &need, &err), 0);
    rtm_free(a);
    assert_int_not_equal(rtm_parse((uint8_t *)b.p, b.len, e->f.skel, &a, &err), 0);
    tree_fixture_write(&e->f, name, b.p, b.len);
    rtm_buf_free(&b);
}

/* Files of folder ino whose lookup failed with EIO, or with ENOENT once
 * their animation's folder turned to error.txt alone (the rest are
 * checked: size equals the bytes read). */
static size_t walk_eio(struct rtm_tree *t, uint64_t ino)
{
    char (*names)[64] = malloc(4096 * sizeof *names);
    uint64_t *inos = malloc(4096 * sizeof *inos);
    size_t eio = 0, n = list(t, ino, names, inos, 4096);
    for (size_t i = 0; i < n; i++) {
        struct rtm_tree_entry te;
        int rc = rtm_tree_lookup(t, ino, names[i], &te);
        if (rc == -EIO || rc == -ENOENT) {
            eio++;
            continue;
        }
        assert_int_equal(rc, 0);
        if (S_ISDIR(te.st.st_mode))
            eio += walk_eio(t, te.ino);
        else if ((uint64_t)te.st.st_size != read_all(t, te.ino))
            fail_msg("%s: size %lld, bytes read differ", names[i], (long long)te.st.st_size);
    }
    free(names);
    free(inos);
    return eio;
}

/* Damaged animations between good ones, their heads loaded by a listing
 * (ls of every animation's folder), then a walk that stats: the workers
 * meet each damaged one's failed full parse (rtmc_size_ahead on a head
 * entry, which crashed rtmfs), and leave it as a request would: its views
 * with numbers fail with EIO, and its folder then lists error.txt. */
static void damaged_sized_ahead(void **state)
{
    struct env *e = *state;
    char name[64];
    for (uint32_t i = 0; i < NANIMS; i += 2) {
        snprintf(name, sizeof name, "anims/a%02u.rtm", i);
        write_damaged(e, name, i);
    }
    struct rtm_tree *t = mount_with(e, 2);
    char names[NANIMS][64], inner[64][64];
    uint64_t inos[NANIMS], inner_inos[64];
    uint64_t dir = list_anims(t, names, inos);
    for (size_t i = 0; i < NANIMS; i++) {   /* the heads, as ls of each loads them */
        struct rtm_tree_entry a;
        assert_int_equal(rtm_tree_lookup(t, dir, names[i], &a), 0);
        assert_true(list(t, a.ino, inner, inner_inos, 64) > 5);
    }
    assert_true(walk_eio(t, dir) > 0);
    ahead_settled(e);
    for (size_t i = 0; i < NANIMS; i++) {
        struct rtm_tree_entry a, err;
        assert_int_equal(rtm_tree_lookup(t, dir, names[i], &a), 0);
        size_t n = list(t, a.ino, inner, inner_inos, 64);
        int broken = rtm_tree_lookup(t, a.ino, RTM_TREE_ERROR_NAME, &err) == 0;
        assert_int_equal(broken, i % 2 == 0);
        if (broken) {
            assert_int_equal(n, 1);
            assert_true(read_all(t, err.ino) > 0);
        }
    }
    struct rtmc_stats st;
    rtmc_get_stats(e->f.c, &st);
    assert_true(st.ahead > 0);
}

/* anims/ under $PBOPREFIX$ m, with a text config whose states play every
 * third animation, each at a speed of its own. */
static void write_configs(struct env *e)
{
    char text[4096];
    int at = snprintf(text, sizeof text, "class CfgMovesMaleSdr { class States {\n");
    for (unsigned i = 0; i < NANIMS; i += 3)
        at += snprintf(text + at, sizeof text - (size_t)at,
                       "  class S%u { file = \"\\m\\a%02u.rtm\"; speed = %u; };\n", i, i, i + 1);
    snprintf(text + at, sizeof text - (size_t)at, "}; };\n");
    tree_fixture_write(&e->f, "anims/$PBOPREFIX$", "m\n", 2);
    tree_fixture_write(&e->f, "anims/config.cpp", text, strlen(text));
}

/* Text configs: the table is not remembered, so its lines come at their
 * first need, after the skeleton step built it without them.  Two
 * walkers stat and read everything while the workers size ahead: their
 * timed views (preview.svg, anim.bvh) and states.txt ask for the lines
 * at once, and every size still equals the bytes read. */
static void configs_while_ahead(void **state)
{
    struct env *e = *state;
    assert_non_null(e->skels = rtm_skelreg_new());
    write_configs(e);
    struct rtm_tree *t = mount_with(e, 2);
    void *files[2];
    walk_twice_at_once(t, files);
    assert_int_equal((size_t)files[0], (size_t)files[1]);
    tree_assert_holds(t, "anims/a03.rtm/states.txt", "\nCfgMovesMaleSdr/States/S3 speed=4 ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(sizes_exact_while_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(grep_sizes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(stops_at_window, setup, teardown),
        cmocka_unit_test_setup_teardown(no_threads_none_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(damaged_sized_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(configs_while_ahead, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
