/* The results database: one SQLite file in WAL mode, written in one
 * transaction per batch, keyed by stable mutant ids so that a rerun after
 * kill -9 loses nothing that was committed and records nothing twice.
 * SPDX-License-Identifier: MIT */
#include "engine/core/store.h"
#include "operators/operators.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"

#define SCHEMA_VERSION 1
/* Long enough to ride out a user's `sqlite3 results.db .dump` next to us;
 * other litmus processes are kept out by the lock file, not by SQLite. */
#define BUSY_TIMEOUT_MS 5000

/*** Statements ***/

/* Every statement the store runs more than once, prepared on first use and
 * kept until close. */
enum stmt_id {
    S_BEGIN,
    S_COMMIT,
    S_ROLLBACK,
    S_SAVEPOINT,
    S_RELEASE,
    S_ROLLBACK_TO,
    S_GET_META,
    S_SET_META,
    S_DEL_META,
    S_FILE_SHA,
    S_PUT_FILE,
    S_DEL_FILE_RESULTS,
    S_DEL_FILE_MUTANTS,
    S_GET_FILE,
    S_EACH_FILE,
    S_PUT_MUTANT,
    S_PUT_RESULT,
    S_HAS_RESULT,
    S_GET_MUTANT,
    S_EACH,
    S_DEL_TESTS,
    S_PUT_TEST,
    S_EACH_TEST,
    S_SUMMARY,
    S_P_PUT_RESULT,
    S_P_GET_RESULT,
    S_P_PUT_MUTANT,
    S_P_EACH_MUTANT,
    S_P_CLEAR_RUNS,
    S_P_PUT_RUN,
    S_P_EACH_RUN,
    S_D_PUT,
    S_D_GET,
    S_D_EACH,
    S__COUNT
};

/* Columns 0-12 are the mutant, 13-20 its result (all NULL when none). */
#define MUTANT_COLS                                                        \
    "m.id, m.file, m.line, m.col, m.end_line, m.end_col, m.start, "        \
    "m.end_off, m.op, m.category, m.original, m.replacement, m.position, " \
    "r.mutant_id, r.verdict, r.killed_by, r.detail, r.output, "            \
    "r.duration_ms, r.peak_rss_kb, r.tests_run "                           \
    "FROM mutants m LEFT JOIN results r ON r.mutant_id = m.id "

static const char *const stmt_sql[S__COUNT] = {
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_SAVEPOINT] = "SAVEPOINT lt_sp",
    [S_RELEASE] = "RELEASE lt_sp",
    [S_ROLLBACK_TO] = "ROLLBACK TO lt_sp",
    [S_GET_META] = "SELECT value FROM meta WHERE key = ?1",
    [S_SET_META] = "INSERT INTO meta(key, value) VALUES (?1, ?2) "
                   "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    [S_DEL_META] = "DELETE FROM meta WHERE key = ?1",
    [S_FILE_SHA] = "SELECT sha256 FROM files WHERE path = ?1",
    [S_PUT_FILE] = "INSERT OR REPLACE INTO files(path, sha256, source) "
                   "VALUES (?1, ?2, ?3)",
    [S_DEL_FILE_RESULTS] = "DELETE FROM results WHERE mutant_id IN "
                           "(SELECT id FROM mutants WHERE file = ?1)",
    [S_DEL_FILE_MUTANTS] = "DELETE FROM mutants WHERE file = ?1",
    [S_GET_FILE] = "SELECT source FROM files WHERE path = ?1",
    [S_EACH_FILE] = "SELECT path, sha256 FROM files ORDER BY path",
    [S_PUT_MUTANT] = "INSERT OR IGNORE INTO mutants(id, file, line, col, "
                     "end_line, end_col, start, end_off, op, category, "
                     "original, replacement, position) VALUES "
                     "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [S_PUT_RESULT] = "INSERT OR IGNORE INTO results(mutant_id, verdict, "
                     "killed_by, detail, output, duration_ms, peak_rss_kb, "
                     "tests_run, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5, "
                     "?6, ?7, ?8, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
    [S_HAS_RESULT] = "SELECT 1 FROM results WHERE mutant_id = ?1",
    /* Ids are lowercase hex, so every id starting with p sorts in
     * [p, p || 'g'): a range the primary key index answers directly. */
    [S_GET_MUTANT] = "SELECT " MUTANT_COLS
                     "WHERE m.id >= ?1 AND m.id < ?2 ORDER BY m.id LIMIT 2",
    [S_EACH] = "SELECT " MUTANT_COLS "ORDER BY m.file, m.start, m.id",
    [S_DEL_TESTS] = "DELETE FROM tests",
    [S_PUT_TEST] = "INSERT INTO tests(idx, nodeid, baseline_ms, outcome, "
                   "coverage) VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_EACH_TEST] = "SELECT idx, nodeid, baseline_ms, outcome, coverage "
                    "FROM tests ORDER BY idx",
    [S_SUMMARY] = "SELECT verdict, count(*) FROM results GROUP BY verdict",
    /* Patch triage (lt_store_patches_init creates these tables). */
    [S_P_PUT_RESULT] = "INSERT OR REPLACE INTO candidate_results(program, "
                       "text_sha, layer, result, recorded_at) VALUES (?1, "
                       "?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
    [S_P_GET_RESULT] = "SELECT result FROM candidate_results WHERE "
                       "program = ?1 AND text_sha = ?2 AND layer = ?3",
    [S_P_PUT_MUTANT] = "INSERT OR IGNORE INTO candidate_mutants(program, "
                       "text_sha, mutant_id, verdict, killed_by, detail, "
                       "duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [S_P_EACH_MUTANT] = "SELECT mutant_id, verdict, killed_by, detail, "
                        "duration_ms FROM candidate_mutants WHERE "
                        "program = ?1 AND text_sha = ?2 ORDER BY mutant_id",
    [S_P_CLEAR_RUNS] = "DELETE FROM patch_runs",
    [S_P_PUT_RUN] = "INSERT OR REPLACE INTO patch_runs(seq, program, run_id, "
                    "unit, text_sha, verdict, reason, detail, evidence, "
                    "duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                    "?9, ?10)",
    [S_P_EACH_RUN] = "SELECT seq, program, run_id, unit, text_sha, verdict, "
                     "reason, detail, evidence, duration_ms FROM patch_runs "
                     "ORDER BY seq",
    /* Dataset runs (lt_store_dataset_init creates the table). */
    [S_D_PUT] = "INSERT OR IGNORE INTO dataset_runs(key, result, "
                "recorded_at) VALUES (?1, ?2, "
                "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
    [S_D_GET] = "SELECT result FROM dataset_runs WHERE key = ?1",
    [S_D_EACH] = "SELECT key, result FROM dataset_runs ORDER BY key",
};

/* The patch triage's tables, added to any litmus database on first use
 * (IF NOT EXISTS): they sit beside the mutation tables without changing
 * them, so the schema version stays the same.  `program` in the
 * candidate tables is the program's fingerprint (engine/jobs/patches/patches.c), so
 * that program entries with the same files share their results. */
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

/* Created in one transaction together with the version row, so a database
 * has either all of it or none of it. */
