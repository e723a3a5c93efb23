/* Unit tests of common/: lt_buf, the x* allocation helpers, lt_strerror
 * and the log level.  The log level is read from the environment once per
 * process, so those cases run in the test binary re-executed as a helper.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/buf.h"
#include "common/cliopt.h"
#include "common/sha256.h"
#include "common/err.h"
#include "common/log.h"
#include "common/run.h"
#include "common/xmalloc.h"

#define HELPER_LOG_LEVEL "--helper-log-level"

static int watchdog(void **state)
{
    alarm(10);
    return 0;
}

static int watchdog_off(void **state)
{
    alarm(0);
    return 0;
}

#define LT_TEST(fn) cmocka_unit_test_setup_teardown(fn, watchdog, watchdog_off)

/*** lt_buf ***/

static void test_buf_append(void **state)
{
    struct lt_buf b = LT_BUF_INIT;
    assert_null(b.data);
    lt_buf_append(&b, "abc", 3);
    assert_int_equal(b.len, 3);
    assert_string_equal(b.data, "abc");
    lt_buf_append(&b, "", 0);
    assert_int_equal(b.len, 3);
    lt_buf_append(&b, "d\0e", 3); /* binary: NUL is data */
    assert_int_equal(b.len, 6);
    assert_memory_equal(b.data, "abcd\0e", 7); /* and a NUL after it */
    lt_buf_puts(&b, "fg");
    assert_int_equal(b.len, 8);
    assert_memory_equal(b.data, "abcd\0efg", 9);
    lt_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    lt_buf_free(&b); /* twice is harmless */
}

/* An empty append still allocates, so data is always a C string. */
static void test_buf_empty_append(void **state)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_append(&b, NULL, 0);
    assert_non_null(b.data);
    assert_string_equal(b.data, "");
    assert_int_equal(b.len, 0);
    lt_buf_free(&b);
}

static void test_buf_printf(void **state)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "%d-%s", 42, "x");
    assert_string_equal(b.data, "42-x");
    lt_buf_printf(&b, "%s", "");
    assert_string_equal(b.data, "42-x");
    lt_buf_printf(&b, "[%5.2f|%-3s|%c]", 3.14159, "a", 'z');
    assert_string_equal(b.data, "42-x[ 3.14|a  |z]");
    assert_int_equal(b.len, strlen(b.data));
    /* Longer than any internal first guess. */
    lt_buf_printf(&b, "%3000s", "end");
    assert_int_equal(b.len, 17 + 3000);
    assert_string_equal(b.data + b.len - 3, "end");
    assert_int_equal(b.data[17], ' ');
    lt_buf_free(&b);
}

static void test_buf_steal_empty(void **state)
{
    struct lt_buf b = LT_BUF_INIT;
    char *s = lt_buf_steal(&b);
    assert_non_null(s);
    assert_string_equal(s, "");
    free(s);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
}

static void test_buf_steal(void **state)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_puts(&b, "hello");
    char *s = lt_buf_steal(&b);
    assert_string_equal(s, "hello");
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    /* The buffer is reusable and independent of what was stolen. */
    lt_buf_puts(&b, "again");
    assert_string_equal(b.data, "again");
    assert_string_equal(s, "hello");
    free(s);
    lt_buf_free(&b);
}

/* Growth by single bytes and by big blocks keeps every byte, the NUL
 * terminator and cap > len. */
/* lt_read_file: whole files, binary bytes kept, empty files give "",
 * missing ones -ENOENT and leave the outputs alone. */
static void test_read_file(void **state)
{
    (void)state;
    char path[] = "/tmp/litmus-test-read-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char bytes[] = "line 1\n\0binary\xff\n";
    assert_int_equal(write(fd, bytes, sizeof(bytes) - 1),
                     (ssize_t)(sizeof(bytes) - 1));
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(lt_read_file(path, &data, &len), 0);
    assert_int_equal(len, sizeof(bytes) - 1);
    assert_memory_equal(data, bytes, len);
    assert_int_equal(data[len], '\0');
    free(data);

    assert_int_equal(ftruncate(fd, 0), 0);
    close(fd);
    assert_int_equal(lt_read_file(path, &data, &len), 0);
    assert_int_equal(len, 0);
    /* A folder opens but cannot be read: an I/O error, nothing kept. */
    char *none = NULL;
    assert_int_equal(lt_read_file("/", &none, &len), -EIO);
    assert_null(none);
    assert_string_equal(data, "");
    free(data);

    unlink(path);
    data = (char *)"untouched";
    len = 7;
    assert_int_equal(lt_read_file(path, &data, &len), -ENOENT);
    assert_string_equal(data, "untouched");
    assert_int_equal(len, 7);
}

