/* A job's child, as both forking servers run one (the zygote's serve loop
 * in zygote_serve.c and the pre-import server in zygote_preimport.c): the
 * job's arguments and limits from its RUN frame, fork with CPython's
 * hooks, STARTED, and the reaping that reports EXITED.  Calls only
 * zygote_io.c.  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/zygote_internal.h"
#include "sandbox/sandbox.h"

/* Closes the fds of a frame that are open (>= 0). */
void lt__close_fds(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* The arguments of the shim's child_main for a decoded RUN (a new
 * reference); sets the child's limits and makes its scratch directory. */
PyObject *lt__run_job_args(const struct lt_run_frame *q)
{
    PyObject *tests = PyList_New(q->n_tests);
    if (!tests)
        return NULL;
    for (uint32_t i = 0; i < q->n_tests; i++) {
        PyObject *t = PyLong_FromUnsignedLong(lt_run_frame_test(q, i));
        if (!t || PyList_SetItem(tests, (Py_ssize_t)i, t) < 0) {
            Py_DECREF(tests);
            return NULL;
        }
    }
    lt__zygote.child_cpu_seconds = q->cpu_seconds;
    lt__zygote.child_memory_bytes = q->memory_bytes;
    free(lt__zygote.child_scratch);
    lt__zygote.child_scratch =
        lt_sandbox_scratch_new(lt__zygote.scratch_base);
    if (!lt__zygote.child_scratch)
        lt__zygote_die("cannot create a scratch directory", -errno);
    return Py_BuildValue(
        "(iIKKs#NiNIs#y#)", q->mode, q->subject,
        (unsigned long long)q->start, (unsigned long long)q->end, q->repl,
        (Py_ssize_t)q->repl_len, tests, q->stop_first,
        PyUnicode_DecodeFSDefault(lt__zygote.child_scratch), q->flags,
        q->extra, (Py_ssize_t)q->extra_len, q->swap, (Py_ssize_t)q->swap_len);
}

/* STARTED on fd: the child's pid, or 0 and fork's errno. */
void lt__send_started(int fd, uint64_t token, pid_t pid, int err)
{
    lt__send_reply(fd, &(struct lt_reply){
        .type = LT_FRAME_STARTED,
        .started = {token, pid > 0 ? (uint32_t)pid : 0,
                    pid > 0 ? 0 : (uint32_t)err}});
}

/* Reaps the child `pid` (if any) and reports EXITED on fd. */
void lt__reap_and_report(int fd, uint64_t token, pid_t pid,
                         const struct timespec *t0)
{
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof(ru));
    if (pid > 0) {
        while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
            ;
    }
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    lt_sandbox_scratch_remove(lt__zygote.child_scratch);

    lt__send_reply(fd, &(struct lt_reply){
        .type = LT_FRAME_EXITED,
        .exited = {
            .token = token, .status = (uint32_t)status,
            .maxrss_kb = (uint64_t)ru.ru_maxrss,
            .utime_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u +
                        (uint64_t)ru.ru_utime.tv_usec,
            .stime_us = (uint64_t)ru.ru_stime.tv_sec * 1000000u +
                        (uint64_t)ru.ru_stime.tv_usec,
            .wall_ns = (uint64_t)(t1.tv_sec - t0->tv_sec) * 1000000000u +
                       (uint64_t)(t1.tv_nsec - t0->tv_nsec),
            .minflt = (uint64_t)ru.ru_minflt,
            .majflt = (uint64_t)ru.ru_majflt}});
}

/* fork() with CPython's hooks: the interpreter's locks are taken before
 * and reset in the child, released in the parent.  errno is fork's. */
pid_t lt__py_fork(void)
{
    PyOS_BeforeFork();
    pid_t pid = fork();
    int saved = errno;
    if (pid == 0)
        PyOS_AfterFork_Child();
    else
        PyOS_AfterFork_Parent();
    errno = saved;
    return pid;
}
