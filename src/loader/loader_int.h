/* loader_int.h - between the loader's reading (loader.c) and its policy
 * for the store (loader_store.c): reading calls the policy, never the
 * other way round.  Each function does nothing (or answers "not known")
 * without a store (l->store NULL) or for a version that cannot be trusted
 * to name one file (loader.h: blind devices); none fails the load.
 * Private to the loader layer. */
#ifndef RTM_LOADER_INT_H
#define RTM_LOADER_INT_H

#include "loader.h"

/* An archive's table from the store into out->pbo: 0, or -1 when the
 * store has none (a damaged record is dropped and said through l->log). */
int loader_recall_table(const struct rtm_loader *l, const struct rtmc_src *src,
                        struct rtmc_loaded *out);
/* Remembers table p of src from head, the bytes it was read from (its
 * first table_bytes at least), and its trailer when that was read. */
void loader_remember_table(const struct rtm_loader *l, const struct rtmc_src *src,
                           const struct pbo *p, const uint8_t *head);
/* What a load learnt of the store's shape record before it parsed: none
 * under key k (absent), so that remembering the parse asks no more. */
struct loader_shape_miss {
    int absent;
    struct rtm_store_key k;
};
/* A shape of src from the store into out, or the message of a file that
 * does not parse into msg: 0, or -1 when the store has neither (and then,
 * when the store was asked, miss says so). */
int loader_recall_shape(const struct rtm_loader *l, const struct rtmc_src *src,
                        struct rtmc_loaded *out, char *msg, size_t msglen,
                        struct loader_shape_miss *miss);
/* After a parse of src into a: remembers its shape without sizes, or
 * (when the store has its shape) gives its sizes to check in
 * out->indexed (malloc'd; the cache takes it).  miss: what the load's
 * recall found, or NULL (the store is asked). */
void loader_remember_shape(const struct rtm_loader *l, const struct rtmc_src *src,
                           const struct rtm_anim *a, struct rtmc_loaded *out,
                           const struct loader_shape_miss *miss);
/* Remembers that src does not parse, and why (err; not its path, which a
 * rename changes). */
void loader_remember_error(const struct rtm_loader *l, const struct rtmc_src *src,
                           const struct rtm_error *err);

struct pbo;
/* Before entry i of archive p (open as fd) is read, its head (head_len
 * content bytes) or whole: when its first page is not cached, the same
 * reads of the next animations in p's table are started too, so that a
 * walk through the archive waits once a window (prefetch.c).  A hint
 * only: nothing read depends on it. */
void loader_prefetch(int fd, const struct pbo *p, size_t i, int whole, size_t head_len);

/* The entry name (a path in the archive, any case) of the archive src's
 * entry is in: 0 with the archive's table held in *table (put it) and the
 * entry's index in *i (-1: none, or a table that does not read), or a
 * negative errno.  What a file beside an entry is found by (model.cfg,
 * bvh.map). */
int rtm_archive_beside(const struct rtm_loader *l, const struct rtmc_src *src,
                       const char *name, struct rtmc_entry **table, long *i);

/* What a parse of src reads beside it (beside.c): the files its bytes name
 * (a .gltf's buffers), from its folder or, for an entry, from its archive
 * (open as fd); reserved in r before they are read. */
struct rtm_beside {
    const struct rtm_loader *l;
    const struct rtmc_src *src;
    int fd;
    struct rtmc_reservation *r;
};
/* rtm_parse_opts.read_beside; ctx a struct rtm_beside. */
int rtm_loader_read_beside(void *ctx, const char *name, uint8_t **data, size_t *len,
                           struct rtm_error *err);

#endif
