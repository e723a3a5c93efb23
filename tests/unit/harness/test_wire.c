/* Unit tests of the frame writer and the payload reader: exact bytes on
 * the wire, round trips of every field type, and the reader's refusal of
 * anything short, long or with NUL in a string.
 * SPDX-License-Identifier: MIT */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "harness/wire.h"

/* The payload of a finished frame (after length and type). */
static void payload_of(const struct lt_wire_writer *w,
                       struct lt_wire_reader *r)
{
    assert_true(w->len >= 5);
    lt_wire_reader_init(r, w->data + 5, w->len - 5);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* An empty frame is a length of 1 (the type byte) and the type. */
static void test_empty_frame_bytes(void **state)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_END);
    lt_wire_finish(&w);
    static const uint8_t want[] = {1, 0, 0, 0, LT_FRAME_END};
    assert_int_equal(w.len, sizeof(want));
    assert_memory_equal(w.data, want, sizeof(want));
    lt_wire_writer_free(&w);
    assert_null(w.data);
    assert_int_equal(w.len, 0);
}

/* Little-endian integers and u32-length strings, byte for byte. */
static void test_field_bytes(void **state)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_TEST_RESULT);
    lt_wire_put_u8(&w, 0xab);
    lt_wire_put_u32(&w, 0x04030201u);
    lt_wire_put_u64(&w, 0x0807060504030201ull);
    lt_wire_put_str(&w, "xyz", 3);
    lt_wire_finish(&w);
    static const uint8_t want[] = {
        21, 0, 0, 0, LT_FRAME_TEST_RESULT,
        0xab,
        1, 2, 3, 4,
        1, 2, 3, 4, 5, 6, 7, 8,
        3, 0, 0, 0, 'x', 'y', 'z',
    };
    assert_int_equal(w.len, sizeof(want));
    assert_memory_equal(w.data, want, sizeof(want));
    assert_int_equal(le32(w.data), w.len - 4);
    lt_wire_writer_free(&w);
}

/* Every field type, with its extremes, comes back as it went in. */
static void test_roundtrip_all_fields(void **state)
{
    static const char bin[] = {'\x01', '\xff', '\x80', ' ', '~'};
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_EXITED);
    lt_wire_put_u8(&w, 0);
    lt_wire_put_u8(&w, 0xff);
    lt_wire_put_u32(&w, 0);
    lt_wire_put_u32(&w, UINT32_MAX);
    lt_wire_put_u32(&w, 0x80000001u);
    lt_wire_put_u64(&w, 0);
    lt_wire_put_u64(&w, UINT64_MAX);
    lt_wire_put_u64(&w, 0x8000000000000001ull);
    lt_wire_put_str(&w, bin, sizeof(bin));
    lt_wire_put_str(&w, NULL, 0);
    lt_wire_put_cstr(&w, "héllo wörld");
    lt_wire_put_cstr(&w, "");
    lt_wire_put_cstr(&w, NULL); /* sent as the empty string */
    lt_wire_put_str(&w, "keep\0this", 9); /* NUL is data for get_str */
    lt_wire_finish(&w);
    assert_int_equal(le32(w.data), w.len - 4);
    assert_int_equal(w.data[4], LT_FRAME_EXITED);

    struct lt_wire_reader r;
    payload_of(&w, &r);
    assert_int_equal(lt_wire_get_u8(&r), 0);
    assert_int_equal(lt_wire_get_u8(&r), 0xff);
    assert_int_equal(lt_wire_get_u32(&r), 0);
    assert_int_equal(lt_wire_get_u32(&r), UINT32_MAX);
    assert_int_equal(lt_wire_get_u32(&r), 0x80000001u);
    assert_true(lt_wire_get_u64(&r) == 0);
    assert_true(lt_wire_get_u64(&r) == UINT64_MAX);
    assert_true(lt_wire_get_u64(&r) == 0x8000000000000001ull);
    size_t n = 99;
    const char *s = lt_wire_get_str(&r, &n);
    assert_int_equal(n, sizeof(bin));
    assert_memory_equal(s, bin, sizeof(bin));
    s = lt_wire_get_str(&r, &n);
    assert_int_equal(n, 0);
    assert_non_null(s);
    char *d = lt_wire_get_strdup(&r);
    assert_string_equal(d, "héllo wörld");
    free(d);
    d = lt_wire_get_strdup(&r);
    assert_string_equal(d, "");
    free(d);
    d = lt_wire_get_strdup(&r);
    assert_string_equal(d, "");
    free(d);
    s = lt_wire_get_str(&r, &n);
    assert_int_equal(n, 9);
    assert_memory_equal(s, "keep\0this", 9);
    assert_int_equal(r.bad, 0);
    assert_int_equal(lt_wire_reader_done(&r), 0);
    lt_wire_writer_free(&w);
}

/* The writer grows past its first allocation without losing bytes. */
static void test_writer_growth(void **state)
{
    enum { N = 100000 };
    char *big = malloc(N);
    assert_non_null(big);
    for (size_t i = 0; i < N; i++)
        big[i] = (char)('a' + i % 26);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_INIT);
    for (uint32_t i = 0; i < 1000; i++)
        lt_wire_put_u32(&w, i);
    lt_wire_put_str(&w, big, N);
    lt_wire_put_u8(&w, 7);
    lt_wire_finish(&w);
    assert_int_equal(w.len, 5 + 4000 + 4 + N + 1);
    assert_true(w.cap >= w.len);
    assert_int_equal(le32(w.data), w.len - 4);

    struct lt_wire_reader r;
    payload_of(&w, &r);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(lt_wire_get_u32(&r), i);
    size_t n;
    const char *s = lt_wire_get_str(&r, &n);
    assert_int_equal(n, N);
    assert_memory_equal(s, big, N);
    assert_int_equal(lt_wire_get_u8(&r), 7);
    assert_int_equal(lt_wire_reader_done(&r), 0);
    lt_wire_writer_free(&w);
    free(big);
}

