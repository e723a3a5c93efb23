/* `litmus patches`: the evidence each kind of child run gives, read from
 * the frames the pool collected (all of it hostile: a patch runs in that
 * child), and the rules that turn a text's evidence into a verdict.
 * SPDX-License-Identifier: MIT */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/jobs/patches/patches_internal.h"

#define MAX_LISTED 200     /* failing test ids kept in the evidence */
#define MAX_REPR 1000      /* characters of a repr kept */

/*** JSON helpers ***/

double lt__pe_num(const json_t *o, const char *key, double dflt)
{
    json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *lt__pe_str(const json_t *o, const char *key)
{
    json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A heap string of at most max bytes of s, cut at a UTF-8 boundary. */
static char *clip(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max)
        return xstrdup(s);
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    char *r = xmalloc(max + 4);
    memcpy(r, s, max);
    memcpy(r + max, "...", 4);
    return r;
}

static json_t *jstr_clip(const char *s, size_t max)
{
    char *c = clip(s ? s : "", max);
    json_t *v = json_string(c);
    free(c);
    /* json_string refuses invalid UTF-8: say so rather than drop it. */
    return v ? v : json_string("(not UTF-8)");
}

static double job_ms(const struct lt_run_report *j)
{
    double end = j->exited_at > 0 ? j->exited_at : lt__now();
    return (end - j->started_at) * 1000.0;
}

static const char *pool_test(const struct lt_suite *suite, long idx)
{
    if (idx < 0 || (size_t)idx >= suite->n_tests)
        return "?";
    return suite->test_ids[idx];
}

static const char *test_name(const struct unit *u, long idx)
{
    return pool_test(lt_exec_lane_suite(u->lane), idx);
}

static json_t *status_obj(const char *status, const char *detail, double ms)
{
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(status));
    json_object_set_new(o, "detail", detail ? jstr_clip(detail, 2000)
                                            : json_null());
    json_object_set_new(o, "duration_ms", json_real(ms));
    return o;
}

/*** Test runs: layer 1, held-out tests ***/

/* Where a child stopped, for a message: "during test X", "while
 * importing the patch" or "". */
static char *where(const struct lt_suite *suite, const struct lt_run_report *j)
{
    if (j->current >= 0)
        return xasprintf(" during %s", pool_test(suite, j->current));
    if (j->apply_status < 0)
        return xstrdup(" while importing the patch");
    return xstrdup("");
}

/* The detail of a candidate's test run that did not end cleanly, in the
 * patches' words: where the child was ("during test X"), the patch
 * rather than the change; NULL where the shared decision's detail says
 * it (syntax, import, protocol). */
static char *patch_detail(const struct lt_suite *suite,
                          const struct lt_run_report *j,
                          const struct lt_decision *d)
{
    int st = j->wait_status;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    char *at = where(suite, j);
    char *detail = NULL;
    switch (d->reason) {
    case LT_REASON_SYNTAX:
    case LT_REASON_IMPORT:
    case LT_REASON_PROTOCOL:
        break;
    case LT_REASON_EQUIVALENT:
        detail = xstrdup("the patch compiles to the same code as the buggy "
                         "file");
        break;
    case LT_REASON_TAMPER:
        detail = j->tamper ? xstrdup(j->tamper)
                 : j->apply_status == LT_APPLY_RAISED
                     ? xasprintf("SystemExit raised while importing the "
                                 "patch (%s)",
                                 j->apply_text ? j->apply_text : "")
                     : xasprintf("exited with status 0 before reporting "
                                 "every test%s", at);
        break;
    case LT_REASON_WALL_LIMIT:
        detail = xasprintf("did not finish%s within the wall-clock limit "
                           "of %.2f s", at, j->deadline - j->started_at);
        break;
    case LT_REASON_TEST_CPU_LIMIT:
    case LT_REASON_CPU_LIMIT:
    case LT_REASON_CPU_RLIMIT:
        detail = xasprintf("did not finish%s within the CPU budget of "
                           "%.2f s", at, j->cpu_budget_ns / 1e9);
        break;
    case LT_REASON_OUTPUT_LIMIT:
        detail = xasprintf("wrote more than %u bytes of output%s",
                           LT_OUTPUT_CAP, at);
        break;
    case LT_REASON_SIGNAL:
        detail = xasprintf("killed by signal %d (%s)%s", WTERMSIG(st),
                           strsignal(WTERMSIG(st)), at);
        break;
    case LT_REASON_NO_SANDBOX:
        detail = WIFSIGNALED(st)
                     ? xasprintf("the child died by signal %d before "
                                 "entering the sandbox", WTERMSIG(st))
                     : xasprintf("the child exited with status %d before "
                                 "entering the sandbox", code);
        break;
    case LT_REASON_NO_APPLY:
        detail = xasprintf("the child exited with status %d before the "
                           "patch was applied", code);
        break;
    default: /* exit_early: a complete run never comes here */
        detail = j->ended && code == 0
                     ? xstrdup("the child did not report every test")
                     : xasprintf("the test process exited with status "
                                 "%d%s", code, at);
        break;
    }
    free(at);
    return detail;
}

/* The status of a candidate's test run that did not end cleanly, from
 * the shared decision: the patch vocabulary of the reasons' table
 * (syntax, tamper, import_error, unchanged, timeout, crash, error) and
 * its details.  Returns a new status object. */
static json_t *early_status(const struct lt_suite *suite,
                            const struct lt_run_report *j,
                            const struct lt_decision *d, double ms)
{
    int st = j->wait_status;
    const char *status = lt_reason_patch_status(d->reason);
    /* exit_early after END and exit status 0: a result is missing or
     * doubled, an error rather than a crash (docs/verdicts.md). */
    if (d->reason == LT_REASON_EXIT_EARLY && j->ended && WIFEXITED(st) &&
        WEXITSTATUS(st) == 0)
        status = "error";
    char *detail = patch_detail(suite, j, d);
    json_t *o = status_obj(status ? status : "error",
                           detail ? detail : d->detail, ms);
    free(detail);
    return o;
}

/* The shared rule's decision (lt_verdict_decide) on an untrusted run that
 * needs every test's outcome, the test first failing being first (or
 * -1).  Returns whether the run completed: every test reported and a
 * clean end, so that its outcomes decide; the caller frees d's strings. */
static int decide_untrusted(const struct lt_suite *suite,
                            const struct lt_run_report *j,
                            long first, struct lt_decision *d)
{
    struct lt_evidence ev;
    lt__run_evidence(suite, j, &ev);
    ev.untrusted = 1;
    ev.need_all = 1;
    ev.fail_test = first >= 0 ? pool_test(suite, first) : NULL;
    ev.fail_memory = first >= 0 && j->test_outcome[first] == LT_TEST_MEMORY;
    lt_verdict_decide(&ev, d);
    lt__evidence_clear(&ev);
    /* The reasons of a complete run have no status of their own in the
     * table: the test outcomes decide it. */
    return lt_reason_patch_status(d->reason) == NULL;
}

/* Evidence of a run of tests on a candidate: layer 1 (held = 0, reason
 * fails_tests) or the held-out tests (held = 1, fails_held_out).  The
 * verdict is the shared rule's (lt_verdict_decide) for an untrusted run
 * that needs every test's outcome; what is the patches' own is which
 * outcome fails a test: a skip counts as a failure where the reference
 * (ref_skipped) does not skip.  A pass needs positive evidence: applied,
 * sandboxed, every listed test reported once and passed, END, exit
 * status 0, no guard fired. */
