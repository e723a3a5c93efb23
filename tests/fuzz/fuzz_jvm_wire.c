/* libFuzzer target for the Java workers' answers: bytes fed to
 * lt_jvm_decoder in chunks of input-derived sizes.  Every message it
 * accepts must hold valid names and NUL-terminated values, and the
 * accepted messages re-encoded (lt_jvm_encode, the engine's encoder)
 * must give back exactly the bytes they came from: one spelling per
 * message, nothing skipped.  SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "harness/jvm_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_msg(const struct lt_jvm_msg *m, struct lt_buf *again)
{
    if (m->n > LT_JVM_MAX_FIELDS)
        abort();
    for (size_t i = 0; i < m->n; i++) {
        if (!lt_jvm_name_valid(m->f[i].name) || m->f[i].len > LT_JVM_MAX_MSG ||
            m->f[i].val[m->f[i].len] != '\0')
            abort();
        if (lt_jvm_msg_get(m, m->f[i].name, NULL) == NULL)
            abort();
    }
    lt_jvm_encode(again, m->f, m->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    /* The first byte picks the chunk size: 1..256 bytes per feed. */
    size_t chunk = (size_t)data[0] + 1;
    data++;
    size--;
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    struct lt_buf again = LT_BUF_INIT;
    lt_jvm_decoder_init(&d);
    int bad = 0;
    for (size_t off = 0; off < size && !bad; off += chunk) {
        size_t n = size - off < chunk ? size - off : chunk;
        lt_jvm_decoder_feed(&d, data + off, n);
        int rc;
        while ((rc = lt_jvm_decoder_next(&d, &m)) == 1) {
            check_msg(&m, &again);
            lt_jvm_msg_free(&m);
        }
        if (rc < 0) {
            if (rc != LT_EPROTO)
                abort();
            bad = 1;
        }
    }
    /* What was accepted is a prefix of the input, byte for byte. */
    if (again.len > size || (again.len && memcmp(again.data, data, again.len)))
        abort();
    /* Refused for good. */
    if (bad && (lt_jvm_decoder_feed(&d, "LTJ 0\n", 6),
                lt_jvm_decoder_next(&d, &m) != LT_EPROTO))
        abort();
    lt_buf_free(&again);
    lt_jvm_decoder_free(&d);
    return 0;
}
