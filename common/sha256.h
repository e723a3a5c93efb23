/* SHA-256 (FIPS 180-4), streaming.  SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_SHA256_H
#define LT_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct lt_sha256 {
    uint32_t h[8];
    uint8_t block[64];
    size_t fill;
    uint64_t total;
};

void lt_sha256_init(struct lt_sha256 *s);
void lt_sha256_update(struct lt_sha256 *s, const void *data, size_t n);
void lt_sha256_final(struct lt_sha256 *s, uint8_t out[32]);
/* The digest of data as 64 lowercase hex digits and a NUL. */
void lt_sha256_hex(const void *data, size_t len, char out[65]);

#endif
