/* rtmcat - print one view of an RTM animation, without mounting.
 *
 * FILE and VIEW are found through the mount's own tree (tree.h), on a cache
 * and loader of rtmcat's own: the views it prints are the files rtmfs
 * shows, and its message for a broken file is that file's error.txt, by
 * construction.  FILE is split into D, its longest leading part that is a
 * folder on disk, which becomes the tree's SOURCE, and the rest, whose names
 * are looked up one at a time from the tree's root, as the kernel walks a
 * path in a mount. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <lzo/lzoconf.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "loader.h"
#include "numfmt.h"
#include "pbo.h"
#include "rtm.h"
#include "mocap_retarget.h"
#include "skeleton_cfg.h"
#include "tree.h"
#include "rtmcat_args.h"
#include "rtmcat_check.h"
#include "rtmcat_config.h"
#include "rtmcat_estimate.h"
#include "rtmcat_extract.h"
#include "rtmcat_missing.h"
#include "rtmcat_plain.h"
#include "rtmcat_gamepath.h"
#include "rtmcat_states.h"
#include "rtmcat_text.h"
#include "rtmcat_usage.h"
#include "version.h"
#include "views.h"

struct cat {
    const char *file;             /* FILE as given */
    size_t dlen;                  /* file[0, dlen) is D with its '/' ("" for D ".") */
    char rel[PATH_MAX];           /* the rest of FILE, names joined by one '/' */
    int srcfd, raw;               /* D; --raw */
    struct rtm_skeleton *skel;
    int skel_given;               /* -s: no model.cfg gives one (tree.h) */
    struct rtm_skelreg *skels;    /* the configs' skeletons, without -s */
    struct rtm_mocap_opts mocap;  /* --bvh-unit, --bvh-fps */
    struct rtm_loader loader;
    struct rtmc *cache;
    struct rtm_tree *tree;
    char states_from[PATH_MAX];   /* whose configs states.txt reads (-C) */
    const char *outdir;           /* -o: the views written below it */
    char *const *views;           /* -o's VIEWs, nviews of them (0: all) */
    int nviews;
};

/* Where a walk of rel stopped. */
struct walk {
    enum { AT_FOLDER, AT_ANIM, AT_ARCHIVE } at;
    uint64_t ino;
    uint64_t archive;             /* the archive's folder, once below one */
    size_t archive_len;           /* > 0: rel[0, archive_len) is that archive */
};

/* ---- output and messages ---- */

/* Every message is one line on stderr, "rtmcat: FILE: what is wrong",
 * and rtmcat's exit status is then 1. */
__attribute__((format(printf, 2, 3)))
static int fail(const struct cat *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rtmcat_vfailf(c->file, fmt, ap);
    va_end(ap);
    return 1;
}

static int fail_errno(const struct cat *c, int rc) { return fail(c, "%s", strerror(-rc)); }

/* A loader's message (n bytes), "REL: what is wrong", REL relative to D:
 * with D in front it names FILE as given. */
static int fail_loaded(const struct cat *c, const char *msg, size_t n)
{
    if (n && msg[n - 1] == '\n')
        n--;
    fprintf(stderr, "rtmcat: %.*s%.*s\n", (int)c->dlen, c->file, (int)n, msg);
    return 1;
}

static int not_an_anim(const struct cat *c)
{
    return fail(c, "not an animation (-o writes an animation's views)");
}

/* Writes out (and frees it): rtmcat's exit status. */
static int flush(const struct cat *c, struct rtm_buf *out)
{
    int status = out->oom ? fail(c, "out of memory") : 0;
    if (!status)
        status = rtmcat_write_out(out->p ? out->p : "", out->len);
    rtm_buf_free(out);
    return status;
}

/* ---- FILE in the tree ---- */

/* The next name of *p into name (names are separated by '/'s), moving *p
 * past it: its length, 0 at the end, or PATH_MAX when it does not fit. */
