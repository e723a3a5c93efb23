/* Telemetry of sandboxed children (libbpf, optional): per child, the
 * system calls seccomp refused, the system calls made and the signals
 * received.  Compiled out (LT_WITH_BPF off), every call is a no-op and
 * lt_telemetry_open() says why.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_TELEMETRY_H
#define LT_ENGINE_TELEMETRY_H

#include <stddef.h>
#include <sys/types.h>

struct lt_telemetry;

/* One refused system call and how often. */
struct lt_telemetry_refusal {
    char name[32];
    unsigned count;
};

/* What one child did; lt_telemetry_sample_clear() frees it. */
struct lt_telemetry_sample {
    char *summary; /* "refused: socket x1, clone x1; signals: SIGKILL x1;
                      syscalls: 1234", or NULL: nothing was recorded */
    struct lt_telemetry_refusal *refused; /* most frequent first */
    size_t n_refused;
};

/* Loads and attaches the BPF programs.  0, or a negative code and a
 * one-line *why (static text; caller does not free): no root or
 * CAP_BPF+CAP_PERFMON, no BTF, or built without LT_WITH_BPF. */
int lt_telemetry_open(struct lt_telemetry **out, const char **why);
/* Detaches and frees; accepts NULL. */
void lt_telemetry_close(struct lt_telemetry *t);

/* Watches every process forked from `zygote` from now on (and what those
 * fork).  No-op for t == NULL. */
void lt_telemetry_watch(struct lt_telemetry *t, pid_t zygote);
/* Stops watching a zygote's future children.  No-op for t == NULL. */
void lt_telemetry_unwatch(struct lt_telemetry *t, pid_t zygote);

/* Takes (and forgets) what the reaped child `pid` did into *s, which the
 * caller clears.  0 with s->summary NULL when nothing was recorded. */
int lt_telemetry_take(struct lt_telemetry *t, pid_t pid,
                      struct lt_telemetry_sample *s);
void lt_telemetry_sample_clear(struct lt_telemetry_sample *s);

#endif
