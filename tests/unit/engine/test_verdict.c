/* Unit tests of the one evidence -> verdict rule (lt_verdict_decide):
 * a table of what children report and the decision each must give.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/core/verdict.h"

/* Each row overrides fields of CLEAN on purpose: that is the table's
 * point, so the compiler's warning about it is off here. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#else
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

/* A clean run of two selected tests that both passed: every row starts
 * from it and changes what its case is about. */
#define CLEAN                                                               \
    .apply = LT_EV_APPLY_OK, .sandboxed = 1, .ended = 1, .n_tests = 2,      \
    .n_results = 2, .n_selected_seen = 2, .exit_code = 0,                   \
    .cpu_budget_s = 1.5, .wall_limit_s = 9, .output_cap = 1024

static const char *const also2[] = {"t::b", "t::c"};

struct row {
    const char *name;
    struct lt_evidence ev;
    enum lt_verdict verdict;
    const char *reason;
    const char *killed_by;   /* NULL: none */
    const char *detail_has;  /* substring of the detail, or NULL: none */
};

static const struct row rows[] = {
    {"clean pass", {CLEAN}, LT_VERDICT_SURVIVED, "passed", NULL, NULL},
    {"does not compile",
     {CLEAN, .apply = LT_EV_APPLY_INVALID, .apply_text = "SyntaxError"},
     LT_VERDICT_INVALID, "syntax", NULL, "SyntaxError"},
    {"equivalent code objects", {CLEAN, .apply = LT_EV_APPLY_EQUIVALENT},
     LT_VERDICT_EQUIVALENT, "equivalent", NULL, "original code objects"},
    {"import raises",
     {CLEAN, .apply = LT_EV_APPLY_RAISED, .apply_text = "ZeroDivisionError"},
     LT_VERDICT_KILLED, "import", "<module import>", "ZeroDivisionError"},
    {"invalid wins over a failing test",
     {CLEAN, .apply = LT_EV_APPLY_INVALID, .fail_test = "t::a"},
     LT_VERDICT_INVALID, "syntax", NULL, ""},
    {"a failing test kills",
     {CLEAN, .fail_test = "t::a", .fail_text = "AssertionError"},
     LT_VERDICT_KILLED, "test_failed", "t::a", "AssertionError"},
    {"MemoryError in a test",
     {CLEAN, .fail_test = "t::a", .fail_memory = 1},
     LT_VERDICT_MEMORY, "test_memory", "t::a", NULL},
    {"kill matrix lists the other failures",
     {CLEAN, .fail_test = "t::a", .fail_text = "E", .also_failed = also2,
      .n_also_failed = 2},
     LT_VERDICT_KILLED, "test_failed", "t::a", "[also failed: t::b, t::c]"},
    {"tamper wins over a failing test",
     {CLEAN, .tamper = "os._exit", .fail_test = "t::a",
      .current_test = "t::b"},
     LT_VERDICT_KILLED, "tamper", "t::b", "guard: os._exit"},
    {"tamper wins over a timeout",
     {CLEAN, .tamper = "sys.modules", .timed_out = 1, .cpu_over = 1},
     LT_VERDICT_KILLED, "tamper", NULL, "guard: sys.modules"},
    {"a failure wins over a later timeout (first failure stops)",
     {CLEAN, .fail_test = "t::a", .timed_out = 1, .current_test = "t::b"},
     LT_VERDICT_KILLED, "test_failed", "t::a", NULL},
    {"one test over its own budget",
     {CLEAN, .timed_out = 1, .cpu_over = 1, .test_over_s = 0.25,
      .current_test = "t::b", .ended = 0, .signal = SIGKILL,
      .exit_code = -1},
     LT_VERDICT_TIMEOUT, "test_cpu_limit", "t::b", "0.25 s for one test"},
    {"the run over its CPU budget",
     {CLEAN, .timed_out = 1, .cpu_over = 1, .current_test = "t::a",
      .signal = SIGKILL, .exit_code = -1},
     LT_VERDICT_TIMEOUT, "cpu_limit", "t::a", "CPU time limit of 1.50 s"},
    {"wall-clock limit (a sleeper)",
     {CLEAN, .timed_out = 1, .current_test = "t::a", .signal = SIGKILL,
      .exit_code = -1},
     LT_VERDICT_TIMEOUT, "wall_limit", "t::a", "wall-clock limit of 9.00 s"},
    {"RLIMIT_CPU's SIGXCPU",
     {CLEAN, .signal = SIGXCPU, .exit_code = -1, .current_test = "t::a"},
     LT_VERDICT_TIMEOUT, "cpu_rlimit", "t::a", "CPU time limit"},
    {"output over the cap names the running test",
     {CLEAN, .output_overflow = 1, .current_test = "t::a",
      .signal = SIGKILL, .exit_code = -1},
     LT_VERDICT_CRASHED, "output_limit", "t::a", "1024 bytes"},
    {"a timeout wins over an output overflow",
     {CLEAN, .output_overflow = 1, .timed_out = 1},
     LT_VERDICT_TIMEOUT, "wall_limit", NULL, NULL},
    {"malformed frames are an engine error, never a kill",
     {CLEAN, .protocol_error = 1, .signal = SIGSEGV, .exit_code = -1},
     LT_VERDICT_ERROR, "protocol", NULL, "malformed"},
    {"died before the sandbox",
     {CLEAN, .sandboxed = 0, .apply = LT_EV_APPLY_NONE, .ended = 0,
      .n_results = 0, .n_selected_seen = 0, .signal = SIGSEGV,
      .exit_code = -1},
     LT_VERDICT_ERROR, "no_sandbox", NULL, "signal 11"},
    {"exited before the sandbox",
     {CLEAN, .sandboxed = 0, .ended = 0, .exit_code = 71},
     LT_VERDICT_ERROR, "no_sandbox", NULL, "status 71"},
    {"a signal in the sandbox crashes",
     {CLEAN, .ended = 0, .n_results = 1, .n_selected_seen = 1,
      .current_test = "t::b", .signal = SIGSEGV, .exit_code = -1},
     LT_VERDICT_CRASHED, "signal", "t::b", "signal 11"},
    {"sandboxed, never applied, clean exit",
     {CLEAN, .apply = LT_EV_APPLY_NONE, .ended = 0, .n_results = 0,
      .n_selected_seen = 0, .exit_code = 0},
     LT_VERDICT_ERROR, "no_apply", NULL, "before applying"},
    {"exit(0) in the middle of a test",
     {CLEAN, .ended = 0, .n_results = 1, .n_selected_seen = 1,
      .current_test = "t::b", .exit_code = 0},
     LT_VERDICT_KILLED, "exit_early", "t::b", "status 0"},
    {"END but a test result missing",
     {CLEAN, .n_results = 1, .n_selected_seen = 1},
     LT_VERDICT_KILLED, "exit_early", NULL, "before reporting every test"},
    {"a test reported twice, another never",
     {CLEAN, .n_results = 2, .n_selected_seen = 1},
     LT_VERDICT_KILLED, "exit_early", NULL, NULL},
    {"END then a non-zero exit",
     {CLEAN, .exit_code = 1}, LT_VERDICT_KILLED, "exit_early", NULL,
     "status 1"},
    {"a test left running at END",
     {CLEAN, .current_test = "t::a"}, LT_VERDICT_KILLED, "exit_early",
     "t::a", NULL},
    {"need_all: a failure in a complete run",
     {CLEAN, .need_all = 1, .fail_test = "t::a"},
     LT_VERDICT_KILLED, "test_failed", "t::a", NULL},
    {"need_all: a failure then a timeout is a timeout",
     {CLEAN, .need_all = 1, .fail_test = "t::a", .timed_out = 1,
      .current_test = "t::b"},
     LT_VERDICT_TIMEOUT, "wall_limit", "t::b", NULL},
    {"need_all: a failure then exit() is not complete",
     {CLEAN, .need_all = 1, .fail_test = "t::a", .ended = 0,
      .n_results = 1, .n_selected_seen = 1},
     LT_VERDICT_KILLED, "exit_early", NULL, NULL},
    {"tamper wins over an import that raised",
     {CLEAN, .apply = LT_EV_APPLY_RAISED, .apply_text = "ValueError",
      .tamper = "sys.modules"},
     LT_VERDICT_KILLED, "tamper", NULL, "guard: sys.modules"},
    {"untrusted: SystemExit at import fakes an end",
     {CLEAN, .untrusted = 1, .apply = LT_EV_APPLY_RAISED,
      .apply_text = "SystemExit: 0", .sandboxed = 1},
     LT_VERDICT_KILLED, "tamper", NULL, "SystemExit: 0"},
    {"untrusted: KeyboardInterrupt at import too",
     {CLEAN, .untrusted = 1, .apply = LT_EV_APPLY_RAISED,
      .apply_text = "KeyboardInterrupt"},
     LT_VERDICT_KILLED, "tamper", NULL, "KeyboardInterrupt"},
    {"trusted: SystemExit at import is a kill at import",
     {CLEAN, .apply = LT_EV_APPLY_RAISED, .apply_text = "SystemExit: 0"},
     LT_VERDICT_KILLED, "import", "<module import>", "SystemExit"},
    {"untrusted: exit(0) before END is tamper",
     {CLEAN, .untrusted = 1, .need_all = 1, .ended = 0, .n_results = 1,
      .n_selected_seen = 1, .current_test = "t::b", .exit_code = 0},
     LT_VERDICT_KILLED, "tamper", "t::b", "status 0 before reporting"},
    {"untrusted: exit(0) while importing, before APPLIED, is tamper",
     {CLEAN, .untrusted = 1, .apply = LT_EV_APPLY_NONE, .ended = 0,
      .n_results = 0, .n_selected_seen = 0, .exit_code = 0},
     LT_VERDICT_KILLED, "tamper", NULL, NULL},
    {"untrusted: a non-zero exit before END is early, not tamper",
     {CLEAN, .untrusted = 1, .ended = 0, .n_results = 1,
      .n_selected_seen = 1, .exit_code = 3},
     LT_VERDICT_KILLED, "exit_early", NULL, "status 3"},
    {"untrusted: a timeout wins over malformed frames",
     {CLEAN, .untrusted = 1, .timed_out = 1, .protocol_error = 1,
      .signal = SIGKILL, .exit_code = -1},
     LT_VERDICT_TIMEOUT, "wall_limit", NULL, NULL},
    {"untrusted, need_all: complete with a failure",
     {CLEAN, .untrusted = 1, .need_all = 1, .fail_test = "t::a"},
     LT_VERDICT_KILLED, "test_failed", "t::a", NULL},
    {"no test selected, clean END",
     {CLEAN, .n_tests = 0, .n_results = 0, .n_selected_seen = 0},
     LT_VERDICT_SURVIVED, "passed", NULL, NULL},
};

