/* The time budget of a run (--max-time): the order of its tasks when not
 * all of them may run, and how many will by the budget.  Pure functions
 * of the expected costs; the executor enforces the budget itself
 * (lt_exec_set_deadline).  Internal to engine/.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_BUDGET_H
#define LT_ENGINE_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* One task as the budget sees it. */
struct lt__budget_item {
    double cost_s;   /* expected wall seconds of its run */
    uint64_t group;  /* tasks of one group tell alike of the code (the
                        mutants of one source line) */
};

/* Writes into order[0..n) the indices of items in the order a run that
 * may stop part-way runs them: in rounds, the first taking the cheapest
 * item of every group, the second the next cheapest of every group, and
 * so on; within a round the cheapest first, ties by index.  A run cut at
 * any point then holds a verdict for as many groups as it could, each
 * from the cheapest of its tasks. */
void lt__budget_order(const struct lt__budget_item *items, size_t n,
                      size_t *order);

/* cost_s[0..n) run in that order on `jobs` children, each child taking
 * the next task when it is free: the number of tasks that end within
 * budget_s; *all_s (when not NULL) gets when the last one ends. */
size_t lt__budget_fit(const double *cost_s, size_t n, int jobs,
                      double budget_s, double *all_s);

#endif
