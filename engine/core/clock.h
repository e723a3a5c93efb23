/* The engine's clock and memory readings (engine/core/clock.c).
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_CLOCK_H
#define LT_ENGINE_CORE_CLOCK_H

#include <sys/types.h>

/* Monotonic seconds. */
double lt__now(void);
/* The peak resident set of a process (0: this one) in KiB. */
long lt__peak_rss_kb(pid_t pid);

#endif
