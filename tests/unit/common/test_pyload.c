/* The run-time choice of the interpreter (common/pyload.h) and the start
 * of it in litmus-python.so (common/pyabi.c): what loads, what is refused
 * with a reason, and the caller's PYTHON* variables kept.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/pyload.h"

static void test_bad_libpython_is_refused_with_its_name(void **state)
{
    (void)state;
    assert_int_equal(lt_python_loaded(), 0);
    assert_string_equal(lt_python_exe(), LT_PYTHON_DEFAULT);
    char *err = NULL;
    assert_int_equal(lt_python_use("/opt/py/bin/python",
                                   "/nonexistent/libpython3.99.so", &err),
                     -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot load /opt/py/bin/python's libpython"));
    assert_non_null(strstr(err, "/nonexistent/libpython3.99.so"));
    free(err);
    assert_int_equal(lt_python_loaded(), 0);

    /* No libpython at all, and a shared library that is not one: the
     * module finds no C API in it and says which function it missed. */
    assert_int_equal(lt_python_use("/opt/py/bin/python", "", &err), -1);
    assert_non_null(strstr(err, "no libpython for /opt/py/bin/python"));
    free(err);
    assert_int_equal(lt_python_use("/opt/py/bin/python", "libm.so.6", &err),
                     -1);
    assert_non_null(strstr(err, "litmus cannot run in the Python of "
                                "libm.so.6"));
    assert_non_null(strstr(err, "undefined symbol: Py"));
    free(err);
    assert_int_equal(lt_python_loaded(), 0);
}

/* The default loads; its start leaves the caller's PYTHON* variables as
 * they were and adds none of its own settings; a second, other choice is
 * refused; the module has what pyforward.c asks for and nothing else. */
static void test_default_loads_and_keeps_the_environment(void **state)
{
    (void)state;
    if (access(lt_python_lib(), R_OK) != 0)
        skip();
    setenv("PYTHONPATH", "/nowhere/litmus-test", 1);
    setenv("PYTHONWARNINGS", "error", 1);
    unsetenv("PYTHONHASHSEED");
    char *err = NULL;
    assert_int_equal(lt_python_use(LT_PYTHON_DEFAULT, NULL, &err), 0);
    assert_null(err);
    assert_int_equal(lt_python_use(LT_PYTHON_DEFAULT, NULL, &err), 0);
    assert_int_equal(lt_python_loaded(), 1);

    int (*start)(const char *) =
        (int (*)(const char *))lt_python_sym("lt_operators_start");
    assert_non_null(start);
    assert_int_equal(start(LT_PYTHON_DEFAULT), 0);
    assert_int_equal(start(LT_PYTHON_DEFAULT), 0); /* once is enough */
    assert_string_equal(getenv("PYTHONPATH"), "/nowhere/litmus-test");
    assert_string_equal(getenv("PYTHONWARNINGS"), "error");
    assert_null(getenv("PYTHONHASHSEED"));
    assert_null(getenv("PYTHONUTF8"));

    assert_null(lt_python_sym("lt_pyabi_start")); /* not exported */
    assert_int_equal(lt_python_use("/opt/py/bin/python",
                                   "/opt/py/lib/libpython3.12.so.1.0", &err),
                     -1);
    assert_non_null(strstr(err, "runs the Python of"));
    free(err);
}

static void test_self_file(void **state)
{
    (void)state;
    assert_null(lt_self_file("no-such-file-here", "../no/such/file"));
    char *self = lt_self_file("test_pyload", NULL);
    assert_non_null(self);
    assert_int_equal(access(self, X_OK), 0);
    free(self);
    self = lt_self_file(NULL, "test_pyload");
    assert_non_null(self);
    free(self);
    self = lt_self_file("no-such-file-here", "test_pyload");
    assert_non_null(self);
    free(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_libpython_is_refused_with_its_name),
        cmocka_unit_test(test_default_loads_and_keeps_the_environment),
        cmocka_unit_test(test_self_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
