/* The one executor: see exec.h.  SPDX-License-Identifier: MIT */
#include "engine/core/exec.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exit.h"
#include "engine/core/pool.h"
#include "engine/core/store.h"
#include "sandbox/sandbox.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>


#define BATCH_WRITES 256
#define BATCH_SECONDS 0.5
#define CPU_SAMPLE_S 0.02 /* CPU budgets are checked this often */
#define JVM_START_WALL_S 60.0 /* for a Java worker to start and say ready */
#define JVM_MAX_START_FAILS 3 /* Java workers in a row that never got ready */
#define JVM_FIRST_RUN_MS 50.0 /* a run's wall time before any was measured */
#define JVM_START_BACKLOG_MS 500.0 /* queued work per Java worker that
                                      pays for starting another */

static const char *engine_exe = "/proc/self/exe";

void lt_engine_set_exe(const char *path)
{
    engine_exe = path;
}

const char *lt__engine_exe(void)
{
    return engine_exe;
}

static void on_signal(int sig)
{
    lt__interrupted = sig;
}

void lt_exec_init(struct lt_exec *ex, int jobs)
{
    /* SIGINT and SIGTERM end the run after its last batch is committed;
     * a zygote that died must not kill the engine when told to quit. */
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    memset(ex, 0, sizeof(*ex));
    ex->jobs = jobs < 1 ? 1 : jobs;
    ex->batch = BATCH_WRITES;
    ex->batch_s = BATCH_SECONDS;
    ex->last_commit = lt__now();
}

void lt_exec_fail(struct lt_exec *ex, int code)
{
    if (!ex->fatal)
        ex->fatal = code;
}

/*** Lanes and their slots ***/

static void slots_grow(struct lt_lane *l, int n)
{
    if (n <= l->pool.n)
        return;
    l->pool.z = xrealloc(l->pool.z, (size_t)n * sizeof(struct zygote));
    l->slot = xrealloc(l->slot, (size_t)n);
    l->slot_since = xrealloc(l->slot_since, (size_t)n * sizeof(double));
    for (int k = l->pool.n; k < n; k++) {
        memset(&l->pool.z[k], 0, sizeof(struct zygote));
        l->pool.z[k].sock = -1;
        l->pool.z[k].job.result_fd = l->pool.z[k].job.out_fd = -1;
        l->pool.z[k].job.pidfd = -1;
        l->slot[k] = LT_SLOT_OFF;
        l->slot_since[k] = 0;
    }
    if (l->kind == LT_RUNNER_JVM) {
        l->jw = xrealloc(l->jw, (size_t)n * sizeof(*l->jw));
        for (int k = l->pool.n; k < n; k++)
            lt__jworker_init(&l->jw[k]);
    }
    l->pool.n = n;
}

/* While a zygote imports and collects: the job's progress goes on (a
 * long collection is not a silent one). */
static void lane_waiting(void *arg)
{
    struct lt_exec *ex = arg;
    if (ex->progress)
        ex->progress(ex, 0);
}

struct lt_lane *lt_exec_lane(struct lt_exec *ex,
                             const struct lt_runner_config *cfg,
                             const struct lt_lane_ops *ops, void *owner)
{
    struct lt_lane *l = xcalloc(1, sizeof(*l));
    l->pool.cfg = *cfg;
    l->pool.waiting = lane_waiting;
    l->pool.waiting_arg = ex;
    if (!l->pool.cfg.exe)
        l->pool.cfg.exe = engine_exe;
    l->ops = ops;
    l->owner = owner;
    /* Every zygote started anew: for comparing (bench/copies_bench.sh). */
    l->no_copies = getenv("LITMUS_NO_COPIES") != NULL;
    slots_grow(l, ex->jobs);
    ex->lanes = xrealloc(ex->lanes, (ex->n_lanes + 1) * sizeof(*ex->lanes));
    ex->lanes[ex->n_lanes++] = l;
    return l;
}

struct lt_lane *lt_exec_lane_jvm(struct lt_exec *ex,
                                 const struct lt_jvm_config *cfg,
                                 const struct lt_lane_ops *ops, void *owner)
{
    struct lt_lane *l = xcalloc(1, sizeof(*l));
    l->kind = LT_RUNNER_JVM;
    l->jvm = *cfg;
    l->jvm.read_paths = NULL;
    l->jvm.n_read_paths = 0;
    if (!l->jvm.exe)
        l->jvm.exe = engine_exe;
    l->ops = ops;
    l->owner = owner;
    l->no_copies = 1;
    l->start_timeout = JVM_START_WALL_S;
    slots_grow(l, ex->jobs);
    ex->lanes = xrealloc(ex->lanes, (ex->n_lanes + 1) * sizeof(*ex->lanes));
    ex->lanes[ex->n_lanes++] = l;
    return l;
}

void lt_exec_jvm_read(struct lt_lane *l, const char *dir)
{
    char **reads = (char **)l->jvm.read_paths;
    for (size_t i = 0; i < l->jvm.n_read_paths; i++)
        if (strcmp(reads[i], dir) == 0)
            return;
    reads = xrealloc(reads, (l->jvm.n_read_paths + 1) * sizeof(char *));
    reads[l->jvm.n_read_paths++] = xstrdup(dir);
    l->jvm.read_paths = reads;
}

void lt_exec_set_jobs(struct lt_exec *ex, int jobs)
{
    ex->jobs = jobs < 1 ? 1 : jobs;
    for (size_t i = 0; i < ex->n_lanes; i++)
        slots_grow(ex->lanes[i], ex->jobs);
}

