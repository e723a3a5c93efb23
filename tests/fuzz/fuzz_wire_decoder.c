/* libFuzzer target for the engine's side of a child's result pipe: bytes
 * fed to lt_wire_decoder in chunks of input-derived sizes, every popped
 * frame parsed with each field pattern the engine uses (and STARTED of
 * the zygote channel).  An accepted parse must re-encode to the very same
 * payload.
 * SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "harness/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The engine's cap on the number of test ids in READY. */
#define MAX_TEST_IDS 1000000u

/* An accepted parse re-encoded must be the payload it came from. */
static void check_same(struct lt_wire_writer *w, const uint8_t *p, size_t n)
{
    lt_wire_finish(w);
    if (w->len != n + 5 || memcmp(w->data + 5, p, n) != 0)
        abort();
    lt_wire_writer_free(w);
}

/* APPLIED: u8 status + str text. */
static void parse_applied(const uint8_t *p, size_t n)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, n);
    uint8_t status = lt_wire_get_u8(&r);
    char *text = lt_wire_get_strdup(&r);
    if ((text == NULL) != (r.bad != 0))
        abort();
    if (lt_wire_reader_done(&r) == 0) {
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_APPLIED);
        lt_wire_put_u8(&w, status);
        lt_wire_put_cstr(&w, text);
        check_same(&w, p, n);
    }
    free(text);
}

/* SANDBOXED and TEST_START: one u32. */
static void parse_u32(const uint8_t *p, size_t n)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, n);
    uint32_t v = lt_wire_get_u32(&r);
    if ((lt_wire_reader_done(&r) == 0) != (n == 4))
        abort();
    if (n == 4) {
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_TEST_START);
        lt_wire_put_u32(&w, v);
        check_same(&w, p, n);
    }
}

/* TEST_RESULT: u32 index, u8 outcome, u64 ns, u64 cpu ns, str text. */
static void parse_test_result(const uint8_t *p, size_t n)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, n);
    uint32_t idx = lt_wire_get_u32(&r);
    uint8_t outcome = lt_wire_get_u8(&r);
    uint64_t ns = lt_wire_get_u64(&r);
    uint64_t cpu_ns = lt_wire_get_u64(&r);
    char *text = lt_wire_get_strdup(&r);
    if (lt_wire_reader_done(&r) == 0) {
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_TEST_RESULT);
        lt_wire_put_u32(&w, idx);
        lt_wire_put_u8(&w, outcome);
        lt_wire_put_u64(&w, ns);
        lt_wire_put_u64(&w, cpu_ns);
        lt_wire_put_cstr(&w, text);
        check_same(&w, p, n);
    }
    free(text);
}

/* READY: u32 features, u32 count, count strings. */
static void parse_ready(const uint8_t *p, size_t n)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, n);
    uint32_t features = lt_wire_get_u32(&r);
    uint32_t count = lt_wire_get_u32(&r);
    if (r.bad || count > MAX_TEST_IDS)
        return;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_READY);
    lt_wire_put_u32(&w, features);
    lt_wire_put_u32(&w, count);
    /* Each string takes at least 4 bytes, so a bad reader ends the loop
     * long before a hostile count could. */
    for (uint32_t i = 0; i < count && !r.bad; i++) {
        char *id = lt_wire_get_strdup(&r);
        if (id)
            lt_wire_put_cstr(&w, id);
        free(id);
    }
    if (lt_wire_reader_done(&r) == 0)
        check_same(&w, p, n);
    else
        lt_wire_writer_free(&w);
}

/* EXITED: u64 token, u32 status, six u64 of resource usage. */
static void parse_exited(const uint8_t *p, size_t n)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, n);
    uint64_t token = lt_wire_get_u64(&r);
    uint32_t status = lt_wire_get_u32(&r);
    uint64_t u[6];
    for (int i = 0; i < 6; i++)
        u[i] = lt_wire_get_u64(&r);
    if (lt_wire_reader_done(&r) == 0) {
        if (n != 8 + 4 + 48)
            abort();
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_EXITED);
        lt_wire_put_u64(&w, token);
        lt_wire_put_u32(&w, status);
        for (int i = 0; i < 6; i++)
            lt_wire_put_u64(&w, u[i]);
        check_same(&w, p, n);
    }
}

/* STARTED (zygote channel, same reader): u64 token, u32 pid, u32 errno. */
static void parse_started(const uint8_t *p, size_t n)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, n);
    uint64_t token = lt_wire_get_u64(&r);
    uint32_t pid = lt_wire_get_u32(&r);
    uint32_t err = lt_wire_get_u32(&r);
    if ((lt_wire_reader_done(&r) == 0) != (n == 16))
        abort();
    if (n == 16) {
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_STARTED);
        lt_wire_put_u64(&w, token);
        lt_wire_put_u32(&w, pid);
        lt_wire_put_u32(&w, err);
        check_same(&w, p, n);
    }
}

/* FNV-1a of the input seeds the chunk sizes, so they follow the input. */
static uint64_t seed_of(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    return h | 1;
}

static size_t next_chunk(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    switch (*s % 4) {
    case 0: return 1;                   /* a byte at a time */
    case 1: return 1 + (*s >> 8) % 8;   /* inside a header */
    case 2: return 1 + (*s >> 8) % 64;  /* a frame or two */
    default: return 1 + (*s >> 8) % 8192; /* a whole read() */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A small cap as well as the child cap, so both limits are hit. */
    size_t max = (size && (data[0] & 1)) ? 256 : LT_WIRE_MAX_CHILD_FRAME;
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, max);
    uint64_t s = seed_of(data, size);
    size_t off = 0;
    int rc = 0;
    while (off < size && rc >= 0) {
        size_t k = next_chunk(&s);
        if (k > size - off)
            k = size - off;
        if ((s & 0xf00) == 0)
            lt_wire_decoder_feed(&d, data + off, 0); /* read() gave 0 */
        lt_wire_decoder_feed(&d, data + off, k);
        off += k;
        int type;
        const uint8_t *p;
        size_t n;
        while ((rc = lt_wire_decoder_pop(&d, &type, &p, &n)) == 1) {
            if (n + 1 > max || p < d.buf || p + n > d.buf + d.len ||
                type < 0 || type > 255)
                abort();
            parse_applied(p, n);
            parse_u32(p, n);
            parse_test_result(p, n);
            parse_ready(p, n);
            parse_exited(p, n);
            parse_started(p, n);
        }
        if (rc != 0 && rc != LT_EPROTO)
            abort();
        /* With every whole frame popped, less than one frame is left. */
        if (rc == 0 && d.len >= 4 + max)
            abort();
    }
    lt_wire_decoder_free(&d);
    return 0;
}
