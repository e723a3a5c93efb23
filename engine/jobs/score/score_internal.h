/* What the files of `litmus score` share: the plan of a run (its subject
 * files and their mutants).  Internal to engine/jobs/score.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_SCORE_INTERNAL_H
#define LT_ENGINE_SCORE_INTERNAL_H

#include <stddef.h>

#include "operators/operators.h"

struct lt_plan_file {
    char *path;   /* absolute */
    char *source;
    size_t len;
    char sha[65];
};

/* The subject files and every mutant of them, in file then source order. */
struct lt_plan {
    struct lt_plan_file *files;
    size_t n_files;
    struct lt_mutant_list mutants;
    size_t *mutant_file; /* per mutant: index into files */
};

void lt__plan_free(struct lt_plan *p);

#endif