static void slot_died(struct lt_exec *ex, struct lt_lane *l, int k);

/* The spawned zygote whose view slot k's zygote shares (k itself when it
 * was spawned). */
static int family_root(const struct lt_lane *l, int k)
{
    while (l->pool.z[k].copy_of)
        k = l->pool.z[k].copy_of - 1;
    return k;
}

static void slot_off(struct lt_exec *ex, struct lt_lane *l, int k)
{
    if (l->slot[k] == LT_SLOT_OFF)
        return;
    struct zygote *z = &l->pool.z[k];
    /* Its copies die with it: they stop first, and a busy copy's task
     * runs again elsewhere. */
    for (int c = 0; c < l->pool.n && z->copies > 0; c++) {
        if (c == k || l->slot[c] == LT_SLOT_OFF ||
            l->pool.z[c].copy_of != k + 1)
            continue;
        if (l->pool.z[c].job.active)
            slot_died(ex, l, c);
        else
            slot_off(ex, l, c);
    }
    if (z->copy_of) {
        struct zygote *from = &l->pool.z[z->copy_of - 1];
        struct zygote *root = &l->pool.z[family_root(l, k)];
        from->copies--;
        root->instances_used &= ~(UINT32_C(1) << z->instance);
    }
    if (l->kind == LT_RUNNER_JVM)
        lt__jworker_end(&l->jw[k], 1);
    lt__zygote_stop(z);
    z->dead = 0;
    z->copy_of = 0;
    z->copies = 0;
    l->slot[k] = LT_SLOT_OFF;
    l->live--;
    ex->live--;
}

/* Slot k's zygote can be stopped without stopping a child: it is idle,
 * and no copy of it lives. */
static int stoppable(const struct lt_lane *l, int k)
{
    return l->slot[k] != LT_SLOT_OFF && !l->pool.z[k].job.active &&
           l->pool.z[k].copies == 0;
}

/* An idle ready zygote of the lane to copy, with a scratch instance free
 * in its family (its number in *instance), or -1.  Spawned zygotes go
 * first, so that few copies hang on copies. */
static int copy_source(const struct lt_lane *l, unsigned *instance)
{
    if (l->no_copies)
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < l->pool.n; k++) {
            const struct zygote *z = &l->pool.z[k];
            if (l->slot[k] != LT_SLOT_READY || z->job.active || z->dead ||
                (pass == 0 && z->copy_of))
                continue;
            uint32_t used = l->pool.z[family_root(l, k)].instances_used | 1u;
            for (unsigned i = 1; i < LT_RUNNER_SCRATCH_SLOTS; i++) {
                if (!(used & (UINT32_C(1) << i))) {
                    *instance = i;
                    return k;
                }
            }
        }
    }
    return -1;
}

/* A spawned zygote of the lane is still starting and none is ready: a
 * new zygote waits for it, to be a copy. */
static int first_starting(const struct lt_lane *l)
{
    if (l->no_copies)
        return 0;
    int starting = 0;
    for (int k = 0; k < l->pool.n; k++) {
        if (l->slot[k] == LT_SLOT_READY)
            return 0;
        if (l->slot[k] == LT_SLOT_STARTING && !l->pool.z[k].copy_of)
            starting = 1;
    }
    return starting;
}

/* Starts a zygote in a free slot of the lane: a copy of an idle ready one
 * when there is one (a fork), else a new one, which imports and collects
 * while the loop goes on.  0, 1 when no slot is free or the new zygote
 * is to wait for the first to be ready, or a negative code after
 * stopping the run. */
static int slot_on(struct lt_exec *ex, struct lt_lane *l)
{
    for (int k = 0; k < l->pool.n; k++) {
        if (l->slot[k] != LT_SLOT_OFF)
            continue;
        unsigned instance = 0;
        int from = copy_source(l, &instance);
        int rc = 1;
        if (from >= 0) {
            rc = lt__zygote_clone(&l->pool, &l->pool.z[from], from, instance,
                                  &l->pool.z[k]);
            if (rc == 0)
                l->pool.z[family_root(l, k)].instances_used |=
                    UINT32_C(1) << instance;
            else
                l->no_copies = 1;
        } else if (first_starting(l)) {
            return 1;
        }
        if (rc != 0 && l->kind == LT_RUNNER_JVM) {
            char *err = NULL;
            rc = lt__jworker_start(&l->jw[k], &l->jvm, &err);
            if (rc < 0) {
                lt_error("cannot start a Java worker: %s",
                         err ? err : lt_strerror(rc));
                free(err);
                lt_exec_fail(ex, LT_EXIT_ENGINE);
                return rc;
            }
        } else if (rc != 0) {
            rc = lt__zygote_start(&l->pool, &l->pool.z[k]);
            if (rc < 0) {
                lt_error("cannot start a runner: %s", lt_strerror(rc));
                lt_exec_fail(ex, LT_EXIT_ENGINE);
                return rc;
            }
        }
        l->slot[k] = LT_SLOT_STARTING;
        l->slot_since[k] = lt__now();
        l->live++;
        ex->live++;
        if (l->ops && l->ops->started)
            l->ops->started(ex, l, NULL);
        return 0;
    }
    return 1;
}

int lt_exec_warm(struct lt_exec *ex, struct lt_lane *l, int n)
{
    if (n > l->warm)
        l->warm = n;
    while (l->live < n && l->live < l->pool.n) {
        int rc = slot_on(ex, l);
        if (rc != 0)
            return rc < 0 ? rc : 0;
    }
    return 0;
}