json_t *lt__pe_tests(const struct unit *u, const struct lt_run_report *j,
                     int held,
                     const unsigned char *ref_skipped)
{
    double ms = job_ms(j);
    json_t *failing = json_array(), *skipped = json_array();
    size_t passed = 0, n_fail = 0;
    long first = -1;
    for (size_t k = 0; j->seen && j->test_outcome && k < j->n_tests; k++) {
        uint32_t t = j->tests[k];
        if (!j->seen[t])
            continue;
        int out = j->test_outcome[t];
        if (out == LT_TEST_PASSED ||
            (out == LT_TEST_SKIPPED && ref_skipped && ref_skipped[t])) {
            passed++;
            continue;
        }
        if (out == LT_TEST_SKIPPED)
            json_array_append_new(skipped, json_string(test_name(u, t)));
        n_fail++;
        if (first < 0)
            first = t;
        if (json_array_size(failing) < MAX_LISTED)
            json_array_append_new(failing, json_string(test_name(u, t)));
    }

    struct lt_decision d;
    int complete = decide_untrusted(lt_exec_lane_suite(u->lane), j, first, &d);
    json_t *o;
    if (!complete) {
        json_decref(failing);
        json_decref(skipped);
        o = early_status(lt_exec_lane_suite(u->lane), j, &d, ms);
        /* Early ends: count the tests that did pass before it. */
        size_t before = 0;
        for (size_t k = 0; j->seen && j->test_outcome && k < j->n_tests;
             k++)
            before += j->seen[j->tests[k]] &&
                      j->test_outcome[j->tests[k]] == LT_TEST_PASSED;
        json_object_set_new(o, "tests_passed",
                            json_integer((json_int_t)before));
    } else if (n_fail) {
        const char *why = (int)first == j->fail_test && j->fail_text
                              ? j->fail_text
                              : j->test_outcome[first] == LT_TEST_SKIPPED
                                    ? "skipped (a skip counts as a failure "
                                      "where the reference does not skip)"
                                    : "failed";
        char *detail = xasprintf("%zu of %zu %stests fail; first %s: %s",
                                 n_fail, j->n_tests, held ? "held-out " : "",
                                 test_name(u, first), why);
        o = status_obj(held ? "fails_held_out" : "fails_tests", detail, ms);
        free(detail);
    } else {
        o = status_obj("pass", NULL, ms);
    }
    if (complete) {
        json_object_set_new(o, "failing", failing);
        json_object_set_new(o, "skipped", skipped);
        json_object_set_new(o, "tests_passed",
                            json_integer((json_int_t)passed));
    }
    json_object_set_new(o, "tests_total", json_integer((json_int_t)j->n_tests));
    free(d.killed_by);
    free(d.detail);
    return o;
}

