/* pbo_int.h - shared by pbo.c and pbo_names.c only.  pbo.c reads the
 * table's entries; pbo_names.c, above it, gives each its name and ends
 * pbo_read_table() (one way between the two files). */
#ifndef RTM_PBO_INT_H
#define RTM_PBO_INT_H

#include "pbo.h"

struct pbo_index {
    const char *path;
    uint32_t entry;
    uint32_t len : 31;  /* of path */
    uint32_t renamed : 1;       /* its path is a new name (pbo_names.c) */
};

/* ASCII case-insensitive order of two paths. */
int pbo_path_cmp(const char *a, const char *b);
/* (Re)builds p->by_path from the entries' paths: 0, or -1 out of memory. */
int pbo_build_index(struct pbo *p);
/* The first entry below index position k's path as a folder, in index
 * order, or -1: what pbo_each_below(p, that path) meets first. */
long pbo_index_first_below(const struct pbo *p, size_t k);
/* The table's entries as stored, placed in the file (pbo_read_table()
 * less the naming and the trailer): 0 with *out, or -1 with err. */
int pbo_read_entries(const uint8_t *head, size_t len, uint64_t file_size,
                     struct pbo **out, struct rtm_error *err);

#endif
