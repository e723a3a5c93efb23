/* Process mode: a child whose tests start processes or serve on
 * localhost gets namespaces of its own (user, pid, mount, network) and
 * becomes the init of its pid namespace, so that every descendant stays
 * inside its isolation and dies with it.  The process the engine watches
 * stays outside as a waiter that relays the worker's end.
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

/* Contract: see sandbox.h. */
pid_t lt_sandbox_enter_processes(const struct lt_sandbox_opts *opts)
{
    /* A user namespace of our own gives the capabilities the others
     * need, whoever we are; its uid stays unmapped (the view's /proc is
     * read-only, so no map can be written), which changes nothing on
     * disk: the kernel still writes files as our real uid. */
    int flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET;
    if (unshare(flags) < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_PROCESSES, "unshare(user, pid, mount, net): %s",
                     strerror(e));
        return -e;
    }
    pid_t worker = fork();
    if (worker < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_PROCESSES, "fork: %s", strerror(e));
        return -e;
    }
    if (worker > 0)
        return worker;

    /* The worker: pid 1 of the new namespace.  It dies with the waiter
     * (whose pid it cannot see), and every process of the namespace dies
     * with it. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        _exit(127);
    int rc = worker_mounts(opts);
    if (rc == 0) {
        rc = loopback_up();
        if (rc < 0)
            lt__sbx_note(LT_SBX_PROCESSES, "loopback up: %s", strerror(-rc));
    }
    if (rc < 0)
        return rc; /* the caller must _exit: half-built */
    return 0;
}

/* Contract: see sandbox.h. */
_Noreturn void lt_sandbox_wait_worker(pid_t worker)
{
    /* Hold nothing of the zygote's: the worker speaks for us. */
    int status = 0;
    for (;;) {
        pid_t r = waitpid(worker, &status, 0);
        if (r == worker)
            break;
        if (r < 0 && errno != EINTR)
            _exit(125);
    }
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