void lt_exec_trim(struct lt_exec *ex, struct lt_lane *l, int n)
{
    if (n < l->warm)
        l->warm = n;
    /* Twice: a zygote whose copies stop in the first pass may stop in the
     * second. */
    for (int pass = 0; pass < 2; pass++)
        for (int k = l->pool.n; k-- > 0 && l->live > n;)
            if (stoppable(l, k))
                slot_off(ex, l, k);
}

static void task_lost(struct lt_exec *ex, struct lt_task *t, const char *why)
{
    ex->outstanding--;
    t->ops->lost(ex, t, why);
}

/* The deadline came before task t ended. */
static void task_left(struct lt_exec *ex, struct lt_task *t)
{
    ex->outstanding--;
    ex->left++;
    if (t->ops->left)
        t->ops->left(ex, t);
}

static struct lt_task *queue_pop(struct lt_lane *l)
{
    struct lt_task *t = l->qhead;
    if (!t)
        return NULL;
    l->qhead = t->next;
    if (!l->qhead)
        l->qtail = NULL;
    t->next = NULL;
    l->queued--;
    return t;
}

static void queue_push(struct lt_lane *l, struct lt_task *t, int front)
{
    t->next = NULL;
    if (front) {
        t->next = l->qhead;
        l->qhead = t;
        if (!l->qtail)
            l->qtail = t;
    } else {
        if (l->qtail)
            l->qtail->next = t;
        else
            l->qhead = t;
        l->qtail = t;
    }
    l->queued++;
}

/* Takes a given task out of the lane's queue (a policy's pick). */
static void queue_remove(struct lt_lane *l, struct lt_task *t)
{
    struct lt_task **pp = &l->qhead, *prev = NULL;
    while (*pp && *pp != t) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (!*pp)
        return;
    *pp = t->next;
    if (l->qtail == t)
        l->qtail = prev;
    t->next = NULL;
    l->queued--;
}

size_t lt_exec_queued(const struct lt_lane *l)
{
    return l->queued;
}

/* Every queued task of a lane that cannot start is lost. */
void lt_exec_lane_fail(struct lt_exec *ex, struct lt_lane *l,
                       const char *msg)
{
    if (!l->failed) {
        l->failed = 1;
        l->fail_msg = xstrdup(msg);
    }
    for (int k = 0; k < l->pool.n; k++)
        if (!l->pool.z[k].job.active)
            slot_off(ex, l, k);
    struct lt_task *t;
    while ((t = queue_pop(l)) != NULL)
        task_lost(ex, t, l->fail_msg);
}

static void start_failed(struct lt_exec *ex, struct lt_lane *l, int rc,
                         const char *msg)
{
    if (l->ops && l->ops->start_failed)
        l->ops->start_failed(ex, l, rc, msg);
    else
        lt_exec_lane_fail(ex, l, msg);
}

/* A copy that could not start: the lane spawns its zygotes from now on
 * (a copy fails only when forking or the pre-import server does). */
static void copy_failed(struct lt_exec *ex, struct lt_lane *l, int k,
                        const char *why)
{
    lt_debug("a copy of a zygote failed (%s); new zygotes from now on",
             why);
    slot_off(ex, l, k);
    l->no_copies = 1;
}

static void slot_became_ready(struct lt_exec *ex, struct lt_lane *l, int k);

/* Reads READY (or FAILED) of slot k's zygote. */
static void slot_ready(struct lt_exec *ex, struct lt_lane *l, int k)
{
    char *fail = NULL;
    int rc = lt__read_ready(&l->pool, &l->pool.z[k], &fail);
    if (rc < 0 && l->pool.z[k].copy_of) {
        copy_failed(ex, l, k, fail ? fail : lt_strerror(rc));
        free(fail);
        return;
    }
    if (rc < 0) {
        slot_off(ex, l, k);
        start_failed(ex, l, rc, fail ? fail : lt_strerror(rc));
        free(fail);
        return;
    }
    free(fail);
    slot_became_ready(ex, l, k);
}

/* Slot k's runner is ready: the lane's ready hook, then the zygotes asked
 * for ahead of time that waited for it. */
static void slot_became_ready(struct lt_exec *ex, struct lt_lane *l, int k)
{
    l->slot[k] = LT_SLOT_READY;
    int first = !l->ready_once;
    l->ready_once = 1;
    if (l->ops && l->ops->ready) {
        char *why = NULL;
        int rc_ready = l->ops->ready(ex, l, first, &why);
        if (rc_ready < 0) {
            slot_off(ex, l, k);
            if (!ex->fatal)
                lt_exec_lane_fail(ex, l,
                                  why ? why : "the runner cannot be used");
        }
        free(why);
        if (rc_ready < 0)
            return;
    }
    /* The zygotes asked for ahead of time that waited for this one. */
    if (l->live < l->warm && !ex->fatal)
        lt_exec_warm(ex, l, l->warm);
}

int lt_exec_wait_ready(struct lt_exec *ex, struct lt_lane *l)
{
    for (int k = 0; k < l->pool.n && !ex->fatal &&
                    l->kind == LT_RUNNER_ZYGOTE; k++)
        if (l->slot[k] == LT_SLOT_STARTING)
            slot_ready(ex, l, k);
    return ex->fatal;
}

/*** Tasks ***/

void lt_exec_submit(struct lt_exec *ex, struct lt_task *t)
{
    ex->outstanding++;
    queue_push(t->lane, t, 0);
}

void lt_exec_retry(struct lt_exec *ex, struct lt_task *t)
{
    t->retried = 1;
    ex->outstanding++;
    queue_push(t->lane, t, 1);
}