static void check_row(const struct row *r)
{
    struct lt_decision d;
    lt_verdict_decide(&r->ev, &d);
    if (d.verdict != r->verdict)
        fail_msg("%s: verdict %s, expected %s", r->name,
                 lt_verdict_name(d.verdict), lt_verdict_name(r->verdict));
    if (strcmp(lt_reason_name(d.reason), r->reason) != 0 ||
        lt_reason_from_name(r->reason) != d.reason)
        fail_msg("%s: reason '%s', expected '%s'", r->name,
                 lt_reason_name(d.reason), r->reason);
    if (d.verdict != lt_reason_verdict(d.reason))
        fail_msg("%s: verdict %s, the table's for %s is %s", r->name,
                 lt_verdict_name(d.verdict), lt_reason_name(d.reason),
                 lt_verdict_name(lt_reason_verdict(d.reason)));
    if (!r->killed_by != !d.killed_by ||
        (r->killed_by && strcmp(r->killed_by, d.killed_by) != 0))
        fail_msg("%s: killed_by '%s', expected '%s'", r->name,
                 d.killed_by ? d.killed_by : "(null)",
                 r->killed_by ? r->killed_by : "(null)");
    if (r->detail_has && (!d.detail || !strstr(d.detail, r->detail_has)))
        fail_msg("%s: detail '%s' lacks '%s'", r->name,
                 d.detail ? d.detail : "(null)", r->detail_has);
    if (r->verdict == LT_VERDICT_SURVIVED && d.detail)
        fail_msg("%s: a pass with detail '%s'", r->name, d.detail);
    free(d.killed_by);
    free(d.detail);
}

