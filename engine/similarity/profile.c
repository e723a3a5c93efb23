/* The similarity module's own profile (--profile): the clock and the
 * time per phase.  A bottom file: every other file of the module may
 * call it, it calls none of them.
 * SPDX-License-Identifier: MIT */
#include <time.h>

#include "engine/similarity/internal.h"

/* Contract: see internal.h. */
double lt__sim_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Contract: see internal.h. */
void lt__sim_lap(double *prof, enum lt__phase phase, double *t)
{
    if (!prof)
        return;
    double n = lt__sim_now();
    prof[phase] += n - *t;
    *t = n;
}
