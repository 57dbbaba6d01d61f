/* tree_states_walk.c - finding and reading the configs under SOURCE for
 * the mount's table of config states (tree_states.c): the walk, the
 * configs of archives and of $PBOPREFIX$ folders, the index's table when
 * it has this generation, and the game paths present (missing.txt).
 * Tier 2 of the tree (tree_states.h).
 *
 * Configs read: every config.bin or config.cpp (any case), at any depth of
 * an archive under SOURCE, or of a folder below a $PBOPREFIX$; a text one
 * preprocessed, its game-path includes found through the $PBOPREFIX$
 * folders under SOURCE, then through the project around it (gamepath.h:
 * its addons/ and include/ folders). */
#include "tree_states.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cfg_pp.h"
#include "gamepath.h"
#include "skeleton_cfg.h"
#include "states.h"
#include "states_missing.h"

enum { WALK_DEPTH_MAX = 64, GP_MAX = RTM_STATES_KEY_MAX };

/* ---- finding the configs ---- */

struct prefix {
    char *gp;                   /* normalised */
    char *dir;                  /* absolute */
    size_t rel_len;             /* of the folder's path from the walk's root */
};

struct walk {
    struct rtm_tree *t;
    int rootfd;                 /* the folder paths are relative to */
    char root[PATH_MAX];        /* that folder, absolute */
    struct prefix *pre;
    size_t npre, cappre;
    char **loose;               /* configs below a $PBOPREFIX$, from SOURCE */
    size_t nloose, caploose;
    char **pbos;                /* archives, from SOURCE */
    size_t npbos, cappbos;
    struct timespec newest;     /* of those configs and archives */
    struct rtm_gamepaths *present;  /* or NULL: game paths of the animations
                                       and prefixes met (missing.txt) */
    char **gen;                 /* each archive's and config's path and
                                   version: the generation (tree_states_index.c) */
    size_t ngen, capgen;
    int gen_lost;               /* memory ran out making it */
    int oom;                    /* memory ran out walking or reading: what
                                   was left out is not known to be absent,
                                   so nothing made of the walk is kept */
    int text_configs;           /* configs read that were text, not rapified */
    struct cfg_pp_counts left;  /* what their preprocessing left as written */
};

static int push(char ***arr, size_t *n, size_t *cap, const char *s)
{
    void *q = *arr;
    if (rtm_array_grow(&q, cap, *n + 1, sizeof **arr, 16))
        return -ENOMEM;
    *arr = q;
    if (!((*arr)[*n] = strdup(s)))
        return -ENOMEM;
    (*n)++;
    return 0;
}

/* What w was walking or reading failed; out of memory taints the walk. */
static void walk_failed(struct walk *w, int oom)
{
    w->oom |= oom != 0;
}

/* push into w's lists, out of memory noted. */
static void walk_push(struct walk *w, char ***arr, size_t *n, size_t *cap, const char *s)
{
    walk_failed(w, push(arr, n, cap, s));
}

/* A game path into w->present (where: the animation's path in SOURCE, as
 * the root check.txt resolves it; "" for a prefix, or when the walk is
 * not of SOURCE's own tree), out of memory noted. */
static void walk_present(struct walk *w, const char *where, const char *gp, size_t len)
{
    int own = w->rootfd == w->t->cfg.srcfd && !w->t->file;
    if (w->present)
        walk_failed(w, !where ? rtm_gamepaths_add_prefix(w->present, gp, len)
                              : rtm_gamepaths_add_file(w->present, gp, len, own ? where : ""));
}

/* The configs read: config.bin and config.cpp for their states, and
 * model.cfg for its CfgSkeletons (the skeleton a state's class names, for
 * the root check.txt).  Any case, on disk too: these are configs, named
 * by the configs' rule (rtmfs-views(7)), not a side file beside an
 * animation, whose name rule is sides.h's. */
static int is_config_name(const char *name)
{
    return strcasecmp(name, "config.bin") == 0 || strcasecmp(name, "config.cpp") == 0 ||
           strcasecmp(name, RTM_MODEL_CFG) == 0;
}