static const char schema_sql[] =
    "CREATE TABLE schema_version(version INTEGER NOT NULL);"
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE files(path TEXT PRIMARY KEY, sha256 TEXT NOT NULL,"
    " source BLOB NOT NULL);"
    "CREATE TABLE mutants(id TEXT PRIMARY KEY, file TEXT NOT NULL,"
    " line INTEGER, col INTEGER, end_line INTEGER, end_col INTEGER,"
    " start INTEGER, end_off INTEGER, op TEXT, category INTEGER,"
    " original TEXT, replacement TEXT, position REAL);"
    "CREATE INDEX mutants_order ON mutants(file, start, id);"
    "CREATE TABLE results(mutant_id TEXT PRIMARY KEY, verdict TEXT NOT NULL,"
    " killed_by TEXT, detail TEXT, output TEXT, duration_ms REAL,"
    " peak_rss_kb INTEGER, tests_run INTEGER, recorded_at TEXT NOT NULL);"
    "CREATE TABLE tests(idx INTEGER PRIMARY KEY, nodeid TEXT NOT NULL,"
    " baseline_ms REAL, outcome TEXT, coverage TEXT);"
    "INSERT INTO schema_version(version) VALUES (1);";

struct lt_store {
    sqlite3 *db;
    int lock_fd; /* flock(LOCK_EX) on "<path>.lock", -1 when not held */
    char *lock_path; /* "<path>.lock" while held, else NULL */
    sqlite3_stmt *stmts[S__COUNT];
};

/*** Errors ***/

/* An SQLite result code as a litmus error code. */
static int map_rc(sqlite3 *db, int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
        return 0;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        return LT_ECORRUPT;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return -EBUSY;
    case SQLITE_NOMEM:
        return -ENOMEM;
    case SQLITE_FULL:
        return -ENOSPC;
    case SQLITE_READONLY:
        return -EROFS;
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return -EACCES;
    case SQLITE_TOOBIG:
        return -E2BIG;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN: {
        int e = db ? sqlite3_system_errno(db) : 0;
        return e > 0 ? -e : -EIO;
    }
    default:
        return LT_EINTERNAL;
    }
}

/* Logs what failed (at debug level: the caller decides what the user
 * sees) and returns the litmus code for rc. */
static int fail(struct lt_store *st, int rc, const char *what)
{
    lt_debug("store: %s: %s", what, sqlite3_errmsg(st->db));
    return map_rc(st->db, rc);
}

/* Replaces newlines so a message from SQLite stays one line. */
static char *one_line(char *s)
{
    for (char *p = s; p && *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return s;
}

/*** Statement helpers ***/

/* The cached statement id, prepared on first use; NULL on failure with
 * *rc set. */
static sqlite3_stmt *stmt(struct lt_store *st, enum stmt_id id, int *rc)
{
    if (!st->stmts[id]) {
        int r = sqlite3_prepare_v3(st->db, stmt_sql[id], -1,
                                   SQLITE_PREPARE_PERSISTENT,
                                   &st->stmts[id], NULL);
        if (r != SQLITE_OK) {
            *rc = fail(st, r, stmt_sql[id]);
            st->stmts[id] = NULL;
            return NULL;
        }
    }
    return st->stmts[id];
}

/* Returns a statement to its unused state, so it holds no read snapshot
 * and no borrowed bindings. */
static void done(sqlite3_stmt *s)
{
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

/* Runs a statement that returns no rows; 0 or a litmus code. */
static int run(struct lt_store *st, sqlite3_stmt *s, const char *what)
{
    int r = sqlite3_step(s);
    done(s);
    if (r != SQLITE_DONE && r != SQLITE_ROW)
        return fail(st, r, what);
    return 0;
}

/* Runs a cached statement without parameters. */
static int run_id(struct lt_store *st, enum stmt_id id)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, id, &rc);
    if (!s)
        return rc;
    return run(st, s, stmt_sql[id]);
}

/* Binds text that SQLite must not keep: every statement is stepped and
 * reset before the caller's string can go away. */
static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, i);
}

static char *col_dup(sqlite3_stmt *s, int i)
{
    const unsigned char *p = sqlite3_column_text(s, i);
    return p ? xstrdup((const char *)p) : NULL;
}

/* Column text that lives until the statement is stepped or reset. */
static char *col_borrow(sqlite3_stmt *s, int i)
{
    return (char *)sqlite3_column_text(s, i);
}

/* Fills m, and r when the row has a result, from a MUTANT_COLS row.
 * Strings are heap copies when copy is set, else borrowed from the row.
 * Returns 1 when the row had a result. */
static int read_row(sqlite3_stmt *s, struct lt_mutant *m,
                    struct lt_result *r, int copy)
{
    char *(*str)(sqlite3_stmt *, int) = copy ? col_dup : col_borrow;
    const unsigned char *id = sqlite3_column_text(s, 0);

    memset(m, 0, sizeof(*m));
    snprintf(m->id, sizeof(m->id), "%s", id ? (const char *)id : "");
    m->file = str(s, 1);
    m->line = sqlite3_column_int(s, 2);
    m->col = sqlite3_column_int(s, 3);
    m->end_line = sqlite3_column_int(s, 4);
    m->end_col = sqlite3_column_int(s, 5);
    m->start = (size_t)sqlite3_column_int64(s, 6);
    m->end = (size_t)sqlite3_column_int64(s, 7);
    m->op = str(s, 8);
    m->category = (enum lt_category)sqlite3_column_int(s, 9);
    m->original = str(s, 10);
    m->replacement = str(s, 11);
    m->position = sqlite3_column_double(s, 12);

    if (sqlite3_column_type(s, 13) == SQLITE_NULL)
        return 0;
    if (!r)
        return 1;
    memset(r, 0, sizeof(*r));
    snprintf(r->mutant_id, sizeof(r->mutant_id), "%s", m->id);
    r->verdict = lt_verdict_from_name((const char *)sqlite3_column_text(s, 14));
    r->killed_by = str(s, 15);
    r->detail = str(s, 16);
    r->output = str(s, 17);
    r->duration_ms = sqlite3_column_double(s, 18);
    r->peak_rss_kb = (long)sqlite3_column_int64(s, 19);
    r->tests_run = sqlite3_column_int(s, 20);
    return 1;
}

/*** Savepoints ***/

/* put_file and put_tests make several changes that must land together
 * whether or not the caller has a batch open: a savepoint nests inside
 * BEGIN and is its own transaction outside one. */
static int sp_begin(struct lt_store *st)
{
    return run_id(st, S_SAVEPOINT);
}

/* Releases the savepoint on success, undoes it on failure; returns rc. */
static int sp_end(struct lt_store *st, int rc)
{
    if (rc == 0)
        return run_id(st, S_RELEASE);
    /* After an I/O error SQLite may already have rolled back the whole
     * transaction, savepoint included; then these fail harmlessly. */
    if (!sqlite3_get_autocommit(st->db)) {
        run_id(st, S_ROLLBACK_TO);
        run_id(st, S_RELEASE);
    }
    return rc;
}

/*** Opening: lock, inspect, connect ***/

/* Takes the exclusive lock on "<path>.lock" and writes our pid into it.
 * flock() locks belong to the open file description, so a second open in
 * this very process is refused as well, and the lock dies with the
 * process however it ends: there is no stale lock to clean up after
 * kill -9.  lt_store_close() unlinks the lock file while it still holds
 * the lock, so none is left beside the store; a process that opened the
 * old file before the unlink and locks it afterwards would hold a lock on
 * a name nobody else sees, so after locking we check that the name still
 * leads to our inode, and start again when it does not. */
static int take_lock(struct lt_store *st, const char *path, char **msg)
{
    char *lock_path = xasprintf("%s.lock", path);
    int rc = 0;
    int fd = -1, tries = 0;
again:
    fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0) {
        rc = -errno;
        *msg = xasprintf("cannot open lock file %s: %s", lock_path,
                         strerror(-rc));
        goto out;
    }
    while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK) {
            rc = -errno;
            *msg = xasprintf("cannot lock %s: %s", lock_path, strerror(-rc));
            goto out;
        }
        /* The holder may not have written its pid yet: say so rather
         * than guess. */
        char buf[32] = "";
        ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
        long pid = n > 0 ? strtol(buf, NULL, 10) : 0;
        rc = LT_ELOCKED;
        if (pid > 0)
            *msg = xasprintf("%s is in use by another litmus (pid %ld)", path,
                             pid);
        else
            *msg = xasprintf("%s is in use by another litmus", path);
        goto out;
    }
    struct stat held, named;
    if (fstat(fd, &held) < 0 || stat(lock_path, &named) < 0 ||
        held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
        /* Unlinked (or replaced) by the holder we raced with. */
        close(fd);
        fd = -1;
        if (++tries < 100)
            goto again;
        rc = -EAGAIN;
        *msg = xasprintf("cannot lock %s: it keeps being replaced", lock_path);
        goto out;
    }
    /* Write first, then cut: a reader racing with us sees our pid or the
     * old one followed by leftovers, never an empty file it cannot parse. */
    char pid_line[32];
    int len = snprintf(pid_line, sizeof(pid_line), "%ld\n", (long)getpid());
    if (pwrite(fd, pid_line, (size_t)len, 0) != len ||
        ftruncate(fd, len) < 0)
        lt_debug("store: cannot write pid to %s: %s", lock_path,
                 strerror(errno));
    st->lock_fd = fd;
    st->lock_path = lock_path;
    fd = -1;
    lock_path = NULL;
