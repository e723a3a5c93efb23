/* The patch triage's tables: patch_runs (one verdict per patch) and the
 * cache of candidate texts (candidate_results, candidate_mutants), kept
 * beside the mutation tables of any litmus database.
 * SPDX-License-Identifier: MIT */
#include "engine/core/store.h"
#include "engine/core/store_internal.h"

#include <stddef.h>

#include "common/err.h"
#include "engine/jobs/patches/patches_store.h"

/* Contract: see patches_store.h.  A candidate's result is keyed by
 * program, text and layer or mutant, so a key two shards stored holds
 * the same result; the patch rows are each shard's report: the merged
 * store gets the table, `litmus patches` on it writes its own rows. */
static const char *const patches_tables[] = {
    "patch_runs", "candidate_results", "candidate_mutants", NULL};
const struct lt_shard_store lt_patches_shard_store = {
    .job = "patches", .settings_key = "patches_settings",
    .shard_key = "patches_shard", .complete_key = "patches_complete",
    .create = patches_tables, .copy = patches_tables + 1};

/* Added to any litmus database on first use (IF NOT EXISTS): they sit
 * beside the mutation tables without changing them, so the schema version
 * stays the same.  `program` in the candidate tables is the program's
 * fingerprint (patches_units.c), so that program entries with the same files
 * share their results. */
