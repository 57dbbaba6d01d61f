/* tree_mount_testutil.h - the mount test_tree and test_tree_changes look
 * at, without FUSE: a SOURCE (the fixture of tree_testutil.h) holding
 * walk.rtm, sub/run.rtm (two plain animations of the same size),
 * broken.rtm and readme.txt, a 64 MiB cache and a tree whose watch answers
 * what the test says; and what both ask of it: a path looked up as the
 * kernel does, a file read whole in small pieces, a view rendered straight
 * from an animation's bytes, listings checked against lookups, and a
 * folder's names. */
#ifndef RTM_TREE_MOUNT_TESTUTIL_H
#define RTM_TREE_MOUNT_TESTUTIL_H

#include "testutil.h"
#include "tree_testutil.h"

struct env {
    struct tree_fixture f;        /* SOURCE, loader, cache and tree (tree_testutil.h) */
    struct rtm_buf a, b;          /* two plain animations of the same size */
    int watch_rc;                 /* what the watch callback answers */
};

/* Writes b as file name (a path) in SOURCE. */
void write_file(struct env *e, const char *name, const struct rtm_buf *b);

/* A new tree over e's folder with cfg's choices (srcfd, cache and watch
 * are filled in). */
void new_tree_with(struct env *e, struct rtm_tree_config cfg);

void new_tree(struct env *e, rtm_ino_hash_fn hash, const char *hidden);

/* Each test's state (cmocka setup and teardown): the SOURCE above, a
 * 64 MiB cache and a tree over them. */
int setup(void **state);

int teardown(void **state);

/* A path looked up as the kernel does (tree_testutil.h). */
int walk(struct env *e, const char *path, struct rtm_tree_entry *out);

uint64_t ino_of(struct env *e, const char *path);

/* The whole content of file ino, read in small pieces. */
char *read_all(struct env *e, uint64_t ino, size_t *len);

char *render_view(const struct rtm_buf *src, const char *view, size_t *len);

/* Every name a listing shows is found by lookup with the same number and
 * type, and every lookup's number is the listing's. */
void check_listing(struct env *e, const char *dir, size_t want_entries);

/* The names in folder ino's listing, one line each. */
char *names(struct env *e, uint64_t ino);

void expect_names(struct env *e, const char *dir, const char *want);

#endif
