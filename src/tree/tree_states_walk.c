/* tree_states_walk.c - finding the configs under SOURCE for the mount's
 * table of config states (tree_states.c): the walk, the archives and the
 * $PBOPREFIX$ folders met, the index's table when it has this generation,
 * and the game paths present (missing.txt); tree_states_read.c reads what
 * it found.  Tier 2 of the tree (tree_states.h).
 *
 * Configs found: every config.bin or config.cpp (any case), at any depth
 * of an archive under SOURCE, or of a folder below a $PBOPREFIX$. */
#include "tree_states_walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "gamepath.h"
#include "skeleton_cfg.h"

enum { WALK_DEPTH_MAX = 64 };

/* ---- finding the configs ---- */

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

/* push into w's lists, out of memory noted. */
static void walk_push(struct walk *w, char ***arr, size_t *n, size_t *cap, const char *s)
{
    tree_walk_failed(w, push(arr, n, cap, s));
}

/* An archive, config or $PBOPREFIX$ met at path, of stat st: its time and
 * version. */
static void walk_met(struct walk *w, const char *path, const struct stat *st)
{
    char *g = tree_states_gen_entry(path, st);
    w->newest = tree_later(w->newest, st->st_mtim);
    if (!g || push(&w->gen, &w->ngen, &w->capgen, g))
        w->gen_lost = 1;                /* no generation: not remembered */
    free(g);
}

/* Adds folder rel's $PBOPREFIX$: its place in w->pre, or -1.  Its version
 * joins the generation: where a text config's includes are found (or not)
 * depends on it. */
static long add_prefix(struct walk *w, int dfd, const char *rel)
{
    char text[1024], gp[GP_MAX], dir[PATH_MAX], file[PATH_MAX];
    struct rtm_work *work = w->t->cfg.work;
    struct stat st;
    int fd = rtm_work_openat(work, dfd, "$PBOPREFIX$", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) == 0 && rtm_path_join(file, sizeof file, rel, "$PBOPREFIX$") == 0)
        walk_met(w, file, &st);
    else
        w->gen_lost = 1;
    ssize_t n = rtm_work_pread(work, fd, text, sizeof text, 0);
    close(fd);
    if (n <= 0 || gamepath_pboprefix(text, (size_t)n, gp, sizeof gp) ||
        rtm_path_join(dir, sizeof dir, w->root, rel))
        return -1;
    void *q = w->pre;
    if (rtm_array_grow(&q, &w->cappre, w->npre + 1, sizeof *w->pre, 16)) {
        tree_walk_failed(w, 1);
        return -1;
    }
    w->pre = q;
    struct prefix p = { strdup(gp), strdup(dir), strlen(rel) };
    if (!p.gp || !p.dir) {
        free(p.gp);
        free(p.dir);
        tree_walk_failed(w, 1);
        return -1;
    }
    tree_walk_present(w, NULL, gp, strlen(gp));
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
        tree_walk_present(w, path, gp, (size_t)k);   /* '/' is '\\' there */
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
        tree_walk_failed(w, errno == ENOMEM);
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
        int pbo = rtm_name_ends(de->d_name, n, ".pbo"), cfg = under && tree_walk_is_config(de->d_name);
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

/* ---- warming the folders for the walk ---- */

/* Cold, each folder's listing waits for the disk alone, and SOURCE's
 * folders (an install's mods) hold dozens more: listed one after another
 * they were a tenth of a first view's time.  So while the walk lists
 * them in turn, a few threads list the root's folders at once ahead of
 * it, and stat their archives, as it will: the walk then finds the kernel
 * holding them.  They only read (no state of the walk, no allocation), so
 * what the walk finds, and in which order, is the same; folders deeper
 * than WARM_DEPTH are left to the walk. */
enum { WARMERS = 16, WARM_DEPTH = 8, WARM_BATCH = 64 };

