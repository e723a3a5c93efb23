/* Allocation that never returns NULL: running out of memory aborts, so
 * callers need no error path for it.  SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_XMALLOC_H
#define LT_COMMON_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh allocation. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list. */
char *xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

#endif
