/* Unit tests of the readers index (operators/readers.c, readers.py): small
 * project trees written to a temporary directory, one per test, and the
 * exact answer for a mutant's lines: all, or the spans and test modules
 * that read what the mutated statement binds.  SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "operators/operators.h"

/* One file of a tree: path relative to the root, and its text. */
struct file {
    const char *path;
    const char *text;
};

/* The subjects of every tree: pkg/mod.py (0) and pkg/other.py (1), when
 * they exist. */
static const char *const subject_paths[] = {"pkg/mod.py", "pkg/other.py"};

static int rm_one(const char *p, const struct stat *sb, int flag,
                  struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static void write_file(const char *root, const char *rel, const char *text)
{
    char *path = xasprintf("%s/%s", root, rel);
    /* Make the parent directories. */
    for (char *s = strchr(path + strlen(root) + 1, '/'); s;
         s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

/* The answer as one line: "all" or "spans=S:F-L,... tests=REL,...", with
 * test modules relative to the root, so tests can compare it exactly; a
 * span whose reads at import are followed ends in '+', and the tests of
 * those modules that do not read follow as " skip=REL::QUAL,...". */
static char *describe(const char *root, const struct lt_readers *r)
{
    if (r->all) {
        assert_non_null(r->why);
        return xstrdup("all");
    }
    assert_null(r->why);
    size_t cap = 4096, len = 0;
    char *out = xcalloc(1, cap);
    len += (size_t)snprintf(out + len, cap - len, "spans=");
    for (size_t i = 0; i < r->n_spans; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%zu:%d-%d%s",
                                i ? "," : "", r->spans[i].subject,
                                r->spans[i].first, r->spans[i].last,
                                r->spans[i].followed ? "+" : "");
    len += (size_t)snprintf(out + len, cap - len, " tests=");
    size_t rl = strlen(root);
    for (size_t i = 0; i < r->n_test_files; i++) {
        const char *p = r->test_files[i];
        assert_memory_equal(p, root, rl);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "," : "",
                                p + rl + 1);
    }
    for (size_t i = 0; i < r->n_skip; i++) {
        const char *p = r->skip[i];
        assert_memory_equal(p, root, rl);
        len += (size_t)snprintf(out + len, cap - len, "%s%s",
                                i ? "," : " skip=", p + rl + 1);
    }
    assert_true(len < cap);
    return out;
}

/* Writes files into a fresh tree, scans it and answers for lines
 * [line, end_line] of subject `subject`.  Returns the description (caller
 * frees); *why, when not NULL, gets the reason of an all (caller frees). */
static int last_rebind; /* the last answer's rebind */

static char *answer(const struct file *files, size_t subject, int line,
                    int end_line, char **why)
{
    char root[] = "/tmp/lt-readers-XXXXXX";
    assert_non_null(mkdtemp(root));
    char *subjects[2];
    size_t n_subjects = 0;
    for (const struct file *f = files; f->path; f++)
        write_file(root, f->path, f->text);
    for (size_t i = 0; i < 2; i++) {
        subjects[i] = xasprintf("%s/%s", root, subject_paths[i]);
        if (access(subjects[i], F_OK) == 0)
            n_subjects = i + 1;
    }
    struct lt_readers_index *ix = NULL;
    assert_int_equal(lt_readers_scan(root, subjects, n_subjects, &ix), 0);
    struct lt_readers r;
    assert_int_equal(lt_readers_for(ix, subject, line, end_line, &r), 0);
    char *d = describe(root, &r);
    last_rebind = r.rebind;
    if (why)
        *why = r.all ? xstrdup(r.why) : NULL;
    lt_readers_clear(&r);
    lt_readers_index_free(ix);
    for (size_t i = 0; i < 2; i++)
        free(subjects[i]);
    assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
    return d;
}

#define EXPECT(files, subject, line, want)                                    \
    do {                                                                      \
        char *got_ = answer(files, subject, line, line, NULL);                \
        assert_string_equal(got_, want);                                      \
        free(got_);                                                           \
    } while (0)

/* A module the tests share: N read by a function of its own module. */
#define MOD_N                                                                 \
    "N = 1\n"             /* 1 */                                             \
    "\n"                                                                      \
    "def f():\n"          /* 3 */                                             \
    "    return N\n"      /* 4 */                                             \
    "\n"                                                                      \
    "UNUSED = 3\n"        /* 6 */

static void test_same_module_function(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/__init__.py", ""},
        {"pkg/mod.py", MOD_N},
        /* Calls f, never names N: not a reader. */
        {"tests/test_f.py",
         "from pkg.mod import f\n\ndef test_f():\n    assert f() == 1\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1, "spans=0:4-4 tests=");
    /* A name nobody reads: nothing to run. */
    EXPECT(files, 0, 6, "spans= tests=");
}

static void test_read_by_test_module(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_n.py",
         "from pkg import mod\n\ndef test_n():\n    assert mod.N == 1\n"},
        {"tests/test_other.py", "def test_nothing():\n    pass\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1, "spans=0:4-4 tests=tests/test_n.py");
}

static void test_strings_name_it(void **state)
{
    (void)state;
    const struct file getattr_files[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_g.py",
         "import pkg.mod as m\n\ndef test_g():\n"
         "    assert getattr(m, \"N\") == 1\n"},
        {NULL, NULL},
    };
    EXPECT(getattr_files, 0, 1, "spans=0:4-4 tests=tests/test_g.py");
    const struct file patch_files[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/patch_test.py",
         "def test_p(monkeypatch):\n"
         "    monkeypatch.setattr(\"pkg.mod.N\", 1)\n"},
        {NULL, NULL},
    };
    EXPECT(patch_files, 0, 1, "spans=0:4-4 tests=tests/patch_test.py");
}

static void test_other_subject(void **state)
{
    (void)state;
    /* Read by a function of another subject, after a re-export. */
    const struct file fn_files[] = {
        {"pkg/mod.py", MOD_N},
        {"pkg/other.py",
         "from pkg.mod import N as K\n\n\ndef g():\n    return K + 1\n"},
        {NULL, NULL},
    };
    EXPECT(fn_files, 0, 1, "spans=0:4-4,1:5-5 tests=");
    /* Read at import by a statement that calls something: all. */
    const struct file call_files[] = {
        {"pkg/mod.py", MOD_N},
        {"pkg/other.py", "from pkg import mod\nM = compute(mod.N)\n"},
        {NULL, NULL},
    };
    EXPECT(call_files, 0, 1, "all");
    /* Read at import by a statement that calls nothing: N flows into M,
     * and M's readers are N's. */
    const struct file flow_files[] = {
        {"pkg/mod.py", MOD_N},
        {"pkg/other.py", "from pkg import mod\nM = mod.N + 1\n"},
        {"tests/test_m.py",
         "from pkg.other import M\n\ndef test_m():\n    assert M == 2\n"},
        {NULL, NULL},
    };
    EXPECT(flow_files, 0, 1, "spans=0:4-4 tests=tests/test_m.py");
    /* The same inside the mutated module itself. */
    const struct file table_files[] = {
        {"pkg/mod.py",
         "N = 1\nTABLE = {k: N for k in 'ab'}\n\ndef t():\n"
         "    return TABLE\n"},
        {NULL, NULL},
    };
    EXPECT(table_files, 0, 1, "spans=0:5-5 tests=");
}

static void test_unknowable_statements(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "__all__ = ['X']\n"             /* 1: a dunder read unnamed */
         "register(1)\n"                /* 2: bare call */
         "from os.path import *\n"      /* 3: star import */
         "obj.attr = 2\n"               /* 4: attribute target */
         "\n"                           /* 5: no statement */
         "X = 1\n"                      /* 6: a function declares global */
         "def bump():\n"
         "    global X\n"
         "    X += 1\n"
         "Y = 2\n"},                    /* 10: nobody reads it */
        {NULL, NULL},
    };
    char *why = NULL;
    for (int line = 1; line <= 6; line++) {
        char *got = answer(files, 0, line, line, &why);
        assert_string_equal(got, "all");
        assert_non_null(why);
        free(got);
        free(why);
    }
    char *got = answer(files, 0, 1, 1, &why);
    assert_string_equal(why, "binds __all__");
    free(got);
    free(why);
    EXPECT(files, 0, 10, "spans= tests=");
}

