/* The results database: one SQLite file in WAL mode, written in one
 * transaction per batch, keyed by stable mutant ids so that a rerun after
 * kill -9 loses nothing that was committed and records nothing twice.
 * This file holds the connection, the lock, transactions, the schema and
 * the rows every job shares (meta, files, mutants, results, tests,
 * telemetry); a job's own tables live in a *_store.c file in the job's
 * folder under engine/jobs, reaching SQLite through store_internal.h.
 * SPDX-License-Identifier: MIT */
#include "engine/core/store.h"
#include "engine/core/store_internal.h"
#include "operators/operators.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
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

/* Created in one transaction together with the version row, so a database
 * has either all of it or none of it.  A job's tables are not here: each
 * job creates its own on first use (IF NOT EXISTS), beside these and
 * without changing the schema version. */
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

/* A prepared statement kept until close, found again by its SQL. */
struct cached {
    char *sql;
    sqlite3_stmt *s;
};

struct lt_store {
    sqlite3 *db;
    int lock_fd; /* flock(LOCK_EX) on "<path>.lock", -1 when not held */
    char *lock_path; /* "<path>.lock" while held, else NULL */
    struct cached *stmts;
    size_t n_stmts, cap_stmts;
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
 * sees) and returns the litmus code for r. */
int lt__store_fail(struct lt_store *st, int r, const char *what)
{
    lt_debug("store: %s: %s", what, sqlite3_errmsg(st->db));
    return map_rc(st->db, r);
}

/* Replaces newlines so a message from SQLite stays one line. */
static char *one_line(char *s)
{
    for (char *p = s; p && *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return s;
}

/*** Statements ***/

/* Contract: see store_internal.h.  A store runs a few dozen distinct
 * statements, so a linear search costs less than the step it precedes. */
sqlite3_stmt *lt__store_stmt(struct lt_store *st, const char *sql, int *rc)
{
    for (size_t i = 0; i < st->n_stmts; i++)
        if (st->stmts[i].sql == sql || strcmp(st->stmts[i].sql, sql) == 0)
            return st->stmts[i].s;
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &s, NULL);
    if (r != SQLITE_OK) {
        sqlite3_finalize(s);
        *rc = lt__store_fail(st, r, sql);
        return NULL;
    }
    if (st->n_stmts == st->cap_stmts) {
        st->cap_stmts = st->cap_stmts ? 2 * st->cap_stmts : 32;
        st->stmts = xrealloc(st->stmts, st->cap_stmts * sizeof(*st->stmts));
    }
    st->stmts[st->n_stmts++] = (struct cached){xstrdup(sql), s};
    return s;
}

/* Contract: see store_internal.h. */
void lt__store_done(sqlite3_stmt *s)
{
    if (!s)
        return;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

/* Binds fmt's arguments to s from parameter 1 on.  Text is bound without
 * a copy: every statement is stepped and reset before the caller's
 * string can go away.  A blob ('b': const void *, size_t) of length 0 is
 * a zero-length blob, not NULL.  0 or a negative code. */
static int bind_args(struct lt_store *st, sqlite3_stmt *s, const char *fmt,
                     va_list ap)
{
    int i = 1;
    for (const char *f = fmt; *f; f++, i++) {
        int r = SQLITE_OK;
        switch (*f) {
        case 't': {
            const char *v = va_arg(ap, const char *);
            r = v ? sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC)
                  : sqlite3_bind_null(s, i);
            break;
        }
        case 'i':
            r = sqlite3_bind_int(s, i, va_arg(ap, int));
            break;
        case 'l':
            r = sqlite3_bind_int64(s, i, va_arg(ap, long long));
            break;
        case 'd':
            r = sqlite3_bind_double(s, i, va_arg(ap, double));
            break;
        case 'b': {
            const void *p = va_arg(ap, const void *);
            size_t n = va_arg(ap, size_t);
            if (n > INT32_MAX)
                return -E2BIG;
            r = n ? sqlite3_bind_blob(s, i, p, (int)n, SQLITE_STATIC)
                  : sqlite3_bind_zeroblob(s, i, 0);
            break;
        }
        default:
            return LT_EINTERNAL;
        }
        if (r != SQLITE_OK)
            return lt__store_fail(st, r, "bind");
    }
    return 0;
}

