/* tree_states_read.c - reading the configs the walk found
 * (tree_states_walk.c) into the mount's table of config states: loose
 * configs below a $PBOPREFIX$, and every archive's table and configs, on a
 * few threads.  Tier 2 of the tree (tree_states.h).
 *
 * A text config is preprocessed, its game-path includes found through the
 * $PBOPREFIX$ folders under SOURCE, then through the project around it
 * (gamepath.h: its addons/ and include/ folders). */
#include "tree_states_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "array.h"
#include "gamepath.h"
#include "skeleton_cfg.h"

/* ---- what both halves of the walk use (tree_states_walk.h) ---- */

/* What w was walking or reading failed; out of memory taints the walk. */
void tree_walk_failed(struct walk *w, int oom)
{
    w->oom |= oom != 0;
}

/* A game path into w->present (where: the animation's path in SOURCE, as
 * the root check.txt resolves it; "" for a prefix, or when the walk is
 * not of SOURCE's own tree), out of memory noted. */
void tree_walk_present(struct walk *w, const char *where, const char *gp, size_t len)
{
    int own = w->rootfd == w->t->cfg.srcfd && !w->t->file;
    if (w->present)
        tree_walk_failed(w, !where ? rtm_gamepaths_add_prefix(w->present, gp, len)
                              : rtm_gamepaths_add_file(w->present, gp, len, own ? where : ""));
}

/* The configs read: config.bin and config.cpp for their states, and
 * model.cfg for its CfgSkeletons (the skeleton a state's class names, for
 * the root check.txt).  Any case, on disk too: these are configs, named
 * by the configs' rule (rtmfs-views(7)), not a side file beside an
 * animation, whose name rule is sides.h's. */
int tree_walk_is_config(const char *name)
{
    size_t n = strlen(name);            /* most names of an archive: none */
    if (n == 10)
        return strcasecmp(name, "config.bin") == 0 || strcasecmp(name, "config.cpp") == 0;
    return n == sizeof RTM_MODEL_CFG - 1 && strcasecmp(name, RTM_MODEL_CFG) == 0;
}

/* ---- reading them ---- */

/* Game-path includes: the $PBOPREFIX$ folders under SOURCE first, then
 * the project around the config (arg: a struct resolve). */
struct resolve {
    const struct walk *w;
    struct gamepath_project *pr;
};

static int resolve_gp(void *arg, const char *gp, char *out, size_t n)
{
    const struct resolve *r = arg;
    for (size_t i = 0; i < r->w->npre; i++) {
        const struct prefix *p = &r->w->pre[i];
        size_t len = strlen(p->gp);
        if (strncasecmp(gp, p->gp, len) || gp[len] != '\\')
            continue;
        int k = snprintf(out, n, "%s/%s", p->dir, gp + len + 1);
        if (k < 0 || (size_t)k >= n)
            continue;
        for (char *c = out + strlen(p->dir); *c; c++)
            if (*c == '\\')
                *c = '/';
        if (access(out, R_OK) == 0)
            return 0;
    }
    return r->pr ? gamepath_project_resolve(r->pr, gp, out, n) : -1;
}

/* A config read (pp: what its preprocessing left as written), prepared
 * (p) for table s; keyed: it depends on nothing but the bytes of its file
 * (whose version is in the generation: struct walk). */
static void config_read(struct walk *w, struct rtm_states *s, const struct cfg_pp_counts *pp,
                        struct rtm_states_prepared *p, int keyed)
{
    w->unkeyed += !keyed;
    w->left.eval += pp->eval, w->left.exec += pp->exec;
    w->left.undefined_call += pp->undefined_call;
    w->left.missing_include += pp->missing_include, w->left.other += pp->other;
    atomic_fetch_add(&w->t->states->parsed, 1);
    rtm_work_add(w->t->cfg.work, RTM_WORK_CONFIGS_PARSED, 1);
    tree_walk_failed(w, rtm_states_add_prepared(s, p));
    rtmc_make_room(w->t->cfg.cache, rtm_states_config_bytes(s));  /* until it is made */
}