/* A statement whose calls may change state beyond what it binds (a
 * registry filled by a call, by a base's __init_subclass__, by a function
 * storing into a global) can be observed by anyone: all.  Calls of pure
 * built-ins and of the file's own pure functions keep the answer
 * narrow. */
static void test_side_effects(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "REG = {}\n"                                 /* 1 */
         "def register(k):\n"                         /* 2 */
         "    REG[k] = 1\n"                           /* 3 */
         "    return k\n"                             /* 4 */
         "A = register('a')\n"                        /* 5 */
         "class Base:\n"                              /* 6 */
         "    def __init_subclass__(cls, key=None):\n" /* 7 */
         "        REG[key] = cls\n"                   /* 8 */
         "class Json(Base, key='json'):\n"            /* 9 */
         "    pass\n"                                 /* 10 */
         "def square(x):\n"                           /* 11 */
         "    out = [0]\n"                            /* 12 */
         "    out[0] = x * x\n"                       /* 13 */
         "    return out[0]\n"                        /* 14 */
         "SQ = tuple(sorted([square(3), 1]))\n"       /* 15 */
         "class Err(ValueError):\n"                   /* 16 */
         "    code = 2\n"                             /* 17 */
         "def use():\n"                               /* 18 */
         "    return SQ, Err.code, A, Json\n"},       /* 19 */
        {NULL, NULL},
    };
    EXPECT(files, 0, 5, "all");
    EXPECT(files, 0, 3, "all"); /* register's body fills REG */
    EXPECT(files, 0, 9, "all");
    EXPECT(files, 0, 15, "spans=0:19-19 tests=");
    EXPECT(files, 0, 17, "spans=0:19-19 tests=");
    /* Methods of a list the function made itself are no side effect; of
     * an argument, they are. */
    const struct file own[] = {
        {"pkg/mod.py",
         "REG = []\n"                          /* 1 */
         "def primes(n):\n"                    /* 2 */
         "    out = []\n"                      /* 3 */
         "    for i in range(2, n):\n"         /* 4 */
         "        out.append(i)\n"             /* 5 */
         "    return out\n"                    /* 6 */
         "def add(lst, x):\n"                  /* 7 */
         "    lst.append(x)\n"                 /* 8 */
         "    return x\n"                      /* 9 */
         "P = tuple(primes(7))\n"              /* 10 */
         "A = add(REG, 1)\n"                   /* 11 */
         "def use():\n"                        /* 12 */
         "    return P, A\n"},                 /* 13 */
        {NULL, NULL},
    };
    EXPECT(own, 0, 10, "spans=0:13-13 tests=");
    /* A generator of its own is made without touching another's: its
     * readers are those of the name it is bound to; the shared one's
     * functions change the module's state. */
    const struct file rnd[] = {
        {"pkg/mod.py",
         "import random\n"                    /* 1 */
         "_rr = random.Random().randrange\n"  /* 2 */
         "X = random.random()\n"              /* 3 */
         "def pick(n):\n"                     /* 4 */
         "    return _rr(0, n)\n"},           /* 5 */
        {NULL, NULL},
    };
    EXPECT(rnd, 0, 2, "spans=0:5-5 tests=");
    EXPECT(rnd, 0, 3, "all");
    EXPECT(own, 0, 11, "all");
    EXPECT(own, 0, 5, "spans=0:3-6,0:13-13 tests=");
    char *why = NULL;
    char *got = answer(files, 0, 5, 5, &why);
    assert_non_null(strstr(why, "calls register"));
    free(got);
    free(why);
}

