/* The tasks of `litmus dataset`: making and freeing them, their cache
 * keys, their submission (the store first, then the runs of this process,
 * then the lane's runners), and the way of each result back to the
 * task's callback, which runs outside the executor's rounds.  Below the
 * executors (dataset_exec.c, dataset_java.c), which it reaches only
 * through the hooks each lane carries; of the other dataset_*.c files it
 * calls only the table (dataset_store.c).  SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"

/*** Tasks ***/

/* A task of kind on lane l with a copy of source (NULL: empty), and the
 * defaults of a call-evaluation run; the caller sets the rest and submits
 * it, or frees it with lt__ds_task_free.  The executor's part (xt) gets
 * its ops and lane from the lane's run hook. */
struct ds_task *lt__ds_task_new(enum ds_task_kind kind, struct ds_lane *l,
                                const char *source, size_t len)
{
    struct ds_task *t = xcalloc(1, sizeof(*t));
    t->kind = kind;
    t->lane = l;
    t->xt.owner = t;
    t->source = xstrndup(source ? source : "", source ? len : 0);
    t->len = source ? len : 0;
    t->call_timeout = 1.0;
    t->budget_s = 10.0;
    return t;
}

/* Frees t and what it owns; NULL is fine. */
void lt__ds_task_free(struct ds_task *t)
{
    if (!t)
        return;
    free(t->source);
    json_decref(t->calls);
    free(t->tests);
    json_decref(t->result);
    free(t);
}

/* Cache key: what decides the evidence of a run, and nothing that varies
 * from run to run (time limits are left out, so that a rerun finds what
 * an interrupted run stored). */
static void task_key(struct ds_task *t)
{
    struct lt_sha256 s;
    uint8_t d[32];
    lt_sha256_init(&s);
    char head[128];
    snprintf(head, sizeof(head), "dataset/1\n%d\n%d\n%d\n%d\n", (int)t->kind,
             t->untrusted, t->trace, t->stop_first);
    lt_sha256_update(&s, head, strlen(head));
    lt_sha256_update(&s, t->lane->key, strlen(t->lane->key) + 1);
    if (t->calls) {
        char *c = json_dumps(t->calls, JSON_COMPACT);
        lt_sha256_update(&s, c, strlen(c) + 1);
        free(c);
    }
    if (t->tests) {
        for (size_t i = 0; i < t->n_tests; i++) {
            char num[16];
            int n = snprintf(num, sizeof(num), "%u,", t->tests[i]);
            lt_sha256_update(&s, num, (size_t)n);
        }
    }
    lt_sha256_update(&s, "\n", 1);
    lt_sha256_update(&s, t->source, t->len);
    lt_sha256_final(&s, d);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        t->key[2 * i] = hex[d[i] >> 4];
        t->key[2 * i + 1] = hex[d[i] & 15];
    }
    t->key[64] = '\0';
}

/*** Submission ***/

/* Callbacks run from the executor's idle hook, outside its rounds, so
 * that they may submit, add lanes and run synchronous tasks freely. */
static void ready_push(struct ds_run *r, struct ds_task *t)
{
    t->next_ready = NULL;
    if (r->ready_tail)
        r->ready_tail->next_ready = t;
    else
        r->ready = t;
    r->ready_tail = t;
}

/* Hands a task to the executor.  Its callback runs from lt__ds_loop once
 * the result is known (from the store, or from a run); the callback owns
 * the task then.  A task no cache answers goes to its lane's run hook. */
