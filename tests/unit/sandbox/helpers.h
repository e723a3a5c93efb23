/* Test helpers for the sandbox: fork a child, enter the sandbox, run a
 * hostile probe, report what happened to the parent.
 * SPDX-License-Identifier: MIT */
#ifndef LT_TEST_SANDBOX_HELPERS_H
#define LT_TEST_SANDBOX_HELPERS_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>

#include "sandbox/sandbox.h"

/* What the child got from lt_sandbox_enter(). */
struct child_ctx {
    int enter_rc;
    unsigned got;
    const char *scratch;
    void *arg;
};

/* Runs in the sandboxed child; returns 0 when every check held, else the
 * line of the first failed check (see CHECK). */
typedef int (*child_fn)(struct child_ctx *ctx);

/* How the child ended. */
struct child_result {
    int status;       /* waitpid() status */
    int timed_out;    /* we had to kill it */
    double seconds;   /* wall time */
    char msg[2048];   /* what it wrote through child_fail() */
};

/* The child's report pipe; valid in the child only. */
extern int child_msg_fd;

/* Child side: records a failed check and evaluates to its line. */
int child_fail(int line, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Fails the child probe unless `cond` holds. */
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond))                                                           \
            return child_fail(__LINE__, "CHECK(" #cond ") " __VA_ARGS__);      \
    } while (0)

/* Fails unless `call` returns -1 with errno `err`; prints both sides. */
#define CHECK_ERRNO(call, err)                                                 \
    do {                                                                       \
        errno = 0;                                                             \
        long r_ = (long)(call);                                                \
        int e_ = errno;                                                        \
        if (r_ != -1 || e_ != (err))                                           \
            return child_fail(__LINE__,                                        \
                              "%s: got %ld (%s), want -1 (%s)", #call, r_,     \
                              e_ ? strerror(e_) : "no error", strerror(err));  \
    } while (0)

/* Fills opts for a test: defaults, a fresh scratch dir (freed by
 * test_scratch_done) and every feature the probe promised required. */
void test_opts(struct lt_sandbox_opts *opts);
void test_scratch_done(struct lt_sandbox_opts *opts);

/* Forks; the child enters the sandbox (fn sees enter's result when
 * `raw` is set, else a failed enter fails the test) and _exits with fn's
 * value.  Returns the pid; *msg_fd receives the report pipe. */
pid_t spawn_sandboxed(const struct lt_sandbox_opts *opts, child_fn fn,
                      void *arg, int raw, int *msg_fd);

/* Waits up to `timeout_s` for `pid`, killing it on expiry. */
void wait_child(pid_t pid, int msg_fd, int timeout_s,
                struct child_result *res);

/* spawn + wait, then asserts the child exited 0 (printing its report). */
void run_ok(const struct lt_sandbox_opts *opts, child_fn fn, void *arg);

/* Skips the current test with a reason, or fails it when the environment
 * has LT_TEST_MUST_WORK=1. */
void skip_or_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Skips (or fails) unless the probe reports every feature in `need`. */
void require_features(unsigned need);

/* Test groups, one per file. */
extern const struct CMUnitTest confine_tests[];
extern const size_t confine_ntests;
extern const struct CMUnitTest fs_tests[];
extern const size_t fs_ntests;
extern const struct CMUnitTest limits_tests[];
extern const size_t limits_ntests;
extern const struct CMUnitTest procs_tests[];
extern const size_t procs_ntests;
extern const struct CMUnitTest view_tests[];
extern const size_t view_ntests;

#endif
