/* tree_read.c - the bytes of the files that are not made whole (tier 4 of
 * the tree, tree_int.h): a source file shown as it is, an archive entry
 * shown as it is, and an animation's views, with the views' sizes under
 * their timing (timing.h: preview.svg and anim.bvh follow the configs that
 * name the file).  The kind table (tree_kinds.c) says which kind reads how. */
#include "tree_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "timing.h"

ssize_t tree_slice(char *buf, size_t size, const char *data, size_t len, off_t off)
{
    if (off < 0 || (uint64_t)off >= len)
        return 0;
    size_t n = len - (size_t)off < size ? len - (size_t)off : size;
    memcpy(buf, data + off, n);
    return (ssize_t)n;
}

static ssize_t read_other(struct rtm_tree *t, const char *src, char *buf, size_t size, off_t off)
{
    int fd = rtm_work_openat(t->cfg.work, t->cfg.srcfd, src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = off < 0 ? -EINVAL : rtm_work_pread(t->cfg.work, fd, buf, size, (uint64_t)off);
    close(fd);
    return n;
}

/* A stored entry straight from the archive, if it is still tg's version. */
static ssize_t read_stored(struct rtm_tree *t, const struct tree_target *tg,
                           const struct pbo_entry *e, char *buf, size_t size, off_t off)
{
    int fd = rtm_work_openat(t->cfg.work, t->cfg.srcfd, tg->src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t rc = rtm_fileid_check(fd, &tg->id);
    if (!rc) {
        uint64_t from = off < 0 ? e->data_size : (uint64_t)off;
        uint64_t left = from < e->data_size ? e->data_size - from : 0;
        size_t want = left < size ? (size_t)left : size;
        rc = rtm_work_pread(t->cfg.work, fd, buf, want, e->offset + from);
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
    ssize_t n = data ? tree_slice(buf, size, (const char *)data, len, off) : -EIO;
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

/* Trades tg's anim entry for one of the skeleton the configs chose for
 * the file, when its view depends on the skeleton (a shape does not make
 * it) and they chose one (tree_states_skeleton; ready as there): at the
 * view's level when its bytes or size are wanted (whole: the entry of the
 * mount's skeleton was a shape, tree_family.c, so the file is parsed
 * whole once), else at the same level.  *when (if not NULL) as there. */
static int skeleton_entry(struct rtm_tree *t, struct tree_target *tg, int ready,
                          struct timespec *when)
{
    uint64_t id;
    if (!tg->h || rtmc_view_level(tg->view) == RTMC_SHAPE)
        return 0;
    int rc = tree_states_skeleton(t, tg, ready, &id, when);
    if (rc || id == tg->skel)
        return rc;
    tg->level = ready ? rtmc_level(tg->h) : rtmc_view_level(tg->view);
    rtmc_put(t->cfg.cache, tg->h);
    tg->h = NULL;
    tg->skel = id;
    rc = tree_load_anim(t, tg);
    return rc ? rc : rtmc_anim(tg->h) ? 0 : -EIO;
}

ssize_t tree_read_other(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, char *buf,
                        size_t size, off_t off)
{
    (void)ino;
    return read_other(t, tg->src, buf, size, off);
}

ssize_t tree_read_member(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, char *buf,
                         size_t size, off_t off)
{
    (void)ino;
    return read_member(t, tg, buf, size, off);
}

int tree_size_member(struct rtm_tree *t, struct tree_target *tg, uint64_t *size,
                     struct timespec *when)
{
    (void)t;
    (void)when;
    *size = pbo_entry_content_size(&rtmc_pbo(tg->table)->entries[tg->entry]);
    return 0;
}

/* A view's bytes, rendered once into the cache under its timing; a view
 * that turns out broken tells the stale hook (its size was wrong). */
ssize_t tree_read_view(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, char *buf,
                       size_t size, off_t off)
{
    struct rtm_timing tm;
    struct rtmc_view *v;
    ssize_t n;
    size_t len;
    if ((n = skeleton_entry(t, tg, 0, NULL)) || (n = view_entry(t, tg)) ||
        (n = tree_states_timing(t, tg, 0, &tm, NULL)) ||
        (n = rtmc_timed_view_get(t->cfg.cache, tg->h, tg->view, &tm, &v))) {
        if (n == -EIO)
            tree_stale(t, tg, ino);
        return n;
    }
    const char *data = rtmc_view_data(v, &len);
    n = tree_slice(buf, size, data, len, off);
    rtmc_view_put(t->cfg.cache, v);
    return n;
}

/* ---- views' sizes ---- */

int tree_view_size(struct rtm_tree *t, struct tree_target *tg, uint64_t *size,
                   struct timespec *when)
{
    struct rtm_timing tm;
    /* the first size of an animation that needs a parse: a walk that
     * stats may follow */
    const struct tree_walk_hooks *w = t->walk;
    if (w && tg->head && rtmc_view_level(tg->view) != RTMC_SHAPE && w->new_head(t, tg->head))
        w->stat(t, tg->head,
                rtmc_view_size_known(t->cfg.cache, tg->h, tg->view, size) == -EAGAIN);
    int rc = skeleton_entry(t, tg, 0, when);
    if (!rc)
        rc = tree_states_timing(t, tg, 0, &tm, when);
    return rc ? rc : rtmc_timed_view_size(t->cfg.cache, tg->h, tg->view, &tm, size);
}

int tree_view_size_known(struct rtm_tree *t, struct tree_target *tg, uint64_t *size)
{
    struct rtm_timing tm;
    int rc = skeleton_entry(t, tg, 1, NULL);
    if (!rc)
        rc = tree_states_timing(t, tg, 1, &tm, NULL);
    return rc ? rc : rtmc_timed_view_size_known(t->cfg.cache, tg->h, tg->view, &tm, size);
}


/* Whether tg's version turned out broken when read full: damage a
 * listing does not see (loader.h), after which its folder shows error.txt.
 * The full entry was just made (or is kept), so this loads nothing. */
static int turned_broken(struct rtm_tree *t, const struct tree_target *tg)
{
    char key[RTM_KEY_MAX];
    int entry = tg->entry >= 0 && tg->table;
    if (entry)
        tree_member_key(tg, key);
    else
        snprintf(key, sizeof key, "%s", tg->src);
    struct rtmc_src s = { .path = key, .id = tg->id, .kind = RTMC_ANIM, .level = RTMC_FULL,
                          .archive_len = entry ? strlen(tg->src) : 0 };
    struct rtmc_entry *h;
    s.id.skel = tg->skel;
    if (rtmc_get(t->cfg.cache, &s, &h))
        return 0;
    int broken = !rtmc_anim(h);
    rtmc_put(t->cfg.cache, h);
    return broken;
}

void tree_stale(struct rtm_tree *t, const struct tree_target *tg, uint64_t ino)
{
    const struct rtm_anim *a = tg->h ? rtmc_anim(tg->h) : NULL;
    if (!t->cfg.stale)
        return;
    if (rtm_ino_member(ino) && a) {
        t->cfg.stale(t->cfg.stale_ctx, rtm_ino_in_family(rtm_ino_head(ino), MEMBER_VIEWS),
                     rtm_view_count(a));
        if (turned_broken(t, tg))   /* its listing too: error.txt now */
            t->cfg.stale(t->cfg.stale_ctx, rtm_ino_head(ino), 1);
    } else
        t->cfg.stale(t->cfg.stale_ctx, ino, 1);
}
