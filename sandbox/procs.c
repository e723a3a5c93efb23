/* Process mode: a child whose tests start processes or serve on
 * localhost gets namespaces of its own (user, pid, mount, network), so
 * that every descendant stays inside its isolation and dies with it.
 * Three processes:
 *   waiter (outside, the process the engine watches)
 *     `-- init (pid 1 of the new pid namespace: reaps every orphan, so
 *         none stays a zombie counted against the process cap)
 *           `-- worker (pid 2: runs the tests, an ordinary process)
 * The worker tells the waiter its pid (translated by the kernel into
 * the waiter's namespace through SCM_CREDENTIALS), the init then the
 * worker's wait status; the waiter ends the same way.
 * SPDX-License-Identifier: MIT */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/internal.h"

/* Brings the loopback interface of our fresh network namespace up: it
 * starts down, and a server on 127.0.0.1 needs it. */
static int loopback_up(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
    int rc = 0;
    if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
        rc = -errno;
    } else {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
            rc = -errno;
    }
    close(fd);
    return rc;
}

/* The worker's own view: a /proc of its pid namespace (only its tree is
 * listed), and each file of opts->binds bound over its target, so that a
 * process started by the tests reads the same files as the worker. */
static int worker_mounts(const struct lt_sandbox_opts *opts)
{
    /* Nothing mounted here propagates back to the zygote's namespace. */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return -errno;
    /* Read-only like the view's /proc: the kernel allows a new proc in a
     * user namespace only with the flags of the one already visible. */
    if (mount("proc", "/proc", "proc",
              MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL) < 0) {
        lt__sbx_note(LT_SBX_PROCESSES, "mounting /proc: %s", strerror(errno));
        return -errno;
    }
    /* POSIX semaphores and shared memory (multiprocessing's locks) live
     * in /dev/shm: the worker's is a directory of its scratch (a tmpfs of
     * our own would belong to the new user namespace, where our uid is
     * unmapped and may create no file). */
    char shm[PATH_MAX];
    snprintf(shm, sizeof(shm), "%s/.litmus-shm", opts->scratch_dir);
    if ((mkdir(shm, 01777) < 0 && errno != EEXIST) || chmod(shm, 01777) < 0 ||
        mount(shm, "/dev/shm", NULL, MS_BIND, NULL) < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_PROCESSES, "/dev/shm: %s", strerror(e));
        return -e;
    }
    for (size_t i = 0; opts->binds && opts->binds[i] && opts->binds[i + 1];
         i += 2) {
        if (mount(opts->binds[i], opts->binds[i + 1], NULL, MS_BIND, NULL) <
                0 ||
            mount(NULL, opts->binds[i + 1], NULL,
                  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                  NULL) < 0) {
            int e = errno;
            lt__sbx_note(LT_SBX_PROCESSES, "binding %s: %s",
                         opts->binds[i + 1], strerror(e));
            return -e;
        }
    }
    return 0;
}

/* The waiter's side: the init's pid and its report socket. */
static pid_t init_pid = -1;
static int report_fd = -1;

/* Closes every fd but `keep`. */
static void close_all_but(int keep)
{
    if (keep > 0)
        lt__sbx_close_range(0, (unsigned)keep - 1);
    lt__sbx_close_range((unsigned)keep + 1, ~0u);
}

/* The init's life after set-up: reaps everything, and when the worker
 * ends, sends its wait status and exits (which ends every process of the
 * namespace). */
static _Noreturn void init_main(int fd, pid_t worker)
{
    close_all_but(fd);
    for (;;) {
        int st = 0;
        pid_t r = wait(&st);
        if (r == worker) {
            ssize_t n = send(fd, &st, sizeof(st), MSG_NOSIGNAL);
            (void)n;
            _exit(0);
        }
        if (r < 0 && errno == ECHILD)
            _exit(125);
    }
}

