/* gamepath.h - game paths: where the game sees a file ("\z\ace\addons\
 * goggles\anim\WipeGlasses.rtm"), by the prefix of the archive or of the
 * loose addon folder it lies in.
 *
 * Rules:
 *  - an archive's game path is its "prefix" header property; without one,
 *    its file name without ".pbo" (any case), as the game does;
 *  - a loose folder's is given by the nearest "$PBOPREFIX$" file in it or
 *    above it (HEMTT's, BI's and Mikero's convention): when the file's
 *    lines are key=value, its "prefix=" line; otherwise its first
 *    non-empty line; trimmed either way;
 *  - written with '\' between parts, no leading or trailing '\', empty,
 *    "." and ".." parts dropped (so nothing climbs out of its prefix), the
 *    case as given; compared ASCII case-insensitively, '/' equal to '\'.
 *
 * The project resolver is rtmcat's answer to cfg_pp.h's game-path
 * includes: from a file it walks up to the folder that holds "addons/"
 * (HEMTT's layout), maps each addons/NAME/ to its $PBOPREFIX$ (NAME
 * without one), and finds files below a prefix without regard to case.
 *
 * Contract: outputs go to caller buffers (-1 when they do not fit); a
 * project owns its table until gamepath_project_free().  No global state.
 */
#ifndef RTM_GAMEPATH_H
#define RTM_GAMEPATH_H

#include <stddef.h>
#include <stdint.h>

struct pbo;

/* in normalised into out (n bytes): its length, or -1 when it does not fit. */
long gamepath_norm(const char *in, size_t len, char *out, size_t n);
/* Whether game paths a and b name the same file. */
int gamepath_equal(const char *a, const char *b);
/* The archive's prefix (normalised), else archive_path's base name without
 * ".pbo": 0, or -1 when it does not fit out. */
int gamepath_archive(const struct pbo *p, const char *archive_path, char *out, size_t n);
/* The "prefix" header property from the first len bytes of an archive,
 * without reading its table: 1 with *val (into head, vlen bytes, not
 * NUL-terminated) the first such property's value, as pbo_prop() would
 * give it; 0 when the archive has none (no properties, or none of that
 * name); -1 when head ends before the properties do (read more, or read
 * the table). */
int gamepath_head_prefix(const uint8_t *head, size_t len, const char **val, size_t *vlen);
/* The prefix a $PBOPREFIX$ file's bytes give: 0, or -1 when they give none. */
int gamepath_pboprefix(const char *text, size_t len, char *out, size_t n);
/* The game path of a file or folder on disk by the nearest $PBOPREFIX$
 * at or above it: 0 with out (prefix\relative path) and root (the folder
 * holding $PBOPREFIX$, when root is not NULL), or -1 when there is none
 * (errno ENOENT) or it cannot be told (errno ENOMEM: memory ran out). */
int gamepath_loose(const char *path, char *out, size_t n, char *root, size_t rn);

struct gamepath_project;
/* The project around file: 0, or -1 when no folder above holds addons/
 * (*out NULL) or memory runs out. */
int gamepath_project_open(const char *file, struct gamepath_project **out);
/* A cfg_pp_resolve_fn: arg is the project. */
int gamepath_project_resolve(void *arg, const char *gamepath, char *out, size_t n);
/* The project's include/ folder, or NULL when it has none. */
const char *gamepath_project_include(const struct gamepath_project *pr);
void gamepath_project_free(struct gamepath_project *pr);

#endif