out:
    if (fd >= 0)
        close(fd);
    free(lock_path);
    return rc;
}

/* One integer from a query with no parameters; LT_ENOTFOUND without a
 * row.  Errors are SQLite codes, left to the caller to map. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (r == SQLITE_OK) {
        r = sqlite3_step(s);
        if (r == SQLITE_ROW)
            *out = sqlite3_column_int64(s, 0);
    }
    sqlite3_finalize(s);
    return r;
}

/* 1 unless "<path><suffix>" is certainly absent. */
static int side_file_exists(const char *path, const char *suffix)
{
    char *side = xasprintf("%s%s", path, suffix);
    struct stat sb;
    int r = stat(side, &sb) == 0 || errno != ENOENT;
    free(side);
    return r;
}

/* "file:<path>?immutable=1" with the path percent-encoded, for
 * SQLITE_OPEN_URI. */
static char *immutable_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *uri = xmalloc(5 + 3 * n + 13), *p = uri;
    memcpy(p, "file:", 5);
    p += 5;
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (isalnum(*c) || strchr("/._-~", *c)) {
            *p++ = (char)*c;
        } else {
            *p++ = '%';
            *p++ = hex[*c >> 4];
            *p++ = hex[*c & 15];
        }
    }
    memcpy(p, "?immutable=1", 13);
    return uri;
}

/* What an existing file is, looked at through a read-only connection so
 * that nothing (no journal mode, no checkpoint) touches a file that turns
 * out not to be ours.  Sets *fresh when the database has no table at all:
 * a file SQLite created for us before a crash, or an empty database. */
static int inspect(const char *path, int *fresh, char **msg)
{
    static const char magic[16] = "SQLite format 3";
    sqlite3 *ro = NULL;
    sqlite3_stmt *s = NULL;
    struct stat sb;
    int rc = 0, r;
    long long n = 0, version = 0;

    *fresh = 0;
    if (stat(path, &sb) < 0) {
        if (errno == ENOENT) {
            *fresh = 1;
            return 0;
        }
        rc = -errno;
        *msg = xasprintf("cannot stat %s: %s", path, strerror(-rc));
        return rc;
    }
    if (!S_ISREG(sb.st_mode)) {
        *msg = xasprintf("%s is not a regular file", path);
        return LT_ECORRUPT;
    }
    /* Cheap first: the 16-byte header.  Random bytes never reach SQLite. */
    if (sb.st_size > 0) {
        char head[16];
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            rc = -errno;
            *msg = xasprintf("cannot open %s: %s", path, strerror(-rc));
            return rc;
        }
        ssize_t got = pread(fd, head, sizeof(head), 0);
        close(fd);
        if (got != (ssize_t)sizeof(head) || sb.st_size < 100 ||
            memcmp(head, magic, sizeof(head)) != 0) {
            *msg = xasprintf("%s is not an SQLite database", path);
            return LT_ECORRUPT;
        }
    }

    /* A read-only connection still creates "-shm" (and "-wal") beside a
     * WAL-mode file.  When there is no -wal or -journal the main file
     * holds every committed page, so it is read as immutable and nothing
     * at all is created; when one exists (a litmus killed mid-run, or a
     * program using its database right now) its pages are needed and its
     * -shm is there already. */
    char *uri = NULL;
    if (sb.st_size > 0 && !side_file_exists(path, "-wal") &&
        !side_file_exists(path, "-journal"))
        uri = immutable_uri(path);
    r = sqlite3_open_v2(uri ? uri : path, &ro,
                        SQLITE_OPEN_READONLY | (uri ? SQLITE_OPEN_URI : 0),
                        NULL);
    free(uri);
    if (r != SQLITE_OK) {
        rc = map_rc(ro, r);
        *msg = xasprintf("cannot open %s: %s", path,
                         ro ? sqlite3_errmsg(ro) : sqlite3_errstr(r));
        goto out;
    }
    sqlite3_busy_timeout(ro, BUSY_TIMEOUT_MS);

    /* quick_check reads every page: a torn or overwritten file is refused
     * here instead of failing halfway through a run. */
    r = sqlite3_prepare_v2(ro, "PRAGMA quick_check(1)", -1, &s, NULL);
    if (r == SQLITE_OK)
        r = sqlite3_step(s);
    if (r != SQLITE_ROW) {
        rc = map_rc(ro, r);
        if (rc == 0 || rc == LT_EINTERNAL)
            rc = LT_ECORRUPT;
        *msg = one_line(xasprintf("%s is not a usable database: %s", path,
                                  sqlite3_errmsg(ro)));
        goto out;
    }
    const char *verdict = (const char *)sqlite3_column_text(s, 0);
    if (!verdict || strcmp(verdict, "ok") != 0) {
        rc = LT_ECORRUPT;
        *msg = one_line(xasprintf("%s is corrupt: %s", path,
                                  verdict ? verdict : "quick_check failed"));
        goto out;
    }
    sqlite3_finalize(s);
    s = NULL;

    r = query_int(ro, "SELECT count(*) FROM sqlite_master", &n);
    if (r != SQLITE_ROW)
        goto sqlerr;
    if (n == 0) {
        *fresh = 1;
        goto out;
    }
    r = query_int(ro, "SELECT count(*) FROM sqlite_master WHERE type = "
                      "'table' AND name = 'schema_version'", &n);
    if (r != SQLITE_ROW)
        goto sqlerr;
    if (n == 0) {
        rc = LT_ECORRUPT;
        *msg = xasprintf("%s is an SQLite database but not litmus' "
                         "(no schema_version table)", path);
        goto out;
    }
    r = query_int(ro, "SELECT count(*) FROM schema_version", &n);
    if (r != SQLITE_ROW)
        goto sqlerr;
    r = query_int(ro, "SELECT max(version) FROM schema_version", &version);
    if (r != SQLITE_ROW)
        goto sqlerr;
    if (n != 1) {
        rc = LT_ESCHEMA;
        *msg = xasprintf("%s has %lld schema versions, not one; this litmus "
                         "reads version %d", path, n, SCHEMA_VERSION);
    } else if (version != SCHEMA_VERSION) {
        rc = LT_ESCHEMA;
        *msg = xasprintf("%s has schema version %lld; this litmus reads "
                         "version %d", path, version, SCHEMA_VERSION);
    }
    goto out;

sqlerr:
    rc = map_rc(ro, r);
    if (rc == 0 || rc == LT_EINTERNAL)
        rc = LT_ECORRUPT;
    *msg = one_line(xasprintf("cannot read %s: %s", path, sqlite3_errmsg(ro)));
out:
    sqlite3_finalize(s);
    sqlite3_close_v2(ro);
    return rc;
}

/* Opens the read-write connection and, for a fresh file, creates the
 * schema.  Only called once inspect() has vouched for the file. */
