/* test_tree_changes.c - what the mount shows when SOURCE changes, without
 * FUSE (the SOURCE of tree_mount_testutil.h): a changed file gets new
 * numbers and the kernel is told what to forget; a same-size rewrite with
 * its mtime put back is a new version (ctime tells); lost changes forget
 * everything; entry timeouts follow watching and the devices inotify is
 * blind on; one .rtm file as SOURCE, gone and back; and readers, a writer
 * and change reports at once (also under ThreadSanitizer: make tsan).
 * What an unchanging mount shows: test_tree. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/time.h>
#include <unistd.h>

#include "testutil.h"
#include "tree_mount_testutil.h"

struct record {
    char log[4096];
    size_t n;
};

/* Appends a line to the record while it fits (a full record stops). */
static void rec_line(struct record *r, const char *line)
{
    size_t n = strlen(line);
    if (r->n + n < sizeof r->log) {
        memcpy(r->log + r->n, line, n + 1);
        r->n += n;
    }
}

static void rec_entry(void *ctx, uint64_t parent, const char *name)
{
    char line[300];
    snprintf(line, sizeof line, "entry %llu %.200s\n", (unsigned long long)parent, name);
    rec_line(ctx, line);
}

static void rec_inode(void *ctx, uint64_t ino)
{
    char line[64];
    snprintf(line, sizeof line, "inode %llu\n", (unsigned long long)ino);
    rec_line(ctx, line);
}

static void changes_give_new_numbers(void **state)
{
    struct env *e = *state;
    uint64_t view = ino_of(e, "walk.rtm/header.txt");
    uint64_t dir = ino_of(e, "walk.rtm");
    size_t len;
    char *old = read_all(e, view, &len);
    write_file(e, "walk.rtm", &e->b);
    struct record r = { "", 0 };
    struct rtm_tree_notify n = { &r, rec_entry, rec_inode };
    rtm_tree_changed(e->f.t, "", "walk.rtm", &n);
    assert_string_equal(r.log, "entry 1 walk.rtm\ninode 1\n");
    /* the old number still reads its old version, or fails */
    char buf[4096];
    ssize_t got = rtm_tree_read(e->f.t, view, buf, sizeof buf, 0);
    assert_true(got == -ESTALE || (got == (ssize_t)len && memcmp(buf, old, len) == 0));
    assert_true(ino_of(e, "walk.rtm") != dir);
    uint64_t now = ino_of(e, "walk.rtm/header.txt");
    assert_true(now != view);
    size_t want_len;
    char *want = render_view(&e->b, "header.txt", &want_len);
    char *fresh = read_all(e, now, &len);
    assert_string_equal(fresh, want);
    free(old);
    free(want);
    free(fresh);
}

/* A same-size rewrite whose mtime is put back (cp -p, touch -r) is a new
 * version: ctime tells. */
static void ctime_tells_a_restored_mtime(void **state)
{
    struct env *e = *state;
    uint64_t view = ino_of(e, "walk.rtm/bones.txt");
    struct stat before;
    assert_int_equal(fstatat(e->f.fd, "walk.rtm", &before, 0), 0);
    usleep(20000);                                  /* a ctime tick apart */
    write_file(e, "walk.rtm", &e->b);
    struct timespec times[2] = { before.st_atim, before.st_mtim };
    assert_int_equal(utimensat(e->f.fd, "walk.rtm", times, 0), 0);
    struct stat after;
    assert_int_equal(fstatat(e->f.fd, "walk.rtm", &after, 0), 0);
    assert_int_equal(after.st_size, before.st_size);
    assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    assert_true(ino_of(e, "walk.rtm/bones.txt") != view);
}