/* Sends a prepared run to slot k's idle Java worker; its job is the
 * spec, with the wall deadline from now.  0, or -EPIPE when the worker
 * no longer reads (it is taken for dead; the task waits for another). */
static int jvm_job_start(struct lt_exec *ex, struct lt_lane *l, int k,
                         struct lt_launch *la)
{
    struct lt__jworker *w = &l->jw[k];
    int rc = lt__jworker_send(w, la->jvm, la->n_jvm, ++ex->token);
    if (rc < 0)
        return rc;
    struct job *j = &l->pool.z[k].job;
    lt__job_begin(j, &la->spec, la->wall);
    j->pid = w->pid;
    return 0;
}

/* Starts task t on slot k's idle zygote.  0, or a negative code when the
 * zygote refused it. */
static int task_start(struct lt_exec *ex, struct lt_lane *l, int k,
                      struct lt_task *t)
{
    struct lt_launch la;
    memset(&la, 0, sizeof(la));
    la.req.replacement = "";
    int rc = t->ops->prepare(ex, t, &la);
    if (rc == 0 && l->kind == LT_RUNNER_JVM) {
        rc = jvm_job_start(ex, l, k, &la);
    } else if (rc == 0) {
        la.req.tests = la.spec.tests;
        la.req.n_tests = la.spec.n_tests;
        rc = lt__job_start(&l->pool.z[k], &la.spec, ++ex->token, &la.req,
                           la.wall);
    }
    free(la.jvm);
    for (size_t i = 0; i < sizeof(la.owned) / sizeof(*la.owned); i++)
        free(la.owned[i]);
    if (rc < 0) {
        lt__run_spec_clear(&la.spec);
        return rc;
    }
    l->pool.z[k].job.owner = t;
    l->running++;
    ex->running++;
    if (t->exclusive)
        ex->exclusive = 1;
    if (l->ops && l->ops->started)
        l->ops->started(ex, l, t);
    return 0;
}

static struct lt_task *lane_next(struct lt_lane *l)
{
    if (l->ops && l->ops->next) {
        struct lt_task *t = l->ops->next(l);
        if (t)
            queue_remove(l, t);
        return t;
    }
    return queue_pop(l);
}

/* Hands queued tasks to idle zygotes. */
static void hand_out(struct lt_exec *ex)
{
    for (size_t li = 0; li < ex->n_lanes && !ex->fatal; li++) {
        struct lt_lane *l = ex->lanes[li];
        if (l->failed) {
            lt_exec_lane_fail(ex, l, l->fail_msg);
            continue;
        }
        for (int k = 0; k < l->pool.n && l->queued > 0; k++) {
            struct zygote *z = &l->pool.z[k];
            if (ex->exclusive)
                return;
            if (l->slot[k] != LT_SLOT_READY || z->job.active || z->dead ||
                (l->kind == LT_RUNNER_JVM && l->jw[k].leaving))
                continue;
            struct lt_task *t = lane_next(l);
            if (t->exclusive && ex->running > 0) {
                /* It waits for the others to end; nothing starts now. */
                queue_push(l, t, 1);
                return;
            }
            int rc = task_start(ex, l, k, t);
            if (rc == LT_EUSAGE) {
                task_lost(ex, t, "the job cannot be encoded");
            } else if (rc < 0) {
                z->dead = 1;
                queue_push(l, t, 1);
            }
        }
    }
}

static size_t lane_work(const struct lt_lane *l)
{
    return l->ops && l->ops->work ? l->ops->work(l) : l->queued;
}

/* The Java workers a JVM lane with work wants live: another one costs
 * about 0.65 s of CPU to start, so one starts only while the queue holds
 * more than JVM_START_BACKLOG_MS of runs per live worker (at the mean
 * wall time of the runs answered so far); at least one. */
static size_t jvm_want(const struct lt_lane *l)
{
    double mean = l->jvm_runs ? l->jvm_run_ms / (double)l->jvm_runs
                              : JVM_FIRST_RUN_MS;
    double backlog = (double)l->queued * mean;
    double n = ceil(backlog / JVM_START_BACKLOG_MS);
    return n < 1 ? 1 : n > 1e6 ? 1000000 : (size_t)n;
}

/* Java workers of the lane starting. */
static int jvm_starting(const struct lt_lane *l)
{
    int n = 0;
    for (int k = 0; k < l->pool.n; k++)
        n += l->slot[k] == LT_SLOT_STARTING;
    return n;
}

/* How many Java workers may start at once: the machine's cores. */
static int jvm_start_at_once(void)
{
    static int n;
    if (!n) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c < 1 ? 1 : c > 1024 ? 1024 : (int)c;
    }
    return n;
}

/* Shares the zygote slots among the lanes with work: one zygote for
 * every lane that waits first, then more for lanes with more work than
 * zygotes, up to the budget; a lane with nothing queued gives its idle
 * zygotes up to a lane that waits. */
