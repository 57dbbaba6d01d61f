/* tree_testutil.h - what the tests that read a SOURCE share: one fixture,
 * a test's SOURCE and a mount of it without FUSE, wired as rtmfs wires
 * one (a fresh folder under /tmp, a loader over it, a cache that loads
 * through the loader, a tree over both); a lookup of a whole path the way
 * the kernel does it; a rapified config for SOURCE; and removing a folder.
 *
 * The fixture owns everything in it.  The SOURCE lives from
 * tree_fixture_open() to tree_fixture_close(); a mount of it (the loader,
 * the cache, the tree, and the skeleton and index the test gave the
 * loader) from tree_fixture_mount() to tree_fixture_unmount(), so that a
 * test can mount the same SOURCE again, as a second rtmfs would (one that
 * reads the index the first one wrote).  A test that needs only a loader
 * and a cache (test_loader, test_light_read) makes no tree. */
#ifndef RTM_TREE_TESTUTIL_H
#define RTM_TREE_TESTUTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cache.h"
#include "config.h"
#include "index.h"
#include "loader.h"
#include "rap_write.h"
#include "tree.h"

struct tree_fixture {
    char dir[64];               /* SOURCE: /tmp/rtmfs-TAG.XXXXXX */
    char index[96];             /* an index beside SOURCE, not in it:
                                   DIR.index/index.sqlite (rtm_index_open makes
                                   the folder) */
    int fd;                     /* SOURCE, open O_DIRECTORY */
    struct rtm_skeleton *skel;  /* the loader's (NULL: none); freed at unmount */
    struct rtm_index *ix;       /* the loader's (NULL: none); closed at unmount */
    const struct rtm_store *store;  /* ix's store (rtm_index_store), set at mount */
    struct rtm_loader l;
    struct rtmc *c;             /* NULL while not mounted */
    struct rtm_tree *t;         /* NULL until tree_fixture_tree() */
};

/* Makes SOURCE, /tmp/rtmfs-TAG.XXXXXX, empty and open; nothing mounted. */
void tree_fixture_open(struct tree_fixture *f, const char *tag);

/* Writes n bytes as file name (a path) in folder dfd. */
void put_file(int dfd, const char *name, const void *p, size_t n);

/* Writes n bytes as file name (a path) in SOURCE. */
void tree_fixture_write(struct tree_fixture *f, const char *name, const void *p,
                        size_t n);

/* A loader over SOURCE (f->skel, f->ix, exact numbers) and a cache of
 * budget bytes that loads through it.  The test may set more of f->l (its
 * rendering key, log, fsmap, digits) before anything is loaded. */
void tree_fixture_mount(struct tree_fixture *f, size_t budget);

/* A tree over SOURCE and the cache with cfg's choices (srcfd and cache
 * are filled in), in place of the one there: that one is freed and the
 * cache emptied first, as a new mount would find it.  Returns f->t. */
struct rtm_tree *tree_fixture_tree(struct tree_fixture *f,
                                   struct rtm_tree_config cfg);

/* Frees the tree, the cache, the index (writing what it has queued) and
 * the skeleton; SOURCE stays. */
void tree_fixture_unmount(struct tree_fixture *f);

/* text, rapified with the project's writer, into b (initialised here):
 * a SOURCE's rapified config. */
void rapify_text(const char *text, struct rtm_buf *b);

/* Unmounts, and removes SOURCE and the index beside it. */
void tree_fixture_close(struct tree_fixture *f);

/* A log that says nothing (rtm_index_log_fn), for the index and loader. */
void tree_quiet(void *ctx, const char *msg);

/* Looks path up one name at a time from the root, as the kernel does; the
 * last name's entry in *out (each lookup counted).  0 or -errno. */
int tree_walk(struct rtm_tree *t, const char *path, struct rtm_tree_entry *out);

/* The bytes of path, looked up by tree_walk (it must be there) and read
 * from its start, at most 64 KiB: malloc'd and NUL-terminated (free them);
 * its entry in *te and the read's result in *n. */
char *tree_cat(struct rtm_tree *t, const char *path, struct rtm_tree_entry *te, ssize_t *n);
/* Asserts that path reads (tree_cat) as bytes holding want. */
void tree_assert_holds(struct rtm_tree *t, const char *path, const char *want);

#endif
