/* tree_states.c - the mount's table of config states (states.h) and each
 * animation's states.txt: which configs are read, when, and the game path
 * of an animation.  Part of the tree layer (tree.h, tree_int.h).
 *
 * Configs read: every config.bin or config.cpp (any case), at any depth of
 * an archive under SOURCE, or of a folder below a $PBOPREFIX$; a text one
 * preprocessed, its game-path includes found through the $PBOPREFIX$
 * folders under SOURCE, then through the project around it (gamepath.h:
 * its addons/ and include/ folders).  The table is built the first time a
 * states.txt is asked for (stat or read), never at mount time, and built
 * again at the next need after SOURCE changed anything but an animation
 * (rtm_tree_changed): the text is never kept anywhere else, so nothing
 * older than the table is ever served.  preview.svg and anim.bvh take
 * their timing (timing.h) from the same table, at the same times. */
#include "tree_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cfg_pp.h"
#include "gamepath.h"
#include "states.h"
#include "timing.h"

enum { WALK_DEPTH_MAX = 64, GP_MAX = 1024 };

struct tree_states {
    pthread_mutex_t lock;
    struct rtm_states *table;   /* NULL until first needed */
    atomic_int dirty;           /* SOURCE changed since it was built */
    /* every states.txt's time, at least: the newest config or archive
     * read, or when it was built again after a change (an include or a
     * config gone may change lines without a newer file) */
    struct timespec time;
};

int tree_states_new(struct rtm_tree *t)
{
    if (!(t->states = calloc(1, sizeof *t->states)))
        return -1;
    pthread_mutex_init(&t->states->lock, NULL);
    return 0;
}

void tree_states_free(struct rtm_tree *t)
{
    if (!t->states)
        return;
    rtm_states_free(t->states->table);
    pthread_mutex_destroy(&t->states->lock);
    free(t->states);
    t->states = NULL;
}

void tree_states_changed(struct rtm_tree *t, const char *name)
{
    /* an animation changes its own views only; anything else may be a
     * config, an include, an archive or a folder holding them */
    if (t->states && !(name && tree_is_rtm_name(name, strlen(name))))
        atomic_store(&t->states->dirty, 1);
}

/* ---- finding the configs ---- */

struct prefix {
    char *gp;                   /* normalised */
    char *dir;                  /* absolute */
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
};

static int push(char ***arr, size_t *n, size_t *cap, const char *s)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        char **q = realloc(*arr, nc * sizeof *q);
        if (!q)
            return -1;
        *arr = q;
        *cap = nc;
    }
    if (!((*arr)[*n] = strdup(s)))
        return -1;
    (*n)++;
    return 0;
}

static int is_config_name(const char *name)
{
    return strcasecmp(name, "config.bin") == 0 || strcasecmp(name, "config.cpp") == 0;
}

