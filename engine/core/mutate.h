/* The mutation pipeline every job shares: the mutants of one text are
 * compiled once (equivalent and invalid ones never run, function-only
 * changes may carry their compiled code) and grouped by what they compile
 * to (a duplicate runs once, through its representative).  Generation
 * (lt_operators_generate) comes before, test selection (select.h) after.
 * Internal to engine/.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_MUTATE_H
#define LT_ENGINE_CORE_MUTATE_H

#include <stddef.h>

#include "operators/operators.h"

/* Analyses the n mutants of `text` (as file `path`) into an[] and sets
 * dup_of[i] to the earliest runnable mutant that compiles to the same
 * code, or -1.  swap_budget: NULL, no swap payloads; else the bytes of
 * payloads still allowed, lowered by those made.  progress (or NULL) is
 * called with arg after each batch of a few hundred mutants (compiling
 * one takes milliseconds), with how many are analysed so far.  0, or a
 * negative code (nothing is usable then).  The caller frees
 * an[i].detail and an[i].swap (lt__mutants_clear). */
int lt__mutants_analyse(const char *path, const char *text, size_t len,
                        const struct lt_mutant *items, size_t n,
                        size_t *swap_budget, struct lt_change_analysis *an,
                        long *dup_of, void (*progress)(void *, size_t),
                        void *arg);

/* Frees what lt__mutants_analyse() allocated in an[0..n). */
void lt__mutants_clear(struct lt_change_analysis *an, size_t n);

#endif
