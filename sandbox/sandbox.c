/* The sandbox's public entry points: default options, probing, the fixed
 * set-up order of lt_sandbox_enter(), and killing a child from outside.
 * SPDX-License-Identifier: MIT */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/err.h"
#include "common/log.h"
#include "sandbox/internal.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/*** Options and probe ***/

/* Contract: fills every field of *opts with the documented defaults. */
void lt_sandbox_opts_init(struct lt_sandbox_opts *opts)
{
    memset(opts, 0, sizeof(*opts));
    opts->scratch_dir = NULL;
    opts->ro_paths = NULL;
    opts->cpu_seconds = 10;
#ifdef LT_SANITIZED
    /* ASan reserves terabytes of shadow address space up front; any
     * RLIMIT_AS small enough to matter would break it. */
    opts->memory_bytes = 0;
#else
    opts->memory_bytes = 1ull << 30;
#endif
    opts->file_bytes = 64ull << 20;
    opts->open_files = 256;
    opts->allow_threads = 1;
    for (size_t i = 0; i < sizeof(opts->keep_fds) / sizeof(opts->keep_fds[0]);
         i++)
        opts->keep_fds[i] = -1;
    opts->use_netns = 1;
    opts->required = 0;
    opts->parent_pid = 0;
}

/* Contract: the features lt_sandbox_enter() would most likely get in a
 * child of this process.  Changes nothing but the degradation notes; needs
 * no fork.  Network namespaces are judged by CAP_SYS_ADMIN, so a container
 * runtime's own seccomp policy can still refuse them later (enter then
 * reports the real errno). */
unsigned lt_sandbox_probe(void)
{
    unsigned have = LT_SBX_RLIMITS;

    if (lt__sbx_caps_droppable())
        have |= LT_SBX_CAPS;
    else
        lt__sbx_note(LT_SBX_CAPS, "no CAP_SETPCAP to empty the bounding set");

    if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0)
        have |= LT_SBX_NNP;
    else
        lt__sbx_note(LT_SBX_NNP, "kernel has no PR_SET_NO_NEW_PRIVS: %s",
                     strerror(errno));

    int abi = lt__sbx_landlock_abi();
    if (abi > 0)
        have |= LT_SBX_LANDLOCK;
    /* else lt__sbx_landlock_abi() left a note. */

    if (lt__sbx_caps_can_netns() && access("/proc/self/ns/net", F_OK) == 0)
        have |= LT_SBX_NETNS;
    else
        lt__sbx_note(LT_SBX_NETNS, "no CAP_SYS_ADMIN to unshare(CLONE_NEWNET)");

    if (lt__sbx_seccomp_available())
        have |= LT_SBX_SECCOMP;
    else
        lt__sbx_note(LT_SBX_SECCOMP, "kernel refuses seccomp filters");
    return have;
}

/*** Entering the sandbox ***/

static int set_limit(int resource, uint64_t soft, uint64_t hard)
{
    struct rlimit cur;
    if (getrlimit(resource, &cur) < 0)
        return -errno;
    /* Never ask for more than the hard limit we already have: raising it
     * needs CAP_SYS_RESOURCE, and a lower limit is what we want anyway. */
    if (cur.rlim_max != RLIM_INFINITY) {
        if (hard > cur.rlim_max)
            hard = cur.rlim_max;
        if (soft > hard)
            soft = hard;
    }
    struct rlimit lim = {.rlim_cur = soft, .rlim_max = hard};
    if (setrlimit(resource, &lim) < 0)
        return -errno;
    return 0;
}

