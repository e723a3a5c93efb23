/* The engine's own executable, which the zygotes re-execute (set once by
 * main(); read by every job that starts runners).
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_EXE_H
#define LT_ENGINE_CORE_EXE_H

/* Resolves the litmus binary for re-execution as a zygote; path must
 * outlive the run. */
void lt_engine_set_exe(const char *path);

/* The path lt_engine_set_exe() set, or "/proc/self/exe". */
const char *lt__engine_exe(void);

#endif