/* A statement that only assigns names no import-time code reads may be
 * executed again in the imported module instead of a fresh import; one
 * whose names another statement reads at import (their values flow on),
 * an augmented assignment, or a def, may not. */
static void test_rebind(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "KILO = 1000\n"                 /* 1: MEGA reads it at import */
         "MEGA = 1000 * KILO\n"          /* 2 */
         "COUNT = 0\n"                   /* 3 */
         "COUNT += 1\n"                  /* 4 */
         "def big(x):\n"                 /* 5 */
         "    return x * MEGA + COUNT\n"},
        {"tests/test_m.py",
         "from pkg import mod\n\ndef test_m():\n"
         "    assert mod.big(1)\n"},
        {NULL, NULL},
    };
    free(answer(files, 0, 2, 2, NULL));
    assert_int_equal(last_rebind, 1);
    free(answer(files, 0, 1, 1, NULL));
    assert_int_equal(last_rebind, 0);
    free(answer(files, 0, 4, 4, NULL));
    assert_int_equal(last_rebind, 0);
    free(answer(files, 0, 5, 5, NULL));
    assert_int_equal(last_rebind, 0);
    /* A test module that imports the name holds the old value. */
    const struct file held[] = {
        {"pkg/mod.py", "LIMIT = 3\n"},
        {"tests/test_l.py",
         "from pkg.mod import LIMIT\n\ndef test_l():\n"
         "    assert LIMIT == 3\n"},
        {NULL, NULL},
    };
    EXPECT(held, 0, 1, "spans= tests=tests/test_l.py");
    assert_int_equal(last_rebind, 0);
    /* A star import takes only what __all__ exports. */
    const struct file star[] = {
        {"pkg/mod.py",
         "__all__ = ['big']\n_TABLE = (1, 2)\n"
         "def big(x):\n    return x * _TABLE[0]\n"},
        {"pkg/__init__.py", "from .mod import *\n"},
        {NULL, NULL},
    };
    EXPECT(star, 0, 2, "spans=0:4-4 tests=");
    /* big is exported, and the package re-exports it under its name:
     * whoever reads it names it. */
    EXPECT(star, 0, 3, "spans= tests=");
    /* An exported alias (`padnone = pad_none` in more-itertools, read as
     * `mi.padnone`): the package holds a copy made at import, which
     * executing the statement again in mod would leave old. */
    const struct file alias[] = {
        {"pkg/mod.py",
         "__all__ = ['big', 'large']\ndef big(x):\n    return x\n"
         "large = big\n"},
        {"pkg/__init__.py", "from .mod import *\n"},
        {NULL, NULL},
    };
    EXPECT(alias, 0, 4, "spans= tests=");
    assert_int_equal(last_rebind, 0);
}

/* A project's own dunder is read by naming it, as any name; those the
 * runtime reads unnamed make the answer all. */
static void test_own_dunders(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "__version__ = '1'\n"
         "__lazy_modules__ = {'json'}\n"
         "class A:\n"
         "    __slots__ = ('x',)\n"
         "def __getattr__(name):\n"
         "    return 1\n"},
        {"tests/test_v.py",
         "import pkg.mod\n\ndef test_v():\n"
         "    assert pkg.mod.__version__ == '1'\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1, "spans= tests=tests/test_v.py");
    EXPECT(files, 0, 2, "spans= tests=");
    char *why = NULL;
    char *got = answer(files, 0, 5, 5, &why);
    assert_string_equal(got, "all");
    assert_string_equal(why, "binds __getattr__");
    free(got);
    free(why);
}

static void test_conftest_and_helpers(void **state)
{
    (void)state;
    const struct file conftest[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/conftest.py",
         "import pytest\nfrom pkg.mod import N\n\n@pytest.fixture\n"
         "def n():\n    return N\n"},
        {NULL, NULL},
    };
    EXPECT(conftest, 0, 1, "all");
    /* A helper star-importing the subject re-exports the names (whoever
     * reads them from it names them, or star-imports it in turn); a
     * test module doing it is a reader itself. */
    const struct file star_helper[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/helpers.py", "from pkg.mod import *\n"},
        {"tests/test_h.py", "from helpers import *\n"},
        {NULL, NULL},
    };
    EXPECT(star_helper, 0, 6, "spans= tests=tests/test_h.py");
    /* A helper that uses them at import is a reader nobody traces. */
    const struct file star_use[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/helpers.py", "from pkg.mod import *\nX = f(UNUSED)\n"},
        {"tests/test_u.py", "import helpers\n"},
        {NULL, NULL},
    };
    EXPECT(star_use, 0, 6, "all");
    const struct file star_test[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_star.py", "from pkg.mod import *\n"},
        {"tests/test_vars.py", "def test_v():\n    assert vars(x)\n"},
        {NULL, NULL},
    };
    EXPECT(star_test, 0, 6,
           "spans= tests=tests/test_star.py");
}

