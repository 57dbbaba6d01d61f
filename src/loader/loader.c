/* loader.c - reading one version of a file of SOURCE for the cache
 * (loader.h).  What is recalled from and remembered in the store is
 * decided in loader_store.c, which this calls through loader_int.h. */
#include "convert_proc.h"
#include "loader_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "bvhmap.h"
#include "modelcfg.h"
#include "mocap_retarget.h"
#include "pbo.h"
#include "skeleton_cfg.h"
#include "timing.h"
#include "views.h"

/* ---- reading ---- */

static int same_version(int fd, const struct rtmc_src *src)
{
    return rtm_fileid_check(fd, &src->id);
}

static int read_at(struct rtm_work *w, int fd, uint8_t *p, size_t len, uint64_t off)
{
    ssize_t n = rtm_work_pread(w, fd, p, len, off);
    return n < 0 ? (int)n : (size_t)n < len ? -ESTALE : 0;   /* shorter: it changed */
}

/* A format error becomes the message (the cache keeps it); any other
 * failure (out of memory, a read error, a file that changed) is returned as
 * -errno, which the cache does not keep: the next access tries again. */
static int failed(char *msg, size_t msglen, const char *what, const struct rtm_error *err)
{
    if (err->code)
        return -err->code;
    char text[320];
    rtm_err_format(err, text, sizeof text);
    snprintf(msg, msglen, "%s: %s", what, text);
    return 0;
}

/* Reserves bytes for what is about to be read or decoded ("to read", "to
 * parse"); a load that could never fit becomes its message, kept as any
 * format error is. */
static int reserve(struct rtmc_reservation *r, uint64_t bytes, uint64_t full,
                   const char *what, struct rtm_error *err)
{
    char text[128];
    int rc = rtmc_would_fit(r, full, what, text, sizeof text);
    if (!rc)
        rc = rtmc_reserve(r, bytes, what, text, sizeof text);
    if (rc == -EFBIG)
        rtm_err_nooff(err, "%s", text);
    else if (rc)
        rtm_err_sys(err, -rc, 0, "no memory free to %s it", what);
    return rc ? -1 : 0;
}

/* A light parse is refused too when a full one could never fit: the
 * folder then shows why, rather than views that cannot be read.  Such a
 * refusal depends on cache_size: it is not remembered as the file's. */
struct parse_budget {
    struct rtmc_reservation *r;
    int refused;
};

static int reserve_parse(void *ctx, uint64_t bytes, uint64_t full, struct rtm_error *err)
{
    struct parse_budget *pb = ctx;
    int rc = reserve(pb->r, bytes, full, "to parse", err);
    pb->refused |= rc != 0;
    return rc;
}

/* What every parse ends with: the anim's digits, and the index told of it
 * (its shape, or why it does not parse).  rc: the parse's result. */
/* What one load is of: the cache's request, and what the loader adds to
 * it for an RTMC_ANIM load: the classes of the model.cfg beside it (an
 * RTMC_SKELETONS entry's bytes) that give its skeleton, and where that is,
 * as the skeleton's name says it (modelcfg.h).  Every parse below is of a
 * request rtm_loader_load wrapped so (src is its first member). */
struct load_src {
    struct rtmc_src src;
    const uint8_t *classes;
    size_t classes_len;
    const char *classes_where;
    const struct rtm_bvh_map_file *map;     /* a BVH's (bvhmap.h), or NULL */
    int fd;                                 /* the file (or archive) open */
    struct loader_shape_miss miss;          /* the store's answer before the parse */
};

static const struct load_src *load_of(const struct rtmc_src *src)
{
    return (const struct load_src *)src;
}

static struct rtm_skeleton_pick pick_of(const struct rtmc_src *src)
{
    const struct load_src *ls = load_of(src);
    return (struct rtm_skeleton_pick){ .classes = ls->classes, .len = ls->classes_len,
                                       .where = ls->classes_where };
}

/* A model.cfg beside the file that does not read: its skeleton's name
 * says why the mount's was used. */
static int say_model_cfg(const struct rtmc_src *src, struct rtm_anim *a)
{
    const struct load_src *ls = load_of(src);
    return ls->classes || !ls->classes_where
               ? 0 : rtm_model_cfg_say_unused(a, ls->classes_where);
}

