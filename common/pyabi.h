/* The one door to CPython's C API for litmus's Python module
 * (litmus-python.so): CPython's stable ABI as of 3.9, so that one build
 * runs in every interpreter from 3.9 on, loaded at run time (pyload.h),
 * plus the few functions that are outside the stable ABI but exported,
 * with the same signature, by every libpython from 3.9 to 3.13.  What is
 * version-specific in litmus's C is declared here and nowhere else; each
 * entry says since when and until when it holds.
 * SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_PYABI_H
#define LT_COMMON_PYABI_H

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x03090000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <wchar.h>

/* Tracing and profiling (3.0-3.13: the legacy hooks; 3.12 runs them on
 * sys.monitoring's events).  The event numbers have never changed. */
typedef int (*lt_py_tracefunc)(PyObject *obj, PyFrameObject *frame,
                               int what, PyObject *arg);
#define LT_PY_TRACE_CALL 0
#define LT_PY_TRACE_EXCEPTION 1
#define LT_PY_TRACE_LINE 2
#define LT_PY_TRACE_RETURN 3
PyAPI_FUNC(void) PyEval_SetTrace(lt_py_tracefunc func, PyObject *obj);
PyAPI_FUNC(void) PyEval_SetProfile(lt_py_tracefunc func, PyObject *obj);

/* Frames (3.9 on; in the limited API from 3.10, 3.11 for GetBack). */
#if Py_LIMITED_API + 0 < 0x030A0000
PyAPI_FUNC(PyCodeObject *) PyFrame_GetCode(PyFrameObject *frame);
#endif
PyAPI_FUNC(PyFrameObject *) PyFrame_GetBack(PyFrameObject *frame);

/* UTF-8 views of str (3.3 on; in the limited API from 3.10 and 3.13). */
#if Py_LIMITED_API + 0 < 0x030A0000
PyAPI_FUNC(const char *) PyUnicode_AsUTF8AndSize(PyObject *unicode,
                                                 Py_ssize_t *size);
#endif
#if Py_LIMITED_API + 0 < 0x030D0000
PyAPI_FUNC(const char *) PyUnicode_AsUTF8(PyObject *unicode);
#endif

/* Audit hooks (3.8 on). */
typedef int (*lt_py_audit_hook)(const char *event, PyObject *args,
                                void *data);
PyAPI_FUNC(int) PySys_AddAuditHook(lt_py_audit_hook hook, void *data);

/* Start-up (3.0-3.13; Py_SetProgramName and Py_NoSiteFlag are deprecated
 * since 3.11 and 3.12 but still there in 3.13). */
PyAPI_FUNC(int) PyImport_AppendInittab(const char *name,
                                       PyObject *(*initfunc)(void));

/* Reference helpers the limited API gained only in 3.12. */
#ifndef Py_SETREF
#define Py_SETREF(dst, src)                                                  \
    do {                                                                     \
        PyObject **lt_ref_ = (PyObject **)&(dst);                            \
        PyObject *lt_old_ = *lt_ref_;                                        \
        *lt_ref_ = (PyObject *)(src);                                        \
        Py_DECREF(lt_old_);                                                  \
    } while (0)
#endif
#ifndef Py_XSETREF
#define Py_XSETREF(dst, src)                                                 \
    do {                                                                     \
        PyObject **lt_ref_ = (PyObject **)&(dst);                            \
        PyObject *lt_old_ = *lt_ref_;                                        \
        *lt_ref_ = (PyObject *)(src);                                        \
        Py_XDECREF(lt_old_);                                                 \
    } while (0)
#endif

/* Types the limited API does not name, looked up once from builtins and
 * `types` by lt_pyabi_init(): borrowed, alive as long as the interpreter. */
struct lt_pyabi_types {
    PyObject *function;     /* types.FunctionType */
    PyObject *method;       /* types.MethodType */
    PyObject *code;         /* types.CodeType */
    PyObject *classmethod;  /* classmethod */
    PyObject *staticmethod; /* staticmethod */
};
extern struct lt_pyabi_types lt_pyabi_types;

/* Fills lt_pyabi_types; call once after the interpreter started.  0, or
 * -1 with a Python error set. */
int lt_pyabi_init(void);

/* Exact type tests against those types. */
static inline int lt_py_is(PyObject *o, PyObject *type)
{
    return type && (PyObject *)Py_TYPE(o) == type;
}
#define LT_PY_FUNCTION_CHECK(o) lt_py_is((o), lt_pyabi_types.function)
#define LT_PY_METHOD_CHECK(o) lt_py_is((o), lt_pyabi_types.method)
#define LT_PY_CODE_CHECK(o) lt_py_is((o), lt_pyabi_types.code)

/* A function's code object (new reference), or NULL with no error set. */
PyObject *lt_py_function_code(PyObject *fn);

/* A function's code object, borrowed and read without a reference
 * count change (so without writing to the memory a fork shares), or NULL
 * when fn is not a function.  For checks run in every child. */
PyObject *lt_py_function_code_peek(PyObject *fn);

