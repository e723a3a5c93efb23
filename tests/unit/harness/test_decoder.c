/* Unit tests of the incremental decoder that reads a child's result pipe:
 * frames arriving a byte at a time, many at once, split anywhere, and the
 * refusal of oversized and zero-length frames.
 * SPDX-License-Identifier: MIT */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/wire.h"

/* A stream of three frames: TEST_START(5), TEST_RESULT(5, FAILED, ns,
 * text) and END. */
struct stream {
    uint8_t *data;
    size_t len;
    size_t ends[3]; /* offset just past each frame */
};

static void append_frame(struct stream *s, struct lt_wire_writer *w)
{
    lt_wire_finish(w);
    s->data = xrealloc(s->data, s->len + w->len);
    memcpy(s->data + s->len, w->data, w->len);
    s->len += w->len;
    lt_wire_writer_free(w);
}

static void make_stream(struct stream *s)
{
    memset(s, 0, sizeof(*s));
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_TEST_START);
    lt_wire_put_u32(&w, 5);
    append_frame(s, &w);
    s->ends[0] = s->len;
    lt_wire_writer_init(&w, LT_FRAME_TEST_RESULT);
    lt_wire_put_u32(&w, 5);
    lt_wire_put_u8(&w, LT_TEST_FAILED);
    lt_wire_put_u64(&w, 123456789ull);
    lt_wire_put_cstr(&w, "AssertionError: 2 != 3");
    append_frame(s, &w);
    s->ends[1] = s->len;
    lt_wire_writer_init(&w, LT_FRAME_END);
    append_frame(s, &w);
    s->ends[2] = s->len;
}

/* Pops one frame and checks it is frame `i` of make_stream. */
static void expect_frame(struct lt_wire_decoder *d, int i)
{
    int type = -1;
    const uint8_t *p = NULL;
    size_t len = 99;
    assert_int_equal(lt_wire_decoder_pop(d, &type, &p, &len), 1);
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, p, len);
    switch (i) {
    case 0:
        assert_int_equal(type, LT_FRAME_TEST_START);
        assert_int_equal(lt_wire_get_u32(&r), 5);
        break;
    case 1: {
        assert_int_equal(type, LT_FRAME_TEST_RESULT);
        assert_int_equal(lt_wire_get_u32(&r), 5);
        assert_int_equal(lt_wire_get_u8(&r), LT_TEST_FAILED);
        assert_true(lt_wire_get_u64(&r) == 123456789ull);
        char *t = lt_wire_get_strdup(&r);
        assert_string_equal(t, "AssertionError: 2 != 3");
        free(t);
        break;
    }
    case 2:
        assert_int_equal(type, LT_FRAME_END);
        assert_int_equal(len, 0);
        break;
    default:
        fail();
    }
    assert_int_equal(lt_wire_reader_done(&r), 0);
}

static void expect_none(struct lt_wire_decoder *d)
{
    int type;
    const uint8_t *p;
    size_t len;
    assert_int_equal(lt_wire_decoder_pop(d, &type, &p, &len), 0);
}

static void test_empty_decoder(void **state)
{
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    expect_none(&d);
    lt_wire_decoder_free(&d);
    lt_wire_decoder_free(&d); /* twice is harmless */
}

/* One byte per feed; a frame pops exactly when its last byte arrives. */
static void test_one_byte_at_a_time(void **state)
{
    struct stream s;
    make_stream(&s);
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    int next = 0;
    for (size_t i = 0; i < s.len; i++) {
        lt_wire_decoder_feed(&d, s.data + i, 1);
        if (i + 1 == s.ends[next])
            expect_frame(&d, next++);
        expect_none(&d);
    }
    assert_int_equal(next, 3);
    lt_wire_decoder_free(&d);
    free(s.data);
}