/* Contract: see patches_internal.h. */
json_t *lt__pe_run_end(const struct lt_suite *suite,
                       const struct lt_run_report *j,
                       double ms)
{
    long first = -1;
    for (size_t k = 0; j->seen && j->test_outcome && k < j->n_tests; k++) {
        uint32_t t = j->tests[k];
        if (j->seen[t] && (j->test_outcome[t] == LT_TEST_FAILED ||
                           j->test_outcome[t] == LT_TEST_MEMORY)) {
            first = t;
            break;
        }
    }
    struct lt_decision d;
    int complete = decide_untrusted(suite, j, first, &d);
    json_t *o = complete ? NULL : early_status(suite, j, &d, ms);
    free(d.killed_by);
    free(d.detail);
    return o;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Per main test, in u->main_tests order: CPU ms, line events and the
 * lines of the subject it executed (mutant selection and budgets). */
json_t *lt__pe_coverage(const struct unit *u, const struct lt_run_report *j)
{
    json_t *cpu = json_array(), *events = json_array(), *lines = json_array();
    for (size_t k = 0; k < u->n_main; k++) {
        uint32_t t = u->main_tests[k];
        json_array_append_new(cpu, json_real(j->test_cpu_ns[t] / 1e6));
        const struct lt_cov_list *c =
            j->cov && t < j->n_cov ? &j->cov[t] : NULL;
        json_array_append_new(events, json_integer(
                                          c ? (json_int_t)c->line_events : 0));
        json_t *ls = json_array();
        if (c && c->n) {
            uint32_t *tmp = xmalloc(c->n * sizeof(uint32_t));
            size_t n = 0;
            for (size_t i = 0; i < c->n; i++)
                if (c->pairs[2 * i] == 0)
                    tmp[n++] = c->pairs[2 * i + 1];
            qsort(tmp, n, sizeof(uint32_t), cmp_u32);
            for (size_t i = 0; i < n; i++)
                if (i == 0 || tmp[i] != tmp[i - 1])
                    json_array_append_new(ls, json_integer(tmp[i]));
            free(tmp);
        }
        json_array_append_new(lines, ls);
    }
    json_t *o = json_object();
    json_object_set_new(o, "cpu_ms", cpu);
    json_object_set_new(o, "events", events);
    json_object_set_new(o, "lines", lines);
    return o;
}

/*** Reference runs ***/

static int is_base64(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
              (*s >= '0' && *s <= '9') || *s == '+' || *s == '/' ||
              *s == '=' || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

#define MAX_CAPTURED_BYTES (4u << 20)

/* Evidence of a run of the reference fix over the main (held = 0) or
 * held-out tests: the tests must all pass (skips are allowed and
 * recorded); the captured calls are kept for the differential jobs. */
json_t *lt__pe_reference(const struct unit *u, const struct lt_run_report *j,
                         int held, char **why)
{
    json_t *t = lt__pe_tests(u, j, held, NULL);
    const char *status = lt__pe_str(t, "status");
    *why = NULL;
    /* A skip on the reference is the suite's choice: allowed. */
    int skips_only = status && (strcmp(status, "fails_tests") == 0 ||
                                strcmp(status, "fails_held_out") == 0);
    for (size_t k = 0; skips_only && k < j->n_tests; k++) {
        uint32_t x = j->tests[k];
        if (j->test_outcome[x] != LT_TEST_PASSED &&
            j->test_outcome[x] != LT_TEST_SKIPPED)
            skips_only = 0;
    }
    if (!status || (strcmp(status, "pass") != 0 && !skips_only)) {
        const char *d = lt__pe_str(t, "detail");
        if (status && strcmp(status, "unchanged") == 0)
            *why = xstrdup("it compiles to the same code as the buggy file");
        else
            *why = xasprintf("%s%s%s", status ? status : "error",
                             d ? ": " : "", d ? d : "");
        json_decref(t);
        return NULL;
    }
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string("pass"));
    double cpu = 0, max_cpu = 0;
    json_t *skipped = json_array();
    for (size_t k = 0; k < j->n_tests; k++) {
        uint32_t x = j->tests[k];
        double c = j->test_cpu_ns[x] / 1e6;
        cpu += c;
        if (c > max_cpu)
            max_cpu = c;
        if (j->test_outcome[x] == LT_TEST_SKIPPED)
            json_array_append_new(skipped, json_integer(x));
    }
    json_object_set_new(o, "cpu_ms_total", json_real(cpu));
    json_object_set_new(o, "max_test_cpu_ms", json_real(max_cpu));
    json_object_set_new(o, "skipped_idx", skipped);
    json_object_set_new(o, "tests_total",
                        json_integer((json_int_t)j->n_tests));
    json_object_set_new(o, "duration_ms", json_real(job_ms(j)));
    json_t *calls = json_array();
    size_t bytes = 0, dropped = 0;
    for (size_t i = 0; i < j->n_calls; i++) {
        size_t n = strlen(j->calls[i]);
        if (!is_base64(j->calls[i]) || bytes + n > MAX_CAPTURED_BYTES) {
            dropped++;
            continue;
        }
        bytes += n;
        json_array_append_new(calls, json_string(j->calls[i]));
    }
    json_object_set_new(o, "calls", calls);
    json_object_set_new(o, "calls_dropped", json_integer((json_int_t)dropped));
    if (!held)
        json_object_set_new(o, "cov", lt__pe_coverage(u, j));
    json_decref(t);
    return o;
}

/*** Differential runs ***/

/* An outcome object of a witness: {"value", "repr", "type"},
 * {"exception", "repr"} (and "items_before", a generator's) or
 * {"timeout": true}; a clean copy or NULL. */
static json_t *outcome_copy(const json_t *v)
{
    if (!json_is_object(v))
        return NULL;
    json_t *o = json_object();
    json_t *x;
    if ((x = json_object_get(v, "timeout")) && json_is_true(x)) {
        json_object_set_new(o, "timeout", json_true());
        return o;
    }
    const char *exc = lt__pe_str(v, "exception");
    const char *repr = lt__pe_str(v, "repr");
    const char *type = lt__pe_str(v, "type");
    if (exc) {
        json_object_set_new(o, "exception", jstr_clip(exc, 200));
        if ((x = json_object_get(v, "items_before")) && json_is_integer(x))
            json_object_set(o, "items_before", x);
    } else if (type && json_object_get(v, "value")) {
        json_t *val = json_object_get(v, "value");
        char *dump = json_dumps(val, JSON_COMPACT | JSON_ENCODE_ANY);
        /* Big values stay as their repr only. */
        if (dump && strlen(dump) <= MAX_REPR)
            json_object_set(o, "value", val);
        else
            json_object_set_new(o, "value", json_null());
        free(dump);
        json_object_set_new(o, "type", jstr_clip(type, 100));
    } else {
        json_decref(o);
        return NULL;
    }
    if (repr)
        json_object_set_new(o, "repr", jstr_clip(repr, MAX_REPR));
    return o;
}

/* "6 (int)", "raises IndexError", "does not finish". */
static void outcome_text(struct lt_buf *b, const json_t *o)
{
    const char *exc = lt__pe_str(o, "exception");
    if (json_is_true(json_object_get(o, "timeout"))) {
        lt_buf_puts(b, "does not finish");
    } else if (exc) {
        lt_buf_printf(b, "raises %s", exc);
        /* A generator's: after how many items (runners/calls.py _force). */
        const json_t *before = json_object_get(o, "items_before");
        if (json_is_integer(before))
            lt_buf_printf(b, " after %lld item(s)",
                          (long long)json_integer_value(before));
    } else {
        const char *repr = lt__pe_str(o, "repr");
        char *dump = NULL;
        if (!repr)
            dump = json_dumps(json_object_get(o, "value"),
                              JSON_COMPACT | JSON_ENCODE_ANY);
        lt_buf_printf(b, "%s (%s)", repr ? repr : dump ? dump : "?",
                      lt__pe_str(o, "type") ? lt__pe_str(o, "type") : "?");
        free(dump);
    }
}

/* Where a compared input came from (runners/calls.py): the tests, the
 * held-out tests, --inputs, one change from one of those, another
 * combination of the objects a test built, or hypothesis. */
static const char *const origins[] = {"test", "held_out", "inputs",
                                      "derived", "objects", "generated",
                                      NULL};

/* A list of at most 32 short strings (a contract's rules), clipped; an
 * empty list for anything else. */
static json_t *strings_copy(const json_t *v)
{
    json_t *out = json_array();
    size_t i;
    const json_t *x;
    json_array_foreach(v, i, x) {
        if (i >= 32)
            break;
        if (json_is_string(x))
            json_array_append_new(out, jstr_clip(json_string_value(x), 200));
    }
    return out;
}

/* "; the WHAT after the call: reference ..., patch ..." when a record
 * gives both (an in-place difference, or one left in the module). */
static void after_text(struct lt_buf *b, const char *what, const char *ra,
                       const char *ca)
{
    if (!ra || !ca)
        return;
    char *r1 = clip(ra, 100), *c1 = clip(ca, 100);
    lt_buf_printf(b, "; the %s after the call: reference %s, patch %s",
                  what, r1, c1);
    free(r1);
    free(c1);
}

/* Copies r's {"reference", "candidate"} pair under key into o when both
 * are strings (clipped), and points *rs and *cs at them (or NULL). */
static void after_copy(json_t *o, const json_t *r, const char *key,
                       const char **rs, const char **cs)
{
    const json_t *pair = json_object_get(r, key);
    *rs = lt__pe_str(pair, "reference");
    *cs = lt__pe_str(pair, "candidate");
    if (*rs && *cs)
        json_object_set_new(o, key,
                            json_pack("{s:o, s:o}", "reference",
                                      jstr_clip(*rs, MAX_REPR), "candidate",
                                      jstr_clip(*cs, MAX_REPR)));
}

/* A validated copy of a witness record with a one-line "text", or NULL
 * when the record is malformed. */
static json_t *witness_copy(const json_t *r)
{
    const char *origin = lt__pe_str(r, "origin");
    json_t *fn = json_object_get(r, "function");
    json_t *input = json_object_get(r, "input");
    const char *repr = lt__pe_str(r, "input_repr");
    int ok_origin = 0;
    for (int i = 0; origin && origins[i]; i++)
        ok_origin |= strcmp(origin, origins[i]) == 0;
    if (!ok_origin || !(json_is_string(fn) || json_is_null(fn)) ||
        !(json_is_array(input) || json_is_null(input) || !input) || !repr)
        return NULL;
    json_t *ref = outcome_copy(json_object_get(r, "reference"));
    json_t *cand = outcome_copy(json_object_get(r, "candidate"));
    if (!ref || !cand) {
        json_decref(ref);
        json_decref(cand);
        return NULL;
    }
    json_t *o = json_object();
    json_object_set_new(o, "origin", json_string(origin));
    json_object_set_new(o, "function", json_is_string(fn)
                                           ? jstr_clip(json_string_value(fn),
                                                       200)
                                           : json_null());
    char *dump = input ? json_dumps(input, JSON_COMPACT) : NULL;
    if (dump && strlen(dump) <= 4 * MAX_REPR)
        json_object_set(o, "input", input);
    else
        json_object_set_new(o, "input", json_null());
    free(dump);
    json_object_set_new(o, "input_repr", jstr_clip(repr, MAX_REPR));
    json_object_set_new(o, "reference", ref);
    json_object_set_new(o, "candidate", cand);
    json_object_set_new(o, "contract",
                        strings_copy(json_object_get(r, "contract")));
    json_object_set_new(o, "shrunk",
                        json_boolean(json_is_true(json_object_get(r,
                                                                  "shrunk"))));
    const char *ra, *ca, *rm, *cm;
    after_copy(o, r, "arguments_after", &ra, &ca);
    /* What the call left in its module (a repository file). */
    after_copy(o, r, "module_after", &rm, &cm);
    /* The mutable argument the result is, or holds, on each side. */
    const char *rsh, *csh;
    after_copy(o, r, "result_shares", &rsh, &csh);
    struct lt_buf b = LT_BUF_INIT;
    char *short_in = clip(repr, 200);
    lt_buf_printf(&b, "%s%s%s (%s input): reference ",
                  json_is_string(fn) ? json_string_value(fn) : "",
                  json_is_string(fn) ? " on " : "input ", short_in, origin);
    free(short_in);
    outcome_text(&b, ref);
    lt_buf_puts(&b, ", patch ");
    outcome_text(&b, cand);
    after_text(&b, "arguments", ra, ca);
    after_text(&b, "module", rm, cm);
    if (rsh && csh)
        lt_buf_printf(&b, "; the result is or holds: reference %s, "
                          "patch %s", rsh, csh);
    char *text = clip(b.data, 600);
    json_object_set_new(o, "text", jstr_clip(text, 600));
    free(text);
    lt_buf_free(&b);
    return o;
}

/* The summary's other fields, validated: inputs outside the contract,
 * CPU spent and budget, the contract per function, the generator and
 * its note. */
static void summary_extras(json_t *summary, const json_t *r)
{
    const json_t *v;
    if ((v = json_object_get(r, "outside_contract")) && json_is_integer(v) &&
        json_integer_value(v) >= 0)
        json_object_set(summary, "outside_contract", (json_t *)v);
    if ((v = json_object_get(r, "inputs")) && json_is_integer(v) &&
        json_integer_value(v) >= 0)
        json_object_set(summary, "inputs", (json_t *)v);
    static const char *const nums[] = {"cpu_s", "given_cpu_s", "budget_s"};
    for (int i = 0; i < 3; i++)
        if ((v = json_object_get(r, nums[i])) && json_is_number(v) &&
            json_number_value(v) >= 0 && json_number_value(v) < 1e9)
            json_object_set_new(summary, nums[i],
                                json_real(json_number_value(v)));
    const char *g = lt__pe_str(r, "generator");
    json_object_set_new(summary, "generator", g ? jstr_clip(g, 100)
                                                : json_null());
    const char *n = lt__pe_str(r, "note");
    if (n)
        json_object_set_new(summary, "generator_note", jstr_clip(n, 600));
    json_t *contracts = json_object();
    const char *k;
    json_object_foreach((json_t *)json_object_get(r, "contracts"), k, v) {
        if (json_object_size(contracts) >= 16)
            break;
        json_object_set_new(contracts, k, strings_copy(v));
    }
    json_object_set_new(summary, "contracts", contracts);
}

/* A "slower" record: the candidate's largest slow-down on an input where
 * both agree, or NULL when malformed. */
static json_t *slower_copy(const json_t *r)
{
    const json_t *ratio = json_object_get(r, "ratio");
    const json_t *rms = json_object_get(r, "reference_ms");
    const json_t *cms = json_object_get(r, "candidate_ms");
    const char *in = lt__pe_str(r, "input_repr");
    if (!json_is_number(ratio) || !json_is_number(rms) ||
        !json_is_number(cms) || !in || !(json_number_value(ratio) >= 0) ||
        json_number_value(ratio) > 1e12)
        return NULL;
    return json_pack("{s:f, s:f, s:f, s:o, s:b}", "ratio",
                     json_number_value(ratio), "reference_ms",
                     json_number_value(rms), "candidate_ms",
                     json_number_value(cms), "input_repr",
                     jstr_clip(in, MAX_REPR), "finished",
                     !json_is_false(json_object_get(r, "finished")));
}

/* An "outside_contract" record: a difference found only on an input the
 * tests' contract excludes (never a witness), or NULL when malformed. */
static json_t *outside_copy(const json_t *r)
{
    const char *in = lt__pe_str(r, "input_repr");
    json_t *ref = outcome_copy(json_object_get(r, "reference"));
    json_t *cand = outcome_copy(json_object_get(r, "candidate"));
    if (!in || !ref || !cand) {
        json_decref(ref);
        json_decref(cand);
        return NULL;
    }
    const char *fn = lt__pe_str(r, "function");
    struct lt_buf b = LT_BUF_INIT;
    char *short_in = clip(in, 200);
    lt_buf_printf(&b, "%s%s%s: reference ", fn ? fn : "", fn ? " on " : "",
                  short_in);
    free(short_in);
    outcome_text(&b, ref);
    lt_buf_puts(&b, ", patch ");
    outcome_text(&b, cand);
    const json_t *after = json_object_get(r, "arguments_after");
    after_text(&b, "arguments", lt__pe_str(after, "reference"),
               lt__pe_str(after, "candidate"));
    char *text = clip(b.data, 600);
    lt_buf_free(&b);
    json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o}", "input_repr",
                          jstr_clip(in, MAX_REPR), "reference", ref,
                          "candidate", cand, "contract",
                          strings_copy(json_object_get(r, "contract")),
                          "text", jstr_clip(text, 600));
    free(text);
    return o;
}

