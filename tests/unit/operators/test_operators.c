/* Unit tests of operators/: pinned mutant lists for both operator sets,
 * stable and distinct ids, mutants that compile and keep the line count,
 * and the errors for bad input.  SPDX-License-Identifier: MIT */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "operators/operators.h"

struct snippet {
    const char *name;
    const char *opset;
    const char *src;
    const char *const *expect;
};

/* The mutmut lists below were checked against mutmut 2.5.1's own
 * enumeration (parso 0.8.3): same sites, same mutated programs. */
/* Expectations: one line per mutant, "op line:col [original] -> [replacement]". */
static const char mm_assign_src[] = "x = 1\n";
static const char *const mm_assign_expect[] = {
    "number 1:4 [1] -> [2]",
    "assignment 1:4 [1] -> [None]",
    NULL,
};
static const char mm_strings_src[] = "\"\"\"Doc.\"\"\"\ns = 'a' + \"b\" + '''c'''\n";
static const char *const mm_strings_expect[] = {
    "string 2:4 ['a'] -> ['XXaXX']",
    "assignment 2:4 ['a' + \"b\" + '''c'''] -> [None]",
    "operator 2:8 [+] -> [-]",
    "string 2:10 [\"b\"] -> [\"XXbXX\"]",
    "operator 2:14 [+] -> [-]",
    NULL,
};
static const char mm_arith_src[] = "a += 1\nb = a * 2 - 3 // 4 % 5 ** 6\nc = ~a << 1 >> 2 & b | c ^ d\n";
static const char *const mm_arith_expect[] = {
    "operator 1:2 [+=] -> [=]",
    "operator 1:2 [+=] -> [-=]",
    "number 1:5 [1] -> [2]",
    "assignment 2:4 [a * 2 - 3 // 4 % 5 ** 6] -> [None]",
    "operator 2:6 [*] -> [/]",
    "number 2:8 [2] -> [3]",
    "operator 2:10 [-] -> [+]",
    "number 2:12 [3] -> [4]",
    "operator 2:14 [//] -> [/]",
    "number 2:17 [4] -> [5]",
    "operator 2:19 [%] -> [/]",
    "number 2:21 [5] -> [6]",
    "operator 2:23 [**] -> [*]",
    "number 2:26 [6] -> [7]",
    "operator 3:4 [~] -> []",
    "assignment 3:4 [~a << 1 >> 2 & b | c ^ d] -> [None]",
    "operator 3:7 [<<] -> [>>]",
    "number 3:10 [1] -> [2]",
    "operator 3:12 [>>] -> [<<]",
    "number 3:15 [2] -> [3]",
    "operator 3:17 [&] -> [|]",
    "operator 3:21 [|] -> [&]",
    "operator 3:25 [^] -> [&]",
    NULL,
};
static const char mm_logic_src[] = "if a is b and c not in d or not e:\n    pass\n";
static const char *const mm_logic_expect[] = {
    "keyword 1:5 [is] -> [is not]",
    "and_or 1:10 [and] -> [or]",
    "keyword 1:16 [not] -> []",
    "and_or 1:25 [or] -> [and]",
    "keyword 1:28 [not] -> []",
    NULL,
};
static const char mm_compare_src[] = "y = a < b <= c > d >= e == f != g\n";
static const char *const mm_compare_expect[] = {
    "assignment 1:4 [a < b <= c > d >= e == f != g] -> [None]",
    "operator 1:6 [<] -> [<=]",
    "operator 1:10 [<=] -> [<]",
    "operator 1:15 [>] -> [>=]",
    "operator 1:19 [>=] -> [>]",
    "operator 1:24 [==] -> [!=]",
    "operator 1:29 [!=] -> [==]",
    NULL,
};
static const char mm_loop_src[] = "for i in range(3):\n    if i == 1: break\n    continue\n";
static const char *const mm_loop_expect[] = {
    "number 1:15 [3] -> [4]",
    "operator 2:9 [==] -> [!=]",
    "number 2:12 [1] -> [2]",
    "keyword 2:15 [break] -> [continue]",
    "keyword 3:4 [continue] -> [break]",
    NULL,
};
static const char mm_class_src[] = "@dec\nclass C:\n    attr = True\n    def m(self, k=None, *a, **kw) -> int:\n        return lambda: None\n";
static const char *const mm_class_expect[] = {
    "decorator 1:0 [@dec] -> []",
    "keyword 3:11 [True] -> [False]",
    "assignment 3:11 [True] -> [None]",
    "lambda 5:23 [None] -> [0]",
    NULL,
};
static const char mm_comp_src[] = "r = [i + 1 for i in xs if i in ys]\nt = f'{a * 2}!'\n";
static const char *const mm_comp_expect[] = {
    "assignment 1:4 [[i + 1 for i in xs if i in ys]] -> [None]",
    "operator 1:7 [+] -> [-]",
    "number 1:9 [1] -> [2]",
    "keyword 1:28 [in] -> [not in]",
    "fstring 2:4 [f'{a * 2}!'] -> [f'XX{a * 2}!XX']",
    "assignment 2:4 [f'{a * 2}!'] -> [None]",
    "operator 2:9 [*] -> [/]",
    "number 2:11 [2] -> [3]",
    NULL,
};
static const char mm_nested_src[] = "def outer():\n    def inner(v=0):\n        return dict(a=v)\n    print(inner)\n    return deepcopy(outer)\n";
static const char *const mm_nested_expect[] = {
    "number 2:16 [0] -> [1]",
    "argument 3:20 [a] -> [aXX]",
    "name 4:10 [inner] -> [None]",
    "name 5:11 [deepcopy] -> [copy]",
    NULL,
};
static const char mm_skips_src[] = "import os\n__version__ = '1.0'\nx = 2  # pragma: no mutate\ny: int = 3\nz: int\ndef f(a: int = 4) -> Literal[5]: pass\n";
static const char *const mm_skips_expect[] = {
    "number 4:9 [3] -> [4]",
    "assignment 4:9 [3] -> [None]",
    "number 6:15 [4] -> [5]",
    NULL,
};
static const char mm_numbers_src[] = "n = 0x1f + 1.5 + 2j + 1e10 + 0o7 + 0b1\n";
static const char *const mm_numbers_expect[] = {
    "number 1:4 [0x1f] -> [32]",
    "assignment 1:4 [0x1f + 1.5 + 2j + 1e10 + 0o7 + 0b1] -> [None]",
    "operator 1:9 [+] -> [-]",
    "number 1:11 [1.5] -> [2.5]",
    "operator 1:15 [+] -> [-]",
    "number 1:17 [2j] -> [3j]",
    "operator 1:20 [+] -> [-]",
    "number 1:22 [1e10] -> [20000000000.0]",
    "operator 1:27 [+] -> [-]",
    "number 1:29 [0o7] -> [8]",
    "operator 1:33 [+] -> [-]",
    "number 1:35 [0b1] -> [2]",
    NULL,
};
static const char mm_multiline_src[] = "f = lambda: (\n    1)\n@dec(\n    2)\ndef g(): pass\n";
static const char *const mm_multiline_expect[] = {
    "assignment 1:4 [lambda: (\\n    1)] -> [(None\\n)]",
    "lambda 1:12 [(\\n    1)] -> [(None\\n)]",
    "number 2:4 [1] -> [2]",
    "decorator 3:0 [@dec(\\n    2)] -> [\\n]",
    "number 4:4 [2] -> [3]",
    NULL,
};
static const char mm_stars_src[] = "def f(a, *, b, **k): return [*a]\nf(*a, **k)\nlambda *, k: {**k}\n";
static const char *const mm_stars_expect[] = {
    "operator 1:29 [*] -> [/]",
    "operator 3:7 [*] -> [/]",
    "lambda 3:13 [{**k}] -> [None]",
    "operator 3:14 [**] -> [*]",
    NULL,
};
static const char a1_arith_src[] = "y = -a + b * c / d // e % f ** g\nz = ~a << 1 >> 2 & b | c ^ d @ e\n";
static const char *const a1_arith_expect[] = {
    "arith 1:4 [-] -> [+]",
    "arith 1:7 [+] -> [-]",
    "arith 1:11 [*] -> [//]",
    "arith 1:15 [/] -> [*]",
    "arith 1:19 [//] -> [*]",
    "arith 1:24 [%] -> [//]",
    "arith 1:28 [**] -> [*]",
    "invert 2:4 [~] -> []",
    "arith 2:7 [<<] -> [>>]",
    "number_pm 2:10 [1] -> [0]",
    "number_pm 2:10 [1] -> [2]",
    "arith 2:12 [>>] -> [<<]",
    "number_pm 2:15 [2] -> [1]",
    "number_pm 2:15 [2] -> [3]",
    "arith 2:17 [&] -> [|]",
    "arith 2:21 [|] -> [&]",
    "arith 2:25 [^] -> [&]",
    NULL,
};
static const char a1_aug_src[] = "a += 1\na //= 2\na **= 3\na %= b\na @= b\n";
static const char *const a1_aug_expect[] = {
    "augassign 1:2 [+=] -> [-=]",
    "number_pm 1:5 [1] -> [0]",
    "number_pm 1:5 [1] -> [2]",
    "augassign 2:2 [//=] -> [*=]",
    "number_pm 2:6 [2] -> [1]",
    "number_pm 2:6 [2] -> [3]",
    "augassign 3:2 [**=] -> [*=]",
    "number_pm 3:6 [3] -> [2]",
    "number_pm 3:6 [3] -> [4]",
    "augassign 4:2 [%=] -> [//=]",
    NULL,
};
static const char a1_logic_src[] = "if a < b <= c and d is not e or f in g and not h:\n    pass\nif a > b >= c == d != e is f not in g: pass\n";
static const char *const a1_logic_expect[] = {
    "relational 1:5 [<] -> [<=]",
    "relational 1:9 [<=] -> [<]",
    "logical 1:14 [and] -> [or]",
    "not 1:23 [not] -> []",
    "logical 1:29 [or] -> [and]",
    "in 1:34 [in] -> [not in]",
    "logical 1:39 [and] -> [or]",
    "not 1:43 [not] -> []",
    "relational 3:5 [>] -> [>=]",
    "relational 3:9 [>=] -> [>]",
    "relational 3:14 [==] -> [!=]",
    "relational 3:19 [!=] -> [==]",
    "is 3:24 [is] -> [is not]",
    "not 3:29 [not] -> []",
    NULL,
};
static const char a1_loop_src[] = "while True:\n    break\nfor x in y:\n    continue\nz = False\n";
static const char *const a1_loop_expect[] = {
    "true_false 1:6 [True] -> [False]",
    "break_continue 2:4 [break] -> [continue]",
    "break_continue 4:4 [continue] -> [break]",
    "true_false 5:4 [False] -> [True]",
    NULL,
};
static const char a1_numbers_src[] = "n = 0 + 0x10 + 2.5 + 1j\n";
static const char *const a1_numbers_expect[] = {
    "number_pm 1:4 [0] -> [(-1)]",
    "number_pm 1:4 [0] -> [1]",
    "arith 1:6 [+] -> [-]",
    "number_pm 1:8 [0x10] -> [0xf]",
    "number_pm 1:8 [0x10] -> [0x11]",
    "arith 1:13 [+] -> [-]",
    "number_pm 1:15 [2.5] -> [1.5]",
    "number_pm 1:15 [2.5] -> [3.5]",
    "arith 1:19 [+] -> [-]",
    "number_pm 1:21 [1j] -> [0j]",
    "number_pm 1:21 [1j] -> [2j]",
    NULL,
};
static const char a1_constructs_src[] = "@dec(1)\nclass C:\n    a = [i > 0 for i in x]\n    def m(self, k: Literal[2] = 2) -> Literal[3]:\n        f = lambda v: v - 1\n        return f'{k + 1}'\n";
static const char *const a1_constructs_expect[] = {
    "number_pm 1:5 [1] -> [0]",
    "number_pm 1:5 [1] -> [2]",
    "relational 3:11 [>] -> [>=]",
    "number_pm 3:13 [0] -> [(-1)]",
    "number_pm 3:13 [0] -> [1]",
    "number_pm 4:32 [2] -> [1]",
    "number_pm 4:32 [2] -> [3]",
    "arith 5:24 [-] -> [+]",
    "number_pm 5:26 [1] -> [0]",
    "number_pm 5:26 [1] -> [2]",
    "arith 6:20 [+] -> [-]",
    "number_pm 6:22 [1] -> [0]",
    "number_pm 6:22 [1] -> [2]",
    NULL,
};
static const struct snippet snippets[] = {
    {"mm_assign", "mutmut", mm_assign_src, mm_assign_expect},
    {"mm_strings", "mutmut", mm_strings_src, mm_strings_expect},
    {"mm_arith", "mutmut", mm_arith_src, mm_arith_expect},
    {"mm_logic", "mutmut", mm_logic_src, mm_logic_expect},
    {"mm_compare", "mutmut", mm_compare_src, mm_compare_expect},
    {"mm_loop", "mutmut", mm_loop_src, mm_loop_expect},
    {"mm_class", "mutmut", mm_class_src, mm_class_expect},
    {"mm_comp", "mutmut", mm_comp_src, mm_comp_expect},
    {"mm_nested", "mutmut", mm_nested_src, mm_nested_expect},
    {"mm_skips", "mutmut", mm_skips_src, mm_skips_expect},
    {"mm_numbers", "mutmut", mm_numbers_src, mm_numbers_expect},
    {"mm_multiline", "mutmut", mm_multiline_src, mm_multiline_expect},
    {"mm_stars", "mutmut", mm_stars_src, mm_stars_expect},
    {"a1_arith", "algo1", a1_arith_src, a1_arith_expect},
    {"a1_aug", "algo1", a1_aug_src, a1_aug_expect},
    {"a1_logic", "algo1", a1_logic_src, a1_logic_expect},
    {"a1_loop", "algo1", a1_loop_src, a1_loop_expect},
    {"a1_numbers", "algo1", a1_numbers_src, a1_numbers_expect},
    {"a1_constructs", "algo1", a1_constructs_src, a1_constructs_expect},
};