static void test_table(void **state)
{
    (void)state;
    assert_true(sizeof(rows) / sizeof(*rows) >= 20);
    for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
        check_row(&rows[i]);
}

/* Only runs the tests noticed count as detections: an engine error never
 * raises the score, whatever the evidence. */
static void test_error_never_detected(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
        struct lt_decision d;
        lt_verdict_decide(&rows[i].ev, &d);
        if (d.verdict == LT_VERDICT_ERROR)
            assert_false(lt_verdict_is_detected(d.verdict));
        free(d.killed_by);
        free(d.detail);
    }
}

/*** The reasons' table ***/

/* Every reason, what the table must give for it: the verdict, the
 * patches and dataset status names (docs/verdicts.md, "Jobs"; NULL
 * patch status: a complete run) and its detail on EV below. */
struct reason_row {
    enum lt_reason reason;
    const char *name;
    enum lt_verdict verdict;
    const char *patch_status, *ds_status;
    const char *detail;       /* exactly, or NULL: none */
};

static const struct reason_row reason_rows[] = {
    {LT_REASON_NONE, "none", LT_VERDICT_PENDING, "error", "error", NULL},
    {LT_REASON_SYNTAX, "syntax", LT_VERDICT_INVALID, "syntax", "invalid",
     "SyntaxError: x"},
    {LT_REASON_TAMPER, "tamper", LT_VERDICT_KILLED, "tamper", "tamper",
     "exited with status 0 before reporting every test"},
    {LT_REASON_EQUIVALENT, "equivalent", LT_VERDICT_EQUIVALENT, "unchanged",
     "equivalent", "compiles to the original code objects"},
    {LT_REASON_IMPORT, "import", LT_VERDICT_KILLED, "import_error", "raised",
     "SyntaxError: x"},
    {LT_REASON_TEST_FAILED, "test_failed", LT_VERDICT_KILLED, NULL, "failed",
     "AssertionError [also failed: t::b, t::c]"},
    {LT_REASON_TEST_MEMORY, "test_memory", LT_VERDICT_MEMORY, NULL, "failed",
     "AssertionError [also failed: t::b, t::c]"},
    {LT_REASON_TEST_CPU_LIMIT, "test_cpu_limit", LT_VERDICT_TIMEOUT,
     "timeout", "timeout", "CPU time limit of 0.25 s for one test"},
    {LT_REASON_CPU_LIMIT, "cpu_limit", LT_VERDICT_TIMEOUT, "timeout",
     "timeout", "CPU time limit of 1.50 s"},
    {LT_REASON_WALL_LIMIT, "wall_limit", LT_VERDICT_TIMEOUT, "timeout",
     "timeout", "wall-clock limit of 9.00 s"},
    {LT_REASON_CPU_RLIMIT, "cpu_rlimit", LT_VERDICT_TIMEOUT, "timeout",
     "timeout", "CPU time limit"},
    {LT_REASON_OUTPUT_LIMIT, "output_limit", LT_VERDICT_CRASHED, "crash",
     "crashed", "output limit of 1024 bytes exceeded"},
    {LT_REASON_PROTOCOL, "protocol", LT_VERDICT_ERROR, "error", "error",
     "malformed result frames from the child"},
    {LT_REASON_NO_SANDBOX, "no_sandbox", LT_VERDICT_ERROR, "error", "error",
     "child died by signal 11 before the tests"},
    {LT_REASON_SIGNAL, "signal", LT_VERDICT_CRASHED, "crash", "crashed",
     "killed by signal 11 (Segmentation fault)"},
    {LT_REASON_NO_APPLY, "no_apply", LT_VERDICT_ERROR, "error", "error",
     "child exited with status 3 before applying the change"},
    {LT_REASON_PASSED, "passed", LT_VERDICT_SURVIVED, NULL, "passed", NULL},
    {LT_REASON_EXIT_EARLY, "exit_early", LT_VERDICT_KILLED, "crash",
     "crashed", "the process exited with status 3 before reporting every "
     "test"},
};

