/* Untrusted runs through a real zygote, on the patch corpus: the guards
 * catch every harness-gaming candidate, honest candidates pass with no
 * guard firing, the reference run captures the tests' calls, and the
 * differential job finds a witness for overfitting candidates only.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exit.h"
#include "engine/core/exec.h"
#include "engine/core/pool.h"
#include "runners/runner.h"

#define UNTRUSTED_LAYER1 (LT_RUN_UNTRUSTED | LT_RUN_GUARD_EACH | \
                          LT_RUN_CHECK_EQ | LT_RUN_COVERAGE)

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = xmalloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    if (len)
        *len = got;
    return s;
}

struct program {
    struct lt_exec ex;
    struct lt_lane *lane;
    char *dir, *buggy_path, *buggy;
    size_t buggy_len;
    char scratch[64];
    struct lt_subject subject;
    char *args[2];
    /* The job of run(): what it asks, and the finished run. */
    int mode;
    const char *text, *extra;
    unsigned flags;
    double timeout;
    struct job job;
};

static void program_open(struct program *p, const char *name)
{
    memset(p, 0, sizeof(*p));
    p->dir = xasprintf("%s/%s", LT_TEST_CORPUS, name);
    p->buggy_path = xasprintf("%s/%s.py", p->dir, name);
    p->buggy = slurp(p->buggy_path, &p->buggy_len);
    assert_non_null(p->buggy);
    snprintf(p->scratch, sizeof(p->scratch), "/tmp/lt-untrusted-XXXXXX");
    assert_non_null(mkdtemp(p->scratch));
    p->subject = (struct lt_subject){p->buggy_path, p->buggy, p->buggy_len};
    p->args[0] = xasprintf("%s/test_%s.py", p->dir, name);
    struct lt_runner_config cfg = {
        .exe = LT_TEST_LITMUS, .cwd = p->dir, .scratch_base = p->scratch,
        .pytest_args = p->args, .n_pytest_args = 1,
        .subjects = &p->subject, .n_subjects = 1};
    lt_exec_init(&p->ex, 1);
    p->ex.owner = p;
    p->lane = lt_exec_lane(&p->ex, &cfg, NULL, p);
    assert_int_equal(lt_exec_warm(&p->ex, p->lane, 1), 0);
    assert_int_equal(lt_exec_wait_ready(&p->ex, p->lane), 0);
    assert_int_equal(p->lane->live, 1);
}

static void program_close(struct program *p)
{
    lt_exec_close(&p->ex);
    rmdir(p->scratch);
    free(p->dir);
    free(p->buggy_path);
    free(p->buggy);
    free(p->args[0]);
}

static int run_prepare(struct lt_exec *ex, struct lt_task *t,
                       struct lt_launch *la)
{
    struct program *p = ex->owner;
    size_t nt = t->lane->pool.n_tests;
    (void)t;
    la->spec.n_tests = nt;
    la->spec.tests = xcalloc(nt + 1, sizeof(uint32_t));
    for (size_t i = 0; i < nt; i++)
        la->spec.tests[i] = (uint32_t)i;
    lt_run_spec_alloc(&la->spec, nt, (p->flags & LT_RUN_COVERAGE) != 0);
    la->req = (struct lt_run_request){
        .mode = (enum lt_run_mode)p->mode, .start = 0, .end = p->buggy_len,
        .replacement = p->text ? p->text : "", .stop_first = 0,
        .cpu_seconds = 30, .memory_bytes = 0, .flags = p->flags,
        .extra = p->extra};
    la->wall = p->timeout;
    return 0;
}

static void run_finished(struct lt_exec *ex, struct lt_task *t,
                         const struct lt_run_report *j)
{
    struct program *p = ex->owner;
    (void)t;
    lt__job_move(&p->job, lt__job_of(j)); /* the executor resets j next */
}

static void run_lost(struct lt_exec *ex, struct lt_task *t, const char *why)
{
    (void)ex;
    (void)t;
    fail_msg("the job was lost: %s", why);
}

static const struct lt_task_ops run_ops = {
    .prepare = run_prepare, .finished = run_finished, .lost = run_lost};

