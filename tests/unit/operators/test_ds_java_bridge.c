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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_check),
        cmocka_unit_test(test_java_faults_and_rewrite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
