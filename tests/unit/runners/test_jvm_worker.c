/* The Java worker end to end: one real worker (litmus __jvm) spawned with
 * lt_jvm_spawn(), sent run requests: JUnit 4 tests that pass and fail,
 * compile errors, calls, a test root with packages and helpers, a bare
 * method, and hostile programs, each contained (the worker restarted
 * after the ones that end it).  Prints the start-up time and the warm
 * compile time of a 250-line class.  SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "harness/jvm_wire.h"
#include "runners/jvm.h"
#include "sandbox/sandbox.h"

/*** A worker ***/

static struct {
    char dir[PATH_MAX];     /* fixtures, readable by the worker */
    char scratch[PATH_MAX]; /* the worker's scratch base */
    pid_t pid;
    int to, from;
    struct lt_jvm_decoder dec;
    unsigned sandbox;
    int nonce;
} fx = {.pid = -1, .to = -1, .from = -1};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The next message from the worker within timeout_s: 1, or 0 when it
 * ended (end of stream) first. */
static int next_answer(struct lt_jvm_msg *m, double timeout_s)
{
    double end = now_s() + timeout_s;
    for (;;) {
        int rc = lt_jvm_decoder_next(&fx.dec, m);
        assert_true(rc >= 0);
        if (rc == 1)
            return 1;
        double left = end - now_s();
        assert_true(left > 0);
        struct pollfd p = {.fd = fx.from, .events = POLLIN};
        poll(&p, 1, (int)(left * 1000) + 1);
        char buf[65536];
        ssize_t n = read(fx.from, buf, sizeof(buf));
        if (n == 0)
            return 0;
        if (n > 0)
            lt_jvm_decoder_feed(&fx.dec, buf, (size_t)n);
        else
            assert_true(errno == EAGAIN || errno == EINTR);
    }
}

static void worker_stop(void)
{
    if (fx.pid > 0)
        lt_jvm_stop(fx.pid, fx.to, fx.from);
    lt_jvm_decoder_free(&fx.dec);
    fx.pid = -1;
    fx.to = fx.from = -1;
}

/* Starts a worker and waits for `ready`; returns the seconds it took. */
static double worker_start(void)
{
    char *read_paths[] = {fx.dir};
    struct lt_jvm_config c = {
        .exe = LT_TEST_LITMUS, .scratch_base = fx.scratch,
        .read_paths = read_paths, .n_read_paths = 1, .heap_mb = 128,
        .debug = getenv("LT_TEST_DEBUG") != NULL};
    char *err = NULL;
    double t0 = now_s();
    int rc = lt_jvm_spawn(&c, &fx.pid, &fx.to, &fx.from, &err);
    if (rc < 0)
        fprintf(stderr, "# lt_jvm_spawn: %s\n", err ? err : "?");
    assert_int_equal(rc, 0);
    lt_jvm_decoder_init(&fx.dec);
    struct lt_jvm_msg m;
    assert_int_equal(next_answer(&m, 30), 1);
    double took = now_s() - t0;
    assert_string_equal(lt_jvm_msg_get(&m, "op", NULL), "ready");
    fx.sandbox = (unsigned)strtoul(lt_jvm_msg_get(&m, "sandbox", NULL),
                                   NULL, 10);
    assert_non_null(lt_jvm_msg_get(&m, "java_version", NULL));
    const char *missing = lt_jvm_msg_get(&m, "missing", NULL);
    assert_non_null(missing);
    if (missing[0])
        printf("# sandbox features missing: %s\n", missing);
    lt_jvm_msg_free(&m);
    return took;
}

/* Whether the worker process has ended (reaped here when it has). */
static int worker_gone(double timeout_s)
{
    double end = now_s() + timeout_s;
    while (now_s() < end) {
        pid_t r = waitpid(fx.pid, NULL, WNOHANG);
        if (r == fx.pid) {
            close(fx.to);
            close(fx.from);
            lt_jvm_decoder_free(&fx.dec);
            fx.pid = -1;
            fx.to = fx.from = -1;
            return 1;
        }
        usleep(5000);
    }
    return 0;
}

/*** Requests ***/

