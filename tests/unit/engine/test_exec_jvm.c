/* Unit tests of the executor's JVM lanes (engine/core/exec.c,
 * engine/core/jvm_pool.c) with stand-in workers: this test binary
 * re-executed as `litmus-jvm __jvm 3 4` speaks the workers' wire
 * (harness/jvm_wire.h) and does what each run's "program" says.  More
 * workers than one poll() of 64 could hold, all busy at once and every
 * answer read; a run that exits, one whose worker is killed from outside
 * (run once more, then lost), one past its wall deadline, an answer of
 * another run, a worker that leaves after its answer; workers that never
 * get ready stopping the run.  Skipped where lt_jvm_spawn() cannot run
 * (no JDK or JUnit 4: it checks for them before it starts a worker).
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "engine/core/exec.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exit.h"
#include "engine/core/pool.h"
#include "harness/jvm_wire.h"
#include "sandbox/sandbox.h"

#define FAIL_START_HEAP 17 /* heap_mb that makes a stand-in exit at start */

/*** The stand-in worker ***/

static int next_msg(int fd, struct lt_jvm_decoder *d, struct lt_jvm_msg *m)
{
    for (;;) {
        int rc = lt_jvm_decoder_next(d, m);
        if (rc != 0)
            return rc;
        char buf[4096];
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        lt_jvm_decoder_feed(d, buf, (size_t)n);
    }
}

static void put(int fd, const struct lt_jvm_field *f, size_t n)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_jvm_encode(&b, f, n);
    ssize_t ignored = write(fd, b.data, b.len);
    (void)ignored;
    lt_buf_free(&b);
}

#define F(nm, v) {nm, v, strlen(v)}

/* "meet N PATH": adds a byte to PATH, then waits (30 s at most) until N
 * runs have, so that N runs are busy at once however slowly the workers
 * start (a sanitizer build on a loaded machine starts them one by one). */