static void lost_changes_forget_everything(void **state)
{
    struct env *e = *state;
    uint64_t anim = ino_of(e, "walk.rtm");
    uint64_t view = ino_of(e, "walk.rtm/header.txt");
    uint64_t sub = ino_of(e, "sub");
    assert_int_equal(rtm_ino_head(view), anim);
    struct rtmc_stats st;
    rtmc_get_stats(e->f.c, &st);
    assert_true(st.entries > 0);
    struct record r = { "", 0 };
    struct rtm_tree_notify n = { &r, rec_entry, rec_inode };
    rtm_tree_changed_all(e->f.t, &n);
    rtmc_get_stats(e->f.c, &st);
    assert_int_equal(st.entries, 0);
    char want[64];
    /* the views are of the animation's version: its entry and inode go */
    snprintf(want, sizeof want, "inode %llu\n", (unsigned long long)anim);
    assert_non_null(strstr(r.log, want));
    snprintf(want, sizeof want, "entry 1 sub\ninode %llu\n", (unsigned long long)sub);
    assert_non_null(strstr(r.log, want));
    assert_non_null(strstr(r.log, "entry 1 walk.rtm\n"));
    assert_non_null(strstr(r.log, "inode 1\n"));
}

static void timeouts_follow_watching(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, "sub/run.rtm", &te), 0);
    assert_true(te.timeout == RTM_TREE_TIMEOUT_WATCHED);
    e->watch_rc = -1;                               /* out of watches */
    new_tree(e, NULL, NULL);
    assert_int_equal(walk(e, "sub/run.rtm", &te), 0);
    assert_true(te.timeout == RTM_TREE_TIMEOUT_UNWATCHED);
    assert_int_equal(rtm_tree_getattr(e->f.t, te.ino, &te), 0);
    assert_true(te.timeout == RTM_TREE_TIMEOUT_UNWATCHED);
}

/* A device inotify is blind on (fstype.h) gets short timeouts for what is
 * resolved against SOURCE on it (folders, animations' and archives' own
 * entries), whether a watch failed or not; a seen one long ones; -o
 * watch=poll short ones and -o watch=inotify long ones everywhere.  What
 * lies inside a version keeps long ones. */
static void timeouts_follow_blind_devices(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry te;
    struct stat st;
    assert_int_equal(fstat(e->f.fd, &st), 0);
    const struct { enum rtm_watch_mode mode; int blind; double want; } cases[] = {
        { RTM_WATCH_AUTO, 1, RTM_TREE_TIMEOUT_UNWATCHED },
        { RTM_WATCH_AUTO, 0, RTM_TREE_TIMEOUT_WATCHED },
        { RTM_WATCH_POLL, 0, RTM_TREE_TIMEOUT_UNWATCHED },
        { RTM_WATCH_INOTIFY, 1, RTM_TREE_TIMEOUT_WATCHED },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rtm_fsmap *m = rtm_fsmap_new(cases[i].mode, e->f.dir);
        assert_int_equal(rtm_fsmap_set(m, (uint64_t)st.st_dev, cases[i].blind), 0);
        new_tree_with(e, (struct rtm_tree_config){ .fsmap = m });
        assert_int_equal(walk(e, "sub/run.rtm", &te), 0);
        assert_true(te.timeout == cases[i].want);
        assert_int_equal(walk(e, "sub", &te), 0);
        assert_true(te.timeout == cases[i].want);
        assert_int_equal(rtm_tree_getattr(e->f.t, te.ino, &te), 0);
        assert_true(te.timeout == cases[i].want);
        /* a view is of its animation's version: its entry never changes */
        assert_int_equal(walk(e, "sub/run.rtm/header.txt", &te), 0);
        assert_true(te.timeout == RTM_TREE_TIMEOUT_WATCHED);
        rtm_tree_free(e->f.t);
        e->f.t = NULL;
        rtm_fsmap_free(m);
    }
}

/* SOURCE one .rtm file: the root is its folder; while the file is gone the
 * root holds only error.txt, and changes to other files mean nothing. */
