/* The seccomp filter, loaded last.  Default allow with a denylist: the
 * child runs arbitrary Python, so an allowlist would break tests in ways
 * that look like killed mutants.  Denied calls return an errno, so Python
 * raises and the test fails, instead of the runner dying on SIGSYS;
 * only a foreign ABI (x32, i386 through int 0x80) kills the process.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "sandbox/internal.h"

#define DENY SCMP_ACT_ERRNO(EPERM)

/* Calls that the libseccomp on the build host may predate; from 424 on,
 * every architecture but alpha shares one syscall table.  0 = none. */
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
#define GENERIC(nr) (nr)
#else
#define GENERIC(nr) 0
#endif

/* The socket type without SOCK_NONBLOCK and SOCK_CLOEXEC. */
#define TYPE_MASK 0xf

/* The kernel reads int and unsigned int arguments from the low 32 bits
 * only.  Equality tests that deny must therefore ignore the high half, or
 * a caller could set it to slip past; inequality tests that deny already
 * err on the safe side. */
#define LO32 0xffffffffull

/* Denied outright, whatever the arguments. */
struct deny {
    const char *name;
    int generic_nr;
    int err;
    const char *why;
    int lifted;   /* LIFT_*: when process mode lets the call through */
};

/* Process mode (opts->processes) lifts some denials: the worker's pid,
 * network and user namespaces already keep what they guard inside. */
enum { LIFT_NEVER, LIFT_PROCESSES, LIFT_PRIVATE_VIEW };

