/* A job's child, as both forking servers run one (the zygote's serve loop
 * in zygote_serve.c and the pre-import server in zygote_preimport.c): the
 * job's arguments and limits from its RUN frame, fork with CPython's
 * hooks, entering the sandbox (process mode or not), STARTED, and the
 * reaping that reports EXITED.  Calls only zygote_io.c.
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/zygote_internal.h"
#include "sandbox/sandbox.h"

/* Contract: see zygote_internal.h. */
uint64_t lt__cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

/*** Entering the sandbox ***/

/* Process mode, in the child before the sandbox: the namespaces and
 * the worker.  The waiter (this process, seen by the engine) reports the
 * worker's pid and ends as the worker does; the worker waits for that
 * report, so its own frames come after it.  Returns 1 in the worker, 0
 * where process mode could not be had (the plain sandbox follows). */
static int enter_process_mode(struct lt_sandbox_opts *o,
                              const char *const *binds)
{
    o->binds = binds && binds[0] ? binds : NULL;
    o->private_view = (lt__zygote.features & LT_SBX_FSVIEW) != 0;
    /* Root kept (the project is unreadable by the sandbox's uid): in a
     * user namespace of its own, root would lose its access to scratch,
     * which belongs to that uid.  The plain sandbox follows. */
    if (geteuid() == 0)
        return 0;
    int gate[2];
    if (pipe2(gate, O_CLOEXEC) < 0)
        lt__zygote_die("pipe", -errno);
    pid_t worker = lt_sandbox_enter_processes(o);
    if (worker > 0) {
        close(gate[0]);
        lt__send_reply(lt__zygote.result_fd,
                       &(struct lt_reply){.type = LT_FRAME_WORKER,
                                          .worker = {(uint32_t)worker}});
        close(gate[1]);
        lt_sandbox_wait_worker(worker); /* closes everything else */
    }
    if (worker < 0) {
        close(gate[0]);
        close(gate[1]);
        return 0;
    }
    close(gate[1]);
    char byte;
    while (read(gate[0], &byte, 1) < 0 && errno == EINTR)
        ;
    close(gate[0]);
    o->processes = 1;
    return 1;
}

#define MAX_BINDS 256 /* files of one change bound over the originals */

/* The (source, target) pairs of binds, a sequence of 2-tuples of str,
 * into out[] as a NULL-terminated list of strings that live as long as
 * the child (it never returns to free them).  0, or -1 with a Python
 * error set. */
static int bind_list(PyObject *binds, const char **out)
{
    size_t k = 0;
    out[0] = NULL;
    if (!binds || binds == Py_None)
        return 0;
    PyObject *seq = PySequence_Tuple(binds);
    if (!seq)
        return -1;
    Py_ssize_t n = PyTuple_Size(seq);
    if (n > MAX_BINDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many files to bind");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *src, *dst;
        if (!PyArg_ParseTuple(PyTuple_GetItem(seq, i), "ss", &src, &dst)) {
            Py_DECREF(seq);
            return -1;
        }
        out[k++] = strdup(src);
        out[k++] = strdup(dst);
    }
    out[k] = NULL;
    Py_DECREF(seq);
    return 0;
}

/* A child's copy of the zygote's temporary directory, in its scratch,
 * at the fd the zygote's paths name (zygote_tmpdir in zygote.c): what
 * collection left there is the child's to read and write.  The fd to
 * keep through the sandbox, or -1.  Too large a directory to copy stays
 * the zygote's, readable only. */
#define COLLECTION_TMP_MAX_BYTES (64ull << 20)
#define COLLECTION_TMP_MAX_ENTRIES 4096
static int collection_tmp_copy(void)
{
    int at = lt__zygote.collection_tmp_fd;
    if (at < 0 || !lt__zygote.child_scratch)
        return -1;
    char *copy = xasprintf("%s/.collection-tmp", lt__zygote.child_scratch);
    if (lt_sandbox_scratch_copy(lt__zygote.collection_tmp, copy,
                                COLLECTION_TMP_MAX_BYTES,
                                COLLECTION_TMP_MAX_ENTRIES) == 0) {
        int fd = open(copy, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        /* dup2 clears close-on-exec: the tests' processes see it too. */
        if (fd >= 0 && fd != at) {
            if (dup2(fd, at) < 0)
                lt__zygote_die("dup2", -errno);
            close(fd);
        }
    } else {
        (void)fcntl(at, F_SETFD, 0);
    }
    free(copy);
    return at;
}

/* Contract: see zygote_internal.h. */
int lt__child_enter_sandbox(PyObject *args)
{
    int processes = 0;
    PyObject *binds_obj = NULL;
    static const char *binds[2 * MAX_BINDS + 1];
    if (!PyArg_ParseTuple(args, "|iO", &processes, &binds_obj))
        return -1;
    if (bind_list(binds_obj, binds) < 0)
        return -1;
    struct lt_sandbox_opts o;
    lt_sandbox_opts_init(&o);
    o.scratch_dir = lt__zygote.child_scratch;
    o.cpu_seconds = lt__zygote.child_cpu_seconds;
    /* RLIMIT_CPU counts the whole life of the process: a fresh child has
     * imported and collected already, which is not the tests' budget (the
     * engine's own check counts from SANDBOXED). */
    if (lt__zygote.fresh_child && o.cpu_seconds)
        o.cpu_seconds += lt__cpu_now_ns() / 1000000000u + 1;
    o.memory_bytes = lt__zygote.child_memory_bytes;
    o.use_netns = 0; /* the zygote entered a fresh netns once for all */
    o.keep_fds[0] = lt__zygote.result_fd;
    o.keep_fds[1] = collection_tmp_copy();
    o.keep_fds[2] = -1;
    o.parent_pid = lt__zygote.pid;
    if (processes)
        enter_process_mode(&o, binds);
    unsigned got = 0;
    int rc = lt_sandbox_enter(&o, &got);
    if (rc < 0)
        lt__zygote_die("cannot enter the sandbox", rc);
    lt__zygote.child_sandboxed = 1;
    /* Tests see the directory the user ran from (read-only); their
     * temporary files go to the scratch directory. */
    if (lt__zygote.run_cwd && chdir(lt__zygote.run_cwd) < 0)
        lt__zygote_die("chdir", -errno);
    lt__send_reply(lt__zygote.result_fd, &(struct lt_reply){
        .type = LT_FRAME_SANDBOXED,
        .sandboxed = {got | lt__zygote.features}});
    return 0;
}