struct req {
    struct lt_jvm_field f[32];
    size_t n;
    char nonce[16];
};

static void put(struct req *r, const char *name, const char *val)
{
    assert_true(r->n < 32);
    r->f[r->n++] = (struct lt_jvm_field){name, val, strlen(val)};
}

static void req_init(struct req *r)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->nonce, sizeof(r->nonce), "%x", ++fx.nonce);
    put(r, "op", "run");
    put(r, "nonce", r->nonce);
}

/* Sends r; 1 and *m its answer (nonce checked), or 0 when the worker
 * ended without one. */
static int ask(struct req *r, struct lt_jvm_msg *m)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_jvm_encode(&b, r->f, r->n);
    ssize_t w = send(fx.to, b.data, b.len, MSG_NOSIGNAL);
    lt_buf_free(&b);
    if (w < 0)
        return 0;
    int got = next_answer(m, 30);
    if (got) {
        assert_true(m->n > 0);
        assert_string_equal(m->f[0].name, "nonce");
        assert_string_equal(m->f[0].val, r->nonce);
        assert_string_equal(lt_jvm_msg_get(m, "op", NULL), "done");
    }
    return got;
}

/* The i-th field named `name`, or NULL. */
static const char *nth(const struct lt_jvm_msg *m, const char *name,
                       size_t i)
{
    for (size_t k = 0; k < m->n; k++)
        if (strcmp(m->f[k].name, name) == 0 && i-- == 0)
            return m->f[k].val;
    return NULL;
}

static size_t count(const struct lt_jvm_msg *m, const char *name)
{
    size_t n = 0;
    while (nth(m, name, n))
        n++;
    return n;
}

/* Asserts that s starts with prefix, printing both when not. */
static void assert_prefix(const char *s, const char *prefix)
{
    if (!s || strncmp(s, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "# expected a value starting \"%s\", got \"%s\"\n",
                prefix, s ? s : "(none)");
        fail();
    }
}

static void assert_contains(const char *s, const char *part)
{
    if (!s || !strstr(s, part)) {
        fprintf(stderr, "# expected \"%s\" in \"%s\"\n", part,
                s ? s : "(none)");
        fail();
    }
}

/*** Fixtures ***/

static void write_file(const char *rel, const char *text)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof(path), "%s/%s", fx.dir, rel);
    for (char *p = path + strlen(fx.dir) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, 0644);
}

static char *path_of(const char *rel)
{
    return xasprintf("%s/%s", fx.dir, rel);
}

static const char calc_src[] =
    "package demo;\n"
    "\n"
    "public class Calc {\n"
    "    public static int add(int a, int b) {\n"
    "        return a + b;\n"
    "    }\n"
    "    public static int div(int a, int b) {\n"
    "        return a / b;\n"
    "    }\n"
    "    public static int[] pair(int a) { return new int[] {a, -a}; }\n"
    "    public static void hello() { System.out.println(\"hello\"); }\n"
    "}\n";

static const char calc_test[] =
    "package demo;\n"
    "import org.junit.Test;\n"
    "import org.junit.Ignore;\n"
    "import static org.junit.Assert.assertEquals;\n"
    "public class CalcTest {\n"
    "    @Test public void adds() { assertEquals(5, Calc.add(2, 3)); }\n"
    "    @Test public void divides() { assertEquals(2, Calc.div(7, 3)); }\n"
    "    @Test(expected = ArithmeticException.class)\n"
    "    public void byZero() { Calc.div(1, 0); }\n"
    "    @Ignore @Test public void later() { }\n"
    "}\n";

/* A constant the tests read: javac copies its value into them. */
static const char konst_src[] =
    "package k;\n"
    "public class Konst {\n"
    "    public static final int LIMIT = 3;\n"
    "    public static int clamp(int x) {\n"
    "        int v = x;\n"
    "        return v > LIMIT ? LIMIT : v;\n"
    "    }\n"
    "}\n";

static const char hostile_test[] =
    "import org.junit.Test;\n"
    "import java.util.*;\n"
    "public class HostileTest {\n"
    "    @Test public void spin() { long x = 0; while (x >= 0) x++; }\n"
    "    @Test public void hog() {\n"
    "        List<long[]> l = new ArrayList<>();\n"
    "        while (true) l.add(new long[1 << 20]);\n"
    "    }\n"
    "    @Test public void fine() { }\n"
    "}\n";

