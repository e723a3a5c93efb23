/* The `_litmus` module through which the Python shim reports: READY and
 * FAILED to the engine, and from a child APPLIED, SANDBOXED (entering the
 * sandbox, in process mode or not), the tests' results, guards and call
 * records.  Its tracer and pre-import methods live with the tracer and
 * the pre-import server.  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "harness/wire.h"
#include "runners/guard.h"
#include "runners/zygote_internal.h"
#include "sandbox/sandbox.h"

static uint64_t test_cpu_start; /* lt__cpu_with_children_ns() at TEST_START */

/*** The zygote's reports ***/

/* _litmus.ready(ids): collection is over.  Sends IMPORT_LINES and VIEW
 * if due, then READY with the test ids to the engine and to the
 * pre-import server. */
static PyObject *py_ready(PyObject *self, PyObject *args)
{
    PyObject *list;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &list))
        return NULL;
    lt__import_trace_send();
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_READY);
    lt_wire_put_u32(&w, lt__zygote.features);
    Py_ssize_t n = PyList_Size(list);
    lt_wire_put_u32(&w, (uint32_t)n);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len;
        PyObject *id = PyList_GetItem(list, i);
        const char *s = id ? PyUnicode_AsUTF8AndSize(id, &len) : NULL;
        if (!s) {
            lt_wire_writer_free(&w);
            return NULL;
        }
        lt_wire_put_str(&w, s, (size_t)len);
    }
    if (lt__zygote.view_note_ready) {
        lt__send_frame(lt__zygote.engine_sock, &lt__zygote.view_note);
        lt__zygote.view_note_ready = 0;
    }
    lt_wire_finish(&w);
    /* The pre-import server maps the engine's test indices to its
     * children's own collection by these ids. */
    if (lt__zygote.preimport_sock >= 0 &&
        lt_wire_send(lt__zygote.preimport_sock, &w, NULL, 0) < 0)
        lt__preimport_close();
    lt__send_frame(lt__zygote.engine_sock, &w);
    lt__zygote.ready_sent = 1;
    Py_RETURN_NONE;
}

/* _litmus.fail(message, cause=FAIL_OTHER): why the zygote could not
 * start or collect (cause: enum lt_fail_cause), once. */
static PyObject *py_fail(PyObject *self, PyObject *args)
{
    const char *msg;
    int cause = LT_FAIL_OTHER;
    if (!PyArg_ParseTuple(args, "s|i", &msg, &cause))
        return NULL;
    if (cause < 0 || cause > UINT8_MAX)
        cause = LT_FAIL_OTHER;
    /* After READY the session is over: pytest unwinding is not a
     * failure; after a FAILED the engine knows why already. */
    if (!lt__zygote.ready_sent && !lt__zygote.failed_sent)
        lt__send_failure(cause, msg);
    Py_RETURN_NONE;
}

/* _litmus.serve(callback): the fork server loop (lt__serve). */
static PyObject *py_serve(PyObject *self, PyObject *args)
{
    PyObject *callback;
    if (!PyArg_ParseTuple(args, "O", &callback))
        return NULL;
    return lt__serve(callback);
}

/*** A child's reports ***/

/* _litmus.applied(status, text): APPLIED, how applying the change went
 * (text capped).  An untrusted change is applied inside the sandbox
 * (zygote_serve.c) with the guards armed: a shim that forgot them ends
 * the child here, before any result. */
static PyObject *py_applied(PyObject *self, PyObject *args)
{
    int status;
    const char *text;
    if (!PyArg_ParseTuple(args, "is", &status, &text))
        return NULL;
    if (lt__zygote.child_untrusted &&
        (!lt__zygote.child_sandboxed || !lt_guard_armed()))
        lt__zygote_die("an untrusted change applied outside its guards",
                       LT_EPROTO);
    lt__zygote.fresh_applied = 1;
    lt__send_reply(lt__zygote.result_fd, &(struct lt_reply){
        .type = LT_FRAME_APPLIED,
        .applied = {(uint8_t)status, lt_reply_text_of(text, 2000)}});
    Py_RETURN_NONE;
}

/* _litmus.enter_sandbox(): a trusted run's child enters the sandbox
 * here, after its change was applied (lt__child_enter_sandbox: process
 * mode and its files as the job's frame says); an untrusted run's child
 * is inside before any of its Python ran (zygote_serve.c), and may not
 * enter twice. */
