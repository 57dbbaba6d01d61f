/* tree_modelcfg.c - the files beside an animation that its views depend
 * on, as the loader's list names them (sides.h): the model.cfg, whose
 * classes give its skeleton unless -o skeleton= was given (rtmfs-views(7),
 * the skeleton rule; the loader reads it: modelcfg.h), and a BVH's bvh.map
 * (bvhmap.h).  A loose file's version carries theirs in its salt
 * (fileid.h, rtm_loader_salt), so one written, added or removed makes a
 * new version of every animation beside it; an archive's entry is of the
 * archive's version, which already changes with any entry.
 *
 * What a watched folder holds beside its animations is kept (struct
 * tree_sides) until the watcher says that folder changed, so that a lookup
 * or a listing of animations whose versions are known stats no side file:
 * one look a folder, not one per animation and per lookup.  Where changes
 * may go unreported (no watch, a blind device, -o watch=poll: see
 * timeout() in tree.c) every salt is looked up again, as before. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format_table.h"
#include "tree_target.h"

/* ---- what watched folders hold beside their animations ---- */

struct side_dir {
    struct side_dir *next;
    unsigned known;                     /* which of ids are known: bit 1 << s
                                           for the list's row s */
    struct rtm_fileid ids[RTM_NSIDES];  /* NONE: no such file (or not regular) */
    char dir[];                         /* relative to SOURCE; "" the root */
};

struct tree_sides {
    pthread_mutex_t lock;
    struct side_dir **slot;
    size_t nslots, n;
    uint64_t gen;                       /* bumped by every change: a look that
                                           began before one is not kept */
};

int tree_sides_new(struct rtm_tree *t)
{
    struct tree_sides *s = calloc(1, sizeof *s);
    if (!s || !(s->slot = calloc(s->nslots = 64, sizeof *s->slot))) {
        free(s);
        return -ENOMEM;
    }
    pthread_mutex_init(&s->lock, NULL);
    t->sides = s;
    return 0;
}

/* Every folder forgotten (s locked). */
static void drop_all(struct tree_sides *s)
{
    for (size_t i = 0; i < s->nslots; i++)
        for (struct side_dir *d = s->slot[i], *next; d; d = next) {
            next = d->next;
            free(d);
        }
    memset(s->slot, 0, s->nslots * sizeof *s->slot);
    s->n = 0;
    s->gen++;
}

void tree_sides_free(struct rtm_tree *t)
{
    struct tree_sides *s = t->sides;
    if (!s)
        return;
    drop_all(s);
    free(s->slot);
    pthread_mutex_destroy(&s->lock);
    free(s);
    t->sides = NULL;
}

/* The slot of folder dir (s locked): where it is, or where it goes. */
static struct side_dir **find(struct tree_sides *s, const char *dir, size_t len)
{
    struct side_dir **at = &s->slot[rtm_hash_bytes(dir, len, 0) & (s->nslots - 1)];
    while (*at && !(strlen((*at)->dir) == len && memcmp((*at)->dir, dir, len) == 0))
        at = &(*at)->next;
    return at;
}

/* Twice the slots once there are as many folders as slots (s locked);
 * out of memory, the chains only grow longer. */
static void grow(struct tree_sides *s)
{
    size_t n = s->nslots * 2;
    struct side_dir **slot = calloc(n, sizeof *slot);
    if (!slot)
        return;
    for (size_t i = 0; i < s->nslots; i++)
        for (struct side_dir *d = s->slot[i], *next; d; d = next) {
            next = d->next;
            struct side_dir **at = &slot[rtm_hash_bytes(d->dir, strlen(d->dir), 0) & (n - 1)];
            d->next = *at;
            *at = d;
        }
    free(s->slot);
    s->slot = slot;
    s->nslots = n;
}

