/* cfg_testutil.h - helpers the config tests share: parsing asserted to
 * succeed, rapify/read/text round trips, a model against the shared
 * configs' expected JSON (../shared/configs/README.md), and the list of
 * those files.
 * Defined in tests/unit/lib/cfg_testutil.c. */
#ifndef RTM_CFG_TESTUTIL_H
#define RTM_CFG_TESTUTIL_H

#include "testutil.h"

#include <dirent.h>

#include "cfg_pp.h"
#include "config.h"
#include "gamepath.h"
#include "json_mini.h"
#include "rap_write.h"

struct cfg *text_ok(const char *s);

/* The error message of text that must not parse. */
const char *text_err(const char *s, struct rtm_error *err);

/* Reads bytes (a private heap copy of exactly len, so ASan sees an
 * over-read) as rapified: 0 or -1; *out as rap_read() leaves it. */
int rap_try(const void *data, size_t len, struct cfg **out, struct rtm_error *err);

struct cfg *rap_ok(const void *data, size_t len);

char *text_of(const struct cfg *c, size_t *len);

/* Asserts c == text(c) read back, and c == rapify(c) read back; checks
 * the text has no trailing spaces. */
void cfg_round_trip(const struct cfg *c);

/* ---- addon projects ---- */

/* The preprocessor's options for a file of an addon source tree (path in
 * it): includes found as the game finds them (gamepath.h), through the
 * project *pr, the caller's to free (gamepath_project_free). */
struct cfg_pp_opts project_opts(const char *path, struct gamepath_project **pr);

/* The config at path, loaded with o; asserted to load (a failure names
 * the file and says why). */
struct cfg *load_file_ok(const char *path, const struct cfg_pp_opts *o);

/* ---- the shared configs' expected trees ---- */

/* Whether entry i is the JSON node j; *why names the first difference. */
int json_entry_eq(const struct cfg *c, uint32_t i, const struct jm_value *j,
                  char *why, size_t n);

/* The shared configs (sorted names) into names; their count, or -1
 * without ../shared/configs. */
int shared_configs(char dir[4096], char ***names);

void free_names(char **names, int n);

#endif