static void share_slots(struct lt_exec *ex)
{
    for (int pass = 0; pass < 2 && !ex->fatal; pass++) {
        for (size_t li = 0; li < ex->n_lanes && !ex->fatal; li++) {
            struct lt_lane *l = ex->lanes[li];
            size_t work = lane_work(l);
            if (work == 0 || l->failed)
                continue;
            size_t want = pass == 0                  ? 1
                          : l->kind == LT_RUNNER_JVM ? jvm_want(l)
                                                     : work + (size_t)l->running;
            if (want > (size_t)ex->jobs)
                want = (size_t)ex->jobs;
            while ((size_t)l->live < want && !ex->fatal) {
                /* The lane's first zygote is starting: the next one will
                 * be its copy, and needs no slot freed before then. */
                if (first_starting(l))
                    break;
                /* Java workers start a core's worth at a time: a JVM's
                 * start is CPU-bound (0.65 s of it), and many at once
                 * starve the runs of the ready ones. */
                if (l->kind == LT_RUNNER_JVM &&
                    jvm_starting(l) >= jvm_start_at_once())
                    break;
                if (ex->live >= ex->jobs) {
                    int freed = 0;
                    for (size_t oi = 0; oi < ex->n_lanes && !freed; oi++) {
                        struct lt_lane *ol = ex->lanes[oi];
                        if (ol == l || lane_work(ol) > 0)
                            continue;
                        for (int k = 0; k < ol->pool.n && !freed; k++) {
                            if (!stoppable(ol, k))
                                continue;
                            slot_off(ex, ol, k);
                            freed = 1;
                        }
                    }
                    if (!freed)
                        break;
                }
                if (slot_on(ex, l) != 0)
                    break;
            }
        }
    }
}

/*** The event loop ***/

static void job_ended(struct lt_exec *ex, struct lt_lane *l,
                      struct lt_task *t)
{
    l->running--;
    ex->running--;
    if (t->exclusive)
        ex->exclusive = 0;
}

static void job_finished(struct lt_exec *ex, struct lt_lane *l, int k)
{
    struct job *j = &l->pool.z[k].job;
    struct lt_task *t = j->owner;
    job_ended(ex, l, t);
    if (j->sandboxed && !ex->sandbox_checked) {
        ex->sandbox_checked = 1;
        ex->sandbox = j->sandbox;
        lt__warn_degraded(&l->pool, j->sandbox);
    }
    if (j->cut) {
        task_left(ex, t); /* stopped at the deadline: no result */
    } else {
        ex->outstanding--;
        t->ops->finished(ex, t, &j->report);
    }
    lt__job_reset(j);
}

/* Slot k's zygote died (its child with it): the task runs once more on
 * another zygote, or is lost. */
static void slot_died(struct lt_exec *ex, struct lt_lane *l, int k)
{
    struct job *j = &l->pool.z[k].job;
    struct lt_task *t = j->active ? j->owner : NULL;
    lt__job_reset(j);
    slot_off(ex, l, k);
    if (!t)
        return;
    job_ended(ex, l, t);
    if (!t->retried) {
        t->retried = 1;
        ex->retries++;
        queue_push(l, t, 1);
    } else {
        task_lost(ex, t, "the runner died twice");
    }
}

/*** Java workers ***/

/* A Java worker that did not get ready: it ended, said something else,
 * or took too long (status: its wait status, or -1).  Three in a row
 * stop the run. */
static void jvm_start_failed(struct lt_exec *ex, struct lt_lane *l, int k,
                             int timed_out, int status)
{
    slot_off(ex, l, k);
    if (++l->jvm_start_fails < JVM_MAX_START_FAILS || ex->fatal)
        return;
    if (timed_out)
        lt_error("the Java workers do not get ready in %.0f s",
                 JVM_START_WALL_S);
    else
        lt_error("the Java workers do not start (the last ended with "
                 "status 0x%x); run with --debug to see why", status);
    lt_exec_fail(ex, LT_EXIT_ENGINE);
}

/* A Java worker said ready: what its sandbox lacks is said once a lane. */
static void jvm_ready(struct lt_exec *ex, struct lt_lane *l, int k)
{
    struct lt__jworker *w = &l->jw[k];
    if ((w->sandbox & LT_SBX_ALL) != LT_SBX_ALL && !l->jvm_warned) {
        lt_warn("the Java workers' sandbox is degraded: %s",
                w->missing ? w->missing : "features are missing");
        l->jvm_warned = 1;
    }
    l->jvm_start_fails = 0;
    lt_debug("Java worker %d ready in %.2f s", (int)w->pid,
             lt__now() - l->slot_since[k]);
    slot_became_ready(ex, l, k);
}

/* The run of slot k's job is over without an answer, or with one. */
static void jvm_job_over(struct job *j, double now)
{
    j->got_exited = 1;
    j->exited_at = now;
    j->result_eof = j->out_eof = 1;
}

/* Slot k's worker ended (its pipe closed).  Its run ends with the
 * worker's status when the program ended it (an exit, a signal) or when
 * the engine killed it at the deadline; a SIGKILL the engine did not
 * send is the runner dying (the task runs again: slot_died). */
static void jvm_worker_gone(struct lt_lane *l, int k, double now)
{
    struct zygote *z = &l->pool.z[k];
    struct job *j = &z->job;
    int status = lt__jworker_end(&l->jw[k], 1);
    if (!j->active || j->got_exited)
        return;
    if (WIFEXITED(status) ||
        (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)) {
        j->wait_status = status;
        jvm_job_over(j, now);
    } else {
        z->dead = 1;
    }
}

/* One round of slot k of a JVM lane: what its worker sent (readable:
 * its pipe is ready), the start and wall deadlines, a finished run.
 * Everything a worker sends is hostile: a message out of turn or of
 * another run makes it leave; its run then ends as malformed. */