static void test_unparsable_files(void **state)
{
    (void)state;
    /* A file Python cannot parse it cannot import: it reads nothing,
     * whatever it names. */
    const struct file broken[] = {
        {"pkg/mod.py", MOD_N},
        {"pkg/broken.py", "from pkg.mod import N\ndef (:\n"},
        {"tests/test_broken.py", "N = (\n"},
        {NULL, NULL},
    };
    EXPECT(broken, 0, 6, "spans= tests=");
    /* A file that names nothing of the subject's is not even parsed. */
    const struct file unrelated[] = {
        {"pkg/mod.py", MOD_N},
        {"tools/other.py", "def g(x):\n    return vars(x)\n"},
        {NULL, NULL},
    };
    EXPECT(unrelated, 0, 6, "spans= tests=");
}

static void test_skipped_dirs(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", MOD_N},
        {".venv/pyvenv.cfg", ""},
        {".venv/lib/x.py", "Y = compute(N)\n"},
        {"env/pyvenv.cfg", ""},
        {"env/lib/x.py", "Y = compute(N)\n"},
        {"build/lib/x.py", "Y = compute(N)\n"},
        {"lib/site-packages/x.py", "Y = compute(N)\n"},
        {"node_modules/x.py", "Y = compute(N)\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1, "spans=0:4-4 tests=");
    /* The same, not skipped (and imported by a test module). */
    const struct file kept[] = {
        {"pkg/mod.py", MOD_N},
        {"scripts/x.py", "Y = compute(N)\n"},
        {"tests/test_x.py", "from scripts import x\n"},
        {NULL, NULL},
    };
    EXPECT(kept, 0, 1, "all");
}

static void test_function_called_at_import(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "def sieve(n):\n"                      /* 1 */
         "    return [i for i in range(2, n)]\n" /* 2 */
         "\n"
         "PRIMES = tuple(sieve(11))\n"          /* 4 */
         "\n"
         "def is_prime(k):\n"                   /* 6 */
         "    return k in PRIMES\n"             /* 7 */
         "\n"
         "def helper():\n"                      /* 9 */
         "    return 1\n"                       /* 10 */
         "\n"
         "@register\n"                          /* 12 */
         "def hooked():\n"
         "    return 2\n"},                     /* 14 */
        {"tests/test_p.py",
         "from pkg.mod import PRIMES\n\ndef test_p():\n"
         "    assert 7 in PRIMES\n"},
        /* A script's main block never runs at import. */
        {"scripts/run.py",
         "from pkg.mod import sieve\n\nif __name__ == '__main__':\n"
         "    print(sieve(5))\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 2, "spans=0:2-2,0:7-7 tests=tests/test_p.py");
    /* The statement that calls it: PRIMES's readers. */
    EXPECT(files, 0, 4, "spans=0:7-7 tests=tests/test_p.py");
    /* Nothing calls helper at import: cannot be known. */
    EXPECT(files, 0, 10, "all");
    /* Registered by a decorator: handed to code we cannot follow. */
    EXPECT(files, 0, 14, "all");
    /* Called at import by a file that is neither subject nor test. */
    const struct file tool[] = {
        {"pkg/mod.py", "def sieve(n):\n    return n\n"},
        {"tools/gen.py", "from pkg.mod import sieve\nTABLE = sieve(3)\n"},
        {NULL, NULL},
    };
    EXPECT(tool, 0, 2, "all");
}

/* A constant built at import by generators of the module's own (a
 * sieve that calls a helper iterating its argument with the argument's
 * own methods) changes nothing but the constant when the calls are given
 * fresh values: the statement, the generators' bodies and a default of
 * the helper all run the constant's readers (and those of the code that
 * ran).  Handed a module-level list, or calling what changes state, it is
 * all, as before. */
static void test_generator_constant(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "from contextlib import suppress\n"           /* 1 */
         "from math import isqrt\n"                    /* 2 */
         "LIMIT = 30\n"                                /* 3 */
         "def index_of(seq, value, start=0):\n"        /* 4 */
         "    find = getattr(seq, 'index', None)\n"    /* 5 */
         "    i = start - 1\n"                         /* 6 */
         "    with suppress(ValueError):\n"            /* 7 */
         "        while True:\n"                       /* 8 */
         "            yield (i := find(value, i + 1))\n" /* 9 */
         "def sieve(n):\n"                             /* 10 */
         "    data = bytearray((0, 1)) * (n // 2)\n"   /* 11 */
         "    for p in index_of(data, 1, 3):\n"        /* 12 */
         "        if p > isqrt(n):\n"                  /* 13 */
         "            break\n"                         /* 14 */
         "        data[p * p::p + p] = bytes(len(range(p * p, n, p + p)))\n"
         "    yield 2\n"                               /* 16 */
         "    yield from index_of(data, 1, 3)\n"       /* 17 */
         "PRIMES = tuple(sieve(LIMIT))\n"              /* 18 */
         "REG = [3, 4]\n"                              /* 19 */
         "EVEN = tuple(index_of((0, 1, 0), 0))\n"      /* 20 */
         "def factor(k):\n"                            /* 21 */
         "    return [p for p in PRIMES if k % p == 0]\n" /* 22 */
         "def registered(n):\n"                        /* 23 */
         "    REG.append(n)\n"                         /* 24 */
         "    yield n\n"                               /* 25 */
         "R = tuple(registered(5))\n"},                /* 26 */
        {NULL, NULL},
    };
    /* The statement itself: PRIMES's readers. */
    EXPECT(files, 0, 18, "spans=0:22-22 tests=");
    /* Inside the generators, which ran at import: their own bodies'
     * tests and PRIMES's readers. */
    EXPECT(files, 0, 11, "spans=0:11-17,0:22-22 tests=");
    EXPECT(files, 0, 9, "spans=0:5-9,0:22-22 tests=");
    /* A default of the helper: the sieve reads it at import, into
     * PRIMES; its reads there are followed ('+'). */
    EXPECT(files, 0, 4, "spans=0:11-17+,0:22-22 tests=");
    /* A generator that fills a registry: all. */
    EXPECT(files, 0, 24, "all");
    EXPECT(files, 0, 26, "all");
    /* A module-level list handed to the helper, which calls its
     * methods: all, for the helper's lines and the statement. */
    const struct file shared[] = {
        {"pkg/mod.py",
         "def index_of(seq, value):\n"                /* 1 */
         "    yield seq.index(value)\n"               /* 2 */
         "REG = [3, 4]\n"                             /* 3 */
         "AT = tuple(index_of(REG, 4))\n"             /* 4 */
         "def use():\n"                               /* 5 */
         "    return AT\n"},                          /* 6 */
        {NULL, NULL},
    };
    EXPECT(shared, 0, 2, "all");
    EXPECT(shared, 0, 4, "all");
}

