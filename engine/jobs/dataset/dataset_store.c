/* The dataset cache: one row per run, its JSON result under the hash of
 * everything that decides it (dataset_tasks.c), kept beside the mutation
 * tables of any litmus database.  SPDX-License-Identifier: MIT */
#include "engine/core/store.h"
#include "engine/core/store_internal.h"

#include "common/err.h"
#include "engine/jobs/dataset/dataset_store.h"

/* Contract: see dataset_store.h.  A run's key hashes what decides it, so
 * a key two shards stored holds the same result. */
static const char *const dataset_tables[] = {"dataset_runs", NULL};
const struct lt_shard_store lt_dataset_shard_store = {
    .job = "dataset", .settings_key = "dataset_settings",
    .shard_key = "dataset_shard", .complete_key = "dataset_complete",
    .create = dataset_tables, .copy = dataset_tables};

/* Created on first use like the patch tables, the schema version
 * unchanged. */
static const char dataset_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS dataset_runs(key TEXT PRIMARY KEY,"
    " result TEXT NOT NULL, recorded_at TEXT NOT NULL);";

/* Creates the dataset table when it is missing.  Must be called outside a
 * batch.  0 or a negative code. */
int lt_store_dataset_init(struct lt_store *st)
{
    return lt__store_create_tables(st, dataset_schema_sql,
                                   "create the dataset table");
}

/* Stores the JSON result of a dataset run under its key; the first result
 * stored for a key wins.  0 or a negative code. */
int lt_store_put_dataset(struct lt_store *st, const char *key,
                         const char *json)
{
    static const char sql[] =
        "INSERT OR IGNORE INTO dataset_runs(key, result, recorded_at) "
        "VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    if (!key || !json)
        return LT_EUSAGE;
    return lt__store_exec(st, sql, "put dataset run", "tt", key, json);
}

/* The stored result of a key as a heap copy the caller frees; 0 and *json
 * NULL when none is stored. */
int lt_store_get_dataset(struct lt_store *st, const char *key, char **json)
{
    return lt__store_query_text(st,
                                "SELECT result FROM dataset_runs WHERE "
                                "key = ?1",
                                "get dataset run", json, "t", key);
}

/* Contract: see store.h.  A store that never held a dataset run has no
 * table: nothing to walk. */
int lt_store_each_dataset(struct lt_store *st, lt_store_dataset_fn fn,
                          void *ud)
{
    static const char sql[] =
        "SELECT key, result FROM dataset_runs ORDER BY key";
    int rc = lt__store_has_table(st, "dataset_runs");
    if (rc <= 0)
        return rc;
    sqlite3_stmt *s = lt__store_query(st, sql, "each dataset run", &rc, "");
    while (s && (rc = lt__store_step(st, s, "each dataset run")) > 0) {
        const char *key = lt__store_col(s, 0);
        const char *json = lt__store_col(s, 1);
        if ((rc = fn(key ? key : "", json ? json : "", ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}