static const struct deny denied[] = {
    /* Process creation.  A mutant must not leave processes behind that
     * outlive the run, nor run other programs. */
    {"fork", 0, EPERM, "no new processes", LIFT_PROCESSES},
    {"vfork", 0, EPERM, "no new processes", LIFT_PROCESSES},
    {"execve", 0, EPERM, "no other programs", LIFT_PROCESSES},
    {"execveat", 0, EPERM, "no other programs", LIFT_PROCESSES},
    /* clone3 passes its flags in memory seccomp cannot read, so we cannot
     * tell a thread from a process.  ENOSYS makes glibc fall back to
     * clone(), whose flags the rules below inspect. */
    {"clone3", GENERIC(435), ENOSYS, "flags unreadable; glibc falls back", LIFT_NEVER},

    /* Other processes' memory, fds and kernel state. */
    {"ptrace", 0, EPERM, "no debugging of other processes", LIFT_NEVER},
    {"process_vm_readv", 0, EPERM, "no reading another process's memory", LIFT_NEVER},
    {"process_vm_writev", 0, EPERM, "no writing another process's memory", LIFT_NEVER},
    {"kcmp", 0, EPERM, "no probing another process's kernel objects", LIFT_NEVER},
    {"pidfd_getfd", GENERIC(438), EPERM, "no stealing the zygote's fds", LIFT_NEVER},
    {"process_madvise", GENERIC(440), EPERM, "no advising others' memory", LIFT_NEVER},
    {"process_mrelease", GENERIC(448), EPERM, "no reaping others' memory", LIFT_NEVER},
    /* A pidfd hides its target from seccomp; kill() covers the self case. */
    {"pidfd_send_signal", GENERIC(424), EPERM, "target not checkable", LIFT_NEVER},

    /* Mounts and namespaces: a changed view of the filesystem or a new
     * user namespace is where most container escapes start. */
    {"mount", 0, EPERM, "no mounts", LIFT_NEVER},
    {"umount", 0, EPERM, "no unmounts", LIFT_NEVER},
    {"umount2", 0, EPERM, "no unmounts", LIFT_NEVER},
    {"pivot_root", 0, EPERM, "no new root", LIFT_NEVER},
    {"chroot", 0, EPERM, "no new root", LIFT_NEVER},
    {"open_tree", GENERIC(428), EPERM, "new mount API", LIFT_NEVER},
    {"open_tree_attr", GENERIC(467), EPERM, "new mount API", LIFT_NEVER},
    {"move_mount", GENERIC(429), EPERM, "new mount API", LIFT_NEVER},
    {"fsopen", GENERIC(430), EPERM, "new mount API", LIFT_NEVER},
    {"fsconfig", GENERIC(431), EPERM, "new mount API", LIFT_NEVER},
    {"fsmount", GENERIC(432), EPERM, "new mount API", LIFT_NEVER},
    {"fspick", GENERIC(433), EPERM, "new mount API", LIFT_NEVER},
    {"mount_setattr", GENERIC(442), EPERM, "new mount API", LIFT_NEVER},
    {"unshare", 0, EPERM, "no new namespaces (user ns = new caps)", LIFT_NEVER},
    {"setns", 0, EPERM, "no joining other namespaces", LIFT_NEVER},

    /* Large kernel attack surface that no unit test needs. */
    {"bpf", 0, EPERM, "kernel attack surface", LIFT_NEVER},
    {"perf_event_open", 0, EPERM, "kernel attack surface, side channels", LIFT_NEVER},
    {"userfaultfd", 0, EPERM, "stalls the kernel at will (exploit aid)", LIFT_NEVER},
    {"io_uring_setup", GENERIC(425), EPERM, "bypasses seccomp per op", LIFT_NEVER},
    {"io_uring_enter", GENERIC(426), EPERM, "bypasses seccomp per op", LIFT_NEVER},
    {"io_uring_register", GENERIC(427), EPERM, "bypasses seccomp per op", LIFT_NEVER},
    {"keyctl", 0, EPERM, "kernel keyrings are shared with the user", LIFT_NEVER},
    {"add_key", 0, EPERM, "kernel keyrings are shared with the user", LIFT_NEVER},
    {"request_key", 0, EPERM, "kernel keyrings are shared with the user", LIFT_NEVER},

    /* Host-wide state.  Most need a capability we dropped; denying them
     * here as well keeps the sandbox whole when the drop degraded. */
    {"kexec_load", 0, EPERM, "host-wide: new kernel", LIFT_NEVER},
    {"kexec_file_load", 0, EPERM, "host-wide: new kernel", LIFT_NEVER},
    {"init_module", 0, EPERM, "host-wide: kernel modules", LIFT_NEVER},
    {"finit_module", 0, EPERM, "host-wide: kernel modules", LIFT_NEVER},
    {"delete_module", 0, EPERM, "host-wide: kernel modules", LIFT_NEVER},
    {"reboot", 0, EPERM, "host-wide", LIFT_NEVER},
    {"swapon", 0, EPERM, "host-wide", LIFT_NEVER},
    {"swapoff", 0, EPERM, "host-wide", LIFT_NEVER},
    {"acct", 0, EPERM, "host-wide", LIFT_NEVER},
    {"quotactl", 0, EPERM, "host-wide", LIFT_NEVER},
    {"quotactl_fd", GENERIC(443), EPERM, "host-wide", LIFT_NEVER},
    {"syslog", 0, EPERM, "kernel log: addresses leak", LIFT_NEVER},
    {"clock_settime", 0, EPERM, "host-wide clock", LIFT_NEVER},
    {"clock_adjtime", 0, EPERM, "host-wide clock", LIFT_NEVER},
    {"settimeofday", 0, EPERM, "host-wide clock", LIFT_NEVER},
    {"adjtimex", 0, EPERM, "host-wide clock", LIFT_NEVER},
    {"sethostname", 0, EPERM, "host-wide: UTS namespace is shared", LIFT_NEVER},
    {"setdomainname", 0, EPERM, "host-wide: UTS namespace is shared", LIFT_NEVER},
    {"vhangup", 0, EPERM, "hangs up the terminal", LIFT_NEVER},
    {"iopl", 0, EPERM, "raw I/O ports", LIFT_NEVER},
    {"ioperm", 0, EPERM, "raw I/O ports", LIFT_NEVER},
    {"lookup_dcookie", 0, EPERM, "obsolete profiling interface", LIFT_NEVER},
    {"uselib", 0, EPERM, "obsolete loader path", LIFT_NEVER},
    {"_sysctl", 0, EPERM, "obsolete sysctl interface", LIFT_NEVER},
    {"nfsservctl", 0, EPERM, "obsolete", LIFT_NEVER},
    {"fanotify_init", 0, EPERM, "watching the host's files", LIFT_NEVER},
    {"name_to_handle_at", 0, EPERM, "file handles bypass path checks", LIFT_NEVER},
    {"open_by_handle_at", 0, EPERM, "file handles bypass Landlock", LIFT_NEVER},
    {"personality", 0, EPERM, "READ_IMPLIES_EXEC, ASLR off", LIFT_NEVER},

    /* Identity.  The child keeps the zygote's uid; changing it would let
     * it reach files or processes of another user. */
    {"setuid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setgid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setreuid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setregid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setresuid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setresgid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setfsuid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setfsgid", 0, EPERM, "no identity change", LIFT_NEVER},
    {"setgroups", 0, EPERM, "no identity change", LIFT_NEVER},

    /* The process group we made is what the engine kills; leaving it, or
     * joining the zygote's, would dodge a group kill. */
    {"setpgid", 0, EPERM, "stay in our own process group", LIFT_PROCESSES},
    {"setsid", 0, EPERM, "stay in our own process group", LIFT_PROCESSES},

    /* connect() reaches pathname unix sockets of host daemons (docker,
     * systemd, D-Bus) that trust uid 0; Landlock does not cover it.
     * socketpair() needs no connect().  In process mode inside a view
     * (which shows no host socket) and a network namespace of its own
     * (where abstract names live), connect() reaches only the tests'
     * own servers. */
    {"connect", 0, EPERM, "no reaching host daemons", LIFT_PRIVATE_VIEW},
};