/* A "type_difference" record: the first input where the patch's result
 * equals the reference's as the tests' `==` finds it (3 and 3.0, True
 * and 1) but differs in type (never a witness), or NULL when
 * malformed. */
static json_t *type_difference_copy(const json_t *r)
{
    const char *in = lt__pe_str(r, "input_repr");
    const char *what = lt__pe_str(r, "difference");
    const char *origin = lt__pe_str(r, "origin");
    json_t *ref = outcome_copy(json_object_get(r, "reference"));
    json_t *cand = outcome_copy(json_object_get(r, "candidate"));
    int known = 0;
    for (int x = 0; origin && origins[x]; x++)
        known |= strcmp(origin, origins[x]) == 0;
    if (!in || !what || !known || !ref || !cand) {
        json_decref(ref);
        json_decref(cand);
        return NULL;
    }
    const char *fn = lt__pe_str(r, "function");
    int in_args = json_is_true(json_object_get(r, "in_arguments"));
    char *short_in = clip(in, 200), *short_what = clip(what, 200);
    char *text = xasprintf("%s%s: %s%s%s (%s input)", short_what,
                           in_args ? " in the arguments after the call" : "",
                           fn ? fn : "", fn ? " on " : "input ", short_in,
                           origin);
    free(short_in);
    free(short_what);
    json_t *o = json_pack("{s:o, s:o, s:s, s:o, s:o, s:b, s:o}",
                          "input_repr", jstr_clip(in, MAX_REPR),
                          "difference", jstr_clip(what, 300),
                          "origin", origin, "reference", ref,
                          "candidate", cand, "in_arguments", in_args,
                          "text", jstr_clip(text, 600));
    free(text);
    return o;
}

/* A "summary" record: how many inputs were compared, skipped, and by
 * origin, with its extras; NULL when malformed. */