static void one_file_as_source(void **state)
{
    struct env *e = *state;
    new_tree_with(e, (struct rtm_tree_config){ .file = "walk.rtm" });
    struct rtm_tree_entry te;
    assert_int_equal(rtm_tree_getattr(e->f.t, RTM_INO_ROOT, &te), 0);
    assert_true(S_ISDIR(te.st.st_mode));
    check_listing(e, "", 14);               /* 11 views, states.txt, 2 folders */
    check_listing(e, "frames", 6);
    size_t want_len, got_len;
    char *want = render_view(&e->a, "header.txt", &want_len);
    char *got = read_all(e, ino_of(e, "header.txt"), &got_len);
    assert_string_equal(got, want);
    free(want);
    free(got);
    assert_int_equal(walk(e, "sub", &te), -ENOENT);          /* nothing else shows */

    struct record r = { "", 0 };
    struct rtm_tree_notify n = { &r, rec_entry, rec_inode };
    rtm_tree_changed(e->f.t, "", "readme.txt", &n);
    rtm_tree_changed(e->f.t, "sub", "run.rtm", &n);
    assert_string_equal(r.log, "");
    assert_int_equal(renameat(e->f.fd, "walk.rtm", e->f.fd, "walk.old"), 0);
    rtm_tree_changed(e->f.t, "", "walk.rtm", &n);
    assert_non_null(strstr(r.log, "inode 1\n"));
    expect_names(e, "", "error.txt\n");
    assert_int_equal(walk(e, "header.txt", &te), -ENOENT);
    assert_int_equal(walk(e, "error.txt", &te), 0);
    char *msg = read_all(e, te.ino, &got_len);
    assert_int_equal(te.st.st_size, got_len);
    assert_string_equal(msg, "walk.rtm: No such file or directory; the mount shows it "
                             "again when it is back\n");
    free(msg);
    assert_int_equal(mkdirat(e->f.fd, "walk.rtm", 0755), 0);    /* a folder now */
    msg = read_all(e, te.ino, &got_len);
    assert_non_null(strstr(msg, "walk.rtm: no longer a file"));
    free(msg);
    assert_int_equal(unlinkat(e->f.fd, "walk.rtm", AT_REMOVEDIR), 0);
    assert_int_equal(renameat(e->f.fd, "walk.old", e->f.fd, "walk.rtm"), 0);
    check_listing(e, "", 14);               /* 11 views, states.txt, 2 folders */
}

struct reader {
    struct env *e;
    int stop;
};

static void *read_views(void *arg)
{
    struct reader *r = arg;
    static const char *const paths[] = { "walk.rtm/header.txt", "walk.rtm/frames/002.csv",
                                         "sub/run.rtm/plain.rtm", "walk.rtm/bones.txt" };
    char buf[4096];
    for (int i = 0; i < 300; i++) {
        struct rtm_tree_entry te;
        const char *p = paths[i % 4];
        if (walk(r->e, p, &te) == 0) {
            rtm_tree_read(r->e->f.t, te.ino, buf, sizeof buf, 0);
            rtm_tree_getattr(r->e->f.t, te.ino, &te);
        }
        struct rtm_dirlist *d;
        if (rtm_tree_listing(r->e->f.t, RTM_INO_ROOT, 0, &d) == 0)
            rtm_tree_listing_put(r->e->f.t, d);
    }
    return NULL;
}

static void *rewrite(void *arg)
{
    struct reader *r = arg;
    struct record rec = { "", 0 };
    struct rtm_tree_notify n = { &rec, rec_entry, rec_inode };
    for (int i = 0; i < 100; i++) {
        rec.n = 0;
        rec.log[0] = 0;
        write_file(r->e, "walk.rtm", i % 2 ? &r->e->a : &r->e->b);
        rtm_tree_changed(r->e->f.t, "", "walk.rtm", &n);
        if (i % 25 == 0) {
            rec.n = 0;
            rec.log[0] = 0;
            rtm_tree_changed_all(r->e->f.t, &n);
        }
    }
    return NULL;
}

/* Readers, a writer and change reports at once: no crash, no race (TSan). */
static void concurrent_use(void **state)
{
    struct env *e = *state;
    struct reader r = { e, 0 };
    pthread_t th[4];
    for (int i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, read_views, &r);
    pthread_create(&th[3], NULL, rewrite, &r);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    size_t len;
    char *h = read_all(e, ino_of(e, "walk.rtm/header.txt"), &len);
    assert_true(len > 0);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(changes_give_new_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(ctime_tells_a_restored_mtime, setup, teardown),
        cmocka_unit_test_setup_teardown(lost_changes_forget_everything, setup, teardown),
        cmocka_unit_test_setup_teardown(timeouts_follow_watching, setup, teardown),
        cmocka_unit_test_setup_teardown(timeouts_follow_blind_devices, setup, teardown),
        cmocka_unit_test_setup_teardown(one_file_as_source, setup, teardown),
        cmocka_unit_test_setup_teardown(concurrent_use, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
