/* The Java worker's C side: the engine's end (spawn, stop) and the
 * worker process itself, which enters the sandbox, loads libjvm.so and
 * starts the JVM in-process through the JNI Invocation API (no execve),
 * defines the embedded runner classes and hands the protocol fds to
 * litmus.jvm.LitmusRunner.serve().  SPDX-License-Identifier: MIT */

/*** What the JVM needs from the sandbox (measured, JDK 17, 2 cores) ***
 *
 * Threads.  A ready worker has 13 threads: HotSpot's own (VM thread,
 * serial GC, one C1 compiler thread with -XX:TieredStopAtLevel=1,
 * reference handler, finalizer, signal dispatcher, service thread,
 * sweeper, common cleaner, ...) and the server's main thread; the
 * server starts one more per test or call (the thread
 * whose CPU time the budget watches).  The sandbox must allow threads
 * (clone with CLONE_THREAD; clone3 answers ENOSYS and glibc falls back
 * to clone).  Processes stay refused: ProcessBuilder goes through
 * posix_spawn, a clone without CLONE_THREAD, which seccomp refuses, so
 * the program gets an IOException.
 *
 * Memory.  RLIMIT_AS counts address space reserved, not used, and the
 * JVM reserves far more than it touches: the heap's full -Xmx up front,
 * the compressed class space, the code cache, metaspace chunks, 1 MiB of
 * stack per VM thread and 16 MiB per test thread, the mapped module
 * image (lib/modules, about 130 MiB) and the CDS archive, and glibc's
 * malloc arenas (64 MiB each; capped at 2 with M_ARENA_MAX).  Measured
 * with the options below (class space 64m, code cache 48m, metaspace
 * 192m): a ready worker with -Xmx256m has a VSZ of about 750 MiB (550
 * MiB with -Xmx64m); warm, after hundreds of compiles and test runs,
 * its RSS is 115 to 190 MiB (900 runs of compile and tests), its VSZ
 * unchanged.  The worker therefore gets RLIMIT_AS = heap +
 * LT_JVM_AS_SLACK_MB (1,280 MiB by default):
 * -Xmx is the real limit on what a program can allocate (an
 * OutOfMemoryError, which the server reports as M and then ends), and
 * the address-space cap is a backstop against native allocation: a
 * program may still start a few hundred threads (300 sleeping threads
 * were measured to fit), but a thread bomb or a native leak meets the
 * cap inside the worker instead of reaching the host.  Sanitizer builds
 * set no cap, as for Python children.
 *
 * CPU.  No RLIMIT_CPU: the worker lives across many runs.  The server
 * watches each test's or call's thread with ThreadMXBean and stops it
 * over budget (Thread.stop); a thread that will not stop ends the worker
 * (status timeout).  The engine's wall deadline is the backstop.
 *
 * JIT.  C1 only (-XX:TieredStopAtLevel=1).  Measured on a 256-line
 * class compiled 600 times: C1 reaches 13 ms of CPU per compile and
 * the worker spent 11 s of CPU in all; full tiered compilation reaches
 * 9 ms but spent 19 s on the same 600 (C2's compiler threads), which
 * pays off only after some 2,000 further compiles per worker, and on 2
 * cores C2's threads take CPU from the other workers.  The study's
 * programs of about 250 lines compile in 4 to 7 ms of CPU once warm.
 *
 * A run.  A program's variants with JUnit tests (bench/corpus/java's
 * matrix, intlist, textfmt: 250 lines and 100 to 150 of tests) cost,
 * per run on 2 workers, about 8.5 ms of compile CPU (it was 14 to 15):
 * the test sources are compiled once per worker and program, and their
 * class files reused for every variant whose class files have the API
 * the tests were compiled against (LitmusRunner.compileReusing: names,
 * modifiers, supertypes, signatures, thrown types, constant values,
 * which javac copies into the tests); a variant whose text has the
 * shape of the last one at its path is not parsed beforehand (1.1 ms).
 * Once warm, alone (-j 1): 5 to 6 ms of compile (javac 4.5, the rest
 * reading the test root), 2 to 3 ms of CPU in the tests' threads (ten
 * tests, each in a thread of its own) and up to 1 ms collecting them;
 * the tests' wall time is 2 to 4 times their CPU (a thread started per
 * test; with both workers busy they wait for a core).  C1 takes a fifth
 * of the workers' CPU over a 450-run dataset, most of it in each
 * worker's first 50 runs (javac's and JUnit's methods growing hot).
 * LITMUS_DEBUG=1 prints a line of timings per run.
 * One compiler thread (-XX:CICompilerCount=1; the JVM picks two on 2
 * cores): it compiles what the warm-up makes hot as well, with less CPU
 * (0.66 -> 0.63 s to ready) and sooner (0.45 -> 0.41 s), as the
 * second thread took the core the warm-up runs on.
 *
 * Start-up.  Spawn to `ready` costs about 0.65 s of CPU: the JVM's boot
 * (0.1 s), the warm-up's three compile-and-test rounds interpreted
 * (0.35 s; the first real request no longer pays it) and C1 compiling
 * what they made hot.  A dynamic CDS archive made at build time
 * (java/litmus-worker.jsa next to the binary; runners/CMakeLists.txt,
 * java/CdsTrain.java) holds the 2,000 classes of javac, JUnit and
 * java.management the warm-up loads beyond the JDK's own archive, parsed
 * and verified: without it start-up costs 0.9 s of CPU.  Fewer warm-up
 * rounds start sooner (one: 0.5 s of CPU) but the first requests pay it
 * back: a small dataset run is no faster.
 *
 * Files.  The view shows the JDK (and the files its conf/ and
 * lib/security links point to, in /etc/java-17-openjdk), JUnit's jars,
 * the program and test roots, the CDS archive; the scratch tmpfs is the
 * only writable place, the working directory and java.io.tmpdir.  No hsperfdata
 * (-XX:-UsePerfData), no attach socket (-XX:+DisableAttachMechanism).
 */
