/* The budget's rules: see budget.h.  SPDX-License-Identifier: MIT */
#include "engine/core/budget.h"

#include <stdlib.h>

#include "common/xmalloc.h"

struct entry {
    uint64_t group;
    double cost;
    size_t index;
    size_t round;
};

/* Cost, then index: the order inside a group and inside a round. */
static int cheaper(const struct entry *x, const struct entry *y)
{
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int cmp_group(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    return cheaper(x, y);
}

static int cmp_round(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    return cheaper(x, y);
}

/* Contract: see budget.h. */
void lt__budget_order(const struct lt__budget_item *items, size_t n,
                      size_t *order)
{
    struct entry *e = xcalloc(n + 1, sizeof(*e));
    for (size_t i = 0; i < n; i++)
        e[i] = (struct entry){items[i].group, items[i].cost_s, i, 0};
    /* A task's round is its rank among its group's, cheapest first. */
    qsort(e, n, sizeof(*e), cmp_group);
    for (size_t i = 1; i < n; i++)
        if (e[i].group == e[i - 1].group)
            e[i].round = e[i - 1].round + 1;
    qsort(e, n, sizeof(*e), cmp_round);
    for (size_t i = 0; i < n; i++)
        order[i] = e[i].index;
    free(e);
}

/* Contract: see budget.h. */
size_t lt__budget_fit(const double *cost_s, size_t n, int jobs,
                      double budget_s, double *all_s)
{
    if (jobs < 1)
        jobs = 1;
    if ((size_t)jobs > n)
        jobs = n > 0 ? (int)n : 1;
    /* When each child is free next; the earliest takes the next task. */
    double *free_at = xcalloc((size_t)jobs, sizeof(double));
    size_t fit = 0;
    double last = 0;
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        for (int c = 1; c < jobs; c++)
            if (free_at[c] < free_at[k])
                k = c;
        free_at[k] += cost_s[i] > 0 ? cost_s[i] : 0;
        if (free_at[k] <= budget_s)
            fit++;
        if (free_at[k] > last)
            last = free_at[k];
    }
    free(free_at);
    if (all_s)
        *all_s = last;
    return fit;
}