void tree_sides_watched(struct rtm_tree *t, const char *dir)
{
    struct tree_sides *s = t->sides;
    size_t len = strlen(dir);
    pthread_mutex_lock(&s->lock);
    struct side_dir **at = find(s, dir, len);
    if (!*at && (*at = calloc(1, sizeof **at + len + 1))) {
        memcpy((*at)->dir, dir, len + 1);
        if (++s->n > s->nslots)
            grow(s);
    }
    /* known already: it was watched all along (a watch that goes, or a
     * folder renamed away, is a change: tree_sides_changed) */
    pthread_mutex_unlock(&s->lock);
}

/* Whether folder d is path or below it. */
static int under(const struct side_dir *d, const char *path, size_t len)
{
    return strncmp(d->dir, path, len) == 0 && (d->dir[len] == 0 || d->dir[len] == '/');
}

/* Folder path and every folder below it forgotten (s locked): a folder
 * renamed, removed or replaced is no longer known to be watched under
 * that name. */
static void drop_below(struct tree_sides *s, const char *path)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < s->nslots; i++)
        for (struct side_dir **at = &s->slot[i]; *at;) {
            struct side_dir *d = *at;
            if (!under(d, path, len)) {
                at = &d->next;
                continue;
            }
            *at = d->next;
            free(d);
            s->n--;
        }
}

void tree_sides_changed(struct rtm_tree *t, const char *dir, const char *name)
{
    struct tree_sides *s = t->sides;
    char path[PATH_MAX];
    pthread_mutex_lock(&s->lock);
    s->gen++;
    struct side_dir **at = find(s, dir, strlen(dir));
    if (!name || tree_is_side_file(name)) {
        if (*at)
            (*at)->known = 0;
    } else if (rtm_path_join(path, sizeof path, dir, name) == 0) {
        /* a watched folder's parent is watched: none below an unknown one */
        if (*find(s, path, strlen(path)))
            drop_below(s, path);
    } else {
        drop_all(s);
    }
    pthread_mutex_unlock(&s->lock);
}

void tree_sides_stale(struct rtm_tree *t, const char *rel)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(rel, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - rel) : 0, rel);
    tree_sides_changed(t, dir, NULL);
}

void tree_sides_changed_all(struct rtm_tree *t)
{
    pthread_mutex_lock(&t->sides->lock);
    drop_all(t->sides);
    pthread_mutex_unlock(&t->sides->lock);
}

/* ---- the salt ---- */

/* The version of regular file p (relative to dfd): NONE when there is
 * none (or it is no regular file). */
static struct rtm_fileid side_id(int dfd, const char *p)
{
    struct stat st;
    if (fstatat(dfd, p, &st, 0) || !S_ISREG(st.st_mode))
        return RTM_FILEID_NONE;
    return rtm_fileid_of(&st);
}

/* The ids of the files beside name (relative to dfd) that want asks for
 * (bit 1 << s for row s) into ids, looked up now. */
static void look(int dfd, const char *name, unsigned want, struct rtm_fileid *ids)
{
    char p[PATH_MAX];
    size_t len = strlen(name);
    for (int s = 0; s < RTM_NSIDES; s++)
        if ((want & 1u << s) && !rtm_side_beside(s, name, len, p, sizeof p))
            ids[s] = side_id(dfd, p);
}

/* ids[s] = from[s] for each row s that want asks for. */
static void copy_wanted(struct rtm_fileid *ids, const struct rtm_fileid *from, unsigned want)
{
    for (int s = 0; s < RTM_NSIDES; s++)
        if (want & 1u << s)
            ids[s] = from[s];
}

/* Whether what lies beside animations in rel's folder may be kept: its
 * changes are reported (a watch everywhere asked for, a device inotify
 * sees; the folder itself watched is find's question). */
static int keepable(struct rtm_tree *t, const char *rel, uint64_t dev)
{
    return !atomic_load(&t->unwatched) && t->sides &&
           !(t->cfg.fsmap && rtm_fsmap_check(t->cfg.fsmap, t->cfg.srcfd, rel, dev));
}