/* The native syscall number of `name`, or -1 when this architecture or
 * this libseccomp has none. */
static int resolve(const char *name, int generic_nr)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR && generic_nr > 0)
        nr = generic_nr;
    /* Negative pseudo numbers name calls this architecture lacks. */
    return nr >= 0 ? nr : -1;
}

static int add(scmp_filter_ctx ctx, uint32_t action, const char *name,
               int generic_nr, unsigned n, const struct scmp_arg_cmp *cmp)
{
    int nr = resolve(name, generic_nr);
    if (nr < 0) {
        lt_debug("seccomp: no %s here, no rule needed", name);
        return 0;
    }
    int rc = seccomp_rule_add_exact_array(ctx, action, nr, n, cmp);
    if (rc < 0)
        lt__sbx_note(LT_SBX_SECCOMP, "rule for %s: %s", name, strerror(-rc));
    return rc;
}

/* A fully initialised comparison: libseccomp's SCMP_A*() macros leave
 * the second datum out for most operators. */
static struct scmp_arg_cmp arg_cmp(unsigned arg, enum scmp_compare op,
                                   uint64_t a, uint64_t b)
{
    struct scmp_arg_cmp c = {.arg = arg, .op = op, .datum_a = a,
                             .datum_b = b};
    return c;
}

static int deny1(scmp_filter_ctx ctx, const char *name, struct scmp_arg_cmp c)
{
    return add(ctx, DENY, name, 0, 1, &c);
}

/* Denies `name` when argument `arg` is neither 0 nor this process's pid.
 * libseccomp allows one comparison per argument in a rule, so "not in
 * {0, self}" becomes "> self" plus [1, self) cut into aligned
 * power-of-two blocks, each one masked-equality rule (about 2 log2(pid)
 * rules).  Unsigned comparison: negative pids (groups, -1) are > self. */
static int deny_unless_self_or_zero(scmp_filter_ctx ctx, const char *name,
                                    unsigned arg, uint64_t self)
{
    int rc = deny1(ctx, name, arg_cmp(arg, SCMP_CMP_GT, self, 0));
    uint64_t lo = 1;
    while (rc == 0 && lo < self) {
        uint64_t size = 1;
        while ((lo & (2 * size - 1)) == 0 && lo + 2 * size <= self)
            size *= 2;
        rc = deny1(ctx, name,
                   arg_cmp(arg, SCMP_CMP_MASKED_EQ, ~(size - 1), lo));
        lo += size;
    }
    return rc;
}

/* The clone() flags argument: first everywhere but s390. */
#if defined(__s390__) || defined(__s390x__)
#define CLONE_FLAGS_ARG 1
#else
#define CLONE_FLAGS_ARG 0
#endif

/* The rules that depend on our own pid: signals only to ourselves. */
static int add_pid_rules(scmp_filter_ctx ctx, uint64_t self)
{
    /* Signals only to ourselves: os.kill(os.getppid(), 9) must not reach
     * the zygote, nor any other process of the same uid.  kill(0) is our
     * own group, which holds only us. */
    int rc = deny_unless_self_or_zero(ctx, "kill", 0, self);
    if (rc == 0) /* tgkill(tgid, tid, sig): raise() and pthread_kill(). */
        rc = deny1(ctx, "tgkill", arg_cmp(0, SCMP_CMP_NE, self, 0));
    if (rc == 0) /* tkill(tid, sig): obsolete; only our main thread. */
        rc = deny1(ctx, "tkill", arg_cmp(0, SCMP_CMP_NE, self, 0));
    if (rc == 0) /* rt_sigqueueinfo(tgid, ...): sigqueue(). */
        rc = deny1(ctx, "rt_sigqueueinfo", arg_cmp(0, SCMP_CMP_NE, self, 0));
    if (rc == 0)
        rc = deny1(ctx, "rt_tgsigqueueinfo", arg_cmp(0, SCMP_CMP_NE, self, 0));
    return rc;
}