static json_t *summary_copy(const json_t *r)
{
    json_t *c = json_object_get(r, "compared");
    json_t *s = json_object_get(r, "skipped");
    json_t *by = json_object_get(r, "by_origin");
    if (!json_is_integer(c) || json_integer_value(c) < 0 ||
        (s && (!json_is_integer(s) || json_integer_value(s) < 0)) ||
        (by && !json_is_object(by)))
        return NULL;
    json_t *summary = json_object();
    json_object_set(summary, "compared", c);
    json_object_set_new(summary, "skipped",
                        json_integer(s ? json_integer_value(s) : 0));
    json_t *bo = json_object();
    const char *k;
    json_t *v;
    json_object_foreach(by, k, v) {
        for (int x = 0; origins[x]; x++)
            if (strcmp(k, origins[x]) == 0 && json_is_integer(v) &&
                json_integer_value(v) >= 0)
                json_object_set(bo, k, v);
    }
    json_object_set_new(summary, "by_origin", bo);
    summary_extras(summary, r);
    return summary;
}

/* The records of a differential run, each kept once (the first). */
struct diff_records {
    json_t *witness, *summary, *slower, *outside, *type_difference;
};

/* Reads the records a differential run sent into *dr.  0, or -1 when
 * one is malformed (hostile input: rejected, not repaired). */
static int read_records(const struct lt_run_report *j, struct diff_records *dr)
{
    int bad = 0;
    for (size_t i = 0; i < j->n_records && !bad; i++) {
        json_error_t err;
        json_t *r = json_loads(j->records[i], JSON_REJECT_DUPLICATES, &err);
        const char *type = lt__pe_str(r, "type");
        if (!json_is_object(r) || !type) {
            bad = 1;
        } else if (strcmp(type, "witness") == 0) {
            if (!dr->witness) {
                dr->witness = witness_copy(r);
                bad = !dr->witness;
            }
        } else if (strcmp(type, "summary") == 0) {
            if (dr->summary)
                bad = 1;
            else
                bad = !(dr->summary = summary_copy(r));
        } else if (strcmp(type, "slower") == 0 && !dr->slower) {
            dr->slower = slower_copy(r);
            bad = !dr->slower;
        } else if (strcmp(type, "outside_contract") == 0 && !dr->outside) {
            dr->outside = outside_copy(r);
            bad = !dr->outside;
        } else if (strcmp(type, "type_difference") == 0 &&
                   !dr->type_difference) {
            dr->type_difference = type_difference_copy(r);
            bad = !dr->type_difference;
        }
        /* Other record types are not ours to judge: ignored. */
        json_decref(r);
    }
    return bad ? -1 : 0;
}

/* A witness status made by the engine: input #idx, where the patch's
 * outcome is candidate (owned) and the reference returned; d is its
 * text. */
static json_t *probe_witness(long idx, const char *d, json_t *candidate,
                             double ms)
{
    json_t *w = json_object();
    json_object_set_new(w, "origin", json_null());
    json_object_set_new(w, "input_index", json_integer(idx));
    json_object_set_new(w, "input", json_null());
    json_object_set_new(w, "candidate", candidate);
    json_object_set_new(w, "text", json_string(d));
    json_t *o = status_obj("witness", d, ms);
    json_object_set_new(o, "witness", w);
    return o;
}

/* The status of a differential run stopped past its deadline or by the
 * probe watchdog: by the probe it was on (phase 1: an input of the
 * tests', 3: a derived one no larger, a witness; phase 2: a larger one,
 * inconclusive). */
static json_t *stuck_status(const struct lt_run_report *j, double ms)
{
    long idx = j->probe_index;
    json_t *o;
    char *d;
    if (idx >= 0 && (j->probe_phase == 1 || j->probe_phase == 3)) {
        d = xasprintf("input #%ld: the patch does not finish", idx);
        o = probe_witness(idx, d, json_pack("{s:b}", "timeout", 1), ms);
    } else if (idx >= 0 && j->probe_phase == 2) {
        /* An input larger than every test input: slower, maybe, not
         * a hang the tests could have seen. */
        d = xasprintf("the patch does not finish on input #%ld, "
                      "larger than every input of the tests (not "
                      "a witness); the inputs after it were not "
                      "compared", idx);
        o = status_obj("inconclusive", d, ms);
    } else {
        d = idx >= 0 ? xasprintf("the reference does not finish on input "
                                 "#%ld; the inputs after it were not "
                                 "compared", idx)
                     : xasprintf("the differential run did not finish "
                                 "within %.0f s",
                                 j->deadline - j->started_at);
        o = status_obj("inconclusive", d, ms);
    }
    free(d);
    return o;
}

/* The status of a differential run killed by a signal, by the probe it
 * was on (as stuck_status). */
static json_t *signal_status(const struct lt_run_report *j, double ms)
{
    int sig = WTERMSIG(j->wait_status);
    json_t *o;
    char *d;
    if (j->probe_index >= 0 && j->probe_phase == 1) {
        d = xasprintf("input #%ld: the patch crashes (signal %d) "
                      "where the reference returns", j->probe_index, sig);
        o = probe_witness(j->probe_index, d,
                          json_pack("{s:s}", "exception", "crash"), ms);
    } else if (j->probe_index >= 0 && j->probe_phase == 2) {
        d = xasprintf("the patch crashes (signal %d) on input "
                      "#%ld, larger than every input of the "
                      "tests (not a witness); the inputs after it "
                      "were not compared", sig, j->probe_index);
        o = status_obj("inconclusive", d, ms);
    } else if (j->probe_index >= 0 && j->probe_phase == 3) {
        /* Python code is killed by a signal only at a limit of the
         * child's (memory, stack): a derived input that costs the patch
         * more says nothing of its results. */
        d = xasprintf("the patch crashes (signal %d) on derived input "
                      "#%ld, at a limit of the child's (not a witness); "
                      "the inputs after it were not compared", sig,
                      j->probe_index);
        o = status_obj("inconclusive", d, ms);
    } else {
        d = xasprintf("the differential run died by signal %d", sig);
        o = status_obj("error", d, ms);
    }
    free(d);
    return o;
}

/* The status of a differential run that sent well-formed records: a
 * witness first, then how the child ended, then its summary. */
static json_t *diff_status(const struct lt_run_report *j, int probe_stuck,
                           const struct diff_records *dr, double ms)
{
    int st = j->wait_status;
    if (dr->witness) {
        json_t *o = status_obj("witness", lt__pe_str(dr->witness, "text"),
                               ms);
        json_object_set(o, "witness", dr->witness);
        return o;
    }
    if (!j->sandboxed)
        return status_obj("error", "the differential run ended before "
                          "entering the sandbox", ms);
    if (probe_stuck || j->timed_out)
        return stuck_status(j, ms);
    if (WIFSIGNALED(st))
        return signal_status(j, ms);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !j->ended)
        return status_obj("tamper", "exited with status 0 before the "
                          "differential run ended", ms);
    if (!j->ended || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *d = xasprintf("the differential run exited with status %d",
                            WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        json_t *o = status_obj("error", d, ms);
        free(d);
        return o;
    }
    if (!dr->summary)
        return status_obj("inconclusive", "the runner sent no summary of "
                          "the differential run", ms);
    if (json_integer_value(json_object_get(dr->summary, "compared")) == 0)
        return status_obj("inconclusive", "no input could be compared", ms);
    return status_obj("same", NULL, ms);
}

/* Evidence of a differential job (mode LT_RUN_CALLS).  A witness is
 * evidence against the patch whatever happened after it; "same" needs
 * the positive end: summary, END, exit 0, no guard fired. */
