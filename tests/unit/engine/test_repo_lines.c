/* Unit tests of the lines a repository candidate's diff adds
 * (engine/jobs/patches/repo_tree.c, lt__rt_added_lines): the mutation
 * layer mutates only those.  Hunks land where their header says, or
 * elsewhere when the diff applied with an offset; a removal marks the
 * line now in its place; other files' hunks and "\ No newline" markers
 * are not the file's lines; a removed line that looks like a header
 * ("--- x") stays inside its hunk.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/jobs/patches/repo_internal.h"

#define TEXT                                                                 \
    "def f(x):\n"        /* 1 */                                             \
    "    y = x + 1\n"    /* 2 */                                             \
    "    return y\n"     /* 3 */                                             \
    "\n"                 /* 4 */                                             \
    "\n"                 /* 5 */                                             \
    "def g(x):\n"        /* 6 */                                             \
    "    if x:\n"        /* 7 */                                             \
    "        return 2\n" /* 8 */                                             \
    "    return 3\n"     /* 9 */

/* The marked lines of TEXT as a string of digits ("28": lines 2, 8). */
static void marked(const char *diff, const char *rel, char *out)
{
    unsigned char mark[12] = {0};
    lt__rt_added_lines(diff, rel, TEXT, mark, 9);
    size_t k = 0;
    for (int l = 1; l <= 9; l++)
        if (mark[l])
            out[k++] = (char)('0' + l);
    out[k] = '\0';
}

static void test_hunk_in_place(void **state)
{
    (void)state;
    char got[12];
    marked("diff --git a/pkg/m.py b/pkg/m.py\n"
           "--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -1,3 +1,3 @@\n def f(x):\n-    y = x\n+    y = x + 1\n"
           "     return y\n"
           "@@ -6,4 +6,4 @@ def f(x):\n def g(x):\n     if x:\n"
           "-        return 1\n+        return 2\n     return 3\n",
           "pkg/m.py", got);
    assert_string_equal(got, "28");
}

/* A header that names lines past the text's end (a hunk applied with a
 * large offset, or a hostile diff): found where it stands, and nothing
 * read beyond the text's lines (ASan checks). */
static void test_hunk_past_the_end(void **state)
{
    (void)state;
    char got[12];
    marked("diff --git a/pkg/m.py b/pkg/m.py\n"
           "--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -40,3 +40,3 @@\n def f(x):\n-    y = x\n+    y = x + 1\n"
           "     return y\n",
           "pkg/m.py", got);
    assert_string_equal(got, "2");
    marked("diff --git a/pkg/m.py b/pkg/m.py\n"
           "--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -4000000000,1 +4000000000,1 @@\n-nothing\n+    return 9\n",
           "pkg/m.py", got);
    assert_string_equal(got, "");
}

static void test_hunk_with_offset(void **state)
{
    (void)state;
    char got[12];
    /* Written against a file with three lines fewer above g(). */
    marked("--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -3,3 +3,3 @@\n def g(x):\n     if x:\n"
           "-        return 1\n+        return 2\n",
           "pkg/m.py", got);
    assert_string_equal(got, "8");
}

static void test_removal_marks_next_line(void **state)
{
    (void)state;
    char got[12];
    marked("--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -6,5 +6,4 @@\n def g(x):\n     if x:\n"
           "-        log(x)\n         return 2\n     return 3\n"
           "\\ No newline at end of file\n",
           "pkg/m.py", got);
    assert_string_equal(got, "8");
}

static void test_other_files_ignored(void **state)
{
    (void)state;
    char got[12];
    marked("--- a/pkg/other.py\n+++ b/pkg/other.py\n"
           "@@ -1,2 +1,2 @@\n def f(x):\n-    y = x\n+    y = x + 1\n"
           "--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -9 +9 @@\n-    return 4\n+    return 3\n",
           "pkg/m.py", got);
    assert_string_equal(got, "9");
}

static void test_header_like_removal(void **state)
{
    (void)state;
    char got[12];
    /* "--- x" removed inside a hunk is a removal, not the next file. */
    marked("--- a/pkg/m.py\n+++ b/pkg/m.py\n"
           "@@ -1,4 +1,3 @@\n def f(x):\n--- x\n     y = x + 1\n"
           "     return y\n",
           "pkg/m.py", got);
    assert_string_equal(got, "2");
}

static void test_new_file_and_garbage(void **state)
{
    (void)state;
    char got[12];
    marked("--- /dev/null\n+++ b/pkg/m.py\n@@ -0,0 +1,3 @@\n+def f(x):\n"
           "+    y = x + 1\n+    return y\n",
           "pkg/m.py", got);
    assert_string_equal(got, "123");
    marked("@@ -1,2 +1,2 @@\n+nothing\n", "pkg/m.py", got);
    assert_string_equal(got, "");
    marked("--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,99999999999 +1,3 @@\n"
           "+no such line\n",
           "pkg/m.py", got);
    assert_string_equal(got, "");
}

/* A diff's file blocks: text before the first header skipped, each
 * block up to the next header, its b/ path; a header-like line inside a
 * hunk ("-diff --git") is not a header. */
static void test_blocks(void **state)
{
    (void)state;
    static const char DIFF[] =
        "From: someone\n"
        "diff --git a/x.py b/x.py\n"
        "index 1..2\n"
        "--- a/x.py\n"
        "+++ b/x.py\n"
        "@@ -1 +1 @@\n"
        "-diff --git a/old b/old\n"
        "+y\n"
        "diff --git a/tests/t.py b/tests/t.py\n"
        "--- a/tests/t.py\n"
        "+++ b/tests/t.py";
    const char *at = DIFF;
    struct lt__diff_block b;
    assert_int_equal(lt__rt_next_block(&at, &b), 1);
    assert_string_equal(b.path, "x.py");
    assert_ptr_equal(b.start, strstr(DIFF, "diff --git a/x.py"));
    assert_int_equal(b.len, (size_t)(strstr(DIFF, "diff --git a/tests") -
                                     b.start));
    free(b.path);
    assert_int_equal(lt__rt_next_block(&at, &b), 1);
    assert_string_equal(b.path, "tests/t.py");
    assert_int_equal(b.len, strlen(b.start));
    free(b.path);
    assert_int_equal(lt__rt_next_block(&at, &b), 0);
    at = "no diff here\n";
    assert_int_equal(lt__rt_next_block(&at, &b), 0);
    at = "";
    assert_int_equal(lt__rt_next_block(&at, &b), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hunk_in_place),
        cmocka_unit_test(test_hunk_with_offset),
        cmocka_unit_test(test_hunk_past_the_end),
        cmocka_unit_test(test_removal_marks_next_line),
        cmocka_unit_test(test_other_files_ignored),
        cmocka_unit_test(test_header_like_removal),
        cmocka_unit_test(test_new_file_and_garbage),
        cmocka_unit_test(test_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