/* Adds folder rel's $PBOPREFIX$: its place in w->pre, or -1. */
static long add_prefix(struct walk *w, int dfd, const char *rel)
{
    char text[1024], gp[GP_MAX], dir[PATH_MAX];
    struct rtm_work *work = w->t->cfg.work;
    int fd = rtm_work_openat(work, dfd, "$PBOPREFIX$", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    ssize_t n = rtm_work_pread(work, fd, text, sizeof text, 0);
    close(fd);
    if (n <= 0 || gamepath_pboprefix(text, (size_t)n, gp, sizeof gp) ||
        rtm_path_join(dir, sizeof dir, w->root, rel))
        return -1;
    void *q = w->pre;
    if (rtm_array_grow(&q, &w->cappre, w->npre + 1, sizeof *w->pre, 16)) {
        walk_failed(w, 1);
        return -1;
    }
    w->pre = q;
    struct prefix p = { strdup(gp), strdup(dir), strlen(rel) };
    if (!p.gp || !p.dir) {
        free(p.gp);
        free(p.dir);
        walk_failed(w, 1);
        return -1;
    }
    walk_present(w, NULL, gp, strlen(gp));
    w->pre[w->npre++] = p;
    return (long)w->npre - 1;
}

/* A loose animation at path (from the walk's root) below prefix pre:
 * its game path into the set of those present. */
static void add_loose_anim(struct walk *w, long pre, const char *path)
{
    char gp[GP_MAX + PATH_MAX];
    if (!w->present || pre < 0)
        return;
    const struct prefix *p = &w->pre[pre];
    int k = snprintf(gp, sizeof gp, "%s\\%s", p->gp, path + p->rel_len);
    if (k > 0 && (size_t)k < sizeof gp)
        walk_present(w, path, gp, (size_t)k);   /* '/' is '\\' there */
}

/* An archive or config met at path, of stat st: its time and version. */
static void walk_met(struct walk *w, const char *path, const struct stat *st)
{
    char *g = tree_states_gen_entry(path, st);
    w->newest = tree_later(w->newest, st->st_mtim);
    if (!g || push(&w->gen, &w->ngen, &w->capgen, g))
        w->gen_lost = 1;                /* no generation: not remembered */
    free(g);
}

static void walk_sub(struct walk *w, int dfd, const char *name, const char *path, int under,
                     long pre, int depth);

/* Whether folder d holds $PBOPREFIX$, from its listing (a lookup of a name
 * that is not there costs more, cold), rewound after. */
static int has_prefix_file(DIR *d)
{
    struct dirent *de;
    int found = 0;
    while (!found && (de = readdir(d)))
        found = strcmp(de->d_name, "$PBOPREFIX$") == 0;
    rewinddir(d);
    return found;
}

/* Walks folder rel (dfd open on it; under: a $PBOPREFIX$ is at or above
 * it, pre the nearest one's place in w->pre, or -1 when it gives none):
 * archives, loose configs and prefixes (and, for missing.txt, loose
 * animations).  What cannot be read is left out: a config the game could
 * not read either plays nothing. */
static void walk_dir(struct walk *w, int dfd, const char *rel, int under, long pre, int depth)
{
    if (w->rootfd == w->t->cfg.srcfd && !w->t->file)
        tree_watch(w->t, rel);          /* a config changed here changes what is read */
    DIR *d = fdopendir(dfd);
    if (!d) {
        walk_failed(w, errno == ENOMEM);
        close(dfd);
        return;
    }
    if (has_prefix_file(d)) {
        under = 1;
        pre = add_prefix(w, dfd, rel);
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        char path[PATH_MAX];
        struct stat st;
        size_t n = strlen(de->d_name);
        int pbo = rtm_name_ends(de->d_name, n, ".pbo"), cfg = under && is_config_name(de->d_name);
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            rtm_path_join(path, sizeof path, rel, de->d_name) ||
            (w->rootfd == w->t->cfg.srcfd && w->t->hidden && !strcmp(path, w->t->hidden)))
            continue;
        /* readdir's type spares a stat where it says enough: a later
         * mount's first states.txt is this walk, cold */
        if (de->d_type == DT_DIR) {
            walk_sub(w, dfd, de->d_name, path, under, pre, depth);
            continue;
        }
        if (de->d_type == DT_REG && !pbo && !cfg) {
            if (under && tree_is_anim_name(de->d_name, n))
                add_loose_anim(w, pre, path);
            continue;
        }
        if (fstatat(dfd, de->d_name, &st, 0) != 0)
            continue;
        if (S_ISDIR(st.st_mode) &&
            fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
            walk_sub(w, dfd, de->d_name, path, under, pre, depth);
        } else if (S_ISREG(st.st_mode)) {
            if (pbo)
                walk_push(w, &w->pbos, &w->npbos, &w->cappbos, path);
            else if (cfg)
                walk_push(w, &w->loose, &w->nloose, &w->caploose, path);
            if (pbo || cfg)
                walk_met(w, path, &st);
            if (under && tree_is_anim_name(de->d_name, n))
                add_loose_anim(w, pre, path);
        }
    }
    closedir(d);
}