json_t *lt__pe_diff(const struct lt_run_report *j, int probe_stuck)
{
    double ms = job_ms(j);
    if (j->tamper)
        return status_obj("tamper", j->tamper, ms);
    if (j->protocol_error)
        return status_obj("error", "malformed result frames from the "
                          "differential run", ms);
    struct diff_records dr = {0};
    int bad = read_records(j, &dr) < 0;
    json_t *o = bad ? status_obj("error", "malformed record from the "
                                 "differential run", ms)
                    : diff_status(j, probe_stuck, &dr, ms);
    if (dr.summary)
        json_object_update(o, dr.summary);
    if (dr.slower && !bad)
        json_object_set(o, "slower", dr.slower);
    if (dr.outside && !bad && !dr.witness)
        json_object_set(o, "outside_contract_difference", dr.outside);
    if (dr.type_difference && !bad && !dr.witness)
        json_object_set(o, "type_difference", dr.type_difference);
    json_decref(dr.type_difference);
    json_decref(dr.summary);
    json_decref(dr.witness);
    json_decref(dr.slower);
    json_decref(dr.outside);
    return o;
}

/*** Mutant runs ***/

/* The verdict of one mutant of a candidate text, decided by the one rule
 * of every job (lt_verdict_decide): the guards' reports count as
 * detections, the run noticed the change.  *detail and *killed_by are
 * the caller's to free. */
enum lt_verdict lt__pe_mutant(const struct lt_suite *suite,
                              const struct lt_run_report *j,
                              char **detail, char **killed_by)
{
    struct lt_evidence ev;
    struct lt_decision d;
    lt__run_evidence(suite, j, &ev);
    lt_verdict_decide(&ev, &d);
    lt__evidence_clear(&ev);
    *detail = d.detail;
    *killed_by = d.killed_by;
    return d.verdict;
}

/*** The verdict of a patch ***/

static double score_of(const json_t *mut)
{
    json_t *s = mut ? json_object_get(mut, "score") : NULL;
    return json_is_number(s) ? json_number_value(s) : -1;
}

/* A score from a sample of the mutants (--mutation-budget) has a 95%
 * interval; the bounds of any other score are the score itself. */
static int score_sampled(const json_t *mut)
{
    return mut && json_is_true(json_object_get(mut, "sampled")) &&
           score_of(mut) >= 0;
}

static double score_bound(const json_t *mut, const char *key)
{
    double x = score_of(mut);
    return score_sampled(mut) ? lt__pe_num(mut, key, x) : x;
}

/* "sampled k of n mutants, 95% interval a-b%" for a sampled score, in
 * parentheses after a space (paren) or after a comma; "" otherwise.
 * Heap string. */
static char *sample_text(const json_t *mut, int paren)
{
    if (!score_sampled(mut))
        return xstrdup("");
    return xasprintf("%ssampled %lld of %lld mutants, 95%% interval "
                     "%.1f-%.1f%%%s", paren ? " (" : ", ",
                     (long long)lt__pe_num(mut, "mutants_run", 0),
                     (long long)lt__pe_num(mut, "mutants_total", 0),
                     score_bound(mut, "score_low") * 100,
                     score_bound(mut, "score_high") * 100, paren ? ")" : "");
}