/* The cached statement for sql with the arguments bound; NULL with *rc
 * set on failure. */
static sqlite3_stmt *vquery(struct lt_store *st, const char *sql,
                            int *rc, const char *fmt, va_list ap)
{
    sqlite3_stmt *s = lt__store_stmt(st, sql, rc);
    if (!s)
        return NULL;
    int r = bind_args(st, s, fmt, ap);
    if (r < 0) {
        lt__store_done(s);
        *rc = r;
        return NULL;
    }
    return s;
}

/* Contract: see store_internal.h. */
sqlite3_stmt *lt__store_query(struct lt_store *st, const char *sql,
                              const char *what, int *rc, const char *fmt,
                              ...)
{
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *s = vquery(st, sql, rc, fmt, ap);
    va_end(ap);
    if (!s)
        lt_debug("store: %s failed", what);
    return s;
}

/* Contract: see store_internal.h. */
int lt__store_step(struct lt_store *st, sqlite3_stmt *s, const char *what)
{
    int r = sqlite3_step(s);
    if (r == SQLITE_ROW)
        return 1;
    return r == SQLITE_DONE ? 0 : lt__store_fail(st, r, what);
}

/* Steps s once and resets it: 0 (a row or none) or a negative code. */
static int run(struct lt_store *st, sqlite3_stmt *s, const char *what)
{
    int rc = lt__store_step(st, s, what);
    lt__store_done(s);
    return rc < 0 ? rc : 0;
}

/* Contract: see store_internal.h. */
int lt__store_exec(struct lt_store *st, const char *sql, const char *what,
                   const char *fmt, ...)
{
    int rc = 0;
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *s = vquery(st, sql, &rc, fmt, ap);
    va_end(ap);
    return s ? run(st, s, what) : rc;
}

static char *col_dup(sqlite3_stmt *s, int i)
{
    const unsigned char *p = sqlite3_column_text(s, i);
    return p ? xstrdup((const char *)p) : NULL;
}

/* Contract: see store_internal.h. */
char *lt__store_col(sqlite3_stmt *s, int i)
{
    return (char *)sqlite3_column_text(s, i);
}

/* Contract: see store_internal.h. */
int lt__store_query_text(struct lt_store *st, const char *sql,
                         const char *what, char **out, const char *fmt, ...)
{
    int rc = 0;
    va_list ap;
    *out = NULL;
    va_start(ap, fmt);
    sqlite3_stmt *s = vquery(st, sql, &rc, fmt, ap);
    va_end(ap);
    if (!s)
        return rc;
    rc = lt__store_step(st, s, what);
    if (rc > 0)
        *out = col_dup(s, 0);
    lt__store_done(s);
    return rc < 0 ? rc : 0;
}

/* Contract: see store_internal.h. */
int lt__store_create_tables(struct lt_store *st, const char *sql,
                            const char *what)
{
    int rc = lt_store_begin(st);
    if (rc < 0)
        return rc;
    /* Several statements: sqlite3_exec, as for the schema. */
    int r = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        rc = lt__store_fail(st, r, what);
        lt_store_rollback(st);
        return rc;
    }
    return lt_store_commit(st);
}

/* Contract: see store_internal.h. */
int lt__store_has_table(struct lt_store *st, const char *name)
{
    static const char sql[] =
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?1";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, "look for a table", &rc, "t",
                                      name);
    if (!s)
        return rc;
    rc = lt__store_step(st, s, "look for a table");
    lt__store_done(s);
    return rc;
}

/*** Savepoints ***/

/* put_file and put_tests make several changes that must land together
 * whether or not the caller has a batch open: a savepoint nests inside
 * BEGIN and is its own transaction outside one. */
static int sp_begin(struct lt_store *st)
{
    return lt__store_exec(st, "SAVEPOINT lt_sp", "savepoint", "");
}

