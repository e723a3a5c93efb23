/* stderr logging.  SPDX-License-Identifier: MIT */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int current_level = -1;

void lt_log_set_level(enum lt_log_level level)
{
    current_level = (int)level;
}

enum lt_log_level lt_log_get_level(void)
{
    if (current_level < 0) {
        const char *d = getenv("LITMUS_DEBUG");
        current_level = (d && *d && strcmp(d, "0") != 0) ? LT_LOG_DEBUG
                                                         : LT_LOG_WARN;
    }
    return (enum lt_log_level)current_level;
}

void lt_log(enum lt_log_level level, const char *fmt, ...)
{
    int saved = errno;
    if ((int)level <= (int)lt_log_get_level()) {
        static const char *const names[] = {"error: ", "warning: ", "", ""};
        char line[2048];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof(line), fmt, ap);
        va_end(ap);
        fprintf(stderr, "litmus: %s%s\n", names[level], line);
    }
    errno = saved;
}
