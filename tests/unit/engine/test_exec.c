/* Unit tests of the one executor (engine/core/exec.c) with real zygotes
 * of the litmus binary on a tiny generated project: the budget of
 * children at once, exclusive tasks, one retry after a runner died and
 * the loss after a second death, a lane that cannot start, slots moving
 * between lanes, a job's own order of tasks, a failed store write
 * stopping the run, zygotes made as copies of a ready one, and the run's
 * deadline (--max-time).  SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "engine/core/exec.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exit.h"
#include "engine/core/pool.h"

#define MAX_TASKS 16

/* A project of two tests that each sleep `nap` seconds. */
struct project {
    char dir[64], scratch[64];
    char *subject_path, *subject_text;
    struct lt_subject subject;
    char *args[2];
};

static void write_file(const char *dir, const char *name, const char *text)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

static void project_make(struct project *p, const char *tests_file,
                         double nap)
{
    memset(p, 0, sizeof(*p));
    snprintf(p->dir, sizeof(p->dir), "/tmp/lt-exec-XXXXXX");
    assert_non_null(mkdtemp(p->dir));
    chmod(p->dir, 0755);
    snprintf(p->scratch, sizeof(p->scratch), "/tmp/lt-exec-scratch-XXXXXX");
    assert_non_null(mkdtemp(p->scratch));
    p->subject_text = xstrdup("def add(a, b):\n    return a + b\n");
    write_file(p->dir, "calc.py", p->subject_text);
    char *tests = xasprintf(
        "import time\nfrom calc import add\n"
        "def test_one():\n    time.sleep(%g)\n    assert add(1, 2) == 3\n"
        "def test_two():\n    time.sleep(%g)\n    assert add(2, 2) == 4\n",
        nap, nap);
    write_file(p->dir, "test_calc.py", tests);
    free(tests);
    p->subject_path = xasprintf("%s/calc.py", p->dir);
    p->subject = (struct lt_subject){p->subject_path, p->subject_text,
                                     strlen(p->subject_text)};
    p->args[0] = xasprintf("%s/%s", p->dir, tests_file);
}

static void project_free(struct project *p)
{
    char *cmd = xasprintf("rm -rf '%s' '%s'", p->dir, p->scratch);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(p->subject_path);
    free(p->subject_text);
    free(p->args[0]);
}

static struct lt_runner_config project_cfg(struct project *p)
{
    return (struct lt_runner_config){
        .exe = LT_TEST_LITMUS, .cwd = p->dir, .scratch_base = p->scratch,
        .pytest_args = p->args, .n_pytest_args = 1,
        .subjects = &p->subject, .n_subjects = 1, .no_view = 1};
}

/* What the tasks saw, shared by the callbacks. */
struct seen {
    int max_running;        /* children at once, at any start */
    int exclusive_violated; /* something ran beside an exclusive task */
    int started[MAX_TASKS]; /* per task: starts */
    int finished[MAX_TASKS];
    int lost[MAX_TASKS];
    int left[MAX_TASKS];    /* left at the run's deadline */
    char lost_why[MAX_TASKS][128];
    int order[MAX_TASKS];   /* task ids in the order they started */
    int n_order;
    int kill_on_start;      /* kill the zygote of the next N starts */
    pid_t killed;           /* the zygote killed last */
    int fail_write;         /* the first finish reports a failed write */
};

struct ttask {
    struct lt_task xt;
    struct seen *seen;
    int id;
};

