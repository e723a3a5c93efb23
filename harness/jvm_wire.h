/* The wire format between litmus and its Java workers: a message is
 * "LTJ <nfields>\n" then, per field, "<name> <nbytes>\n<bytes>\n".
 * Names are [a-z_]+, at most 32 characters; a message holds at most
 * LT_JVM_MAX_FIELDS fields and LT_JVM_MAX_MSG bytes in all.  Everything a
 * worker sends is hostile: the decoder refuses, never repairs.
 * runners/java/Wire.java is the Java mirror.  SPDX-License-Identifier: MIT */
#ifndef LT_HARNESS_JVM_WIRE_H
#define LT_HARNESS_JVM_WIRE_H

#include <stddef.h>

#include "common/buf.h"
#include "harness/framebuf.h"

#define LT_JVM_MAX_FIELDS 100000u
#define LT_JVM_MAX_MSG (64u << 20)
#define LT_JVM_MAX_NAME 32u

struct lt_jvm_field {
    const char *name; /* NUL-terminated */
    const char *val;  /* len bytes; in a decoded message also followed by
                         a NUL (the value itself may hold NULs) */
    size_t len;
};

/* One decoded message: f[0..n) point into storage the message owns. */
struct lt_jvm_msg {
    size_t n;
    struct lt_jvm_field *f;
    char *storage;
};

/* An incremental decoder: bytes in as they arrive, whole messages out. */
struct lt_jvm_decoder {
    struct lt_framebuf in; /* start: the message being parsed */
    size_t pos;        /* offset parsed up to (absolute in in.buf) */
    long nfields;      /* from the header; -1 until it is parsed */
    size_t done;       /* fields parsed so far */
    size_t *offs;      /* per parsed field: name, name len, value, len */
    size_t offs_cap;
    int bad;           /* malformed: every next call fails */
};

void lt_jvm_encode(struct lt_buf *out, const struct lt_jvm_field *f,
                   size_t n);
int lt_jvm_name_valid(const char *name);

void lt_jvm_decoder_init(struct lt_jvm_decoder *d);
void lt_jvm_decoder_feed(struct lt_jvm_decoder *d, const void *p, size_t n);
int lt_jvm_decoder_next(struct lt_jvm_decoder *d, struct lt_jvm_msg *m);
void lt_jvm_decoder_free(struct lt_jvm_decoder *d);

const char *lt_jvm_msg_get(const struct lt_jvm_msg *m, const char *name,
                           size_t *len);
void lt_jvm_msg_free(struct lt_jvm_msg *m);

#endif
