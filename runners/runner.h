/* Runner processes: a zygote embeds CPython with pytest and the subject
 * imported and its tests collected, then forks one sandboxed child per
 * job.  This header is what the engine uses to start zygotes and talk to
 * them; the protocol is in harness/wire.h.  SPDX-License-Identifier: MIT */
#ifndef LT_RUNNERS_RUNNER_H
#define LT_RUNNERS_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>


struct lt_subject {
    const char *path;   /* absolute path */
    const char *source; /* UTF-8 text as litmus read it */
    size_t len;
};

struct lt_runner_config {
    const char *exe;           /* the litmus binary, re-executed as the
                                  zygote by a sanitizer build */
    const char *cwd;           /* where pytest runs, as the user ran it */
    const char *scratch_base;  /* private dir for the children's scratch */
    char *const *pytest_args;  /* test paths and user's pytest options */
    size_t n_pytest_args;
    const struct lt_subject *subjects;
    size_t n_subjects;
    int debug;                 /* keep the zygote's stderr */
    int bare;                  /* no pytest: a zygote for call evaluation
                                  (LT_RUN_CALLS) only */
    int preload_generator;     /* import the differential input generator
                                  (hypothesis) before the guards pin the
                                  framework: its children run
                                  differential jobs */
    int runner;                /* enum lt_test_runner: what collects and
                                  runs the tests */
    const char *python;        /* the interpreter whose environment the
                                  zygote takes (a venv's bin/python: its
                                  site-packages and .pth files); NULL:
                                  LT_PYTHON_DEFAULT (pyload.h) */
    const char *libpython;     /* its shared libpython, which the zygote
                                  loads; NULL: the default's */
    const char *path_prefix;   /* ':'-separated absolute directories put
                                  first on sys.path, after the working
                                  directory (PYTHONPATH, an src root);
                                  NULL: none */
    /* The file-system view (sandbox.h, lt_sandbox_view_enter): */
    int no_view;               /* 1: no view (the tests see the host's
                                  file system through Landlock only) */
    char *const *allow_read;   /* more paths the tests may read */
    size_t n_allow_read;
    char *const *pass_env;     /* names of environment variables the
                                  tests see besides PATH, HOME, TMPDIR,
                                  LANG, LANGUAGE, LC_*, TZ, VIRTUAL_ENV,
                                  PYTHON* and PYTEST_* */
    size_t n_pass_env;
    unsigned sandbox_uid;      /* identity of the children when litmus runs
                                  as root; 0: LT_RUNNER_SANDBOX_UID */
    unsigned scratch_mb;       /* size of the writable scratch; 0: the
                                  default LT_RUNNER_SCRATCH_MB */
};

/* What collects and runs the tests (--runner; docs/environment.md): the
 * zygote hands it to the shim's main() in bits 2-3 of its flags. */
enum lt_test_runner {
    LT_TEST_RUNNER_PYTEST = 0,   /* pytest in-process (the default) */
    LT_TEST_RUNNER_UNITTEST = 1, /* as `python -m unittest discover` */
    LT_TEST_RUNNER_DOCTEST = 2,  /* as `python -m doctest FILE` */
    LT_TEST_RUNNER_DJANGO = 3,   /* Django's own suite, set up as its
                                    tests/runtests.py does */
};

#define LT_RUNNER_SANDBOX_UID 65534 /* nobody */
#define LT_RUNNER_SCRATCH_MB 512
/* Scratch tmpfs instances in a zygote's file-system view: the zygote
 * uses instance 0, each copy forked from it (lt_zygote_send_clone) one
 * of the others, so that every child still has a scratch of its own
 * size to itself. */
#define LT_RUNNER_SCRATCH_SLOTS 16

/* Starts a zygote: fork + exec of the interpreter (`python -c BOOT
 * litmus-python.so`, serving on fd 3; a sanitizer build: `exe __zygote
 * 3 PYTHON LIBPYTHON`) with a socketpair, then sends the INIT frame.  *pid and *sock (the engine's end, CLOEXEC)
 * on success; 0 or a negative code.  The zygote answers READY or FAILED. */
int lt_zygote_spawn(const struct lt_runner_config *cfg, pid_t *pid,
                    int *sock);