static PyObject *py_enter_sandbox(PyObject *self, PyObject *args)
{
    if (lt__zygote.child_sandboxed) {
        PyErr_SetString(PyExc_RuntimeError, "already in the sandbox");
        return NULL;
    }
    lt__child_enter_sandbox();
    Py_RETURN_NONE;
}

/* _litmus.sandboxed(): whether this child entered the sandbox. */
static PyObject *py_sandboxed(PyObject *self, PyObject *args)
{
    return PyBool_FromLong(lt__zygote.child_sandboxed);
}

static PyObject *py_test_start(PyObject *self, PyObject *args)
{
    unsigned int idx;
    if (!PyArg_ParseTuple(args, "I", &idx))
        return NULL;
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_TEST_START,
                                      .test_start = {idx}});
    test_cpu_start = lt__cpu_with_children_ns();
    Py_RETURN_NONE;
}

/* _litmus.test_result(test, outcome, ns, text): TEST_RESULT, with the
 * CPU time since TEST_START; an untrusted run's guards are checked
 * first when asked to after every test. */
static PyObject *py_test_result(PyObject *self, PyObject *args)
{
    unsigned int idx;
    int outcome;
    unsigned long long dur_ns;
    const char *text;
    if (!PyArg_ParseTuple(args, "IiKs", &idx, &outcome, &dur_ns, &text))
        return NULL;
    /* The check runs before the result leaves: a candidate that changed
     * the framework never gets a pass reported. */
    if (lt_guard_armed() && (lt_guard_flags() & LT_RUN_GUARD_EACH))
        lt_guard_check();
    lt__send_reply(lt__zygote.result_fd, &(struct lt_reply){
        .type = LT_FRAME_TEST_RESULT,
        .test_result = {idx, (uint8_t)outcome, dur_ns,
                        lt__cpu_with_children_ns() - test_cpu_start,
                        lt_reply_text_of(text, 1000)}});
    Py_RETURN_NONE;
}

static PyObject *py_test_needs(PyObject *self, PyObject *args)
{
    unsigned int idx, bits;
    if (!PyArg_ParseTuple(args, "II", &idx, &bits))
        return NULL;
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_NEEDS,
                                      .needs = {idx, (uint8_t)bits}});
    Py_RETURN_NONE;
}

static void report_tamper(const char *what)
{
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_TAMPER,
                                      .tamper = lt_reply_text_of(what, 1000)});
}

/* _litmus.arm(flags[, scratch]): arms the guards of an untrusted run
 * (after the sandbox, before the candidate is compiled); scratch is the
 * child's own folder, where tests write their temporary projects. */
static PyObject *py_arm(PyObject *self, PyObject *args)
{
    unsigned int flags;
    const char *scratch = NULL;
    if (!PyArg_ParseTuple(args, "I|z", &flags, &scratch))
        return NULL;
    lt_guard_set_reporter(report_tamper);
    lt_guard_set_scratch(scratch);
    if (lt_guard_arm(flags, (flags & LT_RUN_CHECK_EQ) != 0) < 0)
        lt__zygote_die("cannot add the audit hook", LT_EPYTHON);
    Py_RETURN_NONE;
}

/* Frames with one string: CALL (a captured call, base64) and RECORD (a
 * JSON record). */
static PyObject *send_text_frame(PyObject *args, int type, size_t cap)
{
    const char *text;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#", &text, &len))
        return NULL;
    if ((size_t)len > cap)
        Py_RETURN_FALSE; /* too large to send: dropped, and the caller knows */
    struct lt_reply f = {.type = type};
    struct lt_reply_text t = {text, (size_t)len};
    if (type == LT_FRAME_CALL)
        f.call = t;
    else
        f.record = t;
    lt__send_reply(lt__zygote.result_fd, &f);
    Py_RETURN_TRUE;
}

static PyObject *py_send_call(PyObject *self, PyObject *args)
{
    return send_text_frame(args, LT_FRAME_CALL, LT_WIRE_MAX_CHILD_FRAME - 64);
}

static PyObject *py_record(PyObject *self, PyObject *args)
{
    return send_text_frame(args, LT_FRAME_RECORD, LT_WIRE_MAX_CHILD_FRAME - 64);
}