static void add_prefix(struct walk *w, int dfd, const char *rel)
{
    char text[1024], gp[GP_MAX], dir[PATH_MAX];
    int fd = openat(dfd, "$PBOPREFIX$", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return;
    ssize_t n = rtm_pread_full(fd, text, sizeof text, 0);
    close(fd);
    if (n <= 0 || gamepath_pboprefix(text, (size_t)n, gp, sizeof gp) ||
        rtm_path_join(dir, sizeof dir, w->root, rel))
        return;
    if (w->npre == w->cappre) {
        size_t nc = w->cappre ? w->cappre * 2 : 16;
        struct prefix *q = realloc(w->pre, nc * sizeof *q);
        if (!q)
            return;                     /* its includes are not found: counted */
        w->pre = q;
        w->cappre = nc;
    }
    struct prefix p = { strdup(gp), strdup(dir) };
    if (!p.gp || !p.dir) {
        free(p.gp);
        free(p.dir);
        return;
    }
    w->pre[w->npre++] = p;
}

/* Walks folder rel (dfd open on it; under: a $PBOPREFIX$ is at or above
 * it): archives, loose configs and prefixes.  What cannot be read is left
 * out: a config the game could not read either plays nothing. */
static void walk_dir(struct walk *w, int dfd, const char *rel, int under, int depth)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    if (faccessat(dfd, "$PBOPREFIX$", F_OK, 0) == 0) {
        under = 1;
        add_prefix(w, dfd, rel);
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        char path[PATH_MAX];
        struct stat st;
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            rtm_path_join(path, sizeof path, rel, de->d_name) ||
            (w->rootfd == w->t->cfg.srcfd && w->t->hidden && !strcmp(path, w->t->hidden)) ||
            fstatat(dfd, de->d_name, &st, 0) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth < WALK_DEPTH_MAX &&
            fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
            int sub = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (sub >= 0)
                walk_dir(w, sub, path, under, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            size_t n = strlen(de->d_name);
            int pbo = rtm_name_ends(de->d_name, n, ".pbo");
            if (pbo)
                push(&w->pbos, &w->npbos, &w->cappbos, path);
            else if (under && is_config_name(de->d_name))
                push(&w->loose, &w->nloose, &w->caploose, path);
            if (pbo || (under && is_config_name(de->d_name)))
                w->newest = tree_later(w->newest, st.st_mtim);
        }
    }
    closedir(d);
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

static void read_loose(struct walk *w, struct rtm_states *s, const char *rel)
{
    char path[PATH_MAX];
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (rtm_path_join(path, sizeof path, w->root, rel))
        return;
    struct resolve r = { w, NULL };
    gamepath_project_open(path, &r.pr);
    struct cfg_pp_opts o = { resolve_gp, &r, r.pr ? gamepath_project_include(r.pr) : NULL, 0 };
    if (cfg_load_file(path, &o, &c, &err) == 0)
        rtm_states_add(s, c, rel);
    gamepath_project_free(r.pr);
}

/* A config that is an archive's entry: rapified, or text preprocessed
 * without a folder (its includes are in the archive, out of reach). */
static struct cfg *entry_config(const struct walk *w, const uint8_t *data, size_t len,
                                const char *name)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (rap_is_rapified(data, len)) {
        rap_read(data, len, &c, &err);
        return c;
    }
    struct resolve r = { w, NULL };
    struct cfg_pp_opts o = { resolve_gp, &r, NULL, 0 };
    struct cfg_pp_result pp;
    memset(&pp, 0, sizeof pp);
    if (cfg_pp_text((const char *)data, len, name, NULL, &o, &pp, &err) == 0)
        cfg_parse_text(pp.text.p, pp.text.len, name, &pp.map, &c, &err);
    cfg_pp_free(&pp);
    return c;
}

static void read_archive(struct walk *w, struct rtm_states *s, const char *rel)
{
    struct pbo *p = NULL;
    struct rtm_error err = { .msg = "" };
    int fd = openat(w->rootfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 || pbo_load_table(fd, &p, &err)) {
        if (fd >= 0)
            close(fd);
        return;
    }
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        const char *base = e->path + strlen(e->path);
        while (base > e->path && base[-1] != '/' && base[-1] != '\\')
            base--;                     /* the name: after the last separator */
        uint8_t *data;
        size_t len;
        char where[PATH_MAX];
        if (!is_config_name(base) || pbo_entry_content_size(e) > CFG_FILE_MAX ||
            pbo_load_entry(fd, p, i, &data, &len, &err))
            continue;
        struct cfg *c = entry_config(w, data, len, base);
        free(data);
        snprintf(where, sizeof where, "%s/%s", rel, e->path);
        for (char *k = where + strlen(rel); *k; k++)
            if (*k == '\\')
                *k = '/';
        if (c)
            rtm_states_add(s, c, where);
    }
    pbo_free(p);
    close(fd);
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

/* Every config where config_root says, as a table; the newest of their
 * times into *newest. */
static struct rtm_states *build(struct rtm_tree *t, struct timespec *newest)
{
    char tmp[PATH_MAX];
    const char *file;
    struct walk w = { .t = t, .rootfd = -1 };
    struct rtm_states *s = rtm_states_new();
    if (!s || config_root(t, &w, &file, tmp)) {
        if (w.rootfd >= 0 && w.rootfd != t->cfg.srcfd)
            close(w.rootfd);
        return s;                       /* no configs to read: states.txt says none */
    }
    if (file) {
        struct stat st;
        if (rtm_name_ends(file, strlen(file), ".pbo") && fstatat(w.rootfd, file, &st, 0) == 0) {
            push(&w.pbos, &w.npbos, &w.cappbos, file);
            w.newest = st.st_mtim;
        }
    } else {
        int dfd = openat(w.rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0)
            walk_dir(&w, dfd, "", 0, 0);
    }
    for (size_t i = 0; i < w.npbos; i++)
        read_archive(&w, s, w.pbos[i]);
    for (size_t i = 0; i < w.nloose; i++)
        read_loose(&w, s, w.loose[i]);
    if (w.rootfd != t->cfg.srcfd)
        close(w.rootfd);
    *newest = w.newest;
    walk_free(&w);
    if (rtm_states_finish(s)) {
        rtm_states_free(s);
        return NULL;
    }
    return s;
}