static int connect_db(struct lt_store *st, const char *path, int fresh,
                      char **msg)
{
    const char *what = "open";
    int r = sqlite3_open_v2(path, &st->db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (r != SQLITE_OK)
        goto sqlerr;
    sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);

    /* WAL: a commit is one append to the -wal file, so kill -9 leaves
     * either the whole batch or none of it.  synchronous=NORMAL skips the
     * fsync per commit; a committed batch then survives the death of the
     * process (it is in the page cache) though not a power cut, which is
     * the guarantee litmus makes. */
    char *mode = NULL;
    sqlite3_stmt *s = NULL;
    what = "set WAL mode";
    r = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode=WAL", -1, &s, NULL);
    if (r == SQLITE_OK && (r = sqlite3_step(s)) == SQLITE_ROW) {
        mode = col_dup(s, 0);
        r = SQLITE_OK;
    }
    sqlite3_finalize(s);
    if (r != SQLITE_OK)
        goto sqlerr;
    if (!mode || strcmp(mode, "wal") != 0)
        lt_warn("%s: WAL mode unavailable (journal mode %s)", path,
                mode ? mode : "unknown");
    free(mode);

    what = "set synchronous";
    r = sqlite3_exec(st->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    if (r != SQLITE_OK)
        goto sqlerr;

    if (fresh) {
        long long n = -1;
        what = "create the schema";
        r = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        if (r != SQLITE_OK)
            goto sqlerr;
        /* We hold the lock, but a table that appeared since inspect()
         * still means the file is not ours to initialise. */
        r = query_int(st->db, "SELECT count(*) FROM sqlite_master", &n);
        if (r != SQLITE_ROW || n != 0) {
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
            if (r != SQLITE_ROW)
                goto sqlerr;
            *msg = xasprintf("%s changed while litmus was opening it", path);
            return LT_ECORRUPT;
        }
        r = sqlite3_exec(st->db, schema_sql, NULL, NULL, NULL);
        if (r == SQLITE_OK)
            r = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
        if (r != SQLITE_OK) {
            int rc = map_rc(st->db, r);
            *msg = one_line(xasprintf("cannot %s in %s: %s", what, path,
                                      sqlite3_errmsg(st->db)));
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
    }
    return 0;

sqlerr:;
    int rc = map_rc(st->db, r);
    *msg = one_line(xasprintf("cannot %s %s: %s", what, path,
                              st->db ? sqlite3_errmsg(st->db)
                                     : sqlite3_errstr(r)));
    return rc;
}

/* Opens the litmus database at path, creating it (and "<path>.lock") when
 * absent.  On success returns 0 and *out, which the caller closes with
 * lt_store_close().  On failure returns a negative code, leaves *out NULL
 * and, when errmsg is not NULL, puts a one-line explanation in *errmsg
 * (caller frees): LT_ELOCKED names the pid holding the lock; LT_ECORRUPT
 * for a file that is not SQLite, fails quick_check, or is another
 * program's database; LT_ESCHEMA for another schema version; -errno for
 * system errors.  A file that is refused is never written to. */
int lt_store_open(const char *path, struct lt_store **out, char **errmsg)
{
    struct lt_store *st = xcalloc(1, sizeof(*st));
    char *msg = NULL;
    int fresh = 0;
    int rc;

    st->lock_fd = -1;
    *out = NULL;
    if (errmsg)
        *errmsg = NULL;
    rc = take_lock(st, path, &msg);
    if (rc < 0)
        goto out;
    rc = inspect(path, &fresh, &msg);
    if (rc < 0)
        goto out;
    rc = connect_db(st, path, fresh, &msg);
    if (rc < 0)
        goto out;
    *out = st;
    st = NULL; /* caller owns it now */
out:
    lt_store_close(st);
    if (errmsg)
        *errmsg = msg;
    else
        free(msg);
    return rc;
}

/* Rolls back a batch still open, finalizes the cached statements, closes
 * the connection (SQLite checkpoints the WAL if we are the last one) and
 * only then releases the lock.  Accepts NULL. */
void lt_store_close(struct lt_store *st)
{
    if (!st)
        return;
    if (st->db) {
        if (!sqlite3_get_autocommit(st->db))
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        for (int i = 0; i < S__COUNT; i++)
            sqlite3_finalize(st->stmts[i]);
        sqlite3_close_v2(st->db);
    }
    if (st->lock_fd >= 0) {
        /* Unlink while we hold the lock: see take_lock(). */
        if (st->lock_path && unlink(st->lock_path) < 0)
            lt_debug("store: cannot remove %s: %s", st->lock_path,
                     strerror(errno));
        close(st->lock_fd); /* releases the flock */
    }
    free(st->lock_path);
    free(st);
}

/*** Transactions ***/

/* Starts a batch: every write until lt_store_commit() lands together or
 * not at all.  The write lock is taken now (BEGIN IMMEDIATE), so a commit
 * never fails for want of it.  LT_EUSAGE if a batch is already open. */
int lt_store_begin(struct lt_store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        return LT_EUSAGE;
    return run_id(st, S_BEGIN);
}

/* Makes the batch durable against the death of the process.  On failure
 * the batch stays open: retry the commit or call lt_store_rollback().
 * LT_EUSAGE without an open batch. */
int lt_store_commit(struct lt_store *st)
{
    if (sqlite3_get_autocommit(st->db))
        return LT_EUSAGE;
    return run_id(st, S_COMMIT);
}

/* Discards the open batch.  LT_EUSAGE without one. */
int lt_store_rollback(struct lt_store *st)
{
    if (sqlite3_get_autocommit(st->db))
        return LT_EUSAGE;
    return run_id(st, S_ROLLBACK);
}

/* SQLite's English message for the most recent failure on st; valid until
 * the next call on st.  Never NULL. */
const char *lt_store_errmsg(struct lt_store *st)
{
    return st && st->db ? sqlite3_errmsg(st->db) : "no database";
}

/*** Meta ***/

/* Steps a bound statement that yields at most one row and copies its
 * first column to *out (the caller frees; left NULL when there is no
 * row).  `what` names the query in the error.  0 or a negative code. */
static int step_text(struct lt_store *st, sqlite3_stmt *s, char **out,
                     const char *what)
{
    int rc = 0;
    int r = sqlite3_step(s);
    if (r == SQLITE_ROW)
        *out = col_dup(s, 0);
    else if (r != SQLITE_DONE)
        rc = fail(st, r, what);
    done(s);
    return rc;
}

/* The value stored under key, as a heap copy the caller frees; 0 and
 * *out NULL when the key is unset. */
int lt_store_get_meta(struct lt_store *st, const char *key, char **out)
{
    int rc = 0;
    *out = NULL;
    sqlite3_stmt *s = stmt(st, S_GET_META, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, key);
    return step_text(st, s, out, "get meta");
}

/* Stores val under key, replacing any previous value; a NULL val removes
 * the key.  0 or a negative code. */
int lt_store_set_meta(struct lt_store *st, const char *key, const char *val)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, val ? S_SET_META : S_DEL_META, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, key);
    if (val)
        bind_text(s, 2, val);
    return run(st, s, "set meta");
}

/*** Files ***/

/* Records path with its content hash and source.  When path was stored
 * with another hash, its mutants and their results are deleted in the
 * same transaction and *changed (may be NULL) is set to 1; otherwise
 * *changed is 0.  A path stored with the same hash is left as it is. */