static void test_several_frames_one_feed(void **state)
{
    struct stream s;
    make_stream(&s);
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    lt_wire_decoder_feed(&d, s.data, s.len);
    for (int i = 0; i < 3; i++)
        expect_frame(&d, i);
    expect_none(&d);
    expect_none(&d);
    /* The same stream again, after the buffer was drained. */
    lt_wire_decoder_feed(&d, s.data, s.len);
    for (int i = 0; i < 3; i++)
        expect_frame(&d, i);
    expect_none(&d);
    lt_wire_decoder_free(&d);
    free(s.data);
}

/* Every split point of the stream into two feeds. */
static void test_split_across_feeds(void **state)
{
    struct stream s;
    make_stream(&s);
    for (size_t cut = 0; cut <= s.len; cut++) {
        struct lt_wire_decoder d;
        lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
        lt_wire_decoder_feed(&d, s.data, cut);
        int next = 0;
        while (next < 3 && s.ends[next] <= cut)
            expect_frame(&d, next++);
        expect_none(&d);
        lt_wire_decoder_feed(&d, s.data + cut, s.len - cut);
        while (next < 3)
            expect_frame(&d, next++);
        expect_none(&d);
        lt_wire_decoder_free(&d);
    }
    free(s.data);
}

/* A payload pointer stays valid and unchanged until the next pop or
 * feed, even while further frames wait behind it. */
static void test_payload_lifetime(void **state)
{
    struct stream s;
    make_stream(&s);
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    lt_wire_decoder_feed(&d, s.data, s.ends[1] + 2); /* part of END too */
    int type;
    const uint8_t *p;
    size_t len;
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), 1);
    assert_int_equal(type, LT_FRAME_TEST_START);
    assert_int_equal(len, 4);
    assert_memory_equal(p, s.data + 5, 4);
    /* Other work in between does not disturb it. */
    char *junk = xasprintf("%0512d", 0);
    free(junk);
    assert_memory_equal(p, s.data + 5, 4);

    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), 1);
    assert_int_equal(type, LT_FRAME_TEST_RESULT);
    assert_int_equal(len, s.ends[1] - s.ends[0] - 5);
    uint8_t *copy = xmalloc(len);
    memcpy(copy, p, len);
    assert_memory_equal(p, s.data + s.ends[0] + 5, len);
    /* A pop that finds nothing leaves the contents intact... */
    expect_none(&d);
    /* ...and so does a feed, as far as the new frame is concerned. */
    lt_wire_decoder_feed(&d, s.data + s.ends[1] + 2, s.len - s.ends[1] - 2);
    expect_frame(&d, 2);
    expect_none(&d);
    free(copy);
    lt_wire_decoder_free(&d);
    free(s.data);
}

/* Oversized: refused as soon as the length is in, before any payload. */
static void test_oversized(void **state)
{
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, 64);
    uint8_t h[5];
    test_put_header(h, 65, LT_FRAME_TEST_RESULT);
    lt_wire_decoder_feed(&d, h, 3);
    expect_none(&d);
    lt_wire_decoder_feed(&d, h + 3, 1);
    int type;
    const uint8_t *p;
    size_t len;
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), LT_EPROTO);
    /* And it stays refused. */
    lt_wire_decoder_feed(&d, h + 4, 1);
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), LT_EPROTO);
    lt_wire_decoder_free(&d);

    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    test_put_header(h, UINT32_MAX, LT_FRAME_TEST_RESULT);
    lt_wire_decoder_feed(&d, h, 5);
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), LT_EPROTO);
    lt_wire_decoder_free(&d);

    /* After a good frame, too. */
    lt_wire_decoder_init(&d, 64);
    uint8_t two[10];
    test_put_header(two, 1, LT_FRAME_END);
    test_put_header(two + 5, 1000, LT_FRAME_TEST_RESULT);
    lt_wire_decoder_feed(&d, two, sizeof(two));
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), 1);
    assert_int_equal(type, LT_FRAME_END);
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), LT_EPROTO);
    lt_wire_decoder_free(&d);
}

