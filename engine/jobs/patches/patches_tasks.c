/* `litmus patches`' tasks and stored layers, the bottom file of the
 * single-file triage (patches.c over patches_units.c over
 * patches_mutants.c over this file; it calls none of them): what a unit
 * queues on its lane and in which order, a task's tests, and each text's
 * layers read from and written to the store.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "engine/jobs/patches/patches_internal.h"

/*** Tasks: what a unit queues on its lane ***/

/* The priority of a kind of task: the reference runs first (budgets and
 * captured calls come from them), then layer 1, layer 2, the mutants. */
static int kind_class(enum ptask_kind kind)
{
    return kind == T_REF_MAIN || kind == T_REF_HELD ? 0
           : kind == T_L1                          ? 1
           : kind == T_MUT                         ? 3
                                                   : 2;
}

/* Contract: see patches_internal.h. */
void lt__patches_submit(struct patches_run *r, struct ptask *k, int retry)
{
    k->in_q = 1;
    k->u->nq[kind_class(k->kind)]++;
    if (retry)
        lt_exec_retry(&r->ex, &k->task);
    else
        lt_exec_submit(&r->ex, &k->task);
}

/* Contract: see patches_internal.h. */
void lt__patches_unqueued(struct ptask *k)
{
    if (k->in_q) {
        k->in_q = 0;
        k->u->nq[kind_class(k->kind)]--;
    }
}

/* Contract: see patches_internal.h.  Tasks handed back come before the
 * others in the queue: retries, and tasks the executor queued again
 * itself (their zygote died or refused them; not counted in nq until seen
 * here). */
struct lt_task *lt__patches_next(struct lt_lane *l)
{
    struct unit *u = lt_exec_lane_owner(l);
    int want = 0;
    while (want < 4 && u->nq[want] == 0)
        want++;
    struct lt_task *best = NULL;
    int best_c = 4;
    for (struct lt_task *t = lt_exec_lane_queue(l); t; t = t->next) {
        struct ptask *k = t->owner;
        int c = kind_class(k->kind);
        int handed_back = t->retried || !k->in_q;
        if (!k->in_q) {
            k->in_q = 1;
            u->nq[c]++;
            if (c < want)
                want = c;
        }
        if (!best || c < best_c) {
            best = t;
            best_c = c;
        }
        if (!handed_back && best_c <= want)
            break;
    }
    if (best)
        lt__patches_unqueued(best->owner);
    return best;
}

/* Contract: see patches_internal.h. */
struct ptask *lt__patches_task_new(const struct patches_run *r,
                                   struct unit *u, enum ptask_kind kind,
                                   struct ptext *t)
{
    struct ptask *k = xcalloc(1, sizeof(*k));
    k->task.ops = kind == T_DIFF ? r->diff_ops : r->task_ops;
    k->task.lane = u->lane;
    k->task.owner = k;
    k->kind = kind;
    k->u = u;
    k->t = t;
    k->probe_index = -1;
    return k;
}

/* Contract: see patches_internal.h. */
void lt__patches_job_tests(struct unit *u, struct lt_run_spec *spec,
                           const uint32_t *idx, size_t n, int cov)
{
    lt_run_spec_alloc(spec, lt_exec_lane_suite(u->lane)->n_tests, cov);
    spec->n_files = 1;
    spec->tests = xmalloc((n + 1) * sizeof(uint32_t));
    memcpy(spec->tests, idx, n * sizeof(uint32_t));
    spec->n_tests = n;
}

/*** Stored layers ***/

/* Contract: see patches_internal.h. */
int lt__pt_load_layer(struct patches_run *r, struct unit *u,
                      struct ptext *t, const char *layer, json_t **out)
{
    char *s = NULL;
    int rc = lt_store_get_candidate_result(r->st, u->key, t->sha, layer, &s);
    if (rc < 0)
        return rc;
    if (s) {
        json_t *v = json_loads(s, 0, NULL);
        if (json_is_object(v))
            *out = v;
        else
            json_decref(v);
    }
    free(s);
    return 0;
}

/* The store writes of the run go through the executor's batches; the
 * first failure stops the run (reported when it ends). */
void lt__pt_store_layer(struct patches_run *r, struct unit *u,
                        const char *sha, const char *layer, json_t *v)
{
    if (lt_exec_write(&r->ex) < 0)
        return;
    char *s = json_dumps(v, JSON_COMPACT);
    lt_exec_wrote(&r->ex, lt_store_put_candidate_result(r->st, u->key, sha,
                                                        layer, s));
    free(s);
}

/* Contract: see patches_internal.h. */
const json_t *lt__pt_cov_of(const struct unit *u, const struct ptext *t)
{
    if (t->is_ref && u->ref_json)
        return json_object_get(u->ref_json, "cov");
    return t->l1 ? json_object_get(t->l1, "cov") : NULL;
}