static int t_prepare(struct lt_exec *ex, struct lt_task *xt,
                     struct lt_launch *la)
{
    struct ttask *t = xt->owner;
    struct seen *s = t->seen;
    size_t nt = xt->lane->pool.n_tests;
    if (ex->running + 1 > s->max_running)
        s->max_running = ex->running + 1;
    if (ex->exclusive || (xt->exclusive && ex->running > 0))
        s->exclusive_violated = 1;
    s->started[t->id]++;
    if (s->n_order < MAX_TASKS)
        s->order[s->n_order++] = t->id;
    la->spec.n_tests = nt;
    la->spec.tests = xcalloc(nt + 1, sizeof(uint32_t));
    for (size_t i = 0; i < nt; i++)
        la->spec.tests[i] = (uint32_t)i;
    lt_run_spec_alloc(&la->spec, nt, 0);
    la->spec.n_files = 1;
    /* A change the tests cannot tell from the original. */
    const struct lt_subject *subj = &xt->lane->pool.cfg.subjects[0];
    la->req = (struct lt_run_request){
        .mode = LT_RUN_MUTANT, .start = 0, .end = subj->len,
        .replacement = "def add(a, b):\n    return b + a\n",
        .cpu_seconds = 30};
    la->wall = 30;
    return 0;
}

static void t_finished(struct lt_exec *ex, struct lt_task *xt,
                       const struct lt_run_report *j)
{
    struct ttask *t = xt->owner;
    struct seen *s = t->seen;
    assert_true(j->ended);
    assert_int_equal(j->n_results, 2);
    s->finished[t->id]++;
    if (s->fail_write) {
        s->fail_write = 0;
        lt_exec_wrote(ex, -ENOSPC);
    }
}

static void t_lost(struct lt_exec *ex, struct lt_task *xt, const char *why)
{
    struct ttask *t = xt->owner;
    (void)ex;
    t->seen->lost[t->id]++;
    snprintf(t->seen->lost_why[t->id], sizeof(t->seen->lost_why[0]), "%s",
             why);
}

/* Kills the zygote under a running child while kill_on_start lasts. */
static int t_watch(struct lt_exec *ex, struct lt_task *xt,
                   const struct lt_run_report *j, double now)
{
    struct ttask *t = xt->owner;
    (void)ex;
    (void)now;
    if (t->seen->kill_on_start <= 0 || j->pid <= 0)
        return 0;
    struct pool *pool = &xt->lane->pool;
    for (int k = 0; k < pool->n; k++) {
        if (&pool->z[k].job.report == j) {
            assert_true(pool->z[k].pid > 0);
            /* Its death is seen a round or two later. */
            if (pool->z[k].pid == t->seen->killed)
                return 0;
            t->seen->killed = pool->z[k].pid;
            kill(pool->z[k].pid, SIGKILL);
            t->seen->kill_on_start--;
            return 0;
        }
    }
    return 0;
}

static void t_left(struct lt_exec *ex, struct lt_task *xt)
{
    struct ttask *t = xt->owner;
    (void)ex;
    t->seen->left[t->id]++;
}

static const struct lt_task_ops ops = {
    .prepare = t_prepare, .finished = t_finished, .lost = t_lost};
static const struct lt_task_ops leaving_ops = {
    .prepare = t_prepare, .finished = t_finished, .lost = t_lost,
    .left = t_left};
static const struct lt_task_ops killing_ops = {
    .prepare = t_prepare, .finished = t_finished, .lost = t_lost,
    .watch = t_watch};

static void submit_n(struct lt_exec *ex, struct lt_lane *l, struct ttask *t,
                     int first, int n, struct seen *s,
                     const struct lt_task_ops *o)
{
    for (int i = first; i < first + n; i++) {
        t[i] = (struct ttask){.seen = s, .id = i};
        t[i].xt = (struct lt_task){.ops = o, .lane = l, .owner = &t[i]};
        lt_exec_submit(ex, &t[i].xt);
    }
}

/* Six tasks on a budget of two: each runs once, never more than two at
 * once, and an exclusive task runs with nothing beside it. */