/* Whether the file at path starts as a rapified config does. */
static int rapified_file(struct rtm_work *work, const char *path)
{
    uint8_t magic[4];
    int fd = rtm_work_openat(work, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    ssize_t n = fd < 0 ? -1 : rtm_work_pread(work, fd, magic, sizeof magic, 0);
    if (fd >= 0)
        close(fd);
    return n == (ssize_t)sizeof magic && rap_is_rapified(magic, sizeof magic);
}

void tree_walk_read_loose(struct walk *w, struct rtm_states *s, const char *rel)
{
    char path[PATH_MAX];
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_path_join(path, sizeof path, w->root, rel))
        return;
    struct resolve r = { w, NULL };
    gamepath_project_open(path, &r.pr);
    struct cfg_pp_opts o = { .resolve = resolve_gp, .arg = &r,
                             .include_dir = r.pr ? gamepath_project_include(r.pr) : NULL,
                             .epoch = w->t->epoch, .work = w->t->cfg.work };
    rtm_work_add(w->t->cfg.work, RTM_WORK_CONFIGS_READ, 1);
    /* keyed when rapified: a text config's includes are looked for on
     * disk, where they may change while it does not */
    if (cfg_load_file(path, &o, &c, &err) == 0) {
        struct cfg_pp_counts pp = c->pp;
        config_read(w, s, &pp, rtm_states_prepare(s, c, rel),
                    rapified_file(w->t->cfg.work, path));
    } else
        tree_walk_failed(w, err.code == ENOMEM);
    gamepath_project_free(r.pr);
}

/* A config that is an archive's entry: rapified, or text preprocessed
 * without a folder (its includes are in the archive, out of reach).  On
 * a reader thread: w is only read; *oom set when memory ran out; *keyed
 * when it depends on the entry's bytes alone (the archive's version keys
 * it): rapified, or text that looked for no include on disk (through a
 * $PBOPREFIX$ folder) and asked no date or time. */
static struct cfg *entry_config(const struct walk *w, const uint8_t *data, size_t len,
                                const char *name, int *oom, int *keyed)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    *keyed = rap_is_rapified(data, len);
    if (*keyed) {
        rap_read(data, len, &c, &err);
    } else {
        /* its game-path includes can only be found through the
         * $PBOPREFIX$ folders (in the generation too): none, no lookup */
        struct resolve r = { w, NULL };
        struct cfg_pp_opts o = { .resolve = w->npre ? resolve_gp : NULL, .arg = &r,
                                 .epoch = w->t->epoch, .work = w->t->cfg.work };
        struct cfg_pp_result pp;
        memset(&pp, 0, sizeof pp);
        if (cfg_pp_text((const char *)data, len, name, NULL, &o, &pp, &err) == 0)
            cfg_parse_text(pp.text.p, pp.text.len, name, &pp.map, &c, &err);
        *keyed = pp.lookups == 0 && !pp.time_used;
        cfg_pp_free(&pp);
    }
    if (!c)
        *oom |= err.code == ENOMEM;
    return c;
}

/* The game paths of archive p's animations (and its prefix), rel its
 * path from the walk's root, into the set of those present. */
static void archive_gamepaths(struct walk *w, const struct pbo *p, const char *rel)
{
    char pre[GP_MAX], gp[GP_MAX + PATH_MAX];
    if (!w->present || gamepath_archive(p, rel, pre, sizeof pre))
        return;
    tree_walk_present(w, NULL, pre, strlen(pre));
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        char where[PATH_MAX + PBO_NAME_MAX + 2];
        int k = snprintf(gp, sizeof gp, "%s\\%s", pre, e->path);
        snprintf(where, sizeof where, "%s/%s", rel, e->path);
        if (!e->cut && tree_is_anim_name(e->path, strlen(e->path)) && k > 0 &&
            (size_t)k < sizeof gp)
            tree_walk_present(w, where, gp, (size_t)k);
    }
}

/* What reading one archive gave, on a reader thread, until the walk's
 * thread adds it (in the walk's order, so that the table is the same
 * however the reads interleave): its table, and its configs parsed and
 * prepared for the table (states.h: rtm_states_prepare), so that adding
 * one is an append. */
struct archive_read {
    struct rtmc_entry *h;       /* the cache's table (SOURCE's archives), or */
    struct pbo *own;            /* one read here (-o configs=); both NULL: none */
    struct entry_cfg {
        struct rtm_states_prepared *p;  /* for the table (NULL: memory ran out) */
        struct cfg_pp_counts pp;        /* what its preprocessing left */
        int keyed;                      /* entry_config's */
    } *cfgs;
    size_t ncfgs;
    struct rtm_fileid id;       /* the version its table is of */
    int configs;                /* it holds configs to read (table read) */
    int oom;
};