static void meet(int n, const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0 || write(fd, "x", 1) != 1)
        _exit(3);
    close(fd);
    for (int waited_ms = 0; waited_ms < 30000; waited_ms += 10) {
        struct stat st;
        if (stat(path, &st) == 0 && st.st_size >= n)
            return;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Reads the settings, says ready, then answers each run as its program
 * says: "sleep MS", "exit N", "kill" (SIGKILL from outside, as the
 * kernel's OOM killer would), "hang", "nonce" (the answer of another
 * run), "leave" (an answer with status timeout: the worker ends). */
_Noreturn static void stand_in(int in, int out)
{
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    if (next_msg(in, &d, &m) != 1)
        _exit(2);
    const char *heap = lt_jvm_msg_get(&m, "heap_mb", NULL);
    if (heap && atoi(heap) == FAIL_START_HEAP)
        _exit(5);
    lt_jvm_msg_free(&m);
    char sb[32];
    snprintf(sb, sizeof(sb), "%u", (unsigned)LT_SBX_ALL);
    struct lt_jvm_field ready[] = {F("op", "ready"), F("sandbox", sb),
                                   F("missing", "")};
    put(out, ready, 3);
    while (next_msg(in, &d, &m) == 1) {
        const char *op = lt_jvm_msg_get(&m, "op", NULL);
        if (!op || strcmp(op, "run") != 0)
            _exit(0);
        const char *prog = lt_jvm_msg_get(&m, "program", NULL);
        const char *nonce = lt_jvm_msg_get(&m, "nonce", NULL);
        int arg = atoi(strchr(prog, ' ') ? strchr(prog, ' ') + 1 : "0");
        if (strncmp(prog, "meet", 4) == 0) {
            meet(arg, strrchr(prog, ' ') + 1);
        } else if (strncmp(prog, "sleep", 5) == 0) {
            struct timespec ts = {arg / 1000, (long)(arg % 1000) * 1000000};
            nanosleep(&ts, NULL);
        } else if (strncmp(prog, "exit", 4) == 0) {
            _exit(arg);
        } else if (strcmp(prog, "kill") == 0) {
            kill(getpid(), SIGKILL);
        } else if (strcmp(prog, "hang") == 0) {
            for (;;)
                pause();
        }
        struct lt_jvm_field done[] = {
            F("op", "done"),
            F("nonce", strcmp(prog, "nonce") == 0 ? "0123456789abcdef"
                                                  : nonce),
            F("compile", "ok"), F("compile_ms", "0"), F("program", prog),
            F("status", strcmp(prog, "leave") == 0 ? "timeout" : "done")};
        put(out, done, 6);
        lt_jvm_msg_free(&m);
    }
    _exit(0);
}

/*** The job ***/

#define MAX_TASKS 256

struct ttask {
    struct lt_task xt;
    char program[96];
    double wall;
    int answered, timed_out, protocol, status, lost, finished;
    char lost_why[64];
};

struct run {
    struct ttask t[MAX_TASKS];
    size_t n;
    int started;             /* workers started */
    int max_live, max_running;
};

static int t_prepare(struct lt_exec *ex, struct lt_task *xt,
                     struct lt_launch *la)
{
    struct ttask *t = xt->owner;
    (void)ex;
    la->jvm = xcalloc(1, sizeof(*la->jvm));
    la->jvm[0] = (struct lt_jvm_field)F("program", t->program);
    la->n_jvm = 1;
    la->wall = t->wall;
    return 0;
}

static void t_finished(struct lt_exec *ex, struct lt_task *xt,
                       const struct lt_run_report *j)
{
    struct ttask *t = xt->owner;
    (void)ex;
    t->finished++;
    if (j->answer) {
        /* The answer is the one of this task's run. */
        assert_string_equal(lt_jvm_msg_get(j->answer, "program", NULL),
                            t->program);
        t->answered++;
    }
    t->timed_out += j->timed_out;
    t->protocol += j->protocol_error;
    t->status = j->wait_status;
}

static void t_lost(struct lt_exec *ex, struct lt_task *xt, const char *why)
{
    struct ttask *t = xt->owner;
    (void)ex;
    t->lost++;
    snprintf(t->lost_why, sizeof(t->lost_why), "%s", why);
}

static const struct lt_task_ops task_ops = {
    .prepare = t_prepare, .finished = t_finished, .lost = t_lost};

static void l_started(struct lt_exec *ex, struct lt_lane *l,
                      struct lt_task *t)
{
    struct run *r = ex->owner;
    (void)l;
    r->started += t == NULL;
}

static const struct lt_lane_ops lane_ops = {.started = l_started};

static void progress(struct lt_exec *ex, int force)
{
    struct run *r = ex->owner;
    (void)force;
    if (ex->live > r->max_live)
        r->max_live = ex->live;
    if (ex->running > r->max_running)
        r->max_running = ex->running;
}

static char scratch[64];
static char self[PATH_MAX];

/* An executor of `jobs` with one JVM lane of stand-ins. */
static struct lt_lane *setup(struct lt_exec *ex, struct run *r, int jobs,
                             unsigned heap_mb)
{
    memset(r, 0, sizeof(*r));
    lt_exec_init(ex, jobs);
    ex->owner = r;
    ex->progress = progress;
    struct lt_jvm_config c = {.exe = self, .scratch_base = scratch,
                              .heap_mb = heap_mb};
    struct lt_lane *l = lt_exec_lane_jvm(ex, &c, &lane_ops, r);
    lt_exec_jvm_read(l, scratch);
    lt_exec_jvm_read(l, scratch); /* once */
    assert_int_equal(l->jvm.n_read_paths, 1);
    return l;
}

static struct ttask *add(struct lt_exec *ex, struct run *r,
                         struct lt_lane *l, const char *program, double wall)
{
    assert_true(r->n < MAX_TASKS);
    struct ttask *t = &r->t[r->n++];
    memset(t, 0, sizeof(*t));
    snprintf(t->program, sizeof(t->program), "%s", program);
    t->wall = wall;
    t->xt.ops = &task_ops;
    t->xt.lane = l;
    t->xt.owner = t;
    lt_exec_submit(ex, &t->xt);
    return t;
}

/* Whether lt_jvm_spawn() can start a worker here (it needs a JDK and
 * JUnit 4 before it runs anything). */
static int can_spawn(void)
{
    struct lt_jvm_config c = {.exe = "/nonexistent", .scratch_base = NULL};
    pid_t pid;
    int to, from;
    char *err = NULL;
    int rc = lt_jvm_spawn(&c, &pid, &to, &from, &err);
    /* With a JDK and JUnit, only the missing scratch is refused. */
    int ok = rc == LT_EUSAGE;
    if (!ok)
        print_message("# skip: %s\n", err ? err : "no Java worker");
    free(err);
    return ok;
}

/* 150 runs on 70 workers, 66 of which wait for each other: more workers
 * than one poll() of 64 fds held, all busy at once, and every answer
 * read before its deadline (a worker never polled would time out).  Two
 * runs of a second come first: from their mean the lane wants all 70
 * workers, where it would start a few for runs of unknown length. */
static void test_more_than_64_workers(void **state)
{
    (void)state;
    if (!can_spawn())
        skip();
    struct lt_exec ex;
    struct run r;
    struct lt_lane *l = setup(&ex, &r, 70, 0);
    char meet[96];
    snprintf(meet, sizeof(meet), "meet 66 %s/meet", scratch);
    for (int i = 0; i < 150; i++)
        add(&ex, &r, l, i < 2 ? "sleep 1000" : meet, 60);
    assert_int_equal(lt_exec_run(&ex), 0);
    unlink(strrchr(meet, ' ') + 1);
    for (size_t i = 0; i < r.n; i++) {
        assert_int_equal(r.t[i].finished, 1);
        assert_int_equal(r.t[i].answered, 1);
        assert_int_equal(r.t[i].timed_out, 0);
        assert_int_equal(r.t[i].lost, 0);
    }
    assert_true(r.max_running > 64);
    assert_true(r.max_live <= 70);
    assert_true(r.started <= 70);
    assert_int_equal(ex.retries, 0);
    lt_exec_close(&ex);
}

/* How runs end without an answer, and a worker that leaves. */
static void test_runs_that_end(void **state)
{
    (void)state;
    if (!can_spawn())
        skip();
    struct lt_exec ex;
    struct run r;
    struct lt_lane *l = setup(&ex, &r, 2, 0);
    struct ttask *ex7 = add(&ex, &r, l, "exit 7", 30);
    struct ttask *killed = add(&ex, &r, l, "kill", 30);
    struct ttask *hang = add(&ex, &r, l, "hang", 1);
    struct ttask *bad = add(&ex, &r, l, "nonce", 30);
    struct ttask *leave = add(&ex, &r, l, "leave", 30);
    struct ttask *after = add(&ex, &r, l, "sleep 10", 30);
    assert_int_equal(lt_exec_run(&ex), 0);
    /* The program ended the run: its status, no answer. */
    assert_int_equal(ex7->finished, 1);
    assert_int_equal(ex7->answered, 0);
    assert_true(WIFEXITED(ex7->status) && WEXITSTATUS(ex7->status) == 7);
    /* A SIGKILL the engine did not send: the runner died, twice. */
    assert_int_equal(killed->finished, 0);
    assert_int_equal(killed->lost, 1);
    assert_string_equal(killed->lost_why, "the runner died twice");
    assert_int_equal(ex.retries, 1);
    /* Past the wall deadline: killed, timed out. */
    assert_int_equal(hang->finished, 1);
    assert_int_equal(hang->timed_out, 1);
    assert_true(WIFSIGNALED(hang->status) &&
                WTERMSIG(hang->status) == SIGKILL);
    /* The answer of another run: malformed. */
    assert_int_equal(bad->finished, 1);
    assert_int_equal(bad->answered, 0);
    assert_int_equal(bad->protocol, 1);
    /* An answer, then the worker ends; the next run gets a new one. */
    assert_int_equal(leave->answered, 1);
    assert_int_equal(after->answered, 1);
    /* A worker for the first, then one for each that ended: exit, two
     * kills, the deadline, the malformed answer, the leaving one. */
    assert_true(r.started >= 7);
    lt_exec_close(&ex);
}

static int n_dropped;

static void count_drop(struct lt_task *t)
{
    (void)t;
    n_dropped++;
}

/* Workers that never get ready: the third in a row stops the run. */
static void test_start_failures_stop(void **state)
{
    (void)state;
    if (!can_spawn())
        skip();
    struct lt_exec ex;
    struct run r;
    struct lt_lane *l = setup(&ex, &r, 1, FAIL_START_HEAP);
    struct ttask *t = add(&ex, &r, l, "sleep 10", 30);
    assert_int_equal(lt_exec_run(&ex), LT_EXIT_ENGINE);
    assert_int_equal(r.started, 3);
    assert_int_equal(t->finished, 0);
    /* The task is still held: handed back to the job, which frees its
     * own. */
    n_dropped = 0;
    lt_exec_lane_drop_tasks(&ex, l, count_drop);
    assert_int_equal(n_dropped, 1);
    assert_int_equal(ex.outstanding, 0);
    lt_exec_close(&ex);
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "__jvm") == 0)
        stand_in(atoi(argv[2]), atoi(argv[3]));
    if (!realpath("/proc/self/exe", self))
        return 1;
    snprintf(scratch, sizeof(scratch), "/tmp/lt-exec-jvm-XXXXXX");
    if (!mkdtemp(scratch))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_more_than_64_workers),
        cmocka_unit_test(test_runs_that_end),
        cmocka_unit_test(test_start_failures_stop),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(scratch);
    return rc;
}