/* A string with a NUL inside is refused by get_strdup (it would be cut
 * short by every C consumer), and the reader turns bad for good. */
static void test_strdup_rejects_nul(void **state)
{
    static const char *const cases[] = {"\0abc", "ab\0c", "abc\0"};
    for (size_t i = 0; i < 3; i++) {
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_FAILED);
        lt_wire_put_str(&w, cases[i], 4);
        lt_wire_put_u32(&w, 42);
        lt_wire_finish(&w);
        struct lt_wire_reader r;
        payload_of(&w, &r);
        assert_null(lt_wire_get_strdup(&r));
        assert_int_equal(r.bad, 1);
        assert_int_equal(lt_wire_get_u32(&r), 0); /* not 42: reader is bad */
        assert_int_equal(lt_wire_reader_done(&r), LT_EPROTO);
        lt_wire_writer_free(&w);
    }
}

/* Each read past the end gives 0 and sets bad; later reads that would fit
 * still give 0. */
static void test_read_past_end(void **state)
{
    static const uint8_t p[] = {1, 2, 3, 4, 5, 6, 7};
    struct lt_wire_reader r;

    lt_wire_reader_init(&r, p, 0);
    assert_int_equal(lt_wire_get_u8(&r), 0);
    assert_int_equal(r.bad, 1);

    lt_wire_reader_init(&r, p, 3);
    assert_int_equal(lt_wire_get_u32(&r), 0);
    assert_int_equal(r.bad, 1);
    assert_int_equal(lt_wire_get_u8(&r), 0); /* a byte is there, still 0 */

    lt_wire_reader_init(&r, p, 7);
    assert_true(lt_wire_get_u64(&r) == 0);
    assert_int_equal(r.bad, 1);

    lt_wire_reader_init(&r, p, 7);
    assert_int_equal(lt_wire_get_u32(&r), 0x04030201u);
    assert_int_equal(lt_wire_get_u32(&r), 0); /* 3 left */
    assert_int_equal(r.bad, 1);
    assert_int_equal(lt_wire_reader_done(&r), LT_EPROTO);

    /* A string whose length runs past the end. */
    static const uint8_t s[] = {5, 0, 0, 0, 'a', 'b', 'c', 'd'};
    lt_wire_reader_init(&r, s, sizeof(s));
    size_t n = 99;
    const char *str = lt_wire_get_str(&r, &n);
    assert_int_equal(n, 0);
    assert_non_null(str);
    assert_int_equal(r.bad, 1);

    lt_wire_reader_init(&r, s, sizeof(s));
    assert_null(lt_wire_get_strdup(&r));
    assert_int_equal(r.bad, 1);

    /* A length that would wrap a 32-bit size computation. */
    static const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 'x'};
    lt_wire_reader_init(&r, huge, sizeof(huge));
    str = lt_wire_get_str(&r, &n);
    assert_int_equal(n, 0);
    assert_int_equal(r.bad, 1);

    /* A string length cut short. */
    lt_wire_reader_init(&r, s, 2);
    str = lt_wire_get_str(&r, &n);
    assert_int_equal(n, 0);
    assert_int_equal(r.bad, 1);
}

/* reader_done: 0 only when every read was in bounds and nothing is left. */
static void test_reader_done(void **state)
{
    static const uint8_t p[] = {9, 1, 0, 0, 0};
    struct lt_wire_reader r;

    lt_wire_reader_init(&r, p, 0);
    assert_int_equal(lt_wire_reader_done(&r), 0);

    lt_wire_reader_init(&r, p, sizeof(p));
    assert_int_equal(lt_wire_reader_done(&r), LT_EPROTO);
    assert_int_equal(lt_wire_get_u8(&r), 9);
    assert_int_equal(lt_wire_reader_done(&r), LT_EPROTO); /* 4 left */
    assert_int_equal(lt_wire_get_u8(&r), 1);
    assert_int_equal(lt_wire_reader_done(&r), LT_EPROTO); /* 3 left */
    assert_int_equal(r.left, 3);
    assert_int_equal(lt_wire_get_u8(&r), 0);
    assert_int_equal(lt_wire_get_u8(&r), 0);
    assert_int_equal(lt_wire_get_u8(&r), 0);
    assert_int_equal(lt_wire_reader_done(&r), 0);
    assert_int_equal(lt_wire_get_u8(&r), 0); /* one too many */
    assert_int_equal(lt_wire_reader_done(&r), LT_EPROTO);
}

const struct CMUnitTest wire_tests[] = {
    LT_TEST(test_empty_frame_bytes),
    LT_TEST(test_field_bytes),
    LT_TEST(test_roundtrip_all_fields),
    LT_TEST(test_writer_growth),
    LT_TEST(test_strdup_rejects_nul),
    LT_TEST(test_read_past_end),
    LT_TEST(test_reader_done),
};
const size_t wire_ntests = sizeof(wire_tests) / sizeof(wire_tests[0]);
