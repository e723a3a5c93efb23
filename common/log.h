/* Messages to stderr, prefixed with "litmus: ".  They save and restore
 * errno so a caller can log before it looks at errno.
 * SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_LOG_H
#define LT_COMMON_LOG_H

enum lt_log_level { LT_LOG_ERROR, LT_LOG_WARN, LT_LOG_INFO, LT_LOG_DEBUG };

/* Messages above this level are dropped; LT_LOG_WARN by default,
 * LT_LOG_DEBUG when the environment has LITMUS_DEBUG=1. */
void lt_log_set_level(enum lt_log_level level);
enum lt_log_level lt_log_get_level(void);
void lt_log(enum lt_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define lt_error(...) lt_log(LT_LOG_ERROR, __VA_ARGS__)
#define lt_warn(...) lt_log(LT_LOG_WARN, __VA_ARGS__)
#define lt_info(...) lt_log(LT_LOG_INFO, __VA_ARGS__)
#define lt_debug(...) lt_log(LT_LOG_DEBUG, __VA_ARGS__)

#endif
