/* testutil.h - what every cmocka test of rtmfs includes.
 *
 * Tests run from the repository root (make check does so).  The shared
 * corpus lives in ../shared unless RTMFS_SHARED points elsewhere; tests that
 * need it call shared_dir() and skip with a message when it is absent.
 * A skipped test says why with skip_because(), which tests/lib/unit.sh turns
 * into the reason make check's summary gives.  Every main returns
 * run_test_cases(tests, setup, teardown), which runs one case, or those a
 * pattern names, when TEST_CASE says so.
 */
#ifndef RTM_TESTUTIL_H
#define RTM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bmtr_write.h"
#include "rtm.h"
#include "samples.h"
#include "skeleton_cfg.h"
#include "views.h"

/* ---- running a test program ------------------------------------------ */

/* With TEST_CASE set (and not empty), has cmocka run only the cases whose
 * name it matches; 1, after saying so on stderr with the program's cases,
 * when it matches none (a run of nothing would pass). */
int select_cases(const struct CMUnitTest *tests, size_t n);

/* What every test program's main returns: its cases run, all of them or
 * those TEST_CASE names (make check TEST=test_x TEST_CASE=NAME, '*' and
 * '?' as in a shell), with the group's setup and teardown (or NULL). */
#define run_test_cases(tests, group_setup, group_teardown)                          \
    (select_cases((tests), sizeof(tests) / sizeof((tests)[0]))                      \
         ? 1                                                                        \
         : cmocka_run_group_tests(tests, group_setup, group_teardown))

/* Skips the current test for REASON, a short phrase shared with the shell
 * tests ("no ../shared").  cmocka's skip() takes no reason, so it is printed
 * just before, as a TAP comment. */
#define skip_because(reason)                                                     \
    do {                                                                         \
        printf("# skip reason: %s\n", reason);                                  \
        fflush(stdout);                                                          \
        skip();                                                                  \
    } while (0)

/* A deterministic random source: a 64-bit LCG (Knuth's MMIX constants)
 * whose high half, the better mixed, lcg_next returns.  Seed it by setting
 * lcg_state. */
extern uint64_t lcg_state;
uint32_t lcg_next(void);

/* The shared corpus directory, or NULL (after saying so) when absent. */
const char *shared_dir(void);

/* The shared corpus's .rtm files, as DIR/corpus/FILE in C-locale order (as
 * src/scripts/ofp2_table.sh sorts them). */
struct corpus {
    char **path;
    size_t n;
};

int corpus_cmp(const void *a, const void *b);

/* Every .rtm MANIFEST.tsv lists; -1 without the corpus. */
int corpus_list(struct corpus *c);

void corpus_free(struct corpus *c);

/* Parses bytes with a skeleton spec ("ofp2", "none"); asserts success. */
struct rtm_anim *parse_ok(const struct rtm_buf *b, const char *skel);

/* Parses bytes with a skeleton given as text (skeleton.h's file form,
 * named name); asserts success. */
struct rtm_anim *parse_with_skeleton(const struct rtm_buf *b, const char *text,
                                     const char *name);

/* A corpus file read and parsed with s; asserts success. */
struct rtm_anim *corpus_anim(const char *path, const struct rtm_skeleton *s);

/* The writer's standing figure (samples.h) of nframes frames, parsed with
 * its own skeleton (pivots); asserts success. */
struct rtm_anim *sample_figure(uint32_t nframes);

/* Renders a view into a new NUL-terminated string (caller frees). */
char *render(const struct rtm_anim *a, struct rtm_view v, size_t *len);

#endif