/* sha256(b"a.py\0" b"1\0" b"2\0" b"number\0" b"3")[:16], from hashlib. */
#define KNOWN_ID "a7ba8fca965d0676"

/*** Helpers ***/

static int generate(const char *src, const char *opset,
                    struct lt_mutant_list *out, char **err)
{
    return lt_operators_generate("t.py", src, strlen(src), opset, out, err);
}

/* "op line:col [original] -> [replacement]" with newlines as \n. */
static char *describe(const struct lt_mutant *m)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "%s %d:%d [", m->op, m->line, m->col);
    for (const char *p = m->original; *p; p++)
        lt_buf_puts(&b, *p == '\n' ? "\\n" : (char[]){*p, 0});
    lt_buf_puts(&b, "] -> [");
    for (const char *p = m->replacement; *p; p++)
        lt_buf_puts(&b, *p == '\n' ? "\\n" : (char[]){*p, 0});
    lt_buf_puts(&b, "]");
    return lt_buf_steal(&b);
}

static size_t count_lines(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += s[i] == '\n';
    return c;
}

/* 1 when CPython compiles the text, 0 when it does not. */
static int compiles(const char *text)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *code = Py_CompileString(text, "mutant.py", Py_file_input);
    int ok = code != NULL;
    Py_XDECREF(code);
    PyErr_Clear();
    PyGILState_Release(g);
    return ok;
}

