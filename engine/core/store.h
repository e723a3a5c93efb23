/* The SQLite store: WAL, batched transactions, idempotent writes keyed by
 * mutant id, a schema version, and a lock so that a second litmus on the
 * same database refuses to start.  engine/core/store.c defines the rows
 * every job shares; each job's own tables are defined beside the job
 * (the banners below say where) and declared here, where the callers
 * look.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_STORE_H
#define LT_ENGINE_STORE_H

#include <stddef.h>

#include "engine/core/telemetry.h"
#include "engine/core/verdict.h"
struct lt_mutant; /* operators/operators.h */

struct lt_store;

/* Opens or creates the database at `path`.  Refuses with LT_ELOCKED when
 * another process holds it (flock on "<path>.lock", held until close),
 * LT_ECORRUPT when the file is not an SQLite database or not litmus',
 * LT_ESCHEMA when written by another schema version.  *errmsg (caller
 * frees) gets a one-line explanation on failure. */
int lt_store_open(const char *path, struct lt_store **out, char **errmsg);
void lt_store_close(struct lt_store *st); /* accepts NULL */

/* One transaction per batch of writes. */
int lt_store_begin(struct lt_store *st);
int lt_store_commit(struct lt_store *st);
/* Drops the open batch (close does the same for an uncommitted batch). */
int lt_store_rollback(struct lt_store *st);

/* SQLite's message for the last failed call on st; never NULL, valid
 * until the next call on st. */
const char *lt_store_errmsg(struct lt_store *st);

/* Settings of the run that made the database (paths, tests, operators,
 * pytest args) as a canonical string.  Returns 0 and *out NULL when unset. */
int lt_store_get_meta(struct lt_store *st, const char *key, char **out);
int lt_store_set_meta(struct lt_store *st, const char *key, const char *val);

/* The meta key of a run that stopped at its --max-time: the budget in
 * seconds; unset (or "") for any other run. */
#define LT_META_BUDGET_STOP "budget_stop"

/* 1 when the store holds a run that its --max-time stopped and that no
 * later run finished (LT_META_BUDGET_STOP set, "complete" not "1"): its
 * mutants without a result are not_run, not pending.  0 otherwise, also
 * when the meta cannot be read. */
int lt_store_budget_stopped(struct lt_store *st);

/* Records a source file and its content hash.  If the path was stored
 * with another hash, its mutants and their results are deleted first
 * (the file changed: old results mean nothing).  *changed set to 1 then. */
int lt_store_put_file(struct lt_store *st, const char *path,
                      const char *sha256_hex, const char *source, size_t len,
                      int *changed);
/* The stored source of a file (caller frees); LT_ENOTFOUND if absent. */
int lt_store_get_file(struct lt_store *st, const char *path, char **source,
                      size_t *len);

/* fn per stored file in path order (borrowed strings); stops and
 * returns fn's value when it is non-zero. */
typedef int (*lt_store_file_fn)(const char *path, const char *sha256_hex,
                                void *ud);
int lt_store_each_file(struct lt_store *st, lt_store_file_fn fn, void *ud);

/* INSERT OR IGNORE by id. */
int lt_store_put_mutant(struct lt_store *st, const struct lt_mutant *m);
/* First result wins: a result already stored for the id is kept. */
int lt_store_put_result(struct lt_store *st, const struct lt_result *r);
/* 1 if a result is stored for id, 0 if not, negative on error. */
int lt_store_has_result(struct lt_store *st, const char *id);

/* A mutant by id or unique id prefix (>= 4 chars); *has_result tells if r
 * was filled.  LT_ENOTFOUND, or LT_EUSAGE for an ambiguous prefix.
 * The strings in m and r are heap copies: free them with
 * lt_store_mutant_free_fields(m) and lt_result_clear(r). */
int lt_store_get_mutant(struct lt_store *st, const char *id_or_prefix,
                        struct lt_mutant *m, struct lt_result *r,
                        int *has_result);