static int same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

#define OR_NULL(s) ((s) ? (s) : "(null)")

/* Each reason's row of the table, one by one. */
static void test_reason_table(void **state)
{
    (void)state;
    const struct lt_evidence ev = {
        CLEAN, .apply_text = "SyntaxError: x", .fail_text = "AssertionError",
        .also_failed = also2, .n_also_failed = 2, .test_over_s = 0.25,
        .exit_code = 3, .signal = SIGSEGV};
    size_t n = sizeof(reason_rows) / sizeof(*reason_rows);
    assert_int_equal(n, LT_REASON__COUNT);
    for (size_t i = 0; i < n; i++) {
        const struct reason_row *r = &reason_rows[i];
        assert_int_equal(r->reason, (int)i);
        if (strcmp(lt_reason_name(r->reason), r->name) != 0 ||
            lt_reason_verdict(r->reason) != r->verdict ||
            !same(lt_reason_patch_status(r->reason), r->patch_status) ||
            !same(lt_reason_ds_status(r->reason), r->ds_status))
            fail_msg("%s: table gives %s %s/%s/%s, expected %s %s/%s/%s",
                     r->name, lt_reason_name(r->reason),
                     lt_verdict_name(lt_reason_verdict(r->reason)),
                     OR_NULL(lt_reason_patch_status(r->reason)),
                     lt_reason_ds_status(r->reason), r->name,
                     lt_verdict_name(r->verdict), OR_NULL(r->patch_status),
                     r->ds_status);
        char *detail = lt_reason_detail(r->reason, &ev);
        if (!same(detail, r->detail))
            fail_msg("%s: detail '%s', expected '%s'", r->name,
                     OR_NULL(detail), OR_NULL(r->detail));
        free(detail);
    }
}

