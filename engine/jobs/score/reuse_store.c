/* The tables of incremental runs (docs/incremental.md): per mutant of a
 * run, the key that finds it again in a later, changed tree and the
 * signature of the tests that cover it; per test of the baseline, what
 * reusing it needs beside the tests table (its CPU time, work, needs and
 * the digest of the files it depends on).  SPDX-License-Identifier: MIT */
#include "engine/core/store.h"
#include "engine/core/store_internal.h"
#include "engine/jobs/score/reuse_store.h"

#include <string.h>

/* Contract: see reuse_store.h.  The same keys as core's and the
 * reports' readers of a score store. */
const struct lt_shard_store lt_score_shard_store = {
    .job = "score", .settings_key = "settings", .shard_key = "shard",
    .complete_key = "complete"};

/* Created on first use, the schema version unchanged. */
static const char reuse_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS reuse_keys(mutant_id TEXT PRIMARY KEY,"
    " key TEXT NOT NULL, tests TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS baseline_deps(nodeid TEXT PRIMARY KEY,"
    " cpu_ms REAL, work REAL, needs INTEGER, deps TEXT NOT NULL);";

/* Creates the reuse tables when they are missing.  Must be called outside a
 * batch.  0 or a negative code. */
int lt_store_reuse_init(struct lt_store *st)
{
    return lt__store_create_tables(st, reuse_schema_sql,
                                   "create the reuse table");
}

/* Stores (or replaces) the reuse key and test signature of mutant_id.
 * 0 or a negative code. */
int lt_store_put_reuse_key(struct lt_store *st, const char *mutant_id,
                           const char *key, const char *tests)
{
    static const char sql[] =
        "INSERT OR REPLACE INTO reuse_keys(mutant_id, key, tests) VALUES "
        "(?1, ?2, ?3)";
    return lt__store_exec(st, sql, "put reuse key", "ttt", mutant_id, key,
                          tests);
}

/* Calls fn(mutant_id, key, tests, result, ud) for every stored reuse key
 * whose mutant has a result (borrowed; valid during the call); stops and
 * returns fn's value when it is non-zero.  0 or a negative code. */
int lt_store_each_reuse(struct lt_store *st, lt_store_reuse_fn fn, void *ud)
{
    static const char sql[] =
        "SELECT k.mutant_id, k.key, k.tests, r.verdict, r.killed_by,"
        " r.detail, r.output, r.duration_ms, r.peak_rss_kb, r.tests_run"
        " FROM reuse_keys k JOIN results r ON r.mutant_id = k.mutant_id"
        " ORDER BY k.mutant_id";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, "each reuse key", &rc, "");
    while (s && (rc = lt__store_step(st, s, "each reuse key")) > 0) {
        struct lt_result res;
        memset(&res, 0, sizeof(res));
        const char *id = lt__store_col(s, 0);
        const char *v = lt__store_col(s, 3);
        res.verdict = v ? lt_verdict_from_name(v) : LT_VERDICT_PENDING;
        rc = 0;
        if (!id || strlen(id) != 16 || res.verdict == LT_VERDICT_PENDING)
            continue; /* not ours to reuse: run the mutant again */
        memcpy(res.mutant_id, id, 17);
        /* Borrowed column text, writable only in the struct's type. */
        res.killed_by = lt__store_col(s, 4);
        res.detail = lt__store_col(s, 5);
        res.output = lt__store_col(s, 6);
        res.duration_ms = sqlite3_column_double(s, 7);
        res.peak_rss_kb = (long)sqlite3_column_int64(s, 8);
        res.tests_run = sqlite3_column_int(s, 9);
        const char *key = lt__store_col(s, 1);
        const char *tests = lt__store_col(s, 2);
        if ((rc = fn(id, key ? key : "", tests ? tests : "", &res, ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}

/* Forgets the mutants, results and reuse keys of the stored run (files,
 * tests and meta stay), so that a new run over a changed tree stores only
 * its own mutants.  Inside a batch or on its own.  0 or a negative
 * code. */
int lt_store_clear_run(struct lt_store *st)
{
    const char *what = "clear the stored run";
    int rc = lt__store_exec(st, "DELETE FROM results", what, "");
    if (rc == 0)
        rc = lt__store_exec(st, "DELETE FROM mutants", what, "");
    if (rc == 0)
        rc = lt__store_exec(st, "DELETE FROM reuse_keys", what, "");
    return rc;
}

/* Forgets the stored baseline's dependencies (before a new baseline is
 * stored).  Inside a batch or on its own.  0 or a negative code. */
int lt_store_clear_baseline_deps(struct lt_store *st)
{
    return lt__store_exec(st, "DELETE FROM baseline_deps",
                          "clear the baseline's dependencies", "");
}

/* Stores what reusing test nodeid's baseline needs.  0 or a negative
 * code. */
int lt_store_put_baseline_deps(struct lt_store *st,
                               const struct lt_baseline_deps *d)
{
    static const char sql[] =
        "INSERT OR REPLACE INTO baseline_deps(nodeid, cpu_ms, work, needs,"
        " deps) VALUES (?1, ?2, ?3, ?4, ?5)";
    return lt__store_exec(st, sql, "put a test's dependencies", "tddit",
                          d->nodeid, d->cpu_ms, d->work, (int)d->needs,
                          d->deps);
}

/* Calls fn(d, ud) per stored test that has both a baseline record and
 * its dependencies (strings borrowed, valid during the call); stops and
 * returns fn's value when it is non-zero.  0 or a negative code. */
int lt_store_each_baseline_deps(struct lt_store *st,
                                lt_store_baseline_deps_fn fn, void *ud)
{
    static const char sql[] =
        "SELECT t.nodeid, t.baseline_ms, t.outcome, t.coverage, d.cpu_ms,"
        " d.work, d.needs, d.deps FROM tests t JOIN baseline_deps d"
        " ON d.nodeid = t.nodeid ORDER BY t.idx";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, "each baseline test", &rc, "");
    while (s && (rc = lt__store_step(st, s, "each baseline test")) > 0) {
        struct lt_baseline_deps d = {
            .nodeid = lt__store_col(s, 0),
            .wall_ms = sqlite3_column_double(s, 1),
            .outcome = lt__store_col(s, 2),
            .coverage = lt__store_col(s, 3),
            .cpu_ms = sqlite3_column_double(s, 4),
            .work = sqlite3_column_double(s, 5),
            .needs = (unsigned)sqlite3_column_int(s, 6),
            .deps = lt__store_col(s, 7)};
        rc = 0;
        if (!d.nodeid || !d.deps || !d.outcome)
            continue;
        if ((rc = fn(&d, ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}
