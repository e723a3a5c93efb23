/* Unit tests of the store (open, lock, refusal of foreign and corrupt
 * files, idempotent writes, crash safety, the jobs' tables and merge's
 * copy of them) and of the verdict vocabulary.
 * SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "common/err.h"
#include "engine/core/store.h"
#include "operators/operators.h"
#include "engine/core/verdict.h"
#include "engine/jobs/dataset/dataset_store.h"
#include "engine/jobs/patches/patches_store.h"
#include "engine/jobs/score/reuse_store.h"

/*** Fixture: a fresh directory per test ***/

struct fx {
    char dir[64];
    char path[128]; /* dir/results.db */
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof(*f));
    snprintf(f->dir, sizeof(f->dir), "/tmp/lt-store-XXXXXX");
    if (!f || !mkdtemp(f->dir))
        return -1;
    snprintf(f->path, sizeof(f->path), "%s/results.db", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    DIR *d = opendir(f->dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char p[512];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof(p), "%s/%s", f->dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(f->dir);
    free(f);
    return 0;
}

/*** Helpers ***/

static struct lt_store *open_ok(const char *path)
{
    struct lt_store *st = NULL;
    char *msg = NULL;
    int rc = lt_store_open(path, &st, &msg);
    if (rc != 0)
        fprintf(stderr, "# open %s: %s (%s)\n", path, lt_strerror(rc),
                msg ? msg : "-");
    assert_int_equal(rc, 0);
    assert_non_null(st);
    assert_null(msg);
    return st;
}

/* A mutant with borrowed strings: only passed to put. */
static struct lt_mutant mk_mutant(const char *id, const char *file,
                                  size_t start)
{
    struct lt_mutant m;
    memset(&m, 0, sizeof(m));
    snprintf(m.id, sizeof(m.id), "%s", id);
    m.file = (char *)file;
    m.line = (int)start / 10 + 1;
    m.col = (int)start % 10;
    m.end_line = m.line;
    m.end_col = m.col + 1;
    m.start = start;
    m.end = start + 1;
    m.op = (char *)"number";
    m.category = LT_CATEGORY_VALUE;
    m.original = (char *)"1";
    m.replacement = (char *)"2";
    m.position = 0.5;
    return m;
}

static struct lt_result mk_result(const char *id, enum lt_verdict v)
{
    struct lt_result r;
    memset(&r, 0, sizeof(r));
    snprintf(r.mutant_id, sizeof(r.mutant_id), "%s", id);
    r.verdict = v;
    r.killed_by = v == LT_VERDICT_KILLED ? (char *)"tests/t.py::test_a" : NULL;
    r.detail = (char *)"AssertionError";
    r.output = (char *)"E   assert 2 == 1";
    r.duration_ms = 12.5;
    r.peak_rss_kb = 4096;
    r.tests_run = 3;
    return r;
}

static void id_of(int i, char out[17])
{
    snprintf(out, 17, "%016x", (unsigned)i * 2654435761u);
}

/* The verdict of mutant i in the crash tests: a pure function of i, so a
 * resumed run can be compared with an uninterrupted one. */
static enum lt_verdict verdict_of(int i)
{
    static const enum lt_verdict vs[] = {
        LT_VERDICT_KILLED, LT_VERDICT_SURVIVED, LT_VERDICT_TIMEOUT,
        LT_VERDICT_NO_COVERAGE, LT_VERDICT_CRASHED};
    return vs[i % 5];
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return p;
}

static void spill(const char *path, const void *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    uint64_t x = seed | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (unsigned char)x;
    }
}

/* Runs sql on a plain SQLite connection and returns the first column of
 * the first row (-1 with no row). */
static long long raw_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    long long v = -1;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL),
                     SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK)
        fprintf(stderr, "# %s: %s\n", sql, sqlite3_errmsg(db));
    assert_int_equal(rc, SQLITE_OK);
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    char *err = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
    if (rc != SQLITE_OK)
        fprintf(stderr, "# %s: %s\n", sql, err);
    assert_int_equal(rc, SQLITE_OK);
    sqlite3_free(err);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

/* Expects lt_store_open to refuse path with want, leave the file's bytes
 * as they were, create no -wal or -shm, and explain in one line. */
static void expect_refused(const char *path, int want)
{
    size_t before_len, after_len;
    unsigned char *before = slurp(path, &before_len);
    struct lt_store *st = (struct lt_store *)0x1;
    char *msg = NULL, side[256];

    int rc = lt_store_open(path, &st, &msg);
    assert_int_equal(rc, want);
    assert_null(st);
    assert_non_null(msg);
    assert_null(strchr(msg, '\n'));
    fprintf(stderr, "# refused: %s\n", msg);
    free(msg);

    unsigned char *after = slurp(path, &after_len);
    assert_int_equal(after_len, before_len);
    assert_memory_equal(after, before, before_len);
    snprintf(side, sizeof(side), "%s-wal", path);
    assert_false(exists(side));
    snprintf(side, sizeof(side), "%s-shm", path);
    assert_false(exists(side));
    free(before);
    free(after);
}

/*** Verdicts ***/

static void test_verdict_names(void **state)
{
    static const char *const want[LT_VERDICT__COUNT] = {
        "pending", "killed", "timeout", "crashed", "memory",
        "survived", "no_coverage", "equivalent", "invalid", "error",
        "not_run"};
    for (int v = 0; v < LT_VERDICT__COUNT; v++) {
        assert_string_equal(lt_verdict_name((enum lt_verdict)v), want[v]);
        assert_int_equal(lt_verdict_from_name(want[v]), v);
    }
    assert_int_equal(lt_verdict_from_name("nonsense"), LT_VERDICT_PENDING);
    assert_int_equal(lt_verdict_from_name(NULL), LT_VERDICT_PENDING);
    assert_string_equal(lt_verdict_name(LT_VERDICT__COUNT), "pending");

    assert_true(lt_verdict_is_detected(LT_VERDICT_KILLED));
    assert_true(lt_verdict_is_detected(LT_VERDICT_TIMEOUT));
    assert_true(lt_verdict_is_detected(LT_VERDICT_CRASHED));
    assert_true(lt_verdict_is_detected(LT_VERDICT_MEMORY));
    assert_false(lt_verdict_is_detected(LT_VERDICT_SURVIVED));
    assert_false(lt_verdict_is_detected(LT_VERDICT_ERROR));
    assert_true(lt_verdict_is_valid(LT_VERDICT_SURVIVED));
    assert_true(lt_verdict_is_valid(LT_VERDICT_NO_COVERAGE));
    assert_true(lt_verdict_is_valid(LT_VERDICT_MEMORY));
    assert_false(lt_verdict_is_valid(LT_VERDICT_EQUIVALENT));
    assert_false(lt_verdict_is_valid(LT_VERDICT_INVALID));
    assert_false(lt_verdict_is_valid(LT_VERDICT_ERROR));
    assert_false(lt_verdict_is_valid(LT_VERDICT_PENDING));
    assert_false(lt_verdict_is_valid(LT_VERDICT_NOT_RUN));
    assert_false(lt_verdict_is_detected(LT_VERDICT_NOT_RUN));
}

