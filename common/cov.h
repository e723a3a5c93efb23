/* Coverage counts of litmus's own C code (gcov): a flush for processes
 * that end with _exit() and so never reach libgcov's exit handler.
 * SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_COV_H
#define LT_COMMON_COV_H

/* Writes this process's gcov counts to the .gcda files and zeroes them,
 * so a later flush adds only what ran since.  Only a process that can
 * still write the build tree (not sandboxed, not inside a file-system
 * view) may call it.  A no-op unless built with LT_COVERAGE. */
void lt_cov_flush(void);

#endif