static size_t next_name(const char **p, char name[PATH_MAX])
{
    *p += strspn(*p, "/");
    size_t n = strcspn(*p, "/");
    if (n >= PATH_MAX)
        return PATH_MAX;
    memcpy(name, *p, n);
    name[n] = 0;
    *p += n;
    return n;
}

/* D: FILE's longest leading part, cut at a '/' (or FILE itself), that is
 * a folder on disk; "." when there is none.  Its length, with the '/'. */
static size_t find_dir(const char *file, char dir[PATH_MAX])
{
    for (size_t i = strlen(file) + 1; i-- > 0;) {
        size_t n = i ? i : 1;           /* a leading '/' is the root */
        struct stat st;
        if ((file[i] && file[i] != '/') || n >= PATH_MAX)
            continue;
        memcpy(dir, file, n);
        dir[n] = 0;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return file[i] ? i + 1 : i;
    }
    strcpy(dir, ".");
    return 0;
}

/* Adds name (n bytes) to rel (len bytes): "." stays, ".." goes back one
 * name, so that ARCHIVE.pbo/./anims is ARCHIVE.pbo/anims (a mount's path
 * walk gives the same).  Lexically, as archives normalise their own names:
 * rel starts where the folders on disk end, so no symlink can make x/..
 * other than x's folder, and a ".." at its start would have been part of
 * D.  (For an x that does not exist, x/.. is then its folder, where the
 * kernel would say ENOENT.)  0 or an errno. */
static int add_name(struct cat *c, size_t *len, const char *name, size_t n)
{
    if (n == PATH_MAX || *len + !!*len + n >= sizeof c->rel)
        return ENAMETOOLONG;
    if (!strcmp(name, "."))
        return 0;
    if (!strcmp(name, "..")) {
        if (!*len)
            return ENOENT;
        char *slash = strrchr(c->rel, '/');
        *len = slash ? (size_t)(slash - c->rel) : 0;
        c->rel[*len] = 0;
        return 0;
    }
    if (*len)
        c->rel[(*len)++] = '/';
    memcpy(c->rel + *len, name, n + 1);
    *len += n;
    return 0;
}

/* Splits FILE into D (opened as srcfd) and rel; 0 or an errno. */
static int split(struct cat *c)
{
    char dir[PATH_MAX], name[PATH_MAX];
    if (!*c->file)
        return ENOENT;
    c->dlen = find_dir(c->file, dir);
    const char *p = c->file + c->dlen;
    size_t len = 0;
    for (size_t n; (n = next_name(&p, name));) {
        int e = add_name(c, &len, name, n);
        if (e)
            return e;
    }
    c->srcfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return c->srcfd < 0 ? errno : 0;
}

/* Looks up VIEW ("header.txt", "frames/003.csv") in animation folder
 * ino: 0 with *out, or a negative errno (-ENOENT also for an empty name or
 * one too long to be in the tree: VIEW is a name, not a path on disk). */
static int lookup_view(struct cat *c, uint64_t ino, const char *view, struct rtm_tree_entry *out)
{
    return rtmcat_lookup_view(c->tree, ino, view, out);
}

/* Whether the folder of an animation or archive is that of a broken one,
 * which holds only error.txt: 1, 0 or a negative errno.  Its listing says
 * (a lookup of error.txt would fail for a good file). */
static int is_broken(struct cat *c, uint64_t ino)
{
    struct rtm_dirlist *d;
    int rc = rtm_tree_listing(c->tree, ino, 0, &d);
    if (rc == 0)    /* ".", ".." and error.txt alone */
        rc = d->n == 3 && d->e[2].type == S_IFREG && strcmp(d->e[2].name, RTM_TREE_ERROR_NAME) == 0;
    rtm_tree_listing_put(c->tree, d);
    return rc;
}

/* Looks up rel's names from the tree's root, stopping at an animation (its
 * views are VIEW's business: -ENOTDIR when rel goes on): 0, or the failed
 * lookup's errno, with *w where the walk stopped.  The tree shows an
 * animation for every .rtm or .bvh name and an archive for every .pbo name. */
