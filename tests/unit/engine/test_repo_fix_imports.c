/* Unit tests of which test patches need the fix to be collected
 * (engine/jobs/patches/repo_tree.c, lt__rt_tests_need_fix): a test file
 * that imports, from a module the fix changes, a name only the fix
 * defines (one line, or a parenthesized list over several), or a module
 * only the fix adds, or a name its package re-exports, also by a
 * relative import and in a class body or a try block; not a name the
 * base already has or mentions, nor a module the fix leaves alone, nor
 * an import in a function's body; and lines that are not Python at all
 * read without harm.  Also which tests a test patch adds or changes
 * (lt__rt_touched_tests): without a reference, only those are meant to
 * pass where they fail at the base.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/jobs/patches/repo_internal.h"
#include "tree_files.h"

static char root[] = "/tmp/litmus-fix-imports-XXXXXX";
static char base_dir[600], tree_dir[600];

static int sh(const char *cmd)
{
    return system(cmd);
}

/* The fix: pkg/mod.py gains new_name, pkg/added.py is new. */
static const char FIX[] =
    "diff --git a/pkg/mod.py b/pkg/mod.py\n"
    "--- a/pkg/mod.py\n"
    "+++ b/pkg/mod.py\n"
    "@@ -1,2 +1,5 @@\n"
    " def old(x):\n"
    "     return x\n"
    "+\n"
    "+def new_name(x):\n"
    "+    return -x\n"
    "diff --git a/pkg/added.py b/pkg/added.py\n"
    "new file mode 100644\n"
    "--- /dev/null\n"
    "+++ b/pkg/added.py\n"
    "@@ -0,0 +1 @@\n"
    "+VALUE = 1\n";

/* Another fix: the package re-exports a name of its module. */
static const char FIX_INIT[] =
    "diff --git a/pkg/__init__.py b/pkg/__init__.py\n"
    "--- a/pkg/__init__.py\n"
    "+++ b/pkg/__init__.py\n"
    "@@ -0,0 +1 @@\n"
    "+from .mod import old as shown\n";

static const char *fix_now = FIX;

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(root))
        return -1;
    snprintf(base_dir, sizeof(base_dir), "%s/base", root);
    snprintf(tree_dir, sizeof(tree_dir), "%s/tree", root);
    mkdir(base_dir, 0700);
    mkdir(tree_dir, 0700);
    put_file(base_dir, "pkg/__init__.py", "");
    put_file(base_dir, "pkg/mod.py", "def old(x):\n    return x\n");
    put_file(base_dir, "pkg/other.py", "# new_name is planned\nX = 1\n");
    /* The worktree: the base's package beside the tests. */
    put_file(tree_dir, "pkg/__init__.py", "");
    char cmd[2048];
    snprintf(cmd, sizeof(cmd),
             "cd %s && git init -q . && git add -A && git -c user.name=t "
             "-c user.email=t@e commit -qm base",
             base_dir);
    return sh(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    return sh(cmd) == 0 ? 0 : -1;
}

/* Whether the test file rel with text needs the fix. */
static int needs_at(const char *rel, const char *text)
{
    put_file(tree_dir, rel, text);
    struct rinst in = {0};
    in.tree = tree_dir;
    in.apply_tree = base_dir;
    in.home_patch = fix_now;
    lt__strv_push(&in.test_files, rel);
    int need = lt__rt_tests_need_fix(&in);
    lt__strv_free(&in.test_files);
    return need;
}

static int needs(const char *text)
{
    return needs_at("tests/test_x.py", text);
}

static void test_a_name_only_the_fix_defines(void **state)
{
    (void)state;
    assert_true(needs("from pkg.mod import old, new_name\n"));
    assert_true(needs("from pkg.mod import new_name as n\n\n"
                      "def test_n():\n    assert n(1) == -1\n"));
    assert_true(needs("import os\nfrom pkg.mod import (\n    old,\n"
                      "    new_name,\n)\n"));
    assert_true(needs("import pkg.added\n"));
    assert_true(needs("from pkg.added import VALUE\n"));
    /* The module as a name of its package. */
    assert_true(needs("from pkg import added\n"));
    /* Re-exported: by the package (a star import the fix leaves alone),
     * or by a changed __init__'s import list. */
    assert_true(needs("from pkg import old, new_name\n"));
    /* Read from the test file's package. */
    assert_true(needs_at("pkg/tests/test_y.py", "from ..mod import new_name\n"));
    assert_true(needs_at("pkg/test_y.py", "from . import added\n"));
    /* Run at collection: in a class body, a try block, after a function. */
    assert_true(needs("class TestX:\n    from pkg.mod import new_name\n"));
    assert_true(needs("try:\n    from pkg.mod import new_name\n"
                      "except ImportError:\n    new_name = None\n"));
    assert_true(needs("def helper():\n    return 1\n\n"
                      "from pkg.mod import new_name\n"));
}

