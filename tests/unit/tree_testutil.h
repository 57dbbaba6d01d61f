/* tree_testutil.h - what the tests of the tree layer share: a lookup of a
 * whole path the way the kernel does it, and removing a test's SOURCE. */
#ifndef RTM_TREE_TESTUTIL_H
#define RTM_TREE_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "tree.h"

/* Looks path up one name at a time from the root, as the kernel does; the
 * last name's entry in *out (each lookup counted).  0 or -errno. */
static inline int tree_walk(struct rtm_tree *t, const char *path, struct rtm_tree_entry *out)
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

/* rm -rf dir: 0, or the shell's status. */
static inline int remove_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

#endif
