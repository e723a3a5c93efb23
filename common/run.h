/* Running a helper program (git, patch) and capturing what it prints.
 * SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_RUN_H
#define LT_COMMON_RUN_H

#include <stddef.h>

/* Runs argv[0] (looked up in PATH) with the arguments argv[1..], in
 * directory cwd (NULL: this one), its standard input from the file
 * stdin_path (NULL: closed), no pager and no prompt.  *out and *err get
 * what it printed (heap, NUL-terminated, each cut at cap bytes; either
 * pointer may be NULL to discard).  Returns its exit status (0..255),
 * 128 + the signal that ended it, or a negative code when it could not
 * run. */
int lt_run_capture(char *const argv[], const char *cwd,
                   const char *stdin_path, size_t cap, char **out,
                   char **err);

#endif