/* A reader thread's job: the archives of w->pbos, their configs too,
 * parsed and prepared for table s, unless s is NULL (the game paths
 * present alone). */
struct archive_job {
    const struct walk *w;
    struct archive_read *out;
    struct walk *adder;         /* the walk's thread's view of w, which then */
    struct rtm_states *s;       /* adds each archive's configs to s */
};

static const struct pbo *read_table(const struct archive_read *r)
{
    return r->h ? rtmc_pbo(r->h) : r->own;
}

/* The name of entry e: after the last separator of its path. */
static const char *entry_base(const struct pbo_entry *e)
{
    const char *base = e->path + strlen(e->path);
    while (base > e->path && base[-1] != '/' && base[-1] != '\\')
        base--;
    return base;
}

/* Whether entry e is a config the walk reads. */
static int is_config_entry(const struct pbo_entry *e)
{
    return tree_walk_is_config(entry_base(e)) && pbo_entry_content_size(e) <= CFG_FILE_MAX;
}

/* Archive w->pbos[i]'s configs (its table p read), each one parsed and
 * prepared for table s into r. */
static void archive_configs(const struct walk *w, const struct rtm_states *s, int fd,
                            const char *rel, const struct pbo *p, struct archive_read *r)
{
    struct rtm_work *work = w->t->cfg.work;
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        const char *base = entry_base(e);
        uint8_t *data;
        size_t len;
        struct rtm_error err = { .msg = "" };
        if (!is_config_entry(e))
            continue;
        rtm_work_add(work, RTM_WORK_CONFIGS_READ, 1);
        void *arr = r->cfgs;
        size_t cap = r->ncfgs;          /* grown one at a time: a few a archive */
        if (rtm_array_grow(&arr, &cap, r->ncfgs + 1, sizeof *r->cfgs, 1)) {
            r->oom = 1;
            return;
        }
        r->cfgs = arr;
        if (pbo_load_entry(work, fd, p, i, &data, &len, &err)) {
            r->oom |= err.code == ENOMEM;
            continue;
        }
        struct entry_cfg *ec = &r->cfgs[r->ncfgs];
        struct cfg *c = entry_config(w, data, len, base, &r->oom, &ec->keyed);
        free(data);
        if (!c)
            continue;
        char where[PATH_MAX];           /* its path from the walk's root */
        snprintf(where, sizeof where, "%s/%s", rel, e->path);
        for (char *k = where + strlen(rel); *k; k++)
            if (*k == '\\')
                *k = '/';
        ec->pp = c->pp;
        ec->p = rtm_states_prepare(s, c, where);
        r->ncfgs++;
    }
}

/* Whether table p holds a config the walk reads. */
static int holds_config(const struct pbo *p)
{
    for (size_t i = 0; i < p->nentries; i++)
        if (is_config_entry(&p->entries[i]))
            return 1;
    return 0;
}

/* Archive rel's table into r, of version *id (its stat): through the cache
 * when rel is SOURCE's (-o configs= not given), so that the index gives
 * it without opening the archive and the archive's listing shares it;
 * else, or when the cache has no room for it now (its loads may be the
 * very requests waiting for this walk's table: a small cache_size, a busy
 * machine), read here, 4 KiB first (most tables of mods fit, and a walk
 * reads hundreds).  0, or -1 when there is none (r->oom says if memory
 * ran out). */