/*** Tests ***/

static void test_pinned_lists(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(snippets) / sizeof(snippets[0]); i++) {
        const struct snippet *sn = &snippets[i];
        struct lt_mutant_list l;
        char *err = NULL;
        int rc = generate(sn->src, sn->opset, &l, &err);
        if (rc != 0)
            fail_msg("%s: rc %d: %s", sn->name, rc, err ? err : "");
        size_t n = 0;
        while (sn->expect[n])
            n++;
        for (size_t k = 0; k < l.count || k < n; k++) {
            char *got = k < l.count ? describe(&l.items[k]) : xstrdup("(none)");
            const char *want = k < n ? sn->expect[k] : "(none)";
            if (strcmp(got, want) != 0)
                fail_msg("%s: mutant %zu: got '%s', want '%s'", sn->name, k,
                         got, want);
            free(got);
        }
        lt_mutant_list_free(&l);
    }
}

static void test_ids_stable_and_distinct(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(snippets) / sizeof(snippets[0]); i++) {
        const struct snippet *sn = &snippets[i];
        struct lt_mutant_list a, b;
        char *err = NULL;
        assert_int_equal(generate(sn->src, sn->opset, &a, &err), 0);
        assert_int_equal(generate(sn->src, sn->opset, &b, &err), 0);
        assert_int_equal(a.count, b.count);
        for (size_t k = 0; k < a.count; k++) {
            const struct lt_mutant *m = &a.items[k];
            char id[17];
            assert_string_equal(m->id, b.items[k].id);
            assert_int_equal(strlen(m->id), 16);
            lt_mutant_make_id(m->file, m->start, m->end, m->op,
                              m->replacement, id);
            assert_string_equal(m->id, id);
            for (size_t j = 0; j < k; j++)
                if (strcmp(a.items[j].id, m->id) == 0)
                    fail_msg("%s: mutants %zu and %zu share id %s", sn->name,
                             j, k, m->id);
        }
        lt_mutant_list_free(&a);
        lt_mutant_list_free(&b);
    }
}

