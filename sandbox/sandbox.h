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
    LT_SBX_FSVIEW = 1u << 6,     /* private read-only file-system view */
    LT_SBX_IDENTITY = 1u << 7,   /* not root: an identity owning nothing
                                    on the host */
    /* Process mode (lt_sandbox_enter_processes): the child leads user,
     * pid, mount and network namespaces of its own, so its tests may
     * start processes and use loopback sockets.  Not part of
     * LT_SBX_ALL: only children that ask for it have it. */
    LT_SBX_PROCESSES = 1u << 8,
};

/* Every feature a fully confined child has. */
#define LT_SBX_ALL                                                        \
    (LT_SBX_RLIMITS | LT_SBX_CAPS | LT_SBX_NNP | LT_SBX_LANDLOCK |        \
     LT_SBX_NETNS | LT_SBX_SECCOMP | LT_SBX_FSVIEW | LT_SBX_IDENTITY)

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
    /* Process mode: set in the worker that lt_sandbox_enter_processes()
     * returned 0 in.  The filter then lets it fork and exec, open
     * AF_INET/AF_INET6 sockets (its network namespace has only
     * loopback) and signal its own descendants (its pid namespace holds
     * nothing else but its init); RLIMIT_NPROC, counted in its own user
     * namespace, caps its processes at max_processes. */
    int processes;
    unsigned max_processes;      /* 0: 128 */
    const char *const *binds;    /* process mode: NULL-terminated pairs
                                    (file, target): each file bound
                                    read-only over its target in the
                                    worker's own mount namespace */
    int private_view;            /* the process lives in a view
                                    (lt_sandbox_view_enter) that shows no
                                    host socket: process mode may then
                                    connect() to unix sockets */
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

/* The name of system call `nr` of this machine's native ABI (a new
 * string the caller frees), or NULL for a number it does not know. */
char *lt_sandbox_syscall_name(int nr);

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

/* Process mode, called in a forked child before lt_sandbox_enter():
 * unshares user, pid, mount and network namespaces and forks the init of
 * the new pid namespace, which mounts a /proc of its own, binds
 * opts->binds, brings loopback up, forks the worker (pid 2) and reaps
 * every process of the namespace.  Returns the worker's pid as the
 * caller sees it (> 0) in the caller, which must then report it and call
 * lt_sandbox_wait_worker(); 0 in the worker, which goes on with
 * lt_sandbox_enter() (opts->processes set); a negative code in the
 * caller when the namespaces or the init's set-up failed (it may go on
 * in the plain sandbox).  The reason is in
 * lt_sandbox_describe_missing(). */
pid_t lt_sandbox_enter_processes(const struct lt_sandbox_opts *opts);

/* The waiter's end: closes every fd it holds, waits for the worker's
 * end (the init reports it) and ends the same way (its exit code, or
 * death by its signal).
 * Killing the waiter kills the init (PDEATHSIG) and with it every
 * process of its namespace. */
_Noreturn void lt_sandbox_wait_worker(pid_t worker);

/* Kills a child from outside with SIGKILL, race-free through a pidfd
 * when `pidfd` >= 0, else by pid and process group.  A target that is
 * already dead (ESRCH) counts as killed.  Returns 0 or -errno. */
int lt_sandbox_kill(pid_t pid, int pidfd);

/* pidfd_open() wrapper: a pidfd or -errno. */
int lt_sandbox_pidfd_open(pid_t pid);

/* The file-system view of a process that forks sandboxed children. */
struct lt_view_opts {
    const char *root_dir;        /* an empty directory of ours: the view's
                                    root is mounted over it */
    const char *const *ro_paths; /* absolute host paths made visible
                                    read-only at the same place (project,
                                    interpreter, sys.path entries) besides
                                    the system's software and libraries */
    size_t n_ro_paths;
    const char *const *links;    /* absolute host paths, free of links
                                    above them, of symbolic links made
                                    again in the view with the host's
                                    target text, so that a path named
                                    through them (a venv reached through
                                    a link) leads where it does on the
                                    host; the targets' real paths come
                                    with ro_paths */
    size_t n_links;
    const char *scratch_dir;     /* absolute: a fresh tmpfs here is the
                                    only writable place */
    unsigned long long scratch_bytes, scratch_inodes; /* its caps */
    unsigned scratch_instances;  /* > 1: that many such tmpfs, each with
                                    those caps, at scratch_dir/0, /1, ...
                                    (one per process forking children
                                    from this view); 0 or 1: one, at
                                    scratch_dir */
    uid_t uid;                   /* identity when started as root */
    gid_t gid;
};