static double score_of(const enum lt_verdict *vs, size_t n)
{
    struct lt_summary s;
    memset(&s, 0, sizeof(s));
    for (size_t i = 0; i < n; i++)
        lt_summary_add(&s, vs[i]);
    assert_int_equal(s.total, (int)n);
    return lt_summary_score(&s);
}

static void test_summary_score(void **state)
{
    enum lt_verdict none[] = {LT_VERDICT_PENDING};
    enum lt_verdict unscored[] = {LT_VERDICT_EQUIVALENT, LT_VERDICT_INVALID,
                                  LT_VERDICT_ERROR, LT_VERDICT_PENDING,
                                  LT_VERDICT_NOT_RUN};
    enum lt_verdict three_of_four[] = {LT_VERDICT_KILLED, LT_VERDICT_KILLED,
                                       LT_VERDICT_KILLED,
                                       LT_VERDICT_SURVIVED};
    enum lt_verdict mixed[] = {
        LT_VERDICT_KILLED,   LT_VERDICT_TIMEOUT,     LT_VERDICT_CRASHED,
        LT_VERDICT_MEMORY,   LT_VERDICT_SURVIVED,    LT_VERDICT_NO_COVERAGE,
        LT_VERDICT_EQUIVALENT, LT_VERDICT_INVALID,   LT_VERDICT_ERROR,
        LT_VERDICT_PENDING};
    enum lt_verdict all_survive[] = {LT_VERDICT_SURVIVED,
                                     LT_VERDICT_NO_COVERAGE,
                                     LT_VERDICT_ERROR};
    enum lt_verdict all_killed[] = {LT_VERDICT_TIMEOUT, LT_VERDICT_MEMORY,
                                    LT_VERDICT_EQUIVALENT};

    struct lt_summary empty;
    memset(&empty, 0, sizeof(empty));
    assert_true(lt_summary_score(&empty) == -1);
    assert_true(score_of(none, 1) == -1);
    assert_true(score_of(unscored, 5) == -1);
    /* Mutants the budget left out change neither side of the score. */
    enum lt_verdict cut_short[] = {LT_VERDICT_KILLED, LT_VERDICT_SURVIVED,
                                   LT_VERDICT_NOT_RUN, LT_VERDICT_NOT_RUN};
    assert_float_equal(score_of(cut_short, 4), 0.5, 1e-12);
    assert_float_equal(score_of(three_of_four, 4), 0.75, 1e-12);
    assert_float_equal(score_of(mixed, 10), 4.0 / 6.0, 1e-12);
    assert_float_equal(score_of(all_survive, 3), 0.0, 1e-12);
    assert_float_equal(score_of(all_killed, 3), 1.0, 1e-12);

    struct lt_summary s;
    memset(&s, 0, sizeof(s));
    lt_summary_add(&s, (enum lt_verdict)99); /* counts as pending */
    assert_int_equal(s.counts[LT_VERDICT_PENDING], 1);
    assert_int_equal(s.total, 1);
}

/*** Open, reopen, schema ***/