/* The ids that want asks for beside the animation at rel (name relative
 * to dfd): kept ones when its folder is watched and they are known, else
 * looked up (and kept when no change came meanwhile). */
static void side_ids(struct rtm_tree *t, int dfd, const char *name, const char *rel,
                     uint64_t dev, unsigned want, struct rtm_fileid *ids)
{
    struct tree_sides *s = t->sides;
    const char *slash = strrchr(rel, '/');
    size_t dl = slash ? (size_t)(slash - rel) : 0;
    if (!keepable(t, rel, dev)) {
        look(dfd, name, want, ids);
        return;
    }
    pthread_mutex_lock(&s->lock);
    struct side_dir *d = *find(s, rel, dl);
    uint64_t gen = s->gen;
    if (d && (d->known & want) == want) {
        copy_wanted(ids, d->ids, want);
        pthread_mutex_unlock(&s->lock);
        return;
    }
    pthread_mutex_unlock(&s->lock);
    look(dfd, name, want, ids);
    if (!d)
        return;                         /* not watched: never kept */
    pthread_mutex_lock(&s->lock);
    if (s->gen == gen && (d = *find(s, rel, dl)) != NULL) {
        copy_wanted(d->ids, ids, want);
        d->known |= want;
    }
    pthread_mutex_unlock(&s->lock);
}

int tree_modelcfg_salt(struct rtm_tree *t, int dfd, const char *name, const char *rel,
                       uint64_t dev, uint64_t *salt)
{
    struct rtm_fileid ids[RTM_NSIDES];
    unsigned want = 0;
    for (int s = 0; s < RTM_NSIDES; s++) {
        ids[s] = RTM_FILEID_NONE;
        want |= rtm_side_wanted(s, name, strlen(name), t->cfg.skeleton_explicit) ? 1u << s : 0;
    }
    if (want)
        side_ids(t, dfd, name, rel, dev, want, ids);
    uint64_t named;
    int rc = rtm_loader_named_salt(t->cfg.work, dfd, name, &named);
    *salt = rtm_loader_salt(ids) ^ named;
    return rc;
}

/* Whether path is an animation's directly in dir. */
static int anim_in(const char *path, const char *dir)
{
    size_t dl = strlen(dir);
    const char *rest = dl ? path + dl + 1 : path;
    if (dl && (strncmp(path, dir, dl) || path[dl] != '/'))
        return 0;
    return !strchr(rest, '/') && tree_is_anim_name(rest, strlen(rest));
}

struct beside_ctx {
    struct rtm_tree *t;
    const char *dir;
    uint64_t parent;
    const struct rtm_tree_notify *n;
    int naming_only;                    /* another file changed: only the animations
                                           whose bytes may name it (a .gltf) */
};

static void forget_beside(void *arg, uint64_t ino, const char *path,
                          const struct rtm_fileid *id)
{
    struct beside_ctx *b = arg;
    (void)id;
    if (!anim_in(path, b->dir) ||
        (b->naming_only && !rtm_format_naming_files(path, strlen(path))))
        return;
    rtmc_invalidate(b->t->cfg.cache, path);
    if (b->parent)
        b->n->entry(b->n->ctx, b->parent, path + (*b->dir ? strlen(b->dir) + 1 : 0));
    b->n->inode(b->n->ctx, ino);
}

void tree_modelcfg_changed(struct rtm_tree *t, const char *dir, const char *name,
                           uint64_t parent, const struct rtm_tree_notify *n)
{
    int s = rtm_side_named(name, RTM_SIDE_ON_DISK);
    struct beside_ctx b = { t, dir, parent, n, s < 0 };
    if (s >= 0 && RTM_SIDE_FILES[s].gives_skeleton && t->cfg.skeleton_explicit)
        return;
    if (s >= 0 || !tree_is_anim_name(name, strlen(name)))
        rtm_inodes_each(t->nodes, forget_beside, &b);
}

int tree_is_side_file(const char *name)
{
    return rtm_side_named(name, RTM_SIDE_ON_DISK) >= 0;
}
