/* gcov flush for processes that leave with _exit() (see cov.h).
 * SPDX-License-Identifier: MIT */
#include "common/cov.h"

#ifdef LT_COVERAGE
/* libgcov (GCC 11 and later): __gcov_dump writes the counts once and
 * marks them written; __gcov_reset zeroes them and clears that mark. */
extern void __gcov_dump(void);
extern void __gcov_reset(void);

void lt_cov_flush(void)
{
    __gcov_dump();
    __gcov_reset();
}
#else
void lt_cov_flush(void)
{
}
#endif