#include "runners/jvm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cov.h"
#include "common/err.h"
#include "common/pyload.h"
#include "common/xmalloc.h"
#include "harness/jvm_wire.h"
#include "runners/runner.h"
#include "sandbox/sandbox.h"

#ifdef LT_WITH_JAVA
#include <dlfcn.h>
#include <jni.h>
#endif

#ifndef LT_JAVA_HOME
#define LT_JAVA_HOME "/usr/lib/jvm/default-java"
#endif
#define LT_JAVA_FALLBACK_HOME "/usr/lib/jvm/default-java"
#define LT_JUNIT_JAR "/usr/share/java/junit4.jar"
#define LT_HAMCREST_JAR "/usr/share/java/hamcrest-core.jar"

/* Address space beyond the heap (see the comment above). */
#define LT_JVM_AS_SLACK_MB 1024u
/* The JVM's own thread: javac recurses deeply on long expressions. */
#define LT_JVM_MAIN_STACK (16u << 20)

#define NO_JAVA_MSG                                                       \
    "litmus was built without Java support (install "                    \
    "openjdk-17-jdk-headless and rebuild)"

int lt_jvm_available(void)
{
#ifdef LT_WITH_JAVA
    return 1;
#else
    return 0;
#endif
}

/*** The engine's side ***/

/* The JDK to load: $JAVA_HOME, else the one found at build time, else
 * Debian's default; the first whose libjvm.so exists.  A new string. */
static char *java_home(void)
{
    const char *candidates[] = {getenv("JAVA_HOME"), LT_JAVA_HOME,
                                LT_JAVA_FALLBACK_HOME};
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]);
         i++) {
        if (!candidates[i] || !candidates[i][0])
            continue;
        char *lib = xasprintf("%s/lib/server/libjvm.so", candidates[i]);
        int ok = access(lib, R_OK) == 0;
        free(lib);
        if (ok)
            return xstrdup(candidates[i]);
    }
    return NULL;
}

