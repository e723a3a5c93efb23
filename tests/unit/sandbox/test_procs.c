/* Process mode: the worker leads its own pid namespace, sees the bound
 * file, has loopback, may fork and exec within a cap, and still meets
 * the filter's other walls; the waiter ends as the worker ends.
 * SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cov.h"

#define MUTANT_TEXT "the mutant\n"

struct procs_arg {
    char target[512]; /* the file the worker must read as MUTANT_TEXT */
    char mutant[512];
};

static int count_proc_pids(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] >= '1' && e->d_name[0] <= '9';
    closedir(d);
    return n;
}

/* Loopback: a TCP server on 127.0.0.1 and a client that reaches it. */
static int loopback_works(void)
{
    int srv = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof(a);
    if (srv < 0 || bind(srv, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        listen(srv, 1) < 0 ||
        getsockname(srv, (struct sockaddr *)&a, &len) < 0)
        return 0;
    int c = socket(AF_INET, SOCK_STREAM, 0);
    int ok = c >= 0 && connect(c, (struct sockaddr *)&a, sizeof(a)) == 0;
    close(c);
    close(srv);
    return ok;
}

/* The worker's checks, after lt_sandbox_enter() in process mode. */
static int worker_checks(const struct procs_arg *arg, unsigned got,
                         int capped)
{
    CHECK(got & LT_SBX_PROCESSES, "features 0x%x", got);
    CHECK(getpid() == 2 && getppid() == 1, "pid %d, parent %d",
          (int)getpid(), (int)getppid());
    CHECK(count_proc_pids() == 2, "/proc lists %d processes",
          count_proc_pids());
    char buf[64] = {0};
    int fd = open(arg->target, O_RDONLY);
    CHECK(fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0);
    close(fd);
    CHECK(strcmp(buf, MUTANT_TEXT) == 0, "read %s", buf);
    CHECK(loopback_works());
    /* A child, and a program. */
    pid_t p = fork();
    if (p == 0)
        _exit(execl("/bin/true", "true", (char *)NULL) < 0 ? 9 : 8);
    int st = 0;
    CHECK(p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) &&
              WEXITSTATUS(st) == 0,
          "status 0x%x", st);
    /* The cap: a fork bomb meets EAGAIN well before 64 processes. */
    int made = 0, err = 0;
    for (; made < 64; made++) {
        pid_t q = fork();
        if (q == 0) {
            pause();
            _exit(0);
        }
        if (q < 0) {
            err = errno;
            break;
        }
    }
    if (capped)
        CHECK(made < 64 && err == EAGAIN, "made %d, errno %d", made, err);
    /* kill(-1) reaches the worker's tree only, and spares the worker. */
    CHECK(kill(-1, SIGKILL) == 0);
    while (wait(NULL) > 0)
        ;
    /* The other walls stand. */
    CHECK_ERRNO(socket(AF_NETLINK, SOCK_RAW, 0), EPERM);
    CHECK_ERRNO(unshare(CLONE_NEWUSER), EPERM);
    CHECK_ERRNO(ptrace(PTRACE_TRACEME, 0, NULL, NULL), EPERM);
    CHECK_ERRNO(socket(AF_PACKET, SOCK_RAW, 0), EPERM);
    CHECK_ERRNO(socket(AF_VSOCK, SOCK_STREAM, 0), EPERM);
    return 0;
}

/* As in litmus, where a zygote started as root runs as the sandbox's
 * uid: RLIMIT_NPROC does not hold root back.  Scratch follows. */
static void become_nobody(const struct lt_sandbox_opts *o,
                          const struct procs_arg *arg)
{
    if (geteuid() != 0)
        return;
    uid_t nobody = 65534;
    if (chown(o->scratch_dir, nobody, nobody) < 0 ||
        (arg && (chown(arg->target, nobody, nobody) < 0 ||
                 chown(arg->mutant, nobody, nobody) < 0)) ||
        setgroups(0, NULL) < 0 || setresgid(nobody, nobody, nobody) < 0 ||
        setresuid(nobody, nobody, nobody) < 0)
        _exit(child_fail(__LINE__, "cannot become uid %u: %s",
                         (unsigned)nobody, strerror(errno)));
    /* A change of uid clears the parent-death signal: nothing needs it
     * here, the test waits for its child. */
}

/* as_root: the process keeps the caller's identity (root in CI), which
 * the cap does not hold back but which may write the coverage counts:
 * the waiter and the worker flush theirs before they confine
 * themselves.  Otherwise the child becomes the sandbox's uid first, as a
 * zygote does. */