static void test_open_create_reopen(void **state)
{
    struct fx *f = *state;
    char lock[256], pidline[32], buf[32] = "";
    struct lt_store *st = open_ok(f->path);

    /* The lock file names us. */
    snprintf(lock, sizeof(lock), "%s.lock", f->path);
    int fd = open(lock, O_RDONLY);
    assert_true(fd >= 0);
    assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
    close(fd);
    snprintf(pidline, sizeof(pidline), "%ld\n", (long)getpid());
    assert_string_equal(buf, pidline);
    struct stat sb;
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(stat(lock, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644 & ~mask);

    char *v = (char *)"x";
    assert_int_equal(lt_store_get_meta(st, "paths", &v), 0);
    assert_null(v);
    assert_int_equal(lt_store_set_meta(st, "paths", "src/"), 0);
    assert_int_equal(lt_store_set_meta(st, "paths", "src/,lib/"), 0);
    assert_int_equal(lt_store_set_meta(st, "gone", "1"), 0);
    assert_int_equal(lt_store_set_meta(st, "gone", NULL), 0);

    int changed = -1;
    assert_int_equal(lt_store_begin(st), 0);
    assert_int_equal(lt_store_begin(st), LT_EUSAGE);
    assert_int_equal(lt_store_put_file(st, "a.py", "aa", "x = 1\n", 6,
                                       &changed), 0);
    assert_int_equal(changed, 0);
    struct lt_mutant m = mk_mutant("0123456789abcdef", "a.py", 4);
    assert_int_equal(lt_store_put_mutant(st, &m), 0);
    struct lt_result r = mk_result("0123456789abcdef", LT_VERDICT_KILLED);
    assert_int_equal(lt_store_put_result(st, &r), 0);
    assert_int_equal(lt_store_commit(st), 0);
    assert_int_equal(lt_store_commit(st), LT_EUSAGE);
    lt_store_close(st);

    /* Clean close checkpoints: the main file alone holds everything. */
    assert_int_equal(raw_int(f->path, "SELECT version FROM schema_version"),
                     1);
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM mutants"), 1);

    st = open_ok(f->path);
    assert_int_equal(lt_store_get_meta(st, "paths", &v), 0);
    assert_string_equal(v, "src/,lib/");
    free(v);
    assert_int_equal(lt_store_get_meta(st, "gone", &v), 0);
    assert_null(v);

    char *src = NULL;
    size_t len = 0;
    assert_int_equal(lt_store_get_file(st, "a.py", &src, &len), 0);
    assert_int_equal(len, 6);
    assert_string_equal(src, "x = 1\n");
    free(src);
    assert_int_equal(lt_store_get_file(st, "b.py", &src, &len),
                     LT_ENOTFOUND);
    assert_null(src);

    struct lt_mutant got;
    struct lt_result gr;
    int has = -1;
    assert_int_equal(lt_store_get_mutant(st, "0123456789abcdef", &got, &gr,
                                         &has), 0);
    assert_int_equal(has, 1);
    assert_string_equal(got.id, "0123456789abcdef");
    assert_string_equal(got.file, "a.py");
    assert_int_equal(got.line, m.line);
    assert_int_equal(got.col, m.col);
    assert_int_equal(got.end_line, m.end_line);
    assert_int_equal(got.end_col, m.end_col);
    assert_int_equal(got.start, 4);
    assert_int_equal(got.end, 5);
    assert_string_equal(got.op, "number");
    assert_int_equal(got.category, LT_CATEGORY_VALUE);
    assert_string_equal(got.original, "1");
    assert_string_equal(got.replacement, "2");
    assert_float_equal(got.position, 0.5, 1e-12);
    assert_string_equal(gr.mutant_id, "0123456789abcdef");
    assert_int_equal(gr.verdict, LT_VERDICT_KILLED);
    assert_string_equal(gr.killed_by, "tests/t.py::test_a");
    assert_string_equal(gr.detail, "AssertionError");
    assert_string_equal(gr.output, "E   assert 2 == 1");
    assert_float_equal(gr.duration_ms, 12.5, 1e-9);
    assert_int_equal(gr.peak_rss_kb, 4096);
    assert_int_equal(gr.tests_run, 3);
    lt_store_mutant_free_fields(&got);
    lt_result_clear(&gr);
    assert_null(got.file);

    /* Uncommitted batches vanish, on rollback and on close alike. */
    struct lt_result r2 = mk_result("1111111111111111", LT_VERDICT_SURVIVED);
    assert_int_equal(lt_store_begin(st), 0);
    assert_int_equal(lt_store_put_result(st, &r2), 0);
    assert_int_equal(lt_store_has_result(st, "1111111111111111"), 1);
    assert_int_equal(lt_store_rollback(st), 0);
    assert_int_equal(lt_store_has_result(st, "1111111111111111"), 0);
    assert_int_equal(lt_store_begin(st), 0);
    assert_int_equal(lt_store_put_result(st, &r2), 0);
    lt_store_close(st);
    st = open_ok(f->path);
    assert_int_equal(lt_store_has_result(st, "1111111111111111"), 0);
    assert_int_equal(lt_store_has_result(st, "0123456789abcdef"), 1);

    /* A pending verdict is not a result. */
    struct lt_result bad = mk_result("2222222222222222", LT_VERDICT_PENDING);
    assert_int_equal(lt_store_put_result(st, &bad), LT_EUSAGE);
    /* Nor is not_run: a mutant without a result is what a rerun runs. */
    bad.verdict = LT_VERDICT_NOT_RUN;
    assert_int_equal(lt_store_put_result(st, &bad), LT_EUSAGE);
    assert_int_equal(lt_store_has_result(st, "2222222222222222"), 0);
    lt_store_close(st);
}

static void test_wal_mode(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s,
                                        NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
    sqlite3_finalize(s);
    sqlite3_close(db);
    lt_store_close(st);
}

static void test_schema_mismatch(void **state)
{
    struct fx *f = *state;
    lt_store_close(open_ok(f->path));
    raw_exec(f->path, "UPDATE schema_version SET version = 2");
    expect_refused(f->path, LT_ESCHEMA);
    raw_exec(f->path, "DELETE FROM schema_version");
    expect_refused(f->path, LT_ESCHEMA);
    raw_exec(f->path, "INSERT INTO schema_version VALUES (1)");
    lt_store_close(open_ok(f->path));
}

/*** Lock ***/

static void test_lock_same_process(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path), *st2 = NULL;
    char *msg = NULL, want[64];

    assert_int_equal(lt_store_open(f->path, &st2, &msg), LT_ELOCKED);
    assert_null(st2);
    assert_non_null(msg);
    snprintf(want, sizeof(want), "(pid %ld)", (long)getpid());
    assert_non_null(strstr(msg, want));
    free(msg);
    /* errmsg is optional. */
    assert_int_equal(lt_store_open(f->path, &st2, NULL), LT_ELOCKED);

    lt_store_close(st);
    st = open_ok(f->path);
    lt_store_close(st);
}

/* The child reports through its exit status: 0 when refused as expected. */
static int child_try_open(const char *path, long holder)
{
    struct lt_store *st = NULL;
    char *msg = NULL, want[64];
    int rc = lt_store_open(path, &st, &msg);
    if (rc != LT_ELOCKED || st)
        return 1;
    snprintf(want, sizeof(want), "(pid %ld)", holder);
    if (!msg || !strstr(msg, want))
        return 2;
    free(msg);
    return 0;
}

static void test_lock_fork(void **state)
{
    struct fx *f = *state;
    int status, pfd[2], gate[2];
    char c;

    /* Parent holds, child is refused. */
    struct lt_store *st = open_ok(f->path);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(child_try_open(f->path, (long)getppid()));
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    lt_store_close(st);

    /* Child holds, parent is refused; kill -9 of the holder frees it. */
    assert_int_equal(pipe(pfd), 0);
    assert_int_equal(pipe(gate), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct lt_store *cst = NULL;
        close(pfd[0]);
        close(gate[1]);
        if (lt_store_open(f->path, &cst, NULL) != 0)
            _exit(1);
        if (write(pfd[1], "k", 1) != 1)
            _exit(2);
        (void)!read(gate[0], &c, 1); /* wait to be killed */
        _exit(3);
    }
    close(pfd[1]);
    close(gate[0]);
    assert_int_equal(read(pfd[0], &c, 1), 1);
    struct lt_store *st2 = NULL;
    char *msg = NULL, want[64];
    assert_int_equal(lt_store_open(f->path, &st2, &msg), LT_ELOCKED);
    snprintf(want, sizeof(want), "(pid %ld)", (long)pid);
    assert_non_null(msg);
    assert_non_null(strstr(msg, want));
    free(msg);
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    close(pfd[0]);
    close(gate[1]);
    st2 = open_ok(f->path);
    lt_store_close(st2);
}

/*** Foreign and corrupt files ***/

static void test_corrupt_random(void **state)
{
    struct fx *f = *state;
    unsigned char junk[8192];

    fill_random(junk, sizeof(junk), 42);
    spill(f->path, junk, sizeof(junk));
    expect_refused(f->path, LT_ECORRUPT);

    /* Right magic, garbage after it: SQLite itself must refuse it. */
    memcpy(junk, "SQLite format 3", 16);
    spill(f->path, junk, sizeof(junk));
    expect_refused(f->path, LT_ECORRUPT);

    /* Too short to be a database. */
    spill(f->path, "hello\n", 6);
    expect_refused(f->path, LT_ECORRUPT);
}

static void test_foreign_database(void **state)
{
    struct fx *f = *state;
    raw_exec(f->path, "CREATE TABLE users(name TEXT, age INTEGER);"
                      "INSERT INTO users VALUES ('ada', 36), ('alan', 41);");
    expect_refused(f->path, LT_ECORRUPT);
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM users"), 2);

    /* Another program's database in WAL mode (checkpointed on close). */
    unlink(f->path);
    raw_exec(f->path, "PRAGMA journal_mode=WAL;"
                      "CREATE TABLE notes(body TEXT);"
                      "INSERT INTO notes VALUES ('keep me');");
    expect_refused(f->path, LT_ECORRUPT);
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM notes"), 1);
}

