/* tree.c - the mount's tree without FUSE (see tree.h): its life, the
 * requests (lookup, getattr, read, readdir) and changes in SOURCE.  Each
 * request resolves its path or number (tree_resolve.c) and asks the kind
 * table (tree_kinds.c) what the target's kind does; tree_int.h maps the
 * rest of the layer. */
#include "cfg_pp.h"
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "format_table.h"
#include "pbo.h"
#include "views.h"

struct rtm_tree *rtm_tree_new(const struct rtm_tree_config *cfg)
{
    struct rtm_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cfg = *cfg;
    t->epoch = cfg_pp_epoch();          /* the mount's time for the configs */
    t->nodes = rtm_inodes_new(cfg->hash);
    t->hidden = cfg->hidden ? strdup(cfg->hidden) : NULL;
    t->file = cfg->file ? strdup(cfg->file) : NULL;
    if (!t->nodes || (cfg->hidden && !t->hidden) || (cfg->file && !t->file) ||
        (t->file && strlen(t->file) > NAME_MAX) || tree_sides_new(t) || tree_states_new(t) ||
        tree_gamepaths_new(t) || tree_ahead_new(t)) {
        tree_sides_free(t);
        tree_states_free(t);
        rtm_inodes_free(t->nodes);
        free(t->hidden);
        free(t->file);
        free(t);
        return NULL;
    }
    t->cfg.hidden = t->hidden;
    t->cfg.file = t->file;
    atomic_init(&t->unwatched, cfg->watch == NULL);
    pthread_mutex_init(&t->llock, NULL);
    struct stat st;
    if (t->cfg.fsmap && fstat(cfg->srcfd, &st) == 0)    /* said at the start */
        rtm_fsmap_check(t->cfg.fsmap, cfg->srcfd, "", (uint64_t)st.st_dev);
    tree_watch(t, "");
    return t;
}

void rtm_tree_free(struct rtm_tree *t)
{
    if (!t)
        return;
    tree_ahead_free(t);                 /* first: its workers use the rest */
    tree_states_end(t);                 /* may write to the index, still open */
    tree_listings_free(t);
    tree_states_free(t);
    tree_gamepaths_free(t);
    tree_sides_free(t);
    uint64_t miscounts = rtm_inodes_miscounts(t->nodes);
    if (miscounts && t->cfg.log) {
        char line[160];
        snprintf(line, sizeof line, "%llu inode numbers were taken back more often than "
                 "given (a bug of rtmfs's, survived; please report it)",
                 (unsigned long long)miscounts);
        t->cfg.log(t->cfg.log_ctx, line);
    }
    rtm_inodes_free(t->nodes);
    pthread_mutex_destroy(&t->llock);
    free(t->hidden);
    free(t->file);
    free(t);
}

/* Short where changes may go unreported: a watch failed, or tg's source
 * is on a device inotify is blind on (the first request to meet a device
 * has it probed: SOURCE's at the start, then each mount point below).
 * What was resolved in a pinned version (inside an animation's or an
 * archive's folder) never changes: the kernel asks again for the folder's
 * own entry, which a rewrite gives a new number, and nothing below it
 * (ls -lR twice over a blind tree took 2.4 times as long as over a
 * watched one when every view's entry ran out too). */
static double timeout(struct rtm_tree *t, const struct tree_target *tg)
{
    /* states.txt, missing.txt, preview.svg and anim.bvh change with
     * configs anywhere under SOURCE, and conflicts.txt with any archive,
     * not with their version: the kernel asks again, and a new time drops
     * their pages */
    if (tree_kind_follows_source(t, tg) || atomic_load(&t->unwatched) ||
        (!tg->pinned && t->cfg.fsmap &&
         rtm_fsmap_check(t->cfg.fsmap, t->cfg.srcfd, tg->src, (uint64_t)tg->st.st_dev)))
        return RTM_TREE_TIMEOUT_UNWATCHED;
    return RTM_TREE_TIMEOUT_WATCHED;
}
/* ---- lookup, forget, getattr ---- */

/* RTM_TREE_PLUS_CREDIT: the kernel looks a file up when it stats one it
 * was not given, so a walk that stats what it lists (ls -l, du, find
 * -size) earns attributes for the next folders of views, and a walk that
 * only reads a few files by name (grep -r) never does: given to grep, the
 * attributes of the million files in frames/ and tracks/ made the kernel
 * build an inode each, and grep over 10,000 animations took 2.4 times as
 * long.  A walk that stats spends a credit a folder and earns it again
 * only by the lookups of a folder it was not given: a later mount's du
 * of 1,000 animations (3,000 folders of views) made 3,651 lookups with 64
 * credits, 1,211 with 1,024 (1,000 of them states.txt's); a grep after a
 * walk that stats is given attributes in at most 1,024 folders. */