static int parsed(const struct rtm_loader *l, const struct rtmc_src *src, int rc,
                  const struct rtm_error *err, const struct parse_budget *pb,
                  struct rtmc_loaded *out, char *msg, size_t msglen)
{
    rc = rc ? failed(msg, msglen, src->path, err) : 0;
    if (out->anim && say_model_cfg(src, out->anim)) {
        rtm_free(out->anim);
        out->anim = NULL;
        return -ENOMEM;
    }
    if (out->anim) {
        out->anim->digits = l->digits;
        loader_remember_shape(l, src, out->anim, out, &load_of(src)->miss);
    } else if (rc == 0 && !pb->refused) {
        loader_remember_error(l, src, err);
    }
    return rc;
}

/* How a parse with o reads a BVH: the loader's options, and the map file
 * beside it (mo is o's to point at). */
static void with_mocap(const struct rtm_loader *l, const struct rtmc_src *src,
                       struct rtm_parse_opts *o, struct rtm_mocap_opts *mo)
{
    const struct rtm_bvh_map_file *map = load_of(src)->map;
    *mo = l->mocap ? *l->mocap : (struct rtm_mocap_opts){ .unit = 0 };
    if (map && map->text) {
        mo->map_text = (const char *)map->text;
        mo->map_len = map->len;
        mo->map_name = map->where;
    }
    o->mocap = mo;
}

/* A parse with o reads the clip src's version shows, the files beside the
 * source that its bytes name (bs is o's to point at), and FBX through its
 * converter (convert_proc.h). */
static void with_source(const struct rtm_loader *l, const struct rtmc_src *src,
                        struct rtmc_reservation *r, struct rtm_parse_opts *o,
                        struct rtm_beside *bs)
{
    *bs = (struct rtm_beside){ .l = l, .src = src, .fd = load_of(src)->fd, .r = r };
    o->clip = src->id.clip;
    o->read_beside = rtm_loader_read_beside;
    o->beside_ctx = bs;
    o->convert = rtm_convert_proc;      /* FBX: in a process of its own */
}

/* A parse with o takes its skeleton from the model.cfg beside the file
 * when the tree found one (pick's classes), else from the configs when the
 * version names their choice (its skel). */
static void with_skeleton(const struct rtm_loader *l, const struct rtmc_src *src,
                          struct rtm_parse_opts *o, struct rtm_skeleton_pick *pick)
{
    const struct rtm_skeleton *chosen =
        src->id.skel && l->skels ? rtm_skelreg_get(l->skels, src->id.skel) : NULL;
    if (chosen)                         /* the configs': choose still wins */
        o->skel = chosen;
    if (!pick->classes)
        return;
    o->choose = rtm_skeleton_pick;
    o->choose_ctx = pick;
}

/* Parses data (malloc'd, handed over: the anim may keep it as its source;
 * freed here otherwise). */
static int parse(const struct rtm_loader *l, const struct rtmc_src *src,
                 struct rtmc_reservation *r, uint8_t *data, size_t len,
                 struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    struct parse_budget pb = { r, 0 };
    struct rtm_skeleton_pick pick = pick_of(src);
    struct rtm_mocap_opts mo;
    struct rtm_parse_opts o = { .skel = l->skel, .reserve = reserve_parse, .reserve_ctx = &pb,
                                .flags = src->level != RTMC_FULL && !src->full_if_parsed
                                             ? RTM_PARSE_NO_MATRICES : 0,
                                .give_source = 1 };
    struct rtm_beside bs;
    with_skeleton(l, src, &o, &pick);
    with_mocap(l, src, &o, &mo);
    with_source(l, src, r, &o, &bs);
    rtm_work_add(l->work, RTM_WORK_PARSE_FULL, 1);
    int rc = rtm_parse_opts(data, len, &o, &out->anim, &err);
    rtm_skeleton_pick_done(&pick);
    rc = parsed(l, src, rc, &err, &pb, out, msg, msglen);
    if (!out->anim || out->anim->source != data)
        free(data);
    return rc;
}

/* ---- a head: the bytes a shape needs (rtm_parse_head) ---- */

/* Where a head load reads: a file, or an entry of an archive (p). */
struct head_src {
    struct rtm_work *work;              /* what the reads count into */
    int fd;
    const struct pbo *p;                /* NULL: the file itself */
    size_t entry;
    uint64_t size;                      /* of the file, or the entry's content */
};