/* Sockets: AF_UNIX only, so nothing reaches a network even when the
 * netns or Landlock is missing.  socket(AF_UNIX) stays for code that
 * merely creates one; connect() is denied. */
static int add_socket_rules(scmp_filter_ctx ctx)
{
    int rc = deny1(ctx, "socket", arg_cmp(0, SCMP_CMP_NE, AF_UNIX, 0));
    if (rc == 0)
        rc = deny1(ctx, "socketpair", arg_cmp(0, SCMP_CMP_NE, AF_UNIX, 0));
    /* Unix datagram sockets can sendto()/sendmsg() any pathname socket
     * (journald, syslog) without connect(); stream and seqpacket ones
     * ignore or refuse a destination, so only datagrams are denied. */
    if (rc == 0)
        rc = deny1(ctx, "socket",
                   arg_cmp(1, SCMP_CMP_MASKED_EQ, TYPE_MASK, SOCK_DGRAM));
    if (rc == 0)
        rc = deny1(ctx, "socketpair",
                   arg_cmp(1, SCMP_CMP_MASKED_EQ, TYPE_MASK, SOCK_DGRAM));
    return rc;
}

/* Process mode: AF_UNIX, AF_INET and AF_INET6, whose only interface is
 * the worker's own loopback; no other family (netlink, packet, vsock...).
 * "Not in {1, 2, 10}" is cut into comparisons of the low 32 bits the
 * kernel reads: 0, 3, 4-7, 8-9, and above 10. */
static int add_process_socket_rules(scmp_filter_ctx ctx,
                                    const struct lt_sandbox_opts *opts)
{
    static const char *const calls[] = {"socket", "socketpair"};
    static const struct {
        uint64_t mask, value;
    } others[] = {{LO32, 0}, {LO32, 3}, {LO32 & ~3ull, 4}, {LO32 & ~1ull, 8}};
    int rc = 0;
    for (size_t c = 0; c < 2 && rc == 0; c++) {
        rc = deny1(ctx, calls[c], arg_cmp(0, SCMP_CMP_GT, AF_INET6, 0));
        for (size_t k = 0; k < 4 && rc == 0; k++)
            rc = deny1(ctx, calls[c], arg_cmp(0, SCMP_CMP_MASKED_EQ,
                                              others[k].mask,
                                              others[k].value));
        /* Unix datagrams reach pathname sockets without connect(): only
         * inside a view that shows none of the host's. */
        if (rc == 0 && !opts->private_view) {
            struct scmp_arg_cmp dgram[2] = {
                arg_cmp(0, SCMP_CMP_MASKED_EQ, LO32, AF_UNIX),
                arg_cmp(1, SCMP_CMP_MASKED_EQ, TYPE_MASK, SOCK_DGRAM)};
            rc = add(ctx, DENY, calls[c], 0, 2, dgram);
        }
    }
    return rc;
}

