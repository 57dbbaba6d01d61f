/* tree_config.c - rapified configs in the mount (tree.h): which files and
 * archive entries show as their text, under which name, and their size
 * and bytes.  The text itself is made by the loader (an RTMC_CONFIG cache
 * entry: loader.h), so it is made once, on demand, within cache_size. */
#include "tree_states.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"

int tree_config_on(const struct rtm_tree *t)
{
    return t->cfg.show_other && !t->cfg.rapified_raw;
}

/* ---- names ---- */

static int is_config_bin(const char *name)
{
    return strlen(name) == 10 && strncasecmp(name, "config.bin", 10) == 0;
}

/* name's last three letters become to's, each keeping its case: a
 * "Config.BIN" shows as "Config.CPP", which maps back to it alone. */
static void swap_ext(char *name, const char *to)
{
    char *ext = name + strlen(name) - 3;
    for (int i = 0; i < 3; i++) {
        int upper = ext[i] >= 'A' && ext[i] <= 'Z';
        ext[i] = upper ? (char)(to[i] - 'a' + 'A') : to[i];
    }
}

/* Whether folder f holds anything named name (shown or not: a name that
 * is there is never given to another file). */
static int folder_has(const struct tree_folder *f, const char *name)
{
    char path[PATH_MAX];
    long entry;
    if (rtm_path_join(path, PATH_MAX, f->dir, name))
        return 1;
    if (f->p)
        return pbo_lookup(f->p, path, &entry) != PBO_NONE;
    struct stat st;
    return fstatat(f->dfd, *path ? path : ".", &st, AT_SYMLINK_NOFOLLOW) == 0 ||
           errno != ENOENT;
}

void tree_config_shown(const struct tree_folder *f, const char *name, char out[NAME_MAX + 1])
{
    snprintf(out, NAME_MAX + 1, "%s", name);
    if (!is_config_bin(name))
        return;                         /* other configs keep their names */
    swap_ext(out, "cpp");
    if (!folder_has(f, out))
        return;                         /* config.cpp, as unpacking tools name it */
    memcpy(out + 10, ".cpp", 5);        /* after the whole name: config.bin.cpp */
    memcpy(out, name, 10);
    if (folder_has(f, out))
        snprintf(out, NAME_MAX + 1, "%s", name);    /* both taken: its own */
}

/* The names a shown name that is not in the folder may stand for: the
 * config.bin a config.cpp or a config.bin.cpp is shown as.  How many. */
static int alias_sources(const char *name, char src[NAME_MAX + 1])
{
    size_t n = strlen(name);
    if (n == 10 && strncasecmp(name, "config.cpp", 10) == 0) {
        memcpy(src, name, n + 1);
        swap_ext(src, "bin");
        return 1;
    }
    if (n == 14 && strcmp(name + 10, ".cpp") == 0 && strncasecmp(name, "config.bin", 10) == 0) {
        memcpy(src, name, 10);
        src[10] = 0;
        return 1;
    }
    return 0;
}

/* Whether shown, the name looked up, is what tree_config_shown gives
 * name: exactly in a source folder, without case in an archive (whose
 * lookups ignore case, as Arma's do). */
static int shown_as(const struct tree_folder *f, const char *name, const char *shown)
{
    char want[NAME_MAX + 1];
    tree_config_shown(f, name, want);
    return f->p ? strcasecmp(want, shown) == 0 : strcmp(want, shown) == 0;
}

int tree_config_related(const char *name, char out[3][NAME_MAX + 1])
{
    char bin[NAME_MAX + 1];
    if (is_config_bin(name))
        memcpy(bin, name, 11);
    else if (!alias_sources(name, bin))
        return 0;
    memcpy(out[0], bin, 11);            /* a config.bin's name: 10 bytes */
    memcpy(out[1], bin, 11);
    swap_ext(out[1], "cpp");
    memcpy(out[2], bin, 10);
    memcpy(out[2] + 10, ".cpp", 5);
    return 3;
}

/* ---- the magic: the first four bytes of a candidate, nothing more ---- */

/* 1 when the bytes at off start a rapified config, 0 when not, or a
 * negative errno when they could not be read: then nothing may be decided
 * (and kept) from them. */
static int rapified_fd(struct rtm_work *w, int fd, uint64_t off)
{
    uint8_t head[4];
    ssize_t n = rtm_work_pread(w, fd, head, sizeof head, off);
    return n < 0 ? (int)n : n > 0 && rap_is_rapified(head, (size_t)n);
}