/* The first len bytes of what hs names: 0, or -1 with err. */
static int head_read(const struct head_src *hs, uint8_t *buf, size_t len, struct rtm_error *err)
{
    if (hs->p)
        return pbo_load_entry_head(hs->work, hs->fd, hs->p, hs->entry, buf, len, err);
    int rc = read_at(hs->work, hs->fd, buf, len, 0);
    if (rc)
        rtm_err_sys(err, -rc, 0, "%s", strerror(-rc));
    return rc ? -1 : 0;
}

enum { HEAD_FIRST = 4096, HEAD_UNREAD = 1 };

/* A shape parsed from the head of what hs names, read a page first and
 * then as far as rtm_parse_head asks.  As parse(); HEAD_UNREAD when the
 * head's bytes could not be had (a damaged LZSS stream): a whole read
 * then says why. */
static int load_head(const struct rtm_loader *l, const struct rtmc_src *src,
                     struct rtmc_reservation *r, const struct head_src *hs,
                     struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    struct parse_budget pb = { r, 0 };
    struct rtm_skeleton_pick pick = pick_of(src);
    struct rtm_mocap_opts mo;
    struct rtm_parse_opts o = { .skel = l->skel, .reserve = reserve_parse, .reserve_ctx = &pb };
    struct rtm_beside bs;
    with_skeleton(l, src, &o, &pick);
    with_mocap(l, src, &o, &mo);
    with_source(l, src, r, &o, &bs);
    uint8_t *buf = NULL;
    size_t len = hs->size < HEAD_FIRST ? (size_t)hs->size : HEAD_FIRST, reserved = 0;
    uint64_t need;
    int rc;
    for (;;) {
        if (reserve(r, len - reserved, len - reserved, "to read", &err)) {
            free(buf);
            return failed(msg, msglen, src->path, &err);
        }
        reserved = len;
        uint8_t *grown = realloc(buf, len ? len : 1);
        if (!grown) {
            free(buf);
            return -ENOMEM;
        }
        buf = grown;
        if (head_read(hs, buf, len, &err)) {
            free(buf);
            return err.code ? -err.code : HEAD_UNREAD;
        }
        rtm_work_add(l->work, RTM_WORK_PARSE_HEAD, 1);
        rc = rtm_parse_head(buf, len, hs->size, &o, &out->anim, &need, &err);
        if (rc != RTM_PARSE_NEED_MORE)
            break;
        len = (size_t)need;             /* <= hs->size, which was reserved whole once */
    }
    free(buf);
    rtm_skeleton_pick_done(&pick);      /* asked only once every name is read */
    return parsed(l, src, rc, &err, &pb, out, msg, msglen);
}

/* Whether src asks for a shape that the head of its file gives. */
static int wants_head(const struct rtm_loader *l, const struct rtmc_src *src)
{
    return !l->whole && src->kind == RTMC_ANIM && src->level == RTMC_SHAPE &&
           !src->full_if_parsed;
}

/* A rapified config's text from its bytes (data, freed here): what the
 * model and the text hold is reserved before each is made, so a config
 * is bounded as an animation is.  A bad one becomes its message. */
static int derapify(const struct rtmc_src *src, struct rtmc_reservation *r, uint8_t *data,
                    size_t len, struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    struct cfg *c = NULL;
    size_t model = 0;
    int rc = rap_measure(data, len, &model, &err) || reserve(r, model, model, "to parse", &err) ||
             rap_read(data, len, &c, &err);
    free(data);
    if (rc)
        return failed(msg, msglen, src->path, &err);
    uint64_t size = cfg_text_size(c);
    struct rtm_buf b;
    rtm_buf_init(&b);
    /* reserve() bounds size by cache_size, so it fits a size_t */
    if (reserve(r, size, size, "to write", &err) == 0 && rtm_buf_reserve(&b, (size_t)size + 1) == 0)
        cfg_print_text(c, &b);
    cfg_free(c);
    if (err.msg[0] || err.code)
        return failed(msg, msglen, src->path, &err);
    if (b.oom || b.len != size) {
        rtm_buf_free(&b);
        return -ENOMEM;
    }
    rtm_buf_putc(&b, 0);                    /* never NULL, even for an empty text */
    out->data = (uint8_t *)rtm_buf_take(&b, NULL);
    out->len = (size_t)size;
    return out->data ? 0 : -ENOMEM;
}

/* A model.cfg's classes from its bytes (data, freed here), which their
 * text holds less of than the model read to make it; a bad one becomes
 * its message, as a broken animation does. */
