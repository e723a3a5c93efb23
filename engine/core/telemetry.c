/* The user side of the telemetry (see telemetry.h): loads the CO-RE
 * programs of engine/bpf/telemetry.bpf.c through their generated
 * skeleton, fills the map of zygotes, and turns a child's counts into a
 * sample.
 * SPDX-License-Identifier: MIT */
#include "engine/core/telemetry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

void lt_telemetry_sample_clear(struct lt_telemetry_sample *s)
{
    if (!s)
        return;
    free(s->summary);
    free(s->refused);
    memset(s, 0, sizeof(*s));
}

#ifdef LT_WITH_BPF

#include <linux/types.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "engine/core/bpf/telemetry_shared.h"
#include "sandbox/sandbox.h"
#include "telemetry.skel.h"

struct lt_telemetry {
    struct lt_tm *skel;
};

/* libbpf's own messages would repeat what our one warning says. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
    return 0;
}

/* Contract: see telemetry.h. */
int lt_telemetry_open(struct lt_telemetry **out, const char **why)
{
    *out = NULL;
    libbpf_set_print(quiet);
    struct lt_tm *skel = lt_tm__open_and_load();
    if (!skel) {
        int rc = -errno;
        *why = rc == -EPERM
                   ? "loading BPF programs needs root or CAP_BPF and "
                     "CAP_PERFMON"
                   : "the kernel refused the BPF programs (verifier, BTF "
                     "or tracepoints missing)";
        return rc < 0 ? rc : -EINVAL;
    }
    int rc = lt_tm__attach(skel);
    if (rc < 0) {
        lt_tm__destroy(skel);
        *why = "the BPF programs could not be attached to their "
               "tracepoints";
        return rc;
    }
    struct lt_telemetry *t = xcalloc(1, sizeof(*t));
    t->skel = skel;
    *out = t;
    return 0;
}

void lt_telemetry_close(struct lt_telemetry *t)
{
    if (!t)
        return;
    lt_tm__destroy(t->skel);
    free(t);
}

void lt_telemetry_watch(struct lt_telemetry *t, pid_t zygote)
{
    if (!t || zygote <= 0)
        return;
    __u32 key = (__u32)zygote;
    __u8 one = 1;
    bpf_map__update_elem(t->skel->maps.roots, &key, sizeof(key), &one,
                         sizeof(one), BPF_ANY);
    /* A copy of a zygote was counted as its child when it was forked: a
     * zygote's own calls are nobody's job. */
    bpf_map__delete_elem(t->skel->maps.kids, &key, sizeof(key), 0);
}

void lt_telemetry_unwatch(struct lt_telemetry *t, pid_t zygote)
{
    if (!t || zygote <= 0)
        return;
    __u32 key = (__u32)zygote;
    bpf_map__delete_elem(t->skel->maps.roots, &key, sizeof(key), 0);
}

/* System calls named in a summary, the most frequent first. */
#define LT_TOP_CALLS 6

static int by_count(const void *a, const void *b)
{
    const struct lt_telemetry_refusal *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Contract: see telemetry.h. */
int lt_telemetry_take(struct lt_telemetry *t, pid_t pid,
                      struct lt_telemetry_sample *s)
{
    memset(s, 0, sizeof(*s));
    if (!t || pid <= 0)
        return 0;
    __u32 key = (__u32)pid;
    struct lt_tm_stats *st = xmalloc(sizeof(*st));
    if (bpf_map__lookup_and_delete_elem(t->skel->maps.kids, &key,
                                        sizeof(key), st, sizeof(*st),
                                        0) < 0) {
        int rc = errno == ENOENT ? 0 : -errno;
        free(st);
        return rc;
    }
    uint64_t total = 0;
    size_t n = 0;
    for (int i = 0; i < LT_TM_NSYSCALLS; i++) {
        total += st->calls[i];
        n += st->refused[i] > 0;
    }
    s->refused = n ? xcalloc(n, sizeof(*s->refused)) : NULL;
    for (int i = 0, k = 0; i < LT_TM_NSYSCALLS; i++) {
        if (!st->refused[i])
            continue;
        char *name = lt_sandbox_syscall_name(i);
        if (name)
            snprintf(s->refused[k].name, sizeof(s->refused[k].name), "%s",
                     name);
        else
            snprintf(s->refused[k].name, sizeof(s->refused[k].name),
                     "syscall_%d", i);
        free(name);
        s->refused[k++].count = st->refused[i];
    }
    s->n_refused = n;
    if (n > 1)
        qsort(s->refused, n, sizeof(*s->refused), by_count);

    struct lt_buf b = LT_BUF_INIT;
    lt_buf_puts(&b, "refused: ");
    for (size_t i = 0; i < n; i++)
        lt_buf_printf(&b, "%s%s x%u", i ? ", " : "", s->refused[i].name,
                      s->refused[i].count);
    if (!n)
        lt_buf_puts(&b, "none");
    int any_sig = 0;
    for (int i = 1; i < LT_TM_NSIGNALS; i++) {
        if (!st->signals[i])
            continue;
        const char *abbrev = sigabbrev_np(i);
        lt_buf_printf(&b, "%sSIG%s x%u", any_sig ? ", " : "; signals: ",
                      abbrev ? abbrev : "?", st->signals[i]);
        any_sig = 1;
    }
    lt_buf_printf(&b, "; syscalls: %llu", (unsigned long long)total);
    /* The most frequent calls by name, so a reader sees what the child
     * spent its calls on. */
    struct lt_telemetry_refusal top[LT_TOP_CALLS];
    size_t nt = 0;
    for (int i = 0; i < LT_TM_NSYSCALLS; i++) {
        if (!st->calls[i])
            continue;
        size_t at = nt < LT_TOP_CALLS ? nt++ : LT_TOP_CALLS;
        if (at == LT_TOP_CALLS) {
            if (st->calls[i] <= top[LT_TOP_CALLS - 1].count)
                continue;
            at = LT_TOP_CALLS - 1;
        }
        top[at].count = st->calls[i];
        snprintf(top[at].name, sizeof(top[at].name), "%d", i);
        for (; at > 0 && top[at - 1].count < top[at].count; at--) {
            struct lt_telemetry_refusal tmp = top[at - 1];
            top[at - 1] = top[at];
            top[at] = tmp;
        }
    }
    for (size_t i = 0; i < nt; i++) {
        char *name = lt_sandbox_syscall_name(atoi(top[i].name));
        lt_buf_printf(&b, "%s%s x%u", i ? ", " : " (", name ? name : top[i].name,
                      top[i].count);
        free(name);
    }
    if (nt)
        lt_buf_puts(&b, ")");
    s->summary = lt_buf_steal(&b);
    free(st);
    return 0;
}

#else /* !LT_WITH_BPF: the same API, doing nothing. */

int lt_telemetry_open(struct lt_telemetry **out, const char **why)
{
    *out = NULL;
    *why = "this litmus was built without BPF telemetry (LT_WITH_BPF)";
    return -ENOSYS;
}

void lt_telemetry_close(struct lt_telemetry *t)
{
}

void lt_telemetry_watch(struct lt_telemetry *t, pid_t zygote)
{
}

void lt_telemetry_unwatch(struct lt_telemetry *t, pid_t zygote)
{
}

int lt_telemetry_take(struct lt_telemetry *t, pid_t pid,
                      struct lt_telemetry_sample *s)
{
    memset(s, 0, sizeof(*s));
    return 0;
}

#endif
