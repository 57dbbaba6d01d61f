/* cache.h - a thread-safe LRU of what rtmfs reads from SOURCE: parsed
 * animations with their rendered views, archive tables, the decoded
 * content of compressed archive entries, and rapified configs' text.
 *
 * Contract:
 *  - Entries are keyed by their kind, a path and the identity of one
 *    version of the file on disk (struct rtm_fileid; for what comes from an
 *    archive, the archive's).  A rewritten
 *    file has a new identity, so bytes of two versions are never mixed; old
 *    versions simply age out or are dropped by rtmc_invalidate().
 *  - rtmc_get() loads on a miss by calling the loader given to rtmc_new().
 *    Concurrent gets of one missing key call the loader once; the others
 *    wait for its result.  A format error is a cached result (the handle
 *    then has no object and an error message); an I/O error (the loader's
 *    negative errno, e.g. -ESTALE when the file changed under it) is
 *    returned to every waiter and not cached.  The loader runs without the
 *    cache's lock and may itself get (and put) other entries.
 *  - Handles are reference counted: every successful get must be matched by
 *    one put.  A referenced entry is never freed or evicted, so the object,
 *    the error text and the view bytes stay valid until the put.  The cache
 *    owns everything the handles point to; callers never free them.
 *  - Bytes are accounted per entry (object estimate, rendered bytes);
 *    after each insert the least recently used unreferenced entries are
 *    freed until the total is within the budget.  A loader reserves what a
 *    load will allocate before allocating it (rtmc_reserve): room is made
 *    by evicting, or by waiting for other loads and readers to finish
 *    (however long a sizing or render in progress takes; else 10 s without
 *    a change, then -ENOMEM), and a load that could never fit is refused
 *    with a message saying what it needs.  Its reservation ends when its
 *    entry is inserted.  A cached view holds a reference on its animation
 *    entry, so views are evicted before the anim they were rendered from.
 *  - An anim is loaded as deep as it is asked for (enum rtmc_level): a
 *    shape (shape.h; the loader may take it from the persistent index),
 *    light, or full; an entry serves requests for its level or a
 *    shallower one.
 *  - rtmc_view_size() remembers each view's size in the anim entry, so a
 *    size stays known after the view's bytes were evicted.  Asked for a
 *    size it does not know:
 *    - on a shape or light entry, a view without numbers (rtmc_view_level
 *      not RTMC_FULL) is rendered alone, from it or its light entry; a
 *      view with numbers is sized on the version's full entry (loaded for
 *      that), as follows, and what that learns is kept in both;
 *    - on a full entry with no size known yet, only that view is rendered
 *      (rtmc_view_get: counted in renders, kept, so the read that follows
 *      is served from it): `rtmcat FILE VIEW` or a lookup and read of one
 *      file renders nothing else;
 *    - on a full entry with some size known (a second view of the version
 *      asked for, as a listing with attributes asks every one), every view
 *      of the version is sized at once (rtm_view_sizes: counted in
 *      sizings), keeping no bytes, and the sizes go to the store hook.
 *  - preview.svg and anim.bvh also depend on a timing (timing.h) when it
 *    is not the empty generation: rtmc_timed_view_* key their bytes and
 *    size by the timing's sentence, in one slot a view in the version's
 *    anim entry (the last timing asked: a new one lets the old bytes go),
 *    apart from the sizes above, which are the empty generation's; those
 *    are never checked against the index nor told to the store hook.
 *    With the empty generation (tm NULL or empty), or for any other view,
 *    they are the functions without timing.  A timed size not known is
 *    asked of the timed hook (rtmc_set_timed), else measured from the
 *    empty generation's size (rtm_view_timed_size; all the version's
 *    views are sized for it) unless no view of the version is sized yet,
 *    when the view is rendered, for the read that follows (on the
 *    version's full entry when the entry asked is a shape or light one);
 *    the hook is told, and it is kept in both entries.  A render
 *    whose size differs from the one the hook gave fails with -EIO once
 *    (the hook is told the right one), as a wrong indexed size does.
 *  - Containment: nothing here aborts, whatever the files hold, however
 *    they change, and whatever allocation fails.  A file's head can read
 *    where its full parse fails or counts otherwise; a size is then taken
 *    from the full entry only when it has the head's frames, bones and
 *    views, and is otherwise not known (-EIO).  A worker (rtmc_size_ahead)
 *    meets the same failures as a request and leaves the entry as a
 *    request would: its error kept, its sizes unknown.  Out of memory is
 *    -ENOMEM and never cached.
 *  - Sizes the index gave for a version (rtmc_loaded.indexed) are checked
 *    against every size computed for it.  The first difference kills the
 *    version's shape entries (what served the wrong size), tells the store
 *    hook, and fails the call that found it with -EIO, once.
 */
