/* Unit tests of the Java entry points of lt_dataset_call: "java_check",
 * and "lang": "java" on faults, rewrite, applicable, check_calls and
 * location; Python stays the default.  SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "common/err.h"
#include "operators/operators.h"

#define JAVA_SRC                                                           \
    "package p;\\n"                                                        \
    "public class A {\\n"                                                  \
    "    int sum(int[] xs) {\\n"                                           \
    "        int t = 0;\\n"                                                \
    "        for (int i = 0; i < xs.length; i++) {\\n"                     \
    "            t += xs[i];\\n"                                           \
    "        }\\n"                                                         \
    "        return t;\\n"                                                 \
    "    }\\n"                                                             \
    "    int twice(int x) {\\n"                                            \
    "        return x * 2;\\n"                                             \
    "    }\\n"                                                             \
    "}\\n"

static char *call_ok(const char *fn, const char *args, size_t *len)
{
    char *out = NULL, *err = NULL;
    size_t n = 0;
    int rc = lt_dataset_call(fn, args, &out, &n, &err);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", fn, err ? err : "?");
    assert_int_equal(rc, 0);
    free(err);
    if (len)
        *len = n;
    return out;
}

static void test_java_check(void **state)
{
    (void)state;
    char *out = call_ok("java_check", "{\"source\": \"" JAVA_SRC "\"}", NULL);
    assert_string_equal(
        out, "{\"package\": \"p\", \"type\": \"A\", \"lines\": 13}");
    free(out);
    out = call_ok("java_check",
                  "{\"source\": \"int f(int a) {\\n  return a;\\n}\\n\"}",
                  NULL);
    assert_string_equal(out,
                        "{\"package\": \"\", \"type\": null, \"lines\": 3}");
    free(out);
    char *err = NULL;
    size_t n = 0;
    assert_int_equal(lt_dataset_call("java_check",
                                     "{\"source\": \"class A {\\n"
                                     "  void f() { int x = ; }\\n}\\n\"}",
                                     &out, &n, &err),
                     LT_EUSAGE);
    assert_non_null(err);
    assert_true(strncmp(err, "line 2: ", 8) == 0);
    free(err);
}

static void test_java_faults_and_rewrite(void **state)
{
    (void)state;
    char *out = call_ok("faults",
                        "{\"lang\": \"java\", \"quarter\": 2, \"source\": \""
                        JAVA_SRC "\"}",
                        NULL);
    assert_non_null(strstr(out, "\"kind\": \"OffByOne\""));
    assert_non_null(strstr(out, "i <= xs.length"));
    free(out);
    size_t len = 0;
    out = call_ok("rewrite",
                  "{\"lang\": \"java\", \"ops\": \"c,v,d,r\", \"strength\": 2,"
                  " \"seeds\": [1, 2], \"fault_line\": 11, \"source\": \""
                  JAVA_SRC "\"}",
                  &len);
    /* meta JSON, then two NUL-separated program texts */
    assert_true(strlen(out) < len);
    const char *first = out + strlen(out) + 1;
    assert_non_null(strstr(first, "if ("));
    assert_non_null(strstr(first, " * 2;"));
    assert_non_null(strstr(out, "\"fault_line\""));
    free(out);
    out = call_ok("applicable",
                  "{\"lang\": \"java\", \"source\": \"" JAVA_SRC "\"}", NULL);
    assert_non_null(strstr(out, "\"r\": 1"));
    free(out);
    out = call_ok("check_calls",
                  "{\"lang\": \"java\", \"calls\": [\"A.f(new int[]{1, 2})\","
                  " \"f(1,,)\"]}",
                  NULL);
    assert_true(strncmp(out, "[null, \"", 8) == 0);
    free(out);
    /* Python stays the default */
    out = call_ok("check_calls", "{\"calls\": [\"f(1, 2)\"]}", NULL);
    assert_string_equal(out, "[null]");
    free(out);
    char *err = NULL;
    size_t n = 0;
    assert_int_equal(lt_dataset_call("faults",
                                     "{\"lang\": \"cobol\", \"source\": \"\"}",
                                     &out, &n, &err),
                     LT_EUSAGE);
    free(err);
}

/* The bridge's cost of a variant: 200 seeds in one "rewrite" call on the
 * 252-line fixture, JSON and texts included. */
static void test_java_rewrite_speed(void **state)
{
    (void)state;
    FILE *f = fopen(LT_JAVA_FIXTURES "/Algorithms.java", "rb");
    assert_non_null(f);
    char src[16384];
    size_t n = fread(src, 1, sizeof(src) - 1, f);
    fclose(f);
    src[n] = '\0';
    /* JSON-escape the source (it holds quotes, backslashes, newlines) */
    char args[65536];
    size_t k = (size_t)snprintf(args, sizeof(args),
                                "{\"lang\": \"java\", \"ops\": \"c,v,d,r\", "
                                "\"strength\": 3, \"fault_line\": 100, "
                                "\"seeds\": [");
    for (int i = 0; i < 200; i++)
        k += (size_t)snprintf(args + k, sizeof(args) - k, "%s%d",
                              i ? ", " : "", i);
    k += (size_t)snprintf(args + k, sizeof(args) - k, "], \"source\": \"");
    for (size_t i = 0; i < n && k + 8 < sizeof(args); i++) {
        if (src[i] == '"' || src[i] == '\\')
            args[k++] = '\\', args[k++] = src[i];
        else if (src[i] == '\n')
            args[k++] = '\\', args[k++] = 'n';
        else
            args[k++] = src[i];
    }
    snprintf(args + k, sizeof(args) - k, "\"}");
    free(call_ok("applicable", args, NULL)); /* the analysis, cached */
    /* CPU time of this process (the rewrite runs in it): what the
     * variants cost, whatever else the machine runs beside the test. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    size_t len = 0;
    char *out = call_ok("rewrite", args, &len);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    int texts = 0;
    for (size_t i = 0; i < len; i++)
        texts += out[i] == '\0';
    assert_int_equal(texts, 200);
    printf("# bridge: 200 Java variants of a 252-line file in %.1f ms "
           "of CPU (%.3f ms a variant)\n",
           ms, ms / 200);
    assert_true(ms / 200 < 2.0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_check),
        cmocka_unit_test(test_java_faults_and_rewrite),
        cmocka_unit_test(test_java_rewrite_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
