/* Isolation primitives for one short-lived child process: rlimits,
 * capabilities, no_new_privs, Landlock, network namespace, seccomp, and
 * killing from outside.  Usable as a small C library of its own.
 * SPDX-License-Identifier: MIT */
#ifndef LT_SANDBOX_H
#define LT_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Features the kernel gave us; a missing one is a degradation that the
 * run records and reports, never a silent gap. */
enum lt_sandbox_feature {
    LT_SBX_RLIMITS = 1u << 0,
    LT_SBX_CAPS = 1u << 1,       /* every capability dropped */
    LT_SBX_NNP = 1u << 2,        /* PR_SET_NO_NEW_PRIVS */
    LT_SBX_LANDLOCK = 1u << 3,   /* filesystem confined */
    LT_SBX_NETNS = 1u << 4,      /* fresh network namespace, no interfaces */
    LT_SBX_SECCOMP = 1u << 5,    /* syscall filter */
};

struct lt_sandbox_opts {
    const char *scratch_dir;     /* read-write; the child's cwd */
    const char *const *ro_paths; /* NULL-terminated read-only trees;
                                    NULL means the whole filesystem "/" */
    uint64_t cpu_seconds;        /* RLIMIT_CPU soft limit; 0 = none */
    uint64_t memory_bytes;       /* RLIMIT_AS; 0 = none (sanitizer builds) */
    uint64_t file_bytes;         /* RLIMIT_FSIZE */
    uint64_t open_files;         /* RLIMIT_NOFILE */
    int allow_threads;           /* clone(CLONE_THREAD) allowed */
    int keep_fds[8];             /* fds to keep open besides 0,1,2; -1 ends */
    int use_netns;               /* unshare(CLONE_NEWNET) when permitted */
    unsigned required;           /* features whose absence is an error */
    pid_t parent_pid;            /* expected getppid() after PDEATHSIG is
                                    armed; 0 = only refuse to run when
                                    orphaned (reparented to pid 1) */
};

/* Fills opts with defaults: 1 GiB memory (0 = none in sanitizer builds),
 * 64 MiB files, 256 fds, 10 s CPU, threads allowed, netns on, nothing
 * required, no kept fds, no scratch dir (the caller must set one), parent
 * pid unchecked. */
void lt_sandbox_opts_init(struct lt_sandbox_opts *opts);

/* Which features this kernel and process can provide, probed without
 * changing the caller (fork-free probes where possible). */
unsigned lt_sandbox_probe(void);

/* Human-readable list of features missing from `have`, e.g.
 * "landlock (kernel has no Landlock), netns (EPERM)"; "" when nothing is
 * missing.  The reasons come from the last lt_sandbox_probe() or
 * lt_sandbox_enter() in this process.  Static buffer, not thread-safe. */
const char *lt_sandbox_describe_missing(unsigned have);

/* Enters the sandbox in the calling, single-threaded child, in the fixed
 * order: own process group, PDEATHSIG, close fds, rlimits, chdir scratch,
 * netns, drop capabilities, no_new_privs, Landlock, seccomp last.
 * Returns 0 and sets *got to the features in force, or a negative code if
 * a step failed or a required feature is missing (the caller must then
 * _exit: the process is half-confined). */
int lt_sandbox_enter(const struct lt_sandbox_opts *opts, unsigned *got);

/* Does once, in a process that will fork many children, the set-up work
 * that does not depend on the child (compiling the seccomp filter), so
 * that lt_sandbox_enter() in each child is cheap.  Optional: without it
 * each enter compiles everything.  0 or a negative code. */
int lt_sandbox_prepare(const struct lt_sandbox_opts *opts);

/* Kills a child from outside with SIGKILL, race-free through a pidfd
 * when `pidfd` >= 0, else by pid and process group.  A target that is
 * already dead (ESRCH) counts as killed.  Returns 0 or -errno. */
int lt_sandbox_kill(pid_t pid, int pidfd);

/* pidfd_open() wrapper: a pidfd or -errno. */
int lt_sandbox_pidfd_open(pid_t pid);

/* Creates a fresh private scratch directory (mode 0700) under `base`,
 * or under $TMPDIR or /tmp when `base` is NULL, and returns its path
 * (caller frees) or NULL with errno set. */
char *lt_sandbox_scratch_new(const char *base);

/* Removes a scratch directory tree; never follows symlinks out of it.
 * Returns 0 or -errno. */
int lt_sandbox_scratch_remove(const char *path);

#endif
