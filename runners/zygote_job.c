/* A job's child, as both forking servers run one (the zygote's serve loop
 * in zygote_serve.c and the pre-import server in zygote_preimport.c): the
 * job's arguments and limits from its RUN frame, fork with CPython's
 * hooks, entering the sandbox (process mode or not), STARTED, and the
 * reaping that reports EXITED.  Calls only zygote_io.c.
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
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

uint64_t lt__cpu_with_children_ns(void)
{
    struct rusage ru;
    uint64_t ns = lt__cpu_now_ns();
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
        ns += ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
                  1000000000u +
              ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) *
                  1000u;
    return ns;
}

/* Closes the fds of a frame that are open (>= 0). */
void lt__close_fds(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* A NUL-terminated copy of n bytes at s, or NULL for NULL. */
static char *copy_field(const char *s, size_t n)
{
    if (!s)
        return NULL;
    char *c = xmalloc(n + 1);
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* Keeps what of q decides the files its sandbox binds. */
static void keep_change(const struct lt_run_frame *q)
{
    struct lt__job_change *c = &lt__zygote.child_change;
    free(c->repl);
    free(c->extra);
    *c = (struct lt__job_change){
        .mode = q->mode, .flags = q->flags, .subject = q->subject,
        .start = q->start, .end = q->end,
        .repl = copy_field(q->repl, q->repl_len), .repl_len = q->repl_len,
        .extra = copy_field(q->extra, q->extra_len),
        .extra_len = q->extra_len};
}

/* The arguments of the shim's child_main for a decoded RUN (a new
 * reference); sets the child's limits, keeps its change and makes its
 * scratch directory. */
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
    keep_change(q);
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

/* Writes len bytes at data to a new file DIR/NAME (NAME the target's
 * base name) and appends the pair (that file, target) to binds, kept
 * NULL-terminated.  Ends the child on failure. */
static void write_bind(const char *dir, const char *target, const char *data,
                       size_t len, const char **binds, size_t *k)
{
    if (*k >= 2 * MAX_BINDS)
        lt__zygote_die("too many changed files to bind", LT_EUSAGE);
    const char *slash = strrchr(target, '/');
    char *path = xasprintf("%s/%s", dir, slash ? slash + 1 : target);
    int rc = lt_write_file(path, data, len);
    if (rc < 0)
        lt__zygote_die("cannot write a changed file to scratch", rc);
    binds[(*k)++] = path;
    binds[(*k)++] = target;
    binds[*k] = NULL;
}

/* Makes DIR under the child's scratch (its parents included). */
static char *scratch_dir(const char *sub)
{
    char *dir = xasprintf("%s/%s", lt__zygote.child_scratch, sub);
    for (char *p = dir + strlen(lt__zygote.child_scratch) + 1;; p++) {
        char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
            lt__zygote_die("cannot make a directory in scratch", -errno);
        *p = c;
        if (!c)
            break;
    }
    return dir;
}

/* A mutant's subject, its span replaced, bound over the subject. */
static void mutant_binds(const struct lt__job_change *c, const char **binds,
                         size_t *k)
{
    const struct lt_init_frame *init = lt__zygote.init;
    if (!init || c->subject >= init->n_subjects || !c->repl ||
        c->start > c->end || c->end > init->source_lens[c->subject])
        lt__zygote_die("a mutant outside its subject", LT_EPROTO);
    const char *src = init->sources[c->subject];
    size_t len = init->source_lens[c->subject];
    struct lt_buf text = LT_BUF_INIT;
    lt_buf_append(&text, src, c->start);
    lt_buf_append(&text, c->repl, c->repl_len);
    lt_buf_append(&text, src + c->end, len - c->end);
    char *dir = scratch_dir(".litmus-mutant");
    write_bind(dir, init->paths[c->subject], text.data ? text.data : "",
               text.len, binds, k);
    lt_buf_free(&text);
    free(dir);
}

/* A candidate's whole files (LT_RUN_FILES: the job's JSON "files", pairs
 * of path and text, null for a deleted file), each bound over its
 * original when that exists: a new file has nothing to be bound over,
 * and the tests' processes import it from the tree (repo.c puts it
 * there). */
static void files_binds(const struct lt__job_change *c, const char **binds,
                        size_t *k)
{
    json_error_t err;
    json_t *job = c->extra ? json_loadb(c->extra, c->extra_len,
                                        JSON_ALLOW_NUL, &err)
                           : NULL;
    json_t *files = json_object_get(job, "files");
    if (!json_is_array(files))
        lt__zygote_die("a change of files without its files", LT_EPROTO);
    size_t n;
    json_t *f;
    json_array_foreach(files, n, f) {
        const char *path = json_string_value(json_array_get(f, 0));
        json_t *text = json_array_get(f, 1);
        if (!path)
            lt__zygote_die("a changed file without its path", LT_EPROTO);
        if (!json_is_string(text) || access(path, F_OK) < 0)
            continue;
        char *sub = xasprintf(".litmus-files/%zu", n);
        char *dir = scratch_dir(sub);
        write_bind(dir, xstrdup(path), json_string_value(text),
                   json_string_length(text), binds, k);
        free(dir);
        free(sub);
    }
    json_decref(job);
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
void lt__child_enter_sandbox(void)
{
    const struct lt__job_change *c = &lt__zygote.child_change;
    int processes = (c->flags & LT_RUN_PROCESSES) &&
                    (!lt__zygote.child_untrusted || c->mode == LT_RUN_MUTANT);
    /* Strings that live as long as the child: it never returns. */
    static const char *binds[2 * MAX_BINDS + 1];
    size_t k = 0;
    binds[0] = NULL;
    if (processes && c->mode == LT_RUN_MUTANT) {
        if (c->flags & LT_RUN_FILES)
            files_binds(c, binds, &k);
        else
            mutant_binds(c, binds, &k);
    }
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
}
