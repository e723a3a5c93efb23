/* The report layer's entry points for the jobs: what `litmus score` calls
 * once its run is stored (the public `litmus report` is lt_report() in
 * engine.h).  Internal to engine/.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_REPORT_H
#define LT_ENGINE_REPORT_H

#include <stdio.h>

#include "engine/engine.h"
#include "engine/core/store.h"

/* Renders the stored run in format to out, then what ro (or NULL) asks
 * for: the HTML report, the survivor baseline and its gate.  Returns the
 * exit code: 1 when the score is below fail_under (-1: no gate) or a
 * survivor is new to ro->survivors_in, 2 for a bad baseline or HTML
 * prerequisite, 3 when the store cannot be read. */
int lt__report_score(struct lt_store *st, enum lt_format format,
                     double fail_under, FILE *out,
                     const struct lt_report_opts *ro);

#endif