/* Counts a lookup of tg, found at path in folder parent: a member of
 * parent's family, the head of a family of its own (an animation's folder),
 * or a node.  Its number, or 0 when out of memory. */
static uint64_t child_number(struct rtm_tree *t, uint64_t parent, const char *path,
                             const struct tree_target *tg)
{
    struct rtm_fileid id = tree_kind_versioned(tg->kind) ? tg->id : RTM_FILEID_NONE;
    struct tree_head hi;
    if (!tree_kind_is_head(tg->kind) && (parent & RTM_INO_FAMILY))
        return tg->member ? rtm_inodes_ref_member(t->nodes, rtm_ino_head(parent), tg->member) : 0;
    if (!tree_kind_is_head(tg->kind))
        return rtm_inodes_ref(t->nodes, path, &id);
    tree_head_info(tg->src, &tg->st, tg->entry, &hi);
    hi.clip = tg->clip;                 /* a folder of clips/ heads a family too */
    return rtm_inodes_ref_head(t->nodes, path, &id, &hi);
}

int rtm_tree_lookup(struct rtm_tree *t, uint64_t parent, const char *name,
                    struct rtm_tree_entry *out)
{
    char dir[PATH_MAX], path[PATH_MAX];
    struct rtm_fileid pid;
    struct tree_target tg;
    int rc;
    rtm_work_add(t->cfg.work, RTM_WORK_LOOKUPS, 1);
    if ((parent & RTM_INO_FAMILY) && !tree_by_path(t)) {
        if ((rc = tree_resolve_in_family(t, parent, name, path, &tg)))
            return rc;
    } else {
        rc = tree_dir_path(t, parent, dir, &pid);
        if (rc == 0)
            rc = rtm_path_join(path, PATH_MAX, dir, name);
        /* inside an animation or archive, the child is of the parent's version */
        if (rc || (rc = tree_resolve(t, path, &pid, &tg)))
            return rc;
    }
    if (rtm_ino_member(parent))         /* in a folder of views: a walker that stats */
        atomic_store(&t->plus_credit, RTM_TREE_PLUS_CREDIT);
    out->ino = child_number(t, parent, path, &tg);
    rc = out->ino ? tree_kind_attr(t, &tg, out->ino, &out->st) : -ENOMEM;
    if (rc && out->ino)
        rtm_inodes_forget(t->nodes, out->ino, 1);
    if (rc == 0 && tree_kind_watched(&tg) && !t->game)    /* game folders are made up */
        tree_watch(t, path);
    out->timeout = timeout(t, &tg);
    tree_target_done(t, &tg);
    tree_account(t);
    return rc;
}

void rtm_tree_forget(struct rtm_tree *t, uint64_t ino, uint64_t nlookup)
{
    rtm_inodes_forget(t->nodes, ino, nlookup);
    tree_account(t);
}

/* Whether the files of folder dir (a family's folder of views) come with
 * their attributes in this readdirplus; the folder's first call spends a
 * credit. */
static int plus_for_views(struct rtm_tree *t, size_t from)
{
    int c = atomic_load(&t->plus_credit);
    if (c > 0 && from == 0)
        atomic_compare_exchange_strong(&t->plus_credit, &c, c - 1);
    return c > 0;
}

/* Counts a lookup of the listed number ino and fills its entry from tg,
 * resolved from it; leaves *o alone when that fails. */
static void listed_entry(struct rtm_tree *t, struct tree_target *tg, uint64_t ino,
                         struct rtm_tree_entry *o)
{
    uint64_t k = rtm_ino_member(ino);
    if (!(o->ino = rtm_inodes_ref_member(t->nodes, rtm_ino_head(ino), k)))
        return;
    if (tree_kind_attr(t, tg, o->ino, &o->st)) {
        rtm_inodes_forget(t->nodes, o->ino, 1);
        o->ino = 0;
    }
    o->timeout = timeout(t, tg);
}

/* The animations' folders an archive's folder lists: their attributes are
 * the heads' (the archive's table, cached), as getattr gives them, which
 * spares a walk the lookup of every folder it descends into.  A loose
 * .rtm's folder is left to lookup: its timeout depends on its device. */