static void note(json_t *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(json_t *notes, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    if (s)
        json_array_append_new(notes, jstr_clip(s, 2000));
    free(s);
}

static int status_is(const json_t *layer, const char *s)
{
    const char *x = lt__pe_str(layer, "status");
    return x && strcmp(x, s) == 0;
}

/* Reasons of layer 1 that make a patch invalid. */
static int invalid_reason(const char *s)
{
    static const char *const r[] = {"syntax", "tamper", "import_error",
                                    "timeout", "crash", "fails_tests",
                                    "unchanged", "too_large", NULL};
    for (int i = 0; s && r[i]; i++)
        if (strcmp(s, r[i]) == 0)
            return 1;
    return 0;
}

static void set(struct pverdict *out, const char *verdict, const char *reason,
                char *detail)
{
    out->verdict = verdict;
    out->reason = reason;
    out->detail = detail;
}


/* Whether differential testing gave thin evidence: fewer than
 * THIN_DIFF inputs compared beyond the tests' own (derived, object and
 * generated ones), or no differential run.  Only then does a mutation
 * score below the reference's decide a verdict: where many more inputs
 * agree with the reference, the gap is the suite's, a note. */
#define THIN_DIFF 10

static int diff_thin(const json_t *diff)
{
    const json_t *by = json_object_get(diff, "by_origin");
    static const char *const beyond[] = {"derived", "objects", "generated"};
    double n = 0;
    for (int i = 0; i < 3; i++)
        n += lt__pe_num(by, beyond[i], 0);
    return !status_is(diff, "same") || n < THIN_DIFF;
}

/* What the differential run adds to a verdict besides its witness: a
 * patch much slower than the reference with equal results (overfitting,
 * reason "slower", at --slower-is-overfitting FACTOR and above; else a
 * note), a difference found only outside the tests' contract (a note:
 * never grounds for overfitting), a result equal to the reference's but
 * of another type (3.0 for 3: a note), and a generator that could not
 * run.
 * 1 when it decided the verdict. */
static int diff_notes(const struct lt_patches_opts *o, const json_t *diff,
                      json_t *notes, struct pverdict *out)
{
    const json_t *slow = json_object_get(diff, "slower");
    if (slow) {
        double ratio = lt__pe_num(slow, "ratio", 0);
        char *in = clip(lt__pe_str(slow, "input_repr"), 200);
        int finished = !json_is_false(json_object_get(slow, "finished"));
        char *what = finished
            ? xasprintf("%.0fx the reference's CPU time on %s (%.1f ms "
                        "against %.3g ms) with the same result", ratio, in,
                        lt__pe_num(slow, "candidate_ms", 0),
                        lt__pe_num(slow, "reference_ms", 0))
            : xasprintf("more than %.0fx the reference's CPU time on %s, "
                        "larger than every input of the tests (it did not "
                        "finish in %.1f ms; the reference takes %.3g ms)",
                        ratio, in, lt__pe_num(slow, "candidate_ms", 0),
                        lt__pe_num(slow, "reference_ms", 0));
        free(in);
        if (o->slower_factor > 0 && ratio + 1e-9 >= o->slower_factor) {
            set(out, "overfitting", "slower",
                xasprintf("slower: the patch takes %s (--slower-is-"
                          "overfitting %.3g)", what, o->slower_factor));
            free(what);
            return 1;
        }
        note(notes, "slower: the patch takes %s", what);
        free(what);
    }
    const json_t *outside =
        json_object_get(diff, "outside_contract_difference");
    if (outside) {
        struct lt_buf b = LT_BUF_INIT;
        size_t i;
        const json_t *v;
        json_array_foreach(json_object_get(outside, "contract"), i, v)
            lt_buf_printf(&b, "%s%s", i ? ", " : "", json_string_value(v));
        note(notes, "differs from the reference only outside the contract "
             "the tests show (%s): %s", b.data ? b.data : "",
             lt__pe_str(outside, "text"));
        lt_buf_free(&b);
    }
    const json_t *typed = json_object_get(diff, "type_difference");
    if (typed && lt__pe_str(typed, "text"))
        note(notes, "differs from the reference only in type: %s",
             lt__pe_str(typed, "text"));
    const char *gen = lt__pe_str(diff, "generator_note");
    if (gen)
        note(notes, "input generation: %s", gen);
    return 0;
}
/* The evidence object of a patch's verdict: every layer's results as
 * stored, its scores ps and rs (-1: none), and its similarity. */
static json_t *evidence_of(const struct ptext *t, const struct ptext *ref,
                           double ps, double rs)
{
    json_t *ev = json_object();
    json_object_set_new(ev, "text_sha", json_string(t->sha));
    json_object_set_new(ev, "tests_passed",
                        json_integer((json_int_t)lt__pe_num(t->l1,
                                                            "tests_passed",
                                                            0)));
    json_object_set_new(ev, "tests_total",
                        json_integer((json_int_t)lt__pe_num(t->l1,
                                                            "tests_total",
                                                            0)));
    json_t *failing = t->l1 ? json_object_get(t->l1, "failing") : NULL;
    json_object_set_new(ev, "failing_tests",
                        failing ? json_incref(failing) : json_array());
    json_object_set_new(ev, "layer1", json_pack("{s:s?, s:s?}", "status",
                                                lt__pe_str(t->l1, "status"),
                                                "detail",
                                                lt__pe_str(t->l1, "detail")));
    json_object_set_new(ev, "mutation_score", ps >= 0 ? json_real(ps)
                                                      : json_null());
    json_object_set_new(ev, "reference_score", rs >= 0 ? json_real(rs)
                                                       : json_null());
    if (t->mut) {
        json_t *m = json_deep_copy(t->mut);
        json_object_del(m, "status");
        json_object_set_new(ev, "mutation", m);
    } else {
        json_object_set_new(ev, "mutation", json_null());
    }
    if (ref && ref->mut) {
        json_t *m = json_deep_copy(ref->mut);
        json_object_del(m, "status");
        json_object_set_new(ev, "reference_mutation", m);
    }
    if (t->diff) {
        json_t *d = json_deep_copy(t->diff);
        json_object_del(d, "witness");
        json_object_set_new(ev, "differential", d);
    } else {
        json_object_set_new(ev, "differential", json_null());
    }
    json_t *w = t->diff ? json_object_get(t->diff, "witness") : NULL;
    json_object_set_new(ev, "witness", w ? json_incref(w) : json_null());
    json_object_set_new(ev, "held_out", t->held ? json_deep_copy(t->held)
                                                : json_null());
    json_object_set_new(ev, "token_similarity",
                        t->sim && json_object_get(t->sim, "token")
                            ? json_incref(json_object_get(t->sim, "token"))
                            : json_null());
    json_object_set_new(ev, "ast_similarity",
                        t->sim && json_object_get(t->sim, "ast")
                            ? json_incref(json_object_get(t->sim, "ast"))
                            : json_null());
    json_object_set_new(ev, "reference", json_boolean(ref != NULL));
    return ev;
}

/* Layer 1: a text that does not pass its own tests is invalid (or an
 * error when the engine could not tell).  1 when it decided. */
static int decide_layer1(const struct ptext *t, struct pverdict *out)
{
    const char *l1s = lt__pe_str(t->l1, "status");
    const char *l1d = lt__pe_str(t->l1, "detail");
    if (!t->l1 || !l1s) {
        set(out, "error", "engine_error", xstrdup("layer 1 did not run"));
        return 1;
    }
    if (strcmp(l1s, "pass") == 0)
        return 0;
    if (invalid_reason(l1s))
        set(out, "invalid", strcmp(l1s, "too_large") == 0 ? "syntax" : l1s,
            xstrdup(l1d ? l1d : l1s));
    else
        set(out, "error", "engine_error",
            xasprintf("layer 1: %s", l1d ? l1d : l1s));
    if (strcmp(l1s, "too_large") == 0)
        out->reason = "too_large";
    return 1;
}

/* Layer 2, held-out and differential runs: tamper, a witness against
 * the reference, failed held-out tests, an engine error; else notes.
 * 1 when it decided. */
static int decide_layer2(const struct lt_patches_opts *o,
                         const struct ptext *t, json_t *notes,
                         struct pverdict *out)
{
    /* A guard firing in any later run is tamper too. */
    if (status_is(t->held, "tamper")) {
        set(out, "invalid", "tamper",
            xasprintf("held-out tests: %s", lt__pe_str(t->held, "detail")));
        return 1;
    }
    if (status_is(t->diff, "tamper")) {
        set(out, "invalid", "tamper",
            xasprintf("differential run: %s", lt__pe_str(t->diff, "detail")));
        return 1;
    }
    if (status_is(t->diff, "witness")) {
        set(out, "overfitting", "differs_from_reference",
            xstrdup(lt__pe_str(t->diff, "detail")
                        ? lt__pe_str(t->diff, "detail")
                        : "differs from the reference"));
        return 1;
    }
    if (t->held && !status_is(t->held, "pass") &&
        !status_is(t->held, "error")) {
        set(out, "overfitting", "fails_held_out",
            xasprintf("%s", lt__pe_str(t->held, "detail")
                                ? lt__pe_str(t->held, "detail")
                                : "fails held-out tests"));
        return 1;
    }
    if (status_is(t->held, "error") || status_is(t->diff, "error")) {
        set(out, "error", "engine_error",
            xasprintf("%s: %s", status_is(t->held, "error")
                                    ? "held-out tests"
                                    : "differential run",
                      lt__pe_str(status_is(t->held, "error") ? t->held
                                                             : t->diff,
                                 "detail")));
        return 1;
    }
    if (status_is(t->diff, "inconclusive"))
        note(notes, "differential testing was inconclusive: %s",
             lt__pe_str(t->diff, "detail"));
    if (t->diff && diff_notes(o, t->diff, notes, out))
        return 1;
    if (status_is(t->mut, "error"))
        note(notes, "no mutation score: %s", lt__pe_str(t->mut, "detail"));
    return 0;
}

/* The mutation scores of a patch and of its reference fix (-1: none),
 * and each one's sample as text ("" when not sampled). */
struct scores {
    double ps, rs;
    const char *ps_s, *rs_s;
};

/* Mutation scores against the reference fix's.  A sampled score blames
 * the patch only with 95% confidence: the patch's interval wholly below
 * the threshold, the reference's wholly at or above it.  1 when it
 * decided. */
static int decide_with_reference(const struct lt_patches_opts *o,
                                 const struct ptext *t,
                                 const struct ptext *ref,
                                 const struct scores *sc, json_t *notes,
                                 struct pverdict *out)
{
    double thr = o->threshold, ps = sc->ps, rs = sc->rs;
    int sure = score_bound(t->mut, "score_high") + 1e-12 < thr &&
               score_bound(ref->mut, "score_low") + 1e-12 >= thr;
    if (ps >= 0 && rs >= 0 && ps + 1e-12 < thr && rs + 1e-12 >= thr &&
        !sure) {
        note(notes, "mutation score %.1f%%%s is below the threshold "
             "%.0f%% while the reference fix scores %.1f%%%s, but the "
             "samples do not show it with 95%% confidence (a note)",
             ps * 100, sc->ps_s, thr * 100, rs * 100, sc->rs_s);
    } else if (ps >= 0 && rs >= 0 && ps + 1e-12 < thr &&
               rs + 1e-12 >= thr) {
        if (o->mutation_gate && diff_thin(t->diff)) {
            set(out, "overfitting", "weak_where_reference_is_not",
                xasprintf("mutation score %.1f%%%s is below the "
                          "threshold %.0f%% while the reference fix "
                          "scores %.1f%%%s: the suite checks the patch "
                          "less well than the reference",
                          ps * 100, sc->ps_s, thr * 100, rs * 100,
                          sc->rs_s));
            return 1;
        }
        note(notes, "mutation score %.1f%%%s is below the threshold "
             "%.0f%% while the reference fix scores %.1f%%%s: the suite "
             "checks this patch less well than the reference (a note: "
             "the differential test decides)", ps * 100, sc->ps_s,
             thr * 100, rs * 100, sc->rs_s);
    } else if (ps >= 0 && rs >= 0 && ps + 1e-12 < thr &&
               rs + 1e-12 < thr) {
        note(notes, "suite is weak: the mutation score is below %.0f%% "
             "on the patch (%.1f%%) and on the reference fix (%.1f%%), "
             "which says nothing against the patch",
             thr * 100, ps * 100, rs * 100);
    }
    return 0;
}

/* The mutation score alone (no reference fix): the research's rule, a
 * score below the threshold with 95% confidence is overfitting.  1 when
 * it decided. */
static int decide_without_reference(const struct lt_patches_opts *o,
                                    const struct ptext *t,
                                    const struct scores *sc, json_t *notes,
                                    struct pverdict *out)
{
    double thr = o->threshold, ps = sc->ps;
    if (!o->mutation) {
        note(notes, "no reference fix and --no-mutation: only the tests "
             "vouch for this patch");
        return 0;
    }
    if (ps >= 0 && ps + 1e-12 < thr &&
        score_bound(t->mut, "score_high") + 1e-12 < thr) {
        set(out, "overfitting", "low_mutation_score",
            xasprintf("mutation score %.1f%%%s is below the threshold "
                      "%.0f%%; without a reference fix this is the "
                      "research's rule (a low score may also mean a "
                      "weak suite: give --reference to tell them "
                      "apart)", ps * 100, sc->ps_s, thr * 100));
        return 1;
    }
    if (ps >= 0 && ps + 1e-12 < thr)
        note(notes, "mutation score %.1f%%%s is below the threshold "
             "%.0f%%, but the sample does not show it with 95%% "
             "confidence: no reference fix, and no verdict from the "
             "mutation score (a note)", ps * 100, sc->ps_s, thr * 100);
    else if (ps < 0 && t->mut)
        note(notes, "no valid mutant: the mutation score is undefined");
    else if (ps >= 0)
        note(notes, "no reference fix: layer 2 is the research's "
             "mutation-score rule alone (%.1f%% >= %.0f%%), without "
             "differential testing", ps * 100, thr * 100);
    return 0;
}

/* Layer 3: a passing patch nearly identical to the reference fix is
 * memorized.  1 when it decided. */
static int decide_similarity(const struct lt_patches_opts *o,
                             const struct ptext *t, const struct ptext *ref,
                             struct pverdict *out)
{
    if (!ref || !t->sim)
        return 0;
    double ts = lt__pe_num(t->sim, "token", -1);
    double as = lt__pe_num(t->sim, "ast", -1);
    if (!(ts + 1e-12 >= o->sim_threshold && as + 1e-12 >= o->sim_threshold))
        return 0;
    set(out, "memorized", "identical_to_reference",
        xasprintf("passes and is nearly identical to the reference "
                  "fix: token similarity %.3f, AST similarity %.3f "
                  "(threshold %.2f)", ts, as, o->sim_threshold));
    return 1;
}

/* The detail of a correct patch: what it passed and its scores. */
static char *passes_detail(const struct ptext *t, const struct scores *sc)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "passes %lld tests",
                  (long long)lt__pe_num(t->l1, "tests_passed", 0));
    if (t->held)
        lt_buf_printf(&b, " and %lld held-out tests",
                      (long long)lt__pe_num(t->held, "tests_passed", 0));
    if (status_is(t->diff, "same") && lt__pe_num(t->diff, "compared", 0))
        lt_buf_printf(&b, "; agrees with the reference on %lld inputs",
                      (long long)lt__pe_num(t->diff, "compared", 0));
    else if (status_is(t->diff, "same"))
        lt_buf_printf(&b, "; %s", lt__pe_str(t->diff, "detail"));
    if (sc->ps >= 0)
        lt_buf_printf(&b, "; mutation score %.1f%%%s", sc->ps * 100,
                      sc->ps_s);
    if (sc->rs >= 0)
        lt_buf_printf(&b, " (reference %.1f%%%s)", sc->rs * 100, sc->rs_s);
    return lt_buf_steal(&b);
}