static void jvm_slot_step(struct lt_exec *ex, struct lt_lane *l, int k,
                          int readable, double now)
{
    struct lt__jworker *w = &l->jw[k];
    struct zygote *z = &l->pool.z[k];
    struct job *j = &z->job;
    while (readable && w->pid > 0 && !z->dead) {
        int busy = j->active && !j->got_exited;
        struct lt_jvm_msg m;
        int ev = lt__jworker_read(w, busy, &m);
        if (ev == LT_JW_NONE)
            break;
        if (ev == LT_JW_READY && l->slot[k] == LT_SLOT_STARTING) {
            jvm_ready(ex, l, k);
            continue;
        }
        if (l->slot[k] == LT_SLOT_STARTING) {
            if (ev == LT_JW_START_FAILED) {
                size_t len;
                const char *e = lt_jvm_msg_get(&m, "error", &len);
                lt_error("a Java worker failed to start: %.*s",
                         e ? (int)len : 1, e ? e : "?");
                lt_jvm_msg_free(&m);
            }
            jvm_start_failed(ex, l, k, 0, lt__jworker_end(w, 1));
            return;
        }
        if (ev == LT_JW_ANSWER) {
            j->answer = xmalloc(sizeof(*j->answer));
            *j->answer = m;
            l->jvm_run_ms += (now - j->started_at) * 1000.0;
            l->jvm_runs++;
            const char *st = lt_jvm_msg_get(&m, "status", NULL);
            /* A timeout, memory, stray threads: it ends now. */
            w->leaving |= strcmp(st, "done") != 0;
            jvm_job_over(j, now);
            break;
        }
        if (ev == LT_JW_EOF) {
            jvm_worker_gone(l, k, now);
            break;
        }
        /* Out of turn, malformed, or the answer of another run. */
        w->leaving = 1;
        if (busy) {
            j->protocol_error = 1;
            jvm_job_over(j, now);
        }
        break;
    }
    if (l->slot[k] == LT_SLOT_STARTING) {
        if (w->pid <= 0)
            jvm_start_failed(ex, l, k, 0, -1);
        else if (now > l->slot_since[k] + l->start_timeout)
            jvm_start_failed(ex, l, k, 1, lt__jworker_end(w, 1));
        return;
    }
    if (j->active && !j->got_exited && !z->dead && now >= j->deadline) {
        /* Past its wall deadline: the worker and its run end here. */
        j->timed_out = 1;
        j->killed_by_us = 1;
        j->wait_status = lt__jworker_end(w, 1);
        jvm_job_over(j, now);
    }
    if (z->dead) {
        slot_died(ex, l, k);
        return;
    }
    if (lt__job_done(j))
        job_finished(ex, l, k);
    if (!j->active && (w->leaving || w->pid <= 0))
        slot_off(ex, l, k);
}

/* One round over every lane: waits at most max_wait s for any fd, reads
 * frames, enforces deadlines, CPU budgets and watchdogs, finishes jobs.
 * 0, or -errno of poll. */
static int step(struct lt_exec *ex, double max_wait)
{
    size_t n_lanes = ex->n_lanes, nfd = 0;
    for (size_t li = 0; li < n_lanes; li++)
        nfd += (size_t)ex->lanes[li]->pool.n * 3;
    struct pollfd *pf = xcalloc(nfd + 1, sizeof(*pf));
    double now = lt__now(), soonest = now + max_wait;
    int sample = 0;
    size_t f = 0;
    for (size_t li = 0; li < n_lanes; li++) {
        struct lt_lane *l = ex->lanes[li];
        double limit = l->start_timeout;
        for (int k = 0; k < l->pool.n; k++, f += 3) {
            struct zygote *z = &l->pool.z[k];
            struct job *j = &z->job;
            pf[f] = pf[f + 1] = pf[f + 2] = (struct pollfd){-1, POLLIN, 0};
            if (l->kind == LT_RUNNER_JVM && l->slot[k] != LT_SLOT_OFF) {
                /* A worker's answers and its end come on one pipe. */
                pf[f].fd = z->dead ? -1 : l->jw[k].from;
                if (l->slot[k] == LT_SLOT_STARTING && limit > 0 &&
                    l->slot_since[k] + limit < soonest)
                    soonest = l->slot_since[k] + limit;
                if (l->slot[k] == LT_SLOT_READY &&
                    lt__job_wakeup(j) < soonest)
                    soonest = lt__job_wakeup(j);
                continue;
            }
            if (l->slot[k] == LT_SLOT_STARTING) {
                pf[f].fd = z->sock;
                if (limit > 0 && l->slot_since[k] + limit < soonest)
                    soonest = l->slot_since[k] + limit;
                continue;
            }
            if (l->slot[k] != LT_SLOT_READY)
                continue;
            pf[f].fd = z->dead || z->sock < 0 || j->got_exited ? -1 : z->sock;
            pf[f + 1].fd = j->active && !j->result_eof ? j->result_fd : -1;
            pf[f + 2].fd = j->active && !j->out_eof ? j->out_fd : -1;
            if (lt__job_wakeup(j) < soonest)
                soonest = lt__job_wakeup(j);
            if (j->active && j->pid > 0 && !j->got_exited) {
                struct lt_task *t = j->owner;
                sample |= j->cpu_budget_ns > 0 || (t && t->ops->watch);
            }
        }
    }
    if (sample && soonest > now + CPU_SAMPLE_S)
        soonest = now + CPU_SAMPLE_S;
    double wait = soonest - now;
    int ms = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
    int n = poll(pf, (nfds_t)nfd, ms);
    if (n < 0) {
        int e = errno;
        free(pf);
        return e == EINTR ? 0 : -e;
    }
    now = lt__now();
    f = 0;
    for (size_t li = 0; li < n_lanes && !ex->fatal; li++) {
        struct lt_lane *l = ex->lanes[li];
        for (int k = 0; k < l->pool.n && !ex->fatal; k++, f += 3) {
            struct zygote *z = &l->pool.z[k];
            struct job *j = &z->job;
            if (l->kind == LT_RUNNER_JVM) {
                if (l->slot[k] != LT_SLOT_OFF)
                    jvm_slot_step(ex, l, k, n > 0 && pf[f].revents, now);
                continue;
            }
            if (l->slot[k] == LT_SLOT_STARTING) {
                if (n > 0 && pf[f].revents) {
                    slot_ready(ex, l, k);
                } else if (l->start_timeout > 0 &&
                           now > l->slot_since[k] + l->start_timeout) {
                    char *msg = xasprintf("a runner did not finish "
                                          "collecting the tests in %.0f s",
                                          l->start_timeout);
                    if (z->copy_of) {
                        copy_failed(ex, l, k, msg);
                    } else {
                        slot_off(ex, l, k);
                        start_failed(ex, l, -ETIMEDOUT, msg);
                    }
                    free(msg);
                }
                continue;
            }
            if (l->slot[k] != LT_SLOT_READY)
                continue;
            if (n > 0 && pf[f].revents && !z->dead && lt__zygote_read(z) < 0)
                z->dead = 1;
            if (n > 0 && pf[f + 1].revents)
                lt__job_read_results(&l->pool, j);
            if (n > 0 && pf[f + 2].revents)
                lt__job_read_output(j);
            int killed = lt__job_check_limits(j, now);
            if (!killed && j->active && !j->timed_out && !j->got_exited) {
                struct lt_task *t = j->owner;
                if (t && t->ops->watch &&
                    t->ops->watch(ex, t, &j->report, now))
                    lt__job_kill(j);
            }
            lt__job_expire_pipes(j, now);
            if (z->dead)
                slot_died(ex, l, k);
            else if (lt__job_done(j))
                job_finished(ex, l, k);
        }
    }
    free(pf);
    return 0;
}