static const char patches_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS patch_runs(seq INTEGER PRIMARY KEY,"
    " program TEXT NOT NULL, run_id TEXT NOT NULL, unit TEXT NOT NULL,"
    " text_sha TEXT NOT NULL, verdict TEXT NOT NULL, reason TEXT NOT NULL,"
    " detail TEXT, evidence TEXT NOT NULL, duration_ms REAL,"
    " UNIQUE(program, run_id));"
    "CREATE TABLE IF NOT EXISTS candidate_results(program TEXT NOT NULL,"
    " text_sha TEXT NOT NULL, layer TEXT NOT NULL, result TEXT NOT NULL,"
    " recorded_at TEXT NOT NULL, PRIMARY KEY(program, text_sha, layer));"
    "CREATE TABLE IF NOT EXISTS candidate_mutants(program TEXT NOT NULL,"
    " text_sha TEXT NOT NULL, mutant_id TEXT NOT NULL, verdict TEXT NOT NULL,"
    " killed_by TEXT, detail TEXT, duration_ms REAL,"
    " PRIMARY KEY(program, text_sha, mutant_id));";

/* Creates the patch triage's tables when they are missing, in one
 * transaction.  Must be called outside a batch.  0 or a negative code. */
int lt_store_patches_init(struct lt_store *st)
{
    return lt__store_create_tables(st, patches_schema_sql,
                                   "create the patch tables");
}

/* Stores (or replaces) the JSON result of one layer of a candidate text
 * of a program.  0 or a negative code. */
int lt_store_put_candidate_result(struct lt_store *st, const char *program,
                                  const char *text_sha, const char *layer,
                                  const char *json)
{
    static const char sql[] =
        "INSERT OR REPLACE INTO candidate_results(program, text_sha, layer, "
        "result, recorded_at) VALUES (?1, ?2, ?3, ?4, "
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    if (!program || !text_sha || !layer || !json)
        return LT_EUSAGE;
    return lt__store_exec(st, sql, "put candidate result", "tttt", program,
                          text_sha, layer, json);
}

/* The stored JSON of a layer as a heap copy the caller frees; 0 and
 * *json NULL when none is stored. */
int lt_store_get_candidate_result(struct lt_store *st, const char *program,
                                  const char *text_sha, const char *layer,
                                  char **json)
{
    static const char sql[] =
        "SELECT result FROM candidate_results WHERE program = ?1 AND "
        "text_sha = ?2 AND layer = ?3";
    return lt__store_query_text(st, sql, "get candidate result", json, "ttt",
                                program, text_sha, layer);
}

/* Stores the verdict of one mutant of a candidate text; the first
 * verdict stored for (program, text, mutant) wins. */
int lt_store_put_candidate_mutant(struct lt_store *st,
                                  const struct lt_candidate_mutant *m)
{
    static const char sql[] =
        "INSERT OR IGNORE INTO candidate_mutants(program, text_sha, "
        "mutant_id, verdict, killed_by, detail, duration_ms) VALUES (?1, "
        "?2, ?3, ?4, ?5, ?6, ?7)";
    if (!m->program || !m->text_sha || !m->mutant_id || !m->verdict)
        return LT_EUSAGE;
    return lt__store_exec(st, sql, "put candidate mutant", "ttttttd",
                          m->program, m->text_sha, m->mutant_id, m->verdict,
                          m->killed_by, m->detail, m->duration_ms);
}

/* Calls fn for every stored mutant verdict of a candidate text, in id
 * order; the strings are borrowed for the call.  Returns fn's first
 * non-zero value, else 0, or a negative code. */
int lt_store_each_candidate_mutant(struct lt_store *st, const char *program,
                                   const char *text_sha,
                                   lt_store_cmut_fn fn, void *ud)
{
    static const char sql[] =
        "SELECT mutant_id, verdict, killed_by, detail, duration_ms FROM "
        "candidate_mutants WHERE program = ?1 AND text_sha = ?2 "
        "ORDER BY mutant_id";
    const char *what = "each candidate mutant";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, what, &rc, "tt", program,
                                      text_sha);
    while (s && (rc = lt__store_step(st, s, what)) > 0) {
        struct lt_candidate_mutant m = {
            program, text_sha, lt__store_col(s, 0), lt__store_col(s, 1),
            lt__store_col(s, 2), lt__store_col(s, 3),
            sqlite3_column_double(s, 4)};
        if ((rc = fn(&m, ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}

/* Removes every patch row: a triage replaces the previous report (the
 * candidate results it was computed from stay). */
int lt_store_clear_patch_runs(struct lt_store *st)
{
    return lt__store_exec(st, "DELETE FROM patch_runs", "clear patch runs",
                          "");
}

/* Stores the verdict of one patch, replacing a row with the same seq or
 * the same (program, run_id). */
int lt_store_put_patch_run(struct lt_store *st, const struct lt_patch_run *p)
{
    static const char sql[] =
        "INSERT OR REPLACE INTO patch_runs(seq, program, run_id, unit, "
        "text_sha, verdict, reason, detail, evidence, duration_ms) VALUES "
        "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
    if (!p->program || !p->run_id || !p->unit || !p->text_sha ||
        !p->verdict || !p->reason || !p->evidence)
        return LT_EUSAGE;
    return lt__store_exec(st, sql, "put patch run", "lttttttttd", p->seq,
                          p->program, p->run_id, p->unit, p->text_sha,
                          p->verdict, p->reason, p->detail, p->evidence,
                          p->duration_ms);
}

/* Calls fn for every patch row in seq order; the strings are borrowed
 * for the call.  Returns fn's first non-zero value, else 0, or a
 * negative code. */
int lt_store_each_patch_run(struct lt_store *st, lt_store_patch_run_fn fn,
                            void *ud)
{
    static const char sql[] =
        "SELECT seq, program, run_id, unit, text_sha, verdict, reason, "
        "detail, evidence, duration_ms FROM patch_runs ORDER BY seq";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, "each patch run", &rc, "");
    while (s && (rc = lt__store_step(st, s, "each patch run")) > 0) {
        struct lt_patch_run p = {
            sqlite3_column_int64(s, 0), lt__store_col(s, 1),
            lt__store_col(s, 2), lt__store_col(s, 3), lt__store_col(s, 4),
            lt__store_col(s, 5), lt__store_col(s, 6), lt__store_col(s, 7),
            lt__store_col(s, 8), sqlite3_column_double(s, 9)};
        if ((rc = fn(&p, ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}
