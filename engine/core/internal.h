/* Shared between the engine's files; not part of its public API.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_INTERNAL_H
#define LT_ENGINE_INTERNAL_H

#include <stdio.h>

#include "engine/engine.h"
#include "engine/core/store.h"

#include <sys/types.h>

/* engine/core/clock.c: monotonic seconds, and the peak resident set of a
 * process (0: this one) in KiB. */
double lt__now(void);
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

#endif
