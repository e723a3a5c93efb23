/* Private to the runners module.  SPDX-License-Identifier: MIT */
#ifndef LT_RUNNERS_INTERNAL_H
#define LT_RUNNERS_INTERNAL_H

#include "common/pyabi.h"

/* The embedded litmus_codediff module, imported once per process. */
PyObject *lt__codediff_module(void);

#endif