static void test_make_id_known_value(void **state)
{
    (void)state;
    char id[17];
    /* sha256(b"a.py\0 1\0 2\0number\0 3") computed by hashlib (spaces
     * added here for reading only). */
    lt_mutant_make_id("a.py", 1, 2, "number", "3", id);
    assert_string_equal(id, KNOWN_ID);
    lt_mutant_make_id("a.py", 1, 2, "number", "4", id);
    assert_string_not_equal(id, KNOWN_ID);
}

/* Fields agree with each other and with the source; positions are in
 * source order; every mutant keeps the line count; most compile. */
static const char big_src[] =
    "\"\"\"A module.\"\"\"\n"
    "import os\n"
    "LIMIT = 10\n"
    "def helper(x, y=2, *args, flag=True, **kw):\n"
    "    total = 0\n"
    "    for i in range(x):\n"
    "        if i % 2 == 0 and not flag:\n"
    "            continue\n"
    "        elif i > LIMIT or i is None:\n"
    "            break\n"
    "        total += i * y - 1\n"
    "    return [v for v in args if v in kw] or total\n"
    "class Thing:\n"
    "    size = 3\n"
    "    @staticmethod\n"
    "    def make(n=4):\n"
    "        def inner(m):\n"
    "            return m ** 2 // 3 << 1 | 5 & 6 ^ 7\n"
    "        key = lambda t: (t[0], -t[1])\n"
    "        name = f'{n + 1:>{n}}' + 'x'\n"
    "        return dict(a=inner(n), b=key)\n"
    "print(helper(3))\n";