int lt_store_put_file(struct lt_store *st, const char *path,
                      const char *sha256_hex, const char *source, size_t len,
                      int *changed)
{
    int rc, r, differs = 0, exists = 0;
    sqlite3_stmt *s;

    if (changed)
        *changed = 0;
    if (!path || !sha256_hex || (!source && len))
        return LT_EUSAGE;
    rc = sp_begin(st);
    if (rc < 0)
        return rc;

    if (!(s = stmt(st, S_FILE_SHA, &rc)))
        goto out;
    bind_text(s, 1, path);
    r = sqlite3_step(s);
    if (r == SQLITE_ROW) {
        exists = 1;
        const char *old = (const char *)sqlite3_column_text(s, 0);
        differs = !old || strcmp(old, sha256_hex) != 0;
    } else if (r != SQLITE_DONE) {
        rc = fail(st, r, "read file hash");
    }
    done(s);
    if (rc < 0 || (exists && !differs))
        goto out;

    if (differs) {
        /* Results first: they are found through the mutants. */
        if (!(s = stmt(st, S_DEL_FILE_RESULTS, &rc)))
            goto out;
        bind_text(s, 1, path);
        if ((rc = run(st, s, "delete results of a changed file")) < 0)
            goto out;
        if (!(s = stmt(st, S_DEL_FILE_MUTANTS, &rc)))
            goto out;
        bind_text(s, 1, path);
        if ((rc = run(st, s, "delete mutants of a changed file")) < 0)
            goto out;
    }
    if (!(s = stmt(st, S_PUT_FILE, &rc)))
        goto out;
    bind_text(s, 1, path);
    bind_text(s, 2, sha256_hex);
    if (len == 0)
        sqlite3_bind_zeroblob(s, 3, 0);
    else if (len > INT32_MAX)
        rc = -E2BIG;
    else
        sqlite3_bind_blob(s, 3, source, (int)len, SQLITE_STATIC);
    if (rc == 0)
        rc = run(st, s, "put file");
    else
        done(s);
    if (rc == 0 && changed)
        *changed = differs;
out:
    return sp_end(st, rc);
}

/* The stored source of path as a NUL-terminated heap copy the caller
 * frees, with its length in *len (may be NULL).  LT_ENOTFOUND if the
 * path was never stored. */
int lt_store_get_file(struct lt_store *st, const char *path, char **source,
                      size_t *len)
{
    int rc = 0;
    *source = NULL;
    if (len)
        *len = 0;
    sqlite3_stmt *s = stmt(st, S_GET_FILE, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, path);
    int r = sqlite3_step(s);
    if (r == SQLITE_ROW) {
        const void *p = sqlite3_column_blob(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        char *copy = xmalloc(n + 1);
        if (n)
            memcpy(copy, p, n);
        copy[n] = '\0';
        *source = copy;
        if (len)
            *len = n;
    } else if (r == SQLITE_DONE) {
        rc = LT_ENOTFOUND;
    } else {
        rc = fail(st, r, "get file");
    }
    done(s);
    return rc;
}

/*** Mutants and results ***/

/* Stores m unless a mutant with its id is already stored (then nothing
 * changes: the id is a hash of everything that defines the mutant).
 * LT_EUSAGE for a mutant without id or file. */
/* Calls fn(path, sha256_hex, ud) for every stored file in path order
 * (borrowed strings, valid during the call); stops and returns fn's value
 * when it is non-zero.  0 or a negative code. */
int lt_store_each_file(struct lt_store *st, lt_store_file_fn fn, void *ud)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, S_EACH_FILE, &rc);
    if (!s)
        return rc;
    for (;;) {
        int r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each file");
            break;
        }
        const char *path = (const char *)sqlite3_column_text(s, 0);
        const char *sha = (const char *)sqlite3_column_text(s, 1);
        if ((rc = fn(path ? path : "", sha ? sha : "", ud)) != 0)
            break;
    }
    done(s);
    return rc;
}

int lt_store_put_mutant(struct lt_store *st, const struct lt_mutant *m)
{
    int rc = 0;
    if (!m->id[0] || !m->file)
        return LT_EUSAGE;
    sqlite3_stmt *s = stmt(st, S_PUT_MUTANT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, m->id);
    bind_text(s, 2, m->file);
    sqlite3_bind_int(s, 3, m->line);
    sqlite3_bind_int(s, 4, m->col);
    sqlite3_bind_int(s, 5, m->end_line);
    sqlite3_bind_int(s, 6, m->end_col);
    sqlite3_bind_int64(s, 7, (sqlite3_int64)m->start);
    sqlite3_bind_int64(s, 8, (sqlite3_int64)m->end);
    bind_text(s, 9, m->op);
    sqlite3_bind_int(s, 10, (int)m->category);
    bind_text(s, 11, m->original);
    bind_text(s, 12, m->replacement);
    sqlite3_bind_double(s, 13, m->position);
    return run(st, s, "put mutant");
}

/* Stores r unless a result for r->mutant_id is already stored: the first
 * result wins, so a batch replayed after a crash changes nothing.
 * LT_EUSAGE for an empty id or a verdict that is not a result (pending or
 * out of range). */
int lt_store_put_result(struct lt_store *st, const struct lt_result *r)
{
    int rc = 0;
    if (!r->mutant_id[0] || r->verdict <= LT_VERDICT_PENDING ||
        r->verdict >= LT_VERDICT__COUNT)
        return LT_EUSAGE;
    sqlite3_stmt *s = stmt(st, S_PUT_RESULT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, r->mutant_id);
    bind_text(s, 2, lt_verdict_name(r->verdict));
    bind_text(s, 3, r->killed_by);
    bind_text(s, 4, r->detail);
    bind_text(s, 5, r->output);
    sqlite3_bind_double(s, 6, r->duration_ms);
    sqlite3_bind_int64(s, 7, r->peak_rss_kb);
    sqlite3_bind_int(s, 8, r->tests_run);
    return run(st, s, "put result");
}

/* 1 if a result is stored for id, 0 if not, negative on error. */
int lt_store_has_result(struct lt_store *st, const char *id)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, S_HAS_RESULT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, id);
    int r = sqlite3_step(s);
    if (r == SQLITE_ROW)
        rc = 1;
    else if (r != SQLITE_DONE)
        rc = fail(st, r, "has result");
    done(s);
    return rc;
}

/* Finds the mutant whose id is id_or_prefix or starts with it (4 to 16
 * hex digits, either case).  On success fills m with heap copies (free
 * with lt_store_mutant_free_fields), and when it has a result fills r (may
 * be NULL; free with lt_result_clear) and sets *has_result (may be NULL)
 * to 1.  LT_EUSAGE for a prefix shorter than 4 or matching several
 * mutants, LT_ENOTFOUND when nothing matches.  On failure m and r are
 * left zeroed. */
int lt_store_get_mutant(struct lt_store *st, const char *id_or_prefix,
                        struct lt_mutant *m, struct lt_result *r,
                        int *has_result)
{
    char lo[18], hi[18];
    size_t n = strlen(id_or_prefix);
    int rc = 0;

    memset(m, 0, sizeof(*m));
    if (r)
        memset(r, 0, sizeof(*r));
    if (has_result)
        *has_result = 0;
    if (n < 4)
        return LT_EUSAGE;
    if (n > 16)
        return LT_ENOTFOUND;
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)id_or_prefix[i]))
            return LT_ENOTFOUND;
        lo[i] = (char)tolower((unsigned char)id_or_prefix[i]);
    }
    lo[n] = '\0';
    memcpy(hi, lo, n);
    hi[n] = 'g';
    hi[n + 1] = '\0';

    sqlite3_stmt *s = stmt(st, S_GET_MUTANT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, lo);
    bind_text(s, 2, hi);
    int step = sqlite3_step(s);
    if (step == SQLITE_DONE) {
        rc = LT_ENOTFOUND;
    } else if (step != SQLITE_ROW) {
        rc = fail(st, step, "get mutant");
    } else {
        int had = read_row(s, m, r, 1);
        step = sqlite3_step(s);
        if (step != SQLITE_DONE) {
            rc = step == SQLITE_ROW ? LT_EUSAGE : fail(st, step, "get mutant");
            lt_store_mutant_free_fields(m);
            lt_result_clear(r);
        } else if (has_result) {
            *has_result = had;
        }
    }
    done(s);
    return rc;
}