/* The worker's environment: a UTF-8 locale and a search path, nothing of
 * litmus's own (tokens, keys); TZ passes so dates print as the user's. */
static char **worker_env(int debug)
{
    char **env = xcalloc(6, sizeof(char *));
    size_t k = 0;
    env[k++] = xstrdup("PATH=/usr/bin:/bin");
    env[k++] = xstrdup("LANG=C.UTF-8");
    env[k++] = xstrdup("LC_ALL=C.UTF-8");
    const char *tz = getenv("TZ");
    if (tz)
        env[k++] = xasprintf("TZ=%s", tz);
    if (debug)
        env[k++] = xstrdup("LITMUS_JVM_DEBUG=1");
    return env;
}

static void free_env(char **env)
{
    for (size_t i = 0; env[i]; i++)
        free(env[i]);
    free(env);
}

/* The init message: everything the worker needs before its JVM starts. */
static void encode_init(struct lt_buf *out, const struct lt_jvm_config *c,
                        const char *home)
{
    size_t n = 7 + c->n_read_paths;
    struct lt_jvm_field *f = xcalloc(n, sizeof(*f));
    char heap[32], uid[32];
    snprintf(heap, sizeof(heap), "%u",
             c->heap_mb ? c->heap_mb : LT_JVM_DEFAULT_HEAP_MB);
    snprintf(uid, sizeof(uid), "%u",
             c->sandbox_uid ? c->sandbox_uid : LT_RUNNER_SANDBOX_UID);
    const char *cp = LT_JUNIT_JAR ":" LT_HAMCREST_JAR;
    struct lt_jvm_field fixed[] = {
        {"op", "init", 4},
        {"java_home", home, strlen(home)},
        {"class_path", cp, strlen(cp)},
        {"scratch", c->scratch_base, strlen(c->scratch_base)},
        {"heap_mb", heap, strlen(heap)},
        {"uid", uid, strlen(uid)},
        {"debug", c->debug ? "1" : "0", 1},
    };
    memcpy(f, fixed, sizeof(fixed));
    for (size_t i = 0; i < c->n_read_paths; i++)
        f[7 + i] = (struct lt_jvm_field){"read", c->read_paths[i],
                                         strlen(c->read_paths[i])};
    lt_jvm_encode(out, f, n);
    free(f);
}

/* Contract: see jvm.h.  The worker gets the request socket as fd 3 and
 * the answer pipe as fd 4; everything else of ours is close-on-exec. */