/* Releases the savepoint on success, undoes it on failure; returns rc. */
static int sp_end(struct lt_store *st, int rc)
{
    if (rc == 0)
        return lt__store_exec(st, "RELEASE lt_sp", "release", "");
    /* After an I/O error SQLite may already have rolled back the whole
     * transaction, savepoint included; then these fail harmlessly. */
    if (!sqlite3_get_autocommit(st->db)) {
        lt__store_exec(st, "ROLLBACK TO lt_sp", "rollback to", "");
        lt__store_exec(st, "RELEASE lt_sp", "release", "");
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
        for (size_t i = 0; i < st->n_stmts; i++) {
            sqlite3_finalize(st->stmts[i].s);
            free(st->stmts[i].sql);
        }
        sqlite3_close_v2(st->db);
    }
    free(st->stmts);
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
    return lt__store_exec(st, "BEGIN IMMEDIATE", "begin", "");
}

/* Makes the batch durable against the death of the process.  On failure
 * the batch stays open: retry the commit or call lt_store_rollback().
 * LT_EUSAGE without an open batch. */
int lt_store_commit(struct lt_store *st)
{
    if (sqlite3_get_autocommit(st->db))
        return LT_EUSAGE;
    return lt__store_exec(st, "COMMIT", "commit", "");
}

/* Discards the open batch.  LT_EUSAGE without one. */
int lt_store_rollback(struct lt_store *st)
{
    if (sqlite3_get_autocommit(st->db))
        return LT_EUSAGE;
    return lt__store_exec(st, "ROLLBACK", "rollback", "");
}

/* SQLite's English message for the most recent failure on st; valid until
 * the next call on st.  Never NULL. */
const char *lt_store_errmsg(struct lt_store *st)
{
    return st && st->db ? sqlite3_errmsg(st->db) : "no database";
}

/*** Meta ***/

/* The value stored under key, as a heap copy the caller frees; 0 and
 * *out NULL when the key is unset. */
int lt_store_get_meta(struct lt_store *st, const char *key, char **out)
{
    return lt__store_query_text(st, "SELECT value FROM meta WHERE key = ?1",
                                "get meta", out, "t", key);
}

/* Stores val under key, replacing any previous value; a NULL val removes
 * the key.  0 or a negative code. */
int lt_store_set_meta(struct lt_store *st, const char *key, const char *val)
{
    if (!val)
        return lt__store_exec(st, "DELETE FROM meta WHERE key = ?1",
                              "set meta", "t", key);
    return lt__store_exec(st,
                          "INSERT INTO meta(key, value) VALUES (?1, ?2) "
                          "ON CONFLICT(key) DO UPDATE SET value = "
                          "excluded.value",
                          "set meta", "tt", key, val);
}

