/* sha256.h - a compact SHA-256 (FIPS 180-4) for the tests, written from the
 * standard; public domain.
 * Defined in tests/unit/lib/sha256.c.
 *
 *   sha256_hex(data, len, hex)   hex needs SHA256_HEX_CHARS bytes (64 + NUL)
 */
#ifndef RTM_TEST_SHA256_H
#define RTM_TEST_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { SHA256_HEX_CHARS = 65 };

struct sha256 {
    uint32_t h[8];
    uint8_t block[64];
    size_t fill;
    uint64_t bytes;
};

void sha256_init(struct sha256 *s);

void sha256_update(struct sha256 *s, const void *data, size_t len);

void sha256_final(struct sha256 *s, uint8_t out[32]);

void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_CHARS]);

#endif
