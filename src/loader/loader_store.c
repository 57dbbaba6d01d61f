/* loader_store.c - the loader's policy for its store (store.h; loader.h's
 * contract): which records of a version it recalls (an archive's table,
 * an animation's shape, a timed view's size), which it remembers, and
 * which it forgets as damaged or wrong.  The records' bytes are shape.h's.
 * loader.c reads files and calls the functions of loader_int.h; nothing
 * here reads a file but an archive's table bytes to remember them. */
#include "loader_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbo.h"
#include "shape.h"
#include "timing.h"
#include "views.h"

/* ---- animations' shapes ---- */

static void say(const struct rtm_loader *l, const char *path, const char *what)
{
    char line[PATH_MAX + 160];
    snprintf(line, sizeof line, "index: %s: %s", path, what);
    if (l->log)
        l->log(l->log_ctx, line);
}

/* Whether src's version names one file's one version across mounts: not
 * on a blind device where a time is 0 (see loader.h). */
static int version_trusted(const struct rtm_loader *l, const struct rtmc_src *src)
{
    return !l->fsmap || (src->id.mtime_ns && src->id.ctime_ns) ||
           rtm_fsmap_blind(l->fsmap, src->id.dev) == 0;
}

/* The key of src's version for kind; an archive's entry is found in its
 * table (which this gets from the cache).  -1 when it is not there, or
 * when the version cannot be trusted to name one file. */
static int index_key(const struct rtm_loader *l, const struct rtmc_src *src, uint32_t kind,
                     struct rtm_store_key *k)
{
    if (!version_trusted(l, src))
        return -1;
    *k = (struct rtm_store_key){ .dev = src->id.dev, .ino = src->id.ino, .size = src->id.size,
                                 .mtime_ns = src->id.mtime_ns, .ctime_ns = src->id.ctime_ns,
                                 .kind = kind, .render = kind == RTM_STORE_TABLE ? "" : l->render,
                                 .salt = src->id.salt ^ src->id.skel * 0xd6e8feb86659fd93ull ^
                                         src->id.clip * 0x9e3779b97f4a7c15ull };
    if (!src->archive_len)
        return 0;
    char archive[PATH_MAX];
    if (src->archive_len >= sizeof archive)
        return -1;
    memcpy(archive, src->path, src->archive_len);
    archive[src->archive_len] = 0;
    struct rtmc_src ts = { .path = archive, .id = rtm_fileid_file(src->id), .kind = RTMC_TABLE };
    struct rtmc_entry *t;
    if (rtmc_get(l->cache, &ts, &t))
        return -1;
    const struct pbo *p = rtmc_pbo(t);
    long i = p ? pbo_find(p, src->path + src->archive_len + 1) : -1;
    if (i >= 0) {
        k->entry_offset = p->entries[i].offset;
        k->entry_size = p->entries[i].data_size;
    }
    rtmc_put(l->cache, t);
    return i >= 0 ? 0 : -1;
}

/* The index's record of src (malloc'd), or NULL. */
static void *recall(const struct rtm_loader *l, const struct rtmc_src *src, uint32_t kind,
                    struct rtm_store_key *k, size_t *len)
{
    void *val = NULL;
    if (!l->store || index_key(l, src, kind, k) || rtm_store_get(l->store, k, &val, len))
        return NULL;
    return val;
}

/* A shape of src from the index into out, or the message of a file that
 * does not parse into msg: 0, or -1 when it has neither. */
int loader_recall_shape(const struct rtm_loader *l, const struct rtmc_src *src,
                        struct rtmc_loaded *out, char *msg, size_t msglen,
                        struct loader_shape_miss *miss)
{
    struct rtm_store_key k;
    size_t len;
    char error[320];
    void *val = NULL;
    if (!l->store || index_key(l, src, RTM_STORE_SHAPE, &k))
        return -1;
    if (rtm_store_get(l->store, &k, &val, &len)) {
        *miss = (struct loader_shape_miss){ 1, k };
        return -1;
    }
    int rc = rtm_shape_decode(val, len, &out->anim, &out->indexed, error, sizeof error);
    free(val);
    if (rc == 0) {
        if (out->anim)
            out->anim->digits = l->digits;
        else
            snprintf(msg, msglen, "%s: %s", src->path, error);  /* the path of now */
        out->remembered = 1;
        return 0;
    }
    rtm_store_drop(l->store, &k);
    say(l, src->path, "a damaged record; forgotten");
    return -1;
}

/* Queues the record of a shape (rtm_shape_encode's arguments) under k. */
static void put_shape(const struct rtm_loader *l, const struct rtm_store_key *k,
                      const struct rtm_anim *a, const uint64_t *sizes, const char *error)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_shape_encode(a, sizes, error, &b) == 0)
        rtm_store_put(l->store, k, b.p, b.len);
    rtm_buf_free(&b);
}

/* Remembers a's shape without sizes, or (when the index has its shape)
 * gives its sizes to check in out->indexed. */
