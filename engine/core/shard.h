/* Shards: which share of a job's work one process runs (--shard I/N,
 * docs/scale.md).  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_SHARD_H
#define LT_ENGINE_CORE_SHARD_H

#include <stddef.h>

/* Parses a --shard value "I/N" (0 <= I < N <= LT_SHARD_MAX).  0, or -1
 * with a one-line *why (static text) for a malformed or out-of-range
 * value such as "4/3". */
#define LT_SHARD_MAX 100000
int lt_shard_parse(const char *s, unsigned *index, unsigned *count,
                   const char **why);

/* Deals the n items at base (each `size` bytes) to shard index/count:
 * sorted by cmp, which compares pointers to items (as qsort over an
 * array of pointers passes them), then round-robin, so shards differ by
 * at most one item and the same input always deals the same way.
 * keep[i] becomes 1 for the items of shard index. */
void lt__shard_deal(const void *base, size_t n, size_t size,
                    int (*cmp)(const void *, const void *), unsigned index,
                    unsigned count, unsigned char *keep);

#endif