static const char hostile_src[] =
    "public class Hostile {\n"
    "    public static long spin() {\n"
    "        long x = 0; while (x >= 0) x++; return x;\n"
    "    }\n"
    "    public static String write(String p) throws Exception {\n"
    "        java.nio.file.Files.writeString(\n"
    "            java.nio.file.Path.of(p), \"x\");\n"
    "        return p;\n"
    "    }\n"
    "    public static int fine() { return 7; }\n"
    "    static int n;\n"
    "    public static int next() { return ++n; }\n"
    "    public static void sleep() throws Exception { Thread.sleep(60000); }\n"
    "    public static void stray() {\n"
    "        new Thread(() -> { while (true) Thread.onSpinWait(); }).start();\n"
    "    }\n"
    "    public static void stubborn() {\n"
    "        for (;;) try { long x = 0; while (x >= 0) x++; }\n"
    "                 catch (Throwable t) { }\n"
    "    }\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    if (!lt_jvm_available())
        return 0;
    snprintf(fx.dir, sizeof(fx.dir), "/tmp/lt-jvm-test-XXXXXX");
    snprintf(fx.scratch, sizeof(fx.scratch), "/tmp/lt-jvm-scratch-XXXXXX");
    if (!mkdtemp(fx.dir) || !mkdtemp(fx.scratch))
        return -1;
    /* The worker runs as nobody when the tests run as root. */
    chmod(fx.dir, 0755);
    write_file("calc/src/demo/Calc.java", calc_src);
    write_file("calc/test/demo/CalcTest.java", calc_test);
    write_file("shapes/src/geo/Area.java",
               "package geo;\n"
               "public class Area {\n"
               "    public static double square(double s) {\n"
               "        return Util.times(s, s);\n"
               "    }\n"
               "}\n");
    write_file("shapes/src/geo/Util.java",
               "package geo;\n"
               "class Util { static double times(double a, double b) "
               "{ return a * b; } }\n");
    write_file("shapes/tests/geo/AreaTest.java",
               "package geo;\n"
               "import org.junit.Test;\n"
               "import static org.junit.Assert.assertEquals;\n"
               "public class AreaTest {\n"
               "    @Test public void four() {\n"
               "        assertEquals(Helper.sq(2), Area.square(2), 1e-9);\n"
               "    }\n"
               "}\n");
    write_file("shapes/tests/geo/more/MoreTest.java",
               "package geo.more;\n"
               "import org.junit.Test;\n"
               "public class MoreTest extends Base {\n"
               "    @Test public void zero() { check(0); }\n"
               "}\n");
    write_file("shapes/tests/geo/more/Base.java",
               "package geo.more;\n"
               "import static org.junit.Assert.assertEquals;\n"
               "public abstract class Base {\n"
               "    @org.junit.Test public void inherited() { check(1); }\n"
               "    void check(double x) {\n"
               "        assertEquals(x * x, geo.Area.square(x), 1e-9);\n"
               "    }\n"
               "}\n");
    write_file("shapes/tests/geo/Helper.java",
               "package geo;\n"
               "class Helper {\n"
               "    static double sq(double x) { return x * x; }\n"
               "}\n");
    write_file("konst/src/k/Konst.java", konst_src);
    write_file("konst/test/k/KonstTest.java",
               "package k;\n"
               "import org.junit.Test;\n"
               "import static org.junit.Assert.assertEquals;\n"
               "public class KonstTest {\n"
               "    @Test public void limit() { assertEquals(3, Konst.LIMIT); }\n"
               "    @Test public void clamps() { assertEquals(2, Konst.clamp(2)); }\n"
               "}\n");
    write_file("hostile/HostileTest.java", hostile_test);
    write_file("hostile/Hostile.java", hostile_src);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    worker_stop();
    if (fx.dir[0]) {
        char *cmd = xasprintf("rm -rf '%s' '%s'", fx.dir, fx.scratch);
        int ignored = system(cmd);
        (void)ignored;
        free(cmd);
    }
    return 0;
}