/* lt_write_file: every byte written, NULs included, read back alike; a
 * file that exists is not overwritten; a short write is an error; a
 * missing folder is -ENOENT. */
static void test_write_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/litmus-test-write-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof(path), "%s/f.py", dir);
    static const char bytes[] = "x = 1\n\0\xff\n";
    assert_int_equal(lt_write_file(path, bytes, sizeof(bytes) - 1), 0);
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(lt_read_file(path, &data, &len), 0);
    assert_int_equal(len, sizeof(bytes) - 1);
    assert_memory_equal(data, bytes, len);
    free(data);
    assert_int_equal(lt_write_file(path, "y", 1), -EEXIST);
    assert_int_equal(lt_read_file(path, &data, &len), 0);
    assert_int_equal(len, sizeof(bytes) - 1);
    free(data);
    unlink(path);
    assert_int_equal(lt_write_file(path, "", 0), 0);
    assert_int_equal(lt_read_file(path, &data, &len), 0);
    assert_int_equal(len, 0);
    free(data);
    unlink(path);
    /* A write the file-size limit cuts short after its first bytes is
     * -EFBIG, not a silently short file. */
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    struct rlimit small = { .rlim_cur = 4, .rlim_max = old.rlim_max };
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = lt_write_file(path, "0123456789", 10);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(rc, -EFBIG);
    unlink(path);
    rmdir(dir);
    char none[96];
    snprintf(none, sizeof(none), "%s/gone/f.py", dir);
    assert_int_equal(lt_write_file(none, "x", 1), -ENOENT);
}

static void test_buf_growth(void **state)
{
    struct lt_buf b = LT_BUF_INIT;
    for (size_t i = 0; i < 10000; i++) {
        char c = (char)('a' + i % 26);
        lt_buf_append(&b, &c, 1);
        assert_true(b.cap > b.len);
        assert_int_equal(b.data[b.len], '\0');
    }
    for (size_t i = 0; i < 10000; i++)
        assert_int_equal(b.data[i], 'a' + i % 26);
    enum { BIG = 1 << 20 };
    char *big = xmalloc(BIG);
    memset(big, 'Z', BIG);
    lt_buf_append(&b, big, BIG);
    assert_int_equal(b.len, 10000 + BIG);
    assert_true(b.cap > b.len);
    assert_int_equal(b.data[b.len], '\0');
    assert_memory_equal(b.data + 10000, big, BIG);
    assert_int_equal(b.data[9999], 'a' + 9999 % 26);
    free(big);
    lt_buf_free(&b);
}

/*** xmalloc ***/

static void test_xasprintf(void **state)
{
    char *s = xasprintf("%s=%d", "n", -7);
    assert_string_equal(s, "n=-7");
    free(s);
    s = xasprintf("%s", "");
    assert_string_equal(s, "");
    free(s);
    s = xasprintf("%05u|%lx|%%", 42u, 0xbeefUL);
    assert_string_equal(s, "00042|beef|%");
    free(s);
    s = xasprintf("%4096d", 1);
    assert_int_equal(strlen(s), 4096);
    assert_int_equal(s[4095], '1');
    free(s);
}

static void test_xstrndup(void **state)
{
    char *s = xstrndup("abcdef", 3);
    assert_string_equal(s, "abc");
    free(s);
    s = xstrndup("abcdef", 0);
    assert_string_equal(s, "");
    free(s);
    /* Copies exactly n bytes: no strlen, so the source need not be a C
     * string, and a NUL inside is copied too. */
    static const char raw[4] = {'w', 'x', 'y', 'z'};
    s = xstrndup(raw, 4);
    assert_string_equal(s, "wxyz");
    free(s);
    s = xstrndup("a\0b", 3);
    assert_memory_equal(s, "a\0b\0", 4);
    free(s);
    s = xstrdup("copy");
    assert_string_equal(s, "copy");
    free(s);
}

