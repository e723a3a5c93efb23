/* Shared by the zygote_*.c files only: the state of a zygote process and
 * of the processes forked from it (zygote_io.c defines it), and what each
 * file offers the files above it.  SPDX-License-Identifier: MIT */
#ifndef LT_RUNNERS_ZYGOTE_INTERNAL_H
#define LT_RUNNERS_ZYGOTE_INTERNAL_H

#include "common/pyabi.h"

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "harness/wire.h"
#include "runners/frames.h"

/* What of a job's RUN frame decides the files its sandbox binds: copies,
 * since a pre-import server's child frees its frame before it enters the
 * sandbox. */
struct lt__job_change {
    int mode;
    uint32_t flags, subject;
    uint64_t start, end;
    char *repl, *extra; /* NUL-terminated copies; NULL: none */
    size_t repl_len, extra_len;
};

/* One per process: a child, the pre-import server and a copy each start
 * from the zygote's and change what differs. */
struct lt__zygote_state {
    int engine_sock;    /* zygote: to the engine; -1 elsewhere */
    int result_fd;      /* child: its result pipe */
    int ready_sent;     /* READY went out: later failures are not start-up's */
    int failed_sent;    /* FAILED went out: the engine knows why */
    pid_t pid;          /* the parent this process's children check */
    unsigned features;  /* sandbox features the zygote itself set up */
    struct lt_wire_writer view_note; /* VIEW frame, sent before READY */
    int view_note_ready;
    char *run_cwd;
    /* The INIT frame, kept for good: the subjects' paths and sources
     * (a mutant's file in process mode is made from them). */
    const struct lt_init_frame *init;
    char *scratch_base; /* where this process's children's scratch
                           directories are made */
    char *scratch_root; /* the view's scratch path (INIT's) */
    unsigned scratch_instances; /* tmpfs instances below it */
    /* Fresh imports (docs/design.md, "Module and class-level mutants"):
     * the zygote's pre-import server, forked while the first subject was
     * being imported, and in the server's children the state of a fresh
     * run. */
    int preimport_sock; /* zygote: to its pre-import server */
    int fresh_child;    /* this is a child of that server */
    int fresh_applied;  /* that child sent APPLIED */
    /* The zygote's temporary directory (TMPDIR and HOME at collection)
     * and the fd its paths go through: /proc/self/fd/N, N this fd, where
     * each child puts a copy of its own (-1: none, the plain path). */
    char *collection_tmp;
    int collection_tmp_fd;
    /* Settings of the job the current child runs. */
    struct lt__job_change child_change;
    char *child_scratch;
    int child_sandboxed; /* this child entered the sandbox */
    int child_untrusted; /* its job runs an untrusted change */
    uint64_t child_cpu_seconds;
    uint64_t child_memory_bytes;
    /* Whether this process may still write the build tree's gcov counts:
     * the zygote until it enters its file-system view (as another uid, in
     * a mount namespace that does not show the build tree writable);
     * never a child, which is sandboxed.  Only coverage builds look at
     * it. */
    int cov_writable;
};
extern struct lt__zygote_state lt__zygote; /* zygote_io.c */

/* The files form layers: each calls only the files declared before it
 * here, from zygote_io.c at the bottom to zygote.c at the top. */

/*** zygote_io.c: exits and frames (calls no other zygote file) ***/

/* _exit() after writing the gcov counts where allowed. */
_Noreturn void lt__zygote_exit(int code);
/* A line on stderr, then lt__zygote_exit(3). */
_Noreturn void lt__zygote_die(const char *what, int code);
/* Finishes, sends and frees w; a broken engine socket ends the zygote,
 * a broken result pipe the child. */
void lt__send_frame(int fd, struct lt_wire_writer *w);
/* Encodes *f (lt_reply_encode, runners/frames.h) and sends it on fd, as
 * lt__send_frame. */
void lt__send_reply(int fd, const struct lt_reply *f);
/* FAILED to the engine (in a fresh child: lt__fresh_abort), for cause
 * (enum lt_fail_cause, harness/wire.h); lt__send_failed: LT_FAIL_OTHER. */
void lt__send_failure(int cause, const char *msg);
void lt__send_failed(const char *msg);
/* A fresh child that failed before its tests: a kill, never a pass. */
_Noreturn void lt__fresh_abort(const char *msg);

/*** zygote_job.c: a job's child ***/

/* CPU time of this process so far, in ns. */
uint64_t lt__cpu_now_ns(void);
/* The same plus that of the children it waited for: a test's CPU time,
 * counted as the engine counts it when it enforces the test's budget
 * (the time of a process the test ran is the test's). */
uint64_t lt__cpu_with_children_ns(void);
void lt__close_fds(int *fds, int n);
pid_t lt__py_fork(void);
/* A child enters the sandbox with its job's limits and scratch (the job
 * lt__run_job_args() last set up), and sends SANDBOXED.  In process mode
 * (the job's LT_RUN_PROCESSES; an untrusted job only for a change of
 * code, LT_RUN_MUTANT) the changed files, a mutant's subject or a
 * candidate's whole files, are written to scratch here, in C, as bytes
 * that are neither compiled nor run, and bound over the originals, so
 * that every process the tests start sees the change.  Ends the child
 * when the files cannot be written or the sandbox cannot be had. */
void lt__child_enter_sandbox(void);
PyObject *lt__run_job_args(const struct lt_run_frame *q);
void lt__send_started(int fd, uint64_t token, pid_t pid, int err);
void lt__reap_and_report(int fd, uint64_t token, pid_t pid,
                         const struct timespec *t0);

/*** zygote_trace.c: the tracers ***/

void lt__trace_init(char **paths, const size_t *source_lens,
                    const char **sources, uint32_t n);
void lt__import_trace_begin(void);
void lt__import_trace_send(void);
extern PyMethodDef lt__trace_methods[];

/*** zygote_preimport.c: fresh imports and copies ***/

void lt__preimport_close(void);
int lt__relay_fresh(const uint8_t *payload, size_t len, int *fds,
                    uint64_t token);
void lt__handle_clone(const uint8_t *payload, size_t len, int *fds,
                      int nfds);
void lt__reap_copies(void);
void lt__use_scratch_instance(uint32_t i);
extern PyMethodDef lt__preimport_methods[];

/*** zygote_serve.c: the fork server ***/

/* The fork server loop: RUN and CLONE frames until QUIT or EOF.  A
 * job's child calls callback with the job's arguments (the shim's
 * child_main); an untrusted job's child enters the sandbox before. */
PyObject *lt__serve(PyObject *callback);

/*** zygote_module.c: the `_litmus` module ***/

/* Creates the `_litmus` module (the inittab's init function). */
PyObject *lt__litmus_module_init(void);

/*** zygote.c: start-up (the top) ***/

/* The zygote, in litmus-python.so: what lt_zygote_main (runner.h,
 * zygote_client.c) finds by name and hands the engine's socket to. */
_Noreturn void lt_py_zygote_main(int sock);

/* The same zygote in the interpreter's own executable: litmus-python.so
 * as the extension module `_litmus_zygote`, whose serve(fd) the new
 * process's `python -c` calls (lt_zygote_spawn). */
PyMODINIT_FUNC PyInit__litmus_zygote(void);

#endif