static int model_cfg(const struct rtmc_src *src, struct rtmc_reservation *r, uint8_t *data,
                     size_t len, struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    struct rtm_buf b;
    rtm_buf_init(&b);
    /* its model and its classes take a few times its bytes */
    int rc = reserve(r, (uint64_t)len * 8, (uint64_t)len * 8, "to read", &err) ||
             rtm_skeleton_cfg_classes_of(data, len, src->path, &b, &err);
    free(data);
    if (rc) {
        rtm_buf_free(&b);
        return failed(msg, msglen, src->path, &err);
    }
    out->len = b.len;
    out->data = (uint8_t *)rtm_buf_take(&b, NULL);
    return out->data ? 0 : -ENOMEM;
}

/* A loose file: its bytes, then an animation or a config's text. */
static int load_file(const struct rtm_loader *l, int fd, const struct rtmc_src *src,
                     struct rtmc_reservation *r, struct rtmc_loaded *out, char *msg,
                     size_t msglen)
{
    size_t size = (size_t)src->id.size;
    struct rtm_error err = { .msg = "" };
    if (wants_head(l, src)) {
        struct head_src hs = { l->work, fd, NULL, 0, src->id.size };
        posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);   /* the head, not what follows */
        return load_head(l, src, r, &hs, out, msg, msglen);
    }
    if (reserve(r, size, size, "to read", &err))
        return failed(msg, msglen, src->path, &err);
    uint8_t *data = malloc(size ? size : 1);
    if (!data)
        return -ENOMEM;
    int rc = read_at(l->work, fd, data, size, 0);
    if (rc) {
        free(data);
        return rc;
    }
    if (src->kind == RTMC_CONFIG)
        return derapify(src, r, data, size, out, msg, msglen);
    if (src->kind == RTMC_SKELETONS)
        return model_cfg(src, r, data, size, out, msg, msglen);
    return parse(l, src, r, data, size, out, msg, msglen);
}

static int load_table(const struct rtm_loader *l, int fd, const struct rtmc_src *src,
                      struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtm_error err = { .msg = "" };
    uint8_t *head;
    rtm_work_add(l->work, RTM_WORK_TABLES, 1);
    /* 4 KiB first, as many tables need: a walk reads hundreds of them */
    if (pbo_load_table_head(l->work, fd, 4096, &out->pbo, &head, &err))
        return failed(msg, msglen, src->path, &err);
    loader_remember_table(l, src, out->pbo, head);
    free(head);
    return 0;
}

/* What reading an entry holds: its stored bytes and its content. */
static uint64_t entry_bytes(const struct pbo_entry *e)
{
    return e->data_size + pbo_entry_content_size(e);
}

/* Entry i of p, whole: its content as asked for. */
static int load_entry_whole(const struct rtm_loader *l, int fd, const struct pbo *p, size_t i,
                            const struct rtmc_src *src, struct rtmc_reservation *r,
                            struct rtmc_loaded *out, char *msg, size_t msglen)
{
    uint8_t *data = NULL;
    size_t len = 0;
    struct rtm_error err = { .msg = "" };
    if (reserve(r, entry_bytes(&p->entries[i]), entry_bytes(&p->entries[i]), "to read", &err))
        return failed(msg, msglen, src->path, &err);
    if (src->kind == RTMC_ANIM)
        loader_prefetch(fd, p, i, 1, 0);
    if (pbo_load_entry(l->work, fd, p, i, &data, &len, &err)) {
        /* damage a head does not see (an LZSS checksum): remembered as a
         * parse that fails is, so the folder stays error.txt alone */
        if (!err.code && src->kind == RTMC_ANIM)
            loader_remember_error(l, src, &err);
        return failed(msg, msglen, src->path, &err);
    }
    if (src->kind == RTMC_ANIM)
        return parse(l, src, r, data, len, out, msg, msglen);
    if (src->kind == RTMC_CONFIG)
        return derapify(src, r, data, len, out, msg, msglen);
    if (src->kind == RTMC_SKELETONS)
        return model_cfg(src, r, data, len, out, msg, msglen);
    out->data = data;
    out->len = len;
    return 0;
}