int lt_jvm_spawn(const struct lt_jvm_config *c, pid_t *pid, int *to_fd,
                 int *from_fd, char **err)
{
    *err = NULL;
    if (!lt_jvm_available()) {
        *err = xstrdup(NO_JAVA_MSG);
        return -ENOSYS;
    }
    char *home = java_home();
    if (!home) {
        *err = xasprintf("no JDK found: no libjvm.so under $JAVA_HOME, %s "
                         "or %s", LT_JAVA_HOME, LT_JAVA_FALLBACK_HOME);
        return -ENOENT;
    }
    if (access(LT_JUNIT_JAR, R_OK) < 0 || access(LT_HAMCREST_JAR, R_OK) < 0) {
        free(home);
        *err = xasprintf("JUnit 4 not found (%s, %s): install junit4",
                         LT_JUNIT_JAR, LT_HAMCREST_JAR);
        return -ENOENT;
    }
    if (!c->exe || !c->scratch_base) {
        free(home);
        *err = xstrdup("lt_jvm_spawn: no executable or scratch directory");
        return LT_EUSAGE;
    }
    int sv[2] = {-1, -1}, ans[2] = {-1, -1};
    int rc = 0;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
        pipe2(ans, O_CLOEXEC) < 0) {
        rc = -errno;
        *err = xasprintf("cannot make the worker's channels: %s",
                         strerror(errno));
        goto fail;
    }
    struct lt_buf init = LT_BUF_INIT;
    encode_init(&init, c, home);
    char **env = worker_env(c->debug);
    pid_t p = fork();
    if (p == 0) {
        /* Move both ends above 4 first, so that neither dup2 below
         * overwrites the other; dup2 clears close-on-exec. */
        int in = fcntl(sv[1], F_DUPFD_CLOEXEC, 10);
        int out = fcntl(ans[1], F_DUPFD_CLOEXEC, 10);
        if (in < 0 || out < 0 || dup2(in, 3) < 0 || dup2(out, 4) < 0)
            _exit(127);
        char *argv[] = {"litmus-jvm", "__jvm", "3", "4", NULL};
        execve(c->exe, argv, env);
        _exit(127);
    }
    int fork_errno = errno;
    free_env(env);
    close(sv[1]);
    close(ans[1]);
    sv[1] = ans[1] = -1;
    if (p < 0) {
        lt_buf_free(&init);
        rc = -fork_errno;
        *err = xasprintf("fork: %s", strerror(fork_errno));
        goto fail;
    }
    size_t off = 0;
    while (off < init.len) {
        ssize_t w = send(sv[0], init.data + off, init.len - off,
                         MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -errno;
            *err = xasprintf("the worker did not take its settings: %s",
                             strerror(errno));
            lt_buf_free(&init);
            lt_jvm_stop(p, sv[0], ans[0]);
            free(home);
            return rc;
        }
        off += (size_t)w;
    }
    lt_buf_free(&init);
    if (fcntl(ans[0], F_SETFL, fcntl(ans[0], F_GETFL) | O_NONBLOCK) < 0) {
        rc = -errno;
        *err = xasprintf("fcntl: %s", strerror(errno));
        lt_jvm_stop(p, sv[0], ans[0]);
        free(home);
        return rc;
    }
    free(home);
    *pid = p;
    *to_fd = sv[0];
    *from_fd = ans[0];
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0)
            close(sv[i]);
        if (ans[i] >= 0)
            close(ans[i]);
    }
    free(home);
    return rc;
}

/* Contract: see jvm.h.  A worker that takes quit ends within a few
 * milliseconds; one that does not (busy, or hostile) is killed with its
 * process group after 500 ms. */
