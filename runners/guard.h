/* Guards of an untrusted run; see guard.c.  Private to runners/.
 * SPDX-License-Identifier: MIT */
#ifndef LT_RUNNERS_GUARD_H
#define LT_RUNNERS_GUARD_H

#include "common/pyabi.h"

/* Sends the TAMPER frame; called once, just before the child ends. */
typedef void (*lt_guard_report_fn)(const char *what);
void lt_guard_set_reporter(lt_guard_report_fn fn);

/* Arms the guards in a child: the audit hook, and the always-equal
 * profiler when check_eq.  0, or -1 when the hook cannot be added. */
int lt_guard_arm(unsigned flags, int check_eq);

/* The child's own scratch folder (or NULL): a module, a conftest.py or
 * an ini file written there is a test's own temporary project (pytest's
 * pytester, a documentation tool's test roots), which steers no session
 * of this run; sitecustomize, usercustomize and .pth files stay guarded
 * everywhere. */
void lt_guard_set_scratch(const char *dir);
int lt_guard_armed(void);
unsigned lt_guard_flags(void);

/* Compares the integrity snapshot; fires (never returns) on a change. */
void lt_guard_check(void);

PyObject *lt_guard_py_set(PyObject *self, PyObject *args);
PyObject *lt_guard_py_unpin(PyObject *self, PyObject *args);
PyObject *lt_guard_py_tamper(PyObject *self, PyObject *args);
PyObject *lt_guard_py_equal_to_anything(PyObject *self, PyObject *arg);

#endif
