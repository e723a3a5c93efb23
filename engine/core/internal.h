/* Shared between the engine's files; not part of its public API.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_INTERNAL_H
#define LT_ENGINE_INTERNAL_H

#include <stdio.h>

#include "engine/engine.h"
#include "engine/core/store.h"
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

#include <sys/types.h>

/* Peak resident set of a process (0: this one) in KiB. */
long lt__peak_rss_kb(pid_t pid);

/* The engine's executable, which zygotes run (lt_engine_set_exe;
 * engine/core/exec.c). */
const char *lt__engine_exe(void);

/* Deals the n items at base (each `size` bytes) to shard index/count:
 * sorted by cmp, which compares pointers to items (as qsort over an
 * array of pointers passes them), then round-robin, so shards differ by
 * at most one item and the same input always deals the same way.
 * keep[i] becomes 1 for the items of shard index (engine/core/shard.c). */
void lt__shard_deal(const void *base, size_t n, size_t size,
                    int (*cmp)(const void *, const void *), unsigned index,
                    unsigned count, unsigned char *keep);

/* Monotonic seconds. */
double lt__now(void);

/* engine/core/evidence.c: a finished job's evidence for lt_verdict_decide()
 * (contracts there). */
struct pool;
struct job;
struct lt_evidence;
void lt__job_evidence(const struct pool *pool, const struct job *j,
                      struct lt_evidence *ev);
void lt__evidence_clear(struct lt_evidence *ev);

/* engine/core/exit.c: the messages that end a job early (contracts there). */
enum lt_exit lt__store_write_failed(struct lt_store *st, const char *db,
                                    int rc);
enum lt_exit lt__exit_interrupted(void);

/* Renders the score of the plan's mutants from the store in format, then
 * what ro (or NULL) asks for: the HTML report, the survivor baseline and
 * its gate.  Returns the exit code: 1 when the score is below fail_under
 * or a survivor is new to ro->survivors_in (engine/report/report.c). */
int lt__report_score(struct lt_store *st, const struct lt_plan *plan,
                     enum lt_format format, double fail_under,
                     unsigned sandbox_features, FILE *out,
                     const struct lt_report_opts *ro);

#endif
