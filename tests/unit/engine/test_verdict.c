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
    if (!d.reason || strcmp(d.reason, r->reason) != 0)
        fail_msg("%s: reason '%s', expected '%s'", r->name,
                 d.reason ? d.reason : "(null)", r->reason);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_error_never_detected),
    };
    return cmocka_run_group_tests_name("engine_verdict", tests, NULL, NULL);
}