/* Walks subfolder name (at path) of folder dfd, unless too deep. */
static void walk_sub(struct walk *w, int dfd, const char *name, const char *path, int under,
                     long pre, int depth)
{
    if (depth >= WALK_DEPTH_MAX)
        return;
    int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub >= 0)
        walk_dir(w, sub, path, under, pre, depth + 1);
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

/* Config c, read from rel (rapified or text), into table s. */
static void config_read(struct walk *w, struct rtm_states *s, struct cfg *c, const char *rel,
                        int rapified)
{
    w->text_configs += !rapified;       /* its includes may change without it */
    w->left.eval += c->pp.eval, w->left.exec += c->pp.exec;
    w->left.undefined_call += c->pp.undefined_call;
    w->left.missing_include += c->pp.missing_include, w->left.other += c->pp.other;
    atomic_fetch_add(&w->t->states->parsed, 1);
    rtm_work_add(w->t->cfg.work, RTM_WORK_CONFIGS_PARSED, 1);
    walk_failed(w, rtm_states_add(s, c, rel));
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

static void read_loose(struct walk *w, struct rtm_states *s, const char *rel)
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
    if (cfg_load_file(path, &o, &c, &err) == 0)
        config_read(w, s, c, rel, rapified_file(w->t->cfg.work, path));
    else
        walk_failed(w, err.code == ENOMEM);
    gamepath_project_free(r.pr);
}

/* A config that is an archive's entry: rapified, or text preprocessed
 * without a folder (its includes are in the archive, out of reach).  On
 * a reader thread: w is only read; *oom set when memory ran out. */
static struct cfg *entry_config(const struct walk *w, const uint8_t *data, size_t len,
                                const char *name, int *oom)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (rap_is_rapified(data, len)) {
        rap_read(data, len, &c, &err);
    } else {
        struct resolve r = { w, NULL };
        struct cfg_pp_opts o = { .resolve = resolve_gp, .arg = &r, .epoch = w->t->epoch,
                                 .work = w->t->cfg.work };
        struct cfg_pp_result pp;
        memset(&pp, 0, sizeof pp);
        if (cfg_pp_text((const char *)data, len, name, NULL, &o, &pp, &err) == 0)
            cfg_parse_text(pp.text.p, pp.text.len, name, &pp.map, &c, &err);
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
    walk_present(w, NULL, pre, strlen(pre));
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        char where[PATH_MAX + PBO_NAME_MAX + 2];
        int k = snprintf(gp, sizeof gp, "%s\\%s", pre, e->path);
        snprintf(where, sizeof where, "%s/%s", rel, e->path);
        if (!e->cut && tree_is_anim_name(e->path, strlen(e->path)) && k > 0 &&
            (size_t)k < sizeof gp)
            walk_present(w, where, gp, (size_t)k);
    }
}

