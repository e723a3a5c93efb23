/* common/pyabi.c on the build's own libpython, and on each other
 * CPython's that the build found (LT_TEST_PYTHON, its executable): the
 * start (settings in force, the caller's PYTHON* variables kept in the C
 * environment and in os.environ) and the helpers the zygote uses,
 * against what Python itself says.  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef LT_TEST_PYTHON
#define LT_TEST_PYTHON "/usr/bin/python3"
#endif

static PyObject *ns; /* the globals of the code below */

static const char case_py[] =
    "import os, sys\n"
    "def area(w, h):\n"
    "    return w * h\n"
    "class Box:\n"
    "    def size(self):\n"
    "        return 1\n"
    "class Fake:\n"
    "    __code__ = 5\n"
    "flags = (sys.flags.utf8_mode, sys.flags.no_user_site,\n"
    "         sys.flags.dont_write_bytecode, sys.flags.no_site,\n"
    "         sys.flags.hash_randomization)\n"
    "seed = os.environ.get('PYTHONHASHSEED')\n"
    "path = os.environ.get('PYTHONPATH')\n"
    "hashes = hash('litmus') == hash('litmus')\n"
    "def loop(n):\n"
    "    total = 0\n"
    "    for i in range(n):\n"
    "        total += i\n"
    "    return total\n"
    "def take_tool():\n"
    "    sys.monitoring.use_tool_id(3, 'someone else')\n"
    "def give_tool():\n"
    "    sys.monitoring.free_tool_id(3)\n"
    "def as_exec_left_it():\n"
    "    os.environ['LITMUS_PYVAR_PYTHONFOO'] = 'bar'\n"
    "    os.environ['LITMUS_PYVAR_PYTHONHASHSEED'] = '5'\n"
    "    os.environ['PYTHONHASHSEED'] = '0'\n"
    "    os.environ['PYTHONUTF8'] = '1'\n"
    "def environ_now():\n"
    "    return sorted((k, v) for k, v in os.environ.items()\n"
    "                  if 'PYTHONFOO' in k or 'PYTHONHASHSEED' in k or\n"
    "                  'PYTHONUTF8' in k)\n";

