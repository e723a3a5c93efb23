/* Fork-and-report helpers for the sandbox tests, and the test main().
 * SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/xmalloc.h"

int child_msg_fd = -1;

int child_fail(int line, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(buf, sizeof(buf), "line %d: ", line);
    vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
    va_end(ap);
    if (child_msg_fd >= 0)
        dprintf(child_msg_fd, "%s\n", buf);
    return line ? line : 1;
}

void test_opts(struct lt_sandbox_opts *opts)
{
    lt_sandbox_opts_init(opts);
    opts->scratch_dir = lt_sandbox_scratch_new(NULL);
    assert_non_null(opts->scratch_dir);
    opts->cpu_seconds = 20;
    opts->required = lt_sandbox_probe();
}

void test_scratch_done(struct lt_sandbox_opts *opts)
{
    if (!opts->scratch_dir)
        return;
    assert_int_equal(lt_sandbox_scratch_remove(opts->scratch_dir), 0);
    free((char *)opts->scratch_dir);
    opts->scratch_dir = NULL;
}

pid_t spawn_sandboxed(const struct lt_sandbox_opts *opts, child_fn fn,
                      void *arg, int raw, int *msg_fd)
{
    int p[2];
    assert_int_equal(pipe2(p, O_CLOEXEC), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* cmocka catches fatal signals in the test process; the child must
         * die of them instead, or it would go on to run the next tests. */
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS};
        for (size_t s = 0; s < sizeof(fatal) / sizeof(fatal[0]); s++)
            signal(fatal[s], SIG_DFL);
        struct lt_sandbox_opts o = *opts;
        size_t i = 0;
        while (i < 7 && o.keep_fds[i] >= 0)
            i++;
        o.keep_fds[i] = p[1];
        o.keep_fds[i + 1] = -1;
        close(p[0]);
        child_msg_fd = p[1];
        struct child_ctx ctx = {.scratch = opts->scratch_dir, .arg = arg};
        ctx.enter_rc = lt_sandbox_enter(&o, &ctx.got);
        if (ctx.enter_rc < 0 && !raw) {
            child_fail(0, "lt_sandbox_enter: %d (%s); missing: %s",
                       ctx.enter_rc, strerror(-ctx.enter_rc),
                       lt_sandbox_describe_missing(ctx.got));
            _exit(125);
        }
        int r = fn(&ctx);
        /* The report carries the line; the status only says pass/fail. */
        _exit(r == 0 ? 0 : (r & 0x7f) ? (r & 0x7f) : 1);
    }
    close(p[1]);
    *msg_fd = p[0];
    return pid;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void wait_child(pid_t pid, int msg_fd, int timeout_s, struct child_result *res)
{
    memset(res, 0, sizeof(*res));
    double start = now();
    int pidfd = lt_sandbox_pidfd_open(pid);
    assert_true(pidfd >= 0);
    struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
    int n;
    do {
        n = poll(&pfd, 1, timeout_s * 1000);
    } while (n < 0 && errno == EINTR);
    if (n == 0) {
        res->timed_out = 1;
        assert_int_equal(lt_sandbox_kill(pid, pidfd), 0);
    }
    assert_int_equal(waitpid(pid, &res->status, 0), pid);
    close(pidfd);
    res->seconds = now() - start;
    size_t len = 0;
    ssize_t r;
    while (len < sizeof(res->msg) - 1 &&
           (r = read(msg_fd, res->msg + len, sizeof(res->msg) - 1 - len)) > 0)
        len += (size_t)r;
    res->msg[len] = '\0';
    close(msg_fd);
}

void run_ok(const struct lt_sandbox_opts *opts, child_fn fn, void *arg)
{
    struct child_result res;
    int fd;
    pid_t pid = spawn_sandboxed(opts, fn, arg, 0, &fd);
    wait_child(pid, fd, 30, &res);
    if (res.timed_out)
        fail_msg("child timed out; report: %s", res.msg);
    if (!WIFEXITED(res.status))
        fail_msg("child died of signal %d; report: %s", WTERMSIG(res.status),
                 res.msg);
    if (WEXITSTATUS(res.status) != 0)
        fail_msg("child exited %d; report: %s", WEXITSTATUS(res.status),
                 res.msg);
}

void skip_or_fail(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    const char *must = getenv("LT_TEST_MUST_WORK");
    if (must && !strcmp(must, "1"))
        fail_msg("would skip, but LT_TEST_MUST_WORK=1: %s", buf);
    print_message("# SKIP %s\n", buf);
    skip();
}

void require_features(unsigned need)
{
    unsigned have = lt_sandbox_probe();
    if ((have & need) != need)
        skip_or_fail("kernel or privileges lack: %s",
                     lt_sandbox_describe_missing(have | ~need));
}

int main(void)
{
    /* A test that fails leaves a half-set-up child at worst; SIGPIPE from
     * a dead child's pipe must not take the runner down. */
    signal(SIGPIPE, SIG_IGN);
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = 0;
    failed += _cmocka_run_group_tests("confine", confine_tests, confine_ntests,
                                      NULL, NULL);
    failed += _cmocka_run_group_tests("fs", fs_tests, fs_ntests, NULL, NULL);
    failed += _cmocka_run_group_tests("limits", limits_tests, limits_ntests,
                                      NULL, NULL);
    failed += _cmocka_run_group_tests("procs", procs_tests, procs_ntests,
                                      NULL, NULL);
    failed += _cmocka_run_group_tests("view", view_tests, view_ntests, NULL,
                                      NULL);
    return failed ? 1 : 0;
}
