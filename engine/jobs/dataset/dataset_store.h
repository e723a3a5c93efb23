/* `litmus dataset`'s table in a litmus database (dataset_store.c): the
 * results of finished runs, by key, for resuming.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_DATASET_STORE_H
#define LT_ENGINE_DATASET_STORE_H

#include "engine/core/store.h"

/* `litmus dataset`'s shard stores (lt_merge): dataset_runs. */
extern const struct lt_shard_store lt_dataset_shard_store;

/* Creates the table dataset_runs when missing (outside a batch). */
int lt_store_dataset_init(struct lt_store *st);
/* The JSON result of a run by its key: put keeps the first one stored;
 * get sets *json (caller frees) or leaves it NULL when none is stored. */
int lt_store_put_dataset(struct lt_store *st, const char *key,
                         const char *json);
int lt_store_get_dataset(struct lt_store *st, const char *key, char **json);
/* fn(key, json, ud) per stored run in key order (borrowed strings); stops
 * and returns fn's value when it is non-zero.  0 without the table. */
typedef int (*lt_store_dataset_fn)(const char *key, const char *json,
                                   void *ud);
int lt_store_each_dataset(struct lt_store *st, lt_store_dataset_fn fn,
                          void *ud);

#endif
