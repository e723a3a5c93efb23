/* Landlock: the filesystem read-only (and executable) below the given
 * trees, read-write below the scratch dir, TCP bind and connect denied,
 * abstract sockets and signals scoped to the sandbox.  The constants are
 * spelled out here because the build host's <linux/landlock.h> may be
 * older than the kernel the sandbox runs on.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/log.h"
#include "sandbox/internal.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

/*** Kernel ABI (include/uapi/linux/landlock.h) ***/

#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1

/* ABI 1 */
#define LL_FS_EXECUTE (1ull << 0)
#define LL_FS_WRITE_FILE (1ull << 1)
#define LL_FS_READ_FILE (1ull << 2)
#define LL_FS_READ_DIR (1ull << 3)
#define LL_FS_REMOVE_DIR (1ull << 4)
#define LL_FS_REMOVE_FILE (1ull << 5)
#define LL_FS_MAKE_CHAR (1ull << 6)
#define LL_FS_MAKE_DIR (1ull << 7)
#define LL_FS_MAKE_REG (1ull << 8)
#define LL_FS_MAKE_SOCK (1ull << 9)
#define LL_FS_MAKE_FIFO (1ull << 10)
#define LL_FS_MAKE_BLOCK (1ull << 11)
#define LL_FS_MAKE_SYM (1ull << 12)
#define LL_FS_ABI1 ((1ull << 13) - 1)
/* ABI 2: link or rename across directories. */
#define LL_FS_REFER (1ull << 13)
/* ABI 3: truncate(2), ftruncate(2), O_TRUNC. */
#define LL_FS_TRUNCATE (1ull << 14)
/* ABI 4: TCP, in handled_access_net. */
#define LL_NET_BIND_TCP (1ull << 0)
#define LL_NET_CONNECT_TCP (1ull << 1)
/* ABI 5: ioctl(2) on character and block devices. */
#define LL_FS_IOCTL_DEV (1ull << 15)
/* ABI 6: scopes. */
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0)
#define LL_SCOPE_SIGNAL (1ull << 1)

/* Rights that make sense on a file rather than a directory; the kernel
 * rejects a rule on a file that names any other. */
#define LL_FS_FILE_RIGHTS                                                      \
    (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE |     \
     LL_FS_IOCTL_DEV)

/* The attribute grew with the ABI; the size we pass tells the kernel
 * which fields we know. */
struct ll_ruleset_attr {
    uint64_t handled_access_fs;  /* ABI 1 */
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};

struct ll_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

/*** Probe ***/

int lt__sbx_landlock_abi(void)
{
#ifdef LT_WITH_LANDLOCK
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
                       LL_CREATE_RULESET_VERSION);
    if (abi >= 1)
        return (int)abi;
    int e = errno;
    if (e == ENOSYS)
        lt__sbx_note(LT_SBX_LANDLOCK, "kernel has no Landlock");
    else if (e == EOPNOTSUPP)
        lt__sbx_note(LT_SBX_LANDLOCK, "Landlock disabled at boot");
    else
        lt__sbx_note(LT_SBX_LANDLOCK, "Landlock probe: %s", strerror(e));
    return 0;
#else
    lt__sbx_note(LT_SBX_LANDLOCK, "built without Landlock");
    return 0;
#endif
}

#ifdef LT_WITH_LANDLOCK

/*** Rules ***/

static uint64_t fs_handled(int abi)
{
    uint64_t r = LL_FS_ABI1;
    if (abi >= 2)
        r |= LL_FS_REFER;
    if (abi >= 3)
        r |= LL_FS_TRUNCATE;
    if (abi >= 5)
        r |= LL_FS_IOCTL_DEV;
    return r;
}

/* Adds `path` with `access` (masked to what the ruleset handles, and to
 * file rights when `path` is not a directory).  A path that does not exist
 * is skipped: nothing below it can be reached anyway. */
static int add_path(int ruleset, const char *path, uint64_t access,
                    uint64_t handled)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            lt_debug("landlock: %s does not exist, no rule", path);
            return 0;
        }
        return -errno;
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) < 0) {
        rc = -errno;
        goto out;
    }
    struct ll_path_beneath_attr pb = {
        .allowed_access = access & handled,
        .parent_fd = fd,
    };
    if (!S_ISDIR(st.st_mode))
        pb.allowed_access &= LL_FS_FILE_RIGHTS;
    if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &pb,
                0) < 0) {
        rc = -errno;
        lt__sbx_note(LT_SBX_LANDLOCK, "rule for %s: %s", path,
                     strerror(errno));
    }
out:
    close(fd);
    return rc;
}

int lt__sbx_landlock(const struct lt_sandbox_opts *opts)
{
    static const char *const root_only[] = {"/", NULL};
    /* Device nodes every Python program expects to open for writing, or
     * read randomness from; nothing outside the process lies behind them. */
    static const char *const devices[] = {
        "/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random",
        NULL,
    };
    int abi = lt__sbx_landlock_abi();
    if (abi <= 0)
        return -EOPNOTSUPP;

    struct ll_ruleset_attr attr = {.handled_access_fs = fs_handled(abi)};
    size_t size = sizeof(attr.handled_access_fs);
    if (abi >= 4 && !opts->processes) {
        /* TCP bind and connect handled with no rule allowing any port:
         * no TCP at all, even if seccomp or the netns are missing.  (In
         * process mode the worker's network namespace has loopback only,
         * and its tests' servers listen there.) */
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = offsetof(struct ll_ruleset_attr, scoped);
    }
    if (abi >= 6) {
        /* No connecting to abstract unix sockets created outside the
         * sandbox (the host's D-Bus, X11...), no signals to processes
         * outside it, including SIGIO/SIGURG set up through fcntl. */
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        size = sizeof(attr);
    }
    uint64_t handled = attr.handled_access_fs;

    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) {
        int e = errno;
        lt__sbx_note(LT_SBX_LANDLOCK, "create_ruleset: %s", strerror(e));
        return -e;
    }

    int rc = 0;
    const char *const *ro = opts->ro_paths ? opts->ro_paths : root_only;
    for (size_t i = 0; ro[i] && rc == 0; i++)
        rc = add_path(ruleset, ro[i],
                      LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_EXECUTE,
                      handled);
    for (size_t i = 0; devices[i] && rc == 0; i++)
        rc = add_path(ruleset, devices[i],
                      LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE |
                          LL_FS_IOCTL_DEV,
                      handled);
    if (rc == 0)
        rc = add_path(ruleset, opts->scratch_dir, handled, handled);
    /* Process mode: the worker's own /dev/shm (multiprocessing's locks). */
    if (rc == 0 && opts->processes)
        rc = add_path(ruleset, "/dev/shm", handled, handled);
    if (rc == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
        rc = -errno;
        lt__sbx_note(LT_SBX_LANDLOCK, "restrict_self: %s", strerror(errno));
    }
    close(ruleset);
    return rc;
}

#else

int lt__sbx_landlock(const struct lt_sandbox_opts *opts)
{
    (void)opts;
    lt__sbx_note(LT_SBX_LANDLOCK, "built without Landlock");
    return -EOPNOTSUPP;
}

#endif