static int walk(struct cat *c, struct walk *w)
{
    char name[PATH_MAX];
    const char *p = c->rel;
    *w = (struct walk){ .at = AT_FOLDER, .ino = RTM_INO_ROOT };
    for (size_t n; (n = next_name(&p, name));) {
        struct rtm_tree_entry e;
        if (w->at == AT_ANIM)
            return -ENOTDIR;
        int rc = rtm_tree_lookup(c->tree, w->ino, name, &e);
        if (rc)
            return rc;
        int dir = S_ISDIR(e.st.st_mode);
        w->ino = e.ino;
        w->at = AT_FOLDER;
        if (dir && rtm_is_anim_name(name, n)) {
            w->at = AT_ANIM;
        } else if (dir && !w->archive_len && rtm_name_ends(name, n, ".pbo")) {
            w->at = AT_ARCHIVE;
            w->archive = e.ino;
            w->archive_len = (size_t)(p - c->rel);
        }
    }
    return 0;
}

/* The whole of file ino into b: 0 or a negative errno. */
static int read_all(struct cat *c, uint64_t ino, struct rtm_buf *b)
{
    for (;;) {
        if (rtm_buf_reserve(b, 1u << 16))
            return -ENOMEM;
        ssize_t n = rtm_tree_read(c->tree, ino, b->p + b->len, b->cap - b->len, (off_t)b->len);
        if (n <= 0)
            return (int)n;
        b->len += (size_t)n;
    }
}

/* File ino to stdout, a piece at a time: a view may be far larger than
 * the piece (plain.rtm, anim.bvh). */
static int print_file(struct cat *c, uint64_t ino)
{
    enum { PIECE = 1 << 16 };
    char *piece = malloc(PIECE);
    ssize_t n = piece ? 1 : -ENOMEM;
    for (off_t at = 0; n > 0; at += n) {
        n = rtm_tree_read(c->tree, ino, piece, PIECE, at);
        if (n > 0 && rtmcat_write_out(piece, (size_t)n)) {
            free(piece);
            return 1;
        }
    }
    free(piece);
    return n < 0 ? fail_errno(c, (int)n) : 0;
}

/* The text of folder ino's error.txt as rtmcat's message: rtmcat's exit
 * status (1), or -1 when the folder has no error.txt. */
static int report_error_txt(struct cat *c, uint64_t ino)
{
    struct rtm_tree_entry e;
    struct rtm_buf b;
    int rc = rtm_tree_lookup(c->tree, ino, RTM_TREE_ERROR_NAME, &e);
    if (rc)
        return rc == -ENOENT ? -1 : fail_errno(c, rc);
    rtm_buf_init(&b);
    rc = read_all(c, e.ino, &b);
    if (rc)
        fail_errno(c, rc);
    else
        fail_loaded(c, b.p ? b.p : "", b.len);
    rtm_buf_free(&b);
    return 1;
}

/* A broken file's message is the text of its error.txt.  -1 when folder
 * ino is not broken, else rtmcat's exit status (1: a message was given). */
static int report_broken(struct cat *c, uint64_t ino)
{
    int rc = is_broken(c, ino);
    if (rc <= 0)
        return rc ? fail_errno(c, rc) : -1;
    return report_error_txt(c, ino);
}

/* ---- animations ---- */

/* Every file of folder ino with its size, one a line, as PREFIXNAME; the
 * folders in it (frames) expanded in place. */