/* A frame of exactly `max` bytes is fine; one more is refused. */
static void test_at_max(void **state)
{
    enum { MAX = 32 };
    uint8_t f[4 + MAX];
    test_put_header(f, MAX, LT_FRAME_APPLIED);
    memset(f + 5, 'q', MAX - 1);
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, MAX);
    lt_wire_decoder_feed(&d, f, sizeof(f));
    int type;
    const uint8_t *p;
    size_t len;
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), 1);
    assert_int_equal(type, LT_FRAME_APPLIED);
    assert_int_equal(len, MAX - 1);
    assert_memory_equal(p, f + 5, MAX - 1);
    lt_wire_decoder_free(&d);

    lt_wire_decoder_init(&d, MAX - 1);
    lt_wire_decoder_feed(&d, f, sizeof(f));
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), LT_EPROTO);
    lt_wire_decoder_free(&d);
}

static void test_zero_length(void **state)
{
    uint8_t z[4] = {0, 0, 0, 0};
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    lt_wire_decoder_feed(&d, z, sizeof(z));
    int type;
    const uint8_t *p;
    size_t len;
    assert_int_equal(lt_wire_decoder_pop(&d, &type, &p, &len), LT_EPROTO);
    lt_wire_decoder_free(&d);
}

/* A feed of nothing changes nothing. */
static void test_empty_feed(void **state)
{
    struct stream s;
    make_stream(&s);
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    lt_wire_decoder_feed(&d, s.data, 0);
    expect_none(&d);
    lt_wire_decoder_feed(&d, s.data, s.ends[0]);
    lt_wire_decoder_feed(&d, s.data, 0);
    expect_frame(&d, 0);
    lt_wire_decoder_feed(&d, s.data, 0);
    expect_none(&d);
    lt_wire_decoder_free(&d);
    free(s.data);
}

/* A long stream of frames in ragged chunks: the buffer neither loses
 * frames nor grows without bound while frames are being popped. */
static void test_long_stream(void **state)
{
    struct stream s;
    make_stream(&s);
    struct lt_wire_decoder d;
    lt_wire_decoder_init(&d, LT_WIRE_MAX_CHILD_FRAME);
    size_t total = 0, cap_max = 0;
    int next = 0, popped = 0;
    for (int round = 0; round < 2000; round++) {
        size_t chunk = 1 + (size_t)(round * 7) % 23;
        for (size_t off = 0; off < s.len; off += chunk) {
            size_t n = s.len - off < chunk ? s.len - off : chunk;
            lt_wire_decoder_feed(&d, s.data + off, n);
            total += n;
            int type;
            const uint8_t *p;
            size_t len;
            while (lt_wire_decoder_pop(&d, &type, &p, &len) == 1) {
                static const int types[] = {LT_FRAME_TEST_START,
                                            LT_FRAME_TEST_RESULT,
                                            LT_FRAME_END};
                assert_int_equal(type, types[next]);
                next = (next + 1) % 3;
                popped++;
            }
            if (d.in.cap > cap_max)
                cap_max = d.in.cap;
        }
    }
    assert_int_equal(popped, 6000);
    assert_int_equal(total, 2000 * s.len);
    assert_true(cap_max <= 1024);
    lt_wire_decoder_free(&d);
    free(s.data);
}

const struct CMUnitTest decoder_tests[] = {
    LT_TEST(test_empty_decoder),
    LT_TEST(test_one_byte_at_a_time),
    LT_TEST(test_several_frames_one_feed),
    LT_TEST(test_split_across_feeds),
    LT_TEST(test_payload_lifetime),
    LT_TEST(test_oversized),
    LT_TEST(test_at_max),
    LT_TEST(test_zero_length),
    LT_TEST(test_empty_feed),
    LT_TEST(test_long_stream),
};
const size_t decoder_ntests = sizeof(decoder_tests) / sizeof(decoder_tests[0]);
