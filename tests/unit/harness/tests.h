/* Shared declarations of the harness unit tests: the test groups and a
 * few helpers for building frames by hand.  SPDX-License-Identifier: MIT */
#ifndef LT_TEST_HARNESS_TESTS_H
#define LT_TEST_HARNESS_TESTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* Arms a per-test watchdog: a test that blocks (a recv that never gets
 * its bytes) dies of SIGALRM instead of hanging until CTest's timeout. */
int test_watchdog(void **state);
int test_watchdog_off(void **state);

/* Writes a raw frame header (length, type) into out[0..5). */
void test_put_header(uint8_t out[5], uint32_t len, uint8_t type);

extern const struct CMUnitTest wire_tests[];
extern const size_t wire_ntests;
extern const struct CMUnitTest wire_io_tests[];
extern const size_t wire_io_ntests;
extern const struct CMUnitTest decoder_tests[];
extern const size_t decoder_ntests;

#define LT_TEST(fn) cmocka_unit_test_setup_teardown(fn, test_watchdog, \
                                                    test_watchdog_off)

#endif