static int list_dir(struct cat *c, uint64_t ino, const char *prefix, struct rtm_buf *out)
{
    struct rtm_dirlist *d;
    int rc = rtm_tree_listing(c->tree, ino, 0, &d);
    for (size_t i = 0; !rc && i < d->n; i++) {
        const char *name = d->e[i].name;
        struct rtm_tree_entry e;
        char sub[PATH_MAX];
        if (!strcmp(name, ".") || !strcmp(name, ".."))
            continue;
        rc = rtm_tree_lookup(c->tree, ino, name, &e);
        if (rc)
            break;
        if (!S_ISDIR(e.st.st_mode))
            rtm_buf_printf(out, "%10zu %s%s\n", (size_t)e.st.st_size, prefix, name);
        else if (snprintf(sub, sizeof sub, "%s%s/", prefix, name) >= (int)sizeof sub)
            rc = -ENAMETOOLONG;
        else
            rc = list_dir(c, e.ino, sub, out);
    }
    rtm_tree_listing_put(c->tree, d);
    return rc;
}

/* FILE is an animation: VIEW, or the list of views; with -o, the views
 * written below OUTDIR. */
static int cat_anim(struct cat *c, const struct walk *w, const char *view)
{
    struct rtm_tree_entry e;
    if (c->outdir) {
        int broken = report_broken(c, w->ino);
        return broken >= 0 ? broken
                           : rtmcat_extract(c->tree, w->ino, c->file, c->outdir, c->views,
                                            c->nviews);
    }
    /* error.txt is the message of a broken file, not a view */
    int rc = view && strcmp(view, RTM_TREE_ERROR_NAME) ? lookup_view(c, w->ino, view, &e) : -ENOENT;
    if (rc == 0 && S_ISREG(e.st.st_mode))
        return print_file(c, e.ino);
    if (rc && rc != -ENOENT)
        return fail_errno(c, rc);
    int status = report_broken(c, w->ino);
    if (status >= 0)
        return status;
    if (view)
        return rtmcat_fail_no_view(c->file, view);
    struct rtm_buf out;
    rtm_buf_init(&out);
    rc = list_dir(c, w->ino, "", &out);
    if (rc) {
        rtm_buf_free(&out);
        return fail_errno(c, rc);
    }
    return flush(c, &out);
}

/* A file or archive entry (key, as the cache names it) that the tree does
 * not show as an animation, its name not ending in .rtm: rtmcat reads it as
 * one all the same, through the same cache and loader (so with the mount's
 * messages), and shows the views the tree would. */
static int cat_unlisted(struct cat *c, const char *key, size_t archive_len,
                        const struct stat *st, const char *view)
{
    struct rtmc_src s = { .path = key, .id = rtm_fileid_of(st), .kind = RTMC_ANIM,
                          .archive_len = archive_len };
    struct rtmc_entry *h;
    struct rtm_view v;
    int rc = rtmc_get(c->cache, &s, &h);
    if (rc)
        return fail_errno(c, rc);
    const struct rtm_anim *a = rtmc_anim(h);
    struct rtm_buf out;
    rtm_buf_init(&out);
    int status;
    if (!a)
        status = fail_loaded(c, rtmc_error(h), strlen(rtmc_error(h)));
    else if (c->outdir)
        status = rtmcat_extract_unlisted(c->cache, h, c->file, c->outdir, c->views, c->nviews);
    else if (view && rtm_view_lookup(a, view, &v))
        status = rtmcat_fail_no_view(c->file, view);
    else if ((rc = rtmcat_render_unlisted(c->cache, h, view ? &v : NULL, &out)))
        status = fail_errno(c, rc);
    else
        status = flush(c, &out);
    rtm_buf_free(&out);
    rtmc_put(c->cache, h);
    return status;
}

/* ---- archives ---- */

/* The table of the archive FILE is in or is, with the archive's stat:
 * 0, or rtmcat's exit status once the failure is reported. */
static int get_table(struct cat *c, const struct walk *w, struct rtmc_entry **h,
                     struct stat *st)
{
    char path[PATH_MAX];
    memcpy(path, c->rel, w->archive_len);
    path[w->archive_len] = 0;
    if (fstatat(c->srcfd, path, st, 0))
        return fail_errno(c, -errno);
    struct rtmc_src s = { .path = path, .id = rtm_fileid_of(st), .kind = RTMC_TABLE };
    int rc = rtmc_get(c->cache, &s, h);
    return rc ? fail_errno(c, rc) : 0;
}

