/* gamefs.h - the game's file system: every source (an archive, or a loose
 * addon folder with a $PBOPREFIX$) merged at its prefix, as the game and a
 * P: drive see them.
 *
 * Rules (rtmfs(1), GAME PATHS):
 *  - a source's prefix is normalised by the one path rule of archives
 *    (util.h rtm_path_norm: '\' and '/' separate, empty, "." and ".."
 *    parts dropped); when nothing is left, the source's file name without
 *    ".pbo" stands for it, as gamepath.h says the game does;
 *  - a source's entry paths follow the same rule, so nothing climbs out of
 *    its prefix;
 *  - names are matched ASCII case-insensitively; '\' equals '/';
 *  - folders are the union of every source's folders at that game path:
 *    the prefix folders above a source, its own folders, and archives
 *    nested at each other's prefixes merge as folders do;
 *  - where sources overlap, the one whose name (its path relative to
 *    SOURCE) sorts last, bytewise (strcmp), is shown: its spelling, its
 *    file.  A name that is a file in one source and a folder in another
 *    is the file, as inside one archive (pbo.h);
 *  - a contested path is a file path more than one source gives;
 *    gamefs_conflicts() lists them with every source, the shown one first.
 *
 * Entries are given per source and may come later than the source itself
 * (gamefs_set_entries): prefixes alone answer about the folders above
 * every prefix (a mount's root), so a caller loads tables only where a
 * question needs them (gamefs_each_needed).
 *
 * Contract: format core, no FUSE, no global state, no locking (the caller
 * serialises).  struct gamefs owns copies of every string given; pointers
 * it hands out live until the next gamefs_add/gamefs_set_entries/
 * gamefs_free.  Paths asked about use '/' or '\'.
 */
#ifndef RTM_GAMEFS_H
#define RTM_GAMEFS_H

#include <stddef.h>

#include "util.h"

enum gamefs_node { GAMEFS_NONE, GAMEFS_DIR, GAMEFS_FILE };

struct gamefs;

struct gamefs *gamefs_new(void);
void gamefs_free(struct gamefs *g);

/* Adds source name (its path relative to SOURCE, copied) at prefix (len
 * bytes, raw as the archive's header or $PBOPREFIX$ gives it; NULL or
 * nothing left after normalising: name's base without ".pbo").  Its index,
 * or -1 out of memory or when a path does not fit PATH_MAX. */
long gamefs_add(struct gamefs *g, const char *name, const char *prefix, size_t len);
/* Source src's entries: n paths (copied and normalised; those left empty
 * are dropped), entry i keeping i as its number (the archive's entry
 * index).  Of equal paths (case folded) the first counts, as pbo_find()
 * takes it.  0, or -1 out of memory (src then has none). */
int gamefs_set_entries(struct gamefs *g, size_t src, const char *const *paths, size_t n);

size_t gamefs_count(const struct gamefs *g);
const char *gamefs_name(const struct gamefs *g, size_t src);
/* The normalised prefix, '\' between parts. */
const char *gamefs_prefix(const struct gamefs *g, size_t src);
int gamefs_loaded(const struct gamefs *g, size_t src);

/* Calls fn for every source whose entries are not loaded and are needed to
 * answer about path: those whose prefix is path or lies above it.  Stops
 * at fn's first non-zero result and returns it; else 0. */
typedef int (*gamefs_src_fn)(void *arg, size_t src);
int gamefs_each_needed(const struct gamefs *g, const char *path, gamefs_src_fn fn, void *arg);

/* What path is.  For GAMEFS_FILE: the shown source, its entry number and
 * the entry's normalised path ('/' between parts), owned by g.  For
 * GAMEFS_DIR: the source that spells it (entry -1, path NULL). */
struct gamefs_hit {
    enum gamefs_node node;
    long src, entry;
    const char *path;
};
enum gamefs_node gamefs_lookup(const struct gamefs *g, const char *path, struct gamefs_hit *hit);

/* Calls fn once for each name in folder dir, in case-folded byte order,
 * spelt as its shown source spells it (len bytes, not NUL-terminated),
 * with what lookup would say of it.  Stops at fn's first non-zero result
 * and returns it; -1 when dir is no folder (or memory runs out); else 0. */
typedef int (*gamefs_child_fn)(void *arg, const char *name, size_t len,
                               const struct gamefs_hit *hit);
int gamefs_list(const struct gamefs *g, const char *dir, gamefs_child_fn fn, void *arg);

/* conflicts.txt into b (appended): one line a contested path, in case-
 * folded order: the game path as the shown source spells it ('\' between
 * parts), then a tab and each source's name, the shown one first, in the
 * order of the rule.  Sources not loaded count as empty.  0, or -1 out of
 * memory. */
int gamefs_conflicts(const struct gamefs *g, struct rtm_buf *b);

#endif
