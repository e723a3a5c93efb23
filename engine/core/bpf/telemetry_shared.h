/* What the telemetry's BPF programs and the engine share: map sizes and
 * the per-child counts.  Included by BPF code, so no libc.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_BPF_TELEMETRY_SHARED_H
#define LT_ENGINE_BPF_TELEMETRY_SHARED_H

#define LT_TM_NSYSCALLS 512  /* system call numbers counted: 0..511 */
#define LT_TM_NSIGNALS 65    /* signal numbers counted: 1..64 */
#define LT_TM_MAX_ROOTS 256  /* zygotes at once */
#define LT_TM_MAX_KIDS 1024  /* children (and pre-import servers) at once */
#define LT_TM_MAX_THREADS 8192

struct lt_tm_stats {
    __u32 calls[LT_TM_NSYSCALLS];   /* system calls that returned */
    __u32 refused[LT_TM_NSYSCALLS]; /* ... of which seccomp refused */
    __u32 signals[LT_TM_NSIGNALS];  /* signals generated for it */
};

#endif