/* Contract: see sandbox.h. */
pid_t lt_sandbox_enter_processes(const struct lt_sandbox_opts *opts)
{
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_PROCESSES, "socketpair: %s", strerror(e));
        return -e;
    }
    int on = 1;
    setsockopt(sp[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on));
    /* A user namespace of our own gives the capabilities the others
     * need, whoever we are; its uid stays unmapped (the view's /proc is
     * read-only, so no map can be written), which changes nothing on
     * disk: the kernel still writes files as our real uid. */
    int flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET;
    if (unshare(flags) < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_PROCESSES, "unshare(user, pid, mount, net): %s",
                     strerror(e));
        close(sp[0]);
        close(sp[1]);
        return -e;
    }
    pid_t init = fork();
    if (init < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_PROCESSES, "fork: %s", strerror(e));
        close(sp[0]);
        close(sp[1]);
        return -e;
    }
    if (init > 0) {
        /* The waiter: the worker's pid, as the kernel translated it, or
         * the init's reason for failing. */
        close(sp[1]);
        init_pid = init;
        report_fd = sp[0];
        char buf[200];
        struct ucred cred = {0};
        char cbuf[CMSG_SPACE(sizeof(cred))];
        struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf) - 1};
        struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                             .msg_control = cbuf,
                             .msg_controllen = sizeof(cbuf)};
        ssize_t n;
        do {
            n = recvmsg(sp[0], &msg, 0);
        } while (n < 0 && errno == EINTR);
        struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
        if (c && c->cmsg_level == SOL_SOCKET &&
            c->cmsg_type == SCM_CREDENTIALS && buf[0] == 'W') {
            memcpy(&cred, CMSG_DATA(c), sizeof(cred));
            if (cred.pid > 0)
                return cred.pid;
        }
        buf[n > 0 ? n : 0] = '\0';
        lt__sbx_note(LT_SBX_PROCESSES, "%s",
                     n > 1 && buf[0] == 'E' ? buf + 1
                                            : "the namespace's init failed");
        kill(init, SIGKILL);
        while (waitpid(init, NULL, 0) < 0 && errno == EINTR)
            ;
        close(sp[0]);
        init_pid = report_fd = -1;
        return -EIO;
    }

    /* The init: pid 1 of the new namespace.  It dies with the waiter
     * (whose pid it cannot see), and every process of the namespace dies
     * with it. */
    close(sp[0]);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        _exit(127);
    int rc = worker_mounts(opts);
    if (rc == 0) {
        rc = loopback_up();
        if (rc < 0)
            lt__sbx_note(LT_SBX_PROCESSES, "loopback up: %s", strerror(-rc));
    }
    pid_t worker = rc == 0 ? fork() : -1;
    if (rc == 0 && worker < 0)
        lt__sbx_note(LT_SBX_PROCESSES, "fork: %s", strerror(errno));
    if (worker < 0) {
        char why[200];
        snprintf(why, sizeof(why), "E%s",
                 lt_sandbox_describe_missing(LT_SBX_ALL));
        ssize_t n = send(sp[1], why, strlen(why), MSG_NOSIGNAL);
        (void)n;
        _exit(127);
    }
    if (worker > 0)
        init_main(sp[1], worker);
    /* The worker: dies with the init.  Its first message carries its
     * pid to the waiter: the kernel attaches the sender's credentials
     * (SO_PASSCRED), translated into the receiver's pid namespace.  (The
     * init cannot send them for it: its uid is unmapped, so explicit
     * credentials are refused.) */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != 1)
        _exit(127);
    if (send(sp[1], "W", 1, MSG_NOSIGNAL) != 1)
        _exit(127);
    close(sp[1]);
    return 0;
}

/* Contract: see sandbox.h. */
_Noreturn void lt_sandbox_wait_worker(pid_t worker)
{
    (void)worker; /* the init reports on it */
    /* The waiter holds nothing but the init's report: no socket or pipe
     * of its parent's whose end it could keep open. */
    if (report_fd >= 0)
        close_all_but(report_fd);
    /* The worker's wait status from the init; none if the init died. */
    int status = 0, have = 0;
    ssize_t n;
    do {
        n = recv(report_fd, &status, sizeof(status), 0);
    } while (n < 0 && errno == EINTR);
    have = n == (ssize_t)sizeof(status);
    int init_status = 0;
    for (;;) {
        pid_t r = waitpid(init_pid, &init_status, 0);
        if (r == init_pid)
            break;
        if (r < 0 && errno != EINTR)
            _exit(125);
    }
    if (!have)
        status = init_status;
    if (WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
    /* Die of the same signal, so the engine reads the same wait status
     * (a crash stays a crash); no core file: RLIMIT_CORE is ours to set. */
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}
