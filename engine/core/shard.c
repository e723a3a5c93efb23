/* Shards: which share of a job's work one process runs (--shard I/N).
 * SPDX-License-Identifier: MIT */
#include "engine/core/shard.h"

#include <errno.h>
#include <stdlib.h>

#include "common/xmalloc.h"

/* Contract: see shard.h.  Digits only: no sign, no spaces, nothing
 * after N, so that a typo cannot select another slice. */
int lt_shard_parse(const char *s, unsigned *index, unsigned *count,
                   const char **why)
{
    char *end;
    *why = "expected I/N with 0 <= I < N, e.g. 0/4";
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long i = strtoul(s, &end, 10);
    if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
        return -1;
    unsigned long n = strtoul(end + 1, &end, 10);
    if (errno || *end)
        return -1;
    if (n == 0 || n > LT_SHARD_MAX) {
        *why = "N must be 1.." "100000";
        return -1;
    }
    if (i >= n) {
        *why = "I counts from 0 and must be below N (shards 0/N..N-1/N)";
        return -1;
    }
    *index = (unsigned)i;
    *count = (unsigned)n;
    return 0;
}

void lt__shard_deal(const void *base, size_t n, size_t size,
                    int (*cmp)(const void *, const void *), unsigned index,
                    unsigned count, unsigned char *keep)
{
    const char **by = xmalloc((n + 1) * sizeof(*by));
    for (size_t i = 0; i < n; i++)
        by[i] = (const char *)base + i * size;
    qsort(by, n, sizeof(*by), cmp);
    for (size_t k = 0; k < n; k++)
        keep[(size_t)(by[k] - (const char *)base) / size] =
            k % count == index;
    free(by);
}
