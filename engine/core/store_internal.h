/* What the files holding a job's tables (a *_store.c in the job's folder)
 * need of the store: cached statements, checked binding and stepping,
 * the mapping of SQLite's codes.  Not for anything else.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_STORE_INTERNAL_H
#define LT_ENGINE_STORE_INTERNAL_H

#include <sqlite3.h>

#include "engine/core/store.h"

/* The one way to run SQL on a store:
 *
 *     static const char put_sql[] = "INSERT ... VALUES (?1, ?2)";
 *     return lt__store_exec(st, put_sql, "put x", "tt", key, json);
 *
 * or, for rows,
 *
 *     sqlite3_stmt *s = lt__store_query(st, each_sql, "each x", &rc, "");
 *     while (s && (rc = lt__store_step(st, s, "each x")) > 0)
 *         ...read columns, rc = fn(...); break when rc != 0...
 *     lt__store_done(s);
 *
 * `sql` must have static storage: its address keys the statement cache.
 * `fmt` has one letter per parameter, in order: 't' const char * (NULL
 * binds NULL; the text must outlive the step), 'i' int, 'l' long long,
 * 'd' double.  `what` names the statement in the debug log. */

/* The cached statement for sql, prepared on first use and finalized by
 * lt_store_close(); NULL with *rc set on failure. */
sqlite3_stmt *lt__store_stmt(struct lt_store *st, const char *sql, int *rc);

/* The cached statement for sql with fmt's arguments bound; NULL with *rc
 * set (and the statement reset) when preparing or a bind fails. */
sqlite3_stmt *lt__store_query(struct lt_store *st, const char *sql,
                              const char *what, int *rc, const char *fmt,
                              ...);

/* One step of s: 1 with a row to read, 0 when done, or a negative code.
 * The caller resets s with lt__store_done() in every case. */
int lt__store_step(struct lt_store *st, sqlite3_stmt *s, const char *what);

/* Resets s (accepts NULL) so that it holds no read snapshot and no
 * borrowed bindings. */
void lt__store_done(sqlite3_stmt *s);

/* Prepares (cached), binds and runs a statement that returns no rows.
 * 0 or a negative code. */
int lt__store_exec(struct lt_store *st, const char *sql, const char *what,
                   const char *fmt, ...);

/* Runs a statement expected to give at most one row and copies the row's
 * first column to *out (caller frees; NULL without a row).  0 or a
 * negative code. */
int lt__store_query_text(struct lt_store *st, const char *sql,
                         const char *what, char **out, const char *fmt, ...);

/* Runs `sql` (CREATE ... IF NOT EXISTS statements) in one transaction of
 * its own, outside a batch.  0 or a negative code. */
int lt__store_create_tables(struct lt_store *st, const char *sql,
                            const char *what);

/* Whether the table exists: 1, 0, or a negative code. */
int lt__store_has_table(struct lt_store *st, const char *name);

/* Logs what failed at debug level and returns SQLite's code r as a
 * litmus code. */
int lt__store_fail(struct lt_store *st, int r, const char *what);

/* Column text borrowed from the current row (NULL for NULL). */
char *lt__store_col(sqlite3_stmt *s, int i);

#endif