void lt_jvm_stop(pid_t pid, int to_fd, int from_fd)
{
    if (to_fd >= 0) {
        struct lt_buf b = LT_BUF_INIT;
        struct lt_jvm_field quit = {"op", "quit", 4};
        lt_jvm_encode(&b, &quit, 1);
        ssize_t ignored = send(to_fd, b.data, b.len,
                               MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)ignored;
        lt_buf_free(&b);
        close(to_fd);
    }
    if (from_fd >= 0)
        close(from_fd);
    if (pid <= 0)
        return;
    for (int i = 0; i < 100; i++) {
        pid_t r = waitpid(pid, NULL, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    lt_sandbox_kill(pid, -1);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

/*** The worker process ***/

#ifdef LT_WITH_JAVA

/* The runner's classes, compiled at build time (lt_jvm_classes.c). */
struct lt__jvm_class {
    const char *name; /* "litmus/jvm/LitmusRunner" */
    const unsigned char *bytes;
    size_t len;
};
extern const struct lt__jvm_class lt__jvm_classes[];
extern const size_t lt__jvm_nclasses;

static struct {
    char *java_home, *class_path, *scratch;
    char *cds; /* the class archive to map, or NULL */
    unsigned heap_mb, uid;
    int debug;
    char **read;
    size_t n_read;
    int in_fd, out_fd;
    unsigned features;
    char missing[1024];
    pid_t engine;
} w;

_Noreturn static void die(const char *what, const char *why)
{
    char line[1024];
    int n = snprintf(line, sizeof(line), "litmus-jvm: %s: %s\n", what, why);
    ssize_t ignored = write(2, line, (size_t)(n > 0 ? n : 0));
    (void)ignored;
    _exit(3);
}

/* Reads the init message a byte at a time, so that nothing of the
 * requests behind it is taken from the socket the JVM reads next. */
static void read_init(void)
{
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    for (;;) {
        char ch;
        ssize_t r = read(w.in_fd, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            die("no settings from the engine", r < 0 ? strerror(errno)
                                                     : "end of stream");
        lt_jvm_decoder_feed(&d, &ch, 1);
        int rc = lt_jvm_decoder_next(&d, &m);
        if (rc < 0)
            die("settings", "malformed message");
        if (rc == 1)
            break;
    }
    lt_jvm_decoder_free(&d);
    const char *home = lt_jvm_msg_get(&m, "java_home", NULL);
    const char *cp = lt_jvm_msg_get(&m, "class_path", NULL);
    const char *scratch = lt_jvm_msg_get(&m, "scratch", NULL);
    const char *heap = lt_jvm_msg_get(&m, "heap_mb", NULL);
    const char *uid = lt_jvm_msg_get(&m, "uid", NULL);
    const char *debug = lt_jvm_msg_get(&m, "debug", NULL);
    if (!home || !cp || !scratch || !heap || !uid || !debug)
        die("settings", "a field is missing");
    w.java_home = xstrdup(home);
    w.class_path = xstrdup(cp);
    w.scratch = xstrdup(scratch);
    w.heap_mb = (unsigned)strtoul(heap, NULL, 10);
    w.uid = (unsigned)strtoul(uid, NULL, 10);
    w.debug = debug[0] == '1';
    if (w.heap_mb < 16 || w.heap_mb > (1u << 20))
        w.heap_mb = LT_JVM_DEFAULT_HEAP_MB;
    for (size_t i = 0; i < m.n; i++) {
        if (strcmp(m.f[i].name, "read") != 0)
            continue;
        w.read = xrealloc(w.read, (w.n_read + 1) * sizeof(char *));
        w.read[w.n_read++] = xstrdup(m.f[i].val);
    }
    lt_jvm_msg_free(&m);
}

/* The targets of the symbolic links in dir and below (the JDK's conf/
 * and lib/security point into /etc/java-17-openjdk and /etc/ssl). */
static void add_link_targets(struct lt_sandbox_paths *ro, const char *dir,
                             int depth)
{
    DIR *d = depth < 4 ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode))
            lt_sandbox_paths_add(ro, p);
        else if (S_ISDIR(sb.st_mode))
            add_link_targets(ro, p, depth + 1);
        free(p);
    }
    closedir(d);
}

/* The view (lt_sandbox_view_enter_runner): the JDK, JUnit's jars and the
 * engine's read paths read-only, a scratch tmpfs as the only writable
 * place; an identity of nobody's when started as root.  Where no view
 * can be had, the worker goes on degraded and says so in `ready`. */
static void enter_view(void)
{
    struct lt_sandbox_paths ro = {0};
    lt_sandbox_paths_add(&ro, w.java_home);
    char *conf = xasprintf("%s/conf", w.java_home);
    char *sec = xasprintf("%s/lib/security", w.java_home);
    add_link_targets(&ro, conf, 0);
    add_link_targets(&ro, sec, 0);
    free(conf);
    free(sec);
    char *cp = xstrdup(w.class_path);
    for (char *save = NULL, *tok = strtok_r(cp, ":", &save); tok;
         tok = strtok_r(NULL, ":", &save))
        lt_sandbox_paths_add(&ro, tok);
    free(cp);
    for (size_t i = 0; i < w.n_read; i++)
        lt_sandbox_paths_add(&ro, w.read[i]);
    lt_sandbox_paths_add(&ro, w.cds);

    struct lt_view_opts vo = {
        .root_dir = w.scratch, .ro_paths = (const char *const *)ro.v,
        .n_ro_paths = ro.n, .links = (const char *const *)ro.links,
        .n_links = ro.n_links, .scratch_dir = w.scratch,
        .scratch_bytes = (unsigned long long)LT_RUNNER_SCRATCH_MB << 20,
        .scratch_inodes = 16384, .scratch_instances = 1,
        .uid = (uid_t)w.uid, .gid = (gid_t)w.uid};
    unsigned got = 0;
    char err[256];
    char *desc = NULL;
    int rc = lt_sandbox_view_enter_runner(&vo, w.engine, &got, err,
                                          sizeof(err), &desc);
    lt_sandbox_paths_free(&ro);
    if (rc == -ESRCH)
        _exit(3);
    if (rc < 0)
        die("file-system view", err); /* half-built: never run from here */
    if (rc == 0)
        w.features |= got;
    if (w.debug && desc)
        fprintf(stderr, "litmus-jvm: view:\n%s\n", desc);
    free(desc);
}

/* The JVM installs the handlers it needs; it must find every signal at
 * its default and none blocked, whatever litmus had. */
static void reset_signals(void)
{
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
}

/* The sandbox proper, single-threaded, before any JVM thread exists:
 * every thread the JVM starts inherits Landlock and the seccomp
 * filter. */
static void enter_sandbox(void)
{
    struct lt_sandbox_opts o;
    lt_sandbox_opts_init(&o);
    o.scratch_dir = w.scratch;
    o.cpu_seconds = 0;
#ifndef LT_SANITIZED
    o.memory_bytes = ((uint64_t)w.heap_mb + LT_JVM_AS_SLACK_MB) << 20;
#endif
    o.open_files = 1024; /* jars, the module image, the program's files */
    o.allow_threads = 1;
    o.keep_fds[0] = w.in_fd;
    o.keep_fds[1] = w.out_fd;
    /* Made before the view when it could be; else tried here. */
    o.use_netns = !(w.features & LT_SBX_NETNS);
    o.parent_pid = w.engine;
    unsigned got = 0;
    int rc = lt_sandbox_enter(&o, &got);
    if (rc < 0)
        die("sandbox", lt_strerror(rc));
    w.features |= got;
    snprintf(w.missing, sizeof(w.missing), "%s",
             lt_sandbox_describe_missing(w.features));
}

/* The dynamic CDS archive made at build time (runners/CMakeLists.txt),
 * java/litmus-worker.jsa next to the litmus binary (the build tree), or
 * in ../lib/litmus/java/ from it (`make install`: PREFIX/bin/litmus),
 * when it is there and the JDK is the one it was made with: it holds
 * javac's and JUnit's classes parsed and verified, and cuts a third of
 * the CPU to `ready`.  The JVM checks the rest (the JDK's build, JUnit's
 * jars unchanged) and without a match starts on the JDK's own archive
 * (-Xshare:auto). */
static void find_cds(void)
{
    char home[PATH_MAX], built[PATH_MAX];
    const char *why = NULL;
    char *jsa = lt_self_file("java/litmus-worker.jsa",
                             "../lib/litmus/java/litmus-worker.jsa");
    if (!jsa)
        why = "no archive";
    else if (!realpath(w.java_home, home) || !realpath(LT_JAVA_HOME, built) ||
             strcmp(home, built) != 0)
        why = "made for another JDK (" LT_JAVA_HOME ")";
    if (w.debug)
        fprintf(stderr, "litmus-jvm: class archive %s%s%s\n",
                jsa ? jsa : "", why ? ": not used, " : "", why ? why : "");
    if (why)
        free(jsa);
    else
        w.cds = jsa;
}

typedef jint(JNICALL *create_vm_fn)(JavaVM **, void **, void *);

/* Fails the worker with the pending Java exception (printed with debug). */
static void check(JNIEnv *env, const char *what)
{
    if ((*env)->ExceptionCheck(env)) {
        if (w.debug)
            (*env)->ExceptionDescribe(env);
        die(what, "a Java exception (run with debug to see it)");
    }
}

/* Defines the embedded classes in the application class loader (where
 * JUnit is).  A class whose superclass is not defined yet fails with
 * NoClassDefFoundError and is tried again in the next round. */
static void define_classes(JNIEnv *env)
{
    jclass cl = (*env)->FindClass(env, "java/lang/ClassLoader");
    check(env, "ClassLoader");
    jmethodID sys = (*env)->GetStaticMethodID(
        env, cl, "getSystemClassLoader", "()Ljava/lang/ClassLoader;");
    check(env, "getSystemClassLoader");
    jobject loader = (*env)->CallStaticObjectMethod(env, cl, sys);
    check(env, "getSystemClassLoader()");
    char *done = xcalloc(lt__jvm_nclasses, 1);
    size_t left = lt__jvm_nclasses;
    while (left > 0) {
        size_t before = left;
        for (size_t i = 0; i < lt__jvm_nclasses; i++) {
            if (done[i])
                continue;
            jclass k = (*env)->DefineClass(
                env, lt__jvm_classes[i].name, loader,
                (const jbyte *)lt__jvm_classes[i].bytes,
                (jsize)lt__jvm_classes[i].len);
            if (k) {
                done[i] = 1;
                left--;
                (*env)->DeleteLocalRef(env, k);
            } else if (before == left) {
                (*env)->ExceptionClear(env);
            }
        }
        if (left == before)
            die("runner classes", "cannot define them (JDK too old?)");
    }
    free(done);
}

static jobject file_descriptor(JNIEnv *env, int fd)
{
    jclass c = (*env)->FindClass(env, "java/io/FileDescriptor");
    check(env, "FileDescriptor");
    jmethodID ctor = (*env)->GetMethodID(env, c, "<init>", "()V");
    jfieldID f = (*env)->GetFieldID(env, c, "fd", "I");
    check(env, "FileDescriptor.fd");
    jobject o = (*env)->NewObject(env, c, ctor);
    check(env, "new FileDescriptor");
    (*env)->SetIntField(env, o, f, fd);
    return o;
}

/* The JVM's options (see the comment at the top of the file). */
static void *run_jvm(void *arg)
{
    (void)arg;
    char *lib = xasprintf("%s/lib/server/libjvm.so", w.java_home);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        die("dlopen", dlerror());
    free(lib);
    create_vm_fn create = (create_vm_fn)dlsym(h, "JNI_CreateJavaVM");
    if (!create)
        die("dlsym JNI_CreateJavaVM", dlerror());

    char *opts_s[] = {
        xasprintf("-Xmx%um", w.heap_mb),
        /* A young generation of 48 MiB: a compile allocates about 10
         * MiB and keeps little, so collections are rare and short. */
        xasprintf("-Xms%um", w.heap_mb < 96 ? w.heap_mb : 96),
        xasprintf("-Xmn%um", w.heap_mb < 144 ? w.heap_mb / 3 : 48),
        xstrdup("-XX:+UseSerialGC"),
        xstrdup("-XX:TieredStopAtLevel=1"),
        /* One C1 thread, not two: start-up 5% less CPU, 10% less wall
         * on 2 cores, warm compiles as fast (see the top of the file). */
        xstrdup("-XX:CICompilerCount=1"),
        xstrdup("-XX:-UsePerfData"),
        xstrdup("-Xshare:auto"),
        xstrdup("-Xrs"),
        xstrdup("-XX:+DisableAttachMechanism"),
        xstrdup("-XX:ReservedCodeCacheSize=48m"),
        xstrdup("-XX:MaxMetaspaceSize=192m"),
        xstrdup("-XX:CompressedClassSpaceSize=64m"),
        xasprintf("-Djava.io.tmpdir=%s", w.scratch),
        xasprintf("-Duser.home=%s", w.scratch),
        xstrdup("-Dfile.encoding=UTF-8"),
        xasprintf("-Djava.class.path=%s", w.class_path),
        /* javac's pool of reusable contexts (runners/java/Compiler.java)
         * is not exported by jdk.compiler. */
        xstrdup("--add-exports=jdk.compiler/com.sun.tools.javac.api="
                "ALL-UNNAMED"),
        /* Last, as it may be missing. */
        w.cds ? xasprintf("-XX:SharedArchiveFile=%s", w.cds) : NULL,
    };
    enum { NOPTS_MAX = sizeof(opts_s) / sizeof(opts_s[0]) };
    size_t nopts = w.cds ? NOPTS_MAX : NOPTS_MAX - 1;
    JavaVMOption opts[NOPTS_MAX];
    for (size_t i = 0; i < nopts; i++)
        opts[i] = (JavaVMOption){.optionString = opts_s[i]};
    JavaVMInitArgs args = {.version = JNI_VERSION_10, .nOptions = (jint)nopts,
                           .options = opts, .ignoreUnrecognized = JNI_FALSE};
    JavaVM *vm;
    JNIEnv *env;
    if (create(&vm, (void **)&env, &args) != JNI_OK)
        die("JNI_CreateJavaVM", "the JVM did not start");
    define_classes(env);
    jclass runner = (*env)->FindClass(env, "litmus/jvm/LitmusRunner");
    check(env, "LitmusRunner");
    jmethodID serve = (*env)->GetStaticMethodID(
        env, runner, "serve",
        "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;I"
        "Ljava/lang/String;)V");
    check(env, "LitmusRunner.serve");
    jobject in = file_descriptor(env, w.in_fd);
    jobject out = file_descriptor(env, w.out_fd);
    jstring missing = (*env)->NewStringUTF(env, w.missing);
    check(env, "missing");
    (*env)->CallStaticVoidMethod(env, runner, serve, in, out,
                                 (jint)w.features, missing);
    check(env, "serve");
    /* No DestroyJavaVM: it would wait for the program's threads. */
    _exit(0);
}

/* Contract: see jvm.h.  The fixed order: die with the engine, settings,
 * standard fds, view, sandbox (single-threaded), then the JVM on a
 * thread with a big stack. */
_Noreturn void lt_jvm_main(int in_fd, int out_fd)
{
    w.in_fd = in_fd;
    w.out_fd = out_fd;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    w.engine = getppid();
    if (w.engine == 1)
        _exit(3);
    fcntl(in_fd, F_SETFD, FD_CLOEXEC);
    fcntl(out_fd, F_SETFD, FD_CLOEXEC);
    read_init();
    find_cds();
    /* What the program prints to fd 1 or 2 goes nowhere (System.out is
     * captured in Java); stderr stays with debug. */
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 1);
        if (!w.debug)
            dup2(devnull, 2);
        close(devnull);
    }
    /* One fresh network namespace, no interface but a downed loopback,
     * entered while we may (as root, before the identity switch of the
     * view), as the zygote does for its children. */
    int netns = unshare(CLONE_NEWNET) == 0;
    if (netns)
        w.features |= LT_SBX_NETNS;
    /* The last moment the build tree is writable: coverage builds write
     * what start-up ran (the rest of the worker's counts are lost). */
    lt_cov_flush();
    enter_view();
    reset_signals();
    enter_sandbox();
    /* Two malloc arenas, not eight per core: each reserves 64 MiB of
     * address space, which RLIMIT_AS counts. */
    mallopt(M_ARENA_MAX, 2);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, LT_JVM_MAIN_STACK);
    pthread_t t;
    int rc = pthread_create(&t, &attr, run_jvm, NULL);
    if (rc != 0)
        die("pthread_create", strerror(rc));
    pthread_join(t, NULL);
    _exit(0);
}

#else /* !LT_WITH_JAVA */

_Noreturn void lt_jvm_main(int in_fd, int out_fd)
{
    (void)in_fd;
    (void)out_fd;
    static const char msg[] = "litmus-jvm: " NO_JAVA_MSG "\n";
    ssize_t ignored = write(2, msg, sizeof(msg) - 1);
    (void)ignored;
    _exit(3);
}

#endif
