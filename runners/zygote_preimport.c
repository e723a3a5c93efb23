/* Fresh imports and copies: the pre-import server a zygote forks while
 * its first subject is being imported, which forks a child per RUN that
 * finishes that import with the mutant in place; the zygote's relay of
 * such RUNs; and CLONE, a copy of a ready zygote (and of its server).
 * See docs/design.md, "Module and class-level mutants".
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/zygote_internal.h"

static PyObject *fresh_ids; /* server: the zygote's test ids */

/* The pre-import server is gone or unusable: fresh runs fall back to
 * re-execution in the zygote's own children. */
void lt__preimport_close(void)
{
    if (lt__zygote.preimport_sock >= 0)
        close(lt__zygote.preimport_sock);
    lt__zygote.preimport_sock = -1;
}

/* Hands a RUN to the pre-import server together with the child's fds,
 * then relays the server's STARTED and EXITED to the engine unchanged:
 * the engine sees the server's child as if it were the zygote's own (it
 * kills it by pid or pidfd, it reads its CPU time from /proc).  0 when
 * the server took the job; a negative code when it could not be reached,
 * in which case nothing started and the caller runs the job itself.  A
 * server that fails after taking the job ends the zygote: the engine then
 * retries the mutant once on a fresh zygote. */
int lt__relay_fresh(const uint8_t *payload, size_t len, int *fds,
                    uint64_t token)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_RUN);
    lt_wire_put_bytes(&w, payload, len);
    lt_wire_finish(&w);
    int rc = lt_wire_send(lt__zygote.preimport_sock, &w, fds, 2);
    lt_wire_writer_free(&w);
    if (rc < 0) {
        lt__preimport_close();
        return rc;
    }
    for (int want = LT_FRAME_STARTED; want <= LT_FRAME_EXITED; want++) {
        uint8_t *p = NULL;
        size_t n = 0;
        int type = lt_wire_recv(lt__zygote.preimport_sock, 4096, &p, &n,
                                NULL, NULL);
        struct lt_wire_reader r;
        lt_wire_reader_init(&r, p, n);
        if (type != want || lt_wire_get_u64(&r) != token || r.bad) {
            free(p);
            lt__zygote_die("the pre-import server failed during a job",
                           type < 0 ? type : LT_EPROTO);
        }
        lt_wire_writer_init(&w, (enum lt_frame_type)type);
        lt_wire_put_bytes(&w, p, n);
        free(p);
        lt__send_frame(lt__zygote.engine_sock, &w);
    }
    return 0;
}

/*** The pre-import server ***/

/* Keeps the zygote's test ids (a READY frame it relayed) as a list. */
static void server_keep_ids(const uint8_t *payload, size_t len)
{
    struct lt_reply f;
    if (lt_reply_decode(LT_FRAME_READY, payload, len, &f) < 0)
        _exit(3);
    PyObject *ids = PyList_New(f.ready.n_ids);
    for (uint32_t i = 0; ids && i < f.ready.n_ids; i++) {
        size_t k;
        const char *s = lt_wire_get_str(&f.ready.ids, &k);
        PyObject *id = PyUnicode_DecodeUTF8(s, (Py_ssize_t)k,
                                            "surrogateescape");
        if (!id || PyList_SetItem(ids, (Py_ssize_t)i, id) < 0)
            _exit(3);
    }
    if (!ids)
        _exit(3);
    Py_XSETREF(fresh_ids, ids);
}

/*** Copies of a ready zygote ***/

/* Children of this process make their scratch directories in instance i
 * of the view's scratch (without a view, in the one scratch path). */
void lt__use_scratch_instance(uint32_t i)
{
    if (lt__zygote.scratch_instances <= 1)
        return;
    free(lt__zygote.scratch_base);
    lt__zygote.scratch_base =
        xasprintf("%s/%u", lt__zygote.scratch_root, (unsigned)i);
}

/* A CLONE frame: the scratch instance, and one fd (the copy's socket). */
static int read_clone(const uint8_t *payload, size_t len, int nfds,
                      uint32_t *instance)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    *instance = lt_wire_get_u32(&r);
    if (nfds != 1 || lt_wire_reader_done(&r) < 0)
        return -1;
    if (lt__zygote.scratch_instances > 1 &&
        (*instance == 0 || *instance >= lt__zygote.scratch_instances))
        return -1;
    return 0;
}

/* A copy's first frame: its pid. */
static void send_cloned(int fd)
{
    lt__send_reply(fd, &(struct lt_reply){.type = LT_FRAME_CLONED,
                                          .cloned = {(uint32_t)getpid()}});
}

