/* A growable byte buffer, always NUL-terminated for convenience.
 * SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_BUF_H
#define LT_COMMON_BUF_H

#include <stddef.h>

struct lt_buf {
    char *data; /* NULL until the first append */
    size_t len;
    size_t cap;
};

#define LT_BUF_INIT {NULL, 0, 0}

void lt_buf_append(struct lt_buf *b, const void *p, size_t n);
void lt_buf_puts(struct lt_buf *b, const char *s);
void lt_buf_printf(struct lt_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Hands the bytes to the caller (who frees them) and resets the buffer. */
char *lt_buf_steal(struct lt_buf *b);
void lt_buf_free(struct lt_buf *b);

/* Reads the whole file at `path` into a NUL-terminated heap buffer (the
 * caller frees *out; *len excludes the NUL).  0, -errno when it cannot be
 * opened, or -EIO on a read error. */
int lt_read_file(const char *path, char **out, size_t *len);
/* Writes len bytes at data to a new file at `path` (mode 0644; an
 * existing one is an error, -EEXIST).  0 or -errno. */
int lt_write_file(const char *path, const void *data, size_t len);

#endif