static void test_fields_apply_compile(void **state)
{
    (void)state;
    static const char *const sets[] = {"mutmut", "algo1"};
    size_t len = strlen(big_src), lines = count_lines(big_src, len);
    for (size_t s = 0; s < 2; s++) {
        struct lt_mutant_list l;
        char *err = NULL;
        assert_int_equal(generate(big_src, sets[s], &l, &err), 0);
        assert_true(l.count > 40);
        size_t ok = 0;
        for (size_t k = 0; k < l.count; k++) {
            const struct lt_mutant *m = &l.items[k];
            assert_string_equal(m->file, "t.py");
            assert_true(m->end <= len && m->start <= m->end);
            assert_int_equal(strlen(m->original), m->end - m->start);
            assert_memory_equal(m->original, big_src + m->start,
                                m->end - m->start);
            assert_true(m->position >= 0.0 && m->position <= 1.0);
            assert_true(m->line >= 1 && m->end_line >= m->line);
            if (k)
                assert_true(l.items[k - 1].start <= m->start);
            size_t n;
            char *mut = lt_mutant_apply(m, big_src, len, &n);
            assert_non_null(mut);
            assert_int_equal(count_lines(mut, n), lines);
            ok += (size_t)compiles(mut);
            free(mut);
        }
        /* mutmut's set has a few mutants that cannot compile (as mutmut
         * does); algo1's must all compile. */
        if (s == 0)
            assert_true(ok * 10 >= l.count * 9);
        else
            assert_int_equal(ok, l.count);
        lt_mutant_list_free(&l);
    }
}