/* Every rule that does not depend on who we are. */
static int add_rules(scmp_filter_ctx ctx, const struct lt_sandbox_opts *opts)
{
    int rc = 0;

    int procs = opts->processes != 0;
    for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]) && rc == 0;
         i++) {
        if ((denied[i].lifted == LIFT_PROCESSES && procs) ||
            (denied[i].lifted == LIFT_PRIVATE_VIEW && procs &&
             opts->private_view))
            continue;
        rc = add(ctx, SCMP_ACT_ERRNO((uint32_t)denied[i].err),
                 denied[i].name, denied[i].generic_nr, 0, NULL);
    }
    if (rc < 0)
        return rc;

    /* clone(): a thread shares our address space and thread group, so it
     * is no new process; anything without CLONE_THREAD is one (allowed in
     * process mode). */
    if (!opts->allow_threads && !procs) {
        rc = add(ctx, DENY, "clone", 0, 0, NULL);
    } else {
        if (!procs)
            rc = deny1(ctx, "clone",
                       arg_cmp(CLONE_FLAGS_ARG, SCMP_CMP_MASKED_EQ,
                                CLONE_THREAD, 0));
        /* Namespaces are for processes, and a new one is what unshare()
         * is denied for; refuse them even on a thread. */
        static const uint64_t ns_flags[] = {
            CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
            CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
        };
        for (size_t i = 0; i < sizeof(ns_flags) / sizeof(ns_flags[0]) &&
                           rc == 0;
             i++)
            rc = deny1(ctx, "clone",
                       arg_cmp(CLONE_FLAGS_ARG, SCMP_CMP_MASKED_EQ,
                                ns_flags[i], ns_flags[i]));
    }
    if (rc < 0)
        return rc;

    if (procs)
        rc = add_process_socket_rules(ctx, opts);
    else
        rc = add_socket_rules(ctx);
    if (rc < 0)
        return rc;

    /* Other calls that take a pid and would act on the zygote or a sibling
     * of the same uid: lowering its rlimits (prlimit), pinning it to one
     * CPU, changing its scheduling or I/O priority, moving its pages.
     * Only 0, "this process", is allowed, which is what glibc passes for
     * setrlimit(), nice() and friends. */
    static const char *const pid_first[] = {
        "prlimit64",         "sched_setaffinity", "sched_setparam",
        "sched_setscheduler", "sched_setattr",    "migrate_pages",
        "move_pages",
    };
    for (size_t i = 0; i < sizeof(pid_first) / sizeof(pid_first[0]) && rc == 0;
         i++)
        rc = deny1(ctx, pid_first[i], arg_cmp(0, SCMP_CMP_NE, 0, 0));
    /* setpriority(which, who, prio), ioprio_set(which, who, prio): who = 0
     * means us (or our group); PRIO_USER with a uid would reach every
     * process of that user. */
    if (rc == 0)
        rc = deny1(ctx, "setpriority", arg_cmp(1, SCMP_CMP_NE, 0, 0));
    if (rc == 0)
        rc = deny1(ctx, "ioprio_set", arg_cmp(1, SCMP_CMP_NE, 0, 0));
    if (rc < 0)
        return rc;

    /* fcntl(F_SETOWN) and its ioctl twins make the kernel send SIGIO or
     * SIGURG to any process we name, past the kill() rules. */
    static const uint64_t fcntl_cmds[] = {F_SETOWN, F_SETOWN_EX};
    for (size_t i = 0; i < 2 && rc == 0; i++)
        rc = deny1(ctx, "fcntl",
                   arg_cmp(1, SCMP_CMP_MASKED_EQ, LO32, fcntl_cmds[i]));
    /* ioctl: TIOCSTI pushes input into a terminal we may still share
     * (stdout or stderr), which its shell then runs; TIOCLINUX does the
     * same on a virtual console; FIOSETOWN and SIOCSPGRP are F_SETOWN. */
    static const uint64_t ioctl_cmds[] = {TIOCSTI, TIOCLINUX, FIOSETOWN,
                                          SIOCSPGRP};
    for (size_t i = 0; i < 4 && rc == 0; i++)
        rc = deny1(ctx, "ioctl",
                   arg_cmp(1, SCMP_CMP_MASKED_EQ, LO32, ioctl_cmds[i]));
    /* prctl(PR_SET_PDEATHSIG): keep dying with the zygote, so a crashed
     * litmus leaves no sleeping child behind. */
    if (rc == 0)
        rc = deny1(ctx, "prctl",
                   arg_cmp(0, SCMP_CMP_MASKED_EQ, LO32, PR_SET_PDEATHSIG));
    return rc;
}

/* A filter context with the bad-architecture action and NNP handling
 * every litmus filter shares; NULL on failure (noted). */
static scmp_filter_ctx new_ctx(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        lt__sbx_note(LT_SBX_SECCOMP, "seccomp_init failed");
        return NULL;
    }
    /* Only the native ABI is in the filter: a syscall through another one
     * would have different numbers and slip past every rule. */
    if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
                         SCMP_ACT_KILL_PROCESS) < 0 ||
        seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1) < 0) {
        lt__sbx_note(LT_SBX_SECCOMP, "cannot set filter attributes");
        seccomp_release(ctx);
        return NULL;
    }
    return ctx;
}

/*** Prepared filter: compiled once in the zygote ***/

