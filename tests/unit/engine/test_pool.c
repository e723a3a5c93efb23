/* Unit tests of the pool's start-up reading: the IMPORT_LINES frame a
 * zygote sends before READY is hostile input (count capped by the payload,
 * subject indices checked), and only the first zygote's is kept.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
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
#include "harness/wire.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_lines_kept),
        cmocka_unit_test(test_import_lines_bad_subject),
        cmocka_unit_test(test_import_lines_count_past_payload),
        cmocka_unit_test(test_import_lines_trailing_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