static int dot_or_dotdot(const char *name)
{
    return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Lists folder dfd and those below it, stats its archives; closes dfd. */
static void warm_dir(int dfd, int depth)
{
    char buf[4096];
    ssize_t n;
    while ((n = getdents64(dfd, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *de = (const struct dirent64 *)(buf + off);
            const char *name = de->d_name;
            struct stat st;
            off += de->d_reclen;
            if (dot_or_dotdot(name))
                continue;
            if (de->d_type == DT_DIR && depth < WARM_DEPTH) {
                int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0)
                    warm_dir(sub, depth + 1);
            } else if (de->d_type == DT_REG && rtm_name_ends(name, strlen(name), ".pbo")) {
                fstatat(dfd, name, &st, 0);
            }
        }
    }
    close(dfd);
}

/* The root's folders, a batch at a time. */
struct warm {
    int rootfd;
    pthread_t th;
    char names[WARM_BATCH][NAME_MAX + 1];
};

static void warm_one(void *ctx, size_t i)
{
    const struct warm *wm = ctx;
    int fd = openat(wm->rootfd, wm->names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        warm_dir(fd, 1);
}

static void *warm_run(void *arg)
{
    struct warm *wm = arg;
    char buf[4096];
    size_t nb = 0;
    ssize_t n;
    int dfd = openat(wm->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (dfd >= 0 && (n = getdents64(dfd, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *de = (const struct dirent64 *)(buf + off);
            off += de->d_reclen;
            const char *name = de->d_name;
            if (de->d_type != DT_DIR || dot_or_dotdot(name))
                continue;
            memcpy(wm->names[nb], name, strlen(name) + 1);
            if (++nb == WARM_BATCH) {
                tree_states_each(nb, WARMERS, warm_one, NULL, wm);
                nb = 0;
            }
        }
    }
    tree_states_each(nb, WARMERS, warm_one, NULL, wm);
    if (dfd >= 0)
        close(dfd);
    return NULL;
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
        struct warm *wm = malloc(sizeof *wm);   /* a hint: none without memory */
        if (wm)
            wm->rootfd = w->rootfd;
        int warming = wm && pthread_create(&wm->th, NULL, warm_run, wm) == 0;
        if (dfd >= 0)
            walk_dir(w, dfd, "", 0, -1, 0);
        if (warming)
            pthread_join(wm->th, NULL);
        free(wm);
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

/* A table from the index with the generation gen, when it has one that
 * holds what checked asks: 0, or -1. */
static int recall(struct tree_states *ts, const struct rtm_store *ix, const char *gen,
                  int checked, struct rtm_states **out)
{
    if (!gen || tree_states_recall(ix, gen, out))
        return -1;
    if (checked && !rtm_states_checked(*out)) {
        rtm_states_free(*out);          /* built again with the check */
        *out = NULL;
        return -1;
    }
    atomic_fetch_add(&ts->remembered, 1);
    return 0;
}

/* Every config where config_root says, as a table; the newest of their
 * times into *newest.  NULL when memory ran out while it was made (a
 * config left out for want of memory would make a wrong table): built
 * again at its need.  The game paths present are not gathered here:
 * only missing.txt and check.txt need them (tree_states_build_present),
 * and gathering 20,000 animations' game paths cost the first view of a
 * big install a fifth of its time.
 *
 * Nor are the states.txt lines made here: a header's skeleton needs
 * none, and 20,000 lines were two fifths of the finish's instructions.
 * The table makes them at their first need (rtm_states_lines_later;
 * tree_states.c's table_lines), keeping its configs until then.  When
 * the index is to remember it (an index, a generation, and every config
 * keyed by it: config_read), its generation waits in
 * t->states->unremembered: the record, which holds the lines, is written
 * when they are made, or when the mount ends (tree_states_end). */
struct rtm_states *tree_states_build(struct rtm_tree *t, int checked, struct timespec *newest)
{
    struct walk w = { .t = t, .rootfd = -1 };
    struct rtm_states *s = NULL;
    const struct rtm_store *ix = tree_store(t);
    char *gen = NULL;
    if (walk_configs(t, &w)) {
        walk_end(t, &w);                /* no configs to read: states.txt says none */
        return rtm_states_new();
    }
    if (ix && !w.gen_lost)
        gen = tree_states_gen(w.root, w.gen, w.ngen);
    if (recall(t->states, ix, gen, checked, &s) == 0) {
        free(t->states->gen);           /* the generation this mount sees */
        t->states->gen = gen;
        gen = NULL;
    } else if ((s = rtm_states_new())) {
        if (!checked)
            rtm_states_check_later(s);
        tree_walk_read_archives(&w, s);
        for (size_t i = 0; i < w.nloose; i++)
            tree_walk_read_loose(&w, s, w.loose[i]);
        rtm_states_lines_later(s);
        int rc = rtm_states_finish(s) || w.oom;
        rtm_work_add(t->cfg.work, RTM_WORK_STATES_CHECKED,
                     rtm_states_checked(s) ? rtm_states_nstates(s) : 0);
        rtm_work_add(t->cfg.work, RTM_WORK_STATES_LINES,
                     rtm_states_lines_ready(s) ? rtm_states_nlines(s) : 0);
        rtmc_trim(t->cfg.cache);        /* the configs read are freed, between live blocks */
        if (rc) {
            rtm_states_free(s);
            s = NULL;
        } else if (gen && !w.unkeyed) {    /* remembered once its lines are made */
            free(t->states->unremembered);
            t->states->unremembered = gen;
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
        tree_walk_read_archives(&w, NULL);
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