/* What reading one archive gave, on a reader thread, until the walk's
 * thread adds it (in the walk's order, so that the table is the same
 * however the reads interleave): its table and its configs, parsed. */
struct archive_read {
    struct rtmc_entry *h;       /* the cache's table (SOURCE's archives), or */
    struct pbo *own;            /* one read here (-o configs=); both NULL: none */
    struct entry_cfg {
        struct cfg *c;
        char where[PATH_MAX];   /* its path from the walk's root */
        int rapified;
    } *cfgs;
    size_t ncfgs;
    int oom;
};

/* A reader thread's job: the archives of w->pbos, their configs too
 * unless configs is 0 (the game paths present alone). */
struct archive_job {
    const struct walk *w;
    struct archive_read *out;
    int configs;
};

static const struct pbo *read_table(const struct archive_read *r)
{
    return r->h ? rtmc_pbo(r->h) : r->own;
}

/* Archive w->pbos[i]'s configs (its table p read), each one parsed into r. */
static void archive_configs(const struct walk *w, int fd, const char *rel,
                            const struct pbo *p, struct archive_read *r)
{
    struct rtm_work *work = w->t->cfg.work;
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        const char *base = e->path + strlen(e->path);
        while (base > e->path && base[-1] != '/' && base[-1] != '\\')
            base--;                     /* the name: after the last separator */
        uint8_t *data;
        size_t len;
        struct rtm_error err = { .msg = "" };
        if (!is_config_name(base) || pbo_entry_content_size(e) > CFG_FILE_MAX)
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
        ec->rapified = rap_is_rapified(data, len);
        ec->c = entry_config(w, data, len, base, &r->oom);
        free(data);
        snprintf(ec->where, sizeof ec->where, "%s/%s", rel, e->path);
        for (char *k = ec->where + strlen(rel); *k; k++)
            if (*k == '\\')
                *k = '/';
        r->ncfgs += ec->c != NULL;
    }
}

/* Whether table p holds a config the walk reads. */
static int holds_config(const struct pbo *p)
{
    for (size_t i = 0; i < p->nentries; i++) {
        const char *path = p->entries[i].path, *base = path + strlen(path);
        while (base > path && base[-1] != '/' && base[-1] != '\\')
            base--;
        if (is_config_name(base))
            return 1;
    }
    return 0;
}

/* Archive rel's table into r, of version *id (its stat): through the cache
 * when rel is SOURCE's (-o configs= not given), so that the index gives
 * it without opening the archive and the archive's listing shares it;
 * else read here, 4 KiB first (most tables of mods fit, and a walk reads
 * hundreds).  0, or -1 when there is none (r->oom says if memory ran out). */
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
        r->oom = rc == -ENOMEM;
        if (rc == 0 && !rtmc_pbo(r->h)) {   /* a damaged archive: its folder says why */
            rtmc_put(t->cfg.cache, r->h);
            r->h = NULL;
        }
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

/* Reads archive i of the job's walk (tree_each_fn): its table, and its
 * configs if asked, from the archive opened only when it holds one and
 * read only if it is still the version of its table (else the watcher
 * makes the table built again). */
static void archive_load(void *ctx, size_t i)
{
    const struct archive_job *job = ctx;
    const struct walk *w = job->w;
    struct archive_read *r = &job->out[i];
    struct rtm_fileid id;
    if (archive_table(w, w->pbos[i], r, &id) || !job->configs || !holds_config(read_table(r)))
        return;
    int fd = rtm_work_openat(w->t->cfg.work, w->rootfd, w->pbos[i],
                             O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0 && rtm_fileid_check(fd, &id) == 0)
        archive_configs(w, fd, w->pbos[i], read_table(r), r);
    if (fd >= 0)
        close(fd);
}

/* Adds what reading archive i gave to the walk: its game paths, and its
 * configs into s (NULL: none read); frees it. */
