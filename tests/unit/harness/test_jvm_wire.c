/* Unit tests of the Java workers' wire codec (harness/jvm_wire.h): round
 * trips, messages split anywhere, the limits, and every malformed shape,
 * which must be refused for good.  SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/jvm_wire.h"

static const char bin[] = {'a', '\0', '\n', 'b'};

static const struct lt_jvm_field sample[] = {
    {"op", "run", 3},
    {"program", "class A {}\n", 11},
    {"empty", "", 0},
    {"data_x", bin, sizeof(bin)},
    {"op", "second", 6},
};
#define NSAMPLE (sizeof(sample) / sizeof(sample[0]))

static void encode_sample(struct lt_buf *b)
{
    lt_jvm_encode(b, sample, NSAMPLE);
}

static void check_sample(const struct lt_jvm_msg *m)
{
    assert_int_equal(m->n, NSAMPLE);
    for (size_t i = 0; i < NSAMPLE; i++) {
        assert_string_equal(m->f[i].name, sample[i].name);
        assert_int_equal(m->f[i].len, sample[i].len);
        assert_memory_equal(m->f[i].val, sample[i].val, sample[i].len);
        assert_int_equal(m->f[i].val[m->f[i].len], '\0');
    }
    size_t len = 0;
    const char *op = lt_jvm_msg_get(m, "op", &len);
    assert_non_null(op);
    assert_string_equal(op, "run"); /* the first of the two */
    assert_int_equal(len, 3);
    assert_null(lt_jvm_msg_get(m, "nothing", NULL));
}

static void test_round_trip(void **state)
{
    (void)state;
    struct lt_buf b = LT_BUF_INIT;
    encode_sample(&b);
    assert_true(strncmp(b.data, "LTJ 5\nop 3\nrun\n", 15) == 0);
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    lt_jvm_decoder_feed(&d, b.data, b.len);
    assert_int_equal(lt_jvm_decoder_next(&d, &m), 1);
    check_sample(&m);
    lt_jvm_msg_free(&m);
    assert_int_equal(lt_jvm_decoder_next(&d, &m), 0);
    lt_jvm_decoder_free(&d);
    lt_buf_free(&b);
}

static void test_zero_fields(void **state)
{
    (void)state;
    struct lt_buf b = LT_BUF_INIT;
    lt_jvm_encode(&b, NULL, 0);
    assert_int_equal(b.len, 6);
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    lt_jvm_decoder_feed(&d, b.data, b.len);
    assert_int_equal(lt_jvm_decoder_next(&d, &m), 1);
    assert_int_equal(m.n, 0);
    assert_null(lt_jvm_msg_get(&m, "op", NULL));
    lt_jvm_msg_free(&m);
    lt_jvm_decoder_free(&d);
    lt_buf_free(&b);
}

/* Three messages in one stream, fed split at every point and a byte at
 * a time: the same three come out, each only once it is whole. */
static void test_split_feeds(void **state)
{
    (void)state;
    struct lt_buf b = LT_BUF_INIT;
    for (int i = 0; i < 3; i++)
        encode_sample(&b);
    size_t one = b.len / 3;
    for (size_t cut = 0; cut <= b.len; cut++) {
        struct lt_jvm_decoder d;
        struct lt_jvm_msg m;
        lt_jvm_decoder_init(&d);
        int got = 0;
        lt_jvm_decoder_feed(&d, b.data, cut);
        while (lt_jvm_decoder_next(&d, &m) == 1) {
            check_sample(&m);
            lt_jvm_msg_free(&m);
            got++;
        }
        assert_int_equal(got, (int)(cut / one));
        lt_jvm_decoder_feed(&d, b.data + cut, b.len - cut);
        while (lt_jvm_decoder_next(&d, &m) == 1) {
            check_sample(&m);
            lt_jvm_msg_free(&m);
            got++;
        }
        assert_int_equal(got, 3);
        lt_jvm_decoder_free(&d);
    }
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    int got = 0;
    for (size_t i = 0; i < b.len; i++) {
        lt_jvm_decoder_feed(&d, b.data + i, 1);
        int rc = lt_jvm_decoder_next(&d, &m);
        assert_true(rc == 0 || rc == 1);
        if (rc == 1) {
            assert_int_equal(i + 1, (size_t)(got + 1) * one);
            check_sample(&m);
            lt_jvm_msg_free(&m);
            got++;
        }
    }
    assert_int_equal(got, 3);
    lt_jvm_decoder_free(&d);
    lt_buf_free(&b);
}

/* The limits themselves are accepted: a 32-character name, 100,000
 * fields. */
