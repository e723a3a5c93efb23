/* Resource limits, killing from outside, and dying with the parent.
 * SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Defaults as documented in sandbox.h. */
static void t_opts_defaults(void **state)
{
    (void)state;
    struct lt_sandbox_opts o;
    lt_sandbox_opts_init(&o);
#ifdef LT_SANITIZED
    assert_int_equal(o.memory_bytes, 0);
#else
    assert_int_equal(o.memory_bytes, 1ull << 30);
#endif
    assert_int_equal(o.file_bytes, 64ull << 20);
    assert_int_equal(o.open_files, 256);
    assert_int_equal(o.cpu_seconds, 10);
    assert_int_equal(o.allow_threads, 1);
    assert_int_equal(o.use_netns, 1);
    assert_int_equal(o.required, 0);
    assert_int_equal(o.keep_fds[0], -1);
    assert_null(o.scratch_dir);
    assert_null(o.ro_paths);
}

#ifndef LT_SANITIZED
static int c_memory(struct child_ctx *ctx)
{
    (void)ctx;
    void *volatile p = malloc(1ull << 30);
    CHECK(p == NULL, "1 GiB malloc succeeded under a 256 MiB limit");
    void *m = mmap(NULL, 512ull << 20, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m == MAP_FAILED && errno == ENOMEM, "mmap 512 MiB");
    void *small = malloc(1 << 20);
    CHECK(small != NULL, "1 MiB malloc failed");
    free(small);
    return 0;
}
#endif

/* RLIMIT_AS makes a huge allocation fail without killing the child.
 * Sanitizer builds leave RLIMIT_AS off (ASan's shadow needs terabytes of
 * address space); the default check above covers them. */
static void t_memory(void **state)
{
    (void)state;
#ifdef LT_SANITIZED
    print_message("# sanitizer build: RLIMIT_AS not applied by design\n");
#else
    struct lt_sandbox_opts o;
    test_opts(&o);
    o.memory_bytes = 256ull << 20;
    run_ok(&o, c_memory, NULL);
    test_scratch_done(&o);
#endif
}

static int c_spin(struct child_ctx *ctx)
{
    (void)ctx;
    volatile unsigned long n = 0;
    for (;;)
        n++;
    return 0;
}

/* RLIMIT_CPU stops a busy loop: SIGXCPU at the soft limit, SIGKILL at
 * the hard one. */
static void t_cpu(void **state)
{
    (void)state;
    struct lt_sandbox_opts o;
    test_opts(&o);
    o.cpu_seconds = 1;
    struct child_result res;
    int fd;
    pid_t pid = spawn_sandboxed(&o, c_spin, NULL, 0, &fd);
    wait_child(pid, fd, 15, &res);
    test_scratch_done(&o);
    assert_false(res.timed_out);
    assert_true(WIFSIGNALED(res.status));
    int sig = WTERMSIG(res.status);
    if (sig != SIGXCPU && sig != SIGKILL)
        fail_msg("died of signal %d, want SIGXCPU or SIGKILL", sig);
    /* Two cores shared with other builds: allow for a slow wall clock. */
    assert_true(res.seconds < 12.0);
}

static int c_fsize(struct child_ctx *ctx)
{
    (void)ctx;
    char buf[8192];
    memset(buf, 'x', sizeof(buf));
    int fd = open("big", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    ssize_t n = write(fd, buf, sizeof(buf));
    CHECK(n == 4096, "first write wrote %zd", n);
    CHECK_ERRNO(write(fd, buf, sizeof(buf)), EFBIG);
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.st_size == 4096, "size %lld",
          (long long)st.st_size);
    close(fd);
    return 0;
}

/* RLIMIT_FSIZE caps a file; the write fails with EFBIG instead of
 * SIGXFSZ killing the runner. */
static void t_fsize(void **state)
{
    (void)state;
    struct lt_sandbox_opts o;
    test_opts(&o);
    o.file_bytes = 4096;
    run_ok(&o, c_fsize, NULL);
    test_scratch_done(&o);
}

static int c_stop(struct child_ctx *ctx)
{
    (void)ctx;
    raise(SIGSTOP);
    for (;;)
        pause();
    return 0;
}

/* Kills a stopped sandboxed child with lt_sandbox_kill, through a pidfd
 * when `use_pidfd`, and checks it is reaped and gone. */
