/* The clock and the resource figures the engine reads for itself and its
 * zygotes: every job's timings and run figures come from here.
 * SPDX-License-Identifier: MIT */
#include "engine/core/clock.h"

#include <stdio.h>
#include <time.h>

double lt__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Peak resident set of a process (0: this one) in KiB, from VmHWM. */
long lt__peak_rss_kb(pid_t pid)
{
    char path[64];
    if (pid > 0)
        snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    else
        snprintf(path, sizeof(path), "/proc/self/status");
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    long kb = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}