static int apply_rlimits(const struct lt_sandbox_opts *opts)
{
    int rc = 0;

    if (opts->cpu_seconds) {
        /* SIGXCPU at the soft limit, SIGKILL one second later at the hard
         * limit, in case the child catches or ignores SIGXCPU. */
        rc = set_limit(RLIMIT_CPU, opts->cpu_seconds, opts->cpu_seconds + 1);
        if (rc < 0)
            return rc;
    }
    if (opts->memory_bytes) {
        rc = set_limit(RLIMIT_AS, opts->memory_bytes, opts->memory_bytes);
        if (rc < 0)
            return rc;
    }
    if (opts->file_bytes) {
        rc = set_limit(RLIMIT_FSIZE, opts->file_bytes, opts->file_bytes);
        if (rc < 0)
            return rc;
        /* An oversized write then fails with EFBIG, which Python raises as
         * OSError and the test fails, instead of SIGXFSZ killing the
         * whole runner. */
        signal(SIGXFSZ, SIG_IGN);
    }
    if (opts->open_files) {
        rc = set_limit(RLIMIT_NOFILE, opts->open_files, opts->open_files);
        if (rc < 0)
            return rc;
    }
    /* RLIMIT_NPROC counts the processes of our uid in our user
     * namespace: in process mode, the worker's own, so the cap bounds its
     * tree (a fork bomb meets EAGAIN).  Elsewhere it would count every
     * process of the real uid, and seccomp is what stops process
     * creation; without threads it is still a second wall. */
    if (opts->processes) {
        rlim_t n = opts->max_processes ? opts->max_processes : 128;
        rc = set_limit(RLIMIT_NPROC, n, n);
        if (rc < 0)
            return rc;
    } else if (!opts->allow_threads) {
        rc = set_limit(RLIMIT_NPROC, 0, 0);
        if (rc < 0)
            return rc;
    }
    return set_limit(RLIMIT_CORE, 0, 0);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int lt__sbx_close_range(unsigned lo, unsigned hi)
{
    if (lo > hi)
        return 0;
    if (syscall(SYS_close_range, lo, hi, 0) == 0)
        return 0;
    if (errno != ENOSYS)
        return -errno;
    /* Kernels before 5.9: close one by one up to the fd limit. */
    struct rlimit rl;
    unsigned top = 65536;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < top)
        top = (unsigned)rl.rlim_cur;
    for (unsigned fd = lo; fd <= hi && fd < top; fd++)
        close((int)fd);
    return 0;
}

/* Closes every fd above 2 except opts->keep_fds, so the child holds no
 * handle on the zygote's database, sockets or pipes. */
static int close_fds(const struct lt_sandbox_opts *opts)
{
    enum { NKEEP = sizeof(opts->keep_fds) / sizeof(opts->keep_fds[0]) };
    int keep[NKEEP];
    size_t n = 0;

    for (size_t i = 0; i < NKEEP && opts->keep_fds[i] >= 0; i++)
        if (opts->keep_fds[i] > 2)
            keep[n++] = opts->keep_fds[i];
    qsort(keep, n, sizeof(keep[0]), cmp_int);

    unsigned lo = 3;
    for (size_t i = 0; i < n; i++) {
        int rc = lt__sbx_close_range(lo, (unsigned)keep[i] - 1);
        if (rc < 0)
            return rc;
        lo = (unsigned)keep[i] + 1;
    }
    return lt__sbx_close_range(lo, ~0u);
}

static int stdin_devnull(void)
{
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = 0;
    if (fd != STDIN_FILENO) {
        if (dup2(fd, STDIN_FILENO) < 0)
            rc = -errno;
        close(fd);
    } else if (fcntl(fd, F_SETFD, 0) < 0) {
        rc = -errno;
    }
    return rc;
}

/* One optional step's outcome: in force, an error when required, or a
 * recorded degradation. */
static int step(const struct lt_sandbox_opts *opts, unsigned feature, int rc,
                unsigned *have)
{
    if (rc == 0) {
        *have |= feature;
        return 0;
    }
    if (!lt__sbx_noted(feature)) /* keep a more precise note */
        lt__sbx_note(feature, "%s", lt_strerror(rc));
    if (opts->required & feature)
        return rc;
    return 0;
}

/* Contract: see sandbox.h.  The order is fixed and each step says why it
 * sits where it does.  On error the process is half-confined and must
 * _exit(); nothing here undoes a step. */
