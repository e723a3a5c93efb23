/* main() of the harness unit tests and their shared helpers.
 * SPDX-License-Identifier: MIT */
#include "tests.h"

#include <signal.h>
#include <unistd.h>

int test_watchdog(void **state)
{
    (void)state;
    alarm(10);
    return 0;
}

int test_watchdog_off(void **state)
{
    (void)state;
    alarm(0);
    return 0;
}

void test_put_header(uint8_t out[5], uint32_t len, uint8_t type)
{
    for (int i = 0; i < 4; i++)
        out[i] = (uint8_t)(len >> (8 * i));
    out[4] = type;
}

int main(void)
{
    /* A send to a peer a test has already closed must fail with EPIPE,
     * not kill the test binary. */
    signal(SIGPIPE, SIG_IGN);
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = 0;
    failed += _cmocka_run_group_tests("wire", wire_tests, wire_ntests, NULL,
                                      NULL);
    failed += _cmocka_run_group_tests("wire_io", wire_io_tests,
                                      wire_io_ntests, NULL, NULL);
    failed += _cmocka_run_group_tests("decoder", decoder_tests,
                                      decoder_ntests, NULL, NULL);
    return failed ? 1 : 0;
}