static int start(void **state)
{
    (void)state;
    setenv("PYTHONPATH", "/nowhere/pyabi-test", 1);
    setenv("PYTHONDONTWRITEBYTECODE", "", 1); /* the user's, kept */
    unsetenv("PYTHONHASHSEED");
    char err[256] = "";
    if (lt_pyabi_start(LT_TEST_PYTHON, 1, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    ns = PyDict_New();
    PyDict_SetItemString(ns, "__builtins__", PyEval_GetBuiltins());
    PyObject *co = Py_CompileString(case_py, "/src/pyabi_case.py", Py_file_input);
    PyObject *r = co ? PyEval_EvalCode(co, ns, ns) : NULL;
    Py_XDECREF(co);
    if (!r) {
        PyErr_Print();
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

static PyObject *global(const char *name)
{
    PyObject *v = PyDict_GetItemString(ns, name);
    assert_non_null(v);
    return v;
}

static void test_settings_and_environment(void **state)
{
    (void)state;
    PyObject *flags = global("flags");
    assert_int_equal(PyLong_AsLong(PyTuple_GetItem(flags, 0)), 1); /* UTF-8 */
    assert_int_equal(PyLong_AsLong(PyTuple_GetItem(flags, 1)), 1);
    assert_int_equal(PyLong_AsLong(PyTuple_GetItem(flags, 2)), 1);
    assert_int_equal(PyLong_AsLong(PyTuple_GetItem(flags, 3)), 0); /* site */
    assert_int_equal(PyLong_AsLong(PyTuple_GetItem(flags, 4)), 0); /* seed 0 */
    /* Hash seed 0 steered the interpreter, yet is not in its environment;
     * the caller's variables are, in os.environ and in C. */
    assert_true(global("seed") == Py_None);
    assert_string_equal(PyUnicode_AsUTF8(global("path")),
                        "/nowhere/pyabi-test");
    assert_string_equal(getenv("PYTHONPATH"), "/nowhere/pyabi-test");
    assert_string_equal(getenv("PYTHONDONTWRITEBYTECODE"), "");
    assert_null(getenv("PYTHONHASHSEED"));
    assert_null(getenv("PYTHONUTF8"));
}

static void test_function_and_code_helpers(void **state)
{
    (void)state;
    PyObject *fn = global("area");
    assert_true(LT_PY_FUNCTION_CHECK(fn));
    assert_false(LT_PY_METHOD_CHECK(fn));
    PyObject *code = lt_py_function_code(fn);
    assert_non_null(code);
    assert_true(LT_PY_CODE_CHECK(code));
    /* The peek reads the same object, without a reference of its own. */
    Py_ssize_t before = Py_REFCNT(code);
    assert_ptr_equal(lt_py_function_code_peek(fn), code);
    assert_int_equal(Py_REFCNT(code), before);
    assert_string_equal(lt_py_code_filename(code), "/src/pyabi_case.py");
    Py_DECREF(code);

    /* Started once: a second init changes nothing. */
    assert_int_equal(lt_pyabi_init(), 0);
    /* Something with a __code__ that is not code has none. */
    assert_null(lt_py_function_code(global("Fake")));
    assert_false(PyErr_Occurred());

    PyObject *box = global("Box");
    assert_null(lt_py_function_code_peek(box));
    assert_null(lt_py_function_code(box));
    assert_null(lt_py_code_filename(box));
    assert_false(PyErr_Occurred());
    char name[64];
    assert_string_equal(lt_py_type_name(box, name, sizeof(name)), "Box");
    assert_string_equal(lt_py_type_name(fn, name, sizeof(name)), "area");
    assert_string_equal(lt_py_type_name(Py_None, name, sizeof(name)), "?");

    PyObject *inst = PyObject_CallObject(box, NULL);
    PyObject *bound = PyObject_GetAttrString(inst, "size");
    assert_true(LT_PY_METHOD_CHECK(bound));
    assert_null(lt_py_function_code_peek(bound));
    Py_DECREF(bound);
    Py_DECREF(inst);
    assert_true(PyObject_IsTrue(global("hashes")));
}

/* Setting a function's code is seen by the peek at once. */
static void test_peek_follows_reassigned_code(void **state)
{
    (void)state;
    PyObject *fn = global("area");
    PyObject *other = lt_py_function_code(fn);
    assert_non_null(other);
    PyObject *size = PyObject_GetAttrString(global("Box"), "size");
    PyObject *size_code = lt_py_function_code(size);
    assert_int_equal(PyObject_SetAttrString(fn, "__code__", size_code), 0);
    assert_ptr_equal(lt_py_function_code_peek(fn), size_code);
    assert_int_equal(PyObject_SetAttrString(fn, "__code__", other), 0);
    assert_ptr_equal(lt_py_function_code_peek(fn), other);
    Py_DECREF(size_code);
    Py_DECREF(size);
    Py_DECREF(other);
}

/* The frame evaluation hook: installed over the default, it sees every
 * frame (with its code) and runs it through the default evaluator;
 * swapped back, nothing more reaches it.  A second hook is refused while
 * one is installed. */
static int hook_calls;
static PyObject *hook_code;

static PyObject *counting_hook(PyThreadState *ts, void *frame, int throwflag)
{
    hook_calls++;
    hook_code = lt_pyabi_frame_code(frame);
    return lt_pyabi_eval_frame_default(ts, frame, throwflag);
}

static PyObject *other_hook(PyThreadState *ts, void *frame, int throwflag)
{
    return lt_pyabi_eval_frame_default(ts, frame, throwflag);
}

static void test_frame_hook(void **state)
{
    (void)state;
    if (lt_pyabi_eval_frame_swap(NULL, counting_hook) < 0) {
        /* Not 3.11: the hook is refused and nothing changes. */
        skip();
    }
    assert_int_equal(lt_pyabi_eval_frame_swap(NULL, other_hook), -1);
    PyObject *args = Py_BuildValue("(ii)", 6, 7);
    PyObject *r = PyObject_CallObject(global("area"), args);
    assert_non_null(r);
    assert_int_equal(PyLong_AsLong(r), 42);
    Py_DECREF(r);
    assert_true(hook_calls > 0);
    PyObject *code = lt_py_function_code(global("area"));
    assert_ptr_equal(hook_code, code);
    assert_int_equal(lt_pyabi_eval_frame_swap(counting_hook, NULL), 0);
    int seen = hook_calls;
    r = PyObject_CallObject(global("area"), args);
    Py_XDECREF(r);
    assert_int_equal(hook_calls, seen);
    Py_DECREF(code);
    Py_DECREF(args);
}

/* sys.monitoring: the tool's LINE events reach the callback with the
 * code and the line; a location the callback turned off stays off, for
 * this call and the next, until a restart; with the events off nothing
 * comes.  The tool is refused while someone else holds the id, and
 * before 3.12 (the line tracer stays the way then).  Last: it takes the
 * tool id for good. */
static int line_calls;
static long loop_body_calls;
static PyObject *line_code;
static int disable_body;

static PyObject *line_callback(PyObject *self, PyObject *const *args,
                               Py_ssize_t nargs)
{
    (void)self;
    assert_int_equal(nargs, 2);
    line_calls++;
    if (args[0] != line_code)
        Py_RETURN_NONE;
    /* pyabi_case.py's line 18: `total += i` */
    if (PyLong_AsLong(args[1]) == 18) {
        loop_body_calls++;
        if (disable_body)
            return Py_NewRef(lt_pyabi_monitoring_disable());
    }
    Py_RETURN_NONE;
}

static PyMethodDef line_def = {
    "line", (PyCFunction)(void (*)(void))(lt_py_fastcall)line_callback,
    LT_PY_METH_FASTCALL, NULL};

static long call_loop(long n)
{
    PyObject *args = Py_BuildValue("(l)", n);
    PyObject *r = PyObject_CallObject(global("loop"), args);
    assert_non_null(r);
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    Py_DECREF(args);
    return v;
}

static void call_global(const char *name)
{
    PyObject *r = PyObject_CallObject(global(name), NULL);
    if (!r)
        PyErr_Print();
    assert_non_null(r);
    Py_DECREF(r);
}

static void test_monitoring(void **state)
{
    (void)state;
    PyObject *fn = PyCFunction_NewEx(&line_def, NULL, NULL);
    assert_non_null(fn);
    PyObject *version = PySys_GetObject("version_info");
    PyObject *minor = version ? PySequence_GetItem(version, 1) : NULL;
    long v = minor ? PyLong_AsLong(minor) : 0;
    Py_XDECREF(minor);
    if (v < 12) {
        assert_int_equal(lt_pyabi_monitoring_start("litmus", fn), -1);
        assert_null(PyErr_Occurred());
        assert_int_equal(lt_pyabi_monitoring_lines(1), -1);
        assert_null(lt_pyabi_monitoring_disable());
        Py_DECREF(fn);
        return;
    }
    call_global("take_tool");
    /* Refused, told apart from an interpreter without sys.monitoring. */
    assert_int_equal(lt_pyabi_monitoring_start("litmus", fn), -2);
    assert_null(PyErr_Occurred());
    assert_null(lt_pyabi_monitoring_disable());
    call_global("give_tool");
    assert_int_equal(lt_pyabi_monitoring_start("litmus", fn), 0);
    assert_int_equal(lt_pyabi_monitoring_start("litmus", fn), -1);
    Py_DECREF(fn); /* sys.monitoring holds it */
    line_code = lt_py_function_code(global("loop"));
    assert_non_null(line_code);

    /* No events yet. */
    assert_int_equal(call_loop(10), 45);
    assert_int_equal(line_calls, 0);

    /* Every line, every iteration. */
    assert_int_equal(lt_pyabi_monitoring_lines(1), 0);
    assert_int_equal(call_loop(10), 45);
    assert_int_equal(loop_body_calls, 10);

    /* Turned off at its first event, for good. */
    disable_body = 1;
    loop_body_calls = 0;
    assert_int_equal(call_loop(10), 45);
    assert_int_equal(call_loop(10), 45);
    assert_int_equal(loop_body_calls, 1);
    int before = line_calls;
    assert_int_equal(call_loop(10), 45);
    assert_true(line_calls > before); /* the other lines still come */

    /* A restart turns it back on. */
    disable_body = 0;
    assert_int_equal(lt_pyabi_monitoring_restart(), 0);
    assert_int_equal(call_loop(10), 45);
    assert_int_equal(loop_body_calls, 11);

    /* Events off: nothing comes.  (Code run meanwhile loses its
     * instrumentation, and with it the locations turned off: only a
     * restart says for sure which are on.) */
    assert_int_equal(lt_pyabi_monitoring_lines(0), 0);
    before = line_calls;
    assert_int_equal(call_loop(10), 45);
    assert_int_equal(line_calls, before);

    /* The id is taken: Python code cannot have it. */
    PyObject *r = PyObject_CallObject(global("take_tool"), NULL);
    assert_null(r);
    assert_true(PyErr_ExceptionMatches(PyExc_ValueError));
    PyErr_Clear();
    Py_DECREF(line_code);
}

/* A zygote in the interpreter's executable starts with the settings in
 * its environment and the user's PYTHON* variables renamed; adopting it
 * takes the settings out and gives the user's back their names (the
 * user's own hash seed included), in os.environ and in C. */
static void test_adopt(void **state)
{
    (void)state;
    call_global("as_exec_left_it");
    char err[256] = "";
    assert_int_equal(lt_pyabi_adopt(err, sizeof(err)), 0);
    PyObject *now = PyObject_CallObject(global("environ_now"), NULL);
    assert_non_null(now);
    PyObject *want = Py_BuildValue("[(ss)(ss)]", "PYTHONFOO", "bar",
                                   "PYTHONHASHSEED", "5");
    assert_int_equal(PyObject_RichCompareBool(now, want, Py_EQ), 1);
    Py_DECREF(want);
    Py_DECREF(now);
    assert_string_equal(getenv("PYTHONFOO"), "bar");
    assert_string_equal(getenv("PYTHONHASHSEED"), "5");
    assert_null(getenv("LITMUS_PYVAR_PYTHONFOO"));
    assert_null(getenv("PYTHONUTF8"));
    /* The other variables stay. */
    assert_string_equal(getenv("PYTHONPATH"), "/nowhere/pyabi-test");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settings_and_environment),
        cmocka_unit_test(test_adopt),
        cmocka_unit_test(test_function_and_code_helpers),
        cmocka_unit_test(test_peek_follows_reassigned_code),
        cmocka_unit_test(test_frame_hook),
        cmocka_unit_test(test_monitoring),
    };
    return cmocka_run_group_tests(tests, start, NULL);
}
