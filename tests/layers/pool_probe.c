/* A job file that reaches for core's struct job, on purpose: the ctest
 * layers_job_cannot_include_pool builds it with a job's settings (no
 * LT_CORE_PRIVATE) and passes only when the compile fails on the guard
 * of engine/core/pool.h (engine/CMakeLists.txt).
 * SPDX-License-Identifier: MIT */
#include "engine/core/exec.h"
#include "engine/core/pool.h"

int lt__pool_probe(const struct lt_run_report *r);

int lt__pool_probe(const struct lt_run_report *r)
{
    return lt__job_of(r)->killed_by_us;
}