/* Runs one job to its end on the program's zygote; the caller reads the
 * returned job and resets it. */
static struct job *run(struct program *p, int mode, const char *text,
                       unsigned flags, const char *extra, double timeout)
{
    p->mode = mode;
    p->text = text;
    p->flags = flags;
    p->extra = extra;
    p->timeout = timeout;
    memset(&p->job, 0, sizeof(p->job));
    p->job.result_fd = p->job.out_fd = p->job.pidfd = -1;
    struct lt_task t = {.ops = &run_ops, .lane = p->lane, .owner = p};
    lt_exec_submit(&p->ex, &t);
    assert_int_equal(lt_exec_run(&p->ex), 0);
    assert_int_equal(p->ex.retries, 0);
    return &p->job;
}

static int passed_all(const struct job *j)
{
    return j->ended && WIFEXITED(j->wait_status) &&
           WEXITSTATUS(j->wait_status) == 0 && j->fail_test < 0 &&
           (size_t)j->n_results == j->n_tests && !j->tamper &&
           j->apply_status == 0 && j->sandboxed;
}

static char *candidate(const struct program *p, const char *run_id)
{
    char *path = xasprintf("%s/patches/%s.py", p->dir, run_id);
    char *s = slurp(path, NULL);
    free(path);
    assert_non_null(s);
    return s;
}

static char *reference(const struct program *p, const char *name)
{
    char *path = xasprintf("%s/reference/%s.py", p->dir, name);
    char *s = slurp(path, NULL);
    free(path);
    assert_non_null(s);
    return s;
}

/* Expectation for one candidate from expected.json. */
static char *expected(const struct program *p, const char *run_id,
                      const char *field)
{
    char *path = xasprintf("%s/expected.json", p->dir);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    free(path);
    assert_non_null(root);
    const char *v = json_string_value(
        json_object_get(json_object_get(root, run_id), field));
    char *out = v ? xstrdup(v) : NULL;
    json_decref(root);
    return out;
}

static const char *const programs[] = {
    "gcd", "bitcount", "kth", "knapsack", "levenshtein", "next_permutation",
    "sieve", "breadth_first_search", "quicksort", "hanoi",
    "max_sublist_sum", "lis", NULL,
};

/* Every tamper candidate fires a guard (or exits 0 without END); the
 * passing ones (correct, memorized, overfitting) of every other program
 * pass with no guard (t0200 runs every one of them end to end). */
static void test_layer1_corpus(void **state)
{
    (void)state;
    int checked = 0;
    for (int k = 0; programs[k]; k++) {
        struct program p;
        program_open(&p, programs[k]);
        for (int r = 1; r <= 7; r++) {
            char run_id[16];
            snprintf(run_id, sizeof(run_id), "run%d", r);
            char *verdict = expected(&p, run_id, "verdict");
            if (!verdict)
                continue;
            char *reason = expected(&p, run_id, "reason");
            if (strcmp(reason, "timeout") == 0 ||
                (k % 2 && strcmp(reason, "tamper") != 0)) {
                free(verdict);
                free(reason);
                continue; /* exercised by the engine's tests */
            }
            char *text = candidate(&p, run_id);
            struct job *j = run(&p, LT_RUN_MUTANT, text, UNTRUSTED_LAYER1,
                                NULL, 20);
            int exit0_no_end = WIFEXITED(j->wait_status) &&
                               WEXITSTATUS(j->wait_status) == 0 && !j->ended;
            if (strcmp(reason, "tamper") == 0) {
                print_message("%s %s: %s\n", programs[k], run_id,
                              j->tamper ? j->tamper : "exit 0 before END");
                if (!j->tamper && !exit0_no_end)
                    fail_msg("%s %s: tamper not detected (status 0x%x, "
                             "results %d)", programs[k], run_id,
                             j->wait_status, j->n_results);
            } else if (strcmp(verdict, "invalid") != 0) {
                if (!passed_all(j))
                    fail_msg("%s %s: honest candidate did not pass "
                             "(tamper: %s, fail: %d %s, status 0x%x, timed_out %d proto %d killed %d applied %d, out %.*s)",
                             programs[k], run_id,
                             j->tamper ? j->tamper : "-", j->fail_test,
                             j->fail_text ? j->fail_text : "",
                             j->wait_status, j->timed_out, j->protocol_error, j->killed_by_us, j->apply_status, (int)j->output.len, j->output.data ? j->output.data : "");
            } else if (j->tamper) {
                fail_msg("%s %s: guard fired on a non-tamper candidate: %s",
                         programs[k], run_id, j->tamper);
            }
            checked++;
            lt__job_reset(j);
            free(text);
            free(verdict);
            free(reason);
        }
        program_close(&p);
    }
    assert_true(checked > 40);
}