/* A test module whose only code that runs for every test is `from ...
 * import`: its tests read a changed name only by naming it (themselves,
 * or through a helper of theirs they name): the others are skipped.  A
 * fixture, set-up, a class-body or module-level read, or code outside
 * any def make the whole module a reader. */
static void test_per_test(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_n.py",
         "import pytest\n"
         "from pkg.mod import N, f\n"
         "def check(x):\n"
         "    return x == N\n"
         "def test_direct():\n"
         "    assert N == 1\n"
         "def test_helper():\n"
         "    assert check(1)\n"
         "def test_other():\n"         /* runs f: coverage's, not ours */
         "    assert f() == 1\n"
         "class TestC:\n"
         "    def test_m(self):\n"
         "        assert N\n"
         "    def test_n(self):\n"
         "        assert True\n"
         "@pytest.mark.parametrize('x', [1])\n"
         "def test_marked(x):\n"
         "    assert N == x\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1,
           "spans=0:4-4 tests=tests/test_n.py skip=tests/test_n.py::TestC::"
           "test_n,tests/test_n.py::test_other");
    /* The whole module reads: a fixture (taken as a parameter), set-up,
     * a read at import, a star import, a class statement that runs code
     * with N. */
    const char *const whole[] = {
        "import pytest\nfrom pkg.mod import N\n@pytest.fixture\n"
        "def n():\n    return N\ndef test_a(n):\n    assert n == 1\n"
        "def test_b():\n    pass\n",
        "import unittest\nfrom pkg import mod\n"
        "class T(unittest.TestCase):\n    def setUp(self):\n"
        "        self.n = mod.N\n    def test_a(self):\n"
        "        assert self.n\n    def test_b(self):\n        pass\n",
        "from pkg.mod import N\nM = N + 1\ndef test_a():\n"
        "    assert M == 2\ndef test_b():\n    pass\n",
        "from pkg.mod import *\ndef test_a():\n    assert N == 1\n"
        "def test_b():\n    pass\n",
        /* A test class whose statement runs code with N: bound by a call,
         * named by a decorator, a def's default or the class's keywords. */
        "from pkg import mod\nclass TestA:\n    n = int(mod.N)\n"
        "    def test_a(self):\n        assert self.n\n"
        "def test_d():\n    pass\n",
        "import pytest\nfrom pkg import mod\nclass TestA:\n"
        "    @pytest.mark.parametrize('x', [mod.N])\n"
        "    def test_a(self, x):\n        assert x\n"
        "def test_d():\n    pass\n",
        "from pkg import mod\nclass TestA:\n"
        "    def test_a(self, x=mod.N):\n        assert x\n"
        "def test_d():\n    pass\n",
        "from pkg import mod\nclass TestA(base, n=mod.N):\n"
        "    def test_a(self):\n        assert True\n"
        "def test_d():\n    pass\n",
    };
    for (size_t i = 0; i < sizeof(whole) / sizeof(*whole); i++) {
        const struct file w[] = {
            {"pkg/mod.py", MOD_N},
            {"tests/test_w.py", whole[i]},
            {NULL, NULL},
        };
        EXPECT(w, 0, 1, "spans=0:4-4 tests=tests/test_w.py");
    }
    /* A test class's attribute bound without a call: that class's tests,
     * and those of a class that names it (a subclass, which inherits
     * it); the module's other tests are skipped. */
    const struct file attr[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_a.py",
         "from pkg import mod\n"
         "class TestA:\n"
         "    n = mod.N\n"
         "    def test_a(self):\n"
         "        assert self.n\n"
         "class TestB(TestA):\n"
         "    def test_b(self):\n"
         "        assert self.n\n"
         "class TestC:\n"
         "    def test_c(self):\n"
         "        pass\n"
         "def test_d():\n"
         "    pass\n"},
        {NULL, NULL},
    };
    EXPECT(attr, 0, 1,
           "spans=0:4-4 tests=tests/test_a.py skip=tests/test_a.py::TestC::"
           "test_c,tests/test_a.py::test_d");
}