static void test_corrupt_litmus_db(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    char id[17];

    assert_int_equal(lt_store_begin(st), 0);
    for (int i = 0; i < 400; i++) {
        id_of(i, id);
        struct lt_mutant m = mk_mutant(id, "pkg/mod.py", (size_t)i * 7);
        struct lt_result r = mk_result(id, verdict_of(i));
        assert_int_equal(lt_store_put_mutant(st, &m), 0);
        assert_int_equal(lt_store_put_result(st, &r), 0);
    }
    assert_int_equal(lt_store_commit(st), 0);
    lt_store_close(st);

    /* Overwrite pages in the middle of the file with garbage. */
    size_t len;
    unsigned char *p = slurp(f->path, &len);
    assert_true(len >= 4 * 4096);
    fill_random(p + 4096, len - 4096, 7);
    spill(f->path, p, len);
    free(p);
    expect_refused(f->path, LT_ECORRUPT);
}

static void test_empty_file_is_initialised(void **state)
{
    struct fx *f = *state;
    /* What SQLite leaves after creating the file and dying before the
     * schema commit: zero bytes, or a header and no table. */
    spill(f->path, "", 0);
    lt_store_close(open_ok(f->path));
    assert_int_equal(raw_int(f->path, "SELECT version FROM schema_version"),
                     1);
    unlink(f->path);
    raw_exec(f->path, "PRAGMA user_version = 0; VACUUM;");
    lt_store_close(open_ok(f->path));
    assert_int_equal(raw_int(f->path, "SELECT version FROM schema_version"),
                     1);
}

/*** Idempotence ***/

static void test_idempotent_puts(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    struct lt_mutant m = mk_mutant("aaaa000000000001", "a.py", 3);
    struct lt_mutant m2 = mk_mutant("aaaa000000000001", "a.py", 99);
    m2.replacement = (char *)"other";

    assert_int_equal(lt_store_put_mutant(st, &m), 0);
    assert_int_equal(lt_store_put_mutant(st, &m2), 0);
    assert_int_equal(lt_store_put_mutant(st, &m), 0);

    struct lt_result r1 = mk_result(m.id, LT_VERDICT_SURVIVED);
    struct lt_result r2 = mk_result(m.id, LT_VERDICT_KILLED);
    assert_int_equal(lt_store_has_result(st, m.id), 0);
    assert_int_equal(lt_store_put_result(st, &r1), 0);
    assert_int_equal(lt_store_put_result(st, &r2), 0);
    assert_int_equal(lt_store_has_result(st, m.id), 1);

    struct lt_mutant got;
    struct lt_result gr;
    int has = 0;
    assert_int_equal(lt_store_get_mutant(st, m.id, &got, &gr, &has), 0);
    assert_int_equal(has, 1);
    assert_int_equal(got.start, 3);
    assert_string_equal(got.replacement, "2");
    assert_int_equal(gr.verdict, LT_VERDICT_SURVIVED);
    assert_null(gr.killed_by);
    lt_store_mutant_free_fields(&got);
    lt_result_clear(&gr);
    lt_store_close(st);

    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM mutants"), 1);
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM results"), 1);

    /* Missing id or file. */
    st = open_ok(f->path);
    struct lt_mutant noid = mk_mutant("", "a.py", 1);
    assert_int_equal(lt_store_put_mutant(st, &noid), LT_EUSAGE);
    lt_store_close(st);
}

static int count_cb(const struct lt_mutant *m, const struct lt_result *r,
                    void *ud)
{
    (*(int *)ud)++;
    return 0;
}