static PyObject *py_probe(PyObject *self, PyObject *args)
{
    unsigned int idx;
    int phase;
    if (!PyArg_ParseTuple(args, "Ii", &idx, &phase))
        return NULL;
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_PROBE,
                                      .probe = {idx, (uint8_t)phase}});
    Py_RETURN_NONE;
}

/* _litmus.functions_by_file(objects): the function objects among
 * `objects` (gc.get_objects()), grouped by their code's co_filename, in
 * the order found.  Indexing the subjects walks the zygote's whole heap,
 * a few hundred thousand objects: in C that costs a few milliseconds,
 * in Python tens. */
static PyObject *py_functions_by_file(PyObject *self, PyObject *objects)
{
    (void)self;
    if (!PyList_Check(objects)) {
        PyErr_SetString(PyExc_TypeError, "functions_by_file: a list");
        return NULL;
    }
    PyObject *out = PyDict_New();
    if (!out)
        return NULL;
    PyObject *file = NULL;
    for (Py_ssize_t i = 0; i < PyList_Size(objects); i++) {
        PyObject *obj = PyList_GetItem(objects, i);
        if (!obj || !LT_PY_FUNCTION_CHECK(obj))
            continue;
        PyObject *code = lt_py_function_code_peek(obj); /* borrowed */
        if (!code)
            continue;
        file = PyObject_GetAttrString(code, "co_filename");
        if (!file) {
            PyErr_Clear();
            continue;
        }
        PyObject *group = PyDict_GetItemWithError(out, file);
        if (!group) {
            if (PyErr_Occurred())
                goto fail;
            group = PyList_New(0);
            if (!group)
                goto fail;
            int rc = PyDict_SetItem(out, file, group);
            Py_DECREF(group);
            if (rc < 0)
                goto fail;
        }
        if (PyList_Append(group, obj) < 0)
            goto fail;
        Py_CLEAR(file);
    }
    return out;
fail:
    Py_XDECREF(file);
    Py_DECREF(out);
    return NULL;
}

/*** The module ***/

static PyMethodDef litmus_methods[] = {
    {"ready", py_ready, METH_VARARGS, "Send the collected test ids."},
    {"fail", py_fail, METH_VARARGS,
     "Report a start-up failure (message, cause)."},
    {"serve", py_serve, METH_VARARGS, "Run the fork server loop."},
    {"applied", py_applied, METH_VARARGS, "Report how applying went."},
    {"enter_sandbox", py_enter_sandbox, METH_NOARGS, "Enter the sandbox."},
    {"sandboxed", py_sandboxed, METH_NOARGS,
     "Whether this child is in the sandbox."},
    {"test_needs", py_test_needs, METH_VARARGS,
     "What a baseline test used that only process mode allows."},
    {"test_start", py_test_start, METH_VARARGS, "A test starts."},
    {"test_result", py_test_result, METH_VARARGS, "A test ended."},
    {"guard_set", lt_guard_py_set, METH_VARARGS,
     "Pin the framework's state (zygote)."},
    {"guard_unpin", lt_guard_py_unpin, METH_VARARGS,
     "Let go of pinned entries by name (a child)."},
    {"arm", py_arm, METH_VARARGS, "Arm the guards of an untrusted run."},
    {"tamper", lt_guard_py_tamper, METH_VARARGS, "Report tampering; ends."},
    {"equal_to_anything", lt_guard_py_equal_to_anything, METH_O,
     "True for a value that compares equal to anything."},
    {"send_call", py_send_call, METH_VARARGS, "Send a captured call."},
    {"record", py_record, METH_VARARGS, "Send a JSON record."},
    {"probe", py_probe, METH_VARARGS, "About to evaluate input i."},
    {"functions_by_file", py_functions_by_file, METH_O,
     "Function objects of a list, by co_filename."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef litmus_module = {
    PyModuleDef_HEAD_INIT, "_litmus", "litmus runner bridge", -1,
    litmus_methods, NULL, NULL, NULL, NULL,
};

/* Contract: see zygote_internal.h. */
PyObject *lt__litmus_module_init(void)
{
    PyObject *m = PyModule_Create(&litmus_module);
    if (m && (PyModule_AddFunctions(m, lt__trace_methods) < 0 ||
              PyModule_AddFunctions(m, lt__preimport_methods) < 0))
        Py_CLEAR(m);
    return m;
}