void loader_remember_shape(const struct rtm_loader *l, const struct rtmc_src *src,
                           const struct rtm_anim *a, struct rtmc_loaded *out,
                           const struct loader_shape_miss *miss)
{
    if (miss && miss->absent) {         /* asked a moment ago: nothing to compare */
        free(out->indexed);
        out->indexed = NULL;
        put_shape(l, &miss->k, a, NULL, "");
        return;
    }
    struct rtm_store_key k;
    size_t len;
    char error[8];
    struct rtm_anim *shape = NULL;
    void *val = recall(l, src, RTM_STORE_SHAPE, &k, &len);
    if (val && rtm_shape_decode(val, len, &shape, &out->indexed, error, sizeof error) == 0 &&
        shape && rtm_view_count(shape) == rtm_view_count(a) && shape->nbones == a->nbones) {
        free(val);
        rtm_free(shape);
        return;
    }
    if (val)
        say(l, src->path, "a record that differs from the file; replaced");
    free(val);
    rtm_free(shape);
    free(out->indexed);
    out->indexed = NULL;
    if (!l->store || (!val && index_key(l, src, RTM_STORE_SHAPE, &k)))
        return;
    put_shape(l, &k, a, NULL, "");
}

/* Remembers that src does not parse, and why (without its path, which a
 * rename changes). */
void loader_remember_error(const struct rtm_loader *l, const struct rtmc_src *src,
                           const struct rtm_error *err)
{
    struct rtm_store_key k;
    char text[320];
    if (!l->store || index_key(l, src, RTM_STORE_SHAPE, &k))
        return;
    rtm_err_format(err, text, sizeof text);
    put_shape(l, &k, NULL, NULL, text);
}

void rtm_loader_store(void *ctx, const struct rtmc_src *src, const struct rtm_anim *a,
                      const uint64_t *sizes)
{
    const struct rtm_loader *l = ctx;
    struct rtm_store_key k;
    if (!l->store || src->kind != RTMC_ANIM || !a || index_key(l, src, RTM_STORE_SHAPE, &k))
        return;
    if (!sizes) {
        rtm_store_drop(l->store, &k);
        say(l, src->path, "a remembered size was wrong; forgotten, and the read failed once");
        return;
    }
    put_shape(l, &k, a, sizes, "");
}

/* ---- timed views' sizes, by generation ---- */

/* The key of view v's size under timing gen: the version's, of kind
 * RTM_STORE_TIMED, the rendering key followed by the view and the
 * generation (render, n bytes, holds it).  -1 when there is none. */
static int timed_key(const struct rtm_loader *l, const struct rtmc_src *src, struct rtm_view v,
                     const char *gen, struct rtm_store_key *k, char *render, size_t n)
{
    const char *name = rtm_view_fixed_name(v.kind);
    int w = snprintf(render, n, "%s\n%s\n%s", l->render ? l->render : "", name ? name : "?", gen);
    if (w < 0 || (size_t)w >= n || src->kind != RTMC_ANIM ||
        index_key(l, src, RTM_STORE_TIMED, k))
        return -1;
    k->render = render;
    return 0;
}

int rtm_loader_timed(void *ctx, const struct rtmc_src *src, struct rtm_view v, const char *gen,
                     uint64_t *size, int put)
{
    const struct rtm_loader *l = ctx;
    struct rtm_store_key k;
    char render[RTM_TIMING_WHY_MAX + 1024];
    uint8_t le[8];
    void *val = NULL;
    size_t len = 0;
    if (!l->store || timed_key(l, src, v, gen, &k, render, sizeof render))
        return -1;
    if (put) {
        for (int i = 0; i < 8; i++)
            le[i] = (uint8_t)(*size >> (8 * i));
        rtm_store_put(l->store, &k, le, sizeof le);
        return 0;
    }
    if (rtm_store_get(l->store, &k, &val, &len))
        return -1;
    int rc = len == sizeof le ? 0 : -1;
    *size = 0;
    for (size_t i = 0; rc == 0 && i < sizeof le; i++)
        *size |= (uint64_t)((const uint8_t *)val)[i] << (8 * i);
    free(val);
    return rc;
}

/* ---- archives' tables ---- */

/* An archive's table from the index: 0, or -1 when it has none. */
int loader_recall_table(const struct rtm_loader *l, const struct rtmc_src *src,
                            struct rtmc_loaded *out)
{
    struct rtm_store_key k;
    size_t len;
    void *val = recall(l, src, RTM_STORE_TABLE, &k, &len);
    if (!val)
        return -1;
    int rc = rtm_shape_decode_table(val, len, src->id.size, &out->pbo);
    free(val);
    out->remembered = rc == 0;
    if (rc) {
        rtm_store_drop(l->store, &k);
        say(l, src->path, "a damaged record; forgotten");
    }
    return rc;
}

/* Remembers table p, read from head (its first table_bytes at least),
 * without its trailer when it was not read (pbo.h). */
void loader_remember_table(const struct rtm_loader *l, const struct rtmc_src *src,
                           const struct pbo *p, const uint8_t *head)
{
    struct rtm_store_key k;
    if (!l->store || index_key(l, src, RTM_STORE_TABLE, &k) || p->table_bytes > SIZE_MAX)
        return;
    uint8_t tail[PBO_TAIL_MAX] = { 0 };    /* a known SHA-1 kept: a zero, then it */
    size_t tail_len = p->trailer == PBO_TRAILER_SHA1 ? sizeof tail : 0;
    memcpy(tail + 1, p->sha1, sizeof p->sha1);
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_shape_encode_table(head, (size_t)p->table_bytes, tail, tail_len, &b) == 0)
        rtm_store_put(l->store, &k, b.p, b.len);
    rtm_buf_free(&b);
}