static void test_budget_and_exclusive(void **state)
{
    (void)state;
    struct project p;
    project_make(&p, "test_calc.py", 0.05);
    struct lt_exec ex;
    lt_exec_init(&ex, 2);
    struct lt_runner_config cfg = project_cfg(&p);
    struct lt_lane *l = lt_exec_lane(&ex, &cfg, NULL, NULL);
    struct seen s = {0};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, l, t, 0, 3, &s, &ops);
    t[1].xt.exclusive = 1;
    submit_n(&ex, l, t, 3, 3, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s.started[i], 1);
        assert_int_equal(s.finished[i], 1);
        assert_int_equal(s.lost[i], 0);
    }
    assert_int_equal(s.max_running, 2);
    assert_int_equal(s.exclusive_violated, 0);
    assert_int_equal(ex.outstanding, 0);
    assert_int_equal(ex.running, 0);
    lt_exec_close(&ex);
    project_free(&p);
}

/* A runner that dies under a task: the task runs once more and finishes;
 * when its second runner dies too, it is lost, and the run goes on. */
static void test_runner_death(void **state)
{
    (void)state;
    struct project p;
    project_make(&p, "test_calc.py", 0.3);
    struct lt_exec ex;
    lt_exec_init(&ex, 1);
    struct lt_runner_config cfg = project_cfg(&p);
    struct lt_lane *l = lt_exec_lane(&ex, &cfg, NULL, NULL);
    struct seen s = {.kill_on_start = 1};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, l, t, 0, 1, &s, &killing_ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    assert_int_equal(s.started[0], 2);
    assert_int_equal(s.finished[0], 1);
    assert_int_equal(ex.retries, 1);

    s = (struct seen){.kill_on_start = 2};
    submit_n(&ex, l, t, 1, 2, &s, &killing_ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    assert_int_equal(s.lost[1], 1);
    assert_string_equal(s.lost_why[1], "the runner died twice");
    assert_int_equal(s.finished[2], 1);
    lt_exec_close(&ex);
    project_free(&p);
}

/* A lane whose tests cannot be collected loses its tasks with the reason;
 * a good lane beside it finishes, on a budget of one zygote that moves
 * to the failing lane once the good lane has nothing queued, and then to
 * a third lane. */
static void test_lane_failure_and_sharing(void **state)
{
    (void)state;
    struct project good, bad;
    project_make(&good, "test_calc.py", 0.01);
    project_make(&bad, "test_missing.py", 0.01);
    struct lt_exec ex;
    lt_exec_init(&ex, 1);
    struct lt_runner_config gc = project_cfg(&good), bc = project_cfg(&bad);
    struct lt_lane *lg = lt_exec_lane(&ex, &gc, NULL, NULL);
    struct lt_lane *lb = lt_exec_lane(&ex, &bc, NULL, NULL);
    struct seen s = {0};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, lg, t, 0, 2, &s, &ops);
    submit_n(&ex, lb, t, 2, 2, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    assert_int_equal(s.finished[0] + s.finished[1], 2);
    assert_int_equal(s.lost[2] + s.lost[3], 2);
    assert_non_null(strstr(s.lost_why[2], "file or directory not found"));
    assert_true(lb->failed);
    assert_true(ex.live <= 1);

    /* A third lane with work gets the slot. */
    struct project other;
    project_make(&other, "test_calc.py", 0.01);
    struct lt_runner_config oc = project_cfg(&other);
    struct lt_lane *lo = lt_exec_lane(&ex, &oc, NULL, NULL);
    submit_n(&ex, lo, t, 4, 1, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    assert_int_equal(s.finished[4], 1);
    assert_int_equal(lg->live, 0);
    assert_int_equal(lo->live, 1);
    lt_exec_close(&ex);
    project_free(&good);
    project_free(&bad);
    project_free(&other);
}

/* A job's own order: the lane's `next` picks the newest task first. */
static struct lt_task *newest(struct lt_lane *l)
{
    struct lt_task *t = l->qhead;
    while (t && t->next)
        t = t->next;
    return t;
}

static const struct lt_lane_ops newest_first = {.next = newest};

static void test_policy_order(void **state)
{
    (void)state;
    struct project p;
    project_make(&p, "test_calc.py", 0.01);
    struct lt_exec ex;
    lt_exec_init(&ex, 1);
    struct lt_runner_config cfg = project_cfg(&p);
    struct lt_lane *l = lt_exec_lane(&ex, &cfg, &newest_first, NULL);
    struct seen s = {0};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, l, t, 0, 4, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    assert_int_equal(s.n_order, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(s.order[i], 3 - i);
    lt_exec_close(&ex);
    project_free(&p);
}

/* A failed write to the store stops the run with LT_EXIT_ENGINE, and the
 * tasks not yet started stay unstarted. */
static void test_store_failure_stops(void **state)
{
    (void)state;
    struct project p;
    project_make(&p, "test_calc.py", 0.01);
    struct lt_exec ex;
    lt_exec_init(&ex, 1);
    ex.db = "test.db";
    struct lt_runner_config cfg = project_cfg(&p);
    struct lt_lane *l = lt_exec_lane(&ex, &cfg, NULL, NULL);
    struct seen s = {.fail_write = 1};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, l, t, 0, 4, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), LT_EXIT_ENGINE);
    assert_int_equal(s.finished[0], 1);
    assert_int_equal(s.started[3], 0);
    lt_exec_close(&ex);
    project_free(&p);
}

/* Slots of the lane whose zygote was spawned, and those that are
 * copies; every live zygote has a pid of its own. */
static void count_zygotes(const struct lt_lane *l, int *spawned,
                          int *copies)
{
    *spawned = *copies = 0;
    for (int k = 0; k < l->pool.n; k++) {
        if (l->slot[k] == LT_SLOT_OFF)
            continue;
        assert_true(l->pool.z[k].pid > 0);
        for (int o = 0; o < k; o++)
            if (l->slot[o] != LT_SLOT_OFF)
                assert_true(l->pool.z[o].pid != l->pool.z[k].pid);
        if (l->pool.z[k].copy_of)
            (*copies)++;
        else
            (*spawned)++;
    }
}

/* One zygote is started, the others are its copies (forked when it is
 * ready, each with its own pid and scratch instance); a copy runs tasks
 * like the original; the copies die with it and their tasks run again;
 * trimming stops copies before the zygote they came from. */
static void test_copies(void **state)
{
    (void)state;
    struct project p;
    project_make(&p, "test_calc.py", 0.05);
    struct lt_exec ex;
    lt_exec_init(&ex, 3);
    struct lt_runner_config cfg = project_cfg(&p);
    cfg.no_view = 0; /* copies take scratch instances of the view */
    struct lt_lane *l = lt_exec_lane(&ex, &cfg, NULL, NULL);
    assert_int_equal(lt_exec_warm(&ex, l, 3), 0);
    assert_int_equal(l->live, 1); /* the others wait to be copies */
    assert_int_equal(lt_exec_wait_ready(&ex, l), 0);
    assert_int_equal(l->live, 3);
    struct seen s = {0};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, l, t, 0, 6, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    for (int i = 0; i < 6; i++)
        assert_int_equal(s.finished[i], 1);
    assert_int_equal(s.max_running, 3);
    int spawned, copies;
    count_zygotes(l, &spawned, &copies);
    assert_int_equal(spawned, 1);
    assert_int_equal(copies, 2);
    uint32_t used = 0;
    for (int k = 0; k < l->pool.n; k++)
        if (l->slot[k] != LT_SLOT_OFF && l->pool.z[k].copy_of) {
            unsigned i = l->pool.z[k].instance;
            assert_true(i > 0 && i < LT_RUNNER_SCRATCH_SLOTS);
            assert_false(used & (UINT32_C(1) << i));
            used |= UINT32_C(1) << i;
        }

    /* The original dies: so do its copies; the tasks of the next round
     * run on new zygotes. */
    for (int k = 0; k < l->pool.n; k++)
        if (l->slot[k] != LT_SLOT_OFF && !l->pool.z[k].copy_of)
            kill(l->pool.z[k].pid, SIGKILL);
    s = (struct seen){0};
    submit_n(&ex, l, t, 6, 4, &s, &ops);
    assert_int_equal(lt_exec_run(&ex), 0);
    for (int i = 6; i < 10; i++)
        assert_int_equal(s.finished[i], 1);
    count_zygotes(l, &spawned, &copies);
    assert_int_equal(spawned + copies, l->live);
    assert_true(spawned >= 1);

    /* Trimming to one keeps a spawned zygote. */
    lt_exec_trim(&ex, l, 1);
    assert_int_equal(l->live, 1);
    count_zygotes(l, &spawned, &copies);
    assert_int_equal(spawned, 1);
    assert_int_equal(copies, 0);
    lt_exec_close(&ex);
    project_free(&p);
}

/* What became of task id: starts, finishes and leaves; never lost. */
static void expect_fate(const struct seen *s, int id, int started,
                        int finished, int left)
{
    if (s->started[id] != started || s->finished[id] != finished ||
        s->left[id] != left || s->lost[id] != 0)
        fail_msg("task %d: started %d, finished %d, left %d, lost %d; "
                 "expected %d, %d, %d, 0", id, s->started[id],
                 s->finished[id], s->left[id], s->lost[id], started,
                 finished, left);
}

/* The run's deadline.  A child running when it comes ends within the
 * grace and finishes; the queued tasks are left without starting.  A
 * child still running at the end of the grace is stopped, its task left
 * (not finished: what it reported is no result), and the zygote under it
 * runs the next task as before. */
static void test_deadline(void **state)
{
    (void)state;
    struct project p;
    project_make(&p, "test_calc.py", 0.6); /* a task: about 1.2 s */
    struct lt_exec ex;
    lt_exec_init(&ex, 1);
    struct lt_runner_config cfg = project_cfg(&p);
    struct lt_lane *l = lt_exec_lane(&ex, &cfg, NULL, NULL);
    assert_int_equal(lt_exec_warm(&ex, l, 1), 0);
    assert_int_equal(lt_exec_wait_ready(&ex, l), 0);
    struct seen s = {0};
    struct ttask t[MAX_TASKS];
    submit_n(&ex, l, t, 0, 4, &s, &leaving_ops);
    lt_exec_set_deadline(&ex, lt__now() + 0.3, 30.0);
    assert_int_equal(lt_exec_run(&ex), 0);
    assert_true(ex.past_deadline);
    expect_fate(&s, 0, 1, 1, 0);
    for (int i = 1; i < 4; i++)
        expect_fate(&s, i, 0, 0, 1);
    assert_int_equal(ex.left, 3);
    assert_int_equal(ex.outstanding, 0);

    /* Past the grace: stopped long before its tests would end. */
    s = (struct seen){0};
    submit_n(&ex, l, t, 4, 2, &s, &leaving_ops);
    double t0 = lt__now();
    lt_exec_set_deadline(&ex, t0 + 0.2, 0.2);
    assert_false(ex.past_deadline);
    assert_int_equal(lt_exec_run(&ex), 0);
    double took = lt__now() - t0;
    if (took > 1.0)
        fail_msg("the run took %.2f s past a deadline and grace of 0.4 s",
                 took);
    expect_fate(&s, 4, 1, 0, 1);
    expect_fate(&s, 5, 0, 0, 1);
    assert_int_equal(ex.left, 5);
    assert_int_equal(ex.running, 0);

    /* No deadline: the same zygote runs the next task to its end. */
    s = (struct seen){0};
    submit_n(&ex, l, t, 6, 1, &s, &leaving_ops);
    lt_exec_set_deadline(&ex, 0, 0);
    assert_int_equal(lt_exec_run(&ex), 0);
    expect_fate(&s, 6, 1, 1, 0);
    assert_int_equal(ex.left, 5);
    lt_exec_close(&ex);
    project_free(&p);
}

int main(void)
{
    lt_engine_set_exe(LT_TEST_LITMUS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_and_exclusive),
        cmocka_unit_test(test_runner_death),
        cmocka_unit_test(test_lane_failure_and_sharing),
        cmocka_unit_test(test_policy_order),
        cmocka_unit_test(test_store_failure_stops),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_deadline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