struct listing {
    const struct pbo *p;
    size_t prefix;                /* bytes of the folder's part of a path */
    size_t lines;
    struct rtm_buf *out;
};

/* One line of a listing: the entry's content size and its path from the
 * folder, escaped as in the views (so a newline cannot split a line). */
static int list_entry(void *arg, long i)
{
    struct listing *l = arg;
    const struct pbo_entry *e = &l->p->entries[i];
    const char *name = e->path + l->prefix;   /* below the folder: longer */
    if (!*name)
        return 0;
    rtm_buf_printf(l->out, "%10llu ", (unsigned long long)pbo_entry_content_size(e));
    rtm_put_name(l->out, (struct rtm_str){ name, (uint32_t)strlen(name) });
    rtm_buf_putc(l->out, '\n');
    l->lines++;
    return 0;
}

/* Without a view: every entry below folder ("" for the archive's top, where
 * info is pbo.txt's stat and pbo.txt comes first) with its content's size,
 * one a line, named from the folder.  The archive's own walk finds them
 * (pbo_each_below), so they are the entries a mount shows, in the same
 * order at every level. */
static int list_archive(struct cat *c, const struct walk *w, const char *folder,
                        const struct stat *info)
{
    struct rtmc_entry *h;
    struct stat st;
    int status = get_table(c, w, &h, &st);
    if (status)
        return status;
    const struct pbo *p = rtmc_pbo(h);
    if (!p) {
        fail_loaded(c, rtmc_error(h), strlen(rtmc_error(h)));
        rtmc_put(c->cache, h);
        return 1;
    }
    struct rtm_buf out;
    rtm_buf_init(&out);
    long prefix = pbo_dir_prefix_len(folder);
    struct listing l = { p, prefix < 0 ? 0 : (size_t)prefix, 0, &out };
    if (info)
        rtm_buf_printf(&out, "%10zu %s\n", (size_t)info->st_size, RTM_PBO_INFO_NAME);
    pbo_each_below(p, folder, list_entry, &l);
    rtmc_put(c->cache, h);
    if (*folder && !l.lines) {    /* not a folder after all: never an empty answer */
        rtm_buf_free(&out);
        return fail(c, "no entry or folder '%s' in the archive", folder);
    }
    return flush(c, &out);
}

/* FILE is an archive itself: its listing or its pbo.txt. */
static int cat_archive(struct cat *c, const struct walk *w, const char *view)
{
    if (view && strcmp(view, RTM_PBO_INFO_NAME))
        return fail(c, "an archive has only the view %s; its entries are "
                    "ARCHIVE.pbo/path/in/archive", RTM_PBO_INFO_NAME);
    int status = report_broken(c, w->ino);
    if (status >= 0)
        return status;
    struct rtm_tree_entry e;
    int rc = rtm_tree_lookup(c->tree, w->ino, RTM_PBO_INFO_NAME, &e);
    if (rc)
        return fail_errno(c, rc);
    if (view)
        return print_file(c, e.ino);
    rc = list_archive(c, w, "", &e.st);
    /* an archive cut short: what it still holds, then what the cut took */
    int cut = rc ? -1 : report_error_txt(c, w->ino);
    return cut > 0 ? cut : rc;
}

/* FILE is a folder in a good archive: its entries, listed as the
 * archive's are. */
static int cat_archive_folder(struct cat *c, const struct walk *w, const char *view)
{
    if (view)
        return fail(c, "a folder in an archive has no views (run 'rtmcat %s' for "
                    "its entries)", c->file);
    return list_archive(c, w, c->rel + w->archive_len + 1, NULL);
}

/* FILE names something in an archive that is neither an animation nor a
 * folder of the tree: the archive is broken, or FILE is an entry the tree
 * does not show as an animation, or a folder it does not show (one without
 * animations, which rtmcat lists all the same, as its entries are in the
 * archive's listing), or there is no such entry or folder. */
