/* Unit tests of how a repository instance's test ids find the collected
 * tests (engine/jobs/patches/repo_tree.c, lt__rt_match_id): pytest node
 * ids, unittest's "name (module.Class)" in both of its forms, a bare
 * name, and a documented test named by its docstring's first line (as
 * Django's runner prints it, and the harness's lists name it); and which
 * runner a tree needs (lt__rt_test_runner).
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
#include "runners/runner.h"

static char tree[] = "/tmp/litmus-repo-ids-XXXXXX";

static void write_file(const char *rel, const char *text)
{
    put_file(tree, rel, text);
}

static char *const IDS[] = {
    "tests/app/tests.py::ModelTests::test_plain",
    "tests/app/tests.py::ModelTests::test_documented",
    "tests/app/tests.py::ModelTests::test_below",
    "tests/app/tests.py::ModelTests::test_long_signature",
    "tests/app/tests.py::OtherTests::test_plain",
    "tests/other/test_x.py::XTests::test_only_here",
    "tests/app/tests.py::ModelTests::test_quoted",
    "tests/app/tests.py::ModelTests::test_ticket",
    "tests/app/tests.py::ModelTests::test_typo",
};
#define N_IDS (sizeof(IDS) / sizeof(IDS[0]))

/* The indices of IDS that want names, as a string of digits. */
static void matched(const char *want, char *out)
{
    struct rinst in = {0};
    in.tree = tree;
    lt__strv_push(&in.test_files, "tests/app/tests.py");
    uint32_t *idx = NULL;
    size_t n = 0;
    lt__rt_match_id(&in, IDS, N_IDS, want, &idx, &n);
    lt__strv_free(&in.documented);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        out[k++] = (char)('0' + idx[i]);
    out[k] = '\0';
    free(idx);
    lt__strv_free(&in.test_files);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(tree))
        return -1;
    write_file("tests/app/tests.py",
               "from django.test import TestCase\n"
               "\n"
               "class ModelTests(TestCase):\n"
               "    \"\"\"A class's own docstring.\"\"\"\n"
               "\n"
               "    def test_plain(self):\n"
               "        self.assertTrue(True)\n"
               "\n"
               "    def test_with_a_class_inside(self):\n"
               "        class Local:\n"
               "            pass\n"
               "\n"
               "    def test_documented(self):\n"
               "        \"\"\"Regression test for #123: a value is kept.\"\"\"\n"
               "        pass\n"
               "\n"
               "    def test_ticket(self):\n"
               "        \"\"\"\n"
               "        Checks of 'exclude' values (#12689)\n"
               "        \"\"\"\n"
               "        pass\n"
               "\n"
               "    def test_below(self):\n"
               "        \"\"\"\n"
               "        The text starts below the quotes.\n"
               "        And goes on.\n"
               "        \"\"\"\n"
               "\n"
               "    def test_long_signature(\n"
               "        self,\n"
               "    ):\n"
               "        r'''Raw, over several lines.'''\n"
               "\n"
               "    def test_typo(self):\n"
               "        \"\"\" \"\n"
               "        A stray quote opens this one.\n"
               "        \"\"\"\n"
               "\n"
               "    def test_quoted(self):\n"
               "        \"Subselects honor any manual ordering\"\n"
               "\n"
               "class OtherTests(TestCase):\n"
               "    def test_plain(self):\n"
               "        x = 1  # no docstring: 'Regression test for #123'\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_node_ids_and_unittest_forms(void **state)
{
    (void)state;
    char got[16];
    matched("tests/app/tests.py::ModelTests::test_plain", got);
    assert_string_equal(got, "0");
    matched("test_plain (app.tests.ModelTests)", got);
    assert_string_equal(got, "0");
    matched("test_plain (app.tests.ModelTests.test_plain)", got);
    assert_string_equal(got, "0");
    matched("test_plain (app.tests.OtherTests)", got);
    assert_string_equal(got, "4");
    matched("test_plain (other.tests.ModelTests)", got);
    assert_string_equal(got, "");
}

static void test_bare_names_prefer_the_instance_files(void **state)
{
    (void)state;
    char got[16];
    matched("test_plain", got);
    assert_string_equal(got, "04");
    matched("test_only_here", got);
    assert_string_equal(got, "5");
}

static void test_docstring_first_lines(void **state)
{
    (void)state;
    char got[16];
    matched("Regression test for #123: a value is kept.", got);
    assert_string_equal(got, "1");
    matched("The text starts below the quotes.", got);
    assert_string_equal(got, "2");
    matched("Raw, over several lines.", got);
    assert_string_equal(got, "3");
    matched("Subselects honor any manual ordering", got);
    assert_string_equal(got, "6");
    /* Not unittest's "name (module.Class)": a sentence in parentheses. */
    matched("Checks of 'exclude' values (#12689)", got);
    assert_string_equal(got, "7");
    /* A first line of one word (a stray quote in Django's tests). */
    matched("\"", got);
    assert_string_equal(got, "8");
    /* A class's docstring, a part of a line, a comment: no test. */
    matched("A class's own docstring.", got);
    assert_string_equal(got, "");
    matched("Regression test for #123", got);
    assert_string_equal(got, "");
    matched("And goes on.", got);
    assert_string_equal(got, "");
}

static void expect_file(const char *id, const char *want)
{
    struct rinst in = {0};
    in.tree = tree;
    char *got = lt__rt_id_file(&in, id);
    if (want)
        assert_string_equal(got, want);
    else
        assert_null(got);
    free(got);
}

static void test_the_file_an_id_names(void **state)
{
    (void)state;
    expect_file("tests/app/tests.py::ModelTests::test_plain",
                "tests/app/tests.py");
    /* Django's labels are modules under tests/. */
    expect_file("test_plain (app.tests.ModelTests)", "tests/app/tests.py");
    expect_file("test_plain (app.tests.ModelTests.test_plain)",
                "tests/app/tests.py");
    expect_file("test_plain (tests.app.tests.ModelTests)",
                "tests/app/tests.py");
    expect_file("test_plain (app.missing.ModelTests)", NULL);
    expect_file("test_plain", NULL);
    expect_file("Regression test for #123: a value is kept.", NULL);
    expect_file("Checks of 'exclude' values (#12689)", NULL);
}

static void test_runner_of_a_tree(void **state)
{
    (void)state;
    assert_int_equal(lt__rt_test_runner(tree), LT_TEST_RUNNER_PYTEST);
    write_file("tests/runtests.py", "# Django's runner\n");
    assert_int_equal(lt__rt_test_runner(tree), LT_TEST_RUNNER_PYTEST);
    write_file("django/__init__.py", "VERSION = (4, 2)\n");
    assert_int_equal(lt__rt_test_runner(tree), LT_TEST_RUNNER_DJANGO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_ids_and_unittest_forms),
        cmocka_unit_test(test_bare_names_prefer_the_instance_files),
        cmocka_unit_test(test_docstring_first_lines),
        cmocka_unit_test(test_the_file_an_id_names),
        cmocka_unit_test(test_runner_of_a_tree),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