/* The reference run captures the tests' calls; the differential job
 * reports a witness for an overfitting candidate and none for a correct
 * one. */
static void test_capture_and_diff(void **state)
{
    (void)state;
    const char *const *names = programs;
    for (int k = 0; names[k]; k++) {
        struct program p;
        program_open(&p, names[k]);
        char *ref = reference(&p, names[k]);
        struct job *j = run(&p, LT_RUN_MUTANT, ref,
                            UNTRUSTED_LAYER1 | LT_RUN_CAPTURE, NULL, 20);
        assert_true(passed_all(j));
        assert_true(j->n_calls > 0);
        json_t *captured = json_array(), *origin = json_array();
        for (size_t i = 0; i < j->n_calls; i++) {
            json_array_append_new(captured, json_string(j->calls[i]));
            json_array_append_new(origin, json_string("test"));
        }
        lt__job_reset(j);
        for (int r = 1; r <= 3; r++) {
            char run_id[16];
            snprintf(run_id, sizeof(run_id), "run%d", r);
            char *verdict = expected(&p, run_id, "verdict");
            char *text = candidate(&p, run_id);
            json_t *job = json_pack(
                "{s:s, s:s, s:s, s:s, s:s, s:O, s:O, s:[], s:b, s:f, s:i, "
                "s:f, s:b}",
                "kind", "diff", "module", names[k], "path", p.buggy_path,
                "reference", ref, "candidate", text, "captured", captured,
                "captured_origin", origin, "inputs", "derive", 1,
                "call_timeout", 0.5, "max_inputs", 3000,
                /* A quarter second of derived inputs, no generated ones
                 * (t0207 and t0208 test those): enough for the corpus's
                 * witnesses, and quick under the sanitizers. */
                "budget", 0.25, "generate", 0);
            char *extra = json_dumps(job, JSON_COMPACT);
            j = run(&p, LT_RUN_CALLS, NULL,
                    LT_RUN_UNTRUSTED | LT_RUN_CHECK_EQ, extra, 60);
            int witness = 0, summary = 0;
            for (size_t i = 0; i < j->n_records; i++) {
                json_t *rec = json_loads(j->records[i], 0, NULL);
                const char *type = json_string_value(
                    json_object_get(rec, "type"));
                witness += type && strcmp(type, "witness") == 0;
                summary += type && strcmp(type, "summary") == 0;
                json_decref(rec);
            }
            if (summary != 1 || !j->ended)
                fail_msg("%s %s: differential job did not finish "
                         "(status 0x%x, records %zu, tamper %s, out %.*s)",
                         names[k], run_id, j->wait_status, j->n_records,
                         j->tamper ? j->tamper : "-", (int)j->output.len,
                         j->output.data ? j->output.data : "");
            int want = strcmp(verdict, "overfitting") == 0;
            if (want)
                for (size_t i = 0; i < j->n_records; i++)
                    print_message("%s %s: %.300s\n", names[k], run_id,
                                  j->records[i]);
            if (witness != want)
                fail_msg("%s %s (%s): %d witness records", names[k], run_id,
                         verdict, witness);
            lt__job_reset(j);
            free(extra);
            json_decref(job);
            free(text);
            free(verdict);
        }
        json_decref(captured);
        json_decref(origin);
        free(ref);
        program_close(&p);
    }
}

int main(void)
{
    lt_engine_set_exe(LT_TEST_LITMUS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layer1_corpus),
        cmocka_unit_test(test_capture_and_diff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
