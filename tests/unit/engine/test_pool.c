/* Unit tests of the pool's start-up reading: the IMPORT_LINES frame a
 * zygote sends before READY is hostile input (count capped by the payload,
 * subject indices checked), and only the first zygote's is kept.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/err.h"
#include "engine/core/pool.h"
#include "engine/core/run.h"
#include "harness/wire.h"
#include "runners/frames.h"

static void send_import_lines(int fd, uint64_t ns, uint32_t count,
                              const uint32_t *pairs, uint32_t n_pairs)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_IMPORT_LINES);
    lt_wire_put_u64(&w, ns);
    lt_wire_put_u32(&w, count);
    for (uint32_t k = 0; k < 2 * n_pairs; k++)
        lt_wire_put_u32(&w, pairs[k]);
    lt_wire_finish(&w);
    assert_int_equal(lt_wire_send(fd, &w, NULL, 0), 0);
    lt_wire_writer_free(&w);
}

static void send_ready(int fd)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_READY);
    lt_wire_put_u32(&w, 0);
    lt_wire_put_u32(&w, 1);
    lt_wire_put_cstr(&w, "test_x.py::test_a");
    lt_wire_finish(&w);
    assert_int_equal(lt_wire_send(fd, &w, NULL, 0), 0);
    lt_wire_writer_free(&w);
}

/* A pool of two subjects and a fake zygote on a socketpair: sv[1] is the
 * zygote's end. */
static void fake_pool(struct pool *pool, struct zygote *z, int sv[2])
{
    memset(pool, 0, sizeof(*pool));
    memset(z, 0, sizeof(*z));
    pool->cfg.n_subjects = 2;
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    z->sock = sv[0];
}

static void free_pool(struct pool *pool, int sv[2])
{
    for (size_t i = 0; pool->test_ids && i < pool->n_tests; i++)
        free(pool->test_ids[i]);
    free(pool->test_ids);
    free(pool->import_pairs);
    close(sv[0]);
    close(sv[1]);
}

static void test_import_lines_kept(void **state)
{
    (void)state;
    struct pool pool;
    struct zygote z;
    int sv[2];
    fake_pool(&pool, &z, sv);
    uint32_t pairs[] = {0, 3, 1, 7, 1, 9};
    send_import_lines(sv[1], 250000000u, 3, pairs, 3);
    send_ready(sv[1]);
    char *fail = NULL;
    assert_int_equal(lt__read_ready(&pool, &z, &fail), 0);
    assert_null(fail);
    assert_int_equal(pool.have_import, 1);
    assert_int_equal(pool.n_import, 3);
    assert_int_equal(pool.import_pairs[2], 1);
    assert_int_equal(pool.import_pairs[3], 7);
    assert_true(pool.import_s > 0.24 && pool.import_s < 0.26);
    assert_int_equal(pool.n_tests, 1);

    /* A second zygote's lines are read and dropped. */
    uint32_t other[] = {0, 1};
    send_import_lines(sv[1], 1, 1, other, 1);
    send_ready(sv[1]);
    assert_int_equal(lt__read_ready(&pool, &z, &fail), 0);
    assert_int_equal(pool.n_import, 3);
    free_pool(&pool, sv);
}

static void test_import_lines_bad_subject(void **state)
{
    (void)state;
    struct pool pool;
    struct zygote z;
    int sv[2];
    fake_pool(&pool, &z, sv);
    uint32_t pairs[] = {0, 3, 2, 1}; /* subject 2 of 2 */
    send_import_lines(sv[1], 1, 2, pairs, 2);
    char *fail = NULL;
    assert_int_equal(lt__read_ready(&pool, &z, &fail), LT_EPROTO);
    assert_non_null(fail);
    assert_int_equal(pool.have_import, 0);
    free(fail);
    free_pool(&pool, sv);
}

static void test_import_lines_count_past_payload(void **state)
{
    (void)state;
    struct pool pool;
    struct zygote z;
    int sv[2];
    fake_pool(&pool, &z, sv);
    uint32_t pairs[] = {0, 3};
    /* Claims a billion pairs, carries one: rejected before allocating. */
    send_import_lines(sv[1], 1, 1000000000u, pairs, 1);
    char *fail = NULL;
    assert_int_equal(lt__read_ready(&pool, &z, &fail), LT_EPROTO);
    free(fail);
    assert_null(pool.import_pairs);
    free_pool(&pool, sv);
}

