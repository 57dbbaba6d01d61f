/* badinput_testutil.h - what the parser's bad-input tests share
 * (test_badinput, test_badinput_shapes): the contract check every parse
 * goes through (a private heap copy of exactly the bytes, so that ASan sees
 * any over-read; a failure is -1, *out NULL and a message; a success renders
 * every view and its plain.rtm parses again), hand-written files that may
 * break the writers' rules (make_bmtr, make_plain), a deterministic random
 * source, and the group setup: both skeletons, LZO, and an alarm so that a
 * hang fails the run instead of stalling it. */
#ifndef RTM_BADINPUT_TESTUTIL_H
#define RTM_BADINPUT_TESTUTIL_H

#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "lzo.h"

#if defined(__SANITIZE_ADDRESS__)
#define RTM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RTM_TEST_ASAN 1
#endif
#endif

#ifdef RTM_TEST_ASAN
/* An allocation above 1.1 GiB is a failure of the "no huge allocation" rule:
 * ASan reports it and stops the test.  (Defined in badinput_testutil.c, not
 * static: ASan looks it up by name; that object, in every program that uses
 * these helpers, defines it once.) */
const char *__asan_default_options(void);
#endif

enum { HANG_SECONDS = 600 };

extern struct rtm_skeleton *skels[2]; /* ofp2, none */

/* ---- helpers ----------------------------------------------------------- */

extern uint64_t rng_state;

uint64_t rng(void);

double now(void);

void render_all(const struct rtm_anim *a, int skel);

/* Parses a private copy of data[0..len).  Checks the failure contract; a
 * success renders every view.  Returns 0 or -1 like rtm_parse(). */
int parse_check(const uint8_t *data, size_t len, int skel, struct rtm_error *err);

void render_all(const struct rtm_anim *a, int skel);

/* A valid parse, returned (caller frees). */
struct rtm_anim *parse_must(const uint8_t *data, size_t len, int skel);

void parse_fail(const uint8_t *data, size_t len, const char *why);

/* A BMTR with full control over the layout (bmtr_write.h). */
struct gen_bmtr {
    uint32_t version, nframes, nbones, nmeta, nprops;
    enum bmtr_compress compress;
    int v4_flags, empty_flag;
    uint32_t seed;
};

void make_bmtr(const struct gen_bmtr *g, struct rtm_buf *out);

/* A plain RTM written by hand, so that it can break the writer's rules. */
struct gen_plain {
    uint32_t nframes, nbones, nprops;
    int no_nul;             /* header and frame names fill all 32 bytes */
    size_t trailing;        /* junk bytes after the last frame */
    uint32_t seed;
};

void make_plain(const struct gen_plain *g, struct rtm_buf *out);

void put_u32_at(uint8_t *d, size_t at, uint32_t v);

int badinput_setup(void **state);

int badinput_teardown(void **state);

#endif
