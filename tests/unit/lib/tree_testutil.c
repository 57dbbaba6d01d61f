/* tree_testutil.c - what tree_testutil.h declares, compiled once into librtmtest.a. */
#include "tree_testutil.h"


/* Makes SOURCE, /tmp/rtmfs-TAG.XXXXXX, empty and open; nothing mounted. */
void tree_fixture_open(struct tree_fixture *f, const char *tag)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/rtmfs-%s.XXXXXX", tag);
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->index, sizeof f->index, "%s.index/index.sqlite", f->dir);
    f->fd = open(f->dir, O_RDONLY | O_DIRECTORY);
    assert_true(f->fd >= 0);
}

/* Writes n bytes as file name (a path) in folder dfd. */
void put_file(int dfd, const char *name, const void *p, size_t n)
{
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    close(fd);
}

/* Writes n bytes as file name (a path) in SOURCE. */
void tree_fixture_write(struct tree_fixture *f, const char *name, const void *p,
                        size_t n)
{
    put_file(f->fd, name, p, n);
}

/* A loader over SOURCE (f->skel, f->ix, exact numbers) and a cache of
 * budget bytes that loads through it.  The test may set more of f->l (its
 * rendering key, log, fsmap, digits) before anything is loaded. */
void tree_fixture_mount(struct tree_fixture *f, size_t budget)
{
    f->store = rtm_index_store(f->ix);
    f->l = (struct rtm_loader){ .srcfd = f->fd, .skel = f->skel, .store = f->store,
                                .digits = RTM_DIGITS_EXACT, .model_cfg = 1 };
    f->c = f->l.cache = rtmc_new(budget, rtm_loader_load, &f->l);
    assert_non_null(f->c);
}

/* A tree over SOURCE and the cache with cfg's choices (srcfd and cache
 * are filled in), in place of the one there: that one is freed and the
 * cache emptied first, as a new mount would find it.  Returns f->t. */
struct rtm_tree *tree_fixture_tree(struct tree_fixture *f,
                                   struct rtm_tree_config cfg)
{
    rtm_tree_free(f->t);
    rtmc_invalidate(f->c, "");
    cfg.srcfd = f->fd;
    cfg.cache = f->c;
    f->t = rtm_tree_new(&cfg);
    assert_non_null(f->t);
    return f->t;
}

/* Frees the tree, the cache, the index (writing what it has queued) and
 * the skeleton; SOURCE stays. */
void tree_fixture_unmount(struct tree_fixture *f)
{
    rtm_tree_free(f->t);
    rtmc_free(f->c);
    rtm_index_close(f->ix);
    rtm_skeleton_free(f->skel);
    f->t = NULL;
    f->c = NULL;
    f->ix = NULL;
    f->store = NULL;
    f->skel = NULL;
}

/* text, rapified with the project's writer, into b (initialised here):
 * a SOURCE's rapified config. */
void rapify_text(const char *text, struct rtm_buf *b)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(cfg_parse_text(text, strlen(text), "t.cpp", NULL, &c, &err), 0);
    rtm_buf_init(b);
    assert_int_equal(rap_write(c, b), 0);
    cfg_free(c);
}

/* rm -rf dir: 0, or the shell's status. */
static int remove_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

/* Unmounts, and removes SOURCE and the index beside it. */
void tree_fixture_close(struct tree_fixture *f)
{
    char index_dir[96];
    tree_fixture_unmount(f);
    close(f->fd);
    assert_int_equal(remove_tree(f->dir), 0);
    snprintf(index_dir, sizeof index_dir, "%s.index", f->dir);
    assert_int_equal(remove_tree(index_dir), 0);
}

/* A log that says nothing (rtm_index_log_fn), for the index and loader. */
void tree_quiet(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

/* Looks path up one name at a time from the root, as the kernel does; the
 * last name's entry in *out (each lookup counted).  0 or -errno. */
char *tree_cat(struct rtm_tree *t, const char *path, struct rtm_tree_entry *te, ssize_t *n)
{
    enum { MOST = 1 << 16 };
    char *out = calloc(1, MOST);
    assert_non_null(out);
    assert_int_equal(tree_walk(t, path, te), 0);
    *n = rtm_tree_read(t, te->ino, out, MOST - 1, 0);
    return out;
}

void tree_assert_holds(struct rtm_tree *t, const char *path, const char *want)
{
    struct rtm_tree_entry te;
    ssize_t n;
    char *text = tree_cat(t, path, &te, &n);
    assert_true(n > 0);
    assert_non_null(strstr(text, want));
    free(text);
}

int tree_walk(struct rtm_tree *t, const char *path, struct rtm_tree_entry *out)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", path);
    uint64_t ino = RTM_INO_ROOT;
    out->ino = RTM_INO_ROOT;
    for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        int rc = rtm_tree_lookup(t, ino, c, out);
        if (rc)
            return rc;
        ino = out->ino;
    }
    return 0;
}
