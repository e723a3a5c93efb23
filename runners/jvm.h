/* The Java worker: a warm JVM, started in-process inside the sandbox by
 * `litmus __jvm IN OUT`, that compiles Java in memory and runs JUnit 4
 * tests or call expressions.  The engine talks to it in the messages of
 * harness/jvm_wire.h; the fields of each message are listed in
 * runners/jvm.c.  SPDX-License-Identifier: MIT */
#ifndef LT_RUNNERS_JVM_H
#define LT_RUNNERS_JVM_H

#include <stddef.h>
#include <sys/types.h>

struct lt_jvm_config {
    const char *exe;          /* the litmus binary, re-executed */
    const char *scratch_base; /* private dir for the worker's scratch */
    char *const *read_paths;  /* absolute paths the worker may read
                                 (program and test roots) */
    size_t n_read_paths;
    unsigned heap_mb;         /* -Xmx; 0: LT_JVM_DEFAULT_HEAP_MB */
    unsigned sandbox_uid;     /* when root; 0: LT_RUNNER_SANDBOX_UID */
    int debug;                /* keep the worker's stderr */
};

#define LT_JVM_DEFAULT_HEAP_MB 256

/* Whether this litmus was built with Java support (javac and jni.h at
 * configure time). */
int lt_jvm_available(void);

/* Starts a worker.  0 with *pid, *to_fd (requests; blocking, a stream
 * socket: send with MSG_NOSIGNAL) and *from_fd (answers; a pipe,
 * O_NONBLOCK), both close-on-exec; or a negative code with *err (the
 * caller frees) saying why.  The worker's first answer is `ready`. */
int lt_jvm_spawn(const struct lt_jvm_config *c, pid_t *pid, int *to_fd,
                 int *from_fd, char **err);

/* Sends quit, closes both fds, waits briefly, kills what is left of the
 * worker and reaps it. */
void lt_jvm_stop(pid_t pid, int to_fd, int from_fd);

/* Entry point of `litmus __jvm IN OUT`; never returns. */
_Noreturn void lt_jvm_main(int in_fd, int out_fd);

#endif