/* Appends the notes to a passing verdict's detail: its caveats. */
static void detail_with_notes(struct pverdict *out, const json_t *notes)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_puts(&b, out->detail ? out->detail : "");
    size_t i;
    const json_t *v;
    json_array_foreach(notes, i, v)
        lt_buf_printf(&b, "; %s", json_string_value(v));
    free(out->detail);
    out->detail = lt_buf_steal(&b);
}

/* Decides the verdict of a patch whose text is t, from the evidence of
 * every layer (docs/patches.md, "Verdicts"): invalid > overfitting >
 * memorized > correct, and error when the engine could not decide. */
void lt__pe_decide(const struct lt_patches_opts *o, const struct unit *u,
                   const struct ptext *t, const struct ptext *ref,
                   struct pverdict *out)
{
    json_t *notes = json_array();
    int passing = 0;
    memset(out, 0, sizeof(*out));
    double ms = lt__pe_num(t->l1, "duration_ms", 0) +
                lt__pe_num(t->held, "duration_ms", 0) +
                lt__pe_num(t->diff, "duration_ms", 0) +
                lt__pe_num(t->mut, "duration_ms", 0);
    char *ps_s = sample_text(t->mut, 1);
    char *rs_s = sample_text(ref ? ref->mut : NULL, 0);
    struct scores sc = {score_of(t->mut), ref ? score_of(ref->mut) : -1,
                        ps_s, rs_s};
    json_t *ev = evidence_of(t, ref, sc.ps, sc.rs);

    if (decide_layer1(t, out) || decide_layer2(o, t, notes, out))
        goto done;
    if (ref ? decide_with_reference(o, t, ref, &sc, notes, out)
            : decide_without_reference(o, t, &sc, notes, out))
        goto done;
    passing = 1;
    if (!decide_similarity(o, t, ref, out))
        set(out, "correct", "passes", passes_detail(t, &sc));
done:
    /* A sampled score is stated with its sample wherever the verdict
     * does not already. */
    if (*ps_s && !strstr(out->detail ? out->detail : "", ps_s))
        note(notes, "mutation score %.1f%%%s", sc.ps * 100, ps_s);
    free(ps_s);
    free(rs_s);
    /* A passing verdict carries its caveats in the detail too. */
    if (passing)
        detail_with_notes(out, notes);
    json_object_set_new(ev, "notes", notes);
    out->evidence = ev;
    out->duration_ms = ms;
    (void)u;
    if (!isfinite(out->duration_ms))
        out->duration_ms = 0;
}