/* Compiling the filter with libseccomp costs about a millisecond, more
 * than the fork it protects.  A zygote compiles the pid-independent part
 * once; each child loads those BPF bytes, then a second, tiny filter for
 * the rules that name its own pid.  That one is written here as classic
 * BPF instructions (about 20) instead of through libseccomp, whose
 * compile costs about 0.5 ms a child.  It repeats add_pid_rules() exactly:
 * the syscall numbers and the native architecture come from libseccomp,
 * resolved once in the zygote. */
static struct sock_filter *prepared;
static unsigned short prepared_len;
static int prepared_threads = -1;

enum { PID_KILL, PID_TGKILL, PID_TKILL, PID_SIGQUEUE, PID_TGSIGQUEUE,
       PID_NCALLS };
static const char *const pid_call_names[PID_NCALLS] = {
    "kill", "tgkill", "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
};
static int pid_call_nr[PID_NCALLS];
static uint32_t native_arch;

/* Offsets of the halves of seccomp_data.args[0]. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LO offsetof(struct seccomp_data, args[0])
#define ARG0_HI (offsetof(struct seccomp_data, args[0]) + 4)
#else
#define ARG0_LO (offsetof(struct seccomp_data, args[0]) + 4)
#define ARG0_HI offsetof(struct seccomp_data, args[0])
#endif

static int resolve_pid_calls(void)
{
    native_arch = seccomp_arch_native();
    if (native_arch == 0)
        return -ENOSYS;
    for (int i = 0; i < PID_NCALLS; i++)
        pid_call_nr[i] = resolve(pid_call_names[i], 0);
    return 0;
}

/* Builds, in `prog` (room for 32 instructions), the filter that denies
 * with EPERM kill() unless its first argument is 0 or `self`, and the
 * other signal calls unless it is `self`, all as 64-bit values as in
 * add_pid_rules().  A foreign architecture passes this filter: the
 * prepared one kills it.  Returns the number of instructions. */
static unsigned short build_pid_filter(struct sock_filter *prog,
                                       uint32_t self)
{
    unsigned short n = 0;
    /* Layout: [0] arch load, [1] arch test, [2] nr load, one test per
     * call present, ALLOW, the kill block (ending in ALLOW), the self
     * block (ending in ALLOW), DENY.  Classic BPF jumps only forward,
     * counted from the next instruction. */
    int present = 0;
    for (int i = 0; i < PID_NCALLS; i++)
        present += pid_call_nr[i] >= 0;
    unsigned short allow_at = (unsigned short)(3 + present);
    unsigned short kill_at = (unsigned short)(allow_at + 1);
    unsigned short kill_allow = (unsigned short)(kill_at + 5);
    unsigned short self_at = (unsigned short)(kill_allow + 1);
    unsigned short deny_at = (unsigned short)(self_at + 5);
#define LD(off) (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, (v))
#define JEQ(k, to_true, to_false)                                              \
    (struct sock_filter) BPF_JUMP(                                             \
        BPF_JMP | BPF_JEQ | BPF_K, (k),                                        \
        (uint8_t)((to_true) ? (to_true) - n - 1 : 0),                          \
        (uint8_t)((to_false) ? (to_false) - n - 1 : 0))

    prog[n] = LD(offsetof(struct seccomp_data, arch)), n++;
    prog[n] = JEQ(native_arch, 0, allow_at), n++;
    prog[n] = LD(offsetof(struct seccomp_data, nr)), n++;
    for (int i = 0; i < PID_NCALLS; i++) {
        if (pid_call_nr[i] < 0)
            continue;
        prog[n] = JEQ((uint32_t)pid_call_nr[i],
                      i == PID_KILL ? kill_at : self_at, 0);
        n++;
    }
    prog[n] = RET(SECCOMP_RET_ALLOW), n++;
    /* kill: high half 0, then low half 0 or self. */
    prog[n] = LD(ARG0_HI), n++;
    prog[n] = JEQ(0, 0, deny_at), n++;
    prog[n] = LD(ARG0_LO), n++;
    prog[n] = JEQ(0, kill_allow, 0), n++;
    prog[n] = JEQ(self, 0, deny_at), n++;
    prog[n] = RET(SECCOMP_RET_ALLOW), n++;
    /* The other calls: the whole 64-bit argument equals self. */
    prog[n] = LD(ARG0_HI), n++;
    prog[n] = JEQ(0, 0, deny_at), n++;
    prog[n] = LD(ARG0_LO), n++;
    prog[n] = JEQ(self, 0, deny_at), n++;
    prog[n] = RET(SECCOMP_RET_ALLOW), n++;
    prog[n] = RET(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)), n++;