#ifndef RTM_CACHE_H
#define RTM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "fileid.h"
#include "rtm.h"
#include "views.h"

struct rtmc;
struct rtmc_entry;
struct rtmc_view;

struct pbo;

enum rtmc_kind {
    RTMC_ANIM,               /* a parsed animation (and its views) */
    RTMC_TABLE,              /* an archive's table */
    RTMC_DATA,               /* the content of an archive entry */
    RTMC_CONFIG,             /* a rapified config (a file or an archive
                                entry) as its text (config.h's
                                cfg_print_text), in data and len */
    RTMC_SKELETONS,          /* a model.cfg (a file or an archive entry) as
                                its classes' skeletons (skeleton_cfg.h's
                                rtm_skeleton_cfg_classes), in data and len */
};

/* An anim entry's depth (rtm.h: enum rtm_depth, one level each), deepest
 * first: an entry of a level serves it and every larger one. */
enum rtmc_level {
    RTMC_FULL,               /* parsed with matrices */
    RTMC_LIGHT,              /* parsed without (RTM_PARSE_NO_MATRICES) */
    RTMC_SHAPE,              /* names and counts only (shape.h): renders only
                                bones.txt */
};

struct rtmc_src {
    const char *path;        /* relative to SOURCE: a file, or ARCHIVE/ENTRY for
                                an archive's entry; the cache keeps a copy */
    struct rtm_fileid id;    /* of the file on disk (for an entry: the archive) */
    enum rtmc_level level;   /* RTMC_ANIM: the least deep entry wanted */
    enum rtmc_kind kind;
    size_t archive_len;      /* > 0: path[0, archive_len) is the archive; for
                                the loader, the cache does not look at it */
    int full_if_parsed;      /* RTMC_ANIM at RTMC_SHAPE: when the loader must
                                parse the file for it (no shape in the index),
                                it parses it full, as the caller will need the
                                matrices next (one parse, not two) */
};

/* What a loader hands over: the object of the kind asked for (anim, pbo, or
 * data with len; data is never NULL on success), which the cache then owns. */
struct rtmc_loaded {
    struct rtm_anim *anim;
    struct pbo *pbo;
    uint8_t *data;
    size_t len;
    int remembered;          /* the object came from the persistent index */
    uint64_t *indexed;       /* or NULL: the sizes the persistent index gave
                                for this version, rtm_view_count(anim) of them
                                (UINT64_MAX: not known); malloc'd */
};

/* The memory one load has reserved (see rtmc_reserve). */
struct rtmc_reservation;

/* Loads one version: returns 0 with the object in *out, or 0 with no object
 * and a one-line message in msg (a format error), or a negative errno. */
typedef int (*rtmc_load_fn)(void *ctx, const struct rtmc_src *src, struct rtmc_reservation *r,
                            struct rtmc_loaded *out, char *msg, size_t msglen);

/* Reserves bytes more for the load r before they are allocated, what for
 * (e.g. "to parse"; "" says nothing): 0; or -EFBIG when the load's
 * reservations could never fit in the budget, with msg saying so ("needs
 * 1.2 GiB to parse, more than cache_size 256.0 MiB"); or -ENOMEM when no
 * room was made while nothing changed for a few seconds (try again later). */
int rtmc_reserve(struct rtmc_reservation *r, uint64_t bytes, const char *what, char *msg,
                 size_t msglen);
/* Whether bytes more could ever be reserved for r: 0, or -EFBIG with msg
 * as rtmc_reserve gives it. */
int rtmc_would_fit(const struct rtmc_reservation *r, uint64_t bytes, const char *what,
                   char *msg, size_t msglen);

struct rtmc_stats {
    size_t bytes, budget, entries;
    uint64_t loads, renders, sizings, hits, evictions;
    uint64_t mismatches;     /* indexed sizes found wrong */
    uint64_t remembered;     /* loads the persistent index answered */
    uint64_t ahead;          /* versions rtmc_size_ahead sized */
    int working;             /* sizings and renders running now */
};

struct rtmc *rtmc_new(size_t budget, rtmc_load_fn load, void *ctx);
/* Told (with the loader's ctx, from the thread that found out, no lock
 * held) every size of a version once they are known, or with sizes NULL
 * that the sizes the index gave for it were wrong. */
typedef void (*rtmc_store_fn)(void *ctx, const struct rtmc_src *src, const struct rtm_anim *a,
                              const uint64_t *sizes);
void rtmc_set_store(struct rtmc *c, rtmc_store_fn store);
/* Asked (loader's ctx, no lock held) for the size of view v of src's
 * version under timing gen (a timing's sentence, timing.h) that the cache
 * does not know, with put 0: 0 and *size when it is remembered, else -1;
 * and told each such size once rendered, with put 1 (a persistent index
 * keeps them by generation: rtm_loader_timed). */