static void test_file_change(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    int changed = -1, n;

    assert_int_equal(lt_store_put_file(st, "a.py", "sha-a1", "a = 1\n", 6,
                                       &changed), 0);
    assert_int_equal(changed, 0);
    assert_int_equal(lt_store_put_file(st, "b.py", "sha-b1", "b = 1\n", 6,
                                       &changed), 0);
    const char *ids[] = {"a000000000000001", "a000000000000002",
                         "b000000000000001"};
    const char *files[] = {"a.py", "a.py", "b.py"};
    for (int i = 0; i < 3; i++) {
        struct lt_mutant m = mk_mutant(ids[i], files[i], (size_t)i);
        struct lt_result r = mk_result(ids[i], LT_VERDICT_KILLED);
        assert_int_equal(lt_store_put_mutant(st, &m), 0);
        assert_int_equal(lt_store_put_result(st, &r), 0);
    }

    /* Same hash: nothing happens. */
    assert_int_equal(lt_store_put_file(st, "a.py", "sha-a1", "a = 1\n", 6,
                                       &changed), 0);
    assert_int_equal(changed, 0);
    n = 0;
    assert_int_equal(lt_store_each(st, count_cb, &n), 0);
    assert_int_equal(n, 3);

    /* A change undone by rollback leaves everything in place. */
    assert_int_equal(lt_store_begin(st), 0);
    assert_int_equal(lt_store_put_file(st, "a.py", "sha-a2", "a = 2\n", 6,
                                       &changed), 0);
    assert_int_equal(changed, 1);
    assert_int_equal(lt_store_rollback(st), 0);
    n = 0;
    assert_int_equal(lt_store_each(st, count_cb, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(lt_store_has_result(st, ids[0]), 1);

    /* New hash: a.py's mutants and results go, b.py's stay. */
    changed = -1;
    assert_int_equal(lt_store_put_file(st, "a.py", "sha-a2", "a = 2\n", 6,
                                       &changed), 0);
    assert_int_equal(changed, 1);
    n = 0;
    assert_int_equal(lt_store_each(st, count_cb, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(lt_store_has_result(st, ids[0]), 0);
    assert_int_equal(lt_store_has_result(st, ids[1]), 0);
    assert_int_equal(lt_store_has_result(st, ids[2]), 1);
    char *src = NULL;
    size_t len;
    assert_int_equal(lt_store_get_file(st, "a.py", &src, &len), 0);
    assert_string_equal(src, "a = 2\n");
    free(src);

    /* changed may be NULL; an empty source is fine. */
    assert_int_equal(lt_store_put_file(st, "e.py", "sha-e", "", 0, NULL), 0);
    assert_int_equal(lt_store_get_file(st, "e.py", &src, &len), 0);
    assert_int_equal(len, 0);
    assert_string_equal(src, "");
    free(src);
    lt_store_close(st);
}

/* Collects lt_store_each_file's rows as "path=sha;" and stops at "stop". */
static int file_walk_cb(const char *path, const char *sha, void *ud)
{
    char *acc = ud;
    if (strcmp(path, "stop.py") == 0)
        return 7;
    snprintf(acc + strlen(acc), 256 - strlen(acc), "%s=%s;", path, sha);
    return 0;
}

static void test_each_file(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    char acc[256] = "";
    assert_int_equal(lt_store_each_file(st, file_walk_cb, acc), 0);
    assert_string_equal(acc, "");
    assert_int_equal(lt_store_put_file(st, "b.py", "sha-b", "b\n", 2, NULL),
                     0);
    assert_int_equal(lt_store_put_file(st, "a.py", "sha-a1", "a\n", 2, NULL),
                     0);
    /* Path order, the latest hash of a file that changed. */
    assert_int_equal(lt_store_put_file(st, "a.py", "sha-a2", "A\n", 2, NULL),
                     0);
    assert_int_equal(lt_store_each_file(st, file_walk_cb, acc), 0);
    assert_string_equal(acc, "a.py=sha-a2;b.py=sha-b;");
    /* A non-zero return stops the walk and is handed back. */
    assert_int_equal(lt_store_put_file(st, "stop.py", "s", "", 0, NULL), 0);
    acc[0] = '\0';
    assert_int_equal(lt_store_each_file(st, file_walk_cb, acc), 7);
    assert_string_equal(acc, "a.py=sha-a2;b.py=sha-b;");
    lt_store_close(st);
}

/*** Lookup and iteration ***/

static void test_prefix_lookup(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    const char *ids[] = {"abcd000000000001", "abcd000000000002",
                         "abce000000000000", "abcdf00000000000"};
    for (int i = 0; i < 4; i++) {
        struct lt_mutant m = mk_mutant(ids[i], "m.py", (size_t)i);
        assert_int_equal(lt_store_put_mutant(st, &m), 0);
    }
    struct lt_result r = mk_result(ids[1], LT_VERDICT_TIMEOUT);
    assert_int_equal(lt_store_put_result(st, &r), 0);

    struct lt_mutant m;
    struct lt_result res;
    int has = -1;
    assert_int_equal(lt_store_get_mutant(st, "abc", &m, &res, &has),
                     LT_EUSAGE);
    assert_int_equal(lt_store_get_mutant(st, "abcd", &m, &res, &has),
                     LT_EUSAGE);
    assert_null(m.file);
    assert_int_equal(lt_store_get_mutant(st, "abcd0", &m, &res, &has),
                     LT_EUSAGE);
    assert_int_equal(lt_store_get_mutant(st, "ffff", &m, &res, &has),
                     LT_ENOTFOUND);
    assert_int_equal(lt_store_get_mutant(st, "zzzz", &m, &res, &has),
                     LT_ENOTFOUND);
    assert_int_equal(lt_store_get_mutant(st, "abcd0000000000011", &m, &res,
                                         &has), LT_ENOTFOUND);

    assert_int_equal(lt_store_get_mutant(st, "abce", &m, &res, &has), 0);
    assert_string_equal(m.id, "abce000000000000");
    assert_int_equal(has, 0);
    lt_store_mutant_free_fields(&m);

    assert_int_equal(lt_store_get_mutant(st, "ABCDF", &m, NULL, NULL), 0);
    assert_string_equal(m.id, "abcdf00000000000");
    lt_store_mutant_free_fields(&m);

    assert_int_equal(lt_store_get_mutant(st, "abcd000000000002", &m, &res,
                                         &has), 0);
    assert_int_equal(has, 1);
    assert_int_equal(res.verdict, LT_VERDICT_TIMEOUT);
    assert_string_equal(m.id, ids[1]);
    lt_store_mutant_free_fields(&m);
    lt_result_clear(&res);

    assert_int_equal(lt_store_get_mutant(st, "abcd00000000000", &m, &res,
                                         &has), LT_EUSAGE);
    lt_store_close(st);
}

struct walk {
    char seen[16][64];
    int n;
    int stop_at;
    struct lt_store *st;
    int nested;
};

static int walk_cb(const struct lt_mutant *m, const struct lt_result *r,
                   void *ud)
{
    struct walk *w = ud;
    snprintf(w->seen[w->n], sizeof(w->seen[0]), "%s:%zu:%s:%s", m->file,
             m->start, m->id, r ? lt_verdict_name(r->verdict) : "-");
    w->n++;
    if (w->st && w->n == 1) {
        int n = 0;
        w->nested = lt_store_each(w->st, count_cb, &n) == 0 ? n : -1;
    }
    return w->n == w->stop_at ? 77 : 0;
}

static void test_each_order(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    struct {
        const char *id, *file;
        size_t start;
    } in[] = {
        {"0000000000000009", "b.py", 5}, {"0000000000000003", "a.py", 20},
        {"0000000000000002", "a.py", 5}, {"0000000000000001", "a.py", 5},
        {"000000000000000f", "a.py", 100}, {"0000000000000000", "b.py", 1},
    };
    for (size_t i = 0; i < 6; i++) {
        struct lt_mutant m = mk_mutant(in[i].id, in[i].file, in[i].start);
        assert_int_equal(lt_store_put_mutant(st, &m), 0);
    }
    struct lt_result r = mk_result("0000000000000002", LT_VERDICT_MEMORY);
    assert_int_equal(lt_store_put_result(st, &r), 0);

    const char *want[] = {
        "a.py:5:0000000000000001:-",   "a.py:5:0000000000000002:memory",
        "a.py:20:0000000000000003:-",  "a.py:100:000000000000000f:-",
        "b.py:1:0000000000000000:-",   "b.py:5:0000000000000009:-",
    };
    struct walk w;
    memset(&w, 0, sizeof(w));
    w.st = st;
    assert_int_equal(lt_store_each(st, walk_cb, &w), 0);
    assert_int_equal(w.n, 6);
    assert_int_equal(w.nested, 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(w.seen[i], want[i]);

    memset(&w, 0, sizeof(w));
    w.stop_at = 2;
    assert_int_equal(lt_store_each(st, walk_cb, &w), 77);
    assert_int_equal(w.n, 2);
    /* The walk released its statement: a new one starts from the top. */
    memset(&w, 0, sizeof(w));
    assert_int_equal(lt_store_each(st, walk_cb, &w), 0);
    assert_int_equal(w.n, 6);
    lt_store_close(st);
}

/* Collects what lt_store_each_test hands out. */
struct test_walk {
    int n;
    char nodeids[4][64];
    int has_cov[4];
    double ms[4];
};

static int test_walk_cb(const struct lt_test_record *t, void *ud)
{
    struct test_walk *w = ud;
    if (w->n >= 4)
        return -1;
    snprintf(w->nodeids[w->n], sizeof(w->nodeids[0]), "%s", t->nodeid);
    w->has_cov[w->n] = t->coverage != NULL;
    w->ms[w->n] = t->baseline_ms;
    w->n++;
    return 0;
}

static void test_tests_and_summary(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    struct lt_test_record t[] = {
        {0, "tests/t.py::test_a", 1.5, "passed", "t.py:1-3\n"},
        {1, "tests/t.py::test_b", 2.5, "skipped", NULL},
        {2, "tests/t.py::test_c", 0.5, "flaky", NULL},
    };
    assert_int_equal(lt_store_put_tests(st, t, 3), 0);
    struct test_walk tw;
    memset(&tw, 0, sizeof(tw));
    assert_int_equal(lt_store_each_test(st, test_walk_cb, &tw), 0);
    assert_int_equal(tw.n, 3);
    assert_string_equal(tw.nodeids[0], "tests/t.py::test_a");
    assert_string_equal(tw.nodeids[2], "tests/t.py::test_c");
    assert_int_equal(tw.has_cov[0], 1);
    assert_int_equal(tw.has_cov[1], 0);
    assert_true(tw.ms[1] == 2.5);
    assert_int_equal(lt_store_put_tests(st, t + 1, 2), 0);
    memset(&tw, 0, sizeof(tw));
    assert_int_equal(lt_store_each_test(st, test_walk_cb, &tw), 0);
    assert_int_equal(tw.n, 2); /* replaced, not added */
    assert_string_equal(tw.nodeids[0], "tests/t.py::test_b");

    enum lt_verdict vs[] = {LT_VERDICT_KILLED,   LT_VERDICT_KILLED,
                            LT_VERDICT_TIMEOUT,  LT_VERDICT_SURVIVED,
                            LT_VERDICT_NO_COVERAGE, LT_VERDICT_EQUIVALENT,
                            LT_VERDICT_ERROR,    LT_VERDICT_MEMORY,
                            LT_VERDICT_CRASHED,  LT_VERDICT_INVALID};
    char id[17];
    struct lt_summary s;
    assert_int_equal(lt_store_summary(st, &s), 0);
    assert_int_equal(s.total, 0);
    assert_true(lt_summary_score(&s) == -1);

    assert_int_equal(lt_store_begin(st), 0);
    for (int i = 0; i < 10; i++) {
        id_of(i, id);
        struct lt_result r = mk_result(id, vs[i]);
        assert_int_equal(lt_store_put_result(st, &r), 0);
    }
    assert_int_equal(lt_store_commit(st), 0);
    memset(&s, 0xff, sizeof(s)); /* summary starts from zero */
    assert_int_equal(lt_store_summary(st, &s), 0);
    assert_int_equal(s.total, 10);
    assert_int_equal(s.counts[LT_VERDICT_KILLED], 2);
    assert_int_equal(s.counts[LT_VERDICT_TIMEOUT], 1);
    assert_int_equal(s.counts[LT_VERDICT_SURVIVED], 1);
    assert_int_equal(s.counts[LT_VERDICT_NO_COVERAGE], 1);
    assert_int_equal(s.counts[LT_VERDICT_EQUIVALENT], 1);
    assert_int_equal(s.counts[LT_VERDICT_ERROR], 1);
    assert_int_equal(s.counts[LT_VERDICT_MEMORY], 1);
    assert_int_equal(s.counts[LT_VERDICT_CRASHED], 1);
    assert_int_equal(s.counts[LT_VERDICT_INVALID], 1);
    assert_int_equal(s.counts[LT_VERDICT_PENDING], 0);
    /* detected 5 (2 killed, timeout, memory, crashed) of valid 7. */
    assert_float_equal(lt_summary_score(&s), 5.0 / 7.0, 1e-12);
    lt_store_close(st);

    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM tests"), 2);
    assert_int_equal(raw_int(f->path, "SELECT min(idx) FROM tests"), 1);
}

/*** Crash safety ***/

enum { CRASH_N = 600, CRASH_BATCH = 25 };

/* Writes results for mutants [0, CRASH_N) in batches of CRASH_BATCH,
 * writing one byte to fd after each commit.  With hold_after >= 0 it
 * starts batch number hold_after, writes half of it, says 'h' and waits
 * to be killed inside the open transaction. */
static int crash_child(const char *path, int fd, int hold_after)
{
    struct lt_store *st = NULL;
    char id[17];
    if (lt_store_open(path, &st, NULL) != 0)
        return 10;
    for (int b = 0; b * CRASH_BATCH < CRASH_N; b++) {
        if (lt_store_begin(st) != 0)
            return 11;
        for (int i = b * CRASH_BATCH; i < (b + 1) * CRASH_BATCH; i++) {
            id_of(i, id);
            struct lt_mutant m = mk_mutant(id, "crash.py", (size_t)i);
            struct lt_result r = mk_result(id, verdict_of(i));
            if (lt_store_put_mutant(st, &m) != 0 ||
                lt_store_put_result(st, &r) != 0)
                return 12;
            if (b == hold_after && i == b * CRASH_BATCH + CRASH_BATCH / 2) {
                if (write(fd, "h", 1) != 1)
                    return 13;
                for (;;)
                    pause();
            }
        }
        if (lt_store_commit(st) != 0)
            return 14;
        if (write(fd, "c", 1) != 1)
            return 15;
    }
    lt_store_close(st);
    return 0;
}

/* Reopens after the crash: the store must open (quick_check passes), the
 * results must be whole batches, at least `acked` of them; then finishing
 * the run must give exactly the uninterrupted run's results. */
static void check_after_crash(const char *path, int acked, int *batches)
{
    struct lt_store *st = open_ok(path);
    struct lt_summary s;
    char id[17];

    assert_int_equal(raw_int(path, "PRAGMA integrity_check") == -1, 0);
    assert_int_equal(lt_store_summary(st, &s), 0);
    if (s.total % CRASH_BATCH != 0)
        fprintf(stderr, "# torn batch: %d results\n", s.total);
    assert_int_equal(s.total % CRASH_BATCH, 0);
    assert_true(s.total >= acked * CRASH_BATCH);
    *batches = s.total / CRASH_BATCH;
    /* Whole batches means a prefix of the mutants, not any subset. */
    for (int i = 0; i < CRASH_N; i++) {
        id_of(i, id);
        assert_int_equal(lt_store_has_result(st, id), i < s.total);
    }

    /* Resume: replay everything, batches again; first result wins. */
    for (int b = 0; b * CRASH_BATCH < CRASH_N; b++) {
        assert_int_equal(lt_store_begin(st), 0);
        for (int i = b * CRASH_BATCH; i < (b + 1) * CRASH_BATCH; i++) {
            id_of(i, id);
            struct lt_mutant m = mk_mutant(id, "crash.py", (size_t)i);
            struct lt_result r = mk_result(id, verdict_of(i));
            assert_int_equal(lt_store_put_mutant(st, &m), 0);
            assert_int_equal(lt_store_put_result(st, &r), 0);
        }
        assert_int_equal(lt_store_commit(st), 0);
    }
    assert_int_equal(lt_store_summary(st, &s), 0);
    assert_int_equal(s.total, CRASH_N);
    for (int i = 0; i < CRASH_N; i++) {
        struct lt_mutant m;
        struct lt_result r;
        int has = 0;
        id_of(i, id);
        assert_int_equal(lt_store_get_mutant(st, id, &m, &r, &has), 0);
        assert_int_equal(has, 1);
        assert_int_equal(r.verdict, verdict_of(i));
        assert_int_equal(m.start, (size_t)i);
        lt_store_mutant_free_fields(&m);
        lt_result_clear(&r);
    }
    lt_store_close(st);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM results"), CRASH_N);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM mutants"), CRASH_N);
}

/* Starts crash_child and returns its pid; *rfd reads its acks. */
static pid_t spawn_crash_child(const char *path, int hold_after, int *rfd)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        _exit(crash_child(path, p[1], hold_after));
    }
    close(p[1]);
    *rfd = p[0];
    return pid;
}

static void kill_and_reap(pid_t pid)
{
    int status;
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status))
        fprintf(stderr, "# child exited %d before the kill\n",
                WEXITSTATUS(status));
}