static int archive_miss(struct cat *c, const struct walk *w, const char *view)
{
    int status = report_broken(c, w->archive);
    if (status >= 0)
        return status;
    struct rtmc_entry *h;
    struct stat st;
    if ((status = get_table(c, w, &h, &st)))
        return status;
    const struct pbo *p = rtmc_pbo(h);
    const char *inner = c->rel + w->archive_len + 1;
    long i = p ? pbo_find(p, inner) : -1;
    char key[RTM_KEY_MAX];
    if (i < 0 && p && pbo_lookup(p, inner, &i) == PBO_DIR) {
        status = c->outdir ? not_an_anim(c) : cat_archive_folder(c, w, view);
    } else if (i < 0) {
        status = fail(c, "no entry or folder '%s' in the archive", inner);
    } else {
        rtm_loader_entry_key(key, c->rel, w->archive_len, p->entries[i].path);
        status = c->outdir ? -1   /* -o: read as an animation, or refused as one */
                           : rtmcat_config_entry(c->cache, key, w->archive_len, &st, c->file,
                                                 c->dlen, view, c->raw);
        status = status >= 0 ? status : cat_unlisted(c, key, w->archive_len, &st, view);
    }
    rtmc_put(c->cache, h);
    return status;
}

/* ---- FILE and VIEW ---- */

/* rel is not in the tree: missing, or a file whose name the tree does not
 * show (not .rtm or .pbo), which rtmcat reads as an animation. */
static int source_miss(struct cat *c, const char *view)
{
    struct stat st;
    if (fstatat(c->srcfd, *c->rel ? c->rel : ".", &st, 0))
        return fail_errno(c, -errno);
    if (!S_ISREG(st.st_mode))
        return fail_errno(c, S_ISDIR(st.st_mode) ? -EISDIR : -ENOENT);
    int status = c->outdir ? -1 : rtmcat_config_loose(c->srcfd, c->rel, c->file, view, c->raw);
    return status >= 0 ? status : cat_unlisted(c, c->rel, 0, &st, view);
}

static int cat_file(struct cat *c, const char *view)
{
    struct walk w;
    int rc = walk(c, &w);
    if (c->raw)     /* the bytes, not what the tree shows */
        return w.archive_len && c->rel[w.archive_len] ? archive_miss(c, &w, view)
                                                      : source_miss(c, view);
    if (!rc && w.at == AT_FOLDER && w.archive_len)
        return c->outdir ? not_an_anim(c) : cat_archive_folder(c, &w, view);
    if (w.archive_len && (rc == -ENOENT || rc == -ENOTDIR))
        return archive_miss(c, &w, view);
    if (rc == -ENOENT)
        return source_miss(c, view);
    if (rc)
        return fail_errno(c, rc);
    if (w.at == AT_ANIM)
        return cat_anim(c, &w, view);
    if (c->outdir)
        return not_an_anim(c);
    if (w.at == AT_ARCHIVE)
        return cat_archive(c, &w, view);
    return fail_errno(c, -EISDIR);
}

/* The skeleton and D: 0, or rtmcat's exit status after a message. */
static int cat_open(struct cat *c, const char *skel_spec)
{
    struct rtm_error err = { .msg = "" };
    if (rtm_skeleton_open(skel_spec, &c->skel, &err)) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    int e = split(c);
    return e ? fail_errno(c, -e) : 0;
}

/* The cache and its loader, the tree: 0, or rtmcat's exit status after a
 * message. */