/* The tamper detail of each of its three rules, and no_sandbox's after
 * an exit. */
static void test_reason_detail_variants(void **state)
{
    (void)state;
    static const struct {
        enum lt_reason reason;
        struct lt_evidence ev;
        const char *detail;
    } v[] = {
        {LT_REASON_TAMPER, {CLEAN, .tamper = "sys.modules"},
         "guard: sys.modules"},
        {LT_REASON_TAMPER,
         {CLEAN, .apply = LT_EV_APPLY_RAISED, .apply_text = "SystemExit: 0"},
         "raised SystemExit: 0 while being imported"},
        {LT_REASON_TAMPER, {CLEAN, .apply = LT_EV_APPLY_NONE},
         "exited with status 0 before reporting every test"},
        {LT_REASON_NO_SANDBOX, {CLEAN, .exit_code = 71},
         "child exited with status 71 before the tests"},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
        char *detail = lt_reason_detail(v[i].reason, &v[i].ev);
        if (!same(detail, v[i].detail))
            fail_msg("%s #%zu: detail '%s', expected '%s'",
                     lt_reason_name(v[i].reason), i, OR_NULL(detail),
                     v[i].detail);
        free(detail);
    }
}

/* A stored name reads back as the reason that wrote it; anything else is
 * none, and values outside the enum print as none. */
static void test_reason_names_round_trip(void **state)
{
    (void)state;
    for (int r = 0; r < LT_REASON__COUNT; r++) {
        const char *name = lt_reason_name((enum lt_reason)r);
        assert_non_null(name);
        assert_int_equal(lt_reason_from_name(name), r);
        for (int q = 0; q < r; q++)
            assert_string_not_equal(name,
                                    lt_reason_name((enum lt_reason)q));
    }
    assert_int_equal(lt_reason_from_name(NULL), LT_REASON_NONE);
    assert_int_equal(lt_reason_from_name(""), LT_REASON_NONE);
    assert_int_equal(lt_reason_from_name("Passed"), LT_REASON_NONE);
    assert_int_equal(lt_reason_from_name("passed "), LT_REASON_NONE);
    assert_string_equal(lt_reason_name(LT_REASON__COUNT), "none");
    assert_string_equal(lt_reason_name((enum lt_reason)-1), "none");
    assert_null(lt_reason_detail(LT_REASON__COUNT, NULL));
}

/* The job's status names agree with the verdict where the jobs branch on
 * one for the other: a dataset "timeout" is exactly the timeout verdict
 * (dataset_java.c), "passed" exactly the reason passed (dataset_exec.c);
 * only the reasons of a complete run lack a patch status
 * (patches_eval.c). */
static void test_reason_statuses_agree(void **state)
{
    (void)state;
    for (int i = 0; i < LT_REASON__COUNT; i++) {
        enum lt_reason r = (enum lt_reason)i;
        assert_int_equal(strcmp(lt_reason_ds_status(r), "timeout") == 0,
                         lt_reason_verdict(r) == LT_VERDICT_TIMEOUT);
        assert_int_equal(strcmp(lt_reason_ds_status(r), "passed") == 0,
                         r == LT_REASON_PASSED);
        assert_int_equal(lt_reason_patch_status(r) == NULL,
                         r == LT_REASON_PASSED ||
                             r == LT_REASON_TEST_FAILED ||
                             r == LT_REASON_TEST_MEMORY);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_error_never_detected),
        cmocka_unit_test(test_reason_table),
        cmocka_unit_test(test_reason_detail_variants),
        cmocka_unit_test(test_reason_names_round_trip),
        cmocka_unit_test(test_reason_statuses_agree),
    };
    return cmocka_run_group_tests_name("engine_verdict", tests, NULL, NULL);
}