static void need_java(void)
{
    if (!lt_jvm_available()) {
        printf("# skip: litmus built without Java support\n");
        skip();
    }
}

/*** Tests ***/

static void test_start(void **state)
{
    (void)state;
    need_java();
    double s = worker_start();
    printf("# worker start-up (spawn to ready, warm-up included): %.2f s\n",
           s);
    printf("# sandbox features: 0x%x\n", fx.sandbox);
    assert_true(fx.sandbox & LT_SBX_SECCOMP);
    assert_true(fx.sandbox & LT_SBX_LANDLOCK);
    assert_true(fx.sandbox & LT_SBX_NNP);
}

static void test_tests_pass(void **state)
{
    (void)state;
    need_java();
    char *prog = path_of("calc/src/demo/Calc.java");
    char *tests = path_of("calc/test/demo/CalcTest.java");
    struct req r;
    req_init(&r);
    put(&r, "program", calc_src);
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    put(&r, "budget_ms", "5000");
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    assert_string_equal(lt_jvm_msg_get(&m, "tests_all", NULL),
                        "demo.CalcTest#adds\ndemo.CalcTest#byZero\n"
                        "demo.CalcTest#divides\ndemo.CalcTest#later");
    assert_int_equal(count(&m, "test"), 4);
    assert_prefix(nth(&m, "test", 0), "P\t");
    assert_contains(nth(&m, "test", 0), "\tdemo.CalcTest#adds\t");
    assert_prefix(nth(&m, "test", 1), "P\t");
    assert_prefix(nth(&m, "test", 2), "P\t");
    assert_prefix(nth(&m, "test", 3), "S\t");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "done");
    lt_jvm_msg_free(&m);
    free(prog);
    free(tests);
}

static void test_tests_fail(void **state)
{
    (void)state;
    need_java();
    char *prog = path_of("calc/src/demo/Calc.java");
    char *tests = path_of("calc/test/demo/CalcTest.java");
    char *variant = xstrdup(calc_src);
    strstr(variant, "a + b")[2] = '-';
    struct req r;
    req_init(&r);
    put(&r, "program", variant);
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    put(&r, "select", "demo.CalcTest#divides\ndemo.CalcTest#adds\n"
                      "demo.CalcTest#byZero");
    put(&r, "stop_first", "1");
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    /* In the order asked for, stopping at the failure. */
    assert_int_equal(count(&m, "test"), 2);
    assert_prefix(nth(&m, "test", 0), "P\t");
    assert_contains(nth(&m, "test", 0), "demo.CalcTest#divides");
    assert_prefix(nth(&m, "test", 1), "F\t");
    assert_contains(nth(&m, "test", 1), "\tdemo.CalcTest#adds\t");
    assert_contains(nth(&m, "test", 1), "expected:<5> but was:<-1>");
    lt_jvm_msg_free(&m);
    free(variant);
    free(prog);
    free(tests);
}

static void test_compile_error(void **state)
{
    (void)state;
    need_java();
    char *prog = path_of("calc/src/demo/Calc.java");
    char *tests = path_of("calc/test/demo/CalcTest.java");
    char *variant = xstrdup(calc_src);
    char *ret = strstr(variant, "return a / b;");
    memcpy(ret, "return a / c;", 13);
    struct req r;
    req_init(&r);
    put(&r, "program", variant);
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "error");
    assert_string_equal(lt_jvm_msg_get(&m, "error", NULL),
                        "Calc.java:8: cannot find symbol");
    assert_int_equal(count(&m, "test"), 0);
    lt_jvm_msg_free(&m);
    free(variant);
    free(prog);
    free(tests);
}