static int cat_tree(struct cat *c, int digits, const char *cdir)
{
    if (!c->skel_given && !(c->skels = rtm_skelreg_new()))
        return fail_errno(c, -ENOMEM);
    c->loader = (struct rtm_loader){ .srcfd = c->srcfd, .skel = c->skel, .digits = digits,
                                     .whole = 1,    /* broken is broken, whatever is asked */
                                     .model_cfg = !c->skel_given, .skels = c->skels,
                                     .mocap = &c->mocap };
    /* no budget: one run reads one file */
    c->cache = c->loader.cache = rtmc_new(SIZE_MAX / 2, rtm_loader_load, &c->loader);
    struct rtm_tree_config cfg = { .srcfd = c->srcfd, .cache = c->cache,
                                   .configs_from = c->states_from,
                                   .skeleton_explicit = c->skel_given, .skels = c->skels };
    (void)rtmcat_states_from(cdir, c->file, c->states_from, PATH_MAX); /* "": no addon */
    c->tree = c->cache ? rtm_tree_new(&cfg) : NULL;
    return c->tree ? 0 : fail_errno(c, -ENOMEM);
}

static void cat_close(struct cat *c)
{
    rtm_tree_free(c->tree);
    rtmc_free(c->cache);
    rtm_skelreg_free(c->skels);         /* after the cache: its loads used them */
    if (c->srcfd >= 0)
        close(c->srcfd);
    rtm_skeleton_free(c->skel);
}

/* rtmcat is short-lived, mostly run once a file: large buffers (the file,
 * its matrices) come from the heap rather than a mapping each, and the
 * heap is not trimmed before exit.  A mapping of its own is fresh pages,
 * grown by mremap and unmapped on free; the heap reuses what was freed
 * (--estimate-pivots over the corpus's 137 files peaks at the same 45 MB
 * either way).  Over the BMTR corpus, one process a file: about 600 page
 * faults (of 13 k, the shell's included) and 7 % of the CPU time fewer.
 * Above 256 MiB a buffer is still a mapping of its own. */
static void heap_for_one_run(void)
{
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

int main(int argc, char **argv)
{
    heap_for_one_run();
    struct rtmcat_args a;
    int status = rtmcat_args_parse(argc, argv, &a), ch;
    int most = a.outdir ? argc : 2 - a.raw;   /* operands: FILE [VIEW], -o: FILE [VIEW...] */
    char **ops = argv + optind;
    int nops = argc - optind;
    if (status >= 0)
        return status;
    const char *skel_spec = rtm_shared_skeleton(&a.shared);
    int skel_given = a.shared.skeleton != NULL;
    if (a.estimate && nops >= 1)
        return rtmcat_estimate(skel_spec, ops, nops);
    if (a.check && nops >= 1 && !a.estimate && !a.raw)
        return rtmcat_check(skel_spec, skel_given, a.shared.digits, a.check_flags, ops, nops);
    if (!a.raw && !a.estimate && !a.check && rtmcat_missing_asked(a.cdir, ops, nops))
        return rtmcat_missing(a.cdir, ops[0]);
    if (a.game && !rtmcat_gamepath(nops, ops, &ch))
        return ch;
    ops += a.game;                      /* SOURCE is dropped: FILE [VIEW] follow */
    nops -= a.game;
    if (nops < 1 || nops > most || a.estimate || a.check || a.check_flags ||
        (a.pp_only && (a.raw || a.game)) || (a.outdir && (a.raw || a.pp_only))) {
        rtmcat_usage(stderr);
        return 2;
    }
    const char *view = a.outdir ? NULL : ops[1];
    if (!a.raw && !a.game && !a.outdir && (status = rtmcat_text(ops[0], view, a.pp_only, a.inc, a.ninc)) >= 0)
        return status;  /* a config named on the command line (or -E's error) */
    struct cat c = { .file = ops[0], .srcfd = -1, .raw = a.raw, .skel_given = skel_given,
                     .mocap = a.shared.mocap, .outdir = a.outdir, .views = ops + 1,
                     .nviews = nops - 1 };
    status = cat_open(&c, skel_spec);
    if (!status) {
        /* plain.rtm of a loose BMTR file the quick way, before any tree is made */
        status = view && !a.raw ? rtmcat_plain(c.srcfd, c.rel, view, c.skel, skel_given, c.file)
                                : -1;
        if (status < 0 && !(status = cat_tree(&c, a.shared.digits, a.cdir)))
            status = cat_file(&c, view);
    }
    cat_close(&c);
    return status;
}