void lt__ds_submit(struct ds_run *r, struct ds_task *t)
{
    task_key(t);
    r->outstanding++;
    r->tasks_total++;
    if (r->st && !t->nocache) {
        char *json = NULL;
        if (lt_store_get_dataset(r->st, t->key, &json) == 0 && json) {
            json_t *res = json_loads(json, 0, NULL);
            free(json);
            if (json_is_object(res)) {
                if (t->lane->stored)
                    t->lane->stored(r, t->lane);
                t->result = res;
                t->cached = 1;
                r->s.cache_hits++;
                ready_push(r, t);
                return;
            }
            json_decref(res);
        }
    }
    /* A run already done or running in this process (identical variants
     * of a program, the same input twice) is not run again. */
    if (!t->nocache) {
        if (!r->memo) {
            r->memo = json_object();
            r->leaders = json_object();
        }
        json_t *res = json_object_get(r->memo, t->key);
        if (res) {
            t->result = json_deep_copy(res);
            t->cached = 1;
            r->s.cache_hits++;
            ready_push(r, t);
            return;
        }
        json_t *lead = json_object_get(r->leaders, t->key);
        if (lead) {
            struct ds_task *l = (struct ds_task *)(intptr_t)
                json_integer_value(lead);
            t->followers = l->followers;
            l->followers = t;
            return;
        }
        json_object_set_new(r->leaders, t->key,
                            json_integer((json_int_t)(intptr_t)t));
    }
    t->lane->run(r, t);
}

/*** Results ***/

/* The result of a run is known: the tasks that waited for the same run
 * get a copy, and later ones find it. */
static void result_known(struct ds_run *r, struct ds_task *t)
{
    if (t->nocache || !r->leaders)
        return;
    json_object_del(r->leaders, t->key);
    const char *status = json_string_value(json_object_get(t->result,
                                                           "status"));
    if (status && strcmp(status, "error") != 0)
        json_object_set_new(r->memo, t->key, json_deep_copy(t->result));
    while (t->followers) {
        struct ds_task *f = t->followers;
        t->followers = f->followers;
        f->followers = NULL;
        f->result = json_deep_copy(t->result);
        f->cached = 1;
        r->s.cache_hits++;
        ready_push(r, f);
    }
}

static void store_result(struct ds_run *r, struct ds_task *t)
{
    if (!r->st || t->nocache)
        return;
    const char *status = json_string_value(json_object_get(t->result,
                                                           "status"));
    if (!status || strcmp(status, "error") == 0)
        return; /* engine failures are never kept */
    if (lt_exec_write(&r->ex) < 0)
        return;
    char *json = json_dumps(t->result, JSON_COMPACT);
    lt_exec_wrote(&r->ex, lt_store_put_dataset(r->st, t->key, json));
    free(json);
}

/* Contract: see dataset_internal.h. */
void lt__ds_result(struct ds_run *r, struct ds_task *t)
{
    store_result(r, t);
    result_known(r, t);
    ready_push(r, t);
}

/* The task cannot run (its runner died twice, its job cannot be encoded,
 * its lane cannot start): it ends in error.  The lost hook of the
 * dataset's tasks on every lane. */
void lt__ds_task_lost(struct lt_exec *ex, struct lt_task *xt, const char *why)
{
    struct ds_run *r = ex->owner;
    struct ds_task *t = xt->owner;
    if (!lt_exec_lane_failed(xt->lane))
        r->s.engine_errors++;
    t->result = json_pack("{s:s, s:s}", "status", "error", "error",
                          why ? why : "");
    lt__ds_result(r, t); /* an error, which the store never keeps */
}

/* Contract: see dataset_internal.h. */
int lt__ds_run_over(struct ds_run *r, struct ds_task *t, json_t *res,
                    double started_at)
{
    double now = lt__now();
    t->wall_ms = (now - started_at) * 1000.0;
    r->s.jobs_run++;
    r->t_last_job = now;
    const char *status = json_string_value(json_object_get(res, "status"));
    if (status && strcmp(status, "error") == 0 && !t->xt.retried) {
        /* The engine's own failure: once more, then it stands. */
        r->s.retries++;
        json_decref(res);
        lt_exec_retry(&r->ex, &t->xt);
        return 0;
    }
    if (status && strcmp(status, "error") == 0)
        r->s.engine_errors++;
    return 1;
}
