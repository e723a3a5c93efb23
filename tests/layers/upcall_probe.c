/* A core file that calls up into a job, on purpose: the ctest
 * layers_upcall_fails_to_link builds lt_core_closure_probe from it and
 * passes only when the link fails on this call (engine/CMakeLists.txt).
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

int lt__upcall_probe(void);

int lt__upcall_probe(void)
{
    return lt_score(NULL);
}
