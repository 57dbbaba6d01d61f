/* pbo_testutil.h - what the PBO tests share (test_pbo, test_pbo_lzss,
 * test_pbo_badinput): text-like bytes that compress, a table read from a
 * whole archive (asserted), and the fixture archive written by pbo_write():
 * stored, "Cprs" and OFP-style entries, nested folders, empty entries,
 * properties with a prefix, and the RTM samples. */
#ifndef RTM_PBO_TESTUTIL_H
#define RTM_PBO_TESTUTIL_H

#include "testutil.h"
#include "pbo.h"
#include "pbo_write.h"

/* n bytes of config-like text, which compresses (deterministic in seed). */
uint8_t *text_bytes(size_t n, uint32_t seed);

/* The table of the whole archive b; asserts success. */
struct pbo *parse_full(const struct rtm_buf *b);

struct fixture {
    struct rtm_buf pbo;
    struct rtm_buf plain, bmtr;
    uint8_t *text;
    size_t text_len;
};

void pbo_fixture_build(struct fixture *f, unsigned flags);

void pbo_fixture_free(struct fixture *f);

#endif
