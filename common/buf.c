/* Growable byte buffer.  SPDX-License-Identifier: MIT */

#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"

static void reserve(struct lt_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void lt_buf_append(struct lt_buf *b, const void *p, size_t n)
{
    reserve(b, n);
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void lt_buf_puts(struct lt_buf *b, const char *s)
{
    lt_buf_append(b, s, strlen(s));
}

void lt_buf_printf(struct lt_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    lt_buf_append(b, s, (size_t)n);
    free(s);
}

char *lt_buf_steal(struct lt_buf *b)
{
    if (!b->data)
        lt_buf_append(b, "", 0);
    char *p = b->data;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void lt_buf_free(struct lt_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int lt_read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    struct lt_buf b = LT_BUF_INIT;
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
        lt_buf_append(&b, chunk, k);
    int err = ferror(f);
    fclose(f);
    if (err) {
        lt_buf_free(&b);
        return -EIO;
    }
    *len = b.len;
    *out = lt_buf_steal(&b);
    return 0;
}

/* Contract: see buf.h. */
int lt_write_file(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return -errno;
    const char *p = data;
    while (len > 0) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int err = k < 0 ? errno : EIO;
            close(fd);
            return -err;
        }
        p += k;
        len -= (size_t)k;
    }
    return close(fd) < 0 ? -errno : 0;
}