int lt_sandbox_enter(const struct lt_sandbox_opts *opts, unsigned *got)
{
    unsigned have = 0;
    int rc;

    *got = 0;
    if (!opts || !opts->scratch_dir)
        return LT_EUSAGE;
    lt__sbx_notes_clear();

    /* 1. Own process group, so the engine's group kill reaches us and no
     *    signal meant for the zygote's group does.  A session leader
     *    already leads its group and may not call setpgid(). */
    if (setpgid(0, 0) < 0 && getpgrp() != getpid())
        return -errno;

    /* 2. Die with the zygote.  Arm first, then check the parent: if it
     *    died before the prctl, we have been reparented and must not run
     *    on as an orphan nobody watches. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        return -errno;
    /* The worker of process mode is the child of its pid namespace's
     * init (the waiter outside checked the zygote). */
    pid_t ppid = getppid();
    if (opts->processes ? ppid != 1
                        : opts->parent_pid > 0 ? ppid != opts->parent_pid
                                               : ppid == 1)
        return -ESRCH;

    /* 3. No terminal or pipe input: a test that reads stdin sees EOF. */
    rc = stdin_devnull();
    if (rc < 0)
        return rc;

    /* 4. Close inherited fds before anything else can use them. */
    rc = close_fds(opts);
    if (rc < 0)
        return rc;

    /* 5. Resource limits.  Before the capability drop, since lowering a
     *    hard limit works either way but root could raise it back. */
    rc = step(opts, LT_SBX_RLIMITS, apply_rlimits(opts), &have);
    if (rc < 0)
        return rc;

    /* 6. Work in the scratch dir; relative paths land there. */
    if (chdir(opts->scratch_dir) < 0)
        return -errno;

    /* 7. A network namespace of our own, with not even loopback up.  Needs
     *    CAP_SYS_ADMIN, so it must precede the capability drop. */
    if (opts->processes) {
        have |= LT_SBX_NETNS; /* made by lt_sandbox_enter_processes() */
    } else if (opts->use_netns) {
        rc = unshare(CLONE_NEWNET) == 0 ? 0 : -errno;
        rc = step(opts, LT_SBX_NETNS, rc, &have);
        if (rc < 0)
            return rc;
    } else {
        lt__sbx_note(LT_SBX_NETNS, "not requested");
        if (opts->required & LT_SBX_NETNS)
            return LT_EUSAGE;
    }

    /* 8. Drop every capability and lock the securebits. */
    rc = step(opts, LT_SBX_CAPS, lt__sbx_caps_drop(), &have);
    if (rc < 0)
        return rc;

    /* 9. No privilege gain through execve (setuid bits, file caps); also
     *    what lets an unprivileged process install Landlock and seccomp. */
    rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : -errno;
    rc = step(opts, LT_SBX_NNP, rc, &have);
    if (rc < 0)
        return rc;

    /* 10. Landlock: the filesystem becomes read-only but for scratch. */
    if (have & LT_SBX_NNP) {
        rc = lt__sbx_landlock(opts);
    } else {
        lt__sbx_note(LT_SBX_LANDLOCK, "needs no_new_privs");
        rc = -EPERM;
    }
    rc = step(opts, LT_SBX_LANDLOCK, rc, &have);
    if (rc < 0)
        return rc;

    /* 11. seccomp last: it refuses some calls the steps above make. */
    rc = step(opts, LT_SBX_SECCOMP, lt__sbx_seccomp(opts), &have);
    if (rc < 0)
        return rc;

    if (opts->processes)
        have |= LT_SBX_PROCESSES;
    *got = have;
    return 0;
}

/*** Outside the child ***/

/* Contract: see sandbox.h.  Through a pidfd the signal cannot reach a
 * recycled pid.  The pidfd path signals only the process: the sandbox lets
 * a plain child create no other process, and in process mode the child is
 * a waiter whose death kills its worker's whole pid namespace. */
int lt_sandbox_kill(pid_t pid, int pidfd)
{
    if (pidfd >= 0) {
        if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) == 0)
            return 0;
        if (errno == ESRCH)
            return 0;
        if (errno != ENOSYS || pid <= 0)
            return -errno;
        /* Kernel before 5.1: fall back to the pid. */
    }
    if (pid <= 0)
        return -EINVAL;
    /* The group first: the child leads its own once set up; before that
     * the group does not exist yet and the plain kill below does it. */
    if (kill(-pid, SIGKILL) < 0 && errno != ESRCH)
        return -errno;
    if (kill(pid, SIGKILL) < 0 && errno != ESRCH)
        return -errno;
    return 0;
}

/* Contract: a close-on-exec pidfd for `pid`, or -errno (-ENOSYS before
 * Linux 5.3).  The caller closes it. */
int lt_sandbox_pidfd_open(pid_t pid)
{
    long fd = syscall(SYS_pidfd_open, pid, 0);
    if (fd < 0)
        return -errno;
    return (int)fd;
}

int lt_sandbox_prepare(const struct lt_sandbox_opts *opts)
{
    return lt__sbx_seccomp_prepare(opts);
}
