/* pbo_int.h - shared by pbo.c and pbo_names.c only. */
#ifndef RTM_PBO_INT_H
#define RTM_PBO_INT_H

#include "pbo.h"

struct pbo_index {
    const char *path;
    uint32_t entry;
    int renamed;        /* its path is a new name (pbo_names.c) */
};

/* ASCII case-insensitive order of two paths. */
int pbo_path_cmp(const char *a, const char *b);
/* (Re)builds p->by_path from the entries' paths: 0, or -1 out of memory. */
int pbo_build_index(struct pbo *p);
/* Renames entries whose path collides or cannot be shown (rtm(5) PBO
 * paths) and builds the index: 0, or -1 out of memory. */
int pbo_name_entries(struct pbo *p);

#endif