/* Another module's own variable of the same name is another object: its
 * readers are not N's.  A module litmus does not trace that imports N and
 * keeps it in a def's default passes it on to the def's name. */
static void test_own_variables(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", "N = 1\ndef f():\n    return N\n"},
        {"pkg/helper.py", "N = 2\ndef g():\n    return N\n"},
        {"pkg/keep.py",
         "from pkg.mod import N\ndef h(x=N):\n    return x\n"},
        {"tests/test_g.py",
         "from pkg.helper import g\ndef test_g():\n    assert g() == 2\n"},
        {"tests/test_h.py",
         "from pkg.keep import h\ndef test_h():\n    assert h() == 1\n"
         "def test_other():\n    pass\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1,
           "spans=0:3-3 tests=tests/test_h.py skip=tests/test_h.py::"
           "test_other");
}

/* A file no other file names (a docs conf.py, a tool script) cannot be
 * imported or run by a test: what it reads at import is nobody's.  Named
 * by a test (a path to run it), it counts again. */
static void test_unimported_files(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", MOD_N},
        {"docs/conf.py", "from pkg.mod import N\nTITLE = render(N)\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1, "spans=0:4-4 tests=");
    const struct file named[] = {
        {"pkg/mod.py", MOD_N},
        {"docs/conf.py", "from pkg.mod import N\nTITLE = render(N)\n"},
        {"tests/test_docs.py",
         "import runpy\ndef test_conf():\n"
         "    runpy.run_path('docs/conf.py')\n"},
        {NULL, NULL},
    };
    EXPECT(named, 0, 1, "all");
}

static void test_class_body(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "class C:\n"                   /* 1 */
         "    X = 1\n"                  /* 2 */
         "\n"
         "    def m(self):\n"           /* 4 */
         "        return self.X\n"      /* 5 */
         "\n"
         "def make():\n"                /* 7 */
         "    return C()\n"},           /* 8 */
        {"tests/test_c.py",
         "from pkg import mod\n\ndef test_c():\n"
         "    assert mod.make().m() == 1\n"},
        {NULL, NULL},
    };
    /* X's readers: m, which names it (not every user of the class). */
    EXPECT(files, 0, 2, "spans=0:5-5 tests=");
}

/* Special methods bound in a class body: the tests that ran the bound
 * code (implicit calls run its lines), and those naming the method. */
#define CLS_DUNDERS                                                           \
    "from collections.abc import Sequence\n"  /* 1 */                        \
    "from operator import lt\n"               /* 2 */                        \
    "class C(Sequence):\n"                    /* 3 */                        \
    "    def copy(self):\n"                   /* 4 */                        \
    "        return C()\n"                    /* 5 */                        \
    "    __copy__ = copy\n"                   /* 6 */                        \
    "    def _make(op, doc):\n"               /* 7 */                        \
    "        def cmp(self, other):\n"         /* 8 */                        \
    "            return op(1, 2)\n"           /* 9 */                        \
    "        cmp.__doc__ = dedent(doc)\n"     /* 10 */                       \
    "        return cmp\n"                    /* 11 */                       \
    "    __lt__ = _make(lt, 'less')\n"        /* 12 */                       \
    "    __len__ = copy\n"                    /* 13 */                       \
    "    def gen(self):\n"                    /* 14 */                       \
    "        yield 1\n"                       /* 15 */                       \
    "    __add__ = gen\n"                     /* 16 */                       \
    "    _make = staticmethod(_make)\n"       /* 17 */                       \
    "    LIMIT = 3\n"                         /* 18 */                       \
    "    __repr__ = register(copy)\n"         /* 19 */                       \
    "def make():\n"                           /* 20 */                       \
    "    return C()\n"                        /* 21 */