/* ---- states.txt ---- */

/* The game path of animation tg into out: 0, or -1 when it has none. */
static int anim_gamepath(struct rtm_tree *t, const struct tree_target *tg, char *out, size_t n)
{
    char path[PATH_MAX + 64], gp[GP_MAX];
    if (tg->entry >= 0) {
        const struct pbo *p = rtmc_pbo(tg->table);
        if (!p || gamepath_archive(p, tg->src, gp, sizeof gp))
            return -1;
        int k = snprintf(path, sizeof path, "%s\\%s", gp, p->entries[tg->entry].path);
        return k < 0 || (size_t)k >= sizeof path || gamepath_norm(path, (size_t)k, out, n) < 0
                   ? -1 : 0;
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d/%s", t->cfg.srcfd, tg->src);
    return gamepath_loose(path, out, n, NULL, 0);
}

/* The table, built first when it is not (or no longer) up to date
 * (lock held); NULL with -o configs=none.  ready: -EAGAIN instead of a
 * build (*rc). */
static const struct rtm_states *table_locked(struct rtm_tree *t, int ready, int *rc)
{
    struct tree_states *ts = t->states;
    *rc = 0;
    if (t->cfg.configs_none)
        return NULL;
    if (ready && (!ts->table || atomic_load(&ts->dirty))) {
        *rc = -EAGAIN;
        return NULL;
    }
    int dirty = atomic_exchange(&ts->dirty, 0);
    if (!ts->table || dirty) {
        struct timespec now = { 0, 0 };
        if (ts->table)
            clock_gettime(CLOCK_REALTIME, &now);
        rtm_states_free(ts->table);
        ts->table = build(t, &ts->time);
        ts->time = tree_later(ts->time, now);
    }
    return ts->table;
}

int tree_states_text(struct rtm_tree *t, const struct tree_target *tg, struct rtm_buf *b,
                     struct timespec *when)
{
    char gp[GP_MAX];
    int has = anim_gamepath(t, tg, gp, sizeof gp) == 0, rc;
    struct tree_states *ts = t->states;
    buf_init(b);
    *when = tg->st.st_mtim;
    pthread_mutex_lock(&ts->lock);
    const struct rtm_states *table = table_locked(t, 0, &rc);
    if (table)
        *when = tree_later(*when, ts->time);
    rtm_states_render(table, has ? gp : NULL, b);
    pthread_mutex_unlock(&ts->lock);
    if (b->oom) {
        buf_free(b);
        return -ENOMEM;
    }
    return 0;
}

int tree_states_follow(const struct rtm_tree *t, const struct tree_target *tg)
{
    return tg->kind == TK_VIEW && rtm_view_timed(tg->view.kind) && !t->cfg.configs_none &&
           !t->cfg.timing_frames;
}

int tree_states_timing(struct rtm_tree *t, const struct tree_target *tg, int ready,
                       struct rtm_timing *tm, struct timespec *when)
{
    char gp[GP_MAX];
    const struct rtm_anim *a = tg->h ? rtmc_anim(tg->h) : NULL;
    int rc = 0;
    rtm_timing_alone(tm);               /* no configs read: the file alone */
    if (!tree_states_follow(t, tg) || !a)
        return 0;
    if (anim_gamepath(t, tg, gp, sizeof gp)) {
        rtm_timing_decide(NULL, 0, a->nframes, tm); /* no game path: no state plays it */
        return 0;
    }
    pthread_mutex_lock(&t->states->lock);
    const struct rtm_states *table = table_locked(t, ready, &rc);
    rtm_states_timing(table, gp, a->nframes, tm);
    if (when && table)
        *when = tree_later(*when, t->states->time);
    pthread_mutex_unlock(&t->states->lock);
    return rc;
}