static void kill_stopped(int use_pidfd)
{
    struct lt_sandbox_opts o;
    test_opts(&o);
    int fd;
    pid_t pid = spawn_sandboxed(&o, c_stop, NULL, 0, &fd);
    int st;
    assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
    assert_true(WIFSTOPPED(st));
    int pidfd = -1;
    if (use_pidfd) {
        pidfd = lt_sandbox_pidfd_open(pid);
        assert_true(pidfd >= 0);
    }
    assert_int_equal(lt_sandbox_kill(pid, pidfd), 0);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
    /* Reaped: no such process, and killing again is harmless. */
    assert_int_equal(kill(pid, 0), -1);
    assert_int_equal(errno, ESRCH);
    if (pidfd >= 0) {
        assert_int_equal(lt_sandbox_kill(pid, pidfd), 0);
        close(pidfd);
    }
    close(fd);
    test_scratch_done(&o);
}

/* A child that stops itself with SIGSTOP is still killed and reaped. */
static void t_kill_stopped(void **state)
{
    (void)state;
    kill_stopped(1);
    kill_stopped(0);
}

static void t_kill_errors(void **state)
{
    (void)state;
    assert_int_equal(lt_sandbox_kill(0, -1), -EINVAL);
    assert_int_equal(lt_sandbox_kill(-5, -1), -EINVAL);
    assert_true(lt_sandbox_pidfd_open(-1) < 0);
}

static int c_parent_check(struct child_ctx *ctx)
{
    CHECK(ctx->enter_rc == -ESRCH, "enter with a wrong parent: %d",
          ctx->enter_rc);
    return 0;
}

static int c_nothing(struct child_ctx *ctx)
{
    (void)ctx;
    return 0;
}

/* enter refuses to run when its parent is not the expected one. */
static void t_parent_check(void **state)
{
    (void)state;
    struct lt_sandbox_opts o;
    test_opts(&o);
    o.parent_pid = getpid() + 1000000; /* nobody */
    struct child_result res;
    int fd;
    pid_t pid = spawn_sandboxed(&o, c_parent_check, NULL, 1, &fd);
    wait_child(pid, fd, 30, &res);
    assert_true(WIFEXITED(res.status));
    if (WEXITSTATUS(res.status))
        fail_msg("%s", res.msg);
    o.parent_pid = getpid();
    run_ok(&o, c_nothing, NULL);
    test_scratch_done(&o);
}

static int c_sleep(struct child_ctx *ctx)
{
    (void)ctx;
    for (;;)
        pause();
    return 0;
}

/* When the zygote dies, PDEATHSIG kills its sandboxed child.  We become a
 * subreaper so the orphan comes back to us to be examined. */
static void t_pdeathsig(void **state)
{
    (void)state;
    struct lt_sandbox_opts o;
    test_opts(&o);
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t zygote = fork();
    assert_true(zygote >= 0);
    if (zygote == 0) {
        close(p[0]);
        o.parent_pid = getpid();
        int fd;
        pid_t c = spawn_sandboxed(&o, c_sleep, NULL, 0, &fd);
        /* Give the child time to arm PDEATHSIG, then die. */
        usleep(300 * 1000);
        if (write(p[1], &c, sizeof(c)) != sizeof(c))
            _exit(2);
        _exit(0);
    }
    close(p[1]);
    pid_t child = 0;
    assert_int_equal(read(p[0], &child, sizeof(child)), sizeof(child));
    close(p[0]);
    int st;
    assert_int_equal(waitpid(zygote, &st, 0), zygote);
    assert_int_equal(waitpid(child, &st, 0), child);
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0), 0);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
    test_scratch_done(&o);
}

const struct CMUnitTest limits_tests[] = {
    cmocka_unit_test(t_opts_defaults),
    cmocka_unit_test(t_memory),
    cmocka_unit_test(t_cpu),
    cmocka_unit_test(t_fsize),
    cmocka_unit_test(t_kill_stopped),
    cmocka_unit_test(t_kill_errors),
    cmocka_unit_test(t_parent_check),
    cmocka_unit_test(t_pdeathsig),
};
const size_t limits_ntests = sizeof(limits_tests) / sizeof(limits_tests[0]);