/*** The deadline ***/

void lt_exec_set_deadline(struct lt_exec *ex, double deadline, double grace)
{
    ex->deadline = deadline;
    ex->grace = grace > 0 ? grace : 0;
    ex->past_deadline = 0;
}

/* Once the deadline has come: every queued task is left, and at the end
 * of the grace every zygote lane's child still running is stopped (its
 * task is left when its end is read, as a job ends: the zygote stays
 * usable).  A child that has exited is let be: its result is complete. */
static void check_deadline(struct lt_exec *ex, double now)
{
    if (ex->deadline <= 0 || now < ex->deadline)
        return;
    if (!ex->past_deadline)
        lt_debug("the run's deadline: no task starts from now on; %d "
                 "running get %.1f s to end", ex->running, ex->grace);
    ex->past_deadline = 1;
    for (size_t li = 0; li < ex->n_lanes; li++) {
        struct lt_lane *l = ex->lanes[li];
        struct lt_task *t;
        while ((t = queue_pop(l)) != NULL)
            task_left(ex, t);
        /* A Java worker's run is no child of its own: it ends by itself,
         * at the latest at its wall deadline. */
        if (now < ex->deadline + ex->grace || l->kind != LT_RUNNER_ZYGOTE)
            continue;
        for (int k = 0; k < l->pool.n; k++) {
            struct job *j = &l->pool.z[k].job;
            if (l->slot[k] != LT_SLOT_READY || !j->active || j->cut ||
                j->got_exited)
                continue;
            j->cut = 1;
            lt__job_kill(j);
        }
    }
}

/* How long the loop may wait before the deadline needs it (max_wait
 * otherwise). */
static double deadline_wait(const struct lt_exec *ex, double now,
                            double max_wait)
{
    if (ex->deadline <= 0)
        return max_wait;
    double at = now < ex->deadline ? ex->deadline : ex->deadline + ex->grace;
    double w = at - now;
    return w > 0 && w < max_wait ? w : max_wait;
}

/* A zygote is starting: a lane waits for its collection to know its
 * tasks. */
static int starting(const struct lt_exec *ex)
{
    for (size_t li = 0; li < ex->n_lanes; li++)
        for (int k = 0; k < ex->lanes[li]->pool.n; k++)
            if (ex->lanes[li]->slot[k] == LT_SLOT_STARTING)
                return 1;
    return 0;
}

int lt_exec_run(struct lt_exec *ex)
{
    for (;;) {
        size_t waiting = ex->idle ? ex->idle(ex) : 0;
        if (ex->fatal || lt__interrupted)
            break;
        check_deadline(ex, lt__now());
        if (ex->outstanding == 0 && waiting == 0)
            break;
        /* Slots first: an idle ready zygote is copied before it takes a
         * task (the copy is made before the task's RUN is read). */
        share_slots(ex);
        hand_out(ex);
        if (ex->fatal)
            break;
        if (ex->outstanding == 0 && !starting(ex))
            continue; /* every task was lost: their callbacks may add */
        int rc = step(ex, deadline_wait(ex, lt__now(), 0.5));
        if (rc < 0) {
            lt_error("poll: %s", strerror(-rc));
            lt_exec_fail(ex, LT_EXIT_ENGINE);
            break;
        }
        lt_exec_commit(ex, 0);
        if (ex->progress)
            ex->progress(ex, 0);
    }
    return lt_exec_finish(ex);
}

int lt_exec_finish(struct lt_exec *ex)
{
    lt_exec_commit(ex, 1);
    if (ex->progress)
        ex->progress(ex, 1);
    if (ex->store_rc) {
        ex->in_tx = 0;
        return lt__store_write_failed(ex->st, ex->db, ex->store_rc);
    }
    if (ex->fatal)
        return ex->fatal;
    if (lt__interrupted)
        return lt__exit_interrupted();
    return 0;
}

/*** The store ***/