static void test_calls(void **state)
{
    (void)state;
    need_java();
    struct req r;
    req_init(&r);
    put(&r, "program", calc_src);
    put(&r, "call", "Calc.add(2, 40)");
    put(&r, "call", "Calc.div(1, 0)");
    put(&r, "call", "Calc.hello()");
    put(&r, "call", "Calc.pair(3)");
    put(&r, "call", "Calc.nope(1)");
    put(&r, "call", "java.util.List.of(\"a\\tb\", 'c', 1.5)");
    put(&r, "call", "new Object()");
    put(&r, "call", "java.util.Map.of(\"k\", new int[][] {{1}, {2, 3}})");
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    assert_int_equal(count(&m, "call"), 8);
    assert_prefix(nth(&m, "call", 0), "ok\t");
    assert_contains(nth(&m, "call", 0), "\tjava.lang.Integer\t42");
    assert_prefix(nth(&m, "call", 1), "raised\t");
    assert_contains(nth(&m, "call", 1),
                    "\tjava.lang.ArithmeticException\t/ by zero");
    assert_prefix(nth(&m, "call", 2), "ok\t");
    assert_contains(nth(&m, "call", 2), "\tvoid\tvoid");
    assert_contains(nth(&m, "call", 3), "\t[I\t[3, -3]");
    assert_prefix(nth(&m, "call", 4), "error\t0\t\t");
    assert_contains(nth(&m, "call", 4), "cannot find symbol");
    assert_contains(nth(&m, "call", 5), "[\"a\\tb\", 'c', 1.5]");
    assert_contains(nth(&m, "call", 6),
                    "\tjava.lang.Object\tjava.lang.Object@?");
    assert_contains(nth(&m, "call", 7), "{\"k\"=[[1], [2, 3]]}");
    assert_string_equal(lt_jvm_msg_get(&m, "stdout", NULL), "hello\n");
    lt_jvm_msg_free(&m);
}

static void test_test_root(void **state)
{
    (void)state;
    need_java();
    char *prog = path_of("shapes/src/geo/Area.java");
    char *tests = path_of("shapes/tests");
    struct req r;
    req_init(&r);
    put(&r, "program",
        "package geo;\n"
        "public class Area {\n"
        "    public static double square(double s) {\n"
        "        return Util.times(s, s) + (s > 1.5 ? 1 : 0);\n"
        "    }\n"
        "}\n");
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    assert_string_equal(lt_jvm_msg_get(&m, "tests_all", NULL),
                        "geo.AreaTest#four\ngeo.more.MoreTest#inherited\n"
                        "geo.more.MoreTest#zero");
    assert_prefix(nth(&m, "test", 0), "F\t");
    assert_prefix(nth(&m, "test", 1), "P\t");
    assert_prefix(nth(&m, "test", 2), "P\t");
    lt_jvm_msg_free(&m);
    free(prog);
    free(tests);
}

/* One run of the konst program's tests: 1 when the worker reused the
 * test classes of an earlier compile; *limit the first test's line. */
static int konst_run(const char *text, char **limit)
{
    char *prog = path_of("konst/src/k/Konst.java");
    char *tests = path_of("konst/test");
    struct req r;
    req_init(&r);
    put(&r, "program", text);
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    assert_string_equal(lt_jvm_msg_get(&m, "tests_all", NULL),
                        "k.KonstTest#clamps\nk.KonstTest#limit");
    assert_int_equal(count(&m, "test"), 2);
    assert_prefix(nth(&m, "test", 0), "P\t");
    *limit = xstrdup(nth(&m, "test", 1));
    const char *reused = lt_jvm_msg_get(&m, "tests_reused", NULL);
    int got = reused && strcmp(reused, "1") == 0;
    lt_jvm_msg_free(&m);
    free(prog);
    free(tests);
    return got;
}

/* The test classes compiled for a program serve its variants with the
 * same API (a renamed local); a variant that changes a constant the
 * tests read has them compiled again, and the test sees the new value. */
static void test_tests_reused(void **state)
{
    (void)state;
    need_java();
    char *limit;
    konst_run(konst_src, &limit); /* compiles all, kept */
    assert_prefix(limit, "P\t");
    free(limit);

    char *renamed = xstrdup(konst_src);
    char *v;
    while ((v = strstr(renamed, " v ")) || (v = strstr(renamed, " v;")))
        v[1] = 'w';
    assert_int_equal(konst_run(renamed, &limit), 1);
    assert_prefix(limit, "P\t");
    free(limit);

    char *changed = xstrdup(konst_src);
    strstr(changed, "LIMIT = 3")[8] = '4';
    assert_int_equal(konst_run(changed, &limit), 0);
    assert_prefix(limit, "F\t");
    assert_contains(limit, "\tk.KonstTest#limit\t");
    assert_contains(limit, "expected:<3> but was:<4>");
    free(limit);

    /* And the kept classes still serve the original's API. */
    assert_int_equal(konst_run(renamed, &limit), 1);
    assert_prefix(limit, "P\t");
    free(limit);
    free(changed);
    free(renamed);
}

