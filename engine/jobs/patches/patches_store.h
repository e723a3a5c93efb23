/* `litmus patches`'s tables in a litmus database (patches_store.c):
 * the triaged patches and the cache of candidate texts' results.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_PATCHES_STORE_H
#define LT_ENGINE_PATCHES_STORE_H

#include "engine/core/store.h"

/* `litmus patches`'s shard stores (lt_merge): its tables. */
extern const struct lt_shard_store lt_patches_shard_store;

/* Creates the tables patch_runs, candidate_results and candidate_mutants
 * when missing (outside a batch).  The mutation tables are untouched. */
int lt_store_patches_init(struct lt_store *st);

/* One layer's JSON result for a candidate text (program = the program's
 * fingerprint, text_sha = SHA-256 of the text).  Put replaces; get sets
 * *json (caller frees) or leaves it NULL when nothing is stored. */
int lt_store_put_candidate_result(struct lt_store *st, const char *program,
                                  const char *text_sha, const char *layer,
                                  const char *json);
int lt_store_get_candidate_result(struct lt_store *st, const char *program,
                                  const char *text_sha, const char *layer,
                                  char **json);

/* The verdict of one mutant of a candidate text. */
struct lt_candidate_mutant {
    const char *program, *text_sha, *mutant_id;
    const char *verdict;   /* lt_verdict_name() */
    const char *killed_by; /* or NULL */
    const char *detail;    /* or NULL */
    double duration_ms;
};
/* First verdict wins. */
int lt_store_put_candidate_mutant(struct lt_store *st,
                                  const struct lt_candidate_mutant *m);
/* fn per stored mutant of (program, text_sha); borrowed strings. */
typedef int (*lt_store_cmut_fn)(const struct lt_candidate_mutant *m,
                                void *ud);
int lt_store_each_candidate_mutant(struct lt_store *st, const char *program,
                                   const char *text_sha,
                                   lt_store_cmut_fn fn, void *ud);

/* One triaged patch: its verdict and evidence (JSON object text). */
struct lt_patch_run {
    long long seq;          /* input order */
    const char *program, *run_id;
    const char *unit;       /* the program's fingerprint */
    const char *text_sha;
    const char *verdict, *reason, *detail;
    const char *evidence;
    double duration_ms;
};
int lt_store_clear_patch_runs(struct lt_store *st);
int lt_store_put_patch_run(struct lt_store *st, const struct lt_patch_run *p);
/* fn per patch row in seq order; borrowed strings. */
typedef int (*lt_store_patch_run_fn)(const struct lt_patch_run *p, void *ud);
int lt_store_each_patch_run(struct lt_store *st, lt_store_patch_run_fn fn,
                            void *ud);

#endif