static void test_class_dunders(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", CLS_DUNDERS},
        {"tests/test_c.py",
         "from pkg.mod import make\n\ndef test_c():\n"
         "    assert make().LIMIT == 3\n"},
        {"tests/test_copy.py",
         "import copy\nfrom pkg.mod import make\n\ndef test_cp():\n"
         "    assert make().__copy__()\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 6, "spans=0:5-5 tests=tests/test_copy.py");
    EXPECT(files, 0, 12, "spans=0:9-9 tests=");
    /* Read again by no other statement: LIMIT's own readers. */
    EXPECT(files, 0, 18, "spans= tests=tests/test_c.py");
    /* Checked for None without a call, bound to a generator's code (a
     * call runs none of its lines), or made by an unknown call: the
     * readers of the class's name, all for a subclass of an ABC. */
    EXPECT(files, 0, 13, "all");
    EXPECT(files, 0, 16, "all");
    EXPECT(files, 0, 19, "all");
    const struct file plain[] = {
        {"pkg/mod.py",
         "class C:\n    def gen(self):\n        yield 1\n"
         "    __add__ = gen\n    __len__ = gen\n"
         "def make():\n    return C()\n"},
        {NULL, NULL},
    };
    EXPECT(plain, 0, 4, "spans=0:7-7 tests=");
    EXPECT(plain, 0, 5, "spans=0:7-7 tests=");
    /* Through names that held the def when the statement ran. */
    const struct file chain[] = {
        {"pkg/mod.py",
         "def f(self, o):\n    return 1\n"
         "class C:\n    g = f\n    __and__ = g\n    __rand__ = __and__\n"
         "    __or__ = h\n"},
        {NULL, NULL},
    };
    EXPECT(chain, 0, 6, "spans=0:2-2 tests=");
    EXPECT(chain, 0, 7, "spans= tests=");
    /* A decorated class, a metaclass, a base of unknown make: the
     * class's readers again. */
    const struct file deco[] = {
        {"pkg/mod.py",
         "@total_ordering\nclass C:\n    def f(self):\n        return 1\n"
         "    __lt__ = f\n"},
        {"tests/test_d.py", "from pkg.mod import C\n"},
        {NULL, NULL},
    };
    EXPECT(deco, 0, 5, "spans= tests=tests/test_d.py");
    const struct file base[] = {
        {"pkg/mod.py",
         "from lib import Model\nclass C(Model):\n"
         "    def f(self):\n        return 1\n    __lt__ = f\n"},
        {NULL, NULL},
    };
    EXPECT(base, 0, 5, "all");
    /* A base of the project's is followed: plain, fine; with
     * __init_subclass__, not. */
    const struct file own[] = {
        {"pkg/mod.py",
         "class B:\n    pass\nclass C(B):\n"
         "    def f(self):\n        return 1\n    __lt__ = f\n"},
        {NULL, NULL},
    };
    EXPECT(own, 0, 6, "spans=0:5-5 tests=");
    const struct file hook[] = {
        {"pkg/mod.py",
         "class B:\n    def __init_subclass__(cls):\n        pass\n"
         "class C(B):\n"
         "    def f(self):\n        return 1\n    __lt__ = f\n"},
        {NULL, NULL},
    };
    EXPECT(hook, 0, 7, "all");
    /* A later statement of the body that only names it again passes
     * the same value on: both names' readers.  Any other reading makes
     * it the class's readers. */
    const struct file again[] = {
        {"pkg/mod.py",
         "class C:\n    def f(self):\n        return 1\n    __lt__ = f\n"
         "    __le__ = __lt__\n"
         "def g(c):\n    return c.__le__\n"},
        {NULL, NULL},
    };
    EXPECT(again, 0, 4, "spans=0:3-3,0:7-7 tests=");
    const struct file again2[] = {
        {"pkg/mod.py",
         "class C:\n    def f(self):\n        return 1\n    __lt__ = f\n"
         "    __le__ = staticmethod(__lt__)\n"},
        {NULL, NULL},
    };
    EXPECT(again2, 0, 4, "spans= tests=");
    /* An earlier statement read what the name held before: no matter.
     * A later one reading the body's names without naming them does. */
    const struct file earlier[] = {
        {"pkg/mod.py",
         "class C:\n    def f(self):\n        return 1\n    g = f\n"
         "    f = property(f)\n"
         "def make():\n    return C()\n"},
        {NULL, NULL},
    };
    EXPECT(earlier, 0, 5, "spans=0:3-3 tests=");
    const struct file dyn[] = {
        {"pkg/mod.py",
         "class C:\n    def f(self):\n        return 1\n"
         "    __lt__ = f\n    locals()['x'] = 1\n"
         "def make():\n    return C()\n"},
        {NULL, NULL},
    };
    EXPECT(dyn, 0, 4, "all");
    /* A lambda's body runs where it is called; a mutant inside it
     * cannot be told from its statement's run at import. */
    const struct file lam[] = {
        {"pkg/mod.py",
         "class C:\n    __lt__ = (\n        lambda self, o:\n"
         "            1 < 2)\n    X = 1\n"
         "def make():\n    return C()\n"},
        {NULL, NULL},
    };
    EXPECT(lam, 0, 3, "spans=0:4-4 tests=");
    EXPECT(lam, 0, 4, "all");
    /* A private name is the mangled attribute: another class's `__n`
     * is another attribute. */
    const struct file private[] = {
        {"pkg/mod.py",
         "class C:\n    def f(self):\n        return 1\n"   /* 1-3 */
         "    __n = 2\n"                                        /* 4 */
         "    def g(self):\n        return self.__n\n"         /* 5-6 */
         "class D:\n    def h(self):\n        return self.__n\n"
         "def k(c):\n    return c._C__n\n"},                   /* 10-11 */
        {NULL, NULL},
    };
    EXPECT(private, 0, 4, "spans=0:6-6,0:11-11 tests=");
}

/* Code litmus does not trace (a module that is not a subject) that reads
 * the name: whoever names that function. */
static void test_untraced_functions(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", MOD_N},
        {"pkg/util.py",
         "from pkg.mod import N, f\n\ndef g():\n    return N + 1\n"},
        {"tests/test_g.py", "from pkg.util import g\n"},
        {"tests/test_f.py", "from pkg.util import f\n"},
        {NULL, NULL},
    };
    /* util re-imports f too: only N's alias flows on. */
    EXPECT(files, 0, 1, "spans=0:4-4 tests=tests/test_g.py");
    const struct file state_files[] = {
        {"pkg/mod.py", MOD_N},
        {"pkg/util.py",
         "from pkg import mod\nSEEN = []\n\ndef g():\n"
         "    SEEN.append(mod.N)\n"},
        {"tests/test_u.py", "from pkg import util\n"},
        {NULL, NULL},
    };
    EXPECT(state_files, 0, 1, "all");
    const struct file fixture[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/util.py",
         "import pytest\nfrom pkg import mod\n\n@pytest.fixture\n"
         "def g():\n    return mod.N\n"},
        {"tests/test_u.py", "from util import g\n"},
        {NULL, NULL},
    };
    EXPECT(fixture, 0, 1, "all");
}