typedef int (*rtmc_timed_fn)(void *ctx, const struct rtmc_src *src, struct rtm_view v,
                             const char *gen, uint64_t *size, int put);
void rtmc_set_timed(struct rtmc *c, rtmc_timed_fn timed);
/* Called, with the cache's lock held, each time evictions have freed
 * `every` more bytes: what an evicted entry freed lies in pages shared with
 * live entries, which the allocator keeps until told (rtmfs: malloc_trim). */
typedef void (*rtmc_trim_fn)(void);
void rtmc_set_trim(struct rtmc *c, rtmc_trim_fn trim, size_t every);
/* How long rtmc_reserve waits for room while nothing changes and no
 * sizing or render runs (default 10 s): tests shorten it. */
void rtmc_set_reserve_wait(struct rtmc *c, unsigned ms);
/* Calls the trim hook now (no lock held): for a caller that freed much
 * of its own (a states table's configs, once read), between live blocks. */
void rtmc_trim(struct rtmc *c);
/* Drops least recently used unreferenced entries until bytes more fit
 * in the budget beside what it holds: room for memory the caller holds a
 * while (a states table's build: the configs it reads), which the cache
 * does not count after. */
void rtmc_make_room(struct rtmc *c, size_t bytes);
/* Frees every entry; no handle may be outstanding. */
void rtmc_free(struct rtmc *c);

int rtmc_get(struct rtmc *c, const struct rtmc_src *src, struct rtmc_entry **out);
void rtmc_put(struct rtmc *c, struct rtmc_entry *h);
/* The entry's object, or NULL when it did not load (or is of another kind). */
const struct rtm_anim *rtmc_anim(const struct rtmc_entry *h);
const struct pbo *rtmc_pbo(const struct rtmc_entry *h);
const uint8_t *rtmc_data(const struct rtmc_entry *h, size_t *len);
/* The load error message ("" when the object loaded). */
const char *rtmc_error(const struct rtmc_entry *h);

/* What an anim entry was loaded as (an entry serves its level and the
 * shallower ones; a request may be served by a deeper entry). */
enum rtmc_level rtmc_level(const struct rtmc_entry *h);

/* The least deep entry that renders view v: RTMC_FULL for the views with
 * numbers (rtm_view_needs_matrices), RTMC_SHAPE for bones.txt, RTMC_LIGHT
 * for the others.  The tree and the cache both ask this one rule. */
enum rtmc_level rtmc_view_level(struct rtm_view v);

/* Renders (or finds) view v of a parsed anim.  0, or -ENOMEM / -EINVAL. */
int rtmc_view_get(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                  struct rtmc_view **out);
/* -EINVAL from the view functions also when h is shallower than the view
 * needs (rtmc_view_level); -EIO once for a wrong indexed size. */
void rtmc_view_put(struct rtmc *c, struct rtmc_view *v);
const char *rtmc_view_data(const struct rtmc_view *v, size_t *len);
/* Size of view v in bytes (see the contract above). */
int rtmc_view_size(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v, uint64_t *size);
/* Sizes every view of h's version now, on its full entry (loaded for
 * that; counted in sizings and in ahead), unless they are known, and keeps
 * the sizes in h: what a walk that stats will ask next (tree_ahead.c).
 * One thread sizes a version at a time; another that asks meanwhile, here
 * or through rtmc_view_size, waits for its sizes.  0 or a negative errno
 * (-EIO: the version does not parse full, or the index's sizes differ). */
int rtmc_size_ahead(struct rtmc *c, struct rtmc_entry *h);
/* The same when it is known without parsing or rendering; else -EAGAIN. */
int rtmc_view_size_known(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                         uint64_t *size);

/* The same under timing tm (see the contract above; tm is the caller's). */
struct rtm_timing;
int rtmc_timed_view_get(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                        const struct rtm_timing *tm, struct rtmc_view **out);
int rtmc_timed_view_size(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                         const struct rtm_timing *tm, uint64_t *size);
/* Known: kept in h, or the timed hook's (rtmc_set_timed) record. */
int rtmc_timed_view_size_known(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                               const struct rtm_timing *tm, uint64_t *size);

/* Drops every version of path and of everything below it (path/...), views
 * included ("" drops everything); referenced entries leave the index at once and are freed by
 * their last put. */
void rtmc_invalidate(struct rtmc *c, const char *path);
/* Bytes the caller keeps outside the cache (rtmfs: its inode table) count
 * against the budget too, so the process as a whole stays within it. */
void rtmc_set_outside(struct rtmc *c, size_t bytes);
void rtmc_get_stats(struct rtmc *c, struct rtmc_stats *st);

#endif