/* Calls fn(m, r, ud) for every stored mutant in (file, start, id) order,
 * r NULL when the mutant has no result.  m, r and their strings are
 * borrowed from the current row and valid only during the call.  fn may
 * call other store functions, lt_store_each included; whether rows it
 * writes show up later in this walk is unspecified.  Returns fn's first
 * non-zero value, else 0, or a negative code on a database error. */
int lt_store_each(struct lt_store *st, lt_store_each_fn fn, void *ud)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, S_EACH, &rc);
    sqlite3_stmt *own = NULL;
    if (!s)
        return rc;
    /* The cached statement is busy when fn called us: walk with our own. */
    if (sqlite3_stmt_busy(s)) {
        int r = sqlite3_prepare_v2(st->db, stmt_sql[S_EACH], -1, &own, NULL);
        if (r != SQLITE_OK)
            return fail(st, r, "each");
        s = own;
    }
    for (;;) {
        struct lt_mutant m;
        struct lt_result res;
        int r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each");
            break;
        }
        int had = read_row(s, &m, &res, 0);
        rc = fn(&m, had ? &res : NULL, ud);
        if (rc != 0)
            break;
    }
    if (own)
        sqlite3_finalize(own);
    else
        done(s);
    return rc;
}

/*** Tests ***/

/* Replaces the stored test list with t[0..n) in one step.  0 or a
 * negative code; on failure the old list is kept. */
int lt_store_put_tests(struct lt_store *st, const struct lt_test_record *t,
                       size_t n)
{
    int rc = sp_begin(st);
    sqlite3_stmt *s;
    if (rc < 0)
        return rc;
    if (!(s = stmt(st, S_DEL_TESTS, &rc)))
        goto out;
    if ((rc = run(st, s, "delete tests")) < 0)
        goto out;
    if (!(s = stmt(st, S_PUT_TEST, &rc)))
        goto out;
    for (size_t i = 0; i < n; i++) {
        sqlite3_bind_int(s, 1, t[i].index);
        bind_text(s, 2, t[i].nodeid ? t[i].nodeid : "");
        sqlite3_bind_double(s, 3, t[i].baseline_ms);
        bind_text(s, 4, t[i].outcome);
        if (t[i].coverage)
            bind_text(s, 5, t[i].coverage);
        else
            sqlite3_bind_null(s, 5);
        if ((rc = run(st, s, "put test")) < 0)
            goto out;
    }
out:
    return sp_end(st, rc);
}

/* Calls fn for every stored test in index order; stops and returns fn's
 * value if it is non-zero.  The record's strings live only during the
 * call.  0 or a negative code. */
int lt_store_each_test(struct lt_store *st, lt_store_test_fn fn, void *ud)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, S_EACH_TEST, &rc);
    if (!s)
        return rc;
    for (;;) {
        int r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each test");
            break;
        }
        struct lt_test_record t;
        t.index = sqlite3_column_int(s, 0);
        t.nodeid = (const char *)sqlite3_column_text(s, 1);
        t.baseline_ms = sqlite3_column_double(s, 2);
        t.outcome = (const char *)sqlite3_column_text(s, 3);
        t.coverage = (const char *)sqlite3_column_text(s, 4);
        if (!t.nodeid)
            t.nodeid = "";
        if ((rc = fn(&t, ud)) != 0)
            break;
    }
    done(s);
    return rc;
}

/*** Summary ***/

/* Zeroes s, then counts every stored result into it by verdict (a name
 * this version does not know counts as pending).  Mutants without a
 * result are not counted.  0 or a negative code. */
int lt_store_summary(struct lt_store *st, struct lt_summary *s)
{
    int rc = 0;
    memset(s, 0, sizeof(*s));
    sqlite3_stmt *q = stmt(st, S_SUMMARY, &rc);
    if (!q)
        return rc;
    for (;;) {
        int r = sqlite3_step(q);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "summary");
            memset(s, 0, sizeof(*s));
            break;
        }
        enum lt_verdict v =
            lt_verdict_from_name((const char *)sqlite3_column_text(q, 0));
        int count = sqlite3_column_int(q, 1);
        s->counts[v] += count;
        s->total += count;
    }
    done(q);
    return rc;
}

/* Frees the strings of m (as filled by lt_store_get_mutant) and zeroes
 * it.  Accepts NULL. */
void lt_store_mutant_free_fields(struct lt_mutant *m)
{
    if (!m)
        return;
    free(m->file);
    free(m->op);
    free(m->original);
    free(m->replacement);
    memset(m, 0, sizeof(*m));
}

/*** Patch triage ***/

/* Runs `sql` (CREATE ... IF NOT EXISTS statements) in one transaction of
 * its own; `what` names it in the error.  0 or a negative code. */
static int create_tables(struct lt_store *st, const char *sql,
                         const char *what)
{
    int rc = lt_store_begin(st);
    if (rc < 0)
        return rc;
    int r = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        rc = fail(st, r, what);
        lt_store_rollback(st);
        return rc;
    }
    return lt_store_commit(st);
}

/* Creates the patch triage's tables when they are missing, in one
 * transaction.  Must be called outside a batch.  0 or a negative code. */
int lt_store_patches_init(struct lt_store *st)
{
    return create_tables(st, patches_schema_sql, "create the patch tables");
}

/* Stores (or replaces) the JSON result of one layer of a candidate text
 * of a program.  0 or a negative code. */
int lt_store_put_candidate_result(struct lt_store *st, const char *program,
                                  const char *text_sha, const char *layer,
                                  const char *json)
{
    int rc = 0;
    if (!program || !text_sha || !layer || !json)
        return LT_EUSAGE;
    sqlite3_stmt *s = stmt(st, S_P_PUT_RESULT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, program);
    bind_text(s, 2, text_sha);
    bind_text(s, 3, layer);
    bind_text(s, 4, json);
    return run(st, s, "put candidate result");
}

/* The stored JSON of a layer as a heap copy the caller frees; 0 and
 * *json NULL when none is stored. */
int lt_store_get_candidate_result(struct lt_store *st, const char *program,
                                  const char *text_sha, const char *layer,
                                  char **json)
{
    int rc = 0;
    *json = NULL;
    sqlite3_stmt *s = stmt(st, S_P_GET_RESULT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, program);
    bind_text(s, 2, text_sha);
    bind_text(s, 3, layer);
    return step_text(st, s, json, "get candidate result");
}

/* Stores the verdict of one mutant of a candidate text; the first
 * verdict stored for (program, text, mutant) wins. */
int lt_store_put_candidate_mutant(struct lt_store *st,
                                  const struct lt_candidate_mutant *m)
{
    int rc = 0;
    if (!m->program || !m->text_sha || !m->mutant_id || !m->verdict)
        return LT_EUSAGE;
    sqlite3_stmt *s = stmt(st, S_P_PUT_MUTANT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, m->program);
    bind_text(s, 2, m->text_sha);
    bind_text(s, 3, m->mutant_id);
    bind_text(s, 4, m->verdict);
    bind_text(s, 5, m->killed_by);
    bind_text(s, 6, m->detail);
    sqlite3_bind_double(s, 7, m->duration_ms);
    return run(st, s, "put candidate mutant");
}

/* Calls fn for every stored mutant verdict of a candidate text, in id
 * order; the strings are borrowed for the call.  Returns fn's first
 * non-zero value, else 0, or a negative code. */
int lt_store_each_candidate_mutant(struct lt_store *st, const char *program,
                                   const char *text_sha,
                                   lt_store_cmut_fn fn, void *ud)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, S_P_EACH_MUTANT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, program);
    bind_text(s, 2, text_sha);
    for (;;) {
        int r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each candidate mutant");
            break;
        }
        struct lt_candidate_mutant m = {
            program, text_sha, col_borrow(s, 0), col_borrow(s, 1),
            col_borrow(s, 2), col_borrow(s, 3), sqlite3_column_double(s, 4)};
        rc = fn(&m, ud);
        if (rc != 0)
            break;
    }
    done(s);
    return rc;
}