static void test_limits_accepted(void **state)
{
    (void)state;
    struct lt_buf b = LT_BUF_INIT;
    struct lt_jvm_field *f = xcalloc(LT_JVM_MAX_FIELDS, sizeof(*f));
    for (size_t i = 0; i < LT_JVM_MAX_FIELDS; i++)
        f[i] = (struct lt_jvm_field){"abcdefghijklmnopqrstuvwxyz_abcde",
                                     "v", 1};
    assert_int_equal(strlen(f[0].name), LT_JVM_MAX_NAME);
    lt_jvm_encode(&b, f, LT_JVM_MAX_FIELDS);
    free(f);
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    /* In pipe-sized chunks, as the engine reads. */
    int rc = 0;
    for (size_t off = 0; off < b.len && rc == 0; off += 65536) {
        size_t n = b.len - off < 65536 ? b.len - off : 65536;
        lt_jvm_decoder_feed(&d, b.data + off, n);
        rc = lt_jvm_decoder_next(&d, &m);
    }
    assert_int_equal(rc, 1);
    assert_int_equal(m.n, LT_JVM_MAX_FIELDS);
    assert_string_equal(m.f[LT_JVM_MAX_FIELDS - 1].val, "v");
    lt_jvm_msg_free(&m);
    lt_jvm_decoder_free(&d);
    lt_buf_free(&b);
}

/* Each stream is refused as soon as it is known to be bad (complete or
 * not), and the decoder stays refusing, even a good message after. */
static void test_malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "LTX 1\n",               /* magic */
        "ltj 1\n",
        "LTJ\n",
        "LTJ \n",                /* no count */
        "LTJ 01\n",              /* leading zero */
        "LTJ 100001\n",          /* too many fields */
        "LTJ 1000000",           /* too many digits, incomplete */
        "LTJ 1a\n",
        "LTJ -1\n",
        "LTJ 1 \n",
        "LTJ 1\nOp 1\nx\n",      /* upper-case name */
        "LTJ 1\n 1\nx\n",        /* empty name */
        "LTJ 1\nop1 1\nx\n",     /* digit in a name */
        "LTJ 1\nabcdefghijklmnopqrstuvwxyz_abcdef 1\nx\n", /* 33 chars */
        "LTJ 1\nabcdefghijklmnopqrstuvwxyz_abcdef",        /* incomplete */
        "LTJ 1\nop\n1\nx\n",     /* no space */
        "LTJ 1\nop 01\nx\n",     /* leading zero */
        "LTJ 1\nop \nx\n",       /* no length */
        "LTJ 1\nop -1\nx\n",
        "LTJ 1\nop 1x\n",
        "LTJ 1\nop 67108865\n",  /* over 64 MiB, before any byte */
        "LTJ 1\nop 123456789",   /* too many digits */
        "LTJ 1\nop 1\nxy",       /* no newline after the value */
        "LTJ 2\nop 1\nx\nop 2\nab\r",
        /* Two fields whose sum passes the cap: the second's header is
         * enough to refuse. */
        "LTJ 2\na 40000000\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct lt_jvm_decoder d;
        struct lt_jvm_msg m;
        lt_jvm_decoder_init(&d);
        lt_jvm_decoder_feed(&d, bad[i], strlen(bad[i]));
        int rc = lt_jvm_decoder_next(&d, &m);
        if (i == sizeof(bad) / sizeof(bad[0]) - 1) {
            /* Feed the first value's 40,000,000 bytes, then the second
             * field's header. */
            assert_int_equal(rc, 0);
            char *big = xcalloc(40000001, 1);
            memset(big, 'x', 40000000);
            big[40000000] = '\n';
            lt_jvm_decoder_feed(&d, big, 40000001);
            free(big);
            assert_int_equal(lt_jvm_decoder_next(&d, &m), 0);
            lt_jvm_decoder_feed(&d, "b 30000000\n", 11);
            rc = lt_jvm_decoder_next(&d, &m);
        }
        if (rc != LT_EPROTO)
            fprintf(stderr, "# case %zu: \"%s\" gave %d\n", i, bad[i], rc);
        assert_int_equal(rc, LT_EPROTO);
        assert_null(m.f);
        struct lt_buf good = LT_BUF_INIT;
        encode_sample(&good);
        lt_jvm_decoder_feed(&d, good.data, good.len);
        assert_int_equal(lt_jvm_decoder_next(&d, &m), LT_EPROTO);
        lt_buf_free(&good);
        lt_jvm_decoder_free(&d);
    }
}

/* A prefix of the magic waits for more; a wrong byte after it fails. */
static void test_partial_magic(void **state)
{
    (void)state;
    struct lt_jvm_decoder d;
    struct lt_jvm_msg m;
    lt_jvm_decoder_init(&d);
    assert_int_equal(lt_jvm_decoder_next(&d, &m), 0);
    lt_jvm_decoder_feed(&d, "LT", 2);
    assert_int_equal(lt_jvm_decoder_next(&d, &m), 0);
    lt_jvm_decoder_feed(&d, "X", 1);
    assert_int_equal(lt_jvm_decoder_next(&d, &m), LT_EPROTO);
    lt_jvm_decoder_free(&d);
}

static void test_names(void **state)
{
    (void)state;
    assert_true(lt_jvm_name_valid("op"));
    assert_true(lt_jvm_name_valid("call_budget_ms"));
    assert_false(lt_jvm_name_valid(""));
    assert_false(lt_jvm_name_valid("Op"));
    assert_false(lt_jvm_name_valid("a b"));
    assert_false(lt_jvm_name_valid("abcdefghijklmnopqrstuvwxyz_abcdef"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_zero_fields),
        cmocka_unit_test(test_split_feeds),
        cmocka_unit_test(test_limits_accepted),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_partial_magic),
        cmocka_unit_test(test_names),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("jvm_wire", tests, NULL, NULL);
}
