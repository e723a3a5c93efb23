/* The Java workers' wire format (jvm_wire.h): the encoder the engine
 * sends requests with and the incremental decoder that reads a worker's
 * answers, which are hostile input.  SPDX-License-Identifier: MIT */
#include "harness/jvm_wire.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"

#define MAGIC "LTJ "
#define MAGIC_LEN 4
/* Decimal digits of the largest count and length the format allows. */
#define MAX_COUNT_DIGITS 6 /* 100000 */
#define MAX_LEN_DIGITS 8   /* 67108864 */

/*** Encoding ***/

/* Contract: 1 when name is 1 to LT_JVM_MAX_NAME characters of [a-z_]. */
int lt_jvm_name_valid(const char *name)
{
    size_t i = 0;
    for (; name[i]; i++)
        if (i >= LT_JVM_MAX_NAME || !((name[i] >= 'a' && name[i] <= 'z') ||
                                      name[i] == '_'))
            return 0;
    return i > 0;
}

/* Contract: appends one message of the n fields to out.  A bad name or
 * a message over the limits is a bug of the caller (the engine builds
 * its requests from its own names and from capped text): it aborts
 * rather than send what the worker would refuse. */
void lt_jvm_encode(struct lt_buf *out, const struct lt_jvm_field *f,
                   size_t n)
{
    size_t before = out->len;
    if (n > LT_JVM_MAX_FIELDS)
        abort();
    lt_buf_printf(out, "LTJ %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        if (!lt_jvm_name_valid(f[i].name) || f[i].len > LT_JVM_MAX_MSG)
            abort();
        lt_buf_printf(out, "%s %zu\n", f[i].name, f[i].len);
        lt_buf_append(out, f[i].val, f[i].len);
        lt_buf_append(out, "\n", 1);
        if (out->len - before > LT_JVM_MAX_MSG)
            abort();
    }
}

/*** Decoding ***/

/* Contract: an empty decoder; lt_jvm_decoder_free() releases it. */
void lt_jvm_decoder_init(struct lt_jvm_decoder *d)
{
    memset(d, 0, sizeof(*d));
    lt_framebuf_init(&d->in);
    d->nfields = -1;
}

/* Contract: appends bytes read from the worker.  Bytes fed after the
 * stream turned out malformed are dropped. */
void lt_jvm_decoder_feed(struct lt_jvm_decoder *d, const void *p, size_t n)
{
    if (d->bad)
        return;
    d->pos -= lt_framebuf_feed(&d->in, p, n);
}

/* Parses a decimal number of at most `digits` digits ending in '\n' at
 * *at, no leading zero, at most `max`.  1 parsed (*at past the '\n'), 0
 * need more bytes, -1 malformed. */
static int parse_number(const struct lt_jvm_decoder *d, size_t *at,
                        int digits, size_t max, size_t *out)
{
    size_t v = 0;
    size_t p = *at;
    for (int i = 0;; i++, p++) {
        if (p >= d->in.len)
            return i > digits ? -1 : 0;
        char c = (char)d->in.buf[p];
        if (c == '\n') {
            if (i == 0)
                return -1;
            break;
        }
        if (c < '0' || c > '9' || i >= digits)
            return -1;
        if (i == 1 && d->in.buf[p - 1] == '0')
            return -1; /* leading zero: one spelling per number */
        v = v * 10 + (size_t)(c - '0');
    }
    if (v > max)
        return -1;
    *out = v;
    *at = p + 1;
    return 1;
}

/* The header at d->in.start: 1 parsed, 0 need more, -1 malformed. */
static int parse_header(struct lt_jvm_decoder *d)
{
    size_t have = d->in.len - d->in.start;
    size_t cmp = have < MAGIC_LEN ? have : MAGIC_LEN;
    if (memcmp(d->in.buf + d->in.start, MAGIC, cmp) != 0)
        return -1;
    if (have < MAGIC_LEN)
        return 0;
    size_t at = d->in.start + MAGIC_LEN;
    size_t n;
    int rc = parse_number(d, &at, MAX_COUNT_DIGITS, LT_JVM_MAX_FIELDS, &n);
    if (rc <= 0)
        return rc;
    d->nfields = (long)n;
    d->done = 0;
    d->pos = at;
    if (d->offs_cap < 4 * n) {
        free(d->offs);
        d->offs_cap = 4 * n;
        d->offs = xmalloc((d->offs_cap ? d->offs_cap : 1) * sizeof(size_t));
    }
    return 1;
}