static void test_xalloc(void **state)
{
    /* Zero sizes still give freeable, distinct pointers. */
    void *a = xmalloc(0);
    void *b = xmalloc(0);
    assert_non_null(a);
    assert_non_null(b);
    assert_ptr_not_equal(a, b);
    free(a);
    free(b);
    unsigned char *z = xcalloc(64, 4);
    for (size_t i = 0; i < 256; i++)
        assert_int_equal(z[i], 0);
    z = xrealloc(z, 4096);
    for (size_t i = 0; i < 256; i++)
        assert_int_equal(z[i], 0);
    z = xrealloc(z, 0);
    assert_non_null(z);
    free(z);
    z = xcalloc(0, 0);
    assert_non_null(z);
    free(z);
}

/*** lt_strerror ***/

static void test_strerror_codes(void **state)
{
    static const int codes[] = {
        LT_EINTERNAL, LT_EPARSE,    LT_EUSAGE,   LT_ELOCKED,
        LT_ECORRUPT,  LT_EPYTHON,   LT_EPROTO,   LT_EBASELINE,
        LT_ENOTESTS,  LT_ESCHEMA,   LT_ENOTFOUND, LT_EINTERRUPTED,
    };
    enum { N = sizeof(codes) / sizeof(codes[0]) };
    const char *unknown = lt_strerror(-20000);
    assert_string_equal(unknown, "unknown error");
    const char *names[N];
    for (size_t i = 0; i < N; i++) {
        names[i] = lt_strerror(codes[i]);
        assert_non_null(names[i]);
        assert_true(names[i][0] != '\0');
        assert_string_not_equal(names[i], unknown);
        /* Below any errno, so never confused with one. */
        assert_true(codes[i] <= -4096);
        for (size_t j = 0; j < i; j++) {
            assert_int_not_equal(codes[i], codes[j]);
            assert_string_not_equal(names[i], names[j]);
        }
    }
    assert_string_equal(lt_strerror(LT_EPROTO), "malformed wire frame");
    assert_string_equal(lt_strerror(0), "success");
}

static void test_strerror_errno(void **state)
{
    char want[256];
    snprintf(want, sizeof(want), "%s", strerror(ENOENT));
    assert_string_equal(lt_strerror(-ENOENT), want);
    snprintf(want, sizeof(want), "%s", strerror(EPIPE));
    assert_string_equal(lt_strerror(-EPIPE), want);
    /* Positive and out-of-range values are not errno codes. */
    assert_string_equal(lt_strerror(ENOENT), "unknown error");
    assert_string_equal(lt_strerror(-4096), "unknown error");
    assert_string_equal(lt_strerror(-99999), "unknown error");
    assert_non_null(lt_strerror(INT32_MIN));
}

/*** Logging ***/

/* Runs this binary as the log-level helper with LITMUS_DEBUG set to
 * `value` (unset when NULL); returns the level it found. */
static int level_in_child(const char *value)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (value)
            setenv("LITMUS_DEBUG", value, 1);
        else
            unsetenv("LITMUS_DEBUG");
        execl("/proc/self/exe", "test_common", HELPER_LOG_LEVEL,
              (char *)NULL);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_not_equal(WEXITSTATUS(status), 127);
    return WEXITSTATUS(status);
}

static void test_log_level_from_env(void **state)
{
    assert_int_equal(level_in_child(NULL), LT_LOG_WARN);
    assert_int_equal(level_in_child(""), LT_LOG_WARN);
    assert_int_equal(level_in_child("0"), LT_LOG_WARN);
    assert_int_equal(level_in_child("1"), LT_LOG_DEBUG);
    assert_int_equal(level_in_child("yes"), LT_LOG_DEBUG);
}

/* Captures what `fn` writes to stderr into out (NUL-terminated). */
static void capture_stderr(void (*fn)(void), char *out, size_t cap)
{
    char path[] = "/tmp/lt-test-log-XXXXXX";
    int tmp = mkstemp(path);
    assert_true(tmp >= 0);
    unlink(path);
    fflush(stderr);
    int saved = dup(2);
    assert_true(saved >= 0);
    assert_int_equal(dup2(tmp, 2), 2);
    fn();
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    ssize_t n = pread(tmp, out, cap - 1, 0);
    assert_true(n >= 0);
    out[n] = '\0';
    close(tmp);
}