static void test_bare_method(void **state)
{
    (void)state;
    need_java();
    struct req r;
    req_init(&r);
    put(&r, "program",
        "public static int maxOf(int[] xs) {\n"
        "    int m = xs[0];\n"
        "    for (int x : xs) if (x > m) m = x;\n"
        "    return m;\n"
        "}\n");
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    lt_jvm_msg_free(&m);
    req_init(&r);
    put(&r, "program",
        "int twice(int x) {\n"
        "    return y * 2;\n"
        "}\n");
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "error");
    /* The wrapper sits on the first line: the line numbers hold. */
    assert_string_equal(lt_jvm_msg_get(&m, "error", NULL),
                        "LitmusMethod.java:2: cannot find symbol");
    lt_jvm_msg_free(&m);
}

/* A 250-line class compiled again and again, a small change each time
 * (as variants are): the median CPU time javac took. */
static void test_compile_speed(void **state)
{
    (void)state;
    need_java();
    struct lt_buf src = LT_BUF_INIT;
    lt_buf_puts(&src, "package big;\nimport java.util.*;\n"
                      "public class Big {\n");
    int lines = 3;
    /* Methods in the shape of the study's programs: loops, branches,
     * arrays, strings, a generic collection now and then. */
    for (int i = 0; lines < 248; i++) {
        lt_buf_printf(&src,
            "    /** Method %d: a sum, a scan and a label. */\n"
            "    public static String m%d(int[] xs, List<Integer> extra) {\n"
            "        int s = %%d, best = Integer.MIN_VALUE;\n"
            "        for (int i = 0; i < xs.length; i++) {\n"
            "            if (xs[i] %% 2 == 0 && xs[i] > best) best = xs[i];\n"
            "            else s += xs[i] * (i + 1);\n"
            "        }\n"
            "        for (int e : extra) s -= e;\n"
            "        StringBuilder sb = new StringBuilder(\"m%d:\");\n"
            "        sb.append(s).append('/').append(best);\n"
            "        return sb.length() > 40 ? sb.substring(0, 40)\n"
            "                                : sb.toString();\n"
            "    }\n", i, i, i);
        lines += 13;
    }
    lt_buf_puts(&src, "}\n");
    lines++;
    enum { N = 60 };
    long ms[N];
    double wall = 0;
    for (int k = 0; k < N; k++) {
        /* Each method's "%d" becomes k: a new variant each time. */
        struct lt_buf v = LT_BUF_INIT;
        for (const char *p = src.data; *p; p++) {
            if (p[0] == '%' && p[1] == 'd') {
                lt_buf_printf(&v, "%d", k);
                p++;
            } else if (p[0] == '%' && p[1] == '%') {
                lt_buf_puts(&v, "%");
                p++;
            } else {
                lt_buf_append(&v, p, 1);
            }
        }
        struct req r;
        req_init(&r);
        put(&r, "program", v.data);
        struct lt_jvm_msg m;
        double t0 = now_s();
        assert_int_equal(ask(&r, &m), 1);
        wall += now_s() - t0;
        if (strcmp(lt_jvm_msg_get(&m, "compile", NULL), "ok") != 0)
            fprintf(stderr, "# %s\n", lt_jvm_msg_get(&m, "error", NULL));
        assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
        ms[k] = strtol(lt_jvm_msg_get(&m, "compile_ms", NULL), NULL, 10);
        lt_jvm_msg_free(&m);
        lt_buf_free(&v);
    }
    /* The median of the last 20 (the first ones still warm the JIT). */
    long last[20];
    memcpy(last, ms + N - 20, sizeof(last));
    for (int i = 0; i < 20; i++)
        for (int j = i + 1; j < 20; j++)
            if (last[j] < last[i]) {
                long t = last[i];
                last[i] = last[j];
                last[j] = t;
            }
    printf("# warm compile of a %d-line class: median %ld ms CPU "
           "(first %ld ms), %.1f ms wall per request on average\n",
           lines, last[10], ms[0], wall * 1000 / N);
    lt_buf_free(&src);
}