static void process_mode(int as_root)
{
    struct lt_sandbox_opts o;
    test_opts(&o);
    o.required &= ~(unsigned)LT_SBX_NETNS; /* process mode makes its own */
    o.max_processes = 16;
    o.private_view = 1; /* connect() to the tests' own servers */
    struct procs_arg arg;
    snprintf(arg.target, sizeof(arg.target), "%s/subject.py", o.scratch_dir);
    snprintf(arg.mutant, sizeof(arg.mutant), "%s/mutant.py", o.scratch_dir);
    FILE *f = fopen(arg.target, "w");
    assert_non_null(f);
    fputs("the original\n", f);
    fclose(f);
    f = fopen(arg.mutant, "w");
    assert_non_null(f);
    fputs(MUTANT_TEXT, f);
    fclose(f);
    const char *binds[] = {arg.mutant, arg.target, NULL};
    o.binds = binds;

    int p[2];
    assert_int_equal(pipe(p), 0);
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(p[0]);
        child_msg_fd = p[1];
        int flush = as_root && geteuid() == 0;
        if (!flush)
            become_nobody(&o, &arg);
        pid_t w = lt_sandbox_enter_processes(&o);
        if (w > 0) {
            if (flush)
                lt_cov_flush(); /* the waiter ends with _exit() */
            lt_sandbox_wait_worker(w);
        }
        if (w < 0) {
            child_fail(0, "SKIP %s", lt_sandbox_describe_missing(LT_SBX_ALL));
            _exit(77);
        }
        if (flush)
            lt_cov_flush(); /* the worker ends with _exit() */
        o.processes = 1;
        unsigned got = 0;
        int keep[2] = {p[1], -1};
        memcpy(o.keep_fds, keep, sizeof(keep));
        int rc = lt_sandbox_enter(&o, &got);
        if (rc < 0)
            _exit(child_fail(__LINE__, "enter: %d (%s)", rc,
                             lt_sandbox_describe_missing(got)));
        int r = worker_checks(&arg, got, !flush);
        _exit(r == 0 ? 0 : (r & 0x7f) ? (r & 0x7f) : 1);
    }
    close(p[1]);
    int st = 0;
    assert_int_equal(waitpid(child, &st, 0), child);
    char msg[1024] = {0};
    ssize_t n = read(p[0], msg, sizeof(msg) - 1);
    (void)n;
    close(p[0]);
    /* The original is untouched outside the worker's namespace. */
    f = fopen(arg.target, "r");
    char buf[64] = {0};
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof(buf), f));
    fclose(f);
    test_scratch_done(&o);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
        skip_or_fail("process mode unavailable: %s", msg);
        return;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("worker status 0x%x; report: %s", st, msg);
    assert_string_equal(buf, "the original\n");
}

static void t_process_mode(void **state)
{
    (void)state;
    process_mode(0);
}

static void t_process_mode_as_caller(void **state)
{
    (void)state;
    process_mode(1);
}

/* Forks a child that enters process mode; its worker runs `worker`.
 * Returns the child (the waiter), or 0 after skipping. */
static pid_t spawn_process_mode(struct lt_sandbox_opts *o,
                                void (*worker)(int), int fd)
{
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        become_nobody(o, NULL);
        pid_t w = lt_sandbox_enter_processes(o);
        if (w > 0) {
            if (fd >= 0 && write(fd, &w, sizeof(w)) != sizeof(w))
                _exit(1);
            close(fd); /* only the worker holds it */
            lt_sandbox_wait_worker(w);
        }
        if (w < 0)
            _exit(77);
        worker(fd);
        _exit(0);
    }
    return child;
}

static void exit_42(int fd)
{
    (void)fd;
    _exit(42);
}

static void die_by_abort(int fd)
{
    (void)fd;
    signal(SIGABRT, SIG_DFL);
    abort();
}

static void wait_forever(int fd)
{
    (void)fd;
    for (;;)
        pause();
}

/* The waiter ends as its worker does, and killing the waiter ends the
 * worker (whose pipe end then closes). */
static void t_waiter(void **state)
{
    (void)state;
    struct lt_sandbox_opts o;
    test_opts(&o);
    int st = 0;
    pid_t child = spawn_process_mode(&o, exit_42, -1);
    assert_int_equal(waitpid(child, &st, 0), child);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
        test_scratch_done(&o);
        skip_or_fail("process mode unavailable");
        return;
    }
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 42);
    /* A crash stays a crash: the waiter dies of the worker's signal. */
    child = spawn_process_mode(&o, die_by_abort, -1);
    assert_int_equal(waitpid(child, &st, 0), child);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGABRT);

    int p[2];
    assert_int_equal(pipe(p), 0);
    child = spawn_process_mode(&o, wait_forever, p[1]);
    close(p[1]);
    /* The pid the waiter was given is the worker's, seen from here, and
     * 2 in its own namespace. */
    pid_t w = 0;
    assert_int_equal(read(p[0], &w, sizeof(w)), sizeof(w));
    char path[64], line[256], want[64];
    snprintf(path, sizeof(path), "/proc/%d/status", (int)w);
    snprintf(want, sizeof(want), "NSpid:\t%d\t2\n", (int)w);
    FILE *sf = fopen(path, "r");
    int found = 0;
    while (sf && fgets(line, sizeof(line), sf))
        found |= strcmp(line, want) == 0;
    if (sf)
        fclose(sf);
    assert_true(found);
    assert_int_equal(lt_sandbox_kill(child, -1), 0);
    assert_int_equal(waitpid(child, &st, 0), child);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    char c;
    /* EOF: the worker, the last holder of the write end, is gone. */
    assert_int_equal(read(p[0], &c, 1), 0);
    close(p[0]);
    test_scratch_done(&o);
}

const struct CMUnitTest procs_tests[] = {
    cmocka_unit_test(t_process_mode),
    cmocka_unit_test(t_process_mode_as_caller),
    cmocka_unit_test(t_waiter),
};
const size_t procs_ntests = sizeof(procs_tests) / sizeof(procs_tests[0]);