/* Removes every patch row: a triage replaces the previous report (the
 * candidate results it was computed from stay). */
int lt_store_clear_patch_runs(struct lt_store *st)
{
    return run_id(st, S_P_CLEAR_RUNS);
}

/* Stores the verdict of one patch, replacing a row with the same seq or
 * the same (program, run_id). */
int lt_store_put_patch_run(struct lt_store *st, const struct lt_patch_run *p)
{
    int rc = 0;
    if (!p->program || !p->run_id || !p->unit || !p->text_sha ||
        !p->verdict || !p->reason || !p->evidence)
        return LT_EUSAGE;
    sqlite3_stmt *s = stmt(st, S_P_PUT_RUN, &rc);
    if (!s)
        return rc;
    sqlite3_bind_int64(s, 1, p->seq);
    bind_text(s, 2, p->program);
    bind_text(s, 3, p->run_id);
    bind_text(s, 4, p->unit);
    bind_text(s, 5, p->text_sha);
    bind_text(s, 6, p->verdict);
    bind_text(s, 7, p->reason);
    bind_text(s, 8, p->detail);
    bind_text(s, 9, p->evidence);
    sqlite3_bind_double(s, 10, p->duration_ms);
    return run(st, s, "put patch run");
}

/* Calls fn for every patch row in seq order; the strings are borrowed
 * for the call.  Returns fn's first non-zero value, else 0, or a
 * negative code. */
int lt_store_each_patch_run(struct lt_store *st, lt_store_patch_run_fn fn,
                            void *ud)
{
    int rc = 0;
    sqlite3_stmt *s = stmt(st, S_P_EACH_RUN, &rc);
    if (!s)
        return rc;
    for (;;) {
        int r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each patch run");
            break;
        }
        struct lt_patch_run p = {
            sqlite3_column_int64(s, 0), col_borrow(s, 1), col_borrow(s, 2),
            col_borrow(s, 3), col_borrow(s, 4), col_borrow(s, 5),
            col_borrow(s, 6), col_borrow(s, 7), col_borrow(s, 8),
            sqlite3_column_double(s, 9)};
        rc = fn(&p, ud);
        if (rc != 0)
            break;
    }
    done(s);
    return rc;
}

/*** Datasets (`litmus dataset`) ***/

/* The dataset cache sits beside the other tables like the patch tables:
 * created on first use, the schema version unchanged.  A key is the hash
 * of everything that decides a run's evidence (engine/jobs/dataset/dataset_exec.c). */
static const char dataset_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS dataset_runs(key TEXT PRIMARY KEY,"
    " result TEXT NOT NULL, recorded_at TEXT NOT NULL);";

/* Creates the dataset table when it is missing.  Must be called outside a
 * batch.  0 or a negative code. */
int lt_store_dataset_init(struct lt_store *st)
{
    return create_tables(st, dataset_schema_sql, "create the dataset table");
}

/* Stores the JSON result of a dataset run under its key; the first result
 * stored for a key wins.  0 or a negative code. */
int lt_store_put_dataset(struct lt_store *st, const char *key,
                         const char *json)
{
    int rc = 0;
    if (!key || !json)
        return LT_EUSAGE;
    sqlite3_stmt *s = stmt(st, S_D_PUT, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, key);
    bind_text(s, 2, json);
    return run(st, s, "put dataset run");
}

/* The stored result of a key as a heap copy the caller frees; 0 and *json
 * NULL when none is stored. */
int lt_store_get_dataset(struct lt_store *st, const char *key, char **json)
{
    int rc = 0;
    *json = NULL;
    sqlite3_stmt *s = stmt(st, S_D_GET, &rc);
    if (!s)
        return rc;
    bind_text(s, 1, key);
    return step_text(st, s, json, "get dataset run");
}

/* Contract: see store.h.  A store that never held a dataset run has no
 * table: nothing to walk. */
int lt_store_each_dataset(struct lt_store *st, lt_store_dataset_fn fn,
                          void *ud)
{
    long long n = 0;
    int rc = 0;
    int r0 = query_int(st->db, "SELECT count(*) FROM sqlite_master WHERE "
                               "name = 'dataset_runs'", &n);
    if (r0 != SQLITE_ROW)
        return fail(st, r0, "each dataset run");
    if (n == 0)
        return 0;
    sqlite3_stmt *s = stmt(st, S_D_EACH, &rc);
    if (!s)
        return rc;
    for (;;) {
        int r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each dataset run");
            break;
        }
        const char *key = (const char *)sqlite3_column_text(s, 0);
        const char *json = (const char *)sqlite3_column_text(s, 1);
        if ((rc = fn(key ? key : "", json ? json : "", ud)) != 0)
            break;
    }
    done(s);
    return rc;
}

/* Contract: see store.h.  ATTACH reads the other database through this
 * connection; its rows are keyed by content (program fingerprint, text
 * hash, layer or mutant), so a key stored twice holds the same result. */
int lt_store_absorb_patches(struct lt_store *st, const char *path)
{
    static const char *const copy[] = {
        "INSERT OR IGNORE INTO main.candidate_results SELECT * FROM "
        "lt_src.candidate_results",
        "INSERT OR IGNORE INTO main.candidate_mutants SELECT * FROM "
        "lt_src.candidate_mutants"};
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(st->db, "ATTACH DATABASE ?1 AS lt_src", -1,
                               &s, NULL);
    if (r == SQLITE_OK) {
        sqlite3_bind_text(s, 1, path, -1, SQLITE_TRANSIENT);
        r = sqlite3_step(s);
    }
    sqlite3_finalize(s);
    if (r != SQLITE_DONE)
        return fail(st, r, "attach");
    int rc = lt_store_begin(st);
    for (size_t i = 0; rc == 0 && i < sizeof(copy) / sizeof(*copy); i++) {
        r = sqlite3_exec(st->db, copy[i], NULL, NULL, NULL);
        if (r != SQLITE_OK)
            rc = fail(st, r, "absorb patches");
    }
    if (rc == 0)
        rc = lt_store_commit(st);
    else
        lt_store_rollback(st);
    r = sqlite3_exec(st->db, "DETACH DATABASE lt_src", NULL, NULL, NULL);
    if (rc == 0 && r != SQLITE_OK)
        rc = fail(st, r, "detach");
    return rc;
}

/*** Telemetry ***/

/* What --telemetry saw of a mutant's child: the summary line, and the
 * refused system calls one per row for `litmus report`.  Created on first
 * use, the schema version unchanged. */