/* Forks a copy of this process that serves `copy_sock` in place of
 * *sock, dies with this process, and makes its children's scratch in
 * scratch instance `instance`.  0 in the copy; in this process the
 * copy's pid (or -1), with copy_sock closed. */
static pid_t fork_copy(int *sock, int copy_sock, uint32_t instance)
{
    pid_t parent = getpid();
    pid_t pid = lt__py_fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        close(*sock);
        *sock = copy_sock;
        lt__zygote.pid = getpid();
        lt__use_scratch_instance(instance);
        return 0;
    }
    close(copy_sock);
    return pid;
}

/* Children of ours that ended unwaited: copies of this zygote or server
 * (a job's child is always waited for before the next frame is read). */
void lt__reap_copies(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

/* The pre-import server's half of a CLONE: a copy of the server that
 * serves the copy of its zygote on the socket passed, and says CLONED
 * there first.  The copy dies with this server (and so with the original
 * zygote), and ends at EOF when the zygote's copy ends.  *sock becomes
 * the copy's socket in the copy; the original keeps its own. */
static void server_clone(const uint8_t *payload, size_t len, int *fds,
                         int nfds, int *sock)
{
    uint32_t instance;
    if (read_clone(payload, len, nfds, &instance) < 0)
        _exit(3);
    /* A failed fork: the zygote's copy sees EOF and says FAILED. */
    if (fork_copy(sock, fds[0], instance) == 0)
        send_cloned(*sock);
}

/*** The server's loop ***/

/* The server's set-up, in the process just forked from the zygote. */
static void become_server(pid_t zygote)
{
    lt__zygote.cov_writable = 0;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != zygote)
        _exit(0);
    /* Only the zygote speaks to the engine; the engine must see EOF on it
     * as soon as the zygote dies. */
    close(lt__zygote.engine_sock);
    lt__zygote.engine_sock = -1;
    /* The parent that this server's children check in the sandbox. */
    lt__zygote.pid = getpid();
    /* Everything the server holds is shared by its children: frozen, the
     * collections of a child (its own, before the sandbox) do not walk
     * it, and its pages are not copied. */
    PyObject *gc = PyImport_ImportModule("gc");
    PyObject *r = gc ? PyObject_CallMethod(gc, "freeze", NULL) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(gc);
    PyErr_Clear();
}

/* A fresh child just forked by the server: it dies with the server and
 * takes the job's result pipe (fds[0]) and output (fds[1]). */
static void become_fresh_child(int sock, int *fds)
{
    /* Die with the server (which dies with the zygote); the sandbox arms
     * this again and checks the parent. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != lt__zygote.pid)
        _exit(3);
    close(sock);
    lt__zygote.fresh_child = 1;
    lt__zygote.result_fd = fds[0];
    if (dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
        _exit(72);
    close(fds[1]);
}

/* The server's loop, in the process forked inside the first import of a
 * subject.  It runs nothing of the project: it waits for the zygote's
 * frames, forks a child per RUN and reports STARTED and EXITED back.  It
 * returns only in such a child, with the arguments of the job (a new
 * reference), so that the child goes on with the import it was paused
 * in, the mutant's loader patch in place.  It ends with the zygote (EOF,
 * QUIT, or PDEATHSIG when the zygote is killed). */
static PyObject *preimport_serve(int sock, pid_t zygote)
{
    become_server(zygote);
    for (;;) {
        uint8_t *payload = NULL;
        size_t len = 0;
        int fds[LT_WIRE_MAX_FDS];
        int nfds = 0;
        int type = lt_wire_recv(sock, LT_WIRE_MAX_FRAME, &payload, &len, fds,
                                &nfds);
        if (type <= 0 || type == LT_FRAME_QUIT)
            _exit(0);
        lt__reap_copies();
        if (type == LT_FRAME_CLONE) {
            server_clone(payload, len, fds, nfds, &sock);
            free(payload);
            continue;
        }
        if (type == LT_FRAME_READY && nfds == 0) {
            server_keep_ids(payload, len);
            free(payload);
            continue;
        }
        struct lt_run_frame q;
        if (type != LT_FRAME_RUN || nfds != 2 || !fresh_ids ||
            lt_run_frame_decode(payload, len, &q) < 0)
            _exit(3);
        PyObject *job_args = lt__run_job_args(&q);
        if (!job_args)
            _exit(3);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t pid = lt__py_fork();
        if (pid == 0) {
            become_fresh_child(sock, fds);
            free(payload);
            return job_args;
        }
        int fork_errno = errno;
        Py_DECREF(job_args);
        lt__close_fds(fds, nfds);
        free(payload);
        lt__send_started(sock, q.token, pid, fork_errno);
        lt__reap_and_report(sock, q.token, pid, &t0);
    }
}

/* _litmus.preimport_fork(): called by the shim's import hook when a
 * subject is about to be imported for the first time.  In the zygote it
 * forks the pre-import server, starts tracing import-time lines and
 * returns None; in a child of the server it returns that child's job
 * arguments (see preimport_serve).  Once per zygote; None when the fork
 * fails (fresh runs then fall back to re-execution). */
static PyObject *py_preimport_fork(PyObject *self, PyObject *args)
{
    if (lt__zygote.preimport_sock >= 0 || lt__zygote.engine_sock < 0 ||
        lt__zygote.fresh_child || lt__zygote.ready_sent)
        Py_RETURN_NONE;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        Py_RETURN_NONE;
    pid_t zygote = getpid();
    pid_t pid = lt__py_fork();
    if (pid == 0) {
        close(sv[0]);
        return preimport_serve(sv[1], zygote);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        Py_RETURN_NONE;
    }
    lt__zygote.preimport_sock = sv[0];
    lt__import_trace_begin();
    Py_RETURN_NONE;
}

/* _litmus.fresh_ids(): in a fresh child, the zygote's test ids, by which
 * the engine's indices are mapped to this child's own collection. */
static PyObject *py_fresh_ids(PyObject *self, PyObject *args)
{
    if (!fresh_ids)
        return PyList_New(0);
    return Py_NewRef(fresh_ids);
}

/* _litmus.fresh_end(): a fresh child is done (its tests ran, or applying
 * the mutant was refused): END and _exit, as run_child (zygote_serve.c)
 * ends. */
static PyObject *py_fresh_end(PyObject *self, PyObject *args)
{
    fflush(stdout);
    fflush(stderr);
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_END});
    _exit(0);
}

