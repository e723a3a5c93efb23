/* The kernel side of the telemetry (engine/core/telemetry.c): per sandboxed
 * child, system calls by number, the calls seccomp refused, and the
 * signals it was sent.  Compiled with clang -target bpf against the
 * vmlinux.h that the build generates (CO-RE).
 * SPDX-License-Identifier: GPL-2.0 OR MIT */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "engine/core/bpf/telemetry_shared.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Zygotes (tgid -> 1), filled by the engine when it starts one: their
 * descendants are the children we watch. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, LT_TM_MAX_ROOTS);
    __type(key, __u32);
    __type(value, __u8);
} roots SEC(".maps");

/* Watched processes (tgid -> counts), added at fork, so no call of a
 * child escapes us however early it makes it; the engine takes and
 * deletes an entry once the child is reaped.  LRU: what the engine never
 * takes (a pre-import server, a child of a crashed run) ages out. */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, LT_TM_MAX_KIDS);
    __type(key, __u32);
    __type(value, struct lt_tm_stats);
} kids SEC(".maps");

/* Threads of watched processes inside a system call that passed seccomp
 * (tid -> 1): seccomp decides before the sys_enter tracepoint, so an exit
 * without an entry is a call it refused. */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, LT_TM_MAX_THREADS);
    __type(key, __u32);
    __type(value, __u8);
} inflight SEC(".maps");

/* All zeroes: the first value of a new entry. */
const struct lt_tm_stats zero_stats = {};

SEC("tp_btf/sched_process_fork")
int BPF_PROG(lt_tm_fork, struct task_struct *parent, struct task_struct *child)
{
    __u32 ptgid = BPF_CORE_READ(parent, tgid);
    __u32 ctgid = BPF_CORE_READ(child, tgid);
    if (ctgid == ptgid) /* a new thread of the same process */
        return 0;
    if (!bpf_map_lookup_elem(&roots, &ptgid) &&
        !bpf_map_lookup_elem(&kids, &ptgid))
        return 0;
    bpf_map_update_elem(&kids, &ctgid, &zero_stats, BPF_NOEXIST);
    return 0;
}

/* BTF tracepoints (tp_btf) throughout: they need no tracefs mounted. */
SEC("tp_btf/sys_enter")
int BPF_PROG(lt_tm_enter, struct pt_regs *regs, long nr)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tgid = id >> 32, tid = (__u32)id;
    if (!bpf_map_lookup_elem(&kids, &tgid))
        return 0;
    __u8 one = 1;
    bpf_map_update_elem(&inflight, &tid, &one, BPF_ANY);
    return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(lt_tm_exit, struct pt_regs *regs, long ret)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tgid = id >> 32, tid = (__u32)id;
    struct lt_tm_stats *s = bpf_map_lookup_elem(&kids, &tgid);
    if (!s)
        return 0;
    /* Unsigned, so one comparison bounds the index for the verifier. */
    __u64 nr = (__u64)BPF_CORE_READ(regs, orig_ax); /* x86-64 */
    int entered = bpf_map_delete_elem(&inflight, &tid) == 0;
    if (nr >= LT_TM_NSYSCALLS)
        return 0;
    __sync_fetch_and_add(&s->calls[nr], 1);
    if (!entered)
        __sync_fetch_and_add(&s->refused[nr], 1);
    return 0;
}

SEC("tp_btf/signal_generate")
int BPF_PROG(lt_tm_signal, int sig, struct kernel_siginfo *info,
             struct task_struct *task, int group, int result)
{
    __u32 tgid = BPF_CORE_READ(task, tgid);
    __u32 n = (__u32)sig;
    if (n == 0 || n >= LT_TM_NSIGNALS)
        return 0;
    struct lt_tm_stats *s = bpf_map_lookup_elem(&kids, &tgid);
    if (!s)
        return 0;
    __sync_fetch_and_add(&s->signals[n], 1);
    return 0;
}