/* Every construct yields mutants in both sets. */
static void test_constructs_not_empty(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "x = 1 + 2\n",                                /* module level */
        "class A:\n    x = 1 + 2\n",                  /* class body */
        "def f(a=1 + 2):\n    pass\n",                /* default */
        "@d(1 + 2)\ndef f():\n    pass\n",            /* decorator */
        "def f():\n    def g():\n        return 1 + 2\n", /* nested */
        "f = lambda: 1 + 2\n",                        /* lambda */
        "y = [i + 2 for i in x]\n",                   /* comprehension */
        "y = {k: v + 2 for k, v in x}\n",
        "y = f'{1 + 2}'\n",                           /* f-string */
        "async def f():\n    await g(1 + 2)\n",
        "match x:\n    case 1:\n        y = 1 + 2\n",
        "with a as b:\n    print(1 + 2)\n",
        "try:\n    pass\nexcept E:\n    x = 1 + 2\n",
    };
    for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++)
        for (int s = 0; s < 2; s++) {
            struct lt_mutant_list l;
            char *err = NULL;
            int rc = generate(srcs[i], s ? "algo1" : "mutmut", &l, &err);
            if (rc != 0 || l.count == 0)
                fail_msg("no mutants for %s in %s: %s", s ? "algo1" : "mutmut",
                         srcs[i], err ? err : "");
            lt_mutant_list_free(&l);
        }
}

static void test_operator_lists(void **state)
{
    (void)state;
    struct lt_mutant_list l;
    char *err = NULL;
    const char *src = "x = 1 + 2 if a and b else 'c'\n";
    assert_int_equal(generate(src, "number, string", &l, &err), 0);
    assert_int_equal(l.count, 3);
    for (size_t k = 0; k < l.count; k++)
        assert_true(strcmp(l.items[k].op, "number") == 0 ||
                    strcmp(l.items[k].op, "string") == 0);
    lt_mutant_list_free(&l);

    assert_int_equal(generate(src, "logical,number_pm", &l, &err), 0);
    assert_int_equal(l.count, 5);
    lt_mutant_list_free(&l);

    assert_int_equal(generate(src, "mutmut,algo1", &l, &err), 0);
    assert_true(l.count > 8);
    lt_mutant_list_free(&l);

    assert_int_equal(generate(src, "number,bogus", &l, &err), LT_EUSAGE);
    assert_non_null(err);
    assert_non_null(strstr(err, "bogus"));
    assert_non_null(strstr(err, "mutmut"));
    assert_non_null(strstr(err, "number_pm"));
    assert_int_equal(l.count, 0);
    free(err);

    const char *const *names = lt_operator_sets();
    assert_string_equal(names[0], "mutmut");
    assert_string_equal(names[1], "algo1");
    size_t n = 0;
    while (names[n]) {
        /* Each name is accepted on its own. */
        err = NULL;
        assert_int_equal(generate(src, names[n], &l, &err), 0);
        lt_mutant_list_free(&l);
        n++;
    }
    assert_int_equal(n, 24);
}

