/* The zygote's fork server: RUN and CLONE frames from the engine until
 * QUIT.  A RUN goes to the pre-import server when it needs a fresh import
 * and the server takes it, else to a sandboxed child of the zygote that
 * the shim's callback runs (an untrusted job's child inside the sandbox
 * before the callback); CLONE goes to zygote_preimport.c.
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/guard.h"
#include "runners/zygote_internal.h"

/*** Running a job ***/

/* Whether a job runs code nobody vouched for: a candidate patch (the
 * engine's LT_RUN_UNTRUSTED) or calls evaluated on one. */
static int untrusted_job(const struct lt_run_frame *q)
{
    return (q->flags & LT_RUN_UNTRUSTED) || q->mode == LT_RUN_CALLS;
}

/* The child after fork: wire up its fds, enter the sandbox first when
 * the job is untrusted, hand over to Python, then end with END and
 * _exit.  Never returns. */
static _Noreturn void run_child(PyObject *callback, PyObject *job_args,
                                const struct lt_run_frame *q, int res_fd,
                                int out_fd)
{
    lt__zygote.cov_writable = 0;
    close(lt__zygote.engine_sock);
    lt__zygote.engine_sock = -1;
    /* A sandboxed child must never reach the pre-import server, which
     * forks outside any sandbox. */
    if (lt__zygote.preimport_sock >= 0)
        close(lt__zygote.preimport_sock);
    lt__zygote.preimport_sock = -1;
    lt__zygote.result_fd = res_fd;
    if (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
        _exit(72);
    close(out_fd);
    /* An untrusted job's child enters the sandbox here, in C, before the
     * shim's callback runs: no Python of the job runs outside it, and the
     * shim only checks that it is inside (_litmus.sandboxed). */
    lt__zygote.child_untrusted = untrusted_job(q);
    if (lt__zygote.child_untrusted)
        lt__child_enter_sandbox();
    PyObject *r = PyObject_CallObject(callback, job_args);
    if (!r) {
        PyErr_Print();
        fflush(stderr);
        _exit(70);
    }
    Py_DECREF(r);
    lt_guard_check();
    fflush(stdout);
    fflush(stderr);
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_END});
    _exit(0);
}

/* One RUN: relayed to the pre-import server when it is a fresh trusted
 * mutant and the server takes it; else a child of ours runs it (the
 * shim's callback), reported with STARTED and EXITED.  A malformed frame
 * ends the zygote.  None, or NULL with a Python error. */
static PyObject *handle_run(PyObject *callback, const uint8_t *payload, size_t len, int *fds,
                            int nfds)
{
    struct lt_run_frame q;
    if (nfds != 2 || lt_run_frame_decode(payload, len, &q) < 0) {
        lt__close_fds(fds, nfds);
        lt__zygote_die("malformed RUN frame", LT_EPROTO);
    }
    if ((q.flags & LT_RUN_FRESH) && !(q.flags & LT_RUN_UNTRUSTED) &&
        q.mode == LT_RUN_MUTANT && lt__zygote.preimport_sock >= 0 &&
        lt__relay_fresh(payload, len, fds, q.token) == 0) {
        lt__close_fds(fds, nfds);
        Py_RETURN_NONE;
    }
    PyObject *job_args = lt__run_job_args(&q);
    if (!job_args) {
        lt__close_fds(fds, nfds);
        return NULL;
    }

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = lt__py_fork();
    if (pid == 0)
        run_child(callback, job_args, &q, fds[0], fds[1]);
    int fork_errno = errno;
    Py_DECREF(job_args);
    lt__close_fds(fds, nfds);
    lt__send_started(lt__zygote.engine_sock, q.token, pid, fork_errno);
    lt__reap_and_report(lt__zygote.engine_sock, q.token, pid, &t0);
    Py_RETURN_NONE;
}

/*** The serve loop ***/

/* Contract: see zygote_internal.h.  Returns None, or NULL with a Python
 * error when a job's arguments could not be built. */
PyObject *lt__serve(PyObject *callback)
{
    for (;;) {
        uint8_t *payload = NULL;
        size_t len = 0;
        int fds[LT_WIRE_MAX_FDS];
        int nfds = 0;
        int type = lt_wire_recv(lt__zygote.engine_sock, LT_WIRE_MAX_FRAME,
                                &payload, &len, fds, &nfds);
        if (type <= 0 || type == LT_FRAME_QUIT) {
            free(payload);
            lt__close_fds(fds, nfds);
            Py_RETURN_NONE;
        }
        lt__reap_copies();
        if (type == LT_FRAME_CLONE) {
            lt__handle_clone(payload, len, fds, nfds);
            free(payload);
            continue;
        }
        if (type != LT_FRAME_RUN) {
            free(payload);
            lt__close_fds(fds, nfds);
            lt__zygote_die("unexpected frame from the engine", LT_EPROTO);
        }
        PyObject *r = handle_run(callback, payload, len, fds, nfds);
        free(payload);
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
}