static int archive_table(const struct walk *w, const char *rel, struct archive_read *r,
                         struct rtm_fileid *id)
{
    struct rtm_tree *t = w->t;
    struct stat st;
    struct rtm_error err = { .msg = "" };
    if (fstatat(w->rootfd, rel, &st, 0) || !S_ISREG(st.st_mode))
        return -1;
    *id = rtm_fileid_of(&st);
    if (!t->cfg.configs_from) {
        struct rtmc_src ts = { .path = rel, .id = *id, .kind = RTMC_TABLE, .level = RTMC_FULL };
        int rc = rtmc_get(t->cfg.cache, &ts, &r->h);
        if (rc == 0 && !rtmc_pbo(r->h)) {   /* a damaged archive: its folder says why */
            rtmc_put(t->cfg.cache, r->h);
            r->h = NULL;
        }
        if (rc != -ENOMEM)
            return r->h ? 0 : -1;
    }
    int fd = rtm_work_openat(t->cfg.work, w->rootfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    rtm_work_add(t->cfg.work, RTM_WORK_TABLES, fd >= 0);
    int rc = fd < 0 || rtm_fileid_check(fd, id) ||
             pbo_load_table_first(t->cfg.work, fd, 4096, &r->own, &err);
    if (fd >= 0)
        close(fd);
    r->oom = err.code == ENOMEM;
    return rc ? -1 : 0;
}

/* Each config's read is started as soon as its archive's table is read,
 * as a hint (what is read never depends on it).  Read right after its
 * table by the same reader, each config waited for the disk alone, eight
 * at a time; asked for together, they come while the tables are still
 * being read.  So when configs are read, two passes over the archives,
 * each shared by the readers: the tables, each one's configs asked for;
 * then the configs, read, parsed and prepared. */

/* Pass one (tree_each_fn): archive i's table, and when the job reads
 * configs and it holds some, their reads started, if the archive is
 * still the version of its table (else the watcher makes the table built
 * again). */
static void archive_load(void *ctx, size_t i)
{
    const struct archive_job *job = ctx;
    const struct walk *w = job->w;
    struct archive_read *r = &job->out[i];
    if (archive_table(w, w->pbos[i], r, &r->id) || !job->s || !holds_config(read_table(r)))
        return;
    int fd = rtm_work_openat(w->t->cfg.work, w->rootfd, w->pbos[i],
                             O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0 && rtm_fileid_check(fd, &r->id) == 0) {
        const struct pbo *p = read_table(r);
        for (size_t k = 0; k < p->nentries; k++)
            if (is_config_entry(&p->entries[k]))
                posix_fadvise(fd, (off_t)p->entries[k].offset, (off_t)p->entries[k].data_size,
                              POSIX_FADV_WILLNEED);
        r->configs = 1;
    }
    if (fd >= 0)
        close(fd);
}

/* Pass two (tree_each_fn): archive i's configs, parsed and prepared for
 * the job's table. */
static void archive_load_configs(void *ctx, size_t i)
{
    const struct archive_job *job = ctx;
    const struct walk *w = job->w;
    struct archive_read *r = &job->out[i];
    if (!r->configs)
        return;
    int fd = rtm_work_openat(w->t->cfg.work, w->rootfd, w->pbos[i],
                             O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0 && rtm_fileid_check(fd, &r->id) == 0)
        archive_configs(w, job->s, fd, w->pbos[i], read_table(r), r);
    if (fd >= 0)
        close(fd);
}

/* Adds what reading archive i gave to the walk: its game paths, and its
 * configs into s (NULL: none read); frees it.  On the walk's thread. */
static void archive_add(void *ctx, size_t i)
{
    const struct archive_job *job = ctx;
    struct walk *w = job->adder;
    struct rtm_states *s = job->s;
    struct archive_read *r = &job->out[i];
    tree_walk_failed(w, r->oom);
    if (read_table(r))
        archive_gamepaths(w, read_table(r), w->pbos[i]);
    for (size_t k = 0; k < r->ncfgs; k++)        /* s: configs were read */
        config_read(w, s, &r->cfgs[k].pp, r->cfgs[k].p, r->cfgs[k].keyed);
    free(r->cfgs);
    rtmc_put(w->t->cfg.cache, r->h);
    pbo_free(r->own);
}

/* Every archive of the walk, read by a few threads (their reads overlap,
 * their configs are parsed and prepared on every core), and added in the
 * walk's order as they come: their configs into s unless it is NULL.
 * The readers only read w (job.w) and what rtm_states_check_later chose
 * of s, while the walk's thread adds to them (job.adder, s): what they
 * read, the walk's lists and root, adding does not change. */
void tree_walk_read_archives(struct walk *w, struct rtm_states *s)
{
    enum { READERS = 8 };               /* reads a disk overlaps well */
    struct archive_read *out = w->npbos ? calloc(w->npbos, sizeof *out) : NULL;
    if (!out) {
        tree_walk_failed(w, w->npbos != 0);
        return;
    }
    struct archive_job job = { w, out, w, s };
    if (s) {
        tree_states_each(w->npbos, READERS, archive_load, NULL, &job);
        tree_states_each(w->npbos, READERS, archive_load_configs, archive_add, &job);
    } else {
        tree_states_each(w->npbos, READERS, archive_load, archive_add, &job);
    }
    free(out);
}