/* Enters a private mount namespace (with a user namespace of its own when
 * not root) whose root is a read-only tmpfs holding read-only binds of
 * the system's software, a few files of /etc, /dev/null and its kind,
 * /proc, and o->ro_paths; a generated /etc/passwd; a capped tmpfs at
 * o->scratch_dir (or several below it); then, when started as root, becomes o->uid/o->gid (which
 * clears PR_SET_PDEATHSIG: the caller re-arms it).  The working directory
 * is "/" afterwards.  Call single-threaded.  0 and *got = the features
 * now in force (LT_SBX_FSVIEW, LT_SBX_IDENTITY), or a negative code with
 * a reason in err; a failure after the namespace was entered leaves the
 * process half-built, and the caller must not fork children from it.
 * *description (caller frees; may be NULL) lists the view, a line per
 * path ("read P", "write P", "uid N"). */
int lt_sandbox_view_enter(const struct lt_view_opts *o, unsigned *got,
                          char *err, size_t errlen, char **description);

/* The read-only paths of a view, as a runner gathers them: real paths,
 * each once (lt_view_opts.ro_paths = (const char *const *)v, n), and the
 * symbolic links met on the way to them (lt_view_opts.links = (const
 * char *const *)links, n_links). */
struct lt_sandbox_paths {
    char **v;
    size_t n, cap;
    char **links;
    size_t n_links, cap_links;
};

/* Appends the real path of p, unless it is there already, and every
 * symbolic link that resolving p passes through (each once): a path the
 * interpreter was given through links (.venv -> /opt/envs/proj, or a
 * link to a link) then resolves in the view as on the host.  NULL, a
 * relative path or one that does not resolve is left out. */
void lt_sandbox_paths_add(struct lt_sandbox_paths *l, const char *p);
/* Frees the paths and zeroes the list. */
void lt_sandbox_paths_free(struct lt_sandbox_paths *l);

/* The one way a runner process (a zygote, a Java worker) enters its view,
 * single-threaded, before it runs anything it was sent:
 * lt_sandbox_view_enter(), then, whatever came of it, the process made
 * not dumpable, PR_SET_PDEATHSIG armed again (a change of uid cleared
 * it) and `engine` checked to still be the parent.  Returns 0 with *got
 * (LT_SBX_FSVIEW, LT_SBX_IDENTITY) when the view is in force; 1 when no
 * view could be had (err says why, *got is 0): the runner goes on
 * degraded and reports it; a negative code when the runner must _exit
 * without running anything: the view is half-built (err says why; the
 * runner reports it) or the engine is gone (-ESRCH).  *description as
 * for lt_sandbox_view_enter(). */
int lt_sandbox_view_enter_runner(const struct lt_view_opts *o, pid_t engine,
                                 unsigned *got, char *err, size_t errlen,
                                 char **description);

/* Creates a fresh private scratch directory (mode 0700) under `base`,
 * or under $TMPDIR or /tmp when `base` is NULL, and returns its path
 * (caller frees) or NULL with errno set. */
char *lt_sandbox_scratch_new(const char *base);

/* Removes a scratch directory tree; never follows symlinks out of it.
 * Returns 0 or -errno. */
int lt_sandbox_scratch_remove(const char *path);

/* Copies the directory tree `from` to a new directory `to` (mode 0700):
 * directories, regular files (with their modes) and symlinks (as links,
 * never followed); other kinds are left out.  At most max_bytes of file
 * contents and max_entries entries, else -EFBIG (what was copied stays).
 * Returns 0 or -errno. */
int lt_sandbox_scratch_copy(const char *from, const char *to,
                            unsigned long long max_bytes, unsigned max_entries);

#endif
