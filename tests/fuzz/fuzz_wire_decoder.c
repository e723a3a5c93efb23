/* libFuzzer target for the frames the engine reads: bytes fed to
 * lt_wire_decoder in chunks of input-derived sizes, every popped payload
 * decoded as each reply type (lt_reply_decode), as RUN
 * (lt_run_frame_decode) and as INIT (lt_init_frame_decode): the very
 * functions the engine and the zygote call.  An accepted reply (through
 * lt_reply_encode, the encoder the zygote sends with) or RUN must
 * re-encode to the very same payload.
 * SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/frames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An accepted parse re-encoded must be the payload it came from. */
static void check_same(struct lt_wire_writer *w, const uint8_t *p, size_t n)
{
    lt_wire_finish(w);
    if (w->len != n + 5 || memcmp(w->data + 5, p, n) != 0)
        abort();
    lt_wire_writer_free(w);
}

/* A decoded string lies inside the payload and holds no NUL. */
static void check_text(struct lt_reply_text t, const uint8_t *p, size_t n)
{
    if (!t.s)
        return;
    if ((const uint8_t *)t.s < p || (const uint8_t *)t.s + t.len > p + n ||
        memchr(t.s, '\0', t.len))
        abort();
}

static const int reply_types[] = {
    LT_FRAME_APPLIED,  LT_FRAME_SANDBOXED,  LT_FRAME_WORKER,
    LT_FRAME_NEEDS,    LT_FRAME_TEST_START, LT_FRAME_TEST_RESULT,
    LT_FRAME_COVERAGE, LT_FRAME_END,        LT_FRAME_TAMPER,
    LT_FRAME_CALL,     LT_FRAME_RECORD,     LT_FRAME_FAILED,
    LT_FRAME_PROBE,    LT_FRAME_STARTED,    LT_FRAME_EXITED,
    LT_FRAME_CLONED,   LT_FRAME_VIEW,       LT_FRAME_IMPORT_LINES,
    LT_FRAME_READY,
};

/* The payload as one reply type: in-bounds fields, an accepted frame
 * has every field read and re-encodes to itself. */
static void parse_reply(int type, const uint8_t *p, size_t n)
{
    struct lt_reply f;
    int rc = lt_reply_decode(type, p, n, &f);
    if (rc != 0 && rc != LT_EPROTO)
        abort();
    if (f.type != type)
        abort();
    switch (type) {
    case LT_FRAME_APPLIED: check_text(f.applied.text, p, n); break;
    case LT_FRAME_TEST_RESULT: check_text(f.test_result.text, p, n); break;
    case LT_FRAME_TAMPER: check_text(f.tamper, p, n); break;
    case LT_FRAME_CALL: check_text(f.call, p, n); break;
    case LT_FRAME_RECORD: check_text(f.record, p, n); break;
    case LT_FRAME_FAILED: check_text(f.failed.text, p, n); break;
    case LT_FRAME_VIEW:
        check_text(f.view.missing, p, n);
        check_text(f.view.desc, p, n);
        break;
    default: break;
    }
    if (rc < 0)
        return;
    if (!f.fields_read)
        abort();
    struct lt_wire_writer w;
    if (lt_reply_encode(&w, &f) < 0)
        abort();
    check_same(&w, p, n);
}

/* The payload as RUN; an accepted one whose strings hold no NUL (the
 * request carries C strings) re-encodes to itself. */
static void parse_run(const uint8_t *p, size_t n)
{
    struct lt_run_frame q;
    if (lt_run_frame_decode(p, n, &q) < 0)
        return;
    if (memchr(q.repl, '\0', q.repl_len) || memchr(q.extra, '\0', q.extra_len))
        return;
    uint32_t *tests = xcalloc(q.n_tests + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < q.n_tests; i++)
        tests[i] = lt_run_frame_test(&q, i);
    char *repl = xstrndup(q.repl, q.repl_len);
    char *extra = xstrndup(q.extra, q.extra_len);
    struct lt_run_request req = {
        .token = q.token, .mode = (enum lt_run_mode)q.mode,
        .subject = q.subject, .start = q.start, .end = q.end,
        .replacement = repl, .tests = tests, .n_tests = q.n_tests,
        .stop_first = q.stop_first, .cpu_seconds = q.cpu_seconds,
        .memory_bytes = q.memory_bytes, .flags = q.flags, .extra = extra,
        .swap = (const uint8_t *)q.swap, .swap_len = q.swap_len};
    struct lt_wire_writer w;
    lt_run_frame_encode(&w, &req);
    /* stop_first travels as 0 or 1: another byte cannot come back. */
    if (q.stop_first <= 1 && (w.len != n + 5 || memcmp(w.data + 5, p, n)))
        abort();
    lt_wire_writer_free(&w);
    free(tests);
    free(repl);
    free(extra);
}

/* The payload as INIT: accepted or not, it must free cleanly. */
static void parse_init(const uint8_t *p, size_t n)
{
    struct lt_init_frame f;
    int rc = lt_init_frame_decode(p, n, &f);
    if (rc == 0 && (!f.cwd || !f.python || f.python[0] != '/' ||
                    f.sandbox_uid == 0))
        abort();
    lt_init_frame_free(&f);
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
            if (n + 1 > max || p < d.in.buf || p + n > d.in.buf + d.in.len ||
                type < 0 || type > 255)
                abort();
            for (size_t i = 0; i < sizeof(reply_types) / sizeof(int); i++)
                parse_reply(reply_types[i], p, n);
            /* The frame's own type, known or not, as the engine sees it. */
            struct lt_reply f;
            if (lt_reply_decode(type, p, n, &f) == 0 && !f.fields_read)
                abort();
            parse_run(p, n);
            parse_init(p, n);
        }
        if (rc != 0 && rc != LT_EPROTO)
            abort();
        /* With every whole frame popped, less than one frame is left. */
        if (rc == 0 && d.in.len - d.in.start >= 4 + max)
            abort();
    }
    lt_wire_decoder_free(&d);
    return 0;
}