static void test_hostile_contained(void **state)
{
    (void)state;
    need_java();
    char *prog = path_of("hostile/Hostile.java");
    char *outside = path_of("hostile/evil.txt");
    char *call_outside = xasprintf("Hostile.write(\"%s\")", outside);
    struct req r;
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "program_path", prog);
    put(&r, "call", "new java.net.Socket(\"127.0.0.1\", 9)");
    put(&r, "call", call_outside);
    put(&r, "call", "Hostile.write(\"/tmp/lt-jvm-evil\")");
    put(&r, "call", "Hostile.write(\"inside.txt\")");
    put(&r, "call", "new ProcessBuilder(\"/bin/true\").start()");
    put(&r, "call", "Runtime.getRuntime().exec(\"true\")");
    put(&r, "call", "Hostile.spin()");
    put(&r, "call", "Hostile.fine()");
    put(&r, "call", "java.net.InetAddress.getByName(\"example.com\")");
    put(&r, "call", "new java.io.FileOutputStream(java.io.FileDescriptor.out)"
                    ".write(\"LTJ 1\\nop 4\\ndone\\n\".getBytes())");
    put(&r, "call_budget_ms", "300");
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_string_equal(lt_jvm_msg_get(&m, "compile", NULL), "ok");
    assert_int_equal(count(&m, "call"), 10);
    for (size_t i = 0; i < 10; i++)
        printf("# hostile call %zu: %.100s\n", i, nth(&m, "call", i));
    assert_prefix(nth(&m, "call", 0), "raised\t"); /* no network */
    assert_prefix(nth(&m, "call", 1), "raised\t"); /* read-only */
    assert_prefix(nth(&m, "call", 2), "raised\t");
    assert_prefix(nth(&m, "call", 3), "ok\t");     /* scratch */
    assert_prefix(nth(&m, "call", 4), "raised\t"); /* no processes */
    assert_prefix(nth(&m, "call", 5), "raised\t");
    assert_prefix(nth(&m, "call", 6), "timeout\t");
    assert_prefix(nth(&m, "call", 7), "ok\t");     /* went on after it */
    assert_prefix(nth(&m, "call", 8), "raised\t"); /* no name lookup */
    assert_prefix(nth(&m, "call", 9), "ok\t");     /* fd 1 is /dev/null */
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "done");
    lt_jvm_msg_free(&m);
    assert_int_equal(access(outside, F_OK), -1);
    assert_int_equal(access("/tmp/lt-jvm-evil", F_OK), -1);

    /* The scratch was emptied after the run. */
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "new java.io.File(\"inside.txt\").exists()");
    put(&r, "call", "System.out.printf(\"LTJ 1%nop 4%ndone%n\")");
    assert_int_equal(ask(&r, &m), 1);
    assert_contains(nth(&m, "call", 0), "\tjava.lang.Boolean\tfalse");
    assert_string_equal(lt_jvm_msg_get(&m, "stdout", NULL),
                        "LTJ 1\nop 4\ndone\n");
    lt_jvm_msg_free(&m);

    /* An endless test: T, and the run stops there. */
    char *tests = path_of("hostile/HostileTest.java");
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    put(&r, "select", "HostileTest#spin\nHostileTest#fine");
    put(&r, "budget_ms", "300");
    assert_int_equal(ask(&r, &m), 1);
    assert_int_equal(count(&m, "test"), 1);
    assert_prefix(nth(&m, "test", 0), "T\t");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "done");
    lt_jvm_msg_free(&m);

    /* Unbounded allocation: M, and the worker ends after answering. */
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "program_path", prog);
    put(&r, "tests", tests);
    put(&r, "select", "HostileTest#hog");
    put(&r, "budget_ms", "10000");
    assert_int_equal(ask(&r, &m), 1);
    assert_prefix(nth(&m, "test", 0), "M\t");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "memory");
    lt_jvm_msg_free(&m);
    assert_true(worker_gone(5));
    double s = worker_start();
    printf("# restarted after OOM in %.2f s\n", s);

    /* A thread the run started outlives it: status stray, and the
     * worker ends after answering. */
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "Hostile.stray()");
    assert_int_equal(ask(&r, &m), 1);
    assert_prefix(nth(&m, "call", 0), "ok\t");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "stray");
    lt_jvm_msg_free(&m);
    assert_true(worker_gone(5));
    worker_start();

    /* A call that swallows Thread.stop: status timeout, and the worker
     * ends after answering. */
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "Hostile.stubborn()");
    put(&r, "call", "Hostile.fine()");
    put(&r, "call_budget_ms", "200");
    assert_int_equal(ask(&r, &m), 1);
    assert_int_equal(count(&m, "call"), 1);
    assert_prefix(nth(&m, "call", 0), "timeout\t");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "timeout");
    lt_jvm_msg_free(&m);
    assert_true(worker_gone(5));
    worker_start();

    /* System.exit: the worker ends without an answer; a new one starts. */
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "Hostile.fine()");
    put(&r, "call", "System.exit(3)");
    assert_int_equal(ask(&r, &m), 0);
    assert_true(worker_gone(5));
    worker_start();
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "Hostile.fine()");
    assert_int_equal(ask(&r, &m), 1);
    assert_contains(nth(&m, "call", 0), "\tjava.lang.Integer\t7");
    lt_jvm_msg_free(&m);

    free(tests);
    free(call_outside);
    free(outside);
    free(prog);
}

