/* The reuse keys of `litmus score`'s incremental runs in its database
 * (reuse_store.c, docs/incremental.md).
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_REUSE_STORE_H
#define LT_ENGINE_REUSE_STORE_H

#include "engine/core/store.h"

/* `litmus score`'s shard stores (lt_merge): its results are core's. */
extern const struct lt_shard_store lt_score_shard_store;

/* The reuse keys of the mutants of a run (docs/incremental.md): init
 * creates their table (outside a batch), put stores one, clear_run forgets
 * the run's mutants, results and keys. */
int lt_store_reuse_init(struct lt_store *st);
int lt_store_put_reuse_key(struct lt_store *st, const char *mutant_id,
                           const char *key, const char *tests);
/* Per stored reuse key whose mutant has a result; r's strings are
 * borrowed, valid during the call. */
typedef int (*lt_store_reuse_fn)(const char *mutant_id, const char *key,
                                 const char *tests,
                                 const struct lt_result *r, void *ud);
int lt_store_each_reuse(struct lt_store *st, lt_store_reuse_fn fn, void *ud);
int lt_store_clear_run(struct lt_store *st);

/* One test of a stored baseline: its tests-table record (wall time,
 * outcome, coverage text) and what reusing it needs besides. */
struct lt_baseline_deps {
    const char *nodeid;
    double wall_ms, cpu_ms, work;
    unsigned needs;          /* LT_NEEDS_* bits */
    const char *outcome;     /* "passed", "skipped", "flaky", "failing" */
    const char *coverage;    /* "FILE:1-4,9\n..." or NULL */
    const char *deps;        /* digest of the files the outcome depends on */
};
int lt_store_clear_baseline_deps(struct lt_store *st);
int lt_store_put_baseline_deps(struct lt_store *st,
                               const struct lt_baseline_deps *d);
typedef int (*lt_store_baseline_deps_fn)(const struct lt_baseline_deps *d,
                                         void *ud);
int lt_store_each_baseline_deps(struct lt_store *st,
                                lt_store_baseline_deps_fn fn, void *ud);

#endif