static void test_crash_mid_batch(void **state)
{
    struct fx *f = *state;
    int rfd, acked = 0, batches = 0;
    char c;

    /* Killed inside batch 7, after 7 commits. */
    pid_t pid = spawn_crash_child(f->path, 7, &rfd);
    while (read(rfd, &c, 1) == 1 && c == 'c')
        acked++;
    assert_int_equal(c, 'h');
    assert_int_equal(acked, 7);
    kill_and_reap(pid);
    close(rfd);
    check_after_crash(f->path, acked, &batches);
    assert_int_equal(batches, 7);
}

static void test_crash_random_moment(void **state)
{
    struct fx *f = *state;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    srand((unsigned)now.tv_nsec);

    for (int round = 0; round < 6; round++) {
        int rfd, acked = 0, batches = 0;
        int want_acks = 1 + rand() % 12;
        char c;
        char side[256];
        unlink(f->path);
        snprintf(side, sizeof(side), "%s-wal", f->path);
        unlink(side);
        snprintf(side, sizeof(side), "%s-shm", f->path);
        unlink(side);

        pid_t pid = spawn_crash_child(f->path, -1, &rfd);
        while (acked < want_acks && read(rfd, &c, 1) == 1)
            acked++;
        /* Land the kill anywhere in the next batch or two. */
        struct timespec d = {0, (long)(rand() % 3000) * 1000};
        nanosleep(&d, NULL);
        kill_and_reap(pid);
        while (read(rfd, &c, 1) == 1) /* acks sent before the kill */
            acked++;
        close(rfd);
        check_after_crash(f->path, acked, &batches);
        fprintf(stderr, "# round %d: killed after %d commits acked, %d "
                        "batches stored\n", round, acked, batches);
        /* A commit can land just before the kill, its ack not. */
        assert_true(batches == acked || batches == acked + 1);
    }
}

