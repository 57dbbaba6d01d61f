/* store.h - a store of records the loader and the tree are given: what
 * stat and readdir need of each version of a source file, remembered
 * across mounts.  An interface only; rtmfs gives the SQLite index
 * (index/index.h: rtm_index_store), tests give a table in memory, and a
 * NULL store means none (rtmcat, -o noindex).
 *
 * A record is found by its key (struct rtm_store_key): the identity of one
 * version of a source file (device, inode, size, mtime and ctime in ns; for
 * an archive's entry also its offset and size in the archive), what the
 * record describes (kind: enum rtm_store_kind), and a rendering key the
 * caller builds from all that changes the views.  Its value is a blob the
 * caller encodes (loader/shape.h, the tree's states and prefixes).
 *
 * Contract, for every store:
 *  - A store may forget anything at any time: get answers "not known" for
 *    a key it never had, had dropped, or cannot read, and put and drop may
 *    be lost.  Callers treat every answer as a hint they can check or do
 *    without; a store never makes its user wrong or unavailable, and
 *    reports its own troubles itself.
 *  - get() returns 0 with a malloc'd copy of the value in *val (the caller
 *    frees it) and its length in *len, or -1 when not known.  put() and
 *    drop() copy what they need of the key and value before returning
 *    (they may only queue them): the caller keeps ownership of both.  A
 *    put replaces the key's record.
 *  - The key's render is NUL-terminated and borrowed for the call.
 *  - Functions are called from any thread at once (the tree's workers,
 *    the FUSE threads): a store is thread-safe.  The struct itself and ctx
 *    belong to whoever made the store, and stay valid while the loader or
 *    tree given it lives.  Fork rules are the store's own (index.h).
 *  - rtm_store_get/put/drop() accept a NULL store: "not known", nothing.
 */
#ifndef RTM_STORE_H
#define RTM_STORE_H

#include <stddef.h>
#include <stdint.h>

/* What a record describes (rtm_store_key.kind).  The numbers are kept in
 * users' index files: never change or reuse one. */
enum rtm_store_kind {
    RTM_STORE_SHAPE = 1,                /* an animation's shape (loader/shape.h) */
    RTM_STORE_TABLE = 2,                /* an archive's table (loader/shape.h) */
    RTM_STORE_TIMED = 3,                /* a timed view's size (rtm_loader_timed) */
    RTM_STORE_PREFIX = 0x58465047,      /* "GPFX": an archive's prefix (tree_gamepaths.c) */
    RTM_STORE_STATES = 0x53544154,      /* "STAT": a states table (tree_states_index.c) */
    RTM_STORE_TRAILER = 0x4C494154,     /* "TAIL": an archive's last bytes, its
                                           trailer (tree_kinds.c: pbo.txt) */
};

struct rtm_store_key {
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
    uint64_t entry_offset, entry_size;  /* an archive's entry; 0 0 for the file */
    uint32_t kind;                      /* enum rtm_store_kind */
    const char *render;                 /* NUL-terminated */
    uint64_t salt;                      /* what else the version stands for
                                           (fileid.h), 0: nothing; kept in
                                           the rendering key */
};

struct rtm_store {
    int (*get)(void *ctx, const struct rtm_store_key *k, void **val, size_t *len);
    void (*put)(void *ctx, const struct rtm_store_key *k, const void *val, size_t len);
    void (*drop)(void *ctx, const struct rtm_store_key *k);
    void *ctx;
};

/* Called (from any thread) with one line that says what went wrong or
 * what was forgotten; ctx is the caller's. */
typedef void (*rtm_store_log_fn)(void *ctx, const char *msg);

static inline int rtm_store_get(const struct rtm_store *s, const struct rtm_store_key *k,
                                void **val, size_t *len)
{
    return s ? s->get(s->ctx, k, val, len) : -1;
}

static inline void rtm_store_put(const struct rtm_store *s, const struct rtm_store_key *k,
                                 const void *val, size_t len)
{
    if (s)
        s->put(s->ctx, k, val, len);
}

static inline void rtm_store_drop(const struct rtm_store *s, const struct rtm_store_key *k)
{
    if (s)
        s->drop(s->ctx, k);
}

#endif