static void log_all_levels(void)
{
    lt_error("e%d", 1);
    lt_warn("w%d", 2);
    lt_info("i%d", 3);
    lt_debug("d%d", 4);
}

static void test_log_output(void **state)
{
    char out[1024];
    enum lt_log_level old = lt_log_get_level();

    lt_log_set_level(LT_LOG_WARN);
    assert_int_equal(lt_log_get_level(), LT_LOG_WARN);
    capture_stderr(log_all_levels, out, sizeof(out));
    assert_string_equal(out, "litmus: error: e1\nlitmus: warning: w2\n");

    lt_log_set_level(LT_LOG_DEBUG);
    capture_stderr(log_all_levels, out, sizeof(out));
    assert_string_equal(out, "litmus: error: e1\nlitmus: warning: w2\n"
                             "litmus: i3\nlitmus: d4\n");

    lt_log_set_level(LT_LOG_ERROR);
    capture_stderr(log_all_levels, out, sizeof(out));
    assert_string_equal(out, "litmus: error: e1\n");
    lt_log_set_level(old);
}

static void log_keeps_errno(void)
{
    errno = ENOSPC;
    lt_error("%s", "boom");
    assert_int_equal(errno, ENOSPC);
    errno = EACCES;
    lt_debug("dropped");
    assert_int_equal(errno, EACCES);
}

static void test_log_saves_errno(void **state)
{
    char out[256];
    enum lt_log_level old = lt_log_get_level();
    lt_log_set_level(LT_LOG_WARN);
    capture_stderr(log_keeps_errno, out, sizeof(out));
    assert_string_equal(out, "litmus: error: boom\n");
    lt_log_set_level(old);
}

/* A message longer than the line buffer is cut, not overflowed. */
static void log_long(void)
{
    char *s = xmalloc(10000);
    memset(s, 'x', 9999);
    s[9999] = '\0';
    lt_error("%s", s);
    free(s);
}

static void test_log_long_message(void **state)
{
    static char out[16384];
    capture_stderr(log_long, out, sizeof(out));
    size_t n = strlen(out);
    assert_true(n > 1000 && n < 4096);
    assert_memory_equal(out, "litmus: error: xxx", 18);
    assert_int_equal(out[n - 1], '\n');
}

/* FIPS 180-4 test vectors: empty input, "abc", the two-block message,
 * and a million 'a's fed in uneven pieces through the streaming API. */
static void test_sha256(void **state)
{
    (void)state;
    char hex[65];
    lt_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
                             "27ae41e4649b934ca495991b7852b855");
    lt_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
                             "b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    lt_sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
                             "a33ce45964ff2167f6ecedd419db06c1");
    struct lt_sha256 s;
    uint8_t digest[32];
    char chunk[997];
    memset(chunk, 'a', sizeof(chunk));
    lt_sha256_init(&s);
    size_t left = 1000000;
    while (left) {
        size_t n = left < sizeof(chunk) ? left : sizeof(chunk);
        lt_sha256_update(&s, chunk, n);
        left -= n;
    }
    lt_sha256_final(&s, digest);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
                             "f1809a48a497200e046d39ccc7112cd0");
}

/*** Durations (--max-time) ***/

static void expect_duration(const char *s, double want)
{
    double got = -1;
    int rc = lt_parse_duration(s, &got);
    if (rc != 0 || got != want)
        fail_msg("'%s': rc %d, %g s; expected %g s", s, rc, got, want);
}

static void test_duration_forms(void **state)
{
    (void)state;
    expect_duration("90", 90);
    expect_duration("2.5", 2.5);
    expect_duration("90s", 90);
    expect_duration("15m", 900);
    expect_duration("2h", 7200);
    expect_duration("1h30m", 5400);
    expect_duration("1m30s", 90);
    expect_duration("1h2m3s", 3723);
    expect_duration("1.5h", 5400);
    expect_duration("0.5m", 30);
    expect_duration("0", 0);
    static const char *const bad[] = {
        "", "s", "m5", "-5", "+5", "5x", "5 m", " 5", "5m ", "1e3", "inf",
        "nan", "0x10", "1.", ".5", "1h30", "30m1h", "1m1m", "5ms", "5sec",
        "1h1h", "5.5.5"};
    for (size_t k = 0; k < sizeof(bad) / sizeof(*bad); k++) {
        double got = -7;
        if (lt_parse_duration(bad[k], &got) != -1 || got != -7)
            fail_msg("'%s' was accepted as %g s", bad[k], got);
    }
    assert_int_equal(lt_parse_duration(NULL, &(double){0}), -1);
}

