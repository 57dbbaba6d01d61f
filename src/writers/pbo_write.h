/* pbo_write.h - the project's own PBO writer, for test fixtures, fuzz seeds
 * and benchmark trees.  It writes what pbo.h reads: a "Vers" header with
 * properties, stored or LZSS-compressed entries, the end header, and a zero
 * byte with the SHA-1 of everything before it.
 *
 * Contract: the entries and properties are borrowed for the call; bytes are
 * appended to the caller's buffer.  Returns -1 only when out of memory or
 * when a name, key or value is longer than PBO_NAME_MAX or an entry does not
 * fit a u32 size.  No global state.
 */
#ifndef RTM_PBO_WRITE_H
#define RTM_PBO_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum pbo_pack {
    PBO_PACK_STORE,     /* method 0, original size 0 (as Arma 3 packers write) */
    PBO_PACK_CPRS,      /* method "Cprs", LZSS, original size given */
    PBO_PACK_OFP,       /* method 0 with the original size: LZSS, as old packers
                           (stored instead when that would read as stored) */
};

struct pbo_write_entry {
    const char *name;           /* backslash-separated */
    const uint8_t *data;
    size_t len;
    enum pbo_pack pack;
    uint32_t timestamp;
};

struct pbo_write_prop {
    const char *key, *value;
};

enum {
    PBO_WRITE_NO_VERS    = 1,   /* no "Vers" header (props ignored), as OFP */
    PBO_WRITE_NO_TRAILER = 2,   /* no zero byte and SHA-1 */
};

int pbo_write(const struct pbo_write_entry *entries, size_t n,
              const struct pbo_write_prop *props, size_t nprops,
              unsigned flags, struct rtm_buf *out);

/* BI's LZSS (pbo.c describes it): literals and back-references found by a
 * hash-chain search, then the u32 sum of the bytes.  Appends to out. */
int pbo_lzss_encode(const uint8_t *src, size_t len, struct rtm_buf *out);

/* SHA-1 (FIPS 180-4), for the archive trailer. */
void pbo_sha1(const uint8_t *data, size_t len, uint8_t digest[20]);

#endif