/* Contract: see store.h. */
int lt_store_budget_stopped(struct lt_store *st)
{
    char *stop = NULL, *complete = NULL;
    int stopped = lt_store_get_meta(st, LT_META_BUDGET_STOP, &stop) == 0 &&
                  stop && *stop &&
                  lt_store_get_meta(st, "complete", &complete) == 0 &&
                  !(complete && strcmp(complete, "1") == 0);
    free(stop);
    free(complete);
    return stopped;
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
    char *old = NULL;
    int rc, row = 0, differs = 0;
    sqlite3_stmt *s;

    if (changed)
        *changed = 0;
    if (!path || !sha256_hex || (!source && len))
        return LT_EUSAGE;
    rc = sp_begin(st);
    if (rc < 0)
        return rc;

    s = lt__store_query(st, "SELECT sha256 FROM files WHERE path = ?1",
                        "read file hash", &rc, "t", path);
    if (!s)
        goto out;
    row = rc = lt__store_step(st, s, "read file hash");
    if (row > 0) {
        old = lt__store_col(s, 0);
        differs = !old || strcmp(old, sha256_hex) != 0;
        rc = 0;
    }
    lt__store_done(s);
    if (rc < 0 || (row > 0 && !differs))
        goto out;

    if (differs) {
        /* Results first: they are found through the mutants. */
        rc = lt__store_exec(st,
                            "DELETE FROM results WHERE mutant_id IN "
                            "(SELECT id FROM mutants WHERE file = ?1)",
                            "delete results of a changed file", "t", path);
        if (rc == 0)
            rc = lt__store_exec(st, "DELETE FROM mutants WHERE file = ?1",
                                "delete mutants of a changed file", "t",
                                path);
        if (rc < 0)
            goto out;
    }
    rc = lt__store_exec(st,
                        "INSERT OR REPLACE INTO files(path, sha256, source) "
                        "VALUES (?1, ?2, ?3)",
                        "put file", "ttb", path, sha256_hex,
                        (const void *)source, len);
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
    sqlite3_stmt *s = lt__store_query(st,
                                      "SELECT source FROM files WHERE "
                                      "path = ?1",
                                      "get file", &rc, "t", path);
    if (!s)
        return rc;
    rc = lt__store_step(st, s, "get file");
    if (rc > 0) {
        const void *p = sqlite3_column_blob(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        char *copy = xmalloc(n + 1);
        if (n)
            memcpy(copy, p, n);
        copy[n] = '\0';
        *source = copy;
        if (len)
            *len = n;
        rc = 0;
    } else if (rc == 0) {
        rc = LT_ENOTFOUND;
    }
    lt__store_done(s);
    return rc;
}

/* Calls fn(path, sha256_hex, ud) for every stored file in path order
 * (borrowed strings, valid during the call); stops and returns fn's value
 * when it is non-zero.  0 or a negative code. */
int lt_store_each_file(struct lt_store *st, lt_store_file_fn fn, void *ud)
{
    static const char sql[] = "SELECT path, sha256 FROM files ORDER BY path";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, "each file", &rc, "");
    while (s && (rc = lt__store_step(st, s, "each file")) > 0) {
        const char *path = lt__store_col(s, 0);
        const char *sha = lt__store_col(s, 1);
        if ((rc = fn(path ? path : "", sha ? sha : "", ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}

/*** Mutants and results ***/

/* Columns 0-12 are the mutant, 13-20 its result (all NULL when none). */
#define MUTANT_COLS                                                        \
    "m.id, m.file, m.line, m.col, m.end_line, m.end_col, m.start, "        \
    "m.end_off, m.op, m.category, m.original, m.replacement, m.position, " \
    "r.mutant_id, r.verdict, r.killed_by, r.detail, r.output, "            \
    "r.duration_ms, r.peak_rss_kb, r.tests_run "                           \
    "FROM mutants m LEFT JOIN results r ON r.mutant_id = m.id "

static const char each_mutant_sql[] =
    "SELECT " MUTANT_COLS "ORDER BY m.file, m.start, m.id";

/* Fills m, and r when the row has a result, from a MUTANT_COLS row.
 * Strings are heap copies when copy is set, else borrowed from the row.
 * Returns 1 when the row had a result. */
static int read_row(sqlite3_stmt *s, struct lt_mutant *m,
                    struct lt_result *r, int copy)
{
    char *(*str)(sqlite3_stmt *, int) = copy ? col_dup : lt__store_col;
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

/* Stores m unless a mutant with its id is already stored (then nothing
 * changes: the id is a hash of everything that defines the mutant).
 * LT_EUSAGE for a mutant without id or file. */
int lt_store_put_mutant(struct lt_store *st, const struct lt_mutant *m)
{
    static const char sql[] =
        "INSERT OR IGNORE INTO mutants(id, file, line, col, end_line, "
        "end_col, start, end_off, op, category, original, replacement, "
        "position) VALUES "
        "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
    if (!m->id[0] || !m->file)
        return LT_EUSAGE;
    return lt__store_exec(st, sql, "put mutant", "ttiiiilltittd", m->id,
                          m->file, m->line, m->col, m->end_line, m->end_col,
                          (long long)m->start, (long long)m->end, m->op,
                          (int)m->category, m->original, m->replacement,
                          m->position);
}

/* Stores r unless a result for r->mutant_id is already stored: the first
 * result wins, so a batch replayed after a crash changes nothing.
 * LT_EUSAGE for an empty id or a verdict that is not a result (pending,
 * not_run or out of range). */
int lt_store_put_result(struct lt_store *st, const struct lt_result *r)
{
    static const char sql[] =
        "INSERT OR IGNORE INTO results(mutant_id, verdict, killed_by, "
        "detail, output, duration_ms, peak_rss_kb, tests_run, recorded_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    if (!r->mutant_id[0] || r->verdict <= LT_VERDICT_PENDING ||
        r->verdict == LT_VERDICT_NOT_RUN || r->verdict >= LT_VERDICT__COUNT)
        return LT_EUSAGE;
    return lt__store_exec(st, sql, "put result", "tttttdli", r->mutant_id,
                          lt_verdict_name(r->verdict), r->killed_by,
                          r->detail, r->output, r->duration_ms,
                          (long long)r->peak_rss_kb, r->tests_run);
}

/* 1 if a result is stored for id, 0 if not, negative on error. */
int lt_store_has_result(struct lt_store *st, const char *id)
{
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st,
                                      "SELECT 1 FROM results WHERE "
                                      "mutant_id = ?1",
                                      "has result", &rc, "t", id);
    if (!s)
        return rc;
    rc = lt__store_step(st, s, "has result");
    lt__store_done(s);
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
    /* Ids are lowercase hex, so every id starting with p sorts in
     * [p, p || 'g'): a range the primary key index answers directly. */
    static const char sql[] =
        "SELECT " MUTANT_COLS
        "WHERE m.id >= ?1 AND m.id < ?2 ORDER BY m.id LIMIT 2";
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

    sqlite3_stmt *s = lt__store_query(st, sql, "get mutant", &rc, "tt", lo,
                                      hi);
    if (!s)
        return rc;
    rc = lt__store_step(st, s, "get mutant");
    if (rc == 0) {
        rc = LT_ENOTFOUND;
    } else if (rc > 0) {
        int had = read_row(s, m, r, 1);
        rc = lt__store_step(st, s, "get mutant");
        if (rc != 0) {
            rc = rc > 0 ? LT_EUSAGE : rc;
            lt_store_mutant_free_fields(m);
            lt_result_clear(r);
        } else if (has_result) {
            *has_result = had;
        }
    }
    lt__store_done(s);
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
    sqlite3_stmt *s = lt__store_stmt(st, each_mutant_sql, &rc);
    sqlite3_stmt *own = NULL;
    if (!s)
        return rc;
    /* The cached statement is busy when fn called us: walk with our own. */
    if (sqlite3_stmt_busy(s)) {
        int r = sqlite3_prepare_v2(st->db, each_mutant_sql, -1, &own, NULL);
        if (r != SQLITE_OK)
            return lt__store_fail(st, r, "each");
        s = own;
    }
    while ((rc = lt__store_step(st, s, "each")) > 0) {
        struct lt_mutant m;
        struct lt_result res;
        int had = read_row(s, &m, &res, 0);
        if ((rc = fn(&m, had ? &res : NULL, ud)) != 0)
            break;
    }
    if (own)
        sqlite3_finalize(own);
    else
        lt__store_done(s);
    return rc;
}

/*** Tests ***/

/* Replaces the stored test list with t[0..n) in one step.  0 or a
 * negative code; on failure the old list is kept. */
int lt_store_put_tests(struct lt_store *st, const struct lt_test_record *t,
                       size_t n)
{
    static const char sql[] =
        "INSERT INTO tests(idx, nodeid, baseline_ms, outcome, coverage) "
        "VALUES (?1, ?2, ?3, ?4, ?5)";
    int rc = sp_begin(st);
    if (rc < 0)
        return rc;
    rc = lt__store_exec(st, "DELETE FROM tests", "delete tests", "");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = lt__store_exec(st, sql, "put test", "itdtt", t[i].index,
                            t[i].nodeid ? t[i].nodeid : "", t[i].baseline_ms,
                            t[i].outcome, t[i].coverage);
    return sp_end(st, rc);
}

/* Calls fn for every stored test in index order; stops and returns fn's
 * value if it is non-zero.  The record's strings live only during the
 * call.  0 or a negative code. */
int lt_store_each_test(struct lt_store *st, lt_store_test_fn fn, void *ud)
{
    static const char sql[] = "SELECT idx, nodeid, baseline_ms, outcome, "
                              "coverage FROM tests ORDER BY idx";
    int rc = 0;
    sqlite3_stmt *s = lt__store_query(st, sql, "each test", &rc, "");
    while (s && (rc = lt__store_step(st, s, "each test")) > 0) {
        struct lt_test_record t;
        t.index = sqlite3_column_int(s, 0);
        t.nodeid = lt__store_col(s, 1);
        t.baseline_ms = sqlite3_column_double(s, 2);
        t.outcome = lt__store_col(s, 3);
        t.coverage = lt__store_col(s, 4);
        if (!t.nodeid)
            t.nodeid = "";
        if ((rc = fn(&t, ud)) != 0)
            break;
    }
    lt__store_done(s);
    return rc;
}

/*** Summary ***/

/* Zeroes s, then counts every stored result into it by verdict (a name
 * this version does not know counts as pending).  Mutants without a
 * result are not counted.  0 or a negative code. */
int lt_store_summary(struct lt_store *st, struct lt_summary *s)
{
    static const char sql[] =
        "SELECT verdict, count(*) FROM results GROUP BY verdict";
    int rc = 0;
    memset(s, 0, sizeof(*s));
    sqlite3_stmt *q = lt__store_query(st, sql, "summary", &rc, "");
    while (q && (rc = lt__store_step(st, q, "summary")) > 0) {
        enum lt_verdict v = lt_verdict_from_name(lt__store_col(q, 0));
        int count = sqlite3_column_int(q, 1);
        s->counts[v] += count;
        s->total += count;
    }
    if (rc < 0)
        memset(s, 0, sizeof(*s));
    lt__store_done(q);
    return rc;
}

/* Frees the strings of m (as filled by lt_store_get_mutant) and zeroes
 * it.  Accepts NULL. */
void lt_store_mutant_free_fields(struct lt_mutant *m)
{
    lt_mutant_clear(m);
}

/*** Telemetry ***/

/* What --telemetry saw of a mutant's child: the summary line, and the
 * refused system calls one per row for `litmus report`.  Created on first
 * use, the schema version unchanged.  In the core because the core
 * samples it (telemetry.c) and the reports read it. */
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
    return lt__store_create_tables(st, telemetry_schema_sql,
                                   "create the telemetry tables");
}

/* Stores (or replaces) what the telemetry saw of one mutant's child;
 * lt_store_telemetry_init() must have run.  0 or a negative code. */
int lt_store_put_telemetry(struct lt_store *st, const char *mutant_id,
                           const struct lt_telemetry_sample *s)
{
    if (!s->summary)
        return 0;
    int rc = lt__store_exec(st,
                            "INSERT OR REPLACE INTO telemetry(mutant_id, "
                            "summary) VALUES (?1, ?2)",
                            "put telemetry", "tt", mutant_id, s->summary);
    if (rc == 0)
        rc = lt__store_exec(st,
                            "DELETE FROM telemetry_refused WHERE "
                            "mutant_id = ?1",
                            "put telemetry", "t", mutant_id);
    for (size_t i = 0; rc == 0 && i < s->n_refused; i++)
        rc = lt__store_exec(st,
                            "INSERT INTO telemetry_refused(mutant_id, "
                            "syscall, count) VALUES (?1, ?2, ?3)",
                            "put telemetry", "ttl", mutant_id,
                            s->refused[i].name,
                            (long long)s->refused[i].count);
    return rc;
}

/* The stored telemetry summary of a mutant as a heap copy the caller
 * frees; 0 and *summary NULL when none is stored. */
int lt_store_get_telemetry(struct lt_store *st, const char *mutant_id,
                           char **summary)
{
    *summary = NULL;
    int rc = lt__store_has_table(st, "telemetry");
    if (rc <= 0)
        return rc;
    return lt__store_query_text(st,
                                "SELECT summary FROM telemetry WHERE "
                                "mutant_id = ?1",
                                "get telemetry", summary, "t", mutant_id);
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
    static const char sql[] =
        "SELECT m.op, t.syscall, sum(t.count), count(*) FROM telemetry_refused"
        " t JOIN mutants m ON m.id = t.mutant_id GROUP BY m.op, t.syscall"
        " ORDER BY sum(t.count) DESC, m.op, t.syscall";
    int rc = lt__store_has_table(st, "telemetry_refused");
    if (rc <= 0)
        return rc;
    sqlite3_stmt *s = lt__store_query(st, sql, "sum refused calls", &rc, "");
    while (s && (rc = lt__store_step(st, s, "sum refused calls")) > 0)
        if ((rc = fn(lt__store_col(s, 0), lt__store_col(s, 1),
                     sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3),
                     ud)) != 0)
            break;
    lt__store_done(s);
    return rc;
}

/*** Copying another store's tables (`litmus merge`) ***/

/* Contract: see store.h.  ATTACH reads the other database through this
 * connection.  A table is created from the text the other database keeps
 * in sqlite_master, which SQLite wrote from a CREATE TABLE: only such a
 * text, one statement and nothing after it, is run. */
int lt_store_absorb(struct lt_store *st, const char *path,
                    const char *const *create, const char *const *copy)
{
    static const char look_sql[] =
        "SELECT (SELECT count(*) FROM main.sqlite_master WHERE type = "
        "'table' AND name = ?1), (SELECT sql FROM lt_src.sqlite_master "
        "WHERE type = 'table' AND name = ?1)";
    if (!sqlite3_get_autocommit(st->db))
        return LT_EUSAGE; /* the caller's batch is not ours to end */
    int rc = lt__store_exec(st, "ATTACH DATABASE ?1 AS lt_src", "attach",
                            "t", path);
    if (rc < 0)
        return rc;
    rc = lt_store_begin(st);
    for (size_t i = 0; rc == 0 && create && create[i]; i++) {
        sqlite3_stmt *s = lt__store_query(st, look_sql, "absorb", &rc, "t",
                                          create[i]);
        if (s && (rc = lt__store_step(st, s, "absorb")) > 0) {
            const char *def = lt__store_col(s, 1);
            rc = 0;
            if (sqlite3_column_int(s, 0) == 0 && def) {
                sqlite3_stmt *c = NULL;
                const char *tail = NULL;
                int r = strncmp(def, "CREATE TABLE ", 13) != 0
                            ? SQLITE_CORRUPT
                            : sqlite3_prepare_v2(st->db, def, -1, &c, &tail);
                if (r == SQLITE_OK && tail && *tail)
                    r = SQLITE_CORRUPT;
                if (r == SQLITE_OK)
                    r = sqlite3_step(c);
                if (r != SQLITE_DONE)
                    rc = lt__store_fail(st, r, "create an absorbed table");
                sqlite3_finalize(c);
            }
        }
        lt__store_done(s);
    }
    for (size_t i = 0; rc == 0 && copy && copy[i]; i++) {
        char *has = NULL;
        rc = lt__store_query_text(st,
                                  "SELECT name FROM lt_src.sqlite_master"
                                  " WHERE type = 'table' AND name = ?1",
                                  "absorb", &has, "t", copy[i]);
        if (rc == 0 && has) {
            /* The names are the caller's constants, not input. */
            char *sql = xasprintf("INSERT OR IGNORE INTO main.\"%s\" "
                                  "SELECT * FROM lt_src.\"%s\"",
                                  copy[i], copy[i]);
            rc = lt__store_exec(st, sql, "absorb", "");
            free(sql);
        }
        free(has);
    }
    if (rc == 0)
        rc = lt_store_commit(st);
    else
        lt_store_rollback(st);
    int r = lt__store_exec(st, "DETACH DATABASE lt_src", "detach", "");
    return rc < 0 ? rc : r;
}