/* The option's form: a range, and the usage error's exit code path. */
static void test_cli_duration_range(void **state)
{
    (void)state;
    double v = -1;
    assert_int_equal(lt_cli_duration("--max-time", "10m", 86400, &v), 0);
    assert_true(v == 600);
    /* Zero, past the bound and bad text: -1 and v untouched (the usage
     * error goes to stderr). */
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    int zero = lt_cli_duration("--max-time", "0s", 86400, &v);
    int over = lt_cli_duration("--max-time", "25h", 86400, &v);
    int text = lt_cli_duration("--max-time", "soon", 86400, &v);
    dup2(saved, 2);
    close(saved);
    close(devnull);
    assert_int_equal(zero, -1);
    assert_int_equal(over, -1);
    assert_int_equal(text, -1);
    assert_true(v == 600);
}

/* A helper program's output on both streams, its exit status, its
 * standard input from a file, its folder, the cap on what is kept, a
 * program that fills one pipe while the other is read, and one that
 * does not exist. */
static void test_run_capture(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    char *echo[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    assert_int_equal(lt_run_capture(echo, NULL, NULL, 1024, &out, &err), 3);
    assert_string_equal(out, "out\n");
    assert_string_equal(err, "err\n");
    free(out);
    free(err);

    char path[] = "/tmp/litmus-run-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "hello\n", 6), 6);
    close(fd);
    char *cat[] = {"cat", NULL};
    assert_int_equal(lt_run_capture(cat, NULL, path, 1024, &out, NULL), 0);
    assert_string_equal(out, "hello\n");
    free(out);
    unlink(path);

    char *pwd[] = {"pwd", NULL};
    assert_int_equal(lt_run_capture(pwd, "/", NULL, 1024, &out, NULL), 0);
    assert_string_equal(out, "/\n");
    free(out);

    /* 256 KiB on stderr before anything on stdout: both pipes are read
     * together, so neither stalls; 100 bytes of each are kept. */
    char *big[] = {"sh", "-c", "head -c 262144 /dev/zero | tr '\\0' x >&2; "
                   "echo done", NULL};
    assert_int_equal(lt_run_capture(big, NULL, NULL, 100, &out, &err), 0);
    assert_int_equal(strlen(err), 100);
    assert_string_equal(out, "done\n");
    free(out);
    free(err);

    /* What the child cannot set up: 126, as a shell says it. */
    assert_int_equal(lt_run_capture(cat, NULL, "/nonexistent/litmus", 64,
                                     NULL, NULL), 126);
    assert_int_equal(lt_run_capture(pwd, "/nonexistent/litmus", NULL, 64,
                                     NULL, NULL), 126);

    char *none[] = {"litmus-no-such-program", NULL};
    assert_int_equal(lt_run_capture(none, NULL, NULL, 64, NULL, NULL), 127);
    char *sig[] = {"sh", "-c", "kill -9 $$", NULL};
    assert_int_equal(lt_run_capture(sig, NULL, NULL, 64, NULL, NULL),
                     128 + 9);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], HELPER_LOG_LEVEL) == 0)
        return (int)lt_log_get_level();

    const struct CMUnitTest tests[] = {
        LT_TEST(test_buf_append),
        LT_TEST(test_buf_empty_append),
        LT_TEST(test_buf_printf),
        LT_TEST(test_buf_steal_empty),
        LT_TEST(test_buf_steal),
        LT_TEST(test_buf_growth),
        LT_TEST(test_read_file),
        LT_TEST(test_write_file),
        LT_TEST(test_xasprintf),
        LT_TEST(test_xstrndup),
        LT_TEST(test_xalloc),
        LT_TEST(test_strerror_codes),
        LT_TEST(test_strerror_errno),
        LT_TEST(test_log_level_from_env),
        LT_TEST(test_log_output),
        LT_TEST(test_log_saves_errno),
        LT_TEST(test_log_long_message),
        LT_TEST(test_sha256),
        LT_TEST(test_run_capture),
        LT_TEST(test_duration_forms),
        LT_TEST(test_cli_duration_range),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