static const char telemetry_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS telemetry(mutant_id TEXT PRIMARY KEY,"
    " summary TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS telemetry_refused(mutant_id TEXT NOT NULL,"
    " syscall TEXT NOT NULL, count INTEGER NOT NULL,"
    " PRIMARY KEY(mutant_id, syscall));";

/* Creates the telemetry tables when they are missing.  Must be called
 * outside a batch.  0 or a negative code. */
int lt_store_telemetry_init(struct lt_store *st)
{
    return create_tables(st, telemetry_schema_sql,
                         "create the telemetry tables");
}

/* Runs one statement of `sql` with up to three text/integer parameters
 * (text a, text b, integer n; unused ones are not bound).  0 or a
 * negative code. */
static int exec3(struct lt_store *st, const char *sql, const char *a,
                 const char *b, long long n, int nparams, const char *what)
{
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
    if (r != SQLITE_OK)
        return fail(st, r, what);
    if (nparams > 0)
        bind_text(s, 1, a);
    if (nparams > 1)
        bind_text(s, 2, b);
    if (nparams > 2)
        sqlite3_bind_int64(s, 3, n);
    r = sqlite3_step(s);
    sqlite3_finalize(s);
    return r == SQLITE_DONE || r == SQLITE_ROW ? 0 : fail(st, r, what);
}

/* Stores (or replaces) what the telemetry saw of one mutant's child;
 * lt_store_telemetry_init() must have run.  0 or a negative code. */
int lt_store_put_telemetry(struct lt_store *st, const char *mutant_id,
                           const struct lt_telemetry_sample *s)
{
    if (!s->summary)
        return 0;
    int rc = exec3(st, "INSERT OR REPLACE INTO telemetry(mutant_id, summary)"
                       " VALUES (?1, ?2)", mutant_id, s->summary, 0, 2,
                   "put telemetry");
    if (rc == 0)
        rc = exec3(st, "DELETE FROM telemetry_refused WHERE mutant_id = ?1",
                   mutant_id, NULL, 0, 1, "put telemetry");
    for (size_t i = 0; rc == 0 && i < s->n_refused; i++)
        rc = exec3(st, "INSERT INTO telemetry_refused(mutant_id, syscall,"
                       " count) VALUES (?1, ?2, ?3)", mutant_id,
                   s->refused[i].name, s->refused[i].count, 3,
                   "put telemetry");
    return rc;
}

/* Whether a table exists; 1, 0, or a negative code. */
static int has_table(struct lt_store *st, const char *name)
{
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE "
                                       "type = 'table' AND name = ?1",
                               -1, &s, NULL);
    if (r != SQLITE_OK)
        return fail(st, r, "look for a table");
    bind_text(s, 1, name);
    r = sqlite3_step(s);
    sqlite3_finalize(s);
    if (r == SQLITE_ROW)
        return 1;
    return r == SQLITE_DONE ? 0 : fail(st, r, "look for a table");
}

/* The stored telemetry summary of a mutant as a heap copy the caller
 * frees; 0 and *summary NULL when none is stored. */
int lt_store_get_telemetry(struct lt_store *st, const char *mutant_id,
                           char **summary)
{
    *summary = NULL;
    int rc = has_table(st, "telemetry");
    if (rc <= 0)
        return rc;
    rc = 0;
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(st->db, "SELECT summary FROM telemetry WHERE "
                                       "mutant_id = ?1", -1, &s, NULL);
    if (r != SQLITE_OK)
        return fail(st, r, "get telemetry");
    bind_text(s, 1, mutant_id);
    r = sqlite3_step(s);
    if (r == SQLITE_ROW)
        *summary = col_dup(s, 0);
    else if (r != SQLITE_DONE)
        rc = fail(st, r, "get telemetry");
    sqlite3_finalize(s);
    return rc;
}

/* Calls fn(operator, syscall, total, mutants, ud) for the refused system
 * calls summed per operator, the largest totals first; stops at fn's
 * first nonzero return and returns it.  0 when nothing is stored. */
int lt_store_each_refusal(struct lt_store *st,
                          int (*fn)(const char *op, const char *syscall,
                                    long long total, long long mutants,
                                    void *ud),
                          void *ud)
{
    int rc = has_table(st, "telemetry_refused");
    if (rc <= 0)
        return rc;
    rc = 0;
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(
        st->db,
        "SELECT m.op, t.syscall, sum(t.count), count(*) FROM telemetry_refused"
        " t JOIN mutants m ON m.id = t.mutant_id GROUP BY m.op, t.syscall"
        " ORDER BY sum(t.count) DESC, m.op, t.syscall",
        -1, &s, NULL);
    if (r != SQLITE_OK)
        return fail(st, r, "sum refused calls");
    while ((r = sqlite3_step(s)) == SQLITE_ROW && rc == 0)
        rc = fn((const char *)sqlite3_column_text(s, 0),
                (const char *)sqlite3_column_text(s, 1),
                sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3), ud);
    if (rc == 0 && r != SQLITE_DONE && r != SQLITE_ROW)
        rc = fail(st, r, "sum refused calls");
    sqlite3_finalize(s);
    return rc;
}

/*** Incremental runs ***/

/* Per mutant of a run, the key that finds it again in a later, changed
 * tree (its file, operator, replacement and the text around it) and the
 * signature of the tests that cover it (docs/incremental.md).  Created on
 * first use, the schema version unchanged. */
static const char reuse_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS reuse_keys(mutant_id TEXT PRIMARY KEY,"
    " key TEXT NOT NULL, tests TEXT NOT NULL);";

/* Creates the reuse table when it is missing.  Must be called outside a
 * batch.  0 or a negative code. */
int lt_store_reuse_init(struct lt_store *st)
{
    return create_tables(st, reuse_schema_sql, "create the reuse table");
}

/* Stores (or replaces) the reuse key and test signature of mutant_id.
 * 0 or a negative code. */
int lt_store_put_reuse_key(struct lt_store *st, const char *mutant_id,
                           const char *key, const char *tests)
{
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(st->db,
                               "INSERT OR REPLACE INTO reuse_keys(mutant_id,"
                               " key, tests) VALUES (?1, ?2, ?3)",
                               -1, &s, NULL);
    if (r != SQLITE_OK)
        return fail(st, r, "put reuse key");
    bind_text(s, 1, mutant_id);
    bind_text(s, 2, key);
    bind_text(s, 3, tests);
    r = sqlite3_step(s);
    sqlite3_finalize(s);
    return r == SQLITE_DONE ? 0 : fail(st, r, "put reuse key");
}

/* Calls fn(mutant_id, key, tests, result, ud) for every stored reuse key
 * whose mutant has a result (borrowed; valid during the call); stops and
 * returns fn's value when it is non-zero.  0 or a negative code. */
int lt_store_each_reuse(struct lt_store *st, lt_store_reuse_fn fn, void *ud)
{
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(
        st->db,
        "SELECT k.mutant_id, k.key, k.tests, r.verdict, r.killed_by,"
        " r.detail, r.output, r.duration_ms, r.peak_rss_kb, r.tests_run"
        " FROM reuse_keys k JOIN results r ON r.mutant_id = k.mutant_id"
        " ORDER BY k.mutant_id",
        -1, &s, NULL);
    if (r != SQLITE_OK)
        return fail(st, r, "each reuse key");
    int rc = 0;
    for (;;) {
        r = sqlite3_step(s);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = fail(st, r, "each reuse key");
            break;
        }
        struct lt_result res;
        memset(&res, 0, sizeof(res));
        const char *id = (const char *)sqlite3_column_text(s, 0);
        const char *v = (const char *)sqlite3_column_text(s, 3);
        res.verdict = v ? lt_verdict_from_name(v) : LT_VERDICT_PENDING;
        if (!id || strlen(id) != 16 || res.verdict == LT_VERDICT_PENDING)
            continue; /* not ours to reuse: run the mutant again */
        memcpy(res.mutant_id, id, 17);
        /* Borrowed column text: cast away const for the struct only. */
        res.killed_by = (char *)sqlite3_column_text(s, 4);
        res.detail = (char *)sqlite3_column_text(s, 5);
        res.output = (char *)sqlite3_column_text(s, 6);
        res.duration_ms = sqlite3_column_double(s, 7);
        res.peak_rss_kb = (long)sqlite3_column_int64(s, 8);
        res.tests_run = sqlite3_column_int(s, 9);
        const char *key = (const char *)sqlite3_column_text(s, 1);
        const char *tests = (const char *)sqlite3_column_text(s, 2);
        if ((rc = fn(id, key ? key : "", tests ? tests : "", &res, ud)) != 0)
            break;
    }
    sqlite3_finalize(s);
    return rc;
}

/* Forgets the mutants, results and reuse keys of the stored run (files,
 * tests and meta stay), so that a new run over a changed tree stores only
 * its own mutants.  Inside a batch or on its own.  0 or a negative code. */
int lt_store_clear_run(struct lt_store *st)
{
    int r = sqlite3_exec(st->db,
                         "DELETE FROM results; DELETE FROM mutants;"
                         " DELETE FROM reuse_keys;",
                         NULL, NULL, NULL);
    return r == SQLITE_OK ? 0 : fail(st, r, "clear the stored run");
}