static void listed_heads(struct rtm_tree *t, const struct rtm_dirlist *d, size_t from,
                         size_t to, struct rtm_tree_entry *out)
{
    char path[PATH_MAX];
    struct tree_target tg;
    for (size_t i = from; i < to; i++) {
        uint64_t ino = d->e[i].ino;
        if (!(ino & RTM_INO_FAMILY) || rtm_ino_member(ino) ||
            tree_resolve_head(t, ino, path, &tg))
            continue;
        if (tg.entry >= 0)
            listed_entry(t, &tg, ino, &out[i - from]);
        tree_target_done(t, &tg);
    }
}

void rtm_tree_listed_entries(struct rtm_tree *t, uint64_t dir, const struct rtm_dirlist *d,
                             size_t from, size_t to, struct rtm_tree_entry *out)
{
    char path[PATH_MAX];
    struct tree_target tg;
    uint64_t head = rtm_ino_head(dir);
    for (size_t i = from; i < to; i++)
        out[i - from].ino = 0;
    if (!(dir & RTM_INO_FAMILY) && !tree_by_path(t))
        listed_heads(t, d, from, to, out);
    if (!(dir & RTM_INO_FAMILY) || t->file || (rtm_ino_member(dir) && !plus_for_views(t, from)) ||
        tree_resolve_ino(t, dir, path, &tg))
        return;
    if ((!tg.h && tree_load_anim(t, &tg)) || !tg.h || !rtmc_anim(tg.h)) {
        tree_target_done(t, &tg);
        return;
    }
    for (size_t i = from; i < to; i++) {
        uint64_t k = rtm_ino_member(d->e[i].ino);
        /* a view of the shape alone (bones.txt) renders from what the
         * listing loaded: a walk that reads it would look it up for that */
        if (rtm_ino_head(d->e[i].ino) != head || tree_aim_at_member(&tg, k) ||
            !tree_kind_size_known(t, &tg))
            continue;
        listed_entry(t, &tg, d->e[i].ino, &out[i - from]);
    }
    tree_target_done(t, &tg);
}

int rtm_tree_getattr(struct rtm_tree *t, uint64_t ino, struct rtm_tree_entry *out)
{
    char path[PATH_MAX];
    struct tree_target tg;
    int rc = tree_resolve_ino(t, ino, path, &tg);
    if (rc)
        return rc;
    out->ino = ino;
    out->timeout = timeout(t, &tg);
    rc = tree_kind_attr(t, &tg, ino, &out->st);
    tree_target_done(t, &tg);
    return rc;
}
/* ---- read and readdir ---- */

ssize_t rtm_tree_read(struct rtm_tree *t, uint64_t ino, char *buf, size_t size, off_t off)
{
    char path[PATH_MAX];
    struct tree_target tg;
    int rc = tree_resolve_ino(t, ino, path, &tg);
    if (rc)
        return rc;
    ssize_t n = tree_kind_read(t, &tg, ino, buf, size, off);
    tree_target_done(t, &tg);
    return n;
}

static int build_listing(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d)
{
    char path[PATH_MAX];
    struct tree_target tg;
    int rc = tree_resolve_ino(t, ino, path, &tg);
    if (rc)
        return rc;                      /* tg holds nothing to put back */
    rc = tree_kind_list(t, ino, &tg, path, d);
    tree_target_done(t, &tg);
    return rc;
}

int rtm_tree_listing(struct rtm_tree *t, uint64_t ino, off_t off, struct rtm_dirlist **out)
{
    struct rtm_dirlist *d = off > 0 ? tree_listing_find(t, ino) : NULL;
    *out = NULL;
    if (d) {
        *out = d;
        return 0;
    }
    if (!(d = tree_listing_new()))
        return -ENOMEM;
    int rc = build_listing(t, ino, d);
    if (rc) {
        rtm_tree_listing_put(t, d);
        return rc;
    }
    tree_listing_keep(t, ino, d);
    tree_account(t);
    if (tree_listing_unsure(d) && t->cfg.stale)     /* after this reply: no listing of a
                                                       failed read sticks */
        t->cfg.stale(t->cfg.stale_ctx, ino, 1);
    if (t->walk)                        /* sizing ahead of a walk (tree_ahead.c) */
        t->walk->listed(t, ino, d);
    *out = d;
    return 0;
}

/* ---- changes in SOURCE ---- */

/* Forgets what is known of entry name of source folder dir (parent's
 * number, or 0). */
