/* The mutation pipeline: see mutate.h.  SPDX-License-Identifier: MIT */
#include "engine/core/mutate.h"

#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

/* Mutants compiled in one call into the embedded interpreter (which keeps
 * the original's code between calls): a progress report between two
 * batches comes every second or so. */
#define ANALYSE_BATCH 256

int lt__mutants_analyse(const char *path, const char *text, size_t len,
                        const struct lt_mutant *items, size_t n,
                        size_t *swap_budget, struct lt_change_analysis *an,
                        long *dup_of, void (*progress)(void *, size_t),
                        void *arg)
{
    for (size_t i = 0; i < n; i++)
        dup_of[i] = -1;
    if (n == 0)
        return 0;
    struct lt_change *ch = xcalloc(n, sizeof(*ch));
    for (size_t i = 0; i < n; i++)
        ch[i] = (struct lt_change){items[i].start, items[i].end,
                                   items[i].replacement};
    int rc = 0;
    for (size_t from = 0; from < n && rc == 0; from += ANALYSE_BATCH) {
        size_t k = n - from < ANALYSE_BATCH ? n - from : ANALYSE_BATCH;
        rc = swap_budget ? lt_analyse_swaps(path, text, len, ch + from, k,
                                            an + from, swap_budget)
                         : lt_analyse(path, text, len, ch + from, k,
                                      an + from);
        if (rc == 0 && progress)
            progress(arg, from + k);
    }
    free(ch);
    if (rc < 0) {
        /* What the batches before the failed one made. */
        lt__mutants_clear(an, n);
        return rc;
    }
    /* Each runnable mutant is compared with the representatives before
     * it, newest first: at worst quadratic in the mutants of one text,
     * strcmp of 16 characters each. */
    for (size_t i = 0; i < n; i++) {
        if (an[i].status != LT_CHANGE_OK)
            continue;
        for (size_t k = i; k-- > 0;) {
            if (an[k].status == LT_CHANGE_OK && dup_of[k] < 0 &&
                strcmp(an[k].fingerprint, an[i].fingerprint) == 0) {
                dup_of[i] = (long)k;
                break;
            }
        }
    }
    return 0;
}

void lt__mutants_clear(struct lt_change_analysis *an, size_t n)
{
    for (size_t i = 0; an && i < n; i++) {
        free(an[i].detail);
        free(an[i].swap);
        an[i].detail = NULL;
        an[i].swap = NULL;
    }
}