static void archive_add(struct walk *w, struct rtm_states *s, size_t i, struct archive_read *r)
{
    walk_failed(w, r->oom);
    if (read_table(r))
        archive_gamepaths(w, read_table(r), w->pbos[i]);
    for (size_t k = 0; k < r->ncfgs; k++) {
        if (s)
            config_read(w, s, r->cfgs[k].c, r->cfgs[k].where, r->cfgs[k].rapified);
        else
            cfg_free(r->cfgs[k].c);
    }
    free(r->cfgs);
    rtmc_put(w->t->cfg.cache, r->h);
    pbo_free(r->own);
}

/* Every archive of the walk, read by a few threads (their reads overlap,
 * their configs parse on every core), then added in the walk's order:
 * their configs into s unless it is NULL. */
static void read_archives(struct walk *w, struct rtm_states *s)
{
    enum { READERS = 8 };               /* reads a disk overlaps well */
    struct archive_read *out = w->npbos ? calloc(w->npbos, sizeof *out) : NULL;
    if (!out) {
        walk_failed(w, w->npbos != 0);
        return;
    }
    struct archive_job job = { w, out, s != NULL };
    tree_states_each(w->npbos, READERS, archive_load, &job);
    for (size_t i = 0; i < w->npbos; i++)
        archive_add(w, s, i, &out[i]);
    free(out);
}

static void walk_free(struct walk *w)
{
    for (size_t i = 0; i < w->npre; i++) {
        free(w->pre[i].gp);
        free(w->pre[i].dir);
    }
    for (size_t i = 0; i < w->nloose; i++)
        free(w->loose[i]);
    for (size_t i = 0; i < w->npbos; i++)
        free(w->pbos[i]);
    for (size_t i = 0; i < w->ngen; i++)
        free(w->gen[i]);
    free(w->gen);
    free(w->pre);
    free(w->loose);
    free(w->pbos);
}

/* Where the configs are: the folder (w->rootfd, w->root) their paths are
 * relative to, and *file, an archive in it that holds them all (NULL: the
 * whole folder).  0, or -1 when there are none to read. */