static void changed_name(struct rtm_tree *t, uint64_t parent, const char *dir,
                         const char *name, const struct rtm_tree_notify *n)
{
    char path[PATH_MAX];
    if (rtm_path_join(path, PATH_MAX, dir, name))
        return;
    rtmc_invalidate(t->cfg.cache, path);
    uint64_t child = rtm_inodes_find(t->nodes, path, &RTM_FILEID_NONE);
    if (parent)     /* drops the dentry and everything under it (an animation's views) */
        n->entry(n->ctx, parent, name);
    if (child)
        n->inode(n->ctx, child);
}

void rtm_tree_changed(struct rtm_tree *t, const char *dir, const char *name,
                      const struct rtm_tree_notify *n)
{
    if (t->game) {
        tree_gamepaths_changed(t);      /* any source may have come, gone or moved */
        rtm_tree_changed_all(t, n);
        return;
    }
    tree_states_changed(t, name);
    tree_sides_changed(t, dir, name);
    if (t->cfg.skels && !t->cfg.configs_none && !(name && tree_is_anim_name(name, strlen(name))))
        atomic_store(&t->skeletons_moved, 1);
    if (t->file) {
        /* everything shown is of that one file */
        if (!*dir && name && (strcmp(name, t->file) == 0 || tree_is_side_file(name) ||
                              rtm_format_naming_files(t->file, strlen(t->file))))
            rtm_tree_changed_all(t, n);
        return;
    }
    uint64_t parent = rtm_inodes_find(t->nodes, dir, &RTM_FILEID_NONE);
    if (name)                           /* a side file, or a file a .gltf may name */
        tree_modelcfg_changed(t, dir, name, parent, n);
    if (!name) {
        if (parent)
            n->inode(n->ctx, parent);
        return;
    }
    char related[3][NAME_MAX + 1];
    int nrel = tree_config_related(name, related);
    changed_name(t, parent, dir, name, n);
    for (int i = 0; i < nrel; i++)      /* config.bin's shown name may change */
        if (strcmp(related[i], name))
            changed_name(t, parent, dir, related[i], n);
    if (parent)
        n->inode(n->ctx, parent);
}

struct forget_all {
    struct rtm_tree *t;
    const struct rtm_tree_notify *n;
};

/* Tells the kernel to forget one inode's name in its folder, and the
 * inode's attributes and pages. */
static void forget_one(void *arg, uint64_t ino, const char *path, const struct rtm_fileid *id)
{
    struct forget_all *f = arg;
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 0;
    memcpy(dir, path, dl);
    dir[dl] = 0;
    uint64_t parent = rtm_inodes_find(f->t->nodes, dir, id);   /* inside an anim */
    if (!parent)
        parent = rtm_inodes_find(f->t->nodes, dir, &RTM_FILEID_NONE);
    if (parent)
        f->n->entry(f->n->ctx, parent, slash ? slash + 1 : path);
    f->n->inode(f->n->ctx, ino);
}

/* forget_one for an animation's folder (a family's head) only. */
static void forget_head(void *arg, uint64_t ino, const char *path, const struct rtm_fileid *id)
{
    if ((ino & RTM_INO_FAMILY) && rtm_ino_member(ino) == 0)
        forget_one(arg, ino, path, id);
}

void rtm_tree_changes_done(struct rtm_tree *t, const struct rtm_tree_notify *n)
{
    struct forget_all f = { t, n };
    if (atomic_exchange(&t->skeletons_moved, 0))
        rtm_inodes_each(t->nodes, forget_head, &f);
}

void rtm_tree_changed_all(struct rtm_tree *t, const struct rtm_tree_notify *n)
{
    struct forget_all f = { t, n };
    tree_states_changed(t, NULL);
    tree_sides_changed_all(t);
    rtmc_invalidate(t->cfg.cache, "");
    rtm_inodes_each(t->nodes, forget_one, &f);
    n->inode(n->ctx, RTM_INO_ROOT);
}

int rtm_tree_statfs(struct rtm_tree *t, struct statvfs *sv)
{
    return fstatvfs(t->cfg.srcfd, sv) ? -errno : 0;
}

/* ---- open and opendir ---- */

struct rtm_open_policy rtm_tree_open_policy(unsigned capable)
{
    return (struct rtm_open_policy){ .open_enosys = !!(capable & RTM_CAP_NO_OPEN),
                                     .opendir_enosys = !!(capable & RTM_CAP_NO_OPENDIR) };
}