/* What one run changes of the JVM does not reach the next: statics
 * (a fresh class loader), locales and system properties; a parallel
 * stream's pool threads are no strays; a blocked call is stopped. */
static void test_isolation(void **state)
{
    (void)state;
    need_java();
    struct req r;
    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "Hostile.next()");
    put(&r, "call", "Hostile.next()");
    put(&r, "call", "java.util.Locale.setDefault(java.util.Locale.GERMANY)");
    put(&r, "call", "System.setProperty(\"litmus.x\", \"1\")");
    put(&r, "call", "java.util.stream.IntStream.range(0, 100000).parallel()"
                    ".map(i -> i % 7).sum()");
    struct lt_jvm_msg m;
    assert_int_equal(ask(&r, &m), 1);
    assert_contains(nth(&m, "call", 1), "\tjava.lang.Integer\t2");
    assert_contains(nth(&m, "call", 4), "\tjava.lang.Integer\t299995");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "done");
    lt_jvm_msg_free(&m);

    req_init(&r);
    put(&r, "program", hostile_src);
    put(&r, "call", "Hostile.next()");
    put(&r, "call", "String.format(\"%.1f\", 1.5)");
    put(&r, "call", "System.getProperty(\"litmus.x\")");
    put(&r, "call", "Hostile.sleep()");
    put(&r, "call", "Hostile.fine()");
    put(&r, "call_budget_ms", "100");
    assert_int_equal(ask(&r, &m), 1);
    assert_contains(nth(&m, "call", 0), "\tjava.lang.Integer\t1");
    assert_contains(nth(&m, "call", 1), "\tjava.lang.String\t\"1.5\"");
    /* The second field is the call's CPU time: 0 or 1 ms. */
    assert_prefix(nth(&m, "call", 2), "ok\t");
    assert_contains(nth(&m, "call", 2), "\tnull\tnull");
    assert_prefix(nth(&m, "call", 3), "timeout\t");
    assert_contains(nth(&m, "call", 4), "\tjava.lang.Integer\t7");
    assert_string_equal(lt_jvm_msg_get(&m, "status", NULL), "done");
    lt_jvm_msg_free(&m);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_tests_pass),
        cmocka_unit_test(test_tests_fail),
        cmocka_unit_test(test_compile_error),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_test_root),
        cmocka_unit_test(test_tests_reused),
        cmocka_unit_test(test_bare_method),
        cmocka_unit_test(test_compile_speed),
        cmocka_unit_test(test_isolation),
        cmocka_unit_test(test_hostile_contained),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("jvm_worker", tests, setup, teardown);
}