static int config_root(struct rtm_tree *t, struct walk *w, const char **file, char *tmp)
{
    const char *from = t->cfg.configs_from;
    struct stat st;
    *file = t->file;
    if (!from) {
        w->rootfd = t->cfg.srcfd;
        snprintf(tmp, PATH_MAX, "/proc/self/fd/%d", t->cfg.srcfd);
        return realpath(tmp, w->root) ? 0 : -1;
    }
    if (!*from || stat(from, &st) || !realpath(from, w->root))
        return -1;
    *file = NULL;
    if (!S_ISDIR(st.st_mode)) {         /* an archive: its folder, and its name */
        char *slash = strrchr(w->root, '/');
        snprintf(tmp, PATH_MAX, "%s", slash + 1);
        *file = tmp;
        *slash = 0;
        if (!*w->root)
            strcpy(w->root, "/");
    }
    w->rootfd = open(w->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return w->rootfd < 0 ? -1 : 0;
}

/* Walks where config_root says into w (w->t and w->present set): 0, or
 * -1 when there is nothing to read there. */
static int walk_configs(struct rtm_tree *t, struct walk *w)
{
    char tmp[PATH_MAX];
    const char *file;
    w->rootfd = -1;
    if (config_root(t, w, &file, tmp)) {
        if (w->rootfd >= 0 && w->rootfd != t->cfg.srcfd)
            close(w->rootfd);
        w->rootfd = -1;
        return -1;
    }
    if (file) {
        struct stat st;
        if (rtm_name_ends(file, strlen(file), ".pbo") && fstatat(w->rootfd, file, &st, 0) == 0) {
            walk_push(w, &w->pbos, &w->npbos, &w->cappbos, file);
            walk_met(w, file, &st);
        }
    } else {
        int dfd = openat(w->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0)
            walk_dir(w, dfd, "", 0, -1, 0);
    }
    return 0;
}

/* Says, once a mount, what the configs' preprocessing left as written. */
static void say_left(struct rtm_tree *t, const struct walk *w)
{
    struct rtm_buf note;
    rtm_buf_init(&note);
    cfg_pp_note(&w->left, &note);
    if (note.len && t->cfg.log && !atomic_exchange(&t->said_left, 1)) {
        rtm_buf_putc(&note, 0);
        char line[512];
        snprintf(line, sizeof line, "configs read for states.txt: %s", note.p + 10);
        line[strcspn(line, "\n")] = 0;
        t->cfg.log(t->cfg.log_ctx, line);
    }
    rtm_buf_free(&note);
}

/* Ends a walk: its folder and lists. */
static void walk_end(struct rtm_tree *t, struct walk *w)
{
    say_left(t, w);
    if (w->rootfd >= 0 && w->rootfd != t->cfg.srcfd)
        close(w->rootfd);
    walk_free(w);
}

/* Remembers table s of generation gen (the tree's from now on); a
 * generation this mount remembered before is dropped: SOURCE left it. */
static void remember(struct tree_states *ts, const struct rtm_store *ix, char *gen,
                     const struct rtm_states *s)
{
    if (ts->gen && strcmp(ts->gen, gen))
        tree_states_forget(ix, ts->gen);
    tree_states_remember(ix, gen, s);
    free(ts->gen);
    ts->gen = gen;
}

/* Every config where config_root says, as a table; the newest of their
 * times into *newest.  NULL when memory ran out while it was made (a
 * config left out for want of memory would make a wrong table): built
 * again at its need.  The game paths present are not gathered here:
 * only missing.txt and check.txt need them (tree_states_build_present),
 * and gathering 20,000 animations' game paths cost the first view of a
 * big install a fifth of its time. */
struct rtm_states *tree_states_build(struct rtm_tree *t, struct timespec *newest)
{
    struct walk w = { .t = t, .rootfd = -1 };
    struct rtm_states *s = NULL;
    const struct rtm_store *ix = t->cfg.store ? *t->cfg.store : NULL;
    char *gen = NULL;
    if (walk_configs(t, &w)) {
        walk_end(t, &w);                /* no configs to read: states.txt says none */
        return rtm_states_new();
    }
    if (ix && !w.gen_lost)
        gen = tree_states_gen(w.root, w.gen, w.ngen);
    if (gen && tree_states_recall(ix, gen, &s) == 0) {
        atomic_fetch_add(&t->states->remembered, 1);
        free(t->states->gen);           /* the generation this mount sees */
        t->states->gen = gen;
        gen = NULL;
    } else if ((s = rtm_states_new())) {
        read_archives(&w, s);
        for (size_t i = 0; i < w.nloose; i++)
            read_loose(&w, s, w.loose[i]);
        int rc = rtm_states_finish(s) || w.oom;
        rtmc_trim(t->cfg.cache);        /* the configs read are freed, between live blocks */
        if (rc) {
            rtm_states_free(s);
            s = NULL;
        } else if (gen && !w.text_configs) {
            remember(t->states, ix, gen, s);
            gen = NULL;
        }
    }
    free(gen);
    *newest = w.newest;
    walk_end(t, &w);
    return s;
}

/* The game paths present where config_root says (missing.txt), without
 * reading a config, or NULL when memory ran out; the newest time of the
 * archives and configs met into *newest. */
struct rtm_gamepaths *tree_states_build_present(struct rtm_tree *t, struct timespec *newest)
{
    struct walk w = { .t = t, .rootfd = -1, .present = rtm_gamepaths_new() };
    if (w.present && walk_configs(t, &w) == 0)
        read_archives(&w, NULL);
    *newest = w.newest;
    walk_end(t, &w);
    if (w.oom) {                        /* built again at the next need */
        rtm_gamepaths_free(w.present);
        w.present = NULL;
    }
    if (w.present)
        rtm_gamepaths_finish(w.present);
    return w.present;
}