enum lt_run_mode {
    LT_RUN_BASELINE = 0, /* the original, every test, with coverage */
    LT_RUN_MUTANT = 1,   /* replace a span of a subject, run tests */
    LT_RUN_CALLS = 2,    /* evaluate calls: `extra` is a JSON job (see
                            docs/design.md, "Call evaluation") */
};

/* Flags of a run (lt_run_request.flags). */
enum lt_run_flags {
    /* The change is untrusted (a patch): enter the sandbox before it is
     * compiled or run, and arm the guards: an audit hook and an integrity
     * check of the framework kept in C; any guard that fires sends TAMPER
     * and ends the child without END. */
    LT_RUN_UNTRUSTED = 1,
    LT_RUN_COVERAGE = 2,    /* per-test line coverage (COVERAGE frames) */
    LT_RUN_CAPTURE = 4,     /* send a CALL frame per outermost call from
                               test code into the subject */
    LT_RUN_GUARD_EACH = 8,  /* integrity check after every test, not only
                               at the end */
    LT_RUN_CHECK_EQ = 16,   /* flag values returned by the subject that
                               compare equal to anything */
    /* A trusted mutant that needs a fresh import (module or class body
     * changed, or its lines ran at import): the zygote hands it to its
     * pre-import server, whose child imports the mutated subject and
     * collects the tests anew; without a server the zygote re-executes
     * the module as for any mutant.  See docs/design.md. */
    LT_RUN_FRESH = 32,
    /* The tests may start processes and use loopback sockets: the child
     * runs them in process mode (sandbox.h, lt_sandbox_enter_processes),
     * a mutant's file bound over the subject so that every process it
     * starts sees the mutant.  A baseline with it reports NEEDS frames. */
    LT_RUN_PROCESSES = 64,
    /* The change is a set of whole files (a repository candidate), given
     * in `extra` as JSON {"files": [[path, text], ...]} (text null: the
     * file is deleted) instead of a span of one subject: changed
     * subjects are re-executed from their new text, new Python files are
     * importable, and in process mode every changed file is bound over
     * the original. */
    LT_RUN_FILES = 128,
};

/* One job for a zygote: apply a change to a subject (mode mutant), enter
 * the sandbox, run the listed tests in order. */
struct lt_run_request {
    uint64_t token;
    enum lt_run_mode mode;
    uint32_t subject;         /* index into the subjects of INIT */
    uint64_t start, end;      /* byte span replaced in that subject */
    const char *replacement;
    const uint32_t *tests;    /* indices into the collected tests */
    size_t n_tests;
    int stop_first;           /* stop at the first failing test */
    uint64_t cpu_seconds;     /* RLIMIT_CPU of the child */
    uint64_t memory_bytes;    /* RLIMIT_AS of the child; 0 = none */
    uint32_t flags;           /* enum lt_run_flags */
    const char *extra;        /* LT_RUN_CALLS: the JSON job; else NULL */
    const uint8_t *swap;      /* LT_RUN_MUTANT: the swap payload of the
                                 analysis, or NULL: the child compiles */
    size_t swap_len;
};

/* Sends a RUN frame with the child's result and output pipe write ends. */
int lt_zygote_send_run(int sock, const struct lt_run_request *req,
                       int result_fd, int output_fd);
int lt_zygote_send_quit(int sock);
/* Asks an idle, ready zygote to fork a copy of itself: the copy has the
 * same interpreter, imports and collected tests (no start-up cost), its
 * own pre-import server and scratch instance `instance` (below
 * LT_RUNNER_SCRATCH_SLOTS, unused by the rest of the zygote's family),
 * and dies with the zygote.  *clone_sock: the engine's end of the copy's
 * socket (CLOEXEC); the copy's first frame on it is CLONED (its pid), or
 * FAILED.  0 or a negative code.  A zygote asks its pre-import server
 * for a copy of the server the same way (zygote_preimport.c). */
int lt_zygote_send_clone(int sock, uint32_t instance, int *clone_sock);

/* Entry point of a sanitizer build's zygote process (`litmus __zygote
 * FD PYTHON LIBPYTHON`): loads libpython and litmus-python.so; never
 * returns. */
_Noreturn void lt_zygote_main(int sock, const char *python,
                              const char *libpython);

#endif