/*** The jobs' tables (their *_store.c files) ***/

static int dataset_cb(const char *key, const char *json, void *ud)
{
    char *out = ud;
    snprintf(out + strlen(out), 256 - strlen(out), "%s=%s;", key, json);
    return 0;
}

static int reuse_cb(const char *id, const char *key, const char *tests,
                    const struct lt_result *r, void *ud)
{
    char *out = ud;
    snprintf(out + strlen(out), 256 - strlen(out), "%s %s %s %s;", id, key,
             tests, lt_verdict_name(r->verdict));
    return 0;
}

static int cmut_cb(const struct lt_candidate_mutant *m, void *ud)
{
    char *out = ud;
    snprintf(out + strlen(out), 256 - strlen(out), "%s %s %s;", m->mutant_id,
             m->verdict, m->killed_by ? m->killed_by : "-");
    return 0;
}

static int run_cb(const struct lt_patch_run *p, void *ud)
{
    char *out = ud;
    snprintf(out + strlen(out), 256 - strlen(out), "%lld %s %s;", p->seq,
             p->run_id, p->verdict);
    return 0;
}

/* Each job's tables through its own functions: created on first use,
 * first stored wins where the contract says so, walks in key order. */
static void test_job_tables(void **state)
{
    struct fx *f = *state;
    struct lt_store *st = open_ok(f->path);
    char out[256] = "", *json = NULL;

    /* A store without the table walks nothing. */
    assert_int_equal(lt_store_each_dataset(st, dataset_cb, out), 0);
    assert_string_equal(out, "");
    assert_int_equal(lt_store_dataset_init(st), 0);
    assert_int_equal(lt_store_dataset_init(st), 0);
    assert_int_equal(lt_store_put_dataset(st, "k2", "{\"a\":2}"), 0);
    assert_int_equal(lt_store_put_dataset(st, "k1", "{\"a\":1}"), 0);
    assert_int_equal(lt_store_put_dataset(st, "k1", "{\"a\":9}"), 0);
    assert_int_equal(lt_store_put_dataset(st, NULL, "{}"), LT_EUSAGE);
    assert_int_equal(lt_store_get_dataset(st, "k1", &json), 0);
    assert_string_equal(json, "{\"a\":1}");
    free(json);
    assert_int_equal(lt_store_get_dataset(st, "none", &json), 0);
    assert_null(json);
    assert_int_equal(lt_store_each_dataset(st, dataset_cb, out), 0);
    assert_string_equal(out, "k1={\"a\":1};k2={\"a\":2};");
    out[0] = '\0';

    /* Reuse keys: only those whose mutant has a result are walked. */
    struct lt_mutant m1 = mk_mutant("bbbb000000000001", "a.py", 1);
    struct lt_mutant m2 = mk_mutant("bbbb000000000002", "a.py", 2);
    struct lt_result r1 = mk_result(m1.id, LT_VERDICT_KILLED);
    assert_int_equal(lt_store_reuse_init(st), 0);
    assert_int_equal(lt_store_put_mutant(st, &m1), 0);
    assert_int_equal(lt_store_put_mutant(st, &m2), 0);
    assert_int_equal(lt_store_put_result(st, &r1), 0);
    assert_int_equal(lt_store_put_reuse_key(st, m1.id, "K1", "T1"), 0);
    assert_int_equal(lt_store_put_reuse_key(st, m2.id, "K2", "T2"), 0);
    assert_int_equal(lt_store_put_reuse_key(st, m1.id, "K1b", "T1b"), 0);
    assert_int_equal(lt_store_each_reuse(st, reuse_cb, out), 0);
    assert_string_equal(out, "bbbb000000000001 K1b T1b killed;");
    assert_int_equal(lt_store_begin(st), 0);
    assert_int_equal(lt_store_clear_run(st), 0);
    assert_int_equal(lt_store_commit(st), 0);
    assert_int_equal(lt_store_has_result(st, m1.id), 0);

    /* Patch triage. */
    assert_int_equal(lt_store_patches_init(st), 0);
    assert_int_equal(lt_store_put_candidate_result(st, "p", "t", "L1", "{1}"),
                     0);
    assert_int_equal(lt_store_put_candidate_result(st, "p", "t", "L1", "{2}"),
                     0);
    assert_int_equal(lt_store_get_candidate_result(st, "p", "t", "L1", &json),
                     0);
    assert_string_equal(json, "{2}"); /* put replaces */
    free(json);
    struct lt_candidate_mutant cm = {"p", "t", "m2", "survived", NULL, NULL,
                                     1.5};
    assert_int_equal(lt_store_put_candidate_mutant(st, &cm), 0);
    cm.mutant_id = "m1";
    cm.verdict = "killed";
    cm.killed_by = "t::a";
    assert_int_equal(lt_store_put_candidate_mutant(st, &cm), 0);
    cm.verdict = "survived";
    assert_int_equal(lt_store_put_candidate_mutant(st, &cm), 0);
    out[0] = '\0';
    assert_int_equal(lt_store_each_candidate_mutant(st, "p", "t", cmut_cb,
                                                    out),
                     0);
    assert_string_equal(out, "m1 killed t::a;m2 survived -;");
    struct lt_patch_run pr = {2, "p", "r2", "u", "t", "rejected", "why",
                              NULL, "{}", 3.0};
    assert_int_equal(lt_store_put_patch_run(st, &pr), 0);
    pr.seq = 1;
    pr.run_id = "r1";
    pr.verdict = "accepted";
    assert_int_equal(lt_store_put_patch_run(st, &pr), 0);
    out[0] = '\0';
    assert_int_equal(lt_store_each_patch_run(st, run_cb, out), 0);
    assert_string_equal(out, "1 r1 accepted;2 r2 rejected;");
    assert_int_equal(lt_store_clear_patch_runs(st), 0);
    out[0] = '\0';
    assert_int_equal(lt_store_each_patch_run(st, run_cb, out), 0);
    assert_string_equal(out, "");
    lt_store_close(st);
}