/* The field at d->pos: 1 parsed (recorded, pos past it), 0 need more,
 * -1 malformed. */
static int parse_field(struct lt_jvm_decoder *d)
{
    size_t at = d->pos;
    size_t name = at;
    for (;; at++) {
        if (at >= d->in.len)
            return at - name > LT_JVM_MAX_NAME ? -1 : 0;
        char c = (char)d->in.buf[at];
        if (c == ' ')
            break;
        if (!((c >= 'a' && c <= 'z') || c == '_') ||
            at - name >= LT_JVM_MAX_NAME)
            return -1;
    }
    size_t name_len = at - name;
    if (name_len == 0)
        return -1;
    at++;
    size_t vlen;
    int rc = parse_number(d, &at, MAX_LEN_DIGITS, LT_JVM_MAX_MSG, &vlen);
    if (rc <= 0)
        return rc;
    /* The whole message, this value and its '\n' included, within the
     * cap. */
    rc = lt_framebuf_has(&d->in, at, vlen + 1, LT_JVM_MAX_MSG);
    if (rc <= 0)
        return rc < 0 ? -1 : 0;
    if (d->in.buf[at + vlen] != '\n')
        return -1;
    size_t *o = d->offs + 4 * d->done;
    o[0] = name - d->in.start;
    o[1] = name_len;
    o[2] = at - d->in.start;
    o[3] = vlen;
    d->done++;
    d->pos = at + vlen + 1;
    return 1;
}

/* Contract: 1 and *m filled with the next whole message (the caller
 * frees it with lt_jvm_msg_free()), 0 when more bytes are needed, or
 * LT_EPROTO when the stream is malformed (and stays so: the caller must
 * drop the worker). */
int lt_jvm_decoder_next(struct lt_jvm_decoder *d, struct lt_jvm_msg *m)
{
    memset(m, 0, sizeof(*m));
    if (d->bad)
        return LT_EPROTO;
    if (d->in.start >= d->in.len)
        return 0;
    int rc = 1;
    if (d->nfields < 0)
        rc = parse_header(d);
    while (rc == 1 && d->done < (size_t)d->nfields)
        rc = parse_field(d);
    if (rc < 0) {
        d->bad = 1;
        return LT_EPROTO;
    }
    if (rc == 0)
        return 0;

    size_t total = d->pos - d->in.start;
    m->storage = xmalloc(total + 1);
    memcpy(m->storage, d->in.buf + d->in.start, total);
    m->storage[total] = '\0';
    m->n = d->done;
    m->f = xcalloc(m->n ? m->n : 1, sizeof(*m->f));
    for (size_t i = 0; i < m->n; i++) {
        const size_t *o = d->offs + 4 * i;
        m->storage[o[0] + o[1]] = '\0'; /* the space after the name */
        m->storage[o[2] + o[3]] = '\0'; /* the '\n' after the value */
        m->f[i].name = m->storage + o[0];
        m->f[i].val = m->storage + o[2];
        m->f[i].len = o[3];
    }
    d->in.start = d->pos;
    d->nfields = -1;
    d->done = 0;
    return 1;
}

/* Contract: releases the decoder's buffers; it may be init'ed again. */
void lt_jvm_decoder_free(struct lt_jvm_decoder *d)
{
    lt_framebuf_free(&d->in);
    free(d->offs);
    lt_jvm_decoder_init(d);
}

/* Contract: the value of the first field named `name` (NUL-terminated;
 * *len its length when len is not NULL), or NULL when there is none.
 * Points into m. */
const char *lt_jvm_msg_get(const struct lt_jvm_msg *m, const char *name,
                           size_t *len)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->f[i].name, name) == 0) {
            if (len)
                *len = m->f[i].len;
            return m->f[i].val;
        }
    return NULL;
}

/* Contract: frees what the decoder gave m; accepts a zeroed message. */
void lt_jvm_msg_free(struct lt_jvm_msg *m)
{
    free(m->f);
    free(m->storage);
    memset(m, 0, sizeof(*m));
}
