/* common/pyload.c built where litmus-python.so cannot be found (this
 * program is not beside it, and its build path is made wrong): the
 * interpreter's libpython loads, the module does not, and every way in
 * says so once instead of going on.  SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/pyload.h"

static void test_missing_module_is_named(void **state)
{
    (void)state;
    if (access(lt_python_lib(), R_OK) != 0)
        skip();
    char *err = NULL;
    assert_int_equal(lt_python_use(LT_PYTHON_DEFAULT, NULL, &err), -1);
    assert_non_null(strstr(err, "litmus-python.so is neither beside the "
                                "litmus binary nor in ../lib/litmus"));
    free(err);
    /* The default is tried once, then never again. */
    assert_null(lt_python_sym("lt_operators_start"));
    assert_null(lt_python_sym("lt_operators_start"));
    assert_int_equal(lt_python_loaded(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_module_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