int tree_config_sniff_file(const struct rtm_tree *t, int dfd, const char *name)
{
    if (!tree_config_on(t) || !cfg_is_candidate_name(name, strlen(name)))
        return 0;
    int fd = rtm_work_openat(t->cfg.work, dfd, *name ? name : ".",
                             O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;                       /* shown as it is: reading it says why */
    int r = rapified_fd(t->cfg.work, fd, 0);
    close(fd);
    return r;
}

/* A stored entry's first bytes are read in place; a compressed one (LZSS
 * cannot be read from the middle) is decoded into the cache, once: only
 * candidates are, and configs are small. */
static int sniff_entry(struct rtm_tree *t, const struct tree_target *tg, long entry)
{
    const struct pbo_entry *e = &rtmc_pbo(tg->table)->entries[entry];
    if (!tree_config_on(t) || !cfg_is_candidate_name(e->path, strlen(e->path)))
        return 0;
    if (e->method == PBO_METHOD_STORED && !pbo_entry_compressed(e)) {
        int fd = rtm_work_openat(t->cfg.work, t->cfg.srcfd, tg->src, O_RDONLY | O_CLOEXEC);
        int r = fd >= 0 && rtm_fileid_check(fd, &tg->id) == 0 && e->data_size >= 4 &&
                rapified_fd(t->cfg.work, fd, e->offset) > 0;
        if (fd >= 0)
            close(fd);
        return r;
    }
    char key[RTM_KEY_MAX];
    rtm_loader_entry_key(key, tg->src, strlen(tg->src), e->path);
    struct rtmc_src s = { .path = key, .id = tg->id, .level = RTMC_FULL, .kind = RTMC_DATA,
                          .archive_len = strlen(tg->src) };
    struct rtmc_entry *h;
    if (rtmc_get(t->cfg.cache, &s, &h))
        return 0;
    size_t len;
    const uint8_t *data = rtmc_data(h, &len);
    int r = data && rap_is_rapified(data, len);
    rtmc_put(t->cfg.cache, h);
    return r;
}

/* ---- what a name shows ---- */

/* The folder part of rel (a path from SOURCE or inside an archive) into
 * dir, and its last part. */
static const char *split(const char *rel, char dir[PATH_MAX])
{
    const char *slash = strrchr(rel, '/');
    size_t n = slash ? (size_t)(slash - rel) : 0;
    memcpy(dir, rel, n);
    dir[n] = 0;
    return slash ? slash + 1 : rel;
}

int tree_config_alias(const struct rtm_tree *t, const char *path, char src[PATH_MAX])
{
    char dir[PATH_MAX], name[NAME_MAX + 1];
    const char *base = split(path, dir);
    if (!tree_config_on(t) || !alias_sources(base, name) ||
        rtm_path_join(src, PATH_MAX, dir, name))
        return -ENOENT;
    return 0;
}

int tree_config_shown_as(const struct rtm_tree *t, const char *src, const char *path)
{
    char dir[PATH_MAX], srcdir[PATH_MAX];
    const char *base = split(path, dir);
    struct tree_folder f = { .dfd = t->cfg.srcfd, .dir = dir };
    return shown_as(&f, split(src, srcdir), base);
}

int tree_config_entry(struct rtm_tree *t, struct tree_target *tg, const char *inner,
                      enum pbo_node node)
{
    char dir[PATH_MAX], src[NAME_MAX + 1], q[PATH_MAX];
    const char *base = split(inner, dir);
    const struct pbo *p = rtmc_pbo(tg->table);
    struct tree_folder f = { .dir = dir, .p = p };
    tg->kind = TK_PFILE;
    if (node == PBO_FILE) {
        if (!sniff_entry(t, tg, tg->entry))
            return 0;
        tg->kind = TK_PCONFIG;
        return shown_as(&f, base, base) ? 0 : -ENOENT;
    }
    if (!tree_config_on(t) || !alias_sources(base, src) || rtm_path_join(q, PATH_MAX, dir, src) ||
        pbo_lookup(p, q, &tg->entry) != PBO_FILE || !sniff_entry(t, tg, tg->entry) ||
        !shown_as(&f, src, base))
        return -ENOENT;
    tg->kind = TK_PCONFIG;
    return 0;
}

void tree_config_entry_name(struct rtm_tree *t, const struct tree_target *tg, long entry,
                            const char *name, char out[NAME_MAX + 1])
{
    struct tree_folder f = { .dir = tg->rest, .p = rtmc_pbo(tg->table) };
    snprintf(out, NAME_MAX + 1, "%s", name);
    if (is_config_bin(name) && sniff_entry(t, tg, entry))
        tree_config_shown(&f, name, out);
}

/* ---- size and bytes ---- */

/* What a config that cannot be read shows: a comment saying why, which is
 * still a valid (empty) config, so grep and diff say something useful and
 * stat and read agree (tmp holds it, n bytes). */
static const char *bad_text(const struct rtmc_entry *h, char *tmp, size_t n, size_t *len)
{
    int k = snprintf(tmp, n, "// rtmfs: %s (-o rapified=raw shows its bytes)\n", rtmc_error(h));
    *len = k < 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
    return tmp;
}

int tree_config_text(struct rtm_tree *t, struct tree_target *tg, struct tree_config_text *ct)
{
    char key[RTM_KEY_MAX];
    if (tg->entry >= 0)
        tree_member_key(tg, key);
    int rc = tree_get_entry(t, tg, tg->entry >= 0 ? key : tg->src, RTMC_CONFIG, &ct->h);
    if (rc)
        return rc;
    const uint8_t *data = rtmc_data(ct->h, &ct->len);
    ct->text = data ? (const char *)data : bad_text(ct->h, ct->tmp, sizeof ct->tmp, &ct->len);
    return 0;
}

void tree_config_text_put(struct rtm_tree *t, struct tree_config_text *ct)
{
    rtmc_put(t->cfg.cache, ct->h);
    ct->h = NULL;
}