static void test_names_the_base_has_or_modules_the_fix_leaves(void **state)
{
    (void)state;
    assert_false(needs("from pkg.mod import old\n"));
    assert_false(needs("from pkg.mod import old as new_name\n"));
    assert_false(needs("import pkg.mod\n"));
    /* The fix does not change pkg/other.py: its imports are the base's
     * business. */
    assert_false(needs("from pkg.other import X\n"));
    /* Inside a function: run by its test, with its own files in place. */
    assert_false(needs("def test_late():\n"
                       "    from pkg.mod import new_name\n"));
    assert_false(needs("class TestX:\n    @staticmethod\n"
                       "    async def test_late():\n\n"
                       "        # a comment\n"
                       "        from pkg.mod import new_name\n"));
    /* A relative import is read from the test file's own package:
     * tests/mod.py is not pkg/mod.py. */
    assert_false(needs("from .mod import new_name\n"));
    assert_false(needs_at("pkg/tests/test_y.py", "from .mod import new_name\n"));
    assert_false(needs_at("pkg/test_y.py", "from ...mod import new_name\n"));
    /* A name the base's package already mentions. */
    assert_false(needs("from pkg import old\n"));
    /* The base checkout is left as it was. */
    char cmd[700];
    snprintf(cmd, sizeof(cmd),
             "cd %s && test -z \"$(git status --porcelain)\"", base_dir);
    assert_int_equal(sh(cmd), 0);
}

static void test_a_name_a_package_only_now_exports(void **state)
{
    (void)state;
    fix_now = FIX_INIT;
    assert_true(needs("from pkg import (\n    shown,\n)\n"));
    assert_false(needs("from pkg.mod import old\n"));
    assert_false(needs("import pkg\n"));
    fix_now = FIX;
}

/* Which tests a test patch adds or changes: a body line, a decorator's
 * new parameter; not a test beside them, nor one of the same name in
 * another file. */
static void test_tests_a_diff_touches(void **state)
{
    (void)state;
    static const char TEXT[] =
        "import pytest\n"                          /* 1 */
        "\n"                                       /* 2 */
        "def test_old():\n"                        /* 3 */
        "    assert 1\n"                           /* 4 */
        "\n"                                       /* 5 */
        "@pytest.mark.parametrize(\n"              /* 6 */
        "    'x', [\n"                             /* 7 */
        "        1,\n"                             /* 8 */
        "        2,\n"                             /* 9 */
        "    ],\n"                                 /* 10 */
        ")\n"                                      /* 11 */
        "def test_param(x):\n"                     /* 12 */
        "    assert x\n"                           /* 13 */
        "\n"                                       /* 14 */
        "class TestC:\n"                           /* 15 */
        "    def test_body(self):\n"               /* 16 */
        "        y = 2\n"                          /* 17 */
        "\n"                                       /* 18 */
        "        assert y\n"                       /* 19 */
        "\n"                                       /* 20 */
        "    async def test_new(self):\n"          /* 21 */
        "        pass\n";                          /* 22 */
    put_file(tree_dir, "tests/test_t.py", TEXT);
    put_file(tree_dir, "tests/test_u.py", "def test_old():\n    assert 0\n");
    static const char DIFF[] =
        "diff --git a/tests/test_t.py b/tests/test_t.py\n"
        "--- a/tests/test_t.py\n"
        "+++ b/tests/test_t.py\n"
        "@@ -7,3 +7,4 @@\n"
        "     'x', [\n"
        "         1,\n"
        "+        2,\n"
        "     ],\n"
        "@@ -18,3 +19,6 @@\n"
        "         assert y\n"
        "+\n"
        "+    async def test_new(self):\n"
        "+        pass\n";
    char *ids[] = {"tests/test_t.py::test_old",
                   "tests/test_t.py::test_param[1]",
                   "tests/test_t.py::test_param[2]",
                   "tests/test_t.py::TestC::test_body",
                   "tests/test_t.py::TestC::test_new",
                   "tests/test_u.py::test_old",
                   "tests/test_gone.py::test_x",
                   "test_body (tests.TestC)"};
    unsigned char got[8];
    struct rinst in = {0};
    in.tree = tree_dir;
    lt__rt_touched_tests(&in, DIFF, ids, 8, got);
    static const unsigned char want[8] = {0, 1, 1, 0, 1, 0, 1, 1};
    for (int i = 0; i < 8; i++) {
        if (got[i] != want[i])
            fail_msg("%s: touched %d, wanted %d", ids[i], got[i], want[i]);
    }
}

static void test_text_that_is_no_python_reads_without_harm(void **state)
{
    (void)state;
    static const char *const odd[] = {
        "from import x\n", "from  import \n", "from pkg.mod import",
        "from pkg.mod import (new_name", "from pkg.mod import )(\n",
        "import\n", "import ,,, as as\n", "from ", "from pkg.mod  import ",
        "\n\n\nfrom\n", "from pkg.mod import new_name\\\n", "",
    };
    for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
        (void)needs(odd[i]);
    assert_true(needs("from pkg.mod import (new_name"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_name_only_the_fix_defines),
        cmocka_unit_test(test_names_the_base_has_or_modules_the_fix_leaves),
        cmocka_unit_test(test_a_name_a_package_only_now_exports),
        cmocka_unit_test(test_tests_a_diff_touches),
        cmocka_unit_test(test_text_that_is_no_python_reads_without_harm),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