static void test_bad_input(void **state)
{
    (void)state;
    struct lt_mutant_list l;
    char *err = NULL;

    assert_int_equal(generate("x = 1\ny = (\n", "mutmut", &l, &err),
                     LT_EPARSE);
    assert_non_null(err);
    assert_true(strncmp(err, "t.py:2: ", 8) == 0);
    assert_null(strchr(err, '\n'));
    assert_int_equal(l.count, 0);
    free(err);

    err = NULL;
    assert_int_equal(generate("x = 1\ns = '\xff\xfe'\n", "algo1", &l, &err),
                     LT_EPARSE);
    assert_non_null(err);
    assert_string_equal(err, "t.py:2: source is not valid UTF-8");
    free(err);

    err = NULL;
    static const char nul[] = "x = 1\n\0y = 2\n";
    assert_int_equal(lt_operators_generate("t.py", nul, sizeof(nul) - 1,
                                           "mutmut", &l, &err),
                     LT_EPARSE);
    assert_non_null(strstr(err, "t.py:2:"));
    free(err);

    /* Empty and comment-only files parse and have no mutants. */
    err = NULL;
    assert_int_equal(generate("", "mutmut", &l, &err), 0);
    assert_int_equal(l.count, 0);
    lt_mutant_list_free(&l);
    assert_int_equal(generate("# nothing\n", "algo1", &l, &err), 0);
    assert_int_equal(l.count, 0);
    lt_mutant_list_free(&l);
}

/* Offsets are bytes and columns are byte columns, past non-ASCII text and
 * a byte order mark; CRLF line ends keep their lines. */
static void test_utf8_offsets(void **state)
{
    (void)state;
    struct lt_mutant_list l;
    char *err = NULL;
    const char *src = "s = '\xc3\xa9t\xc3\xa9' + 1\n";
    assert_int_equal(generate(src, "algo1", &l, &err), 0);
    assert_int_equal(l.count, 3);
    assert_string_equal(l.items[0].original, "+");
    assert_int_equal(l.items[0].col, 12);
    assert_int_equal(l.items[0].start, 12);
    lt_mutant_list_free(&l);

    const char *bom = "\xef\xbb\xbfx = 5\r\ny = 6\r\n";
    assert_int_equal(generate(bom, "number_pm", &l, &err), 0);
    assert_int_equal(l.count, 4);
    assert_int_equal(l.items[0].start, 7);
    assert_int_equal(l.items[0].line, 1);
    assert_int_equal(l.items[2].line, 2);
    assert_int_equal(l.items[2].col, 4);
    assert_string_equal(l.items[2].original, "6");
    lt_mutant_list_free(&l);
}

static void test_apply_and_names(void **state)
{
    (void)state;
    struct lt_mutant m = {0};
    m.start = 4;
    m.end = 5;
    m.replacement = (char *)"None";
    size_t n;
    char *out = lt_mutant_apply(&m, "x = 1\n", 6, &n);
    assert_string_equal(out, "x = None\n");
    assert_int_equal(n, 9);
    free(out);
    m.end = 7;
    assert_null(lt_mutant_apply(&m, "x = 1\n", 6, &n));
    assert_string_equal(lt_category_name(LT_CATEGORY_STATEMENT), "statement");
    assert_string_equal(lt_category_name(LT_CATEGORY_VALUE), "value");
    assert_string_equal(lt_category_name(LT_CATEGORY_DECISION), "decision");
    lt_mutant_list_free(NULL);
    lt_mutant_clear(NULL);
}

static void test_init_twice(void **state)
{
    (void)state;
    assert_int_equal(lt_operators_init(), 0);
    assert_int_equal(lt_operators_init(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_twice),
        cmocka_unit_test(test_pinned_lists),
        cmocka_unit_test(test_ids_stable_and_distinct),
        cmocka_unit_test(test_make_id_known_value),
        cmocka_unit_test(test_fields_apply_compile),
        cmocka_unit_test(test_constructs_not_empty),
        cmocka_unit_test(test_operator_lists),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_utf8_offsets),
        cmocka_unit_test(test_apply_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