/* An entry: through the archive's table (a cache entry of the same version). */
static int load_entry(const struct rtm_loader *l, int fd, const char *archive,
                      const struct rtmc_src *src, struct rtmc_reservation *r,
                      struct rtmc_loaded *out, char *msg, size_t msglen)
{
    struct rtmc_src ts = { .path = archive, .id = rtm_fileid_file(src->id), .kind = RTMC_TABLE };
    struct rtmc_entry *t;
    int rc = rtmc_get(l->cache, &ts, &t);
    if (rc)
        return rc;
    const struct pbo *p = rtmc_pbo(t);
    long i = p ? pbo_find(p, src->path + src->archive_len + 1) : -1;
    if (!p)
        snprintf(msg, msglen, "%s", rtmc_error(t));
    else if (i < 0)
        rc = -ENOENT;
    else {
        rc = HEAD_UNREAD;
        if (wants_head(l, src)) {
            struct head_src hs = { l->work, fd, p, (size_t)i, pbo_entry_content_size(&p->entries[i]) };
            loader_prefetch(fd, p, (size_t)i, 0, HEAD_FIRST);
            rc = load_head(l, src, r, &hs, out, msg, msglen);
        }
        if (rc == HEAD_UNREAD)
            rc = load_entry_whole(l, fd, p, (size_t)i, src, r, out, msg, msglen);
    }
    rtmc_put(l->cache, t);
    return rc;
}

static void loaded_free(struct rtmc_loaded *out)
{
    rtm_free(out->anim);
    pbo_free(out->pbo);
    free(out->data);
    free(out->indexed);
    *out = (struct rtmc_loaded){ 0 };
}

int rtm_loader_load(void *ctx, const struct rtmc_src *src, struct rtmc_reservation *r,
                    struct rtmc_loaded *out, char *msg, size_t msglen)
{
    const struct rtm_loader *l = ctx;
    /* what stat and readdir need comes from the index without opening the file */
    if (src->kind == RTMC_TABLE && loader_recall_table(l, src, out) == 0)
        return 0;
    struct loader_shape_miss miss = { 0 };
    if (src->kind == RTMC_ANIM && src->level == RTMC_SHAPE &&
        loader_recall_shape(l, src, out, msg, msglen, &miss) == 0)
        return 0;
    char file[PATH_MAX];
    size_t n = src->archive_len ? src->archive_len : strlen(src->path);
    if (n >= sizeof file)
        return -ENAMETOOLONG;
    memcpy(file, src->path, n);
    file[n] = 0;
    int fd = rtm_work_openat(l->work, l->srcfd, file, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
        /* shown as error.txt, like rtmcat; a chmod in SOURCE invalidates it */
        snprintf(msg, msglen, "%s: %s", file, strerror(errno));
        return 0;
    }
    if (fd < 0)
        return -errno;
    int rc = same_version(fd, src);
    struct rtm_modelcfg m = { .h = NULL };
    struct rtm_bvh_map_file map = { .text = NULL };
    struct load_src with = { .src = *src, .map = &map, .fd = fd, .miss = miss };
    if (!rc && (rc = rtm_bvh_map_find(l, fd, src, &map, msg, msglen)) == 1) {
        close(fd);                      /* a map that does not read: the file's message */
        return 0;
    }
    if (!rc && (rc = rtm_modelcfg_find(l, src, &map.id, &m)) == 0 && (m.h || m.where[0])) {
        with.classes = m.h ? rtmc_data(m.h, &with.classes_len) : NULL;
        with.classes_where = m.where;
    }
    src = &with.src;
    /* Archives are read an entry at a time: readahead would read the
     * neighbours (textures, mostly) that nobody asked for. */
    if (src->archive_len || src->kind == RTMC_TABLE)
        posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    if (!rc && src->archive_len)
        rc = load_entry(l, fd, file, src, r, out, msg, msglen);
    else if (!rc && src->kind == RTMC_TABLE)
        rc = load_table(l, fd, src, out, msg, msglen);
    else if (!rc && (src->kind == RTMC_ANIM || src->kind == RTMC_CONFIG ||
                     src->kind == RTMC_SKELETONS))
        rc = load_file(l, fd, src, r, out, msg, msglen);
    else if (!rc)
        rc = -EINVAL;                   /* data is only read from archives */
    if (!rc)
        rc = same_version(fd, src);     /* what was read is of one version */
    rtm_modelcfg_release(l, &m);
    rtm_bvh_map_release(&map);
    close(fd);
    if (rc) {
        loaded_free(out);
        msg[0] = 0;
    }
    return rc;
}