/* _litmus.fresh_abort(message): a fresh child's collection failed. */
static PyObject *py_fresh_abort(PyObject *self, PyObject *args)
{
    const char *msg;
    if (!PyArg_ParseTuple(args, "s", &msg))
        return NULL;
    lt__fresh_abort(msg);
}

/*** The zygote's half of a CLONE ***/

/* CLONE: forks a copy of this ready zygote that serves the socket
 * passed, with its own scratch instance and, when this zygote has a
 * pre-import server, its own copy of that server.  The copy says CLONED
 * (or FAILED when the server could not be copied: its fresh runs would
 * otherwise fall back to re-execution and differ from this zygote's) and
 * goes on in the serve loop; so does this zygote.  The copy dies with
 * this zygote. */
void lt__handle_clone(const uint8_t *payload, size_t len, int *fds,
                      int nfds)
{
    uint32_t instance;
    if (read_clone(payload, len, nfds, &instance) < 0) {
        lt__close_fds(fds, nfds);
        lt__zygote_die("malformed CLONE frame", LT_EPROTO);
    }
    /* The server is asked as the engine asks a zygote. */
    int server = -1;
    if (lt__zygote.preimport_sock >= 0 &&
        lt_zygote_send_clone(lt__zygote.preimport_sock, instance, &server) < 0)
        server = -1;
    if (fork_copy(&lt__zygote.engine_sock, fds[0], instance) == 0) {
        if (lt__zygote.preimport_sock >= 0) {
            close(lt__zygote.preimport_sock);
            lt__zygote.preimport_sock = server;
            uint8_t *p = NULL;
            size_t n = 0;
            int type = server < 0 ? -1
                                  : lt_wire_recv(server, 64, &p, &n, NULL,
                                                 NULL);
            free(p);
            if (type != LT_FRAME_CLONED) {
                lt__send_failed("the pre-import server could not be copied");
                lt__zygote_exit(3);
            }
        }
        send_cloned(lt__zygote.engine_sock);
        return;
    }
    /* A failed fork: the engine sees EOF on the copy's socket. */
    if (server >= 0)
        close(server);
}

PyMethodDef lt__preimport_methods[] = {
    {"preimport_fork", py_preimport_fork, METH_NOARGS,
     "Fork the pre-import server (zygote) or get a fresh job (child)."},
    {"fresh_ids", py_fresh_ids, METH_NOARGS, "The zygote's test ids."},
    {"fresh_end", py_fresh_end, METH_NOARGS, "End a fresh child."},
    {"fresh_abort", py_fresh_abort, METH_VARARGS,
     "A fresh child's collection failed: a kill."},
    {NULL, NULL, 0, NULL},
};