/* A code object's co_filename as UTF-8 (valid while the code lives), or
 * NULL with no error set. */
const char *lt_py_code_filename(PyObject *code);

/* A type's __name__ as UTF-8 in buf (never fails: "?"). */
const char *lt_py_type_name(PyObject *type, char *buf, size_t size);

/* A dict's version tag, which CPython changes with every change to the
 * dict (PEP 509): the word after ob_refcnt, ob_type and ma_used in
 * 3.9-3.11; 3.12 deprecates it and later versions drop it.  0 where it
 * cannot be read (another version, not an exact dict): the caller then
 * looks. */
uint64_t lt_pyabi_dict_version(PyObject *d);

/* PEP 523's frame evaluation hook, where litmus knows the layout of the
 * frame the hook is given: CPython 3.11 only (an _PyInterpreterFrame,
 * whose code object is its fifth word; 3.9-3.10 pass a PyFrameObject,
 * 3.12 moved the field, 3.13 renamed it).  With a hook installed, 3.11
 * no longer inlines Python-to-Python calls: every frame, a generator's
 * resumption included, goes through it.  The two entry points are
 * private but exported by every libpython from 3.9 to 3.13; they are
 * looked up at run time all the same. */
typedef PyObject *(*lt_py_eval_frame)(PyThreadState *ts, void *frame,
                                      int throwflag);

/* Installs `to` as the interpreter's frame evaluator when `from` is the
 * one installed (NULL stands for the default one, either way).  0, or -1
 * when another one is installed or this interpreter is not one whose
 * frames litmus knows (nothing changes then). */
int lt_pyabi_eval_frame_swap(lt_py_eval_frame from, lt_py_eval_frame to);

/* The default frame evaluator, which a hook calls to run the frame. */
PyObject *lt_pyabi_eval_frame_default(PyThreadState *ts, void *frame,
                                      int throwflag);

/* The code object of a frame given to the hook (borrowed; 3.11). */
static inline PyObject *lt_pyabi_frame_code(void *frame)
{
    return *(PyObject **)((char *)frame + 4 * sizeof(void *));
}

/* sys.monitoring (PEP 669, 3.12 on), for litmus's one tool: LINE events
 * to a callback, which may turn its location off (returning
 * sys.monitoring.DISABLE) until the next restart.  Unlike a line
 * tracer, a code object without events runs at full speed, specialized.
 * Reached through the sys.monitoring module's own functions: CPython's
 * C API for it (3.13) only emits events.  The tool id is one that no
 * convention gives to anyone (0 debugger, 1 coverage, 2 profiler,
 * 5 optimizer), so that a test's coverage.py or debugger keeps its own. */
#define LT_PY_MONITORING_TOOL 3

/* METH_FASTCALL (3.7 on; in the limited API from 3.10): a callback
 * called with its arguments in an array, no tuple made per event. */
#define LT_PY_METH_FASTCALL 0x0080
typedef PyObject *(*lt_py_fastcall)(PyObject *self, PyObject *const *args,
                                    Py_ssize_t nargs);

/* Takes LT_PY_MONITORING_TOOL under `name` with `line_callback` (called
 * with a code object and a line number) for its LINE events, none of
 * them on yet.  0; -1 when this interpreter has no sys.monitoring
 * (before 3.12); -2 when it has, but refused the tool (another tool
 * holds the id).  Nothing changes on failure, and no error is set. */
int lt_pyabi_monitoring_start(const char *name, PyObject *line_callback);

/* The tool's LINE events on (1) or off (0), in every thread and code
 * object.  0, or -1 (no error set) when the tool is not litmus's. */
int lt_pyabi_monitoring_lines(int on);

/* Turns back on every location a callback turned off, every tool's
 * (sys.monitoring.restart_events()).  0, or -1 with no error set. */
int lt_pyabi_monitoring_restart(void);

/* sys.monitoring.DISABLE, which a callback returns (a new reference) to
 * turn its location off; NULL before lt_pyabi_monitoring_start. */
PyObject *lt_pyabi_monitoring_disable(void);

/* Starts the interpreter of `python` (its executable: the prefix and a
 * venv's site-packages follow from it, as they do for `python` itself)
 * with UTF-8 mode, the fixed hash seed 0, no bytecode written, unbuffered
 * standard streams, no user site, no signal handlers, and none of the
 * environment's PYTHON* variables, which are put back afterwards, in the
 * C environment and in os.environ, for what the tests start.  site:
 * 0 keeps site (and so a venv's .pth files) out.  0, or -1 with a
 * message in err. */
int lt_pyabi_start(const char *python, int site, char *err, size_t errsize);

/* The same, for an interpreter already running in its own executable,
 * started with LT_PYTHON_SETTINGS in its environment and the user's
 * PYTHON* variables under LT_PYTHON_SAVED_PREFIX (pyload.h): takes the
 * settings out and puts the user's variables back under their names, in
 * the C environment and in os.environ.  0, or -1 with a message in err. */
int lt_pyabi_adopt(char *err, size_t errsize);

#endif