static void test_import_lines_trailing_bytes(void **state)
{
    (void)state;
    struct pool pool;
    struct zygote z;
    int sv[2];
    fake_pool(&pool, &z, sv);
    uint32_t pairs[] = {0, 3, 1, 4};
    /* Two pairs sent, one announced: the payload is not used up. */
    send_import_lines(sv[1], 1, 1, pairs, 2);
    char *fail = NULL;
    assert_int_equal(lt__read_ready(&pool, &z, &fail), LT_EPROTO);
    free(fail);
    free_pool(&pool, sv);
}

/* One child's run on a fake pool: the tests (index, CPU ms) sent as
 * TEST_START and TEST_RESULT frames on a pipe and read by the engine. */
static void child_runs(struct pool *pool, const uint32_t *tests,
                       const double *cpu_ms, size_t n)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
    struct lt_run_spec spec;
    memset(&spec, 0, sizeof(spec));
    lt_run_spec_alloc(&spec, pool->n_tests, 0);
    struct job j;
    lt__job_begin(&j, &spec, 60);
    j.result_fd = p[0];
    j.sandboxed = 1;
    lt_wire_decoder_init(&j.dec, LT_WIRE_MAX_CHILD_FRAME);
    for (size_t k = 0; k < n; k++) {
        struct lt_reply start = {.type = LT_FRAME_TEST_START,
                                 .test_start = {tests[k]}};
        struct lt_reply result = {
            .type = LT_FRAME_TEST_RESULT,
            .test_result = {tests[k], LT_TEST_PASSED, 1000,
                            (uint64_t)(cpu_ms[k] * 1e6),
                            lt_reply_text_of("", 10)}};
        const struct lt_reply *frames[] = {&start, &result};
        for (int i = 0; i < 2; i++) {
            struct lt_wire_writer w;
            assert_int_equal(lt_reply_encode(&w, frames[i]), 0);
            lt_wire_finish(&w);
            assert_int_equal(lt_wire_send(p[1], &w, NULL, 0), 0);
            lt_wire_writer_free(&w);
        }
        lt__job_read_results(pool, &j);
        assert_int_equal(j.protocol_error, 0);
        assert_int_equal(j.n_results, (int)k + 1);
    }
    close(p[1]);
    lt__job_reset(&j);
}

/* The warm-up a child's first test pays: learnt as that test's excess
 * over its least time when it ran later in a child; the allowance is
 * twice the median of the last samples, none before three. */
static void test_warmup_allowance_learnt(void **state)
{
    (void)state;
    struct pool pool;
    memset(&pool, 0, sizeof(pool));
    pool.n_tests = 4;
    /* A baseline: test 0 pays the warm-up, the others give their own
     * time; no sample yet (test 0 never ran later in a child). */
    child_runs(&pool, (uint32_t[]){0, 1, 2, 3},
               (double[]){50, 2, 3, 1}, 4);
    assert_int_equal(pool.n_warmup, 0);
    assert_true(lt__pool_warmup_allowance(&pool) == 0);
    /* Mutants' children: each first test is a sample. */
    child_runs(&pool, (uint32_t[]){1, 2}, (double[]){42, 3}, 2);
    child_runs(&pool, (uint32_t[]){2}, (double[]){63}, 1);
    assert_int_equal(pool.n_warmup, 2);
    assert_true(lt__pool_warmup_allowance(&pool) == 0);
    child_runs(&pool, (uint32_t[]){3, 1}, (double[]){21, 1.5}, 2);
    assert_int_equal(pool.n_warmup, 3);
    /* Samples 40, 60 and 20 ms: 2 x 40 ms. */
    assert_true(fabs(lt__pool_warmup_allowance(&pool) - 80e6) < 1);
    /* Test 1 ran later at 1.5 ms: its steady time is the least. */
    assert_true(fabs(pool.steady_ns[1] - 1.5e6) < 1);
    /* A sample never goes below 0; the last samples count. */
    for (int k = 0; k < LT__WARMUP_SAMPLES; k++)
        child_runs(&pool, (uint32_t[]){2}, (double[]){1}, 1);
    assert_true(lt__pool_warmup_allowance(&pool) == 0);
    free(pool.steady_ns);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_lines_kept),
        cmocka_unit_test(test_import_lines_bad_subject),
        cmocka_unit_test(test_import_lines_count_past_payload),
        cmocka_unit_test(test_import_lines_trailing_bytes),
        cmocka_unit_test(test_warmup_allowance_learnt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