/* Calls fn for every mutant in (file, start, id) order with its result
 * (r NULL when none); stops and returns fn's value if it is non-zero.
 * m, r and their strings belong to the store and live only during the
 * call: copy what you keep, free nothing. */
typedef int (*lt_store_each_fn)(const struct lt_mutant *m,
                                const struct lt_result *r, void *ud);
int lt_store_each(struct lt_store *st, lt_store_each_fn fn, void *ud);

/* Baseline of one collected test. */
struct lt_test_record {
    int index;
    const char *nodeid;
    double baseline_ms;
    const char *outcome; /* "passed", "skipped", "flaky" */
    const char *coverage; /* lines it runs: "FILE:1-4,9\n..." or NULL */
};
/* Replaces the stored test list. */
int lt_store_put_tests(struct lt_store *st, const struct lt_test_record *t,
                       size_t n);

/* Calls fn per stored test in index order (borrowed strings, valid during
 * the call); stops and returns fn's value when it is non-zero. */
typedef int (*lt_store_test_fn)(const struct lt_test_record *t, void *ud);
int lt_store_each_test(struct lt_store *st, lt_store_test_fn fn, void *ud);

/* Counts every stored result into s. */
int lt_store_summary(struct lt_store *st, struct lt_summary *s);

/* Frees the strings of a mutant filled by lt_store_get_mutant and zeroes
 * it (the same as lt_mutant_clear, without linking the operators). */
void lt_store_mutant_free_fields(struct lt_mutant *m);

/* What a job keeps in a store it ran as one shard of many (--shard,
 * docs/scale.md), for `litmus merge`: the meta keys of its plan, its
 * shard and its end, and the tables of its own.  Each job defines one
 * beside its tables; the command line hands them to lt_merge(), which
 * names no job's keys or tables itself. */
struct lt_shard_store {
    const char *job;          /* the command: "score", "dataset", ... */
    const char *settings_key; /* meta: the plan's settings */
    const char *shard_key;    /* meta: "I/N" */
    const char *complete_key; /* meta: "1" once the shard ended */
    /* Its own tables, as lt_store_absorb() takes them: those the merged
     * store gets, and those whose rows are copied into it (each list
     * NULL-terminated).  NULL: the job keeps its results in core's
     * tables (files, mutants, results, tests), which merge unites
     * mutant by mutant. */
    const char *const *create;
    const char *const *copy;
};

/* Copies tables of the litmus database at path into st, in a transaction
 * of its own (outside a batch): each table named in `create` that st
 * lacks is created as path defines it, then the rows of each table named
 * in `copy` that path holds are added, a row whose key st holds already
 * being kept (first stored wins).  Both lists end with NULL (either may
 * be NULL).  This is how `litmus merge` unites a job's tables without
 * knowing their columns.  0 or a negative code. */
int lt_store_absorb(struct lt_store *st, const char *path,
                    const char *const *create, const char *const *copy);

/*** Telemetry (`litmus score --telemetry`) ***/

/* Creates the tables telemetry and telemetry_refused when missing
 * (outside a batch). */
int lt_store_telemetry_init(struct lt_store *st);
/* Stores (replaces) a mutant's sample; nothing when s->summary is NULL. */
int lt_store_put_telemetry(struct lt_store *st, const char *mutant_id,
                           const struct lt_telemetry_sample *s);
/* Sets *summary (caller frees), or leaves it NULL when none is stored. */
int lt_store_get_telemetry(struct lt_store *st, const char *mutant_id,
                           char **summary);
/* The refused system calls summed per operator, largest first: fn gets
 * the operator, the call's name, the total count and how many mutants
 * made it; a nonzero return stops the walk and is returned. */
int lt_store_each_refusal(struct lt_store *st,
                          int (*fn)(const char *op, const char *syscall,
                                    long long total, long long mutants,
                                    void *ud),
                          void *ud);

#endif