/* vars() of an instance a test made reads that instance's own
 * dictionary, not a module's; of anything else, anything. */
static void test_vars_of_instance(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_v.py",
         "from pkg import mod\n\ndef test_v():\n"
         "    st = mod.Stats(1)\n    st.size = 2\n"
         "    assert vars(st) and st.__dict__\n"},
        {NULL, NULL},
    };
    EXPECT(files, 0, 1, "spans=0:4-4 tests=");
    const struct file module[] = {
        {"pkg/mod.py", MOD_N},
        {"tests/test_v.py",
         "from pkg import mod\n\ndef test_v():\n"
         "    st = mod\n    assert vars(st)\n"},
        {"tests/test_w.py",
         "import importlib\n\ndef test_w():\n"
         "    st = importlib.import_module('pkg.mod')\n"
         "    assert vars(st)\n"},
        {"tests/test_x.py",
         "from pkg import mod\n\ndef test_x(st):\n"
         "    assert vars(st)\n"},
        {NULL, NULL},
    };
    EXPECT(module, 0, 1,
           "spans=0:4-4 tests=tests/test_v.py,tests/test_w.py,"
           "tests/test_x.py");
}

/* A compound statement that sets an attribute of a def it just made
 * binds the def's name alone. */
static void test_fresh_attribute_store(void **state)
{
    (void)state;
    const struct file files[] = {
        {"pkg/mod.py",
         "import sys\n"                           /* 1 */
         "if sys.hexversion >= 0x30D00A2:\n"      /* 2 */
         "    def f():\n"                         /* 3 */
         "        return 1\n"                     /* 4 */
         "    f.__doc__ = 'doc'\n"                /* 5 */
         "else:\n"                                /* 6 */
         "    f = len\n"                          /* 7 */
         "def g():\n"                             /* 8 */
         "    return f()\n"},                     /* 9 */
        {NULL, NULL},
    };
    EXPECT(files, 0, 2, "spans=0:9-9 tests=");
    const struct file shared[] = {
        {"pkg/mod.py",
         "import sys\n"
         "if sys.hexversion >= 0x30D00A2:\n"
         "    f = len\n"
         "    f.__doc__ = 'doc'\n"},
        {NULL, NULL},
    };
    EXPECT(shared, 0, 2, "all");
}

static void test_bad_queries(void **state)
{
    (void)state;
    char root[] = "/tmp/lt-readers-XXXXXX";
    assert_non_null(mkdtemp(root));
    write_file(root, "pkg/mod.py", MOD_N);
    char *subject = xasprintf("%s/pkg/mod.py", root);
    struct lt_readers_index *ix = NULL;
    assert_int_equal(lt_readers_scan(root, &subject, 1, &ix), 0);
    struct lt_readers r;
    assert_int_equal(lt_readers_for(ix, 1, 1, 1, &r), LT_EUSAGE);
    assert_int_equal(r.all, 1);
    lt_readers_clear(&r);
    assert_int_equal(lt_readers_for(ix, 0, 3, 2, &r), LT_EUSAGE);
    assert_int_equal(r.all, 1);
    lt_readers_clear(&r);
    /* Lines across two statements. */
    assert_int_equal(lt_readers_for(ix, 0, 1, 3, &r), 0);
    assert_int_equal(r.all, 1);
    lt_readers_clear(&r);
    lt_readers_clear(&r);
    lt_readers_index_free(ix);
    lt_readers_index_free(NULL);
    assert_int_equal(lt_readers_scan("/nonexistent-lt", &subject, 1, &ix),
                     -ENOENT);
    assert_null(ix);
    free(subject);
    assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_module_function),
        cmocka_unit_test(test_read_by_test_module),
        cmocka_unit_test(test_strings_name_it),
        cmocka_unit_test(test_other_subject),
        cmocka_unit_test(test_unknowable_statements),
        cmocka_unit_test(test_own_dunders),
        cmocka_unit_test(test_side_effects),
        cmocka_unit_test(test_rebind),
        cmocka_unit_test(test_conftest_and_helpers),
        cmocka_unit_test(test_unparsable_files),
        cmocka_unit_test(test_skipped_dirs),
        cmocka_unit_test(test_function_called_at_import),
        cmocka_unit_test(test_generator_constant),
        cmocka_unit_test(test_per_test),
        cmocka_unit_test(test_own_variables),
        cmocka_unit_test(test_unimported_files),
        cmocka_unit_test(test_class_body),
        cmocka_unit_test(test_class_dunders),
        cmocka_unit_test(test_untraced_functions),
        cmocka_unit_test(test_fresh_attribute_store),
        cmocka_unit_test(test_vars_of_instance),
        cmocka_unit_test(test_bad_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
