/* Test selection of `litmus score` (docs/design.md, "Coverage and
 * selection").  SPDX-License-Identifier: MIT */
#include "engine/core/select.h"

#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

/* Sorts tests cheapest first, by the line events each executed in the
 * first baseline run, then by collection order.  Unlike times, line
 * events are the same from run to run, so the order, and with it which
 * test a mutant meets first, never depends on machine load. */
static const double *sort_key;

static int cmp_fastest(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_key[x] != sort_key[y])
        return sort_key[x] < sort_key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Contract: see select.h. */
size_t lt__select_tests(const struct lt__selection *s, long line,
                        long end_line, int structural, uint32_t **out)
{
    size_t nt = s->n_tests;
    unsigned char *mark = xcalloc(nt + 1, 1);
    if (structural && s->only) {
        memcpy(mark, s->only, nt);
    } else if (structural) {
        memset(mark, 1, nt);
    } else {
        for (long l = line; l <= end_line; l++) {
            const uint32_t *tests = NULL;
            size_t n = s->cover(s->ctx, l, &tests);
            for (size_t k = 0; k < n; k++)
                if (tests[k] < nt)
                    mark[tests[k]] = 1;
        }
    }
    uint32_t *sel = xmalloc((nt + 1) * sizeof(uint32_t));
    size_t n = 0;
    for (size_t i = 0; i < nt; i++)
        if (mark[i] && s->runnable[i])
            sel[n++] = (uint32_t)i;
    free(mark);
    sort_key = s->work;
    qsort(sel, n, sizeof(uint32_t), cmp_fastest);
    *out = sel;
    return n;
}