int lt_exec_write(struct lt_exec *ex)
{
    if (ex->store_rc)
        return ex->store_rc;
    if (!ex->in_tx) {
        int rc = lt_store_begin(ex->st);
        if (rc < 0) {
            lt_exec_wrote(ex, rc);
            return rc;
        }
        ex->in_tx = 1;
    }
    return 0;
}

void lt_exec_wrote(struct lt_exec *ex, int rc)
{
    ex->pending++;
    if (rc < 0 && ex->store_rc == 0) {
        ex->store_rc = rc;
        lt_exec_fail(ex, LT_EXIT_ENGINE);
    }
}

void lt_exec_commit(struct lt_exec *ex, int force)
{
    /* After a failed write the open batch is rolled back at the end. */
    if (!ex->st || !ex->in_tx || ex->store_rc)
        return;
    if (!force && ex->pending < ex->batch &&
        lt__now() - ex->last_commit < ex->batch_s)
        return;
    int rc = lt_store_commit(ex->st);
    ex->in_tx = 0;
    ex->pending = 0;
    ex->last_commit = lt__now();
    if (rc < 0) {
        ex->pending = 0;
        lt_exec_wrote(ex, rc);
    }
}

void lt_exec_lane_drop_tasks(struct lt_exec *ex, struct lt_lane *l,
                             void (*fn)(struct lt_task *t))
{
    struct lt_task *t;
    while ((t = queue_pop(l)) != NULL) {
        ex->outstanding--;
        fn(t);
    }
    for (int k = 0; k < l->pool.n; k++) {
        struct job *j = &l->pool.z[k].job;
        if (!j->active || !j->owner)
            continue;
        t = j->owner;
        j->owner = NULL;
        job_ended(ex, l, t);
        ex->outstanding--;
        lt__job_reset(j);
        fn(t);
    }
}

void lt_exec_close(struct lt_exec *ex)
{
    lt_exec_commit(ex, 1);
    for (size_t i = 0; i < ex->n_lanes; i++) {
        struct lt_lane *l = ex->lanes[i];
        /* Stopping a zygote resets its job; an off slot holds none.  Every
         * answer is in: nothing in a Java worker is worth waiting for. */
        for (int k = 0; k < l->pool.n; k++) {
            if (l->slot[k] == LT_SLOT_OFF)
                continue;
            if (l->kind == LT_RUNNER_JVM)
                lt__jworker_end(&l->jw[k], 1);
            lt__zygote_stop(&l->pool.z[k]);
        }
        free(l->jw);
        for (size_t r = 0; r < l->jvm.n_read_paths; r++)
            free(l->jvm.read_paths[r]);
        free((char **)l->jvm.read_paths);
        free(l->pool.z);
        for (size_t t = 0; l->pool.test_ids && t < l->pool.n_tests; t++)
            free(l->pool.test_ids[t]);
        free(l->pool.test_ids);
        free(l->pool.view);
        free(l->pool.view_missing);
        free(l->pool.steady_ns);
        free(l->pool.import_pairs);
        free(l->slot);
        free(l->slot_since);
        free(l->fail_msg);
        free(l);
    }
    free(ex->lanes);
    memset(ex, 0, sizeof(*ex));
}

/*** The lane as its job reads it ***/

void *lt_exec_lane_owner(const struct lt_lane *l)
{
    return l->owner;
}

const struct lt_suite *lt_exec_lane_suite(const struct lt_lane *l)
{
    return &l->pool.suite;
}

const struct lt_runner_config *lt_exec_lane_config(const struct lt_lane *l)
{
    return &l->pool.cfg;
}

int lt_exec_lane_failed(const struct lt_lane *l)
{
    return l->failed;
}

int lt_exec_lane_ready_once(const struct lt_lane *l)
{
    return l->ready_once;
}

int lt_exec_lane_live(const struct lt_lane *l)
{
    return l->live;
}

int lt_exec_lane_running(const struct lt_lane *l)
{
    return l->running;
}

struct lt_task *lt_exec_lane_queue(const struct lt_lane *l)
{
    return l->qhead;
}

void lt_exec_lane_set_start_timeout(struct lt_lane *l, double seconds)
{
    l->start_timeout = seconds;
}

void lt_exec_lane_set_telemetry(struct lt_lane *l, struct lt_telemetry *tm)
{
    l->pool.tm = tm;
}

int lt_exec_lane_slots(const struct lt_lane *l)
{
    return l->pool.n;
}

double lt_exec_lane_zygotes_cpu_s(const struct lt_lane *l)
{
    double s = 0;
    for (int i = 0; i < l->pool.n; i++) {
        pid_t pid = l->pool.z[i].pid;
        double ns = pid > 0 ? lt__proc_cpu_ns(pid) : -1;
        if (ns > 0)
            s += ns / 1e9;
    }
    return s;
}

int lt_exec_lane_slot_used(const struct lt_lane *l, int k)
{
    return l->slot_since[k] > 0;
}

pid_t lt_exec_lane_zygote_pid(const struct lt_lane *l, int k)
{
    return l->pool.z[k].pid;
}

/* Contract: see exec.h. */
void lt_exec_each_running(struct lt_exec *ex,
                          void (*fn)(struct lt_task *t,
                                     const struct lt_run_report *j,
                                     void *arg),
                          void *arg)
{
    for (size_t li = 0; li < ex->n_lanes; li++) {
        const struct pool *pool = &ex->lanes[li]->pool;
        for (int k = 0; k < pool->n; k++) {
            const struct job *j = &pool->z[k].job;
            if (j->active && j->owner)
                fn(j->owner, &j->report, arg);
        }
    }
}