/* The tables and indexes of the database at path, in creation order. */
static char *schema_text(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    char *text = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT group_concat(sql, ';') FROM "
                                        "(SELECT sql FROM sqlite_master "
                                        "WHERE sql IS NOT NULL ORDER BY "
                                        "rowid)",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    text = strdup((const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
    return text;
}

/* A store holding dataset and patch tables, k1 stored as v. */
static void make_source(const char *path, const char *v)
{
    struct lt_store *st = open_ok(path);
    assert_int_equal(lt_store_dataset_init(st), 0);
    assert_int_equal(lt_store_patches_init(st), 0);
    assert_int_equal(lt_store_put_dataset(st, "k1", v), 0);
    assert_int_equal(lt_store_put_dataset(st, "k2", v), 0);
    assert_int_equal(lt_store_put_candidate_result(st, "p", "t", "L", v), 0);
    struct lt_patch_run pr = {1, "p", "r1", "u", "t", "accepted", "why",
                              NULL, "{}", 3.0};
    assert_int_equal(lt_store_put_patch_run(st, &pr), 0);
    lt_store_close(st);
}

/* `litmus merge`'s copy: tables created as the source defines them (the
 * same text, in the same order, as the jobs' own init makes), the first
 * stored row kept, a table the source lacks skipped, patch rows not
 * copied. */
static void test_absorb(void **state)
{
    static const char *const ds[] = {"dataset_runs", NULL};
    static const char *const missing[] = {"reuse_keys", NULL};
    /* What `litmus merge` copies of patches: the candidates' rows, not
     * the patch rows. */
    static const char *const pat[] = {"patch_runs", "candidate_results",
                                      "candidate_mutants", NULL};
    struct fx *f = *state;
    char a[160], b[160], ref[160];
    snprintf(a, sizeof(a), "%s/a.db", f->dir);
    snprintf(b, sizeof(b), "%s/b.db", f->dir);
    snprintf(ref, sizeof(ref), "%s/ref.db", f->dir);
    make_source(a, "from-a");
    make_source(b, "from-b");
    make_source(ref, "ref");

    struct lt_store *st = open_ok(f->path);
    assert_int_equal(lt_store_absorb(st, a, missing, missing), 0);
    assert_int_equal(lt_store_absorb(st, a, ds, ds), 0);
    assert_int_equal(lt_store_absorb(st, a, pat, pat + 1), 0);
    assert_int_equal(lt_store_absorb(st, b, ds, ds), 0);
    assert_int_equal(lt_store_absorb(st, b, pat, pat + 1), 0);
    char *json = NULL;
    assert_int_equal(lt_store_get_dataset(st, "k2", &json), 0);
    assert_string_equal(json, "from-a");
    free(json);
    assert_int_equal(lt_store_get_candidate_result(st, "p", "t", "L", &json),
                     0);
    assert_string_equal(json, "from-a");
    free(json);
    /* Inside a batch it is refused, and the store stays usable. */
    assert_int_equal(lt_store_begin(st), 0);
    assert_int_equal(lt_store_absorb(st, a, ds, ds), LT_EUSAGE);
    assert_int_equal(lt_store_rollback(st), 0);
    assert_int_equal(lt_store_absorb(st, b, ds, ds), 0);
    lt_store_close(st);

    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM dataset_runs"),
                     2);
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM patch_runs"), 0);
    char *got = schema_text(f->path), *want = schema_text(ref);
    assert_string_equal(got, want);
    free(got);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdict_names),
        cmocka_unit_test(test_summary_score),
        cmocka_unit_test_setup_teardown(test_open_create_reopen, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_wal_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_schema_mismatch, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_lock_same_process, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_lock_fork, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_random, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_foreign_database, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_litmus_db, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_empty_file_is_initialised, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_idempotent_puts, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_file_change, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_lookup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tests_and_summary, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_crash_mid_batch, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_crash_random_moment, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_job_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_absorb, setup, teardown),
    };
    /* A dead reader must not kill us with SIGPIPE mid-test. */
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
