/* Private to the sandbox module: the steps lt_sandbox_enter() runs, each
 * in its own file, and the notes that explain a missing feature.
 * SPDX-License-Identifier: MIT */
#ifndef LT_SANDBOX_INTERNAL_H
#define LT_SANDBOX_INTERNAL_H

#include "sandbox/sandbox.h"

#include <stddef.h>

/* Number of feature bits in enum lt_sandbox_feature. */
#define LT__SBX_NFEATURES 9

/* Records why `feature` (one bit) is missing, for
 * lt_sandbox_describe_missing(); printf-style, truncated to fit. */
void lt__sbx_note(unsigned feature, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Whether `feature` has a note already (notes.c holds the notes). */
int lt__sbx_noted(unsigned feature);
/* Forgets every note: lt_sandbox_enter() starts afresh. */
void lt__sbx_notes_clear(void);

/* The Landlock ABI version the kernel speaks, 0 when it has none (or the
 * build left Landlock out), or a negative errno. */
int lt__sbx_landlock_abi(void);

/* Confines the filesystem: read and execute below opts->ro_paths, read
 * and write below the scratch dir and a few device nodes; no TCP on ABI 4
 * and later; abstract sockets and signals scoped on ABI 6 and later.
 * Needs no_new_privs.  Returns 0 or a negative code; the caller decides
 * whether a failure is fatal. */
int lt__sbx_landlock(const struct lt_sandbox_opts *opts);

/* Drops every capability (effective, permitted, inheritable, ambient,
 * bounding) and locks the securebits so uid 0 regains none.  Returns 0
 * when the process ends with no capability, else a negative code. */
int lt__sbx_caps_drop(void);

/* Whether this process may drop its bounding set (it holds CAP_SETPCAP)
 * or has nothing to drop; for lt_sandbox_probe(). */
int lt__sbx_caps_droppable(void);

/* Whether this process could unshare a network namespace. */
int lt__sbx_caps_can_netns(void);

/* Loads the seccomp filter described in seccomp.c.  Must come last: after
 * it, set-up syscalls such as prctl(PR_SET_SECUREBITS) may be refused.
 * Returns 0 or a negative code. */
int lt__sbx_seccomp(const struct lt_sandbox_opts *opts);

/* Compiles the pid-independent part of the filter once, for every later
 * lt__sbx_seccomp() in this process and its forks.  0 or negative. */
int lt__sbx_seccomp_prepare(const struct lt_sandbox_opts *opts);

/* Closes fds lo..hi (close_range, or one by one on old kernels); 0 or a
 * negative code. */
int lt__sbx_close_range(unsigned lo, unsigned hi);

/* Whether the kernel accepts seccomp filters with SECCOMP_RET_ERRNO. */
int lt__sbx_seccomp_available(void);

#endif
