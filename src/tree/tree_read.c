/* tree_read.c - the bytes of the mount's files (see tree.h), and the sizes
 * of an animation's views under their timing (timing.h: preview.svg and
 * anim.bvh follow the configs that name the file). */
#include "tree_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timing.h"

static ssize_t slice(char *buf, size_t size, const char *data, size_t len, off_t off)
{
    if (off < 0 || (uint64_t)off >= len)
        return 0;
    size_t n = len - (size_t)off < size ? len - (size_t)off : size;
    memcpy(buf, data + off, n);
    return (ssize_t)n;
}

static ssize_t read_other(struct rtm_tree *t, const char *src, char *buf, size_t size, off_t off)
{
    int fd = openat(t->cfg.srcfd, src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = off < 0 ? -EINVAL : rtm_pread_full(fd, buf, size, (uint64_t)off);
    close(fd);
    return n;
}

/* A stored entry straight from the archive, if it is still tg's version. */
static ssize_t read_stored(struct rtm_tree *t, const struct tree_target *tg,
                           const struct pbo_entry *e, char *buf, size_t size, off_t off)
{
    int fd = openat(t->cfg.srcfd, tg->src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t rc = rtm_fileid_check(fd, &tg->id);
    if (!rc) {
        uint64_t from = off < 0 ? e->data_size : (uint64_t)off;
        uint64_t left = from < e->data_size ? e->data_size - from : 0;
        size_t want = left < size ? (size_t)left : size;
        rc = rtm_pread_full(fd, buf, want, e->offset + from);
        if (rc >= 0 && (size_t)rc < want)
            rc = -ESTALE;               /* the archive ends before its entry: it changed */
    }
    close(fd);
    return rc;
}

/* An entry shown as it is: stored bytes are read in place, anything else
 * is decoded once into the cache (one that could never fit in it reads as
 * EIO, as a broken one does). */
static ssize_t read_member(struct rtm_tree *t, struct tree_target *tg, char *buf, size_t size,
                           off_t off)
{
    const struct pbo_entry *e = &rtmc_pbo(tg->table)->entries[tg->entry];
    if (e->method == PBO_METHOD_STORED && !pbo_entry_compressed(e))
        return read_stored(t, tg, e, buf, size, off);
    char key[RTM_KEY_MAX];
    struct rtmc_entry *h;
    tree_member_key(tg, key);
    int rc = tree_get_entry(t, tg, key, RTMC_DATA, &h);
    if (rc)
        return rc;
    size_t len;
    const uint8_t *data = rtmc_data(h, &len);
    ssize_t n = data ? slice(buf, size, (const char *)data, len, off) : -EIO;
    rtmc_put(t->cfg.cache, h);
    return n;
}

/* Trades tg's anim entry (a shape) for one as deep as its view needs,
 * unless it already is: the lookup may have loaded the full parse
 * (tree_resolve_inner), which is then read as it is, not got again. */
static int view_entry(struct rtm_tree *t, struct tree_target *tg)
{
    enum rtmc_level need = rtmc_view_level(tg->view);
    if (rtmc_level(tg->h) <= need)
        return 0;
    rtmc_put(t->cfg.cache, tg->h);
    tg->h = NULL;
    tg->level = need;
    int rc = tree_load_anim(t, tg);
    return rc ? rc : rtmc_anim(tg->h) ? 0 : -EIO;
}

static ssize_t read_target(struct rtm_tree *t, struct tree_target *tg, char *buf, size_t size,
                           off_t off)
{
    struct rtm_buf b;
    struct rtmc_view *v;
    ssize_t n;
    size_t len;
    switch (tg->kind) {
    case TK_OTHER:
        return read_other(t, tg->src, buf, size, off);
    case TK_PFILE:
        return read_member(t, tg, buf, size, off);
    case TK_CONFIG:
    case TK_PCONFIG: {
        struct tree_config_text ct;
        if ((n = tree_config_text(t, tg, &ct)))
            return n;
        n = slice(buf, size, ct.text, ct.len, off);
        tree_config_text_put(t, &ct);
        return n;
    }
    case TK_PINFO:
        if (tree_render_info(tg, &b))
            return -ENOMEM;
        n = slice(buf, size, b.p, b.len, off);
        buf_free(&b);
        return n;
    case TK_ERROR: {
        char tmp[PATH_MAX + 256];
        const char *msg = tree_error_text(t, tg, tmp, sizeof tmp);
        len = strlen(msg);
        n = slice(buf, size, msg, len, off);
        if (n >= 0 && (size_t)n < size && (uint64_t)off + (uint64_t)n == len)
            buf[n++] = '\n';            /* the message's line end */
        return n;
    }
    case TK_CONFLICTS:
        if ((n = tree_gamepaths_conflicts(t, &b)))
            return n;
        n = slice(buf, size, b.p, b.len, off);
        buf_free(&b);
        return n;
    case TK_STATES:
    case TK_MISSING: {
        struct timespec when;
        if ((n = tree_configs_text(t, tg, &b, &when)))
            return n;
        n = slice(buf, size, b.p, b.len, off);
        buf_free(&b);
        return n;
    }
    case TK_VIEW: {
        struct rtm_timing tm;
        if ((n = view_entry(t, tg)) || (n = tree_states_timing(t, tg, 0, &tm, NULL)) ||
            (n = rtmc_timed_view_get(t->cfg.cache, tg->h, tg->view, &tm, &v)))
            return n;
        const char *data = rtmc_view_data(v, &len);
        n = slice(buf, size, data, len, off);
        rtmc_view_put(t->cfg.cache, v);
        return n;
    }
    default:
        return -EISDIR;
    }
}

/* ---- views' sizes ---- */

int tree_view_size(struct rtm_tree *t, struct tree_target *tg, uint64_t *size,
                   struct timespec *when)
{
    struct rtm_timing tm;
    /* the first size of an animation that needs a parse: a walk that
     * stats may follow */
    if (tg->head && rtmc_view_level(tg->view) != RTMC_SHAPE && tree_ahead_new_head(t, tg->head))
        tree_ahead_stat(t, tg->head,
                        rtmc_view_size_known(t->cfg.cache, tg->h, tg->view, size) == -EAGAIN);
    int rc = tree_states_timing(t, tg, 0, &tm, when);
    return rc ? rc : rtmc_timed_view_size(t->cfg.cache, tg->h, tg->view, &tm, size);
}

int tree_view_size_known(struct rtm_tree *t, struct tree_target *tg, uint64_t *size)
{
    struct rtm_timing tm;
    int rc = tree_states_timing(t, tg, 1, &tm, NULL);
    return rc ? rc : rtmc_timed_view_size_known(t->cfg.cache, tg->h, tg->view, &tm, size);
}

ssize_t rtm_tree_read(struct rtm_tree *t, uint64_t ino, char *buf, size_t size, off_t off)
{
    char path[PATH_MAX];
    struct tree_target tg;
    int rc = tree_resolve_ino(t, ino, path, &tg);
    if (rc)
        return rc;
    ssize_t n = read_target(t, &tg, buf, size, off);
    if (n == -EIO && tg.kind == TK_VIEW)
        tree_stale(t, &tg, ino);
    tree_target_done(t, &tg);
    return n;
}