#undef LD
#undef RET
#undef JEQ
    return n;
}

int lt__sbx_seccomp_prepare(const struct lt_sandbox_opts *opts)
{
    scmp_filter_ctx ctx = new_ctx();
    if (!ctx)
        return -ENOMEM;
    int rc = add_rules(ctx, opts);
    if (rc == 0)
        rc = resolve_pid_calls();
    int fd = -1;
    if (rc == 0) {
        fd = memfd_create("litmus-seccomp", MFD_CLOEXEC);
        rc = fd < 0 ? -errno : seccomp_export_bpf(ctx, fd);
    }
    if (rc == 0) {
        off_t size = lseek(fd, 0, SEEK_END);
        if (size <= 0 || size % (off_t)sizeof(struct sock_filter) != 0 ||
            size / (off_t)sizeof(struct sock_filter) > 65535) {
            rc = -EINVAL;
        } else {
            struct sock_filter *prog = xmalloc((size_t)size);
            if (pread(fd, prog, (size_t)size, 0) != size) {
                rc = -EIO;
                free(prog);
            } else {
                free(prepared);
                prepared = prog;
                prepared_len =
                    (unsigned short)(size / (off_t)sizeof(struct sock_filter));
                prepared_threads = opts->allow_threads != 0;
            }
        }
    }
    if (fd >= 0)
        close(fd);
    seccomp_release(ctx);
    return rc;
}

int lt__sbx_seccomp(const struct lt_sandbox_opts *opts)
{
    if (prepared && prepared_threads == (opts->allow_threads != 0) &&
        !opts->processes) {
        struct sock_fprog prog = {.len = prepared_len, .filter = prepared};
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
            int rc = -errno;
            lt__sbx_note(LT_SBX_SECCOMP, "loading the filter: %s",
                         strerror(errno));
            return rc;
        }
        /* The kernel runs every stacked filter and takes the strictest
         * answer, so the pid rules can come as a second filter. */
        struct sock_filter pid_prog[32];
        struct sock_fprog pid_fprog = {
            .len = build_pid_filter(pid_prog, (uint32_t)getpid()),
            .filter = pid_prog,
        };
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &pid_fprog, 0, 0) < 0) {
            int rc = -errno;
            lt__sbx_note(LT_SBX_SECCOMP, "loading the pid filter: %s",
                         strerror(errno));
            return rc;
        }
        return 0;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        lt__sbx_note(LT_SBX_SECCOMP, "seccomp_init failed");
        return -ENOMEM;
    }
    /* Only the native ABI is in the filter.  A syscall through another
     * one (i386 via int 0x80, or x32 numbers with __X32_SYSCALL_BIT, which
     * libseccomp checks for on x86_64) would have different numbers and
     * slip past every rule, so it kills the whole process. */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
                              SCMP_ACT_KILL_PROCESS);
    if (rc < 0) {
        lt__sbx_note(LT_SBX_SECCOMP, "bad-arch action: %s", strerror(-rc));
        goto out;
    }
    /* libseccomp would set no_new_privs itself; enter() already did. */
    rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1);
    if (rc < 0)
        goto out;
    rc = add_rules(ctx, opts);
    /* In process mode the pid namespace holds only the worker's own
     * tree: its signals reach nothing else. */
    if (rc == 0 && !opts->processes)
        rc = add_pid_rules(ctx, (uint64_t)getpid());
    if (rc < 0)
        goto out;
    /* Sanitizer builds: ASan and UBSan need nothing denied here while the
     * program runs.  LeakSanitizer's exit-time check forks and ptraces, so
     * a sandboxed child must leave with _exit() (as runners do). */
    rc = seccomp_load(ctx);
    if (rc < 0)
        lt__sbx_note(LT_SBX_SECCOMP, "seccomp_load: %s", strerror(-rc));
out:
    seccomp_release(ctx);
    return rc < 0 ? rc : 0;
}

int lt__sbx_seccomp_available(void)
{
    /* API level 1 and up: the kernel takes filters; ERRNO actions have
     * been there since filters arrived (3.5). */
    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL)
        return 0;
    return seccomp_api_get() >= 1;
}

/* Contract: see sandbox.h. */
char *lt_sandbox_syscall_name(int nr)
{
    return seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
}
